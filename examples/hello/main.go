// Command hello shows the default character in a window: she breathes,
// blinks, follows the cursor from her face and reacts to clicks on her
// head and body. It is the program of the README.
package main

import (
	"image/color"
	"log"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/p2l"
)

type game struct {
	hero *ebitenp2l.Character
}

func (g *game) Update() error {
	x, y := ebiten.CursorPosition()
	g.hero.LookAtScreen(float64(x), float64(y)) // measured from her face
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		g.hero.Tap(float64(x), float64(y)) // plays "Tap" + the hit area's name
	}
	g.hero.Update(1 / float64(ebiten.TPS()))
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.RGBA{0xea, 0xee, 0xf4, 0xff})
	var op ebitenp2l.DrawOptions
	op.GeoM.Scale(0.5, 0.5) // canvas pixels (1000×1200) to screen pixels
	g.hero.Draw(screen, &op)
}

func (g *game) Layout(int, int) (int, int) { return 500, 600 }

func main() {
	// The embedded default character; p2l.LoadFile("x.p2lrt") loads
	// another. Load a model once and share it between characters.
	model, err := assets.DefaultModel()
	if err != nil {
		log.Fatal(err)
	}
	hero := ebitenp2l.NewCharacter(model)
	hero.Rig().SetBehaviors(p2l.AllBehaviors) // blink, breath, look-at, lip sync
	if err := hero.Rig().SetIdleGroup("Idle"); err != nil {
		log.Fatal(err) // the error lists the model's clip groups
	}
	ebiten.SetWindowSize(500, 600)
	ebiten.SetWindowTitle("hello")
	if err := ebiten.RunGame(&game{hero: hero}); err != nil {
		log.Fatal(err)
	}
}
