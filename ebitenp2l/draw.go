package ebitenp2l

import (
	"encoding/binary"
	"image"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// The renderer draws a frame of characters (one for Character.Draw, any
// number for a Batch) into one destination. Its scratch state is shared by
// all characters (draws run on the game goroutine; the mutex only guards
// against misuse) and only ever grows, so a steady frame allocates nothing.
//
// A frame runs in phases, so that draws of the same kind are consecutive
// and merge (Ebitengine merges a draw only into the command just before
// it):
//
//  1. plan: walk each character's render commands once, compute mesh and
//     group bounds;
//  2. layout: give every isolated group a region of the layer page of its
//     nesting depth;
//  3. ops: turn every visible mesh and group composite into an op of its
//     target (the caller's image, or a layer page) and place it in a batch
//     of equal state (see place): an op may join an earlier batch when it
//     overlaps nothing drawn since, so that consecutive characters, and
//     disjoint parts of one, share calls;
//  4. coverage: every mask set in use, once per target, into one coverage
//     page (clear, then one draw per model);
//  5. targets: the layer pages from the deepest nesting down, then the
//     caller's image, batch by batch; a batch that reads the backdrop is
//     preceded by one copy of its members' areas.
type renderer struct {
	mu sync.Mutex

	one []entry // the frame of Character.Draw

	stamp   uint32
	dst     *ebiten.Image
	dstB    image.Rectangle
	chars   []charPlan
	targets []target
	pageTgt []int32 // target of layer page d, −1 before it is needed
	ops     []op
	batches []batch
	uses    []covUse
	scopeID int32
	overlap []int32 // characters overlapping the one being built
	quads   []image.Rectangle

	// The call being built.
	verts []ebiten.Vertex
	inds  []uint16
	remap []int32
	rstmp []uint32
	rgen  uint32
	// scratchInds holds a mesh's filtered indices when it has no cache.
	scratchInds []uint16
	flatEdges   [maxFlatBoundary]flatEdge // flat's scratch
	call        struct {
		dst    *ebiten.Image
		shader *ebiten.Shader
		// mesh is the variant of a call of the mesh program (its shader
		// nil for the other programs): how the vertices carry the colour
		// words (words) and whether Custom0 and Custom1 carry their
		// position minus origin, the target's Bounds().Min (localOrigin).
		mesh   meshVariant
		origin image.Point
	}
	opts  ebiten.DrawTrianglesShaderOptions
	meshU map[string]any
	compU map[string]any
	covU  []float32
	backU []float32

	// drawCalls counts draw commands: runs of consecutive
	// DrawTrianglesShader submissions with one state, which Ebitengine
	// merges into one command (tests check batching); submits counts the
	// submissions.
	drawCalls int
	submits   int
	// cacheHits counts index lists taken from a character's cache (tests
	// check it).
	cacheHits int
	counted   bool // the current state run has been counted

	// rec is the recorder of the frame being drawn when it is recorded
	// (replay.go), else nil; replays and recorded count frames replayed
	// and recorded (tests check them).
	rec      *recorder
	replays  int
	recorded int
	// pooled: the call being built draws into the pool's coverage or
	// layer pages (recorded with it, see replay.go); poolKept counts the
	// replays that found those pages as they left them (tests check it).
	pooled   bool
	poolKept int
}

var rd = renderer{}

// entry is one character of a frame and its options.
type entry struct {
	c    *Character
	opts DrawOptions
}

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

// charPlan is one character's part of the frame.
type charPlan struct {
	res   *modelRes
	rig   pose
	revs  revisioned   // rig's mesh revisions; nil: none (vertices are rebuilt)
	vc    *vertexCache // the character's
	fc    *flatCache   // the character's
	geo   [6]float64   // GeoM a, b, c, d, tx, ty
	cs    [4]float32   // ColorScale
	flags float32      // flagNearest or 0
	// minScale is the GeoM's least stretch (smaller singular value): a
	// canvas length l is at least l·minScale destination pixels.
	minScale float64

	// meshB[i] is mesh i's bounds on the destination this frame (pixels
	// whose centres it can cover), valid when meshStamp[i] == stamp.
	meshStamp []uint32
	meshB     []image.Rectangle

	items  []item
	groups []group
	stack  []int
	post   []int // groups in closing order (children before parents)

	foot     image.Rectangle // union of its top-level items
	lastMain int32           // highest batch of the caller's image holding its ops
	useFirst int32           // its coverage uses in the caller's image: uses[useFirst:useEnd]
	useEnd   int32
}

// item is one entry of the flattened render commands: a mesh, or the
// composite of a group (whose contents follow, up to group.last).
type item struct {
	mesh  int32
	group int32 // ≥ 0: composite of groups[group]; −1: mesh
}

type group struct {
	part     int
	depth    int
	first    int             // first content item
	last     int             // one past the last content item
	full     image.Rectangle // union of the contents' bounds
	clip     image.Rectangle // full ∩ the destination
	comp     p2l.Composite
	maskSet  int
	target   int32           // target of its contents; −1: not drawn
	region   image.Rectangle // on its layer page
	off      image.Point     // destination → layer page coordinates
	pageMode bool            // region holds full (else clip, through a sub-image)
}

// target is where ops draw: the caller's image or a layer page (or a
// sub-image of one). Target coordinates are the vertex coordinates of
// Ebitengine's draws into img.
type target struct {
	img     *ebiten.Image
	origin  image.Point     // img.Bounds().Min: the shaders' local positions are relative to it
	bounds  image.Rectangle // drawable area, target coordinates
	depth   int             // −1: the caller's image; d: layer page of nesting depth d
	keys    []keyList
	batches []int32

	covArea   image.Rectangle // union of its coverage uses
	covPlanes int
	covShift  image.Point // target → coverage page coordinates (plane 0)
	covOK     bool
	bdArea    image.Rectangle // union of its backdrop-reading ops
	bdShift   image.Point     // target → scratch page coordinates
	bdOK      bool
}

type keyList struct {
	key     batchKey
	batches []int32 // ascending
}

// batchKey is the state that must be equal for ops of one target to share
// a call.
type batchKey struct {
	src      *ebiten.Image
	blend    ebiten.Blend
	backdrop bool // the composite program over a backdrop copy
}

// op is one mesh or group composite of a target.
type op struct {
	char   int32
	mesh   int32           // ≥ 0: a mesh; < 0: composite of groups[−1 − mesh]
	next   int32           // next op of the same batch, −1
	bounds image.Rectangle // target coordinates, clipped to the target
	// Meshes: destination → target coordinates; group composites: target
	// → child layer page coordinates.
	off  image.Point
	col  [8]float32 // vertex Color and Custom: (M, o), (S, flags)
	cull bool
	// formula is its fixed-function blend as the compositing program
	// computes it, for a fixed-function op (0: it reads the backdrop, or
	// is a layer's first draw).
	formula uint8
}

type batch struct {
	key         batchKey
	first, last int32
	scope       int32 // scope of the newest member
	scopeFirst  int32 // its first member from that scope
	// screen, layer and masked say whether a member needs the screen
	// colour, reads a group's layer or has a coverage slot (meshProgram).
	screen, layer, masked bool
}

// covUse is one mask set's coverage for the items of one scope (a
// character's top level, or one of its groups).
type covUse struct {
	char   int32
	set    int32
	target int32
	scope  int32
	off    image.Point     // destination → target coordinates
	rect   image.Rectangle // target coordinates
	slot   int32           // 1..maxSlots: 4·plane + channel + 1
}

// Vertex flags (custom.w, an integer; shaders/sample.kage decodes them).
// The mesh program's come first, below 4096, so that its packed variants
// can carry them beside the opacity in ColorA (meshWords).
const (
	flagInvert    = 1
	flagNearest   = 2
	flagZeroAlpha = 4
	flagLayer     = 8
	flagSlot      = 16      // × the coverage slot (8 bits)
	flagBlend     = 4096    // × the blend mode (5 bits, composite program)
	flagAlpha     = 131072  // × the alpha mode (3 bits, composite program)
	flagFixed     = 1048576 // × the fixed-function formula (3 bits, composite program)
	maxSlots      = 255
)

// maxBatchVertices is the largest vertex count one submission can address
// with uint16 indices.
const maxBatchVertices = 1 << 16

// chunkVertices is the vertex count after which the call being built is
// submitted: Ebitengine merges consecutive submissions of one state into
// one command (its own indices are 32-bit), so a state run of any size is
// one draw; small submissions keep the vertex buffers, ours and
// Ebitengine's copy of it, in the CPU's cache.
const chunkVertices = 1 << 12

// scopeWindow is how many of a scope's latest ops are compared one by one
// with a new op (older ones count as overlapping it).
const scopeWindow = 16

// scope is the placement state of one character's ops in one target.
type scope struct {
	id   int32
	ring [scopeWindow]struct {
		b     image.Rectangle
		batch int32
	}
	n      int
	older  int32 // highest batch of the ops that left the ring
	lbChar int32 // highest batch of overlapping characters' ops (caller's image)
}

func (r *renderer) draw(dst *ebiten.Image, entries []entry) {
	if err := loadShaders(); err != nil {
		panic(err)
	}
	if r.meshU == nil {
		r.covU = make([]float32, 4)
		r.backU = make([]float32, 4)
		r.meshU = map[string]any{"Cov": r.covU}
		r.compU = map[string]any{"Cov": r.covU, "Back": r.backU}
	}
	defer r.release(len(entries))
	if !r.plan(dst, entries) {
		return
	}
	r.buildOps(len(entries))
	r.renderCoverage(len(entries))
	r.renderTargets(len(entries))
}

// plan runs phases 1 and 2 (plan, layout) for a frame of entries into
// dst; it reports false when nothing is visible.
func (r *renderer) plan(dst *ebiten.Image, entries []entry) bool {
	r.stamp++
	if r.stamp == 0 { // wrapped: old stamps could collide
		for i := range r.chars {
			clear(r.chars[i].meshStamp)
		}
		r.stamp = 1
	}
	r.dst, r.dstB = dst, dst.Bounds()
	for len(r.chars) < len(entries) {
		r.chars = append(r.chars, charPlan{})
	}
	visible := false
	for k := range entries {
		if r.planChar(k, &entries[k]) {
			visible = true
		}
	}
	if !visible {
		return false
	}
	r.layout(len(entries))
	return true
}

// buildOps runs phase 3 (ops and batches) for the n planned characters
// and places the coverage and backdrop areas.
func (r *renderer) buildOps(n int) {
	r.ops, r.batches, r.uses = r.ops[:0], r.batches[:0], r.uses[:0]
	for k := range n {
		r.buildChar(k)
	}
	r.allocAreas()
}

// release drops the references to the caller's objects (rigs, images) that
// the renderer's state still holds, so that they are not kept alive until
// the next Draw.
func (r *renderer) release(n int) {
	for k := range n {
		cp := &r.chars[k]
		cp.res, cp.rig, cp.revs, cp.vc, cp.fc = nil, nil, nil, nil, nil
	}
	for i := range r.targets {
		t := &r.targets[i]
		t.img = nil
		for j := range t.keys {
			t.keys[j].key = batchKey{}
		}
	}
	r.dst = nil
	r.call.dst = nil
	r.opts.Images = [4]*ebiten.Image{}
}

// planChar flattens character k's render commands and computes bounds; it
// reports false when nothing of it is visible.
func (r *renderer) planChar(k int, e *entry) bool {
	cp := &r.chars[k]
	cp.items, cp.groups, cp.stack, cp.post = cp.items[:0], cp.groups[:0], cp.stack[:0], cp.post[:0]
	cp.foot = image.Rectangle{}
	c := e.c
	if c == nil || c.disposed {
		return false
	}
	cp.res, cp.rig, cp.vc, cp.fc = c.res, c.pose, &c.vc, &c.fc
	cp.revs = c.meshRevs
	g := e.opts.GeoM
	cs := e.opts.ColorScale
	cp.flags = 0
	if e.opts.Filter == FilterNearest {
		cp.flags = flagNearest
	}
	cp.geo = [6]float64{g.Element(0, 0), g.Element(0, 1), g.Element(1, 0), g.Element(1, 1), g.Element(0, 2), g.Element(1, 2)}
	cp.minScale = minStretch(cp.geo[0], cp.geo[1], cp.geo[2], cp.geo[3])
	cp.cs = [4]float32{cs.R(), cs.G(), cs.B(), cs.A()}
	if !(cp.cs[3] > 0) {
		return false // a zero alpha scale draws nothing
	}
	m := cp.res.model
	n := len(m.Meshes)
	if len(cp.meshStamp) < n {
		cp.meshStamp = append(cp.meshStamp, make([]uint32, n-len(cp.meshStamp))...)
		cp.meshB = append(cp.meshB, make([]image.Rectangle, n-len(cp.meshB))...)
	}
	cp.vc.grow(n)
	cp.fc.grow(n)

	skip := 0 // > 0 inside a group that is not drawn
	for _, cmd := range cp.rig.RenderCommands() {
		if skip > 0 {
			if _, ok := cmd.Group(); ok {
				skip++
			} else if cmd == p2l.CloseGroup {
				skip--
			}
			continue
		}
		if mi, ok := cmd.Mesh(); ok {
			if mi >= n || !cp.visibleMesh(mi) {
				continue
			}
			b := r.meshBounds(cp, mi)
			if !b.Overlaps(r.dstB) {
				continue
			}
			cp.items = append(cp.items, item{mesh: int32(mi), group: -1})
			if len(cp.stack) > 0 {
				top := &cp.groups[cp.stack[len(cp.stack)-1]]
				top.full = top.full.Union(b)
			} else {
				cp.foot = cp.foot.Union(b.Intersect(r.dstB))
			}
			continue
		}
		if part, ok := cmd.Group(); ok {
			if !(cp.rig.GroupComposite(part).Opacity > 0) {
				// A transparent group leaves its target as it is in every
				// mode: neither its layer nor its masks are drawn.
				skip = 1
				continue
			}
			gi := len(cp.groups)
			cp.items = append(cp.items, item{mesh: -1, group: int32(gi)})
			ms := -1
			if part < len(cp.res.partMask) {
				ms = cp.res.partMask[part]
			}
			cp.groups = append(cp.groups, group{part: part, depth: len(cp.stack), first: len(cp.items), maskSet: ms, target: -1})
			cp.stack = append(cp.stack, gi)
			continue
		}
		r.closeGroup(cp)
	}
	for len(cp.stack) > 0 {
		r.closeGroup(cp)
	}
	return len(cp.items) > 0
}

// closeGroup ends the innermost open group: its bounds are final, so they
// join its parent's.
func (r *renderer) closeGroup(cp *charPlan) {
	if len(cp.stack) == 0 {
		return // an unbalanced close: ignored
	}
	gi := cp.stack[len(cp.stack)-1]
	cp.stack = cp.stack[:len(cp.stack)-1]
	g := &cp.groups[gi]
	g.last = len(cp.items)
	g.clip = g.full.Intersect(r.dstB)
	cp.post = append(cp.post, gi)
	if g.clip.Empty() {
		return
	}
	g.comp = cp.rig.GroupComposite(g.part)
	if len(cp.stack) > 0 {
		p := &cp.groups[cp.stack[len(cp.stack)-1]]
		p.full = p.full.Union(g.full)
	} else {
		cp.foot = cp.foot.Union(g.clip)
	}
}

func (cp *charPlan) visibleMesh(mi int) bool {
	if _, _, _, _, _, ok := cp.page(mi); !ok {
		return false
	}
	return cp.rig.MeshOpacity(mi) > 0
}

// page returns the image mesh mi samples, the position of its texel (0, 0)
// there and its size without the border: a mesh without a page (−1)
// samples opaque white; ok is false for a page that is unavailable (the
// mesh draws nothing and masks nothing).
func (cp *charPlan) page(mi int) (img *ebiten.Image, x, y, w, h float32, ok bool) {
	res := cp.res
	p := res.model.Meshes[mi].TexturePage
	if p < 0 {
		return res.white, res.whiteX, res.whiteY, 1, 1, true
	}
	if p >= len(res.pageImg) || res.pageImg[p] == nil {
		return nil, 0, 0, 0, 0, false
	}
	return res.pageImg[p], res.pageX[p], res.pageY[p], res.pageW[p], res.pageH[p], true
}

// meshBounds returns the pixels of the destination whose centres mesh mi
// can cover (not clipped), computed once per frame: the canvas bounds of
// its vertices (kept per mesh revision) through the GeoM (see destBounds).
func (r *renderer) meshBounds(cp *charPlan, mi int) image.Rectangle {
	if cp.meshStamp[mi] == r.stamp {
		return cp.meshB[mi]
	}
	cp.meshStamp[mi] = r.stamp
	bb := destBounds(&cp.geo, cp.canvasBox(mi))
	cp.meshB[mi] = bb
	return bb
}

// destBounds returns the pixels whose centres the canvas box x0, y0, x1,
// y1 covers through the GeoM geo (a, b, c, d, tx, ty): the floor and
// ceiling of its corners' extent, clamped to ±2^24 (exact for scales and
// translations, a superset under rotation); empty when the box or a
// corner is not finite. It runs for every drawn mesh of every character
// in every frame that moved, so the common GeoM without rotation or shear
// takes two corners instead of four, and the rounding is done with
// integer conversions (math.Floor and math.Ceil are calls on amd64's
// baseline).
func destBounds(geo *[6]float64, box [4]float32) image.Rectangle {
	x0, y0, x1, y1 := float64(box[0]), float64(box[1]), float64(box[2]), float64(box[3])
	a, b, c, d, tx, ty := geo[0], geo[1], geo[2], geo[3], geo[4], geo[5]
	if s := x0 + y0 + x1 + y1; s-s != 0 { // an infinity or NaN
		return image.Rectangle{}
	}
	var minX, minY, maxX, maxY float64
	if b == 0 && c == 0 {
		// The general corners' values (b·y and c·x are zeros), from two
		// of them.
		minX, maxX = a*x0+tx, a*x1+tx
		minY, maxY = d*y0+ty, d*y1+ty
		if minX > maxX {
			minX, maxX = maxX, minX
		}
		if minY > maxY {
			minY, maxY = maxY, minY
		}
	} else {
		minX, minY = math.Inf(1), math.Inf(1)
		maxX, maxY = math.Inf(-1), math.Inf(-1)
		for _, p := range [4][2]float64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
			sx, sy := a*p[0]+b*p[1]+tx, c*p[0]+d*p[1]+ty
			minX, maxX = min(minX, sx), max(maxX, sx)
			minY, maxY = min(minY, sy), max(maxY, sy)
		}
	}
	if s := minX + minY + maxX + maxY; s-s != 0 {
		return image.Rectangle{}
	}
	return image.Rectangle{
		Min: image.Point{floorClamp(minX), floorClamp(minY)},
		Max: image.Point{ceilClamp(maxX), ceilClamp(maxY)},
	}
}

