package ebitenp2l

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"
)

// The offscreen pool: a few unmanaged images reused by every character in
// every frame, never allocated per frame once they are big enough.
//
//   - layers[d] holds the layers of the isolated groups at nesting depth
//     d+1, one region per group of the frame (a group at depth d+1
//     composites its children from layers[d+1]; a destination cannot be a
//     source, so each depth needs its own page);
//   - coverage holds the mask coverage of the frame: one area per target
//     (the caller's image, a layer page), in planes of four channels;
//   - scratch holds the backdrop copies of the frame, one area per target.
//
// Regions are packed in shelves and rounded up to regionQuantum so that a
// moving or slightly animated character keeps the same layout, and the
// sub-images of a layout are cached, so a steady frame allocates nothing.
type offscreenPool struct {
	layers   []*page
	coverage page
	scratch  page

	// stamp counts the frames that have drawn into the pool (replay.go:
	// a replay whose recorder drew the last of them finds its coverage and
	// layers still there).
	stamp uint64
}

// wrote records that a frame has drawn into the pool and returns the new
// stamp.
func (o *offscreenPool) wrote() uint64 {
	o.stamp++
	return o.stamp
}

var pool offscreenPool

// regionQuantum rounds region sizes up, for layout stability.
const regionQuantum = 32

// maxPageSize bounds a pool page (Ebitengine panics above the device limit;
// 8192 is available on every desktop GL and on llvmpipe).
const maxPageSize = 8192

// page is one pooled offscreen image with a shelf packer.
type page struct {
	img  *ebiten.Image
	w, h int

	// Packing state of the current frame.
	x, y, rowH int
	needW      int // widest region requested
	overflow   bool

	subs []subImage
}

type subImage struct {
	r   image.Rectangle
	img *ebiten.Image
}

// reset starts a new layout.
func (p *page) reset() {
	p.x, p.y, p.rowH, p.needW, p.overflow = 0, 0, 0, 0, false
}

// alloc reserves a w×h region and returns it; ok is false when the page is
// too small, in which case grow must be called and the layout redone.
func (p *page) alloc(w, h int) (r image.Rectangle, ok bool) {
	w = (w + regionQuantum - 1) / regionQuantum * regionQuantum
	h = (h + regionQuantum - 1) / regionQuantum * regionQuantum
	p.needW = max(p.needW, w)
	pw := p.w
	if pw == 0 {
		pw = 1024
	}
	if p.x+w > pw {
		p.x, p.y, p.rowH = 0, p.y+p.rowH, 0
	}
	r = image.Rect(p.x, p.y, p.x+w, p.y+h)
	p.x += w
	p.rowH = max(p.rowH, h)
	if r.Max.X > p.w || r.Max.Y > p.h {
		p.overflow = true
		return r, false
	}
	return r, true
}

// grow replaces the image by one big enough for the layout just attempted
// (sizes double, so this happens a few times at most).
func (p *page) grow() {
	w := max(p.w, 256)
	for w < p.needW && w < maxPageSize {
		w *= 2
	}
	need := p.y + p.rowH
	h := max(p.h, 256)
	for h < need && h < maxPageSize {
		h *= 2
	}
	if p.w == 0 && w < 1024 {
		w = 1024 // the width the failed layout assumed
	}
	p.ensure(w, h)
}

// ensure makes the image at least w×h, rounding up to multiples of 256 so
// that a slowly growing need reallocates rarely.
func (p *page) ensure(w, h int) {
	w, h = min((w+255)&^255, maxPageSize), min((h+255)&^255, maxPageSize)
	if p.img != nil && p.w >= w && p.h >= h {
		return
	}
	w, h = max(w, p.w), max(h, p.h)
	if p.img != nil {
		p.img.Deallocate()
	}
	p.img = ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
	p.w, p.h = w, h
	p.subs = p.subs[:0]
}

// sub returns the cached sub-image of r.
func (p *page) sub(r image.Rectangle) *ebiten.Image {
	for _, s := range p.subs {
		if s.r == r {
			return s.img
		}
	}
	if len(p.subs) >= 256 {
		p.subs = p.subs[:0]
	}
	img := p.img.SubImage(r).(*ebiten.Image)
	p.subs = append(p.subs, subImage{r, img})
	return img
}

func (p *page) dispose() {
	if p.img != nil {
		p.img.Deallocate()
	}
	*p = page{}
}

// layer returns the page of nesting depth d (0 for top-level groups).
func (o *offscreenPool) layer(d int) *page {
	for len(o.layers) <= d {
		o.layers = append(o.layers, &page{})
	}
	return o.layers[d]
}

func (o *offscreenPool) dispose() {
	for _, l := range o.layers {
		l.dispose()
	}
	o.layers = nil
	o.coverage.dispose()
	o.scratch.dispose()
}
