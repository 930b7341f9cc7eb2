package ebitenp2l

import (
	"image"
	"image/color"
	"slices"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// modelRes holds what every character of one model shares: the texture pages
// on the GPU and the model's static mask sets. It is created by the first
// character of a model and disposed with the last one.
type modelRes struct {
	model *p2l.Model
	refs  int

	// pages[i] is texture page i, premultiplied, with a one-texel border
	// that repeats the edge texels (clamp-to-edge for the shader's own
	// bilinear filter); nil when the page could not be decoded.
	pages []*ebiten.Image
	// pageW, pageH are the page sizes without the border.
	pageW, pageH []float32
	// pageErr[i] says why page i is unavailable.
	pageErr []error

	// meshMask[i] is the mask-set index of mesh i, −1 when unmasked.
	meshMask []int
	// partMask[i] is the mask-set index of part i's isolated-group
	// composite, −1 when unmasked.
	partMask []int
	// maskSets are the distinct sets of mask meshes, each sorted.
	maskSets [][]int
}

var (
	resMu sync.Mutex
	res   = map[*p2l.Model]*modelRes{}
	// liveCharacters counts characters not yet disposed; the offscreen pool
	// is released when it drops to zero.
	liveCharacters int
)

// acquireRes returns the shared resources of m, creating them on first use
// with the pages that decode supplies.
func acquireRes(m *p2l.Model, decode func() ([]*image.RGBA, []error), groups pose) *modelRes {
	resMu.Lock()
	defer resMu.Unlock()
	liveCharacters++
	if r := res[m]; r != nil {
		r.refs++
		return r
	}
	r := &modelRes{model: m, refs: 1}
	imgs, errs := decode()
	r.pages = make([]*ebiten.Image, len(imgs))
	r.pageW = make([]float32, len(imgs))
	r.pageH = make([]float32, len(imgs))
	r.pageErr = errs
	for i, img := range imgs {
		if img == nil {
			continue
		}
		r.pages[i] = uploadPage(img)
		b := img.Bounds()
		r.pageW[i], r.pageH[i] = float32(b.Dx()), float32(b.Dy())
	}
	r.meshMask = make([]int, len(m.Meshes))
	for i := range m.Meshes {
		r.meshMask[i] = r.maskSet(m.Meshes[i].Masks)
	}
	// Group masks are static (part masks expanded to meshes); any rig of
	// the model reports them.
	r.partMask = make([]int, len(m.Parts))
	for i := range m.Parts {
		r.partMask[i] = r.maskSet(groups.GroupComposite(i).MaskMeshes)
	}
	res[m] = r
	return r
}

// maskSet returns the index of the set holding exactly the meshes of masks
// (in any order, duplicates ignored), adding it when new; −1 for none.
// Only called while the resources are being built or with resMu held.
func (r *modelRes) maskSet(masks []int) int {
	if len(masks) == 0 {
		return -1
	}
	// Indices out of range (a model built in code and never validated)
	// contribute no coverage, as in the CPU renderer: a set of only such
	// indices stays a (zero-coverage) mask.
	s := make([]int, 0, len(masks))
	for _, mi := range masks {
		if mi >= 0 && mi < len(r.model.Meshes) {
			s = append(s, mi)
		}
	}
	slices.Sort(s)
	s = slices.Compact(s)
	for i, t := range r.maskSets {
		if slices.Equal(s, t) {
			return i
		}
	}
	r.maskSets = append(r.maskSets, s)
	return len(r.maskSets) - 1
}

// release drops one reference; the last one disposes the pages.
func (r *modelRes) release() {
	resMu.Lock()
	defer resMu.Unlock()
	liveCharacters--
	if liveCharacters == 0 {
		pool.dispose()
	}
	r.refs--
	if r.refs > 0 {
		return
	}
	for _, p := range r.pages {
		if p != nil {
			p.Deallocate()
		}
	}
	if res[r.model] == r {
		delete(res, r.model)
	}
}

var white *ebiten.Image

// whitePage is what a mesh without a texture page samples: opaque white.
// Its texel (1, 1) is the one-texel page inside an opaque border, so any
// coordinate of [0, 1] samples white.
func whitePage() *ebiten.Image {
	if white == nil {
		white = ebiten.NewImage(8, 8)
		white.Fill(color.White)
	}
	return white
}

// uploadPage copies a premultiplied page into a new managed image with a
// one-texel border repeating the edge texels. Managed images share atlas
// pages, so pages of one model usually end up on one GPU texture.
func uploadPage(src *image.RGBA) *ebiten.Image {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, w+2, h+2))
	for y := -1; y <= h; y++ {
		sy := min(max(y, 0), h-1)
		row := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+sy):]
		drow := dst.Pix[dst.PixOffset(1, y+1):]
		copy(drow[:4*w], row[:4*w])
		copy(dst.Pix[dst.PixOffset(0, y+1):][:4], row[:4])
		copy(dst.Pix[dst.PixOffset(w+1, y+1):][:4], row[4*(w-1):4*w])
	}
	img := ebiten.NewImage(w+2, h+2)
	img.WritePixels(dst.Pix)
	return img
}