// floorClamp and ceilClamp round a finite number down or up to an
// integer within ±2^24.
func floorClamp(f float64) int {
	f = max(min(f, 1<<24), -(1 << 24))
	i := int(f)
	if float64(i) > f {
		i--
	}
	return i
}

func ceilClamp(f float64) int {
	f = max(min(f, 1<<24), -(1 << 24))
	i := int(f)
	if float64(i) < f {
		i++
	}
	return i
}

// canvasBox returns the canvas bounding box x0, y0, x1, y1 of mesh mi's
// vertices (see vertexCache.box). Character.Update has usually computed it
// already, right after the evaluation (Character.keepBoxes).
func (cp *charPlan) canvasBox(mi int) [4]float32 {
	return cp.vc.box(cp.rig, cp.rev(mi), mi)
}

// boxOf returns the bounding box x0, y0, x1, y1 of the points of v (at
// least one; NaN when one is NaN). Even and odd points go to two sets of
// minima and maxima, which halves the chain of dependent min/max
// operations per point.
func boxOf(v []float32) [4]float32 {
	v = v[:len(v)&^1]
	ax0, ay0 := v[0], v[1]
	ax1, ay1, bx0, by0, bx1, by1 := ax0, ay0, ax0, ay0, ax0, ay0
	i := 2
	for ; i+4 <= len(v); i += 4 {
		p := v[i : i+4 : i+4]
		ax0, ax1 = min(ax0, p[0]), max(ax1, p[0])
		ay0, ay1 = min(ay0, p[1]), max(ay1, p[1])
		bx0, bx1 = min(bx0, p[2]), max(bx1, p[2])
		by0, by1 = min(by0, p[3]), max(by1, p[3])
	}
	if i < len(v) {
		ax0, ax1 = min(ax0, v[i]), max(ax1, v[i])
		ay0, ay1 = min(ay0, v[i+1]), max(ay1, v[i+1])
	}
	return [4]float32{min(ax0, bx0), min(ay0, by0), max(ax1, bx1), max(ay1, by1)}
}

