package ebitenp2l_test

import (
	"fmt"
	"log"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// Game shows one character, following the cursor with its eyes and head.
type Game struct {
	hero *ebitenp2l.Character
}

func (g *Game) Update() error {
	// Look at the cursor (through the GeoM of the last Draw).
	mx, my := ebiten.CursorPosition()
	g.hero.LookAtScreen(float64(mx), float64(my))
	if ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) {
		if area := g.hero.HitTest(float64(mx), float64(my)); area >= 0 {
			log.Println("clicked", g.hero.Rig().Model().HitAreas().At(area).Name)
		}
	}
	g.hero.Update(1 / float64(ebiten.TPS()))
	return nil
}

func (g *Game) Draw(screen *ebiten.Image) {
	var o ebitenp2l.DrawOptions
	o.GeoM.Scale(0.4, 0.4) // canvas pixels → screen pixels
	o.GeoM.Translate(120, 0)
	g.hero.Draw(screen, &o)
}

func (g *Game) Layout(int, int) (int, int) { return 640, 480 }

// Example is a complete program: the embedded default character in a
// window. (It is compiled but not run by go test: a test binary cannot
// open a second game loop.)
func Example() {
	model, err := assets.DefaultModel()
	if err != nil {
		log.Fatal(err)
	}
	hero := ebitenp2l.NewCharacter(model)     // released with the game: no Deallocate needed
	hero.Rig().SetBehaviors(p2l.AllBehaviors) // blink, breath, look-at, lip sync
	hero.Rig().Layer(0).Start(0)              // the first clip, if any
	ebiten.SetWindowTitle("p2l character")
	if err := ebiten.RunGame(&Game{hero: hero}); err != nil {
		log.Fatal(err)
	}
}

// ExampleGeoM places a sprite with a bone transform: GeoM turns the
// p2l.Affine of Rig.BoneTransform into an ebiten.GeoM (Character.BoneGeoM
// also appends the last Draw's GeoM).
func ExampleGeoM() {
	bone := p2l.Affine{A: 0, B: -1, C: 1, D: 0, TX: 300, TY: 120} // rotated 90°
	g := ebitenp2l.GeoM(bone)
	x, y := g.Apply(10, 0) // 10 pixels along the bone
	fmt.Println(x, y)
	// Output: 300 130
}
