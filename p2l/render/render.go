// Package render is the CPU reference renderer of p2l models: it draws a
// rig's last evaluation into an image exactly by the drawing rules
// (RUNTIME.md, "软件渲染" and the drawing-rules paragraph), and every other
// renderer of the project is measured against it.
//
// The rules, in short (docs/RENDERING.md has them in full, with sources):
//
//   - Texture pages are straight alpha, decoded once and premultiplied
//     (package texture); sampling is bilinear on premultiplied texels,
//     clamped to the page's edge texels. A mesh without a page (texture page
//     −1) samples opaque white, so its multiply colour is its colour; a mesh
//     whose page is unavailable draws nothing.
//   - Pixel centres and the top-left fill rule (see raster.go).
//   - Fragment colour: texel × multiply, then screen c + s·a − c·s, then ×
//     opacity × mask coverage (Shade). Mask coverage is the maximum texture
//     alpha of the mask meshes at the pixel centre; inverted masks use
//     1 − coverage. Mask meshes are not culled, except a culled mesh of a
//     model that culls masks (p2l.Model.CullsMasks: Cubism models); their
//     own opacity, colours and visibility do not matter.
//   - Culling, when a mesh enables it: only triangles with
//     (b − a) × (c − a) < 0 in canvas coordinates (y down) are drawn — the
//     spec's "clockwise", Cubism's front faces.
//   - Compositing by Composite with the mesh's blend and alpha modes.
//     Fixed-function modes composite fragment by fragment; the other modes,
//     like Cubism's blend shaders, read the destination as it was before the
//     mesh (a copy), so where a mesh overlaps itself its last triangle wins.
//   - Isolated groups draw into a cleared layer, which is then shaded with
//     the group's colours, opacity and mask coverage and composited with the
//     group's modes; groups nest.
//   - For premultiplied output (*image.RGBA and other images) the
//     destination and every group layer hold premultiplied 8-bit values
//     between composite steps: after each fragment of a mesh and each group
//     composite the stored channel is rounded to the nearest k/255, as an
//     RGBA8 render target stores it (the spec draws into the host's RGBA8
//     image; GPU renderers match it). For straight output (*image.NRGBA)
//     the layers keep float32, so that dividing by a small alpha at the end
//     does not magnify rounding: straight colour is within 1/255 of the
//     exact result at every alpha. The per-pixel math (Shade, Composite,
//     Blend) is float32 either way.
//   - A group's layer covers only its contents' bounding box, and the layers
//     open at once are bounded (Renderer.MaxGroupPixels).
package render

