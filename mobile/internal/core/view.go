package core

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// view is the drawing surface: its size in layout pixels (what the game's
// Layout returns and touch positions use) and the framing of the canvas.
type view struct {
	w, h float64
	// zoom multiplies the fit scale; (cx, cy) is the canvas point, in
	// fractions of the canvas, shown at the view's centre.
	zoom, cx, cy float64
	// dirty: something visible changed since the last draw.
	dirty bool
}

// Transform is the canvas-to-view mapping: view = canvas·Scale + (X, Y).
type Transform struct {
	Scale, X, Y float64
}

// transform returns the canvas-to-view mapping. The canvas is scaled
// uniformly to fit ("contain") the view, times zoom, and (cx, cy) lands on
// the view's centre. ok is false when either size is empty.
func (v *view) transform(cv p2lrt.Canvas) (t Transform, ok bool) {
	cw, ch := float64(cv.Width), float64(cv.Height)
	if v.w <= 0 || v.h <= 0 || !(cw > 0) || !(ch > 0) {
		return Transform{}, false
	}
	zoom, cx, cy := v.zoom, v.cx, v.cy
	if zoom == 0 { // framing never set: whole canvas, centred
		zoom, cx, cy = 1, 0.5, 0.5
	}
	s := min(v.w/cw, v.h/ch) * zoom
	return Transform{Scale: s, X: v.w/2 - cx*cw*s, Y: v.h/2 - cy*ch*s}, true
}

// toCanvas maps a view pixel to canvas pixels.
func (v *view) toCanvas(cv p2lrt.Canvas, x, y float64) (cx, cy float64, ok bool) {
	t, ok := v.transform(cv)
	if !ok {
		return 0, 0, false
	}
	return (x - t.X) / t.Scale, (y - t.Y) / t.Scale, true
}

// SetViewSize sets the view's size in layout pixels (the game calls it from
// Layout).
func (c *Core) SetViewSize(w, h float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w != c.view.w || h != c.view.h {
		c.view.w, c.view.h = w, h
		c.view.dirty = true
	}
}

// SetTouchSlop sets how far, in layout pixels, a finger may move before a
// touch becomes a drag instead of a tap.
func (c *Core) SetTouchSlop(px float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gesture.slop = px
}
