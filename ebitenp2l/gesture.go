package ebitenp2l

import "math"

// DefaultDragThreshold is the distance in pixels a pressed pointer must
// move before a press becomes a drag: Windows' default drag rectangle
// (SM_CXDRAG, SM_CYDRAG) is 4 pixels each way, so a tap with a hand that
// trembles a little stays a tap.
const DefaultDragThreshold = 4

// Gesture is what DragTap made of one tick of pointer input.
type Gesture int

const (
	// GestureNone: nothing new (the pointer is up, or pressed and still
	// within the threshold).
	GestureNone Gesture = iota
	// GesturePress: the button went down this tick (at Start).
	GesturePress
	// GestureDragStart: the pressed pointer has just moved beyond the
	// threshold; the drag began at Start.
	GestureDragStart
	// GestureDrag: a drag goes on (every tick while the button is held).
	GestureDrag
	// GestureDragEnd: the button was released after a drag.
	GestureDragEnd
	// GestureTap: the button was released without the pointer having
	// left the threshold since the press: a tap at Start.
	GestureTap
)

// DragTap tells a drag from a tap for one pointer (a mouse button or a
// touch): call Update every tick with whether the button is held and where
// the pointer is. A press that moves more than Threshold pixels (in either
// axis) from where it began is a drag from then on; a release before that
// is a tap. It holds no reference to Ebitengine, so games feed it from
// ebiten.IsMouseButtonPressed and CursorPosition, or from touches, and
// tests from synthetic input. The zero value is ready, with
// DefaultDragThreshold.
type DragTap struct {
	// Threshold is the distance in pixels that starts a drag; 0 (or less)
	// means DefaultDragThreshold.
	Threshold float64

	down, dragging bool
	x0, y0         float64
}

// Update takes one tick of input and returns what it made of it.
func (d *DragTap) Update(pressed bool, x, y float64) Gesture {
	switch {
	case pressed && !d.down:
		d.down, d.dragging = true, false
		d.x0, d.y0 = x, y
		return GesturePress
	case pressed && d.dragging:
		return GestureDrag
	case pressed:
		th := d.Threshold
		if !(th > 0) {
			th = DefaultDragThreshold
		}
		// A pointer position that is not finite does not start a drag.
		if math.Abs(x-d.x0) > th || math.Abs(y-d.y0) > th {
			d.dragging = true
			return GestureDragStart
		}
		return GestureNone
	case d.down:
		d.down = false
		if d.dragging {
			d.dragging = false
			return GestureDragEnd
		}
		return GestureTap
	}
	return GestureNone
}

// Pressed reports whether the button is held (since a GesturePress).
func (d *DragTap) Pressed() bool { return d.down }

// Dragging reports whether the held button is dragging (since a
// GestureDragStart).
func (d *DragTap) Dragging() bool { return d.down && d.dragging }

// Start returns where the current or last press began.
func (d *DragTap) Start() (x, y float64) { return d.x0, d.y0 }

// Cancel forgets the press: the next tick with the button held is a new
// press (for example when the window lost the pointer).
func (d *DragTap) Cancel() { d.down, d.dragging = false, false }