import (
	"errors"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/psd2live/p2l-ebiten/internal/rigframe"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// Options control one Render call. The zero value (or nil) fits the canvas
// into the image and clears it to transparent first.
type Options struct {
	// Transform maps canvas pixels (y down) to image pixels, counted from
	// the image's Bounds().Min. Nil: the canvas is scaled uniformly to fit
	// the image, at its top-left corner.
	Transform *p2l.Affine
	// Keep draws over the image's existing content instead of clearing it.
	Keep bool
	// Background is the colour the image is cleared to when Keep is false
	// (premultiplied, as color.RGBA is; zero: transparent).
	Background color.RGBA
}

// Renderer draws rigs. The zero value is ready to use. A Renderer keeps its
// buffers (layers, mask coverage, copies) between calls, so rendering the
// same model at the same image size allocates nothing after the first
// frame. A Renderer must be used by one goroutine at a time.
type Renderer struct {
	// Pages, when non-nil, are the decoded texture pages (premultiplied,
	// as package texture gives them), indexed like Model.Textures; a nil
	// entry is an unavailable page. When Pages is nil the renderer decodes
	// the model's pages itself with TextureOptions the first time it sees
	// the model, and keeps them while it draws that model.
	Pages []*image.RGBA
	// TextureOptions are used when the renderer decodes pages itself (the
	// zero value reads external pages from the model's directory,
	// p2l.Model.Dir; set FS or Resolve for other sources).
	TextureOptions texture.Options
	// MaxGroupPixels bounds the pixels of the isolated-group layers open at
	// the same time: each open group holds a float32 RGBA layer (16 bytes
	// per pixel) the size of its contents' bounding box clipped to the
	// image, and nested groups are open together. A render whose groups
	// need more returns an error wrapping ErrGroupLayers before drawing
	// anything. Zero (or negative) means DefaultGroupPixels(width, height).
	MaxGroupPixels int

	model    *p2l.Model
	pages    []*image.RGBA  // usable pages (degenerate ones nil)
	straight []*image.NRGBA // their straight texels, for straight output (nil: use pages)
	info     []texture.Info

	w, h     int
	exact    bool    // float layers (straight output); false: 8-bit values
	layers   []layer // base, then the open groups' layers
	arena    []float32
	groups   []rect // per OpenGroup command in order: its layer's extent
	stack    []int  // open groups during the walk
	parts    []int
	cov      []float32 // mask coverage, one per pixel
	snap     []float32 // copy of the destination under a mesh, rgba per pixel
	tris     []triangle
	maskTris []triangle
	mask     maskPage
	hit      hitGroups // MeshAt's isolated groups

	// Per-mesh drawing state read by the span functions.
	cur struct {
		layer    *layer
		page     *image.RGBA
		spage    *image.NRGBA // page's straight texels (straight output), or nil
		white    bool
		mul, scr p2lrt.Color
		opacity  float32
		blend    p2lrt.BlendMode
		alpha    p2lrt.AlphaMode
		fixed    bool
		normal   bool // Normal+Over: the inlined fast path
		masked   bool
		invert   bool
		area     rect // snapshot / coverage area
	}
	drawSpan, maskSpan spanFunc
}

// layer is a premultiplied RGBA buffer covering ext (image pixels; the base
// layer covers the whole image) and the region that may hold
// non-transparent pixels. Its channels are float32 for the arithmetic; in
// 8-bit mode they hold only values k/255 (store8), as a GPU render target
// does.
type layer struct {
	pix   []float32
	ext   rect
	dirty rect
}

// at returns the index in l.pix of pixel (x, y), which must lie in l.ext.
func (l *layer) at(x, y int) int {
	return 4 * ((y-l.ext.y0)*(l.ext.x1-l.ext.x0) + x - l.ext.x0)
}

// ErrGroupLayers is wrapped by the error Render returns when the isolated
// groups open at once need more layer pixels than Renderer.MaxGroupPixels.
var ErrGroupLayers = errors.New("render: isolated groups need too much layer memory")

// DefaultGroupPixels is the default bound of Renderer.MaxGroupPixels for a
// w×h image: eight image-sized layers, and never less than 2²² pixels (a
// small image may still nest groups deeply). At 16 bytes per pixel that
// is at most 128·w·h bytes, or 64 MiB.
func DefaultGroupPixels(w, h int) int {
	return max(8*w*h, 1<<22)
}

// frame is what the renderer reads from a rig (rigframe.Frame reads a rig
// so); tests feed hand-made frames.
type frame interface {
	Model() *p2l.Model
	Err() error
	RenderCommands() []p2l.RenderCommand
	MeshVertices(i int) []float32
	MeshUVs(i int) []float32
	MeshIndices(i int) []uint32
	MeshOpacity(i int) float32
	MeshColors(i int) (multiply, screen p2lrt.Color)
	GroupComposite(part int) p2lrt.Composite
}

// Render draws rig's last evaluation into dst with a zero Renderer.
func Render(rig *p2l.Rig, dst draw.Image, opts *Options) error {
	var r Renderer
	return r.Render(rig, dst, opts)
}

// Render draws rig's last evaluation into dst. An *image.RGBA receives
// premultiplied output, drawn with 8-bit layers as a GPU draws it; an
// *image.NRGBA receives straight output, drawn with float layers so that
// straight colour stays exact at low alpha (both fast); any other
// draw.Image is written pixel by pixel like *image.RGBA. It returns the
// rig's failure if the rig has failed (Rig.Err), or an error wrapping ErrGroupLayers
// (before drawing anything) when its isolated groups need more layer
// memory than MaxGroupPixels; undecodable texture pages are not an error
// (see TextureInfo).
func (r *Renderer) Render(rig *p2l.Rig, dst draw.Image, opts *Options) error {
	if rig == nil {
		return errors.New("render: nil rig")
	}
	return r.render(rigframe.Frame{Rig: rig}, dst, opts)
}

// TextureInfo reports the texture pages of the model last drawn or hit
// tested, when the renderer decoded them itself (nil otherwise).
func (r *Renderer) TextureInfo() []texture.Info { return r.info }

func (r *Renderer) render(f frame, dst draw.Image, opts *Options) error {
	if opts == nil {
		opts = &Options{}
	}
	if err := f.Err(); err != nil {
		return err
	}
	m := f.Model()
	if m == nil {
		return errors.New("render: rig has no model")
	}
	b := dst.Bounds()
	if b.Empty() {
		return nil
	}
	_, r.exact = dst.(*image.NRGBA)
	r.usePages(m, r.exact)
	r.resize(b.Dx(), b.Dy())
	t := fitTransform(m.Canvas(), b.Dx(), b.Dy())
	if opts.Transform != nil {
		t = *opts.Transform
	}
	if err := r.planGroups(f, m, t); err != nil {
		return err
	}
	base := &r.layers[0]
	if opts.Keep {
		r.load(dst)
	} else {
		r.clear(base, premulOf(opts.Background))
	}
	r.draw(f, m, t)
	r.output(dst)
	return nil
}

func premulOf(c color.RGBA) Premul {
	return Premul{float32(c.R) / 255, float32(c.G) / 255, float32(c.B) / 255, float32(c.A) / 255}
}

// fitTransform scales the canvas uniformly into a w×h image, at its
// top-left corner (the spec's default for a null transform).
func fitTransform(c p2lrt.Canvas, w, h int) p2l.Affine {
	if !(c.Width > 0) || !(c.Height > 0) {
		return p2l.Identity
	}
	s := math.Min(float64(w)/float64(c.Width), float64(h)/float64(c.Height))
	return p2l.Affine{A: s, D: s}
}

// usePages makes the pages of m ready to sample; with straight, also the
// straight texels of the pages the renderer decodes itself, which straight
// output samples (premultiplying them exactly, in float) so that a texel of
// small alpha keeps its colour.
func (r *Renderer) usePages(m *p2l.Model, straight bool) {
	if r.Pages != nil {
		// Caller's pages: degenerate ones (empty, or pixels too short for
		// their rectangle) are unavailable, like undecodable pages.
		r.pages = r.pages[:0]
		for _, p := range r.Pages {
			if !usable(p) {
				p = nil
			}
			r.pages = append(r.pages, p)
		}
		r.straight = nil
		r.model = nil
		r.info = nil
		return
	}
	if r.model == m && r.pages != nil && (!straight || r.straight != nil) {
		return
	}
	o := r.TextureOptions
	o.Straight = straight
	decoded := texture.Decode(m, &o)
	r.pages = make([]*image.RGBA, len(decoded))
	r.straight = nil
	if straight {
		r.straight = make([]*image.NRGBA, len(decoded))
	}
	r.info = make([]texture.Info, len(decoded))
	for i, p := range decoded {
		if usable(p.Image) {
			r.pages[i] = p.Image
			if straight && p.Straight != nil && p.Straight.Rect == p.Image.Rect && usableStraight(p.Straight) {
				r.straight[i] = p.Straight
			}
		}
		r.info[i] = p.Info
	}
	r.model = m
}

// usable reports whether a page can be sampled: at least one pixel, and
// Pix long enough for its rectangle and stride.
func usable(p *image.RGBA) bool {
	return p != nil && sampleable(p.Rect, p.Stride, len(p.Pix))
}

func usableStraight(p *image.NRGBA) bool {
	return p != nil && sampleable(p.Rect, p.Stride, len(p.Pix))
}

func sampleable(r image.Rectangle, stride, n int) bool {
	w, h := r.Dx(), r.Dy()
	if w <= 0 || h <= 0 || stride < 4*w {
		return false
	}
	return int64(n) >= int64(h-1)*int64(stride)+4*int64(w)
}

func (r *Renderer) resize(w, h int) {
	if r.w == w && r.h == h && len(r.layers) > 0 {
		return
	}
	r.w, r.h = w, h
	r.layers = r.layers[:0]
	r.layers = append(r.layers, layer{pix: make([]float32, 4*w*h), ext: r.full(), dirty: r.full()})
	r.cov = make([]float32, w*h)
	r.snap = nil
	r.arena = nil
}

func (r *Renderer) full() rect { return rect{0, 0, r.w, r.h} }

// clear fills a layer with c (transparent clears only its dirty region).
func (r *Renderer) clear(l *layer, c Premul) {
	if c == (Premul{}) {
		d := l.dirty.intersect(l.ext)
		if d.empty() { // a group whose contents miss the image has no pixels
			d = rect{}
		}
		for y := d.y0; y < d.y1; y++ {
			clear(l.pix[l.at(d.x0, y) : l.at(d.x1-1, y)+4])
		}
		l.dirty = rect{}
		return
	}
	for i := 0; i < len(l.pix); i += 4 {
		l.pix[i], l.pix[i+1], l.pix[i+2], l.pix[i+3] = c.R, c.G, c.B, c.A
	}
	l.dirty = l.ext
}

// load copies dst's pixels into the base layer (Options.Keep): as the 8-bit
// premultiplied values a render target would hold, or, for straight output
// (float layers), premultiplied exactly.
func (r *Renderer) load(dst draw.Image) {
	base := &r.layers[0]
	b := dst.Bounds()
	for y := 0; y < r.h; y++ {
		row := base.pix[4*y*r.w : 4*(y+1)*r.w]
		switch d := dst.(type) {
		case *image.RGBA:
			src := d.Pix[d.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < r.w; x++ {
				for k := 0; k < 4; k++ {
					row[4*x+k] = float32(src[4*x+k]) / 255
				}
			}
		case *image.NRGBA:
			src := d.Pix[d.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < r.w; x++ {
				a := float32(src[4*x+3]) / 255
				for k := 0; k < 3; k++ {
					row[4*x+k] = r.store(float32(src[4*x+k]) / 255 * a)
				}
				row[4*x+3] = a
			}
		default:
			for x := 0; x < r.w; x++ {
				cr, cg, cb, ca := dst.At(b.Min.X+x, b.Min.Y+y).RGBA()
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = r.store(float32(cr)/65535), r.store(float32(cg)/65535), r.store(float32(cb)/65535), r.store(float32(ca)/65535)
			}
		}
	}
	base.dirty = r.full()
}

func to8(v float32) uint8 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint8(v*255 + 0.5)
}

// output writes the base layer to dst. Premultiplied output clamps colour
// to alpha (image.RGBA's invariant; an AddCompatible mesh over transparency
// can leave colour above alpha); straight output divides the float layer by
// its alpha (colour above alpha gives 255).
func (r *Renderer) output(dst draw.Image) {
	base := &r.layers[0]
	b := dst.Bounds()
	for y := 0; y < r.h; y++ {
		row := base.pix[4*y*r.w : 4*(y+1)*r.w]
		switch d := dst.(type) {
		case *image.RGBA:
			out := d.Pix[d.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < r.w; x++ {
				p := row[4*x : 4*x+4 : 4*x+4]
				a := to8(p[3])
				out[4*x] = min(to8(p[0]), a)
				out[4*x+1] = min(to8(p[1]), a)
				out[4*x+2] = min(to8(p[2]), a)
				out[4*x+3] = a
			}
		case *image.NRGBA:
			out := d.Pix[d.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < r.w; x++ {
				p := row[4*x : 4*x+4 : 4*x+4]
				a := to8(p[3])
				if a == 0 {
					out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = 0, 0, 0, 0
					continue
				}
				out[4*x] = to8(p[0] / p[3])
				out[4*x+1] = to8(p[1] / p[3])
				out[4*x+2] = to8(p[2] / p[3])
				out[4*x+3] = a
			}
		default:
			for x := 0; x < r.w; x++ {
				p := row[4*x : 4*x+4 : 4*x+4]
				a := to8(p[3])
				dst.Set(b.Min.X+x, b.Min.Y+y, color.RGBA{min(to8(p[0]), a), min(to8(p[1]), a), min(to8(p[2]), a), a})
			}
		}
	}
}
