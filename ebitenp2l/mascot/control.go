package mascot

import (
	"math"

	"github.com/psd2live/p2l-ebiten/ebitenp2l"
)

// input is one tick of what the mascot reads: the cursor relative to the
// window (also outside it), the window's position, the left button held,
// and the presses that happened this tick.
type input struct {
	x, y       float64
	winX, winY int
	left       bool
	right      bool // right button just pressed
	shift      bool // held
	quit       bool // Q or Esc just pressed
	float      bool // T just pressed
}

// decision is what the mascot does about a tick.
type decision struct {
	passThrough    bool // clicks at the cursor go to the desktop
	move           bool // move the window to (winX, winY)
	winX, winY     int
	tap            bool // a tap at (tapX, tapY), window pixels
	tapX, tapY     float64
	toggleFloating bool
	save           bool // keep the window position (a drag ended)
	quit           bool
}

// controller turns ticks of input into decisions; on reports whether the
// character is drawn at a window point (Character.MeshAt ≥ 0).
type controller struct {
	passThrough bool // allowed at all (passThroughAllowed)
	drag        ebitenp2l.DragTap
	ignore      bool // the left press began beside her: ignore it until release
}

func (c *controller) tick(in input, on func(x, y float64) bool) decision {
	var d decision
	switch c.drag.Update(in.left, in.x, in.y) {
	case ebitenp2l.GesturePress:
		// Only presses on her are hers; one beside her reached the window
		// because pass-through is off or lagged a tick behind the pointer.
		c.ignore = !on(in.x, in.y)
	case ebitenp2l.GestureDragStart, ebitenp2l.GestureDrag:
		if !c.ignore {
			// The cursor is relative to the window, which follows it: move
			// the window by the cursor's offset from where the press
			// began, so that the same point of her stays under it.
			sx, sy := c.drag.Start()
			dx, dy := math.Round(in.x-sx), math.Round(in.y-sy)
			if dx != 0 || dy != 0 {
				d.move, d.winX, d.winY = true, in.winX+int(dx), in.winY+int(dy)
			}
		}
	case ebitenp2l.GestureDragEnd:
		d.save = !c.ignore
	case ebitenp2l.GestureTap:
		if !c.ignore {
			d.tap = true
			d.tapX, d.tapY = c.drag.Start()
		}
	}
	onHer := on(in.x, in.y)
	if in.right && onHer {
		if in.shift {
			d.quit = true
		} else {
			d.toggleFloating = true
		}
	}
	d.toggleFloating = d.toggleFloating || in.float
	d.quit = d.quit || in.quit
	// While the button is held the window keeps the pointer (a drag may
	// run ahead of her); otherwise clicks beside her go through.
	d.passThrough = c.passThrough && !c.drag.Pressed() && !onHer
	return d
}
