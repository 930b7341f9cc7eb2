package render

import (
	"fmt"
	"image"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// draw walks the render commands: meshes draw into the innermost open
// layer; an open-group command starts a cleared layer one level up, over the
// extent planGroups gave it; a close-group command composites that layer
// into the one below. Malformed sequences are tolerated: a stray close is
// ignored and groups left open are closed at the end.
func (r *Renderer) draw(f frame, m *p2l.Model, t p2l.Affine) {
	if r.drawSpan == nil {
		r.drawSpan = r.shadeSpan
		r.maskSpan = r.coverSpan
	}
	r.layers = r.layers[:1]
	r.parts = r.parts[:0]
	off, ord := 0, 0 // arena offset of the next layer; OpenGroup ordinal
	for _, c := range f.RenderCommands() {
		if mi, ok := c.Mesh(); ok {
			r.drawMesh(f, m, t, mi, len(r.layers)-1)
			continue
		}
		if part, ok := c.Group(); ok {
			ext := r.groups[ord]
			ord++
			n := 4 * ext.pixels()
			l := layer{pix: r.arena[off : off+n : off+n], ext: ext, dirty: ext}
			off += n
			r.clear(&l, Premul{})
			r.layers = append(r.layers, l)
			r.parts = append(r.parts, part)
			continue
		}
		if len(r.layers) > 1 {
			off -= len(r.layers[len(r.layers)-1].pix)
			r.closeGroup(f, m, t, r.parts[len(r.parts)-1])
		}
	}
	for len(r.layers) > 1 {
		r.closeGroup(f, m, t, r.parts[len(r.parts)-1])
	}
}

// planGroups works out, before anything is drawn, the layer extent of every
// isolated group — the bounding box of the pixels its meshes and nested
// groups may cover — and the most layer pixels open at once. It sizes the
// arena the layers are cut from (a stack: nested groups are open together,
// siblings reuse the same memory), or returns an error wrapping
// ErrGroupLayers when the peak exceeds MaxGroupPixels.
func (r *Renderer) planGroups(f frame, m *p2l.Model, t p2l.Affine) error {
	cmds := f.RenderCommands()
	r.groups = r.groups[:0]
	r.stack = r.stack[:0]
	for _, c := range cmds {
		if mi, ok := c.Mesh(); ok {
			if len(r.stack) > 0 {
				g := &r.groups[r.stack[len(r.stack)-1]]
				*g = g.union(r.meshBounds(f, m, t, mi))
			}
			continue
		}
		if _, ok := c.Group(); ok {
			r.stack = append(r.stack, len(r.groups))
			r.groups = append(r.groups, rect{})
			continue
		}
		r.popGroup()
	}
	for len(r.stack) > 0 {
		r.popGroup()
	}
	// The walk again, adding up the extents of the open groups.
	cur, peak, depth, deepest := 0, 0, 0, 0
	ord := 0
	for _, c := range cmds {
		if _, ok := c.Group(); ok {
			r.stack = append(r.stack, ord)
			cur += r.groups[ord].pixels()
			ord++
			depth++
			if cur > peak {
				peak, deepest = cur, depth
			}
			continue
		}
		if _, ok := c.Mesh(); !ok && len(r.stack) > 0 {
			cur -= r.groups[r.stack[len(r.stack)-1]].pixels()
			r.stack = r.stack[:len(r.stack)-1]
			depth--
		}
	}
	r.stack = r.stack[:0]
	limit := r.MaxGroupPixels
	if limit <= 0 {
		limit = DefaultGroupPixels(r.w, r.h)
	}
	if peak > limit {
		return fmt.Errorf("%w: %d pixels of layers open at once (%d groups nested at the peak) for a %d×%d image, limit %d (Renderer.MaxGroupPixels)",
			ErrGroupLayers, peak, deepest, r.w, r.h, limit)
	}
	if len(r.arena) < 4*peak {
		r.arena = make([]float32, 4*peak)
	}
	return nil
}

// popGroup closes the innermost group of planGroups' first walk: its extent
// joins its parent's.
func (r *Renderer) popGroup() {
	if len(r.stack) == 0 {
		return // a stray close, ignored as draw ignores it
	}
	g := r.groups[r.stack[len(r.stack)-1]]
	r.stack = r.stack[:len(r.stack)-1]
	if len(r.stack) > 0 {
		p := &r.groups[r.stack[len(r.stack)-1]]
		*p = p.union(g)
	}
}

// meshBounds returns a rectangle holding every pixel mesh mi may draw: the
// bounds of its vertices (those meshTriangles may use) by the same
// fixed-point rule as a triangle's, clipped to the image; empty when the
// mesh draws nothing.
func (r *Renderer) meshBounds(f frame, m *p2l.Model, t p2l.Affine, mi int) rect {
	if mi >= m.Meshes().Len() || !(f.MeshOpacity(mi) > 0) {
		return rect{}
	}
	if _, _, ok := r.pageOf(m.Meshes().At(mi).TexturePage); !ok {
		return rect{}
	}
	verts := f.MeshVertices(mi)
	n := min(len(verts), len(f.MeshUVs(mi))) / 2
	var tri triangle // x/y hold the running minimum and maximum
	seen := false
	for v := 0; v < n; v++ {
		ix, iy := t.Apply(float64(verts[2*v]), float64(verts[2*v+1]))
		x, okx := fixedPoint(ix)
		y, oky := fixedPoint(iy)
		if !okx || !oky {
			continue
		}
		if !seen {
			tri.x = [3]int64{x, x, x}
			tri.y = [3]int64{y, y, y}
			seen = true
			continue
		}
		tri.x[0], tri.x[1] = min(tri.x[0], x), max(tri.x[1], x)
		tri.y[0], tri.y[1] = min(tri.y[0], y), max(tri.y[1], y)
	}
	if !seen {
		return rect{}
	}
	tri.x[2], tri.y[2] = tri.x[0], tri.y[0]
	return tri.bounds(r.full())
}

// pageOf returns the page a mesh samples: white (no page, −1) samples
// opaque white; ok is false for an unavailable page (the mesh draws
// nothing and masks nothing).
func (r *Renderer) pageOf(texturePage int) (page *image.RGBA, white, ok bool) {
	if texturePage < 0 {
		return nil, true, true
	}
	if texturePage >= len(r.pages) || r.pages[texturePage] == nil {
		return nil, false, false
	}
	return r.pages[texturePage], false, true
}

// meshTriangles maps mesh mi's triangles to image space into buf, oriented
// for raster, dropping back faces when cull is set, and returns them with
// the pixel bounds they cover. Triangles with an index out of range or a
// non-finite vertex are skipped.
func (r *Renderer) meshTriangles(f frame, mi int, t p2l.Affine, cull bool, buf []triangle) ([]triangle, rect) {
	buf = buf[:0]
	var bounds rect
	verts := f.MeshVertices(mi)
	uvs := f.MeshUVs(mi)
	idx := f.MeshIndices(mi)
	n := uint32(min(len(verts), len(uvs)) / 2)
	full := r.full()
	for k := 0; k+2 < len(idx); k += 3 {
		i := [3]uint32{idx[k], idx[k+1], idx[k+2]}
		if i[0] >= n || i[1] >= n || i[2] >= n {
			continue
		}
		var cx, cy [3]float64
		var tri triangle
		ok := true
		for j, v := range i {
			cx[j], cy[j] = float64(verts[2*v]), float64(verts[2*v+1])
			ix, iy := t.Apply(cx[j], cy[j])
			var okx, oky bool
			tri.x[j], okx = fixedPoint(ix)
			tri.y[j], oky = fixedPoint(iy)
			ok = ok && okx && oky
			tri.u[j], tri.v[j] = float64(uvs[2*v]), float64(uvs[2*v+1])
		}
		if !ok {
			continue
		}
		if cull {
			// Front faces: (b − a) × (c − a) < 0 in canvas coordinates.
			if (cx[1]-cx[0])*(cy[2]-cy[0])-(cy[1]-cy[0])*(cx[2]-cx[0]) >= 0 {
				continue
			}
		}
		a := cross2(&tri)
		if a == 0 {
			continue
		}
		if a < 0 {
			tri.x[1], tri.x[2] = tri.x[2], tri.x[1]
			tri.y[1], tri.y[2] = tri.y[2], tri.y[1]
			tri.u[1], tri.u[2] = tri.u[2], tri.u[1]
			tri.v[1], tri.v[2] = tri.v[2], tri.v[1]
		}
		b := tri.bounds(full)
		if b.empty() {
			continue
		}
		buf = append(buf, tri)
		bounds = bounds.union(b)
	}
	return buf, bounds
}

func (r *Renderer) drawMesh(f frame, m *p2l.Model, t p2l.Affine, mi, depth int) {
	if mi >= m.Meshes().Len() {
		return
	}
	mesh := m.Meshes().At(mi)
	op := f.MeshOpacity(mi)
	if !(op > 0) {
		return
	}
	page, white, ok := r.pageOf(mesh.TexturePage)
	if !ok {
		return
	}
	var area rect
	r.tris, area = r.meshTriangles(f, mi, t, mesh.Flags&p2lrt.MeshCulling != 0, r.tris)
	l := &r.layers[depth]
	area = area.intersect(l.ext) // a no-op: planGroups sized the layer to hold it
	if area.empty() {
		return
	}
	c := &r.cur
	c.layer = l
	c.page, c.white = page, white
	c.spage = nil
	if r.exact && r.straight != nil && !white {
		c.spage = r.straight[mesh.TexturePage]
	}
	c.mul, c.scr = f.MeshColors(mi)
	c.opacity = min(op, 1)
	c.blend, c.alpha = mesh.Blend, mesh.AlphaBlend
	c.fixed = FixedFunction(c.blend, c.alpha) || c.blend >= p2lrt.NumBlendModes || c.alpha >= p2lrt.NumAlphaModes
	c.normal = c.blend == p2lrt.BlendNormal && c.alpha == p2lrt.AlphaOver
	c.area = area
	c.masked = len(mesh.Masks) > 0
	c.invert = mesh.Flags&p2lrt.MeshInvertMask != 0
	if c.masked {
		r.coverage(f, m, t, mesh.Masks, area)
	}
	if !c.fixed {
		r.snapshot(c.layer, area)
	}
	for i := range r.tris {
		raster(&r.tris[i], area, r.drawSpan)
	}
	c.layer.dirty = c.layer.dirty.union(area)
}

// snapshot copies the layer under area, for the modes that read the
// destination as it was before the mesh.
func (r *Renderer) snapshot(l *layer, area rect) {
	w := area.x1 - area.x0
	n := 4 * w * (area.y1 - area.y0)
	if cap(r.snap) < n {
		r.snap = make([]float32, n)
	}
	r.snap = r.snap[:n]
	for y := area.y0; y < area.y1; y++ {
		i := l.at(area.x0, y)
		copy(r.snap[4*(y-area.y0)*w:4*(y-area.y0+1)*w], l.pix[i:i+4*w])
	}
}

// shadeSpan draws one span of the current mesh.
func (r *Renderer) shadeSpan(y, x0, x1 int, u, v, du, dv float64) {
	c := &r.cur
	// row holds the layer's pixels of row y from x0 on.
	row := c.layer.pix[c.layer.at(x0, y) : c.layer.at(x1, y)+4]
	cov := r.cov[y*r.w : (y+1)*r.w]
	sw := c.area.x1 - c.area.x0
	exact := r.exact
	for x := x0; x <= x1; x++ {
		k := float64(x - x0)
		var tex Premul
		if c.white {
			tex = Premul{1, 1, 1, 1}
		} else {
			if c.spage != nil {
				tex = sampleStraight(c.spage, u+k*du, v+k*dv)
			} else {
				tex = sample(c.page, u+k*du, v+k*dv)
			}
			if c.fixed && tex == (Premul{}) {
				continue // a transparent fragment leaves a fixed-function destination as it is
			}
		}
		scale := c.opacity
		if c.masked {
			cv := cov[x]
			if c.invert {
				cv = 1 - cv
			}
			scale *= cv
		}
		s := Shade(tex, c.mul, c.scr, scale)
		j := 4 * (x - x0)
		p := row[j : j+4 : j+4]
		if c.normal {
			// Composite's Normal+Over case inlined (same operations, so
			// the same bits): the common case.
			k := 1 - s.A
			o0 := clamp01(s.R + p[0]*k)
			o1 := clamp01(s.G + p[1]*k)
			o2 := clamp01(s.B + p[2]*k)
			o3 := clamp01(s.A + p[3]*k)
			if exact {
				p[0], p[1], p[2], p[3] = o0, o1, o2, o3
			} else {
				p[0], p[1], p[2], p[3] = store8(o0), store8(o1), store8(o2), store8(o3)
			}
			continue
		}
		var d Premul
		if c.fixed {
			if s == (Premul{}) {
				continue
			}
			d = Premul{p[0], p[1], p[2], p[3]}
		} else {
			i := 4 * ((y-c.area.y0)*sw + x - c.area.x0)
			q := r.snap[i : i+4 : i+4]
			d = Premul{q[0], q[1], q[2], q[3]}
		}
		o := Composite(s, d, c.blend, c.alpha)
		if exact {
			p[0], p[1], p[2], p[3] = o.R, o.G, o.B, o.A
		} else {
			p[0], p[1], p[2], p[3] = store8(o.R), store8(o.G), store8(o.B), store8(o.A)
		}
	}
}

// store is what a layer keeps of a composited channel v in [0, 1]: v itself
// with float layers, else the 8-bit value store8.
func (r *Renderer) store(v float32) float32 {
	if r.exact {
		return v
	}
	return store8(v)
}

// store8 is what an 8-bit render target keeps of a composited channel v in
// [0, 1]: the nearest k/255, ties to even (the D3D rule for float to
// UNORM). Every layer holds only such values between
// composite steps (docs/RENDERING.md, "8-bit destination"), so the next
// mesh or group reads its backdrop as a GPU reads its target.
//
// Ties are real: opacity 0.5 over 8-bit values, or bilinear weights of
// 1/4, give exact half steps, but float32 lands a few 1e-6 of a step on
// either side of them (k/255 is not exact). A value within tieEps of a half
// step is therefore taken as the tie it stands for, so the result follows
// the exact arithmetic rather than the rounding noise; a GPU computing the
// same products exactly stores the same value. Values of these pipelines
// that are not ties lie at least 1/16 step away from one.
func store8(v float32) float32 {
	const tieEps = 1.0 / 1024 // in steps of 1/255
	x := v * 255
	n := int32(x + 0.5) // nearest, ties up (v ≥ 0)
	if f := x - float32(int32(x)); f >= 0.5-tieEps && f <= 0.5+tieEps {
		// A tie (rare, so the branch predicts well): to even.
		n = int32(x)
		n += n & 1
	}
	return unorm8[uint8(n)] // n ≤ 255: v ≤ 1
}

// unorm8 holds k/255 as correctly rounded float32 (a division once, not per
// channel), which to8 maps back to k exactly.
var unorm8 = func() (t [256]float32) {
	for k := range t {
		t[k] = float32(k) / 255
	}
	return t
}()

// maskPage is the page of the mask mesh being rasterized into coverage,
// and how its alpha joins the coverage (Model.UnitesMasks).
type maskPage struct {
	page  *image.RGBA
	white bool
	unite bool
}

// coverage computes the mask coverage of masks over area into r.cov: at
// each pixel centre, the maximum texture alpha of the mask meshes there,
// or their union 1 − ∏(1 − α), triangle by triangle, when the model unites
// masks (Model.UnitesMasks: Cubism models). Mask meshes are culled only
// when the model culls masks (Model.CullsMasks); their opacity and colours
// do not matter.
func (r *Renderer) coverage(f frame, m *p2l.Model, t p2l.Affine, masks []int, area rect) {
	for y := area.y0; y < area.y1; y++ {
		clear(r.cov[y*r.w+area.x0 : y*r.w+area.x1])
	}
	cullMasks, unite := m.CullsMasks(), m.UnitesMasks()
	for _, mi := range masks {
		if mi < 0 || mi >= m.Meshes().Len() {
			continue
		}
		mesh := m.Meshes().At(mi)
		page, white, ok := r.pageOf(mesh.TexturePage)
		if !ok {
			continue
		}
		r.mask = maskPage{page, white, unite}
		var b rect
		r.maskTris, b = r.meshTriangles(f, mi, t, cullMasks && mesh.Flags&p2lrt.MeshCulling != 0, r.maskTris)
		if b.intersect(area).empty() {
			continue
		}
		for i := range r.maskTris {
			raster(&r.maskTris[i], area, r.maskSpan)
		}
	}
}

func (r *Renderer) coverSpan(y, x0, x1 int, u, v, du, dv float64) {
	cov := r.cov[y*r.w : (y+1)*r.w]
	for x := x0; x <= x1; x++ {
		a := float32(1)
		if !r.mask.white {
			k := float64(x - x0)
			a = sampleAlpha(r.mask.page, u+k*du, v+k*dv)
		}
		switch {
		case r.mask.unite:
			cov[x] += a - cov[x]*a // 1 − (1 − c)(1 − a)
		case a > cov[x]:
			cov[x] = a
		}
	}
}

// closeGroup composites the innermost open layer into the one below with
// the group's colours, opacity, mask coverage and modes, and closes it.
func (r *Renderer) closeGroup(f frame, m *p2l.Model, t p2l.Affine, part int) {
	depth := len(r.layers) - 1
	defer func() {
		r.layers = r.layers[:depth]
		r.parts = r.parts[:len(r.parts)-1]
	}()
	src, dst := &r.layers[depth], &r.layers[depth-1]
	area := src.dirty.intersect(src.ext).intersect(dst.ext)
	if area.empty() {
		return // a transparent layer leaves the destination as it is in every mode
	}
	comp := f.GroupComposite(part)
	masked := len(comp.MaskMeshes) > 0
	if masked {
		r.coverage(f, m, t, comp.MaskMeshes, area)
	}
	op := comp.Opacity
	if !(op > 0) {
		return
	}
	op = min(op, 1)
	for y := area.y0; y < area.y1; y++ {
		si, di := src.at(area.x0, y), dst.at(area.x0, y)
		for x := area.x0; x < area.x1; x, si, di = x+1, si+4, di+4 {
			sp := src.pix[si : si+4 : si+4]
			scale := op
			if masked {
				cv := r.cov[y*r.w+x]
				if comp.InvertMask {
					cv = 1 - cv
				}
				scale *= cv
			}
			s := Shade(Premul{sp[0], sp[1], sp[2], sp[3]}, comp.Multiply, comp.Screen, scale)
			dp := dst.pix[di : di+4 : di+4]
			o := Composite(s, Premul{dp[0], dp[1], dp[2], dp[3]}, comp.Blend, comp.AlphaBlend)
			dp[0], dp[1], dp[2], dp[3] = r.store(o.R), r.store(o.G), r.store(o.B), r.store(o.A)
		}
	}
	dst.dirty = dst.dirty.union(area)
}

// sample is bilinear filtering of premultiplied texels at texture
// coordinates (u, v) (0..1, v down), with texel centres at (i + 0.5)/size
// and clamp-to-edge addressing.
func sample(img *image.RGBA, u, v float64) Premul {
	a, b, c, d, fx, fy := texelQuad(img.Pix, img.Stride, img.Rect.Dx(), img.Rect.Dy(), u, v)
	if a[3]|b[3]|c[3]|d[3] == 0 {
		// Four transparent texels: premultiplied colour is zero too
		// (decoded pages keep rgb ≤ a). The common case around sprites.
		return Premul{}
	}
	wa := (1 - fx) * (1 - fy)
	wb := fx * (1 - fy)
	wc := (1 - fx) * fy
	wd := fx * fy
	const k = 1.0 / 255
	return Premul{
		(float32(a[0])*wa + float32(b[0])*wb + float32(c[0])*wc + float32(d[0])*wd) * k,
		(float32(a[1])*wa + float32(b[1])*wb + float32(c[1])*wc + float32(d[1])*wd) * k,
		(float32(a[2])*wa + float32(b[2])*wb + float32(c[2])*wc + float32(d[2])*wd) * k,
		(float32(a[3])*wa + float32(b[3])*wb + float32(c[3])*wc + float32(d[3])*wd) * k,
	}
}

// sampleStraight is sample on straight-alpha texels, each premultiplied
// exactly (in float, c·a) before the bilinear weights apply: the texel's
// colour survives where its alpha is small, which 8-bit premultiplied
// texels round away (straight output is exact to the file's texels).
func sampleStraight(img *image.NRGBA, u, v float64) Premul {
	a, b, c, d, fx, fy := texelQuad(img.Pix, img.Stride, img.Rect.Dx(), img.Rect.Dy(), u, v)
	if a[3]|b[3]|c[3]|d[3] == 0 {
		return Premul{}
	}
	const k = 1.0 / 255
	// Bilinear weights times each texel's alpha.
	wa := (1 - fx) * (1 - fy) * float32(a[3]) * k
	wb := fx * (1 - fy) * float32(b[3]) * k
	wc := (1 - fx) * fy * float32(c[3]) * k
	wd := fx * fy * float32(d[3]) * k
	return Premul{
		(float32(a[0])*wa + float32(b[0])*wb + float32(c[0])*wc + float32(d[0])*wd) * k,
		(float32(a[1])*wa + float32(b[1])*wb + float32(c[1])*wc + float32(d[1])*wd) * k,
		(float32(a[2])*wa + float32(b[2])*wb + float32(c[2])*wc + float32(d[2])*wd) * k,
		wa + wb + wc + wd,
	}
}

// texelQuad returns the four 4-byte texels around (u, v) of a w×h pixel
// buffer (row a/b above c/d, clamp-to-edge) and the bilinear fractions
// between them; sample and sampleStraight weight them differently.
func texelQuad(p []byte, s, w, h int, u, v float64) (a, b, c, d []byte, fx, fy float32) {
	x0, x1, fx := texelPair(u, w)
	y0, y1, fy := texelPair(v, h)
	a = p[y0*s+4*x0 : y0*s+4*x0+4 : y0*s+4*x0+4]
	b = p[y0*s+4*x1 : y0*s+4*x1+4 : y0*s+4*x1+4]
	c = p[y1*s+4*x0 : y1*s+4*x0+4 : y1*s+4*x0+4]
	d = p[y1*s+4*x1 : y1*s+4*x1+4 : y1*s+4*x1+4]
	return a, b, c, d, fx, fy
}

// sampleAlpha is sample's alpha channel alone.
func sampleAlpha(img *image.RGBA, u, v float64) float32 {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x0, x1, fx := texelPair(u, w)
	y0, y1, fy := texelPair(v, h)
	p := img.Pix
	s := img.Stride
	a := float32(p[y0*s+4*x0+3])
	b := float32(p[y0*s+4*x1+3])
	c := float32(p[y1*s+4*x0+3])
	d := float32(p[y1*s+4*x1+3])
	return ((a*(1-fx)+b*fx)*(1-fy) + (c*(1-fx)+d*fx)*fy) / 255
}

// texelPair returns the two texels around coordinate t of an axis of n
// texels and the weight of the second.
func texelPair(t float64, n int) (int, int, float32) {
	x := t*float64(n) - 0.5
	if !(x >= -1) { // also NaN
		x = -1
	} else if x > float64(n) {
		x = float64(n)
	}
	fl := math.Floor(x)
	f := float32(x - fl)
	i := int(fl)
	j := i + 1
	i = max(0, min(i, n-1))
	j = max(0, min(j, n-1))
	return i, j, f
}
