package ebitenp2l

import (
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

// HitOptions choose how Character.HitTest and Tap decide what a point hits.
// The zero value is the hit areas' own test (p2l.Rig.HitTest).
type HitOptions struct {
	// Pixels tests what is drawn: a point hits an area only where the
	// character is drawn with at least Threshold alpha
	// (render.Renderer.HitTestAlpha), so a click on a transparent corner of
	// a mesh hits nothing. The first such test of a model decodes its
	// texture pages on the CPU once and keeps them (4 bytes per texel)
	// as long as a character of the model holds them (Deallocate).
	Pixels bool
	// Threshold is the alpha a drawn fragment needs to count, for Pixels
	// and for MeshAt; 0 (or less, or NaN) means
	// render.DefaultHitThreshold (0.5). Use a small value such as 1.0/255
	// to count any visible fragment.
	Threshold float32
}

func (o HitOptions) threshold() float32 {
	if !(o.Threshold > 0) {
		return render.DefaultHitThreshold
	}
	return o.Threshold
}

// SetHitOptions sets how HitTest and Tap decide; with Pixels the model's
// pages are decoded now if no character of the model has done it yet, so
// that the first click does not wait for them.
func (c *Character) SetHitOptions(o HitOptions) {
	c.hitOpts = o
	if o.Pixels {
		c.usePixels()
	}
}

// HitOptions returns the options SetHitOptions set.
func (c *Character) HitOptions() HitOptions { return c.hitOpts }

// MeshAt returns the topmost mesh drawn at the point (x, y) of the last
// Draw's destination with an alpha of at least HitOptions' threshold, or
// −1 where the character is not drawn: the point goes through
// ScreenToCanvas, then render.Renderer.MeshAt (texels as the CPU reference
// renderer samples them, opacity, masks, isolated groups, culling; the
// rules are in docs/RENDERING.md, "Hit testing by drawn pixels"). A desktop
// mascot lets clicks through where it returns −1. The first call for a
// model decodes its pages on the CPU (see HitOptions.Pixels); later calls
// allocate nothing.
func (c *Character) MeshAt(x, y float64) int {
	cx, cy, ok := c.ScreenToCanvas(x, y)
	if !ok || c.rig == nil {
		return -1
	}
	c.usePixels()
	return c.hit.MeshAt(c.rig, float32(cx), float32(cy), c.hitOpts.threshold())
}

// usePixels gives the hit renderer the model's CPU pages (taking the
// model's resources again after Deallocate).
func (c *Character) usePixels() {
	if c.hit.Pages == nil {
		c.hit.Pages = c.acquire().hitPages()
	}
}
