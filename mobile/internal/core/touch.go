package core

import "github.com/psd2live/p2l-ebiten/p2l"

// Touch is one finger on the view this tick, in layout pixels.
type Touch struct {
	ID   int
	X, Y float64
}

// defaultSlop is the tap/drag threshold in layout pixels before the game
// scales it by the device scale factor (Android's touch slop is 8 dp).
const defaultSlop = 8

// gesture follows the first finger that touches the view; other fingers are
// ignored until it lifts. A touch that never moves farther than slop from
// where it started is a tap (handled on release, at the start point); once
// it moves farther it is a drag that steers the gaze until release.
type gesture struct {
	slop     float64
	active   bool
	id       int
	x0, y0   float64
	dragging bool
}

func (g *gesture) reset() {
	g.active, g.dragging = false, false
}

// touch feeds the fingers down this tick. It returns whether the gesture
// is active, and performs the tap, drag and release effects. The mutex must
// be held and the character must be live.
func (c *Core) touch(m *p2l.Model, r Rig, touches []Touch) {
	g := &c.gesture
	if !g.active {
		if len(touches) == 0 {
			return
		}
		t := touches[0]
		g.active, g.id, g.x0, g.y0, g.dragging = true, t.ID, t.X, t.Y, false
		return
	}
	for _, t := range touches {
		if t.ID != g.id {
			continue
		}
		dx, dy := t.X-g.x0, t.Y-g.y0
		if !g.dragging && dx*dx+dy*dy > g.slop*g.slop {
			g.dragging = true
		}
		if g.dragging {
			c.gaze(m, r, t.X, t.Y)
		}
		return
	}
	// The finger lifted.
	g.active = false
	if g.dragging {
		r.LookAt(0, 0) // the gaze returns to the front, like Cubism's samples
		c.pace.wake(wakeGaze)
		return
	}
	if a := c.hitAt(m, r, g.x0, g.y0); a >= 0 {
		c.pending = append(c.pending, note{kind: noteHit, id: m.HitAreas().At(a).ID})
		c.react(r, a)
	}
}

// gaze points the character's gaze at the view pixel (x, y): the point
// relative to the canvas centre, in half canvas sizes, clamped to [−1, 1],
// y up.
func (c *Core) gaze(m *p2l.Model, r Rig, x, y float64) {
	cx, cy, ok := c.view.toCanvas(m.Canvas(), x, y)
	if !ok {
		return
	}
	hw, hh := float64(m.Canvas().Width)/2, float64(m.Canvas().Height)/2
	r.LookAt(float32(clamp((cx-hw)/hw, -1, 1)), float32(clamp((hh-cy)/hh, -1, 1)))
	c.pace.wake(wakeGaze)
}
