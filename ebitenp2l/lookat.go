package ebitenp2l

import (
	"math"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// lookAim is where LookAtScreen aims from and how far it reaches.
type lookAim struct {
	face      [2]float64 // the face anchor (faceAnchor), canvas pixels
	hasFace   bool
	anchor    [2]float64 // set by SetLookAtAnchor
	hasAnchor bool
	reach     float64 // canvas pixels for the full range; 0: half the canvas
}

// faceAnchor returns the centre of the bounds of the head hit area's
// meshes in r's last evaluation: the hit area whose tap group is
// "TapHead" (p2l.Model.TapGroup: named "Head", or id "HitAreaHead"),
// ignoring case. ok is false when the model has none.
func faceAnchor(r *p2l.Rig) (xy [2]float64, ok bool) {
	m := r.Model()
	for i, a := range m.HitAreas().All() {
		if !strings.EqualFold(m.TapGroup(i), "TapHead") {
			continue
		}
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, mi := range a.Meshes {
			v := r.Mesh(mi).Vertices()
			for k := 0; k+1 < len(v); k += 2 {
				x, y := float64(v[k]), float64(v[k+1])
				x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
			}
		}
		if x0 <= x1 && y0 <= y1 {
			return [2]float64{(x0 + x1) / 2, (y0 + y1) / 2}, true
		}
	}
	return [2]float64{}, false
}

// LookAtScreen points the character's look-at behavior (Rig.LookAt, which
// must be enabled with Rig.SetBehaviors or EnableBehavior) at a point of
// the last Draw's destination, such as the cursor. The point is mapped to
// canvas pixels and measured from the look-at anchor (LookAtAnchor: by
// default the centre of the head hit area in the rest pose, so the
// character looks straight ahead when the cursor is on her face): x from
// −1 (one reach to the left) to 1 (one reach to the right), y from −1
// (below) to 1 (above); the reach is SetLookAtReach's, by default half the
// canvas width for x and half its height for y. Points beyond clamp.
func (c *Character) LookAtScreen(x, y float64) {
	cx, cy, ok := c.ScreenToCanvas(x, y)
	if !ok || c.rig == nil {
		return
	}
	ax, ay := c.LookAtAnchor()
	lx, ly := lookAtTarget(c.rig.Model().Canvas(), ax, ay, c.look.reach, cx, cy)
	c.rig.LookAt(lx, ly)
}

// LookAtAnchor returns the canvas point LookAtScreen measures from: the one
// set with SetLookAtAnchor, else the centre of the bounds of the head hit
// area (the area whose p2l.Model.TapGroup is "TapHead": named "Head" or
// with the id "HitAreaHead") in the pose the character was created in,
// else the canvas centre.
func (c *Character) LookAtAnchor() (x, y float64) {
	switch {
	case c.look.hasAnchor:
		return c.look.anchor[0], c.look.anchor[1]
	case c.look.hasFace:
		return c.look.face[0], c.look.face[1]
	case c.rig != nil:
		cv := c.rig.Model().Canvas()
		return float64(cv.Width) / 2, float64(cv.Height) / 2
	}
	return 0, 0
}

// SetLookAtAnchor sets the canvas point LookAtScreen measures from (for
// example the eyes of a model without a head hit area).
func (c *Character) SetLookAtAnchor(x, y float64) {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return
	}
	c.look.anchor, c.look.hasAnchor = [2]float64{x, y}, true
}

// SetLookAtReach sets the distance in canvas pixels from the anchor at
// which LookAtScreen turns the character fully (±1) in both axes; 0
// restores the default, half the canvas width (x) and height (y).
func (c *Character) SetLookAtReach(r float64) {
	if !(r >= 0) || math.IsInf(r, 0) {
		return
	}
	c.look.reach = r
}

// lookAtTarget maps canvas point (cx, cy) to the look-at range, measured
// from the anchor (ax, ay): reach pixels give ±1 (reach 0: half the canvas
// width for x, half the height for y); y is up.
func lookAtTarget(cv p2lrt.Canvas, ax, ay, reach, cx, cy float64) (x, y float32) {
	rx, ry := reach, reach
	if reach == 0 {
		rx, ry = float64(cv.Width)/2, float64(cv.Height)/2
	}
	if !(rx > 0 && ry > 0) {
		return 0, 0
	}
	return float32((cx - ax) / rx), float32((ay - cy) / ry)
}

// Tap reacts to a tap or click at a point of the last Draw's destination:
// the hit area there (HitTest, so by drawn pixels with HitOptions.Pixels)
// plays a random clip of its tap group (p2l.Model.TapGroup: "Tap" + the
// area's name) with p2l.PriorityNormal (Rig.TapArea). It returns the hit
// area (−1: none) and the clip started (−1: none).
func (c *Character) Tap(x, y float64) (area, clip int) {
	if c.rig == nil {
		return -1, -1
	}
	area = c.HitTest(x, y)
	return area, c.rig.TapArea(area)
}
