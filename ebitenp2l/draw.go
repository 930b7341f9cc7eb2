package ebitenp2l

import (
	"image"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
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
//  1. plan (plan.go): walk each character's render commands once, compute
//     mesh and group bounds;
//  2. layout (plan.go): give every isolated group a region of the layer
//     page of its nesting depth;
//  3. ops (ops.go): turn every visible mesh and group composite into an op
//     of its target (the caller's image, or a layer page) and place it in
//     a batch of equal state (placement.go, see place): an op may join an
//     earlier batch when it overlaps nothing drawn since, so that
//     consecutive characters, and disjoint parts of one, share calls;
//  4. coverage (coverage.go): every mask set in use, once per target, into
//     one coverage page (clear, then one draw per model);
//  5. targets (targets.go): the layer pages from the deepest nesting down,
//     then the caller's image, batch by batch; a batch that reads the
//     backdrop is preceded by one copy of its members' areas.
//
// Phases 4 and 5 build their DrawTrianglesShader calls in the renderer's
// call (submit.go: begin, quad, flush) from mesh vertices and indices
// (vertices.go: emitMesh).
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

	// drawCalls counts draw commands (Character.DrawCalls): runs of
	// consecutive DrawTrianglesShader submissions with one state, which
	// Ebitengine merges into one command.
	drawCalls int
	counted   bool // the current state run has been counted

	// rec is the recorder of the frame being drawn when it is recorded
	// (replay.go), else nil.
	rec *recorder
	// pooled: the call being built draws into the pool's coverage or
	// layer pages (recorded with it, see replay.go).
	pooled bool
}

var rd = renderer{}

// entry is one character of a frame and its options.
type entry struct {
	c    *Character
	opts DrawOptions
}

// pose is what the renderer reads of a rig's last evaluation
// (rigframe.Frame reads a rig so; tests substitute hand-made poses).
type pose interface {
	RenderCommands() []p2l.RenderCommand
	MeshVertices(i int) []float32
	MeshUVs(i int) []float32
	MeshIndices(i int) []uint32
	MeshOpacity(i int) float32
	MeshColors(i int) (multiply, screen p2lrt.Color)
	GroupComposite(part int) p2lrt.Composite
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
	comp     p2lrt.Composite
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