// rev returns mesh mi's revision, 0 when the pose has none.
func (cp *charPlan) rev(mi int) uint64 {
	if cp.revs == nil {
		return 0
	}
	return cp.revs.MeshRevision(mi)
}

// minStretch returns the smaller singular value of the matrix (a b; c d):
// |det| over the larger one, which has no cancellation.
func minStretch(a, b, c, d float64) float64 {
	t := a*a + b*b + c*c + d*d
	det := a*d - b*c
	hi := math.Sqrt((t + math.Sqrt(max(0, t*t-4*det*det))) / 2)
	if !(hi > 0) {
		return 0
	}
	return math.Abs(det) / hi
}

// fitsPage reports whether group g is drawn into its layer page as a whole
// (its region then holds every triangle, so no clipping is needed and
// groups share calls): when it is at most about twice as large as its
// visible part. Larger groups (mostly off the destination) get a clipped
// sub-image of their own.
func (g *group) fitsPage() bool {
	const slack = 256
	return g.full.Dx() <= 2*g.clip.Dx()+slack && g.full.Dy() <= 2*g.clip.Dy()+slack
}

// layout gives every drawn group of the frame a region of the layer page
// of its depth and a target.
func (r *renderer) layout(n int) {
	for attempt := 0; ; attempt++ {
		ok := true
		for _, l := range pool.layers {
			l.reset()
		}
		for k := range n {
			cp := &r.chars[k]
			for i := range cp.groups {
				g := &cp.groups[i]
				if g.clip.Empty() {
					continue
				}
				g.pageMode = g.fitsPage()
				size := g.clip.Size()
				if g.pageMode {
					size = g.full.Size()
				}
				reg, fits := pool.layer(g.depth).alloc(size.X, size.Y)
				g.region = reg
				ok = ok && fits
			}
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
	r.targets = r.targets[:min(len(r.targets), 1)]
	r.addTarget(r.dst, -1)
	r.targets[0].bounds = r.dstB
	r.pageTgt = r.pageTgt[:0]
	for k := range n {
		cp := &r.chars[k]
		for i := range cp.groups {
			g := &cp.groups[i]
			g.target = -1
			l := pool.layer(g.depth)
			if g.clip.Empty() || g.region.Max.X > l.w || g.region.Max.Y > l.h {
				continue // does not fit even the largest page: not drawn
			}
			if g.pageMode {
				g.off = g.region.Min.Sub(g.full.Min)
				for len(r.pageTgt) <= g.depth {
					r.pageTgt = append(r.pageTgt, -1)
				}
				if r.pageTgt[g.depth] < 0 {
					r.pageTgt[g.depth] = r.addTarget(l.img, g.depth)
				}
				g.target = r.pageTgt[g.depth]
				continue
			}
			g.off = g.region.Min.Sub(g.clip.Min)
			sub := l.sub(image.Rectangle{Min: g.region.Min, Max: g.region.Min.Add(g.clip.Size())})
			g.target = r.addTarget(sub, g.depth)
		}
	}
}

// addTarget appends a target drawing into img (its bounds, or the caller's
// bounds for the main target) and returns its index. The first call of a
// frame makes target 0, the caller's image.
func (r *renderer) addTarget(img *ebiten.Image, depth int) int32 {
	i := len(r.targets)
	if depth < 0 {
		i = 0
	}
	if i == len(r.targets) {
		if i < cap(r.targets) {
			r.targets = r.targets[:i+1]
		} else {
			r.targets = append(r.targets, target{})
		}
	}
	t := &r.targets[i]
	keys, batches := t.keys[:0], t.batches[:0]
	*t = target{img: img, origin: img.Bounds().Min, bounds: img.Bounds(), depth: depth, keys: keys, batches: batches}
	return int32(i)
}

// buildChar turns character k's items into ops, scope by scope: each
// group's contents in its layer target, then the top level in the
// caller's image.
func (r *renderer) buildChar(k int) {
	cp := &r.chars[k]
	cp.lastMain = -1
	cp.useFirst, cp.useEnd = int32(len(r.uses)), int32(len(r.uses))
	if len(cp.items) == 0 {
		return
	}
	for _, gi := range cp.post {
		g := &cp.groups[gi]
		if g.target >= 0 {
			r.buildScope(k, g.first, g.last, g.target, g.off, -1)
		}
	}
	// Characters drawn before this one whose area overlaps it: its ops
	// must follow all of theirs (lbChar).
	lb := int32(-1)
	r.overlap = r.overlap[:0]
	for j := range k {
		if o := &r.chars[j]; o.lastMain >= 0 && o.foot.Overlaps(cp.foot) {
			lb = max(lb, o.lastMain)
			r.overlap = append(r.overlap, int32(j))
		}
	}
	cp.useFirst = int32(len(r.uses))
	r.buildScope(k, 0, len(cp.items), 0, image.Point{}, lb)
	cp.useEnd = int32(len(r.uses))
}

// buildScope makes the ops of items [first, last) of character k (one
// group's contents, or the top level) in target ti, whose coordinates are
// the destination's plus off.
func (r *renderer) buildScope(k, first, last int, ti int32, off image.Point, lbChar int32) {
	cp := &r.chars[k]
	r.scopeID++
	sc := scope{id: r.scopeID, older: -1, lbChar: lbChar}
	top := ti == 0
	useStart := len(r.uses)

	// Mask sets in use, each with the union of the areas it masks here.
	for i := first; i < last; {
		set, b := r.itemMask(cp, i, off, ti)
		if set >= 0 && !b.Empty() {
			r.useMask(k, set, ti, sc.id, off, b, useStart)
		}
		i = cp.next(i)
	}
	r.assignSlots(k, useStart, top)

	t := &r.targets[ti]
	if !top && len(t.batches) == 0 {
		// A layer target's first call clears its groups' regions (see
		// renderTarget): a replace-blend call of the mesh program, which
		// the ops that draw over nothing join.
		r.openBatch(t, r.keyList(t, batchKey{src: cp.res.white, blend: blendReplace}))
	}
	for i := first; i < last; i = cp.next(i) {
		it := cp.items[i]
		var x op
		var key batchKey
		var mode [2]int
		var set int
		var invert bool
		if it.group < 0 {
			mi := int(it.mesh)
			x.bounds = cp.meshB[mi].Intersect(r.dstB).Add(off).Intersect(t.bounds)
			if x.bounds.Empty() {
				continue
			}
			mesh := &cp.res.model.Meshes[mi]
			mul, scr := cp.rig.MeshColors(mi)
			M, S, o, ok := cp.colors(cp.rig.MeshOpacity(mi), mul, scr, top)
			if !ok {
				continue
			}
			set = cp.res.meshMask[mi]
			invert = mesh.Flags&p2l.MeshInvertMask != 0
			x.mesh = int32(mi)
			x.off = off
			x.cull = mesh.Flags&p2l.MeshCulling != 0
			src, _, _, _, _, _ := cp.page(mi)
			key.src = src
			x.col = [8]float32{M[0], M[1], M[2], o, S[0], S[1], S[2], cp.flags}
			mode = [2]int{int(mesh.Blend), int(mesh.AlphaBlend)}
		} else {
			gi := int(it.group)
			g := &cp.groups[gi]
			if g.target < 0 {
				continue
			}
			x.bounds = g.clip.Add(off).Intersect(t.bounds)
			if x.bounds.Empty() {
				continue
			}
			M, S, o, ok := cp.colors(g.comp.Opacity, g.comp.Multiply, g.comp.Screen, top)
			if !ok {
				continue
			}
			set = g.maskSet
			invert = g.comp.InvertMask
			x.mesh = int32(-1 - gi)
			x.off = g.off.Sub(off)
			// The layer page is bound beside the model's pages (image 2 or
			// 3), so the composite shares the calls of the model's meshes.
			key.src = cp.res.white
			x.col = [8]float32{M[0], M[1], M[2], o, S[0], S[1], S[2], flagLayer}
			mode = [2]int{int(g.comp.Blend), int(g.comp.AlphaBlend)}
		}
		x.char = int32(k)
		x.next = -1
		flags := x.col[7]
		if set >= 0 {
			u := r.findUse(set, sc.id, useStart)
			if r.uses[u].slot == 0 {
				continue // no slot was left for its mask: not drawn (assignSlots)
			}
			flags += float32(flagSlot * r.uses[u].slot)
			if invert {
				flags += flagInvert
			}
		}
		blend, alpha := p2l.BlendMode(mode[0]), p2l.AlphaMode(mode[1])
		f, fixed := fixedFunction(blend, alpha)
		if fixed && f.zeroAlpha {
			flags += flagZeroAlpha
		}
		x.col[7] = flags
		if !top && sc.lowerBound(x.bounds) < 0 {
			// Nothing of the group is under it yet: it draws over the
			// cleared layer (see overClear), in the target's first call
			// when it writes its source as it is.
			if !overClear(blend, alpha) {
				continue
			}
			// A fixed-function one only when it would otherwise open a
			// call (the proof costs a pass over its vertices).
			if !fixed || r.noBatch(t, batchKey{src: key.src, blend: f.blend}) && r.flat(&x) {
				key.blend = blendReplace
				r.ops = append(r.ops, x)
				r.place(ti, int32(len(r.ops)-1), key, &sc)
				continue
			}
		}
		if fixed {
			key.blend = f.blend
			x.formula = uint8(f.formula)
		} else {
			key.backdrop = true
			key.blend = blendReplace
			x.col[7] += float32(flagBlend*int(blend) + flagAlpha*int(alpha))
			t.bdArea = t.bdArea.Union(x.bounds)
		}
		r.ops = append(r.ops, x)
		bi := r.place(ti, int32(len(r.ops)-1), key, &sc)
		if top {
			cp.lastMain = max(cp.lastMain, bi)
		}
	}
}

// next returns the item after item i at the same level (a group's
// composite is followed by the item after its contents).
func (cp *charPlan) next(i int) int {
	if g := cp.items[i].group; g >= 0 {
		return cp.groups[g].last
	}
	return i + 1
}

// itemMask returns the mask set of item i (−1 for none) and the area it
// masks in target ti's coordinates.
func (r *renderer) itemMask(cp *charPlan, i int, off image.Point, ti int32) (int, image.Rectangle) {
	it := cp.items[i]
	if it.group < 0 {
		s := cp.res.meshMask[it.mesh]
		if s < 0 {
			return -1, image.Rectangle{}
		}
		return s, cp.meshB[it.mesh].Intersect(r.dstB).Add(off).Intersect(r.targets[ti].bounds)
	}
	g := &cp.groups[it.group]
	if g.maskSet < 0 || g.target < 0 {
		return -1, image.Rectangle{}
	}
	return g.maskSet, g.clip.Add(off).Intersect(r.targets[ti].bounds)
}

// useMask records that mask set s masks area b of scope sc.
func (r *renderer) useMask(k, s int, ti, sc int32, off image.Point, b image.Rectangle, from int) {
	if u := r.findUse(s, sc, from); u >= 0 {
		r.uses[u].rect = r.uses[u].rect.Union(b)
		return
	}
	r.uses = append(r.uses, covUse{char: int32(k), set: int32(s), target: ti, scope: sc, off: off, rect: b})
}

func (r *renderer) findUse(s int, sc int32, from int) int {
	for u := from; u < len(r.uses); u++ {
		if r.uses[u].set == int32(s) && r.uses[u].scope == sc {
			return u
		}
	}
	return -1
}

// assignSlots gives each coverage use of the scope (uses[from:]) the first
// slot (plane and channel of the target's coverage area) that no
// overlapping use holds: uses of the same scope, and in the caller's image
// those of the overlapping characters drawn before.
func (r *renderer) assignSlots(k, from int, top bool) {
	for u := from; u < len(r.uses); u++ {
		var taken [4]uint64
		mark := func(o *covUse) {
			if o.slot > 0 && o.rect.Overlaps(r.uses[u].rect) {
				taken[o.slot/64] |= 1 << (o.slot % 64)
			}
		}
		for o := from; o < u; o++ {
			mark(&r.uses[o])
		}
		if top {
			for _, j := range r.overlap {
				o := &r.chars[j]
				for v := o.useFirst; v < o.useEnd; v++ {
					mark(&r.uses[v])
				}
			}
		}
		s := int32(1)
		for s <= maxSlots && taken[s/64]&(1<<(s%64)) != 0 {
			s++
		}
		use := &r.uses[u]
		if s > maxSlots {
			use.slot = 0 // unavailable: what it masks is not drawn
			continue
		}
		use.slot = s
		t := &r.targets[use.target]
		t.covArea = t.covArea.Union(use.rect)
		t.covPlanes = max(t.covPlanes, int(s-1)/4+1)
	}
}

// place puts op x into a batch of target ti with state k: the first batch
// with that state at or after lb, the highest batch holding an op that x
// must follow (an earlier op of its scope that it overlaps, any older op
// of its scope, and the ops of overlapping characters); a batch that reads
// the backdrop also needs x disjoint from all its members (each reads the
// copy taken before the call). A fixed-function op (o.formula > 0) may
// instead join an earlier backdrop-reading batch of its source, computing
// its blend there, when it lies flat (flat.go); a backdrop-reading op that
// finds no batch may turn the last batch, of flat fixed-function ops, into
// one (convert). Otherwise a new batch at the end. It returns the batch.
// (A new batch right after lb would be valid too, x overlaps no op of the
// later ones, but merges less: the synthetic character took 61 calls
// instead of 56, the seven characters of TestBatchMatchesDraws 163
// instead of 111.)
func (r *renderer) place(ti int32, x int32, k batchKey, sc *scope) int32 {
	t := &r.targets[ti]
	o := &r.ops[x]
	lb := sc.lowerBound(o.bounds)
	kl := r.keyList(t, k)
	chosen := r.firstFit(t.keys[kl].batches, lb, o.bounds, sc, k.backdrop)
	if o.formula > 0 {
		if i := t.keyIndex(batchKey{src: k.src, blend: blendReplace, backdrop: true}); i >= 0 {
			alt := r.firstFit(t.keys[i].batches, lb, o.bounds, sc, true)
			if alt >= 0 && (chosen < 0 || alt < chosen) && r.flat(o) {
				chosen = alt
				r.readsBackdrop(t, o)
			}
		}
	}
	if chosen < 0 && k.backdrop {
		chosen = r.convert(t, kl, lb, o, sc)
	}
	if chosen < 0 {
		chosen = r.openBatch(t, kl)
	}
	b := &r.batches[chosen]
	if b.last >= 0 {
		r.ops[b.last].next = x
	} else {
		b.first = x
	}
	b.last = x
	b.screen = b.screen || o.needsScreen()
	b.layer = b.layer || o.readsLayer()
	b.masked = b.masked || o.slot() != 0
	if b.scope != sc.id {
		b.scope, b.scopeFirst = sc.id, x
	}
	// The ring keeps the scope's latest ops.
	slot := sc.n % scopeWindow
	if sc.n >= scopeWindow {
		sc.older = max(sc.older, sc.ring[slot].batch)
	}
	sc.ring[slot].b, sc.ring[slot].batch = o.bounds, chosen
	sc.n++
	return chosen
}

// noBatch reports whether target t has no batch with state k yet.
func (r *renderer) noBatch(t *target, k batchKey) bool {
	i := t.keyIndex(k)
	return i < 0 || len(t.keys[i].batches) == 0
}

// keyIndex returns the index of t's list of batches with state k, −1 for
// none.
func (t *target) keyIndex(k batchKey) int {
	for i := range t.keys {
		if t.keys[i].key == k {
			return i
		}
	}
	return -1
}

// firstFit returns the first batch of list (ascending) at or after lb that
// an op with bounds a of scope sc may join, −1 for none.
func (r *renderer) firstFit(list []int32, lb int32, a image.Rectangle, sc *scope, backdrop bool) int32 {
	j, _ := slices.BinarySearch(list, max(lb, 0))
	for ; j < len(list); j++ {
		bi := list[j]
		if backdrop && !r.disjoint(&r.batches[bi], sc.id, a, sc.lbChar, bi) {
			continue
		}
		return bi
	}
	return -1
}

// readsBackdrop makes fixed-function op o of target t a member of a
// backdrop-reading batch: its blend computed by the compositing program.
func (r *renderer) readsBackdrop(t *target, o *op) {
	o.col[7] += float32(flagFixed * int(o.formula))
	t.bdArea = t.bdArea.Union(o.bounds)
}

// convert looks, for backdrop-reading op o that found no batch to join,
// at target t's last batch: when it is a fixed-function batch at or after
// lb whose members all lie flat, are disjoint from each other and from o,
// it becomes a backdrop-reading batch (list kl) for o to join: one copy
// more instead of a new copy and draw. (Any such batch at or after lb
// would do; converting earlier ones too saved no draw more on the
// synthetic character and cost a crowd of overlapping characters more,
// since a converted batch takes no overlapping ops any more: 93 draws
// instead of 86 in TestBatchMatchesDraws.) It returns the batch, −1 for
// none.
func (r *renderer) convert(t *target, kl int, lb int32, o *op, sc *scope) int32 {
	const maxConvert = 16
	if j := len(t.batches) - 1; j >= 0 && t.batches[j] >= max(lb, 0) {
		bi := t.batches[j]
		b := &r.batches[bi]
		if b.key.backdrop || b.key.blend == blendReplace || b.key.src != t.keys[kl].key.src || !r.disjoint(b, sc.id, o.bounds, sc.lbChar, bi) {
			return -1
		}
		// Its members pairwise: only a short batch is tried.
		ok, n := true, 0
		for x := b.first; ok && x >= 0; x = r.ops[x].next {
			if n++; n > maxConvert {
				return -1
			}
			m := &r.ops[x]
			ok = m.formula > 0 && r.flat(m)
			for y := r.ops[x].next; ok && y >= 0; y = r.ops[y].next {
				ok = !m.bounds.Overlaps(r.ops[y].bounds)
			}
		}
		if !ok {
			return -1
		}
		old := r.keyList(t, b.key)
		if i, found := slices.BinarySearch(t.keys[old].batches, bi); found {
			t.keys[old].batches = slices.Delete(t.keys[old].batches, i, i+1)
		}
		list := t.keys[kl].batches
		i, _ := slices.BinarySearch(list, bi)
		t.keys[kl].batches = slices.Insert(list, i, bi)
		b.key = t.keys[kl].key
		for x := b.first; x >= 0; x = r.ops[x].next {
			r.readsBackdrop(t, &r.ops[x])
		}
		return bi
	}
	return -1
}

// lowerBound returns the highest batch holding an op of the scope that an
// op with bounds b must follow (−1: none), as place describes.
func (sc *scope) lowerBound(b image.Rectangle) int32 {
	lb := max(sc.older, sc.lbChar)
	for i := range min(sc.n, scopeWindow) {
		if e := &sc.ring[i]; e.batch > lb && e.b.Overlaps(b) {
			lb = e.batch
		}
	}
	return lb
}

// keyList returns the index of target t's list of batches with state k,
// adding an empty one.
func (r *renderer) keyList(t *target, k batchKey) int {
	if i := t.keyIndex(k); i >= 0 {
		return i
	}
	kl := len(t.keys)
	if kl < cap(t.keys) {
		t.keys = t.keys[:kl+1]
		t.keys[kl].key = k
		t.keys[kl].batches = t.keys[kl].batches[:0]
	} else {
		t.keys = append(t.keys, keyList{key: k})
	}
	return kl
}

// openBatch appends an empty batch to target t's list kl and returns it.
func (r *renderer) openBatch(t *target, kl int) int32 {
	bi := int32(len(r.batches))
	r.batches = append(r.batches, batch{key: t.keys[kl].key, first: -1, last: -1, scope: -1})
	t.batches = append(t.batches, bi)
	t.keys[kl].batches = append(t.keys[kl].batches, bi)
	return bi
}

// disjoint reports whether area a may join backdrop batch b (index bi):
// b holds no op of an overlapping character (bi > lbChar) and none of the
// scope's ops in b overlaps a.
func (r *renderer) disjoint(b *batch, sc int32, a image.Rectangle, lbChar, bi int32) bool {
	if bi <= lbChar {
		return false
	}
	if b.scope != sc {
		return true
	}
	for x := b.scopeFirst; x >= 0; x = r.ops[x].next {
		if r.ops[x].bounds.Overlaps(a) {
			return false
		}
	}
	return true
}

// colors folds opacity, multiply, screen and (on the caller's target) the
// ColorScale into the vertex attributes M, S and o of the shaders:
// fragment = (t.rgb·M + t.a·S, t.a)·o.
//
// The rule is c' = c·mul, then c” = c' + s·a − c'·s = c'·(1 − s) + s·a,
// then ·opacity; so M = mul·(1 − s), S = s. A ColorScale k scales the
// premultiplied result per channel: rgb by k.rgb, alpha by k.a; that is
// o = opacity·k.a and M, S scaled by k.rgb/k.a.
func (cp *charPlan) colors(op float32, mul, scr p2l.Color, top bool) (M, S [3]float32, o float32, ok bool) {
	o = op
	for i := range 3 {
		M[i] = mul[i] * (1 - scr[i])
		S[i] = scr[i]
	}
	if top {
		o *= cp.cs[3]
		for i := range 3 {
			f := cp.cs[i] / cp.cs[3]
			M[i] *= f
			S[i] *= f
		}
	}
	return M, S, o, o > 0
}

// allocAreas places every target's coverage planes on the coverage page
// and its backdrop area on the scratch page, growing them when needed.
func (r *renderer) allocAreas() {
	alloc := func(p *page, size func(t *target) image.Point, set func(t *target, reg image.Rectangle, ok bool)) {
		for attempt := 0; ; attempt++ {
			p.reset()
			ok := true
			used := false
			for i := range r.targets {
				t := &r.targets[i]
				s := size(t)
				if s.X <= 0 || s.Y <= 0 {
					continue
				}
				used = true
				reg, fits := p.alloc(s.X, s.Y)
				set(t, reg, fits)
				ok = ok && fits
			}
			if ok || attempt == 3 || !used {
				break
			}
			p.grow()
		}
	}
	alloc(&pool.coverage, func(t *target) image.Point {
		if t.covPlanes == 0 {
			return image.Point{}
		}
		return image.Pt(t.covArea.Dx(), t.covArea.Dy()*t.covPlanes)
	}, func(t *target, reg image.Rectangle, ok bool) {
		t.covShift = reg.Min.Sub(t.covArea.Min)
		t.covOK = ok
	})
	alloc(&pool.scratch, func(t *target) image.Point { return t.bdArea.Size() }, func(t *target, reg image.Rectangle, ok bool) {
		t.bdShift = reg.Min.Sub(t.bdArea.Min)
		t.bdOK = ok
	})
	// A page that was grown above has a new image: the layout is final now.
	for i := range r.targets {
		t := &r.targets[i]
		t.covOK = t.covOK && pool.coverage.img != nil
		t.bdOK = t.bdOK && pool.scratch.img != nil
	}
}

// slotShift maps use u's target coordinates to its plane of the coverage
// page.
func (r *renderer) slotShift(u *covUse) image.Point {
	t := &r.targets[u.target]
	plane := int(u.slot-1) / 4
	return t.covShift.Add(image.Pt(0, plane*t.covArea.Dy()))
}

// renderCoverage clears every coverage use's area, then renders each use's
// mask meshes into its plane and channel: the maximum of their texture
// alpha at each pixel centre.
func (r *renderer) renderCoverage(n int) {
	if len(r.uses) == 0 {
		return
	}
	p := &pool.coverage
	r.pooled = true
	r.quads = r.quads[:0]
	for i := range r.uses {
		u := &r.uses[i]
		if u.slot > 0 && r.targets[u.target].covOK {
			r.quads = append(r.quads, u.rect.Add(r.slotShift(u)))
		}
	}
	if len(r.quads) == 0 {
		return
	}
	r.clearQuads(p.img, r.quads)
	r.begin(p.img, coverageShader, blendMax, nil, nil, nil)
	for i := range r.uses {
		u := &r.uses[i]
		if u.slot == 0 || !r.targets[u.target].covOK {
			continue
		}
		cp := &r.chars[u.char]
		shift := r.slotShift(u).Add(u.off)
		clipR := u.rect.Add(r.slotShift(u))
		clipV := [4]float32{float32(clipR.Min.X), float32(clipR.Min.Y), float32(clipR.Max.X), float32(clipR.Max.Y)}
		ch := float32((u.slot - 1) % 4)
		nearest := float32(0)
		if cp.flags == flagNearest {
			nearest = 1
		}
		for _, mi := range cp.res.maskSets[u.set] {
			src, _, _, _, _, ok := cp.page(mi)
			if !ok || r.meshBounds(cp, mi).Empty() {
				continue
			}
			if r.opts.Images[0] != src {
				r.flush()
				r.opts.Images[0] = src
				r.counted = false // a new state
			}
			col := [8]float32{ch, nearest, 0, 0, clipV[0], clipV[1], clipV[2], clipV[3]}
			r.emitMesh(cp, mi, shift, col, false)
		}
	}
	r.flush()
}

// clearQuads clears rectangles of img (replace blending of zeros).
func (r *renderer) clearQuads(img *ebiten.Image, rects []image.Rectangle) {
	r.beginMesh(img, image.Point{}, meshVariantFor(false, false, false), blendReplace, whiteImage(), nil, nil)
	for _, q := range rects {
		r.quad(q, image.Point{}, [8]float32{})
	}
	r.flush()
}

// renderTargets draws the layer pages from the deepest nesting to the
// shallowest, then the caller's image.
func (r *renderer) renderTargets(n int) {
	for d := len(r.pageTgtDepths()) - 1; d >= 0; d-- {
		for ti := range r.targets {
			if r.targets[ti].depth == d {
				r.renderTarget(int32(ti), n)
			}
		}
	}
	r.renderTarget(0, n)
}

// clearRegions appends, to the call being built, quads writing zeros over
// the layer regions of the groups drawn into target ti (the call has
// replace blending).
func (r *renderer) clearRegions(ti int32, n int) {
	for k := range n {
		cp := &r.chars[k]
		for i := range cp.groups {
			g := &cp.groups[i]
			if g.target != ti {
				continue
			}
			size := g.clip.Size()
			if g.pageMode {
				size = g.full.Size()
			}
			r.quad(image.Rectangle{Min: g.region.Min, Max: g.region.Min.Add(size)}, image.Point{}, [8]float32{})
		}
	}
}

// pageTgtDepths returns the layer pages in use (one per nesting depth).
func (r *renderer) pageTgtDepths() []*page {
	d := 0
	for i := range r.targets {
		d = max(d, r.targets[i].depth+1)
	}
	return pool.layers[:d]
}

// renderTarget issues target ti's batches in order; a layer target's
// first batch (a replace-blend one, see buildScope) begins with the clear
// of its regions.
func (r *renderer) renderTarget(ti int32, n int) {
	t := &r.targets[ti]
	r.pooled = t.depth >= 0 // a layer page: its draws and backdrop copies
	if len(t.batches) == 0 {
		return
	}
	r.covU[0] = float32(t.covShift.X + t.origin.X)
	r.covU[1] = float32(t.covShift.Y + t.origin.Y)
	r.covU[2] = float32(t.covArea.Dy())
	r.backU[0] = float32(t.bdShift.X + t.origin.X)
	r.backU[1] = float32(t.bdShift.Y + t.origin.Y)
	var cov, layer *ebiten.Image
	if t.covOK {
		cov = pool.coverage.img
	}
	if t.depth+1 < len(pool.layers) {
		layer = pool.layers[t.depth+1].img
	}
	for j, bi := range t.batches {
		b := &r.batches[bi]
		if b.key.backdrop {
			if !t.bdOK {
				continue
			}
			r.copyBackdrop(t, b)
			r.begin(t.img, compositeShader, blendReplace, b.key.src, cov, pool.scratch.img)
			r.opts.Images[3] = layer
			r.fillSources()
			r.opts.Uniforms = r.compU
		} else {
			r.beginMesh(t.img, t.origin, meshProgram(t, b), b.key.blend, b.key.src, cov, layer)
			r.opts.Uniforms = r.meshU
			if j == 0 && t.depth >= 0 {
				r.clearRegions(ti, n)
			}
		}
		for x := b.first; x >= 0; x = r.ops[x].next {
			o := &r.ops[x]
			if !t.covOK && o.slot() != 0 {
				continue // its coverage did not fit: not drawn
			}
			if o.mesh >= 0 {
				r.emitMesh(&r.chars[o.char], int(o.mesh), o.off, o.col, o.cull)
				continue
			}
			r.quad(o.bounds, o.off, o.col)
		}
		r.flush()
	}
}

// copyBackdrop copies the target under the members of backdrop batch b to
// the scratch page (nearest sampling at texel centres: an exact copy).
func (r *renderer) copyBackdrop(t *target, b *batch) {
	r.beginMesh(pool.scratch.img, image.Point{}, meshVariantFor(false, false, false), blendReplace, t.img, nil, nil)
	col := [8]float32{1, 1, 1, 1, 0, 0, 0, flagNearest}
	for x := b.first; x >= 0; x = r.ops[x].next {
		q := r.ops[x].bounds
		r.quad(q.Add(t.bdShift), t.bdShift.Mul(-1), col)
	}
	r.flush()
}

// begin starts a call into dst. Sources left nil get a small white image:
// the programs declare their sources whether a call reads them or not, and
// an unbound texture unit keeps whatever the driver bound there last,
// which WebGL refuses as a feedback loop when that is the destination (a
// layer page bound as a source in one frame, drawn into in the next).
func (r *renderer) begin(dst *ebiten.Image, s *ebiten.Shader, blend ebiten.Blend, src0, src1, src2 *ebiten.Image) {
	r.flush()
	r.counted = false
	r.call.dst, r.call.shader, r.call.mesh = dst, s, meshVariant{}
	r.opts.Blend = blend
	r.opts.Images = [4]*ebiten.Image{src0, src1, src2, nil}
	r.fillSources()
	r.opts.Uniforms = nil
}

// beginMesh starts a call of mesh program variant v into dst, whose
// target-local positions are relative to origin (begin).
func (r *renderer) beginMesh(dst *ebiten.Image, origin image.Point, v meshVariant, blend ebiten.Blend, src0, src1, src2 *ebiten.Image) {
	r.begin(dst, v.shader, blend, src0, src1, src2)
	r.call.mesh, r.call.origin = v, origin
}

// localOrigin returns, when the call's vertices carry their target-local
// positions in Custom0 and Custom1 (the fragment's position for the mask
// read of a packed masked variant, shaders/mesh_packed_masked.kage), the
// origin those are relative to; else nil. The op colour words of such a
// call have no screen colour, so nothing else is kept in those two.
func (r *renderer) localOrigin() *image.Point {
	if !r.call.mesh.position {
		return nil
	}
	return &r.call.origin
}

// localPositions writes the target-local positions of quad vertices vs
// when the call asks for them (localOrigin; buildVertices does it for
// meshes).
func (r *renderer) localPositions(vs []ebiten.Vertex) {
	if o := r.localOrigin(); o != nil {
		ox, oy := float32(o.X), float32(o.Y)
		for i := range vs {
			vs[i].Custom0, vs[i].Custom1 = vs[i].DstX-ox, vs[i].DstY-oy
		}
	}
}

// words returns op colour words col = (M, opacity, S, flags) as the
// call's vertices carry them: as they are for the composite and coverage
// programs, else as meshWords gives them for the call's variant.
func (r *renderer) words(col [8]float32) [8]float32 {
	if r.call.mesh.shader == nil {
		return col
	}
	return meshWords(col, r.call.mesh.packed)
}

// meshWords returns colour words col as a call of the mesh program reads
// them: for a packed variant (shaders/mesh_packed.kage), ColorA =
// 4·flags + 1 + opacity, which holds the flags (below 4096) and an
// opacity in [0, 1] rounded to the float32 spacing of that sum (an error
// of at most 2⁻¹¹ for the largest flags, 2⁻¹⁹ for the unmasked ones,
// below 16: TestMeshWords); for a variant with the
// screen colour, the same rounded opacity, so that both variants draw the
// same pixels whichever a batch takes.
func meshWords(col [8]float32, packed bool) [8]float32 {
	base := float32(4*int(col[7]) + 1)
	a := base + col[3]
	if packed {
		col[3] = a
	} else {
		col[3] = a - base
	}
	return col
}

// fillSources puts the white image in the call's empty source slots.
func (r *renderer) fillSources() {
	for i, img := range r.opts.Images {
		if img == nil {
			r.opts.Images[i] = whiteImage()
		}
	}
}

// quad appends rectangle q of the destination, sampling source image 0 at
// q + srcOff, with vertex colours col.
func (r *renderer) quad(q image.Rectangle, srcOff image.Point, col [8]float32) {
	if len(r.verts)+4 > chunkVertices {
		r.flush()
	}
	col = r.words(col)
	base := uint16(len(r.verts))
	x, y, w, h := float32(q.Min.X), float32(q.Min.Y), float32(q.Dx()), float32(q.Dy())
	sx, sy := x+float32(srcOff.X), y+float32(srcOff.Y)
	for j := range 4 {
		dx, dy := float32(j&1)*w, float32(j>>1)*h
		r.verts = append(r.verts, ebiten.Vertex{
			DstX: x + dx, DstY: y + dy, SrcX: sx + dx, SrcY: sy + dy,
			ColorR: col[0], ColorG: col[1], ColorB: col[2], ColorA: col[3],
			Custom0: col[4], Custom1: col[5], Custom2: col[6], Custom3: col[7],
		})
	}
	r.localPositions(r.verts[len(r.verts)-4:])
	r.inds = append(r.inds, base, base+1, base+2, base+1, base+3, base+2)
}

// emitMesh appends mesh mi of character cp (destination coordinates plus
// off) with vertex colours col, culled faces dropped. A mesh that does not
// fit the call's 65,536 addressable vertices flushes it first; one larger
// than that is split triangle by triangle (a backdrop-reading one keeps
// the one copy taken before: every part reads the backdrop from before the
// mesh).
func (r *renderer) emitMesh(cp *charPlan, mi int, off image.Point, col [8]float32, cull bool) {
	col = r.words(col)
	v := cp.rig.MeshVertices(mi)
	uv := cp.rig.MeshUVs(mi)
	nv := min(len(v), len(uv)) / 2
	if nv > maxBatchVertices {
		r.emitSplit(cp, mi, off, col, cull)
		return
	}
	_, px, py, pw, ph, _ := cp.page(mi)
	inds := r.meshIndices(cp, mi, v[:2*nv], cull)

	if len(r.verts) > 0 && len(r.verts)+nv > chunkVertices {
		r.flush()
	}
	base := len(r.verts)
	r.verts = slices.Grow(r.verts, nv)[:base+nv]
	buildVertices(r.verts[base:], v, uv, &cp.geo, off, [4]float32{px, py, pw, ph}, &col, r.localOrigin())

	l := len(r.inds)
	r.inds = slices.Grow(r.inds, len(inds))[:l+len(inds)]
	rebase(r.inds[l:], inds, uint16(base))
}

// rebase writes src[j] + base to dst[j]: every sum below 65,536 (a mesh's
// indices are below its vertex count, and its vertices end at or below
// 65,536 in the call). Four indices go at a time as the lanes of one
// uint64, since no lane's sum carries into the next; it is the loop over a
// frame's 4–5 indices per vertex, which added one by one cost more than
// building the vertices (a CPU profile of BenchmarkMovingVsFloor/default).
func rebase(dst, src []uint16, base uint16) {
	dst = dst[:len(src)]
	n := len(src) &^ 3
	if n > 0 {
		// Byte views: a uint16 slice need not be 8-byte aligned.
		d := unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 2*n)
		s := unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), 2*n)
		add := uint64(base) * 0x0001_0001_0001_0001
		for j := 0; j+8 <= len(s); j += 8 {
			binary.NativeEndian.PutUint64(d[j:j+8], binary.NativeEndian.Uint64(s[j:j+8])+add)
		}
	}
	for j := n; j < len(src); j++ {
		dst[j] = src[j] + base
	}
}

