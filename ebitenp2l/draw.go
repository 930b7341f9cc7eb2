package ebitenp2l

import (
	"image"
	"math"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// The renderer draws one character per call of Character.Draw. Its scratch
// state is shared by all characters (draws run on the game goroutine; the
// mutex only guards against misuse) and only ever grows, so a steady frame
// allocates nothing.
//
// A frame runs in phases, so that draws of the same kind are consecutive and
// merge (Ebitengine merges a draw only into the command just before it):
//
//  1. plan: walk the render commands once, transform every drawn mesh to
//     screen space, compute mesh and group bounds, collect the mask sets in
//     use and the space needed for layers, coverage and backdrop copies;
//  2. coverage: render each mask set once (max blend of texture alpha);
//  3. layers: clear every group layer, then render the groups innermost
//     first (post-order), each into its region of its depth's page;
//  4. main: draw the top-level meshes and group layers into the caller's
//     target.
type renderer struct {
	mu sync.Mutex

	res *modelRes
	rig pose

	geo       [6]float64 // GeoM a, b, c, d, tx, ty
	cs        [4]float32 // ColorScale
	csOK      bool       // ColorScale alpha > 0
	flags     float32    // vertex flag bits: 2 = nearest sampling
	dstBounds image.Rectangle

	// Screen-space vertices of the meshes transformed this frame.
	stamp      uint32
	meshStamp  []uint32
	meshOff    []int32
	meshBounds []image.Rectangle // clipped to dstBounds; empty: nothing to draw
	sv         []float32

	items  []item
	groups []group
	stack  []int
	post   []int // groups in closing order (children before parents)

	// Mask sets used this frame, indexed like modelRes.maskSets.
	covStamp  []uint32
	covRect   []image.Rectangle // screen space
	covRegion []image.Rectangle // on pool.coverage
	covImg    []*ebiten.Image
	covUsed   []int

	bdAll image.Rectangle // union of this frame's backdrop areas

	// The backdrop batch: on when the current batch reads a copy of its
	// target, taken at flush over bdRect (screen space), the union of the
	// batch's mutually disjoint areas bdRects, from target bdT.
	bdOn     bool
	bdRect   image.Rectangle
	bdRects  []image.Rectangle
	bdT      target
	copyV    [4]ebiten.Vertex
	copyOpts ebiten.DrawTrianglesShaderOptions

	// Batch being built.
	key   batchKey
	verts []ebiten.Vertex
	inds  []uint16
	remap []int32
	rstmp []uint32
	rgen  uint32

	opts     ebiten.DrawTrianglesShaderOptions
	uniforms map[string]any
	mode     []float32
	offsets  []float32

	// drawCalls counts DrawTrianglesShader calls (tests check batching).
	drawCalls int
}

var rd = renderer{}

// pose is what the renderer reads of a rig's last evaluation (*p2l.Rig
// implements it; tests substitute hand-made poses).
type pose interface {
	RenderCommands() []p2l.RenderCommand
	MeshVertices(i int) []float32
	MeshUVs(i int) []float32
	MeshIndices(i int) []uint32
	MeshOpacity(i int) float32
	MeshColors(i int) (multiply, screen p2l.Color)
	GroupComposite(part int) p2l.Composite
}

// item is one entry of the flattened render commands: a mesh, or the
// composite of a group (whose contents follow, up to group.last).
type item struct {
	mesh  int
	group int // ≥ 0: composite of groups[group]; −1: mesh
}

type group struct {
	part     int
	depth    int
	first    int // first content item
	last     int // one past the last content item
	bounds   image.Rectangle
	region   image.Rectangle
	img      *ebiten.Image // layer sub-image
	comp     p2l.Composite
	maskSet  int
	backdrop bool
}

// target is where a draw goes: the caller's image or a group layer.
type target struct {
	img *ebiten.Image
	// off maps screen coordinates to img coordinates.
	offX, offY float32
	// screenMin is the screen position of img's bounds' minimum.
	screenMin image.Point
	bounds    image.Rectangle // screen space
	top       bool            // the caller's target: ColorScale applies
}

// batchKey is the state that must be equal for draws to share a call.
type batchKey struct {
	dst     *ebiten.Image
	src     *ebiten.Image
	cov     *ebiten.Image
	back    *ebiten.Image
	blend   ebiten.Blend
	shader  *ebiten.Shader
	mode    [4]float32
	offsets [4]float32
}

// maxBatchVertices is the largest vertex count one call can address with
// uint16 indices.
const maxBatchVertices = 1 << 16

func (r *renderer) draw(c *Character, dst *ebiten.Image, opts *DrawOptions) {
	if err := loadShaders(); err != nil {
		panic(err)
	}
	if r.uniforms == nil {
		r.mode = make([]float32, 4)
		r.offsets = make([]float32, 4)
		r.uniforms = map[string]any{"Mode": r.mode, "Offsets": r.offsets}
	}
	r.res, r.rig = c.res, c.pose
	var g ebiten.GeoM
	var cs ebiten.ColorScale
	r.flags = 0
	if opts != nil {
		g = opts.GeoM
		cs = opts.ColorScale
		if opts.Filter == FilterNearest {
			r.flags = 2
		}
	}
	r.geo = [6]float64{g.Element(0, 0), g.Element(0, 1), g.Element(1, 0), g.Element(1, 1), g.Element(0, 2), g.Element(1, 2)}
	r.cs = [4]float32{cs.R(), cs.G(), cs.B(), cs.A()}
	r.csOK = r.cs[3] > 0
	r.dstBounds = dst.Bounds()
	r.key = batchKey{}
	r.bdOn = false
	r.verts, r.inds = r.verts[:0], r.inds[:0]

	defer r.release()
	if !r.plan() {
		return
	}
	if !r.bdAll.Empty() {
		pool.scratch.ensure(r.bdAll.Dx(), r.bdAll.Dy())
	}
	r.renderCoverage()
	r.renderLayers()
	top := target{img: dst, screenMin: r.dstBounds.Min, bounds: r.dstBounds, top: true}
	r.renderRange(0, len(r.items), &top)
	r.flush()
}

// release drops the references to the caller's objects (rig, images) that
// the renderer's state still holds, so that they are not kept alive until
// the next Draw.
func (r *renderer) release() {
	r.res, r.rig = nil, nil
	r.key = batchKey{}
	r.bdT = target{}
	r.opts.Images = [4]*ebiten.Image{}
	r.copyOpts.Images = [4]*ebiten.Image{}
	for i := range r.groups {
		r.groups[i].img = nil
	}
}

// plan flattens the render commands and computes every bound; it reports
// false when nothing is visible.
func (r *renderer) plan() bool {
	m := r.res.model
	n := len(m.Meshes)
	if len(r.meshStamp) < n {
		r.meshStamp = append(r.meshStamp, make([]uint32, n-len(r.meshStamp))...)
		r.meshOff = append(r.meshOff, make([]int32, n-len(r.meshOff))...)
		r.meshBounds = append(r.meshBounds, make([]image.Rectangle, n-len(r.meshBounds))...)
	}
	ns := len(r.res.maskSets)
	if len(r.covStamp) < ns {
		r.covStamp = append(r.covStamp, make([]uint32, ns-len(r.covStamp))...)
		r.covRect = append(r.covRect, make([]image.Rectangle, ns-len(r.covRect))...)
		r.covRegion = append(r.covRegion, make([]image.Rectangle, ns-len(r.covRegion))...)
		r.covImg = append(r.covImg, make([]*ebiten.Image, ns-len(r.covImg))...)
	}
	r.stamp++
	if r.stamp == 0 { // wrapped: old stamps could collide
		clear(r.meshStamp)
		clear(r.covStamp)
		r.stamp = 1
	}
	r.sv = r.sv[:0]
	r.items, r.groups, r.stack, r.post, r.covUsed = r.items[:0], r.groups[:0], r.stack[:0], r.post[:0], r.covUsed[:0]
	r.bdAll = image.Rectangle{}

	skip := 0 // > 0 inside a group that is not drawn
	for _, cmd := range r.rig.RenderCommands() {
		if skip > 0 {
			if _, ok := cmd.Group(); ok {
				skip++
			} else if cmd == p2l.CloseGroup {
				skip--
			}
			continue
		}
		if mi, ok := cmd.Mesh(); ok {
			if mi >= n || !r.visibleMesh(mi) {
				continue
			}
			b := r.transform(mi)
			if b.Empty() {
				continue
			}
			r.items = append(r.items, item{mesh: mi, group: -1})
			if len(r.stack) > 0 {
				top := &r.groups[r.stack[len(r.stack)-1]]
				top.bounds = top.bounds.Union(b)
			}
			if s := r.res.meshMask[mi]; s >= 0 {
				r.useMask(s, b)
			}
			mesh := &m.Meshes[mi]
			if _, hw := hardwareBlend(mesh.Blend, mesh.AlphaBlend); !hw {
				r.needBackdrop(b)
			}
			continue
		}
		if part, ok := cmd.Group(); ok {
			if !(r.rig.GroupComposite(part).Opacity > 0) {
				// A transparent group leaves its target as it is in every
				// mode: neither its layer nor its masks are drawn.
				skip = 1
				continue
			}
			gi := len(r.groups)
			r.items = append(r.items, item{mesh: -1, group: gi})
			ms := -1
			if part < len(r.res.partMask) {
				ms = r.res.partMask[part]
			}
			r.groups = append(r.groups, group{part: part, depth: len(r.stack), first: len(r.items), maskSet: ms})
			r.stack = append(r.stack, gi)
			continue
		}
		r.closeGroup()
	}
	for len(r.stack) > 0 {
		r.closeGroup()
	}
	return len(r.items) > 0
}

// closeGroup ends the innermost open group: its bounds are final, so they
// join its parent's and its mask and layer needs are recorded.
func (r *renderer) closeGroup() {
	if len(r.stack) == 0 {
		return // an unbalanced close: ignored
	}
	gi := r.stack[len(r.stack)-1]
	r.stack = r.stack[:len(r.stack)-1]
	g := &r.groups[gi]
	g.last = len(r.items)
	g.bounds = g.bounds.Intersect(r.dstBounds)
	r.post = append(r.post, gi)
	if g.bounds.Empty() {
		return
	}
	g.comp = r.rig.GroupComposite(g.part)
	if len(r.stack) > 0 {
		p := &r.groups[r.stack[len(r.stack)-1]]
		p.bounds = p.bounds.Union(g.bounds)
	}
	if g.maskSet >= 0 {
		r.useMask(g.maskSet, g.bounds)
	}
	if _, hw := hardwareBlend(g.comp.Blend, g.comp.AlphaBlend); !hw {
		g.backdrop = true
		r.needBackdrop(g.bounds)
	}
}

func (r *renderer) visibleMesh(mi int) bool {
	if _, _, _, ok := r.page(mi); !ok {
		return false
	}
	return r.rig.MeshOpacity(mi) > 0
}

// page returns the image mesh mi samples and its size without the border:
// a mesh without a page (−1) samples opaque white; ok is false for a page
// that is unavailable (the mesh draws nothing and masks nothing).
func (r *renderer) page(mi int) (img *ebiten.Image, w, h float32, ok bool) {
	p := r.res.model.Meshes[mi].TexturePage
	if p < 0 {
		return whitePage(), 1, 1, true
	}
	if p >= len(r.res.pages) || r.res.pages[p] == nil {
		return nil, 0, 0, false
	}
	return r.res.pages[p], r.res.pageW[p], r.res.pageH[p], true
}

func (r *renderer) useMask(s int, b image.Rectangle) {
	if r.covStamp[s] != r.stamp {
		r.covStamp[s] = r.stamp
		r.covRect[s] = image.Rectangle{}
		r.covUsed = append(r.covUsed, s)
	}
	r.covRect[s] = r.covRect[s].Union(b)
}

// needBackdrop records an area that will read the backdrop: the scratch
// image is made as large as their union, so that merged backdrop batches
// (see beginBackdrop) fit.
func (r *renderer) needBackdrop(b image.Rectangle) {
	r.bdAll = r.bdAll.Union(b)
}

// transform computes mesh mi's screen vertices once per frame and returns
// its bounds clipped to the destination (pixels whose centers the mesh can
// cover).
func (r *renderer) transform(mi int) image.Rectangle {
	if r.meshStamp[mi] == r.stamp {
		return r.meshBounds[mi]
	}
	r.meshStamp[mi] = r.stamp
	r.meshOff[mi] = int32(len(r.sv))
	v := r.rig.MeshVertices(mi)
	a, b, c, d, tx, ty := r.geo[0], r.geo[1], r.geo[2], r.geo[3], r.geo[4], r.geo[5]
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for i := 0; i+1 < len(v); i += 2 {
		x, y := float64(v[i]), float64(v[i+1])
		sx, sy := a*x+b*y+tx, c*x+d*y+ty
		r.sv = append(r.sv, float32(sx), float32(sy))
		minX, maxX = min(minX, sx), max(maxX, sx)
		minY, maxY = min(minY, sy), max(maxY, sy)
	}
	var bb image.Rectangle
	if len(v) >= 6 && !math.IsNaN(minX+minY+maxX+maxY) {
		bb = image.Rect(clampInt(math.Floor(minX)), clampInt(math.Floor(minY)), clampInt(math.Ceil(maxX)), clampInt(math.Ceil(maxY)))
		bb = bb.Intersect(r.dstBounds)
	}
	r.meshBounds[mi] = bb
	return bb
}

func clampInt(f float64) int {
	return int(max(min(f, 1<<24), -(1 << 24)))
}

// renderCoverage renders every mask set in use once: the maximum of its
// meshes' texture alpha, in screen space over the union of the bounds of
// what it masks.
func (r *renderer) renderCoverage() {
	if len(r.covUsed) == 0 {
		return
	}
	p := &pool.coverage
	for attempt := 0; ; attempt++ {
		p.reset()
		ok := true
		for _, s := range r.covUsed {
			reg, fits := p.alloc(r.covRect[s].Dx(), r.covRect[s].Dy())
			r.covRegion[s] = reg
			ok = ok && fits
		}
		if ok || attempt == 3 {
			break
		}
		p.grow()
	}
	for _, s := range r.covUsed {
		if r.covRegion[s].Max.X > p.w || r.covRegion[s].Max.Y > p.h {
			r.covImg[s] = nil // does not fit even the largest page
			continue
		}
		r.covImg[s] = p.sub(r.covRegion[s])
		r.covImg[s].Clear()
	}
	for _, s := range r.covUsed {
		img := r.covImg[s]
		if img == nil {
			continue
		}
		t := target{
			img:       img,
			offX:      float32(r.covRegion[s].Min.X - r.covRect[s].Min.X),
			offY:      float32(r.covRegion[s].Min.Y - r.covRect[s].Min.Y),
			screenMin: r.covRect[s].Min,
			bounds:    r.covRect[s],
		}
		for _, mi := range r.res.maskSets[s] {
			pg, _, _, ok := r.page(mi)
			if !ok || r.transform(mi).Empty() {
				continue
			}
			r.setKey(batchKey{dst: img, src: pg, blend: blendMax, shader: meshShader})
			// (t.rgb·0 + t.a·1, t.a)·1: the texture alpha in every channel.
			r.emitMesh(mi, &t, [3]float32{}, [3]float32{1, 1, 1}, 1, false, r.flags)
		}
	}
}

// renderLayers clears every group layer, then renders the groups innermost
// first, so that a group's children are ready when it composites them.
func (r *renderer) renderLayers() {
	if len(r.groups) == 0 {
		return
	}
	for attempt := 0; ; attempt++ {
		ok := true
		for _, l := range pool.layers {
			l.reset()
		}
		for i := range r.groups {
			g := &r.groups[i]
			if g.bounds.Empty() {
				continue
			}
			reg, fits := pool.layer(g.depth).alloc(g.bounds.Dx(), g.bounds.Dy())
			g.region = reg
			ok = ok && fits
		}
		if ok || attempt == 3 {
			break
		}
		for _, l := range pool.layers {
			if l.overflow {
				l.grow()
			}
		}
	}
	for i := range r.groups {
		g := &r.groups[i]
		g.img = nil
		l := pool.layer(g.depth)
		if g.bounds.Empty() || g.region.Max.X > l.w || g.region.Max.Y > l.h {
			continue
		}
		g.img = l.sub(g.region)
		g.img.Clear()
	}
	for _, gi := range r.post {
		g := &r.groups[gi]
		if g.img == nil {
			continue
		}
		t := target{
			img:       g.img,
			offX:      float32(g.region.Min.X - g.bounds.Min.X),
			offY:      float32(g.region.Min.Y - g.bounds.Min.Y),
			screenMin: g.bounds.Min,
			bounds:    g.bounds,
		}
		r.renderRange(g.first, g.last, &t)
	}
}

// renderRange draws items [first, last) into t; a group item composites the
// group's layer and skips its contents.
func (r *renderer) renderRange(first, last int, t *target) {
	for i := first; i < last; {
		it := r.items[i]
		if it.group >= 0 {
			r.drawGroup(&r.groups[it.group], t)
			i = r.groups[it.group].last
			continue
		}
		r.drawMesh(it.mesh, t)
		i++
	}
}

// colors folds opacity, multiply, screen and (on the caller's target) the
// ColorScale into the vertex attributes M, S and o of the shaders:
// fragment = (t.rgb·M + t.a·S, t.a)·o.
//
// The rule is c' = c·mul, then c” = c' + s·a − c'·s = c'·(1 − s) + s·a,
// then ·opacity; so M = mul·(1 − s), S = s. A ColorScale k scales the
// premultiplied result per channel: rgb by k.rgb, alpha by k.a; that is
// o = opacity·k.a and M, S scaled by k.rgb/k.a.
func (r *renderer) colors(op float32, mul, scr p2l.Color, top bool) (M, S [3]float32, o float32, ok bool) {
	o = op
	for i := range 3 {
		M[i] = mul[i] * (1 - scr[i])
		S[i] = scr[i]
	}
	if top {
		if !r.csOK {
			return M, S, 0, false
		}
		o *= r.cs[3]
		for i := range 3 {
			f := r.cs[i] / r.cs[3]
			M[i] *= f
			S[i] *= f
		}
	}
	return M, S, o, o > 0
}

func (r *renderer) drawMesh(mi int, t *target) {
	b := r.meshBounds[mi].Intersect(t.bounds)
	if b.Empty() {
		return
	}
	mesh := &r.res.model.Meshes[mi]
	mul, scr := r.rig.MeshColors(mi)
	M, S, o, ok := r.colors(r.rig.MeshOpacity(mi), mul, scr, t.top)
	if !ok {
		return
	}
	pg, _, _, _ := r.page(mi)
	k := batchKey{dst: t.img, src: pg, shader: meshShader, mode: [4]float32{-1}}
	if !r.maskKey(&k, r.res.meshMask[mi], t) {
		return
	}
	invert := r.res.meshMask[mi] >= 0 && mesh.Flags&p2l.MeshInvertMask != 0
	cull := mesh.Flags&p2l.MeshCulling != 0
	blend, hw := hardwareBlend(mesh.Blend, mesh.AlphaBlend)
	if hw {
		k.blend = blend
		r.setKey(k)
		r.emitMesh(mi, t, M, S, o, cull, r.flags+invertFlag(invert))
		return
	}
	r.beginBackdrop(k, b, t, mesh.Blend, mesh.AlphaBlend)
	r.emitMesh(mi, t, M, S, o, cull, r.flags+invertFlag(invert))
}

func invertFlag(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// maskKey binds mask set s's coverage (if any) to k; it reports false when
// the coverage could not be rendered (nothing is drawn then).
func (r *renderer) maskKey(k *batchKey, s int, t *target) bool {
	if s < 0 {
		return true
	}
	if r.covStamp[s] != r.stamp || r.covImg[s] == nil {
		return false
	}
	k.shader = compositeShader
	k.cov = r.covImg[s]
	k.mode[2] = 1
	k.offsets[0] = float32(t.screenMin.X - r.covRect[s].Min.X)
	k.offsets[1] = float32(t.screenMin.Y - r.covRect[s].Min.Y)
	return true
}

// beginBackdrop makes k (a mesh or group of a mode that reads the
// backdrop, covering b in screen space) the current batch: the composite
// shader over a copy of the target, with replace blending. The copy is
// taken when the batch is flushed, over the union of its areas, so that
// consecutive draws of the same state whose areas do not overlap (none can
// see another's result) share one copy and one call.
func (r *renderer) beginBackdrop(k batchKey, b image.Rectangle, t *target, blend p2l.BlendMode, alpha p2l.AlphaMode) {
	k.shader = compositeShader
	k.back = pool.scratch.img
	k.blend = blendReplace
	k.mode[0] = float32(blend)
	k.mode[1] = float32(alpha)
	if r.bdOn && r.key == k && len(r.inds) > 0 {
		disjoint := true
		for _, o := range r.bdRects {
			if o.Overlaps(b) {
				disjoint = false
				break
			}
		}
		u := r.bdRect.Union(b)
		if disjoint && u.Dx() <= pool.scratch.w && u.Dy() <= pool.scratch.h {
			r.bdRect = u
			r.bdRects = append(r.bdRects, b)
			return
		}
	}
	r.flush()
	r.key = k
	r.bdOn = true
	r.bdRect = b
	r.bdRects = append(r.bdRects[:0], b)
	r.bdT = *t
}

// copyBackdrop copies the target under the batch's area to the scratch
// image's origin (nearest sampling at texel centers: an exact copy) and
// points the batch's backdrop offsets at it.
func (r *renderer) copyBackdrop() {
	b, t := r.bdRect, &r.bdT
	w, h := float32(b.Dx()), float32(b.Dy())
	sx, sy := float32(b.Min.X)+t.offX, float32(b.Min.Y)+t.offY
	for j := range 4 {
		dx, dy := float32(j&1)*w, float32(j>>1)*h
		r.copyV[j] = ebiten.Vertex{DstX: dx, DstY: dy, SrcX: sx + dx, SrcY: sy + dy, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1, Custom3: 2}
	}
	r.copyOpts.Blend = blendReplace
	r.copyOpts.Images = [4]*ebiten.Image{t.img}
	pool.scratch.img.DrawTrianglesShader(r.copyV[:], quadIndices[:], meshShader, &r.copyOpts)
	r.drawCalls++
	r.key.offsets[2] = float32(t.screenMin.X - b.Min.X)
	r.key.offsets[3] = float32(t.screenMin.Y - b.Min.Y)
}

var quadIndices = [6]uint16{0, 1, 2, 1, 3, 2}

func (r *renderer) drawGroup(g *group, t *target) {
	if g.img == nil {
		return
	}
	b := g.bounds.Intersect(t.bounds)
	if b.Empty() {
		return
	}
	M, S, o, ok := r.colors(g.comp.Opacity, g.comp.Multiply, g.comp.Screen, t.top)
	if !ok {
		return
	}
	layer := pool.layer(g.depth).img
	k := batchKey{dst: t.img, src: layer, shader: meshShader, mode: [4]float32{-1}}
	if !r.maskKey(&k, g.maskSet, t) {
		return
	}
	flags := float32(2) + invertFlag(g.maskSet >= 0 && g.comp.InvertMask)
	blend, hw := hardwareBlend(g.comp.Blend, g.comp.AlphaBlend)
	if hw {
		k.blend = blend
		r.setKey(k)
	} else {
		r.beginBackdrop(k, b, t, g.comp.Blend, g.comp.AlphaBlend)
	}
	x0, y0 := float32(b.Min.X)+t.offX, float32(b.Min.Y)+t.offY
	sx := float32(g.region.Min.X + b.Min.X - g.bounds.Min.X)
	sy := float32(g.region.Min.Y + b.Min.Y - g.bounds.Min.Y)
	r.quad(x0, y0, float32(b.Dx()), float32(b.Dy()), sx, sy, M, S, o, flags)
}

// setKey makes k the current batch state, flushing the batch when it differs.
func (r *renderer) setKey(k batchKey) {
	if r.key != k || r.bdOn {
		r.flush()
		r.key = k
		r.bdOn = false
	}
}

// quad appends a w×h rectangle at (x, y) of the destination sampling the
// source rectangle of the same size at (sx, sy).
func (r *renderer) quad(x, y, w, h, sx, sy float32, M, S [3]float32, o, flags float32) {
	if len(r.verts)+4 > maxBatchVertices {
		r.flush()
	}
	base := uint16(len(r.verts))
	for j := range 4 {
		dx, dy := float32(j&1)*w, float32(j>>1)*h
		r.verts = append(r.verts, ebiten.Vertex{
			DstX: x + dx, DstY: y + dy, SrcX: sx + dx, SrcY: sy + dy,
			ColorR: M[0], ColorG: M[1], ColorB: M[2], ColorA: o,
			Custom0: S[0], Custom1: S[1], Custom2: S[2], Custom3: flags,
		})
	}
	r.inds = append(r.inds, base, base+1, base+2, base+1, base+3, base+2)
}

// emitMesh appends mesh mi's triangles (culled ones dropped) to the batch.
// A mesh that does not fit the batch's 65,536 addressable vertices starts a
// new batch; one larger than that is split triangle by triangle.
func (r *renderer) emitMesh(mi int, t *target, M, S [3]float32, o float32, cull bool, flags float32) {
	_, pw, ph, _ := r.page(mi)
	uv := r.rig.MeshUVs(mi)
	idx := r.rig.MeshIndices(mi)
	off := int(r.meshOff[mi])
	nv := len(r.rig.MeshVertices(mi)) / 2
	nv = min(nv, len(uv)/2)
	sv := r.sv[off : off+2*nv]
	var canvas []float32
	if cull {
		canvas = r.rig.MeshVertices(mi)
	}
	vertex := func(i int) ebiten.Vertex {
		return ebiten.Vertex{
			DstX: sv[2*i] + t.offX, DstY: sv[2*i+1] + t.offY,
			// +1: the page's border texel.
			SrcX: uv[2*i]*pw + 1, SrcY: uv[2*i+1]*ph + 1,
			ColorR: M[0], ColorG: M[1], ColorB: M[2], ColorA: o,
			Custom0: S[0], Custom1: S[1], Custom2: S[2], Custom3: flags,
		}
	}
	if nv <= maxBatchVertices {
		if len(r.verts)+nv > maxBatchVertices {
			r.flush()
		}
		base := len(r.verts)
		for i := range nv {
			r.verts = append(r.verts, vertex(i))
		}
		for j := 0; j+2 < len(idx); j += 3 {
			a, b, c := int(idx[j]), int(idx[j+1]), int(idx[j+2])
			if a >= nv || b >= nv || c >= nv || (cull && culled(canvas, a, b, c)) {
				continue
			}
			r.inds = append(r.inds, uint16(base+a), uint16(base+b), uint16(base+c))
		}
		return
	}
	// Split: remap the vertices of each triangle into the current batch.
	if len(r.remap) < nv {
		r.remap = make([]int32, nv)
		r.rstmp = make([]uint32, nv)
	}
	r.rgen++
	for j := 0; j+2 < len(idx); j += 3 {
		a, b, c := int(idx[j]), int(idx[j+1]), int(idx[j+2])
		if a >= nv || b >= nv || c >= nv || (cull && culled(canvas, a, b, c)) {
			continue
		}
		if len(r.verts)+3 > maxBatchVertices {
			r.flush()
			r.rgen++
		}
		for _, v := range [3]int{a, b, c} {
			if r.rstmp[v] != r.rgen {
				r.rstmp[v] = r.rgen
				r.remap[v] = int32(len(r.verts))
				r.verts = append(r.verts, vertex(v))
			}
			r.inds = append(r.inds, uint16(r.remap[v]))
		}
	}
}

// culled reports whether triangle (a, b, c) faces away: with culling on,
// only faces "clockwise in canvas coordinates (y down)" are drawn, which
// the spec's Godot paragraph and the CPU renderer state exactly as
// (b − a) × (c − a) < 0 in canvas coordinates (Cubism's front faces). The
// test runs in float64 on the canvas vertices, as the CPU renderer's does.
func culled(v []float32, a, b, c int) bool {
	ax, ay := float64(v[2*a]), float64(v[2*a+1])
	bx, by := float64(v[2*b]), float64(v[2*b+1])
	cx, cy := float64(v[2*c]), float64(v[2*c+1])
	return (bx-ax)*(cy-ay)-(by-ay)*(cx-ax) >= 0
}

// flush issues the batch as one DrawTrianglesShader call.
func (r *renderer) flush() {
	if len(r.inds) > 0 && r.key.dst != nil {
		k := &r.key
		if r.bdOn {
			// A batch split for its size copies again: only a mesh of more
			// than 65,535 vertices that overlaps itself sees the difference.
			r.copyBackdrop()
		}
		r.opts.Blend = k.blend
		r.opts.Images = [4]*ebiten.Image{k.src, k.cov, k.back, nil}
		r.opts.Uniforms = nil
		if k.shader == compositeShader {
			copy(r.mode, k.mode[:])
			copy(r.offsets, k.offsets[:])
			r.opts.Uniforms = r.uniforms
		}
		k.dst.DrawTrianglesShader(r.verts, r.inds, k.shader, &r.opts)
		r.drawCalls++
		k.offsets[2], k.offsets[3] = 0, 0 // backdrop keys compare without them
	}
	r.verts, r.inds = r.verts[:0], r.inds[:0]
}
