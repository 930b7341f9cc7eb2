// Command cubism plays a Live2D Cubism model:
//
//	go run ./examples/cubism PATH/NAME.model3.json   (or the folder holding it)
//
// The character idles through its Idle group, follows the cursor, plays
// the Tap<Area> group of the hit area clicked (or, when the model has no
// such group, a random expression, as Cubism's sample app does for the
// head), speaks with the motion's voice, blinks and breathes.
package main

import (
	"image/color"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
)

const height = 720 // window height in pixels

type game struct {
	char          *ebitenp2l.Character
	scale         float64
	width, height int
}

func (g *game) Update() error {
	x, y := ebiten.CursorPosition()
	g.char.LookAtScreen(float64(x), float64(y))
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		// Tap plays "Tap" + the area's name (TapBody); its motion's Sound,
		// if any, plays through the character's voice, mouth and all.
		m := g.char.Rig().Model()
		area, _ := g.char.Tap(float64(x), float64(y))
		if area >= 0 && !slices.Contains(m.ClipGroups(), m.TapGroup(area)) && m.Expressions().Len() > 0 {
			g.char.Rig().Expressions().Set(rand.IntN(m.Expressions().Len()))
		}
	}
	g.char.Update(1 / float64(ebiten.TPS()))
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.RGBA{0xe8, 0xf0, 0xe8, 0xff})
	var op ebitenp2l.DrawOptions
	op.GeoM.Scale(g.scale, g.scale) // canvas pixels to window pixels
	g.char.Draw(screen, &op)
}

func (g *game) Layout(int, int) (int, int) { return g.width, g.height }

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: go run ./examples/cubism PATH/NAME.model3.json (or its folder)")
	}
	// The bundle is a folder: its files are read through an fs.FS (an
	// embed.FS or a *zip.Reader work the same way).
	dir, name := filepath.Split(os.Args[1])
	if !strings.HasSuffix(name, ".model3.json") {
		dir = os.Args[1]
		var err error
		if name, err = cubism.FindModel3(os.DirFS(dir)); err != nil {
			log.Fatal(err)
		}
	}
	model, warnings, err := cubism.Load(os.DirFS(dir), name)
	if err != nil {
		log.Fatal(err)
	}
	if len(warnings) > 0 {
		log.Printf("%d warnings (what the Cubism framework would skip too), the first: %v", len(warnings), warnings[0])
	}
	char := ebitenp2l.NewCharacter(model)     // sounds are read from the bundle's folder
	char.Rig().SetBehaviors(p2l.AllBehaviors) // blink, breath, look-at, lip sync
	if err := char.Rig().SetIdleGroup("Idle"); err != nil {
		log.Print(err) // lists the model's groups
	}
	scale := height / float64(model.Canvas().Height)
	g := &game{char: char, scale: scale, width: int(float64(model.Canvas().Width) * scale), height: height}
	ebiten.SetWindowSize(g.width, g.height)
	ebiten.SetWindowTitle("cubism")
	if err := ebiten.RunGame(g); err != nil {
		log.Fatal(err)
	}
}
