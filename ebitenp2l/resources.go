package ebitenp2l

import (
	"image"
	"image/color"
	"runtime"
	"slices"
	"unsafe"
	"weak"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// modelRes holds what every character of one model shares: the texture pages
// on the GPU and the model's static mask sets. It is created by the first
// character of a model and released when no character holds it any more
// (lifetime.go).
type modelRes struct {
	model *p2l.Model
	// refs counts the characters holding it (guarded by resMu); key and
	// self find it in the shared table, cleanup hands its images over when
	// it is collected (lifetime.go).
	refs    int
	key     weak.Pointer[p2l.Model]
	self    weak.Pointer[modelRes]
	cleanup runtime.Cleanup

	// Texture pages, premultiplied, each with a one-texel border that
	// repeats its edge texels (clamp-to-edge for the shader's own bilinear
	// filter), packed into as few managed images as fit (imgs; usually one
	// per model, so that meshes on different pages share draw calls).
	// pageImg[i] is the image holding page i (nil when the page could not
	// be decoded), (pageX[i], pageY[i]) the position of its texel (0, 0)
	// there, pageW, pageH its size without the border.
	imgs                       []*ebiten.Image
	pageImg                    []*ebiten.Image
	pageX, pageY, pageW, pageH []float32
	// white is a block of opaque white in imgs[0] for meshes without a
	// page (−1): texel (whiteX, whiteY) has white all around it.
	white          *ebiten.Image
	whiteX, whiteY float32
	// pageErr[i] says why page i is unavailable.
	pageErr []error

	// decode decodes the pages again, for hitPages: the GPU copy cannot be
	// read back, and keeping the decoded pages for every model would
	// double their memory for hosts that never test pixels.
	decode func() ([]*image.RGBA, []error)
	// cpuPages are the decoded pages (nil entries: unavailable), kept from
	// the first pixel hit test on (hitPages).
	cpuPages []*image.RGBA

	// meshes[i] is what drawing reads of mesh i's record every frame, read
	// once here: Model.Meshes().At copies the whole record (about 250
	// bytes) for each field read.
	meshes []meshDraw
	// cullMasks: a culled mesh drops its back faces where it masks too
	// (p2l.Model.CullsMasks); uniteMasks: overlapping masks cover
	// 1 − ∏(1 − α), not their maximum (p2l.Model.UnitesMasks).
	cullMasks, uniteMasks bool
	// meshMask[i] is the mask-set index of mesh i, −1 when unmasked.
	meshMask []int
	// partMask[i] is the mask-set index of part i's isolated-group
	// composite, −1 when unmasked.
	partMask []int
	// maskSets are the distinct sets of mask meshes, each sorted.
	maskSets [][]int

	// boundary[i] is mesh i's boundary, for the proof that it lies flat
	// (flat.go).
	boundary []meshBoundary

	// inds[i] is mesh i's index list without the triangles beyond its
	// vertices (nv[i] of them: the model's positions and texture
	// coordinates), as uint16: the list every character draws a mesh that
	// is not culled with (see indices). nv[i] is −1 for a mesh of more
	// than 65,536 vertices (drawn by emitSplit).
	inds [][]uint16
	nv   []int
}

// meshDraw holds the fields of a mesh record that drawing reads.
type meshDraw struct {
	indices []uint32 // the model's own index list (modelTriangles)
	page    int      // texture page, −1 for none
	flags   p2lrt.MeshFlags
	blend   p2lrt.BlendMode
	alpha   p2lrt.AlphaMode
}

// acquireRes returns the shared resources of m, creating them on first use
// with the pages that decode supplies.
func acquireRes(m *p2l.Model, decode func() ([]*image.RGBA, []error), groups pose) *modelRes {
	resMu.Lock()
	defer resMu.Unlock()
	liveCharacters++
	key := weak.Make(m)
	if r := shared[key].Value(); r != nil {
		r.refs++
		return r
	}
	r := &modelRes{model: m, refs: 1, key: key, decode: decode}
	pages, errs := decode()
	r.pageErr = errs
	r.upload(pages)
	r.meshes = make([]meshDraw, m.Meshes().Len())
	r.meshMask = make([]int, m.Meshes().Len())
	r.cullMasks, r.uniteMasks = m.CullsMasks(), m.UnitesMasks()
	for i, mesh := range m.Meshes().All() {
		r.meshes[i] = meshDraw{
			indices: mesh.Indices,
			page:    mesh.TexturePage,
			flags:   mesh.Flags,
			blend:   mesh.Blend,
			alpha:   mesh.AlphaBlend,
		}
		r.meshMask[i] = r.maskSet(mesh.Masks)
	}
	// Group masks are static (part masks expanded to meshes); any rig of
	// the model reports them.
	r.partMask = make([]int, m.Parts().Len())
	for i := range m.Parts().Len() {
		r.partMask[i] = r.maskSet(groups.GroupComposite(i).MaskMeshes)
	}
	r.boundary = boundaries(m)
	r.inds, r.nv = make([][]uint16, m.Meshes().Len()), make([]int, m.Meshes().Len())
	for i := range m.Meshes().Len() {
		mesh := m.Meshes().At(i)
		r.nv[i] = min(len(mesh.Positions), len(mesh.UVs)) / 2
		if r.nv[i] > maxBatchVertices {
			r.nv[i] = -1
			continue
		}
		r.inds[i] = inRange(nil, mesh.Indices, r.nv[i])
	}
	r.self = weak.Make(r)
	shared[key] = r.self
	r.cleanup = runtime.AddCleanup(r, resCollected, collectedRes{key: key, self: r.self, imgs: r.imgs})
	return r
}

// indices returns the model's filtered index list of mesh mi (see inds)
// when it is what a pose with triangles idx and n vertices draws: idx is
// the model's own list (a pose with triangles of its own, in tests, gets
// false) and n its vertex count.
func (r *modelRes) indices(mi int, idx []uint32, n int) ([]uint16, bool) {
	if !r.modelTriangles(mi, idx) || n != r.nv[mi] {
		return nil, false
	}
	return r.inds[mi], true
}

// modelTriangles reports whether idx is mesh mi's index list in the model
// (which *p2l.Rig.MeshIndices returns).
func (r *modelRes) modelTriangles(mi int, idx []uint32) bool {
	m := r.meshes[mi].indices
	return len(idx) == len(m) && unsafe.SliceData(idx) == unsafe.SliceData(m)
}

// maskSet returns the index of the set holding exactly the meshes of masks
// (in any order, duplicates ignored), adding it when new; −1 for none.
// Only called while the resources are being built, with resMu held.
func (r *modelRes) maskSet(masks []int) int {
	if len(masks) == 0 {
		return -1
	}
	// Indices out of range (a model built in code and never validated)
	// contribute no coverage, as in the CPU renderer: a set of only such
	// indices stays a (zero-coverage) mask.
	s := make([]int, 0, len(masks))
	for _, mi := range masks {
		if mi >= 0 && mi < r.model.Meshes().Len() {
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

// hitPages returns the model's decoded pages for pixel hit tests, decoding
// them on first use (once per model; they are kept as long as r).
func (r *modelRes) hitPages() []*image.RGBA {
	resMu.Lock()
	defer resMu.Unlock()
	if r.cpuPages == nil {
		pages, _ := r.decode()
		if pages == nil {
			pages = []*image.RGBA{} // a model without pages: decoded, none
		}
		r.cpuPages = pages
	}
	return r.cpuPages
}

// release deallocates r's images now and forgets r: no character holds it
// any more (the last one was deallocated, or collected while r was still
// reachable). resMu is held; on the game goroutine.
func (r *modelRes) release() {
	r.cleanup.Stop()
	for _, img := range r.imgs {
		img.Deallocate()
	}
	r.cpuPages = nil
	if shared[r.key] == r.self {
		delete(shared, r.key)
	}
}

// atlasSide bounds the side of a model's packed page image: Ebitengine
// keeps images up to the device's texture size on its atlas pages, and
// 4096 is available on every desktop and most mobile GPUs; a page that
// does not fit it with its border gets an image of its own.
const atlasSide = 4096

// upload packs the decoded pages (nil ones skipped) and a white block into
// managed images, row by row, and uploads them.
func (r *modelRes) upload(pages []*image.RGBA) {
	n := len(pages)
	r.pageImg = make([]*ebiten.Image, n)
	r.pageX, r.pageY = make([]float32, n), make([]float32, n)
	r.pageW, r.pageH = make([]float32, n), make([]float32, n)
	// Blocks: the bordered pages, then a 4×4 white block.
	type block struct {
		page      int // −1: the white block
		w, h      int
		img, x, y int
	}
	var blocks []block
	for i, p := range pages {
		if p != nil {
			b := p.Bounds()
			blocks = append(blocks, block{page: i, w: b.Dx() + 2, h: b.Dy() + 2})
		}
	}
	blocks = append(blocks, block{page: -1, w: 4, h: 4})
	var sizes []image.Point // per image
	x, y, rowH := 0, 0, 0
	for i := range blocks {
		b := &blocks[i]
		if len(sizes) > 0 && x+b.w > atlasSide {
			x, y, rowH = 0, y+rowH, 0
		}
		if len(sizes) == 0 || y+b.h > atlasSide {
			sizes = append(sizes, image.Point{})
			x, y, rowH = 0, 0, 0
		}
		b.img, b.x, b.y = len(sizes)-1, x, y
		s := &sizes[b.img]
		s.X, s.Y = max(s.X, x+b.w), max(s.Y, y+b.h)
		x += b.w
		rowH = max(rowH, b.h)
	}
	pix := make([]*image.RGBA, len(sizes))
	for i, s := range sizes {
		pix[i] = image.NewRGBA(image.Rectangle{Max: s})
	}
	for _, b := range blocks {
		dst := pix[b.img]
		if b.page < 0 {
			for yy := range b.h {
				for xx := range b.w {
					dst.Set(b.x+xx, b.y+yy, color.White)
				}
			}
			r.whiteX, r.whiteY = float32(b.x+1), float32(b.y+1)
			continue
		}
		copyBordered(dst, b.x, b.y, pages[b.page])
		r.pageX[b.page], r.pageY[b.page] = float32(b.x+1), float32(b.y+1)
		r.pageW[b.page], r.pageH[b.page] = float32(b.w-2), float32(b.h-2)
	}
	r.imgs = make([]*ebiten.Image, len(sizes))
	for i, s := range sizes {
		r.imgs[i] = ebiten.NewImage(s.X, s.Y)
		r.imgs[i].WritePixels(pix[i].Pix)
	}
	for _, b := range blocks {
		if b.page >= 0 {
			r.pageImg[b.page] = r.imgs[b.img]
		} else {
			r.white = r.imgs[b.img]
		}
	}
}

// copyBordered copies a premultiplied page into dst at (x0, y0) with a
// one-texel border repeating the edge texels.
func copyBordered(dst *image.RGBA, x0, y0 int, src *image.RGBA) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	for y := -1; y <= h; y++ {
		sy := min(max(y, 0), h-1)
		row := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+sy):]
		drow := dst.Pix[dst.PixOffset(x0+1, y0+y+1):]
		copy(drow[:4*w], row[:4*w])
		copy(dst.Pix[dst.PixOffset(x0, y0+y+1):][:4], row[:4])
		copy(dst.Pix[dst.PixOffset(x0+w+1, y0+y+1):][:4], row[4*(w-1):4*w])
	}
}

var white *ebiten.Image

// whiteImage is an opaque white image, the source of clears (drawn with
// zero colours) when no model page is at hand.
func whiteImage() *ebiten.Image {
	if white == nil {
		white = ebiten.NewImage(4, 4)
		white.Fill(color.White)
	}
	return white
}
