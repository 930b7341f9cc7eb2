package ebitenp2l

import (
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// TestLookAtFromTheFace: the default character's look-at anchor lies in
// her head hit area; with the cursor on it she looks straight ahead (the
// head angles stay near 0), with the cursor at the canvas centre (below
// the face, on her chest) she looks down, and SetLookAtAnchor moves the
// anchor.
func TestLookAtFromTheFace(t *testing.T) {
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	ax, ay := m.ParameterIndex("ParamAngleX"), m.ParameterIndex("ParamAngleY")
	var c *Character
	onGame(func() { c = NewCharacter(m) })
	defer onGame(c.Deallocate)
	fx, fy := c.LookAtAnchor()
	r := c.Rig()
	if h := r.HitTest(float32(fx), float32(fy)); h < 0 || m.TapGroup(h) != "TapHead" {
		t.Fatalf("anchor (%.0f, %.0f) is not in the head hit area (hit %d)", fx, fy, h)
	}
	look := func(sx, sy float64) (float32, float32) {
		r.SetBehaviors(p2l.BehaviorLookAt)
		c.LookAtScreen(sx, sy)
		for range 120 {
			c.Update(1.0 / 60)
		}
		return r.ParameterCurrent(ax), r.ParameterCurrent(ay)
	}
	// The last Draw's GeoM is the identity: screen = canvas.
	if x, y := look(fx, fy); math.Abs(float64(x)) > 0.5 || math.Abs(float64(y)) > 0.5 {
		t.Errorf("cursor on the face: AngleX %v, AngleY %v, want ~0", x, y)
	}
	cv := m.Canvas()
	if _, y := look(float64(cv.Width)/2, float64(cv.Height)/2); y > -3 {
		t.Errorf("cursor on the chest (canvas centre): AngleY %v, want looking down", y)
	}
	c.SetLookAtAnchor(float64(cv.Width)/2, float64(cv.Height)/2)
	if x, y := look(float64(cv.Width)/2, float64(cv.Height)/2); math.Abs(float64(x)) > 0.5 || math.Abs(float64(y)) > 0.5 {
		t.Errorf("cursor on a set anchor: AngleX %v, AngleY %v, want ~0", x, y)
	}
}