// buildVertices writes the vertices of a mesh: canvas positions v through
// the GeoM geo plus off, texture coordinates uv on the page's texels
// (page: x, y, w, h), and the colour words col; with local set, Custom0
// and Custom1 carry each vertex's position minus *local instead
// (localPositions). Every field is stored straight into out (building a
// vertex in a local and copying it costs store-forwarding stalls); the
// branch on local goes the same way for every vertex of a call.
func buildVertices(out []ebiten.Vertex, v, uv []float32, geo *[6]float64, off image.Point, page [4]float32, col *[8]float32, local *image.Point) {
	a, b, c, d := geo[0], geo[1], geo[2], geo[3]
	tx, ty := geo[4]+float64(off.X), geo[5]+float64(off.Y)
	px, py, pw, ph := page[0], page[1], page[2], page[3]
	c0, c1, c2, c3, c4, c5, c6, c7 := col[0], col[1], col[2], col[3], col[4], col[5], col[6], col[7]
	var ox, oy float32
	if local != nil {
		ox, oy = float32(local.X), float32(local.Y)
	}
	v, uv = v[:2*len(out)], uv[:2*len(out)]
	for i := range out {
		x, y := float64(v[2*i]), float64(v[2*i+1])
		o := &out[i]
		dx, dy := float32(a*x+b*y+tx), float32(c*x+d*y+ty)
		o.DstX, o.DstY = dx, dy
		o.SrcX, o.SrcY = uv[2*i]*pw+px, uv[2*i+1]*ph+py
		o.ColorR, o.ColorG, o.ColorB, o.ColorA = c0, c1, c2, c3
		if local != nil {
			o.Custom0, o.Custom1 = dx-ox, dy-oy
		} else {
			o.Custom0, o.Custom1 = c4, c5
		}
		o.Custom2, o.Custom3 = c6, c7
	}
}

