// Package game is the ebiten.Game behind the mobile package's EbitenView:
// each tick it hands the fingers on the view to the core, and it draws the
// core's character when the core says something changed. All state and
// logic live in mobile/internal/core; this package is the thin Ebitengine
// side of it.
package game

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/mobile/internal/core"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// Game implements ebiten.Game for one core.
type Game struct {
	core *core.Core

	started bool
	redraw  bool
	scale   float64 // device scale factor, from the first Layout

	ids     []ebiten.TouchID
	touches []core.Touch
}

// New returns the game drawing c. From now on c makes the rig of each
// model it loads through an ebitenp2l.Character, which the game draws.
func New(c *core.Core) *Game {
	c.SetRigMaker(newCharacter)
	return &Game{core: c, redraw: true}
}

// Update feeds this tick's touches and time to the core.
func (g *Game) Update() error {
	if !g.started {
		// The screen is kept between frames so that idle frames need no
		// drawing (see core's pacing). Set here rather than in New: New
		// runs from an init function on mobile, before the UI exists.
		ebiten.SetScreenClearedEveryFrame(false)
		g.started = true
	}
	g.ids = ebiten.AppendTouchIDs(g.ids[:0])
	g.touches = g.touches[:0]
	for _, id := range g.ids {
		x, y := ebiten.TouchPosition(id)
		g.touches = append(g.touches, core.Touch{ID: int(id), X: float64(x), Y: float64(y)})
	}
	tps := ebiten.TPS()
	if tps <= 0 {
		tps = 60
	}
	if g.core.Tick(1/float64(tps), g.touches) {
		g.redraw = true
	}
	return nil
}

// Draw redraws the character when the core changed; otherwise the screen
// keeps the previous frame.
func (g *Game) Draw(screen *ebiten.Image) {
	if !g.redraw {
		return
	}
	g.redraw = false
	g.core.Draw(func(m *p2l.Model, r core.Rig, t core.Transform, bg core.Color) {
		screen.Fill(premultiplied(bg))
		if m != nil {
			drawCharacter(screen, r, t)
		}
	})
}

// Layout renders at the device's pixel resolution: the view's size in
// device-independent pixels times the device scale factor. Touch positions
// are then in the same pixels.
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	if g.scale == 0 {
		g.scale = 1
		if m := ebiten.Monitor(); m != nil {
			if s := m.DeviceScaleFactor(); s > 0 {
				g.scale = s
			}
		}
		g.core.SetTouchSlop(8 * g.scale) // Android's touch slop: 8 dp
	}
	w, h := int(float64(outsideWidth)*g.scale), int(float64(outsideHeight)*g.scale)
	g.core.SetViewSize(float64(w), float64(h))
	return w, h
}

// premultiplied converts a straight-alpha color in [0, 1] to the
// premultiplied 8-bit color ebiten's Fill takes.
func premultiplied(c core.Color) color.RGBA {
	to8 := func(v float32) uint8 { return uint8(v*255 + 0.5) }
	return color.RGBA{R: to8(c.R * c.A), G: to8(c.G * c.A), B: to8(c.B * c.A), A: to8(c.A)}
}