// meshIndices returns mesh mi's triangle indices (mesh-local) without
// those out of range of its nv = len(v)/2 vertices or culled: the model's
// list, shared by its characters, for a mesh that is not culled (see
// modelRes.inds); for a culled one, kept per character and mesh revision
// when the pose has revisions (see vertexCache), else built in scratch.
func (r *renderer) meshIndices(cp *charPlan, mi int, v []float32, cull bool) []uint16 {
	idx := cp.rig.MeshIndices(mi)
	n := len(v) / 2
	if !cull {
		if s, ok := cp.res.indices(mi, idx, n); ok {
			r.cacheHits++
			return s
		}
	}
	rev := cp.rev(mi)
	var mc *meshIndices
	out := r.scratchInds[:0]
	if cull && rev != 0 {
		mc = &cp.vc.inds[mi]
		if mc.rev == rev {
			r.cacheHits++
			return mc.inds
		}
		out = mc.inds[:0]
	}
	if cull {
		out = frontFaces(out, idx, v)
	} else {
		out = inRange(out, idx, n)
	}
	if mc != nil {
		mc.inds, mc.rev = out, rev
	} else {
		r.scratchInds = out
	}
	return out
}

// inRange appends to out the triangles of idx whose indices are all below
// n.
func inRange(out []uint16, idx []uint32, n int) []uint16 {
	for j := 0; j+2 < len(idx); j += 3 {
		i0, i1, i2 := idx[j], idx[j+1], idx[j+2]
		if uint(i0) < uint(n) && uint(i1) < uint(n) && uint(i2) < uint(n) {
			out = append(out, uint16(i0), uint16(i1), uint16(i2))
		}
	}
	return out
}

// frontFaces appends to out the triangles of idx within the len(v)/2
// vertices of v that are not culled.
func frontFaces(out []uint16, idx []uint32, v []float32) []uint16 {
	n := uint(len(v) / 2)
	for j := 0; j+2 < len(idx); j += 3 {
		i0, i1, i2 := idx[j], idx[j+1], idx[j+2]
		if uint(i0) < n && uint(i1) < n && uint(i2) < n && !culled(v, int(i0), int(i1), int(i2)) {
			out = append(out, uint16(i0), uint16(i1), uint16(i2))
		}
	}
	return out
}

// emitSplit appends a mesh of more than 65,536 vertices (see emitMesh):
// the vertices of each triangle are remapped into the current call.
func (r *renderer) emitSplit(cp *charPlan, mi int, off image.Point, col [8]float32, cull bool) {
	_, px, py, pw, ph, _ := cp.page(mi)
	v := cp.rig.MeshVertices(mi)
	uv := cp.rig.MeshUVs(mi)
	idx := cp.rig.MeshIndices(mi)
	nv := min(len(v), len(uv)) / 2
	page := [4]float32{px, py, pw, ph}
	if len(r.remap) < nv {
		r.remap = make([]int32, nv)
		r.rstmp = make([]uint32, nv)
	}
	r.rgen++
	for j := 0; j+2 < len(idx); j += 3 {
		i0, i1, i2 := int(idx[j]), int(idx[j+1]), int(idx[j+2])
		if i0 >= nv || i1 >= nv || i2 >= nv || (cull && culled(v, i0, i1, i2)) {
			continue
		}
		if len(r.verts)+3 > maxBatchVertices {
			r.flush()
			r.rgen++
		}
		for _, k := range [3]int{i0, i1, i2} {
			if r.rstmp[k] != r.rgen {
				r.rstmp[k] = r.rgen
				r.remap[k] = int32(len(r.verts))
				r.verts = append(r.verts, ebiten.Vertex{})
				buildVertices(r.verts[len(r.verts)-1:], v[2*k:2*k+2], uv[2*k:2*k+2], &cp.geo, off, page, &col, r.localOrigin())
			}
			r.inds = append(r.inds, uint16(r.remap[k]))
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

// flush submits the call being built, if it has triangles; the first
// submission of a state run counts as a draw.
func (r *renderer) flush() {
	if len(r.inds) > 0 && r.call.dst != nil {
		r.call.dst.DrawTrianglesShader(r.verts, r.inds, r.call.shader, &r.opts)
		r.submits++
		first := !r.counted
		if first {
			r.drawCalls++
			r.counted = true
		}
		if r.rec != nil {
			r.rec.record(r, first)
		}
	}
	r.verts, r.inds = r.verts[:0], r.inds[:0]
}
