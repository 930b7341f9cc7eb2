package p2l

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
)

// Rig is one playing instance of a Model: its parameter values, animation
// state and the result of the last evaluation. A Rig must be used by one
// goroutine at a time; any number of rigs may share one Model.
//
// Slices returned by a Rig's accessors are owned by the rig (or by the
// shared Model) and must not be modified. Those holding evaluation results
// stay valid until the next call that evaluates (Evaluate, Update,
// UpdateStages, SetAdvanced, PhysicsStabilize); copy them to keep them
// longer.
//
// Out-of-range indices: accessors taking an index return the zero value
// (NaN for float results that are not colors, nil for slices, false, zero
// colors, or −1 for indices) and setters ignore the call; they never panic.
// Before the first evaluation, results are those of an empty evaluation
// (nil slices, zero opacity, empty render order).
//
// A rig whose model cannot be evaluated, or whose evaluation hits an
// internal failure or produces a value that is not finite, records the
// reason (Err) and becomes inert: from then on every accessor answers as for
// an out-of-range index and evaluation does nothing. It never panics into
// the caller.
//
// A nil *Rig is inert in the same way (like the spec's null handle): every
// method may be called on it, Err reports that the rig is nil, and nothing
// else happens. docs/LIMITS.md lists the rules for hostile input and
// careless callers.
type Rig struct {
	model *Model
	p     *prepared
	err   error
	stage string // evaluation stage, for failure messages

	evaluated bool

	values  []float32 // host pose, as set
	current []float32 // values of the last evaluation, clamped/wrapped

	// Integration points for Update (the animation layer builds on these;
	// Evaluate alone leaves them at their neutral values):
	//
	//   - current: Update fills it (host pose, clips, expressions,
	//     behaviors, physics) and then calls r.evaluate(), which clamps and
	//     wraps it once (end of stage 1) and runs stages 2–7.
	//   - partOpacityMul: per-part opacity multiplier (pose, part-opacity
	//     curves, host part opacity), default 1. After the core evaluation a
	//     mesh's opacity is multiplied by the product over its ancestor parts.
	//   - modelOpacity: multiplies every mesh opacity, default 1.
	//   - meshColorOverride / partColorOverride: host colors replacing the
	//     evaluated mesh colors; a mesh's own override wins over the nearest
	//     override on its part chain.
	partOpacityMul    []float32
	modelOpacity      float32
	meshColorOverride []colorOverride
	partColorOverride []colorOverride

	// animation is the animation state (update.go), created on first use.
	animation *animState

	// Deformer results of the last evaluation.
	warpPts    []float64    // canvas-space warp lattices, x,y pairs (float32 values)
	tris       [][6]float64 // the lattices' cell tables (warpCells): triangles
	quads      [][8]float64 // and bilinear cells
	frames     []frame
	defOpacity []float64
	// Cubism evaluation only (nil otherwise): the enabled states of parts
	// and deformers, and the deformers' accumulated multiply and screen
	// colours.
	partOn, defOn  []bool
	defMul, defScr [][3]float64
	// smallLattice: a warp's lattice coordinates are all at most 2^124 in
	// magnitude (smallBits).
	smallLattice []bool

	// Mesh results; vertices are double-buffered so change detection can
	// compare with the previous evaluation.
	verts       [2][]float32
	vcur        int
	meshOpacity []float32
	meshMul     []Color
	meshScr     []Color
	meshDraw    []float32
	meshDraw64  []float64
	meshVisible []bool
	orderPos    []int32
	vertChanged []bool
	// finiteVerts: the mesh's vertices, as this evaluation recomputed
	// them, are finite by the lattice bound (smallBits), so checkOutputs
	// does not read them; those glue then moved are in glueCheck.
	finiteVerts []bool
	// glueCheck is 0 when every vertex this evaluation's glues wrote is
	// finite, NaN otherwise (zeroIfFinite's sum).
	glueCheck   float32
	meshRev     []uint64 // MeshRevision
	rev         uint64   // Revision
	changes     []MeshChange
	prevOpacity []float32
	prevMul     []Color
	prevScr     []Color
	prevDraw    []float32
	prevVisible []bool
	prevPos     []int32

	partProps []props
	comps     []Composite
	// Previous evaluation's composites and commands, for Revision.
	prevComps    []Composite
	prevCommands []RenderCommand

	// lastIn holds the inputs of the last full evaluation, so that an
	// evaluation on unchanged inputs can keep its results (a paused or
	// idle rig costs almost nothing).
	lastIn struct {
		valid        bool
		current      []float32
		partMul      []float32
		modelOpacity float32
		meshColor    []colorOverride
		partColor    []colorOverride
	}

	// What this evaluation recomputes (evaluate's markMoved): parameters
	// whose value differs from the last full evaluation's, deformers and
	// mesh geometries whose inputs do, glue components with such a mesh or
	// intensity. The rest keep the last evaluation's results.
	moved      paramMask
	defMoved   []bool
	meshMoved  []bool
	localMoved []bool // the mesh's own keyforms or bindings
	// meshProps are each mesh's own properties (evalObj) from the
	// evaluation that last computed them.
	meshProps []props
	compMoved []bool
	// meshLocals holds each mesh's positions in its parent's space (rest
	// positions, keyforms, blend shapes) from the evaluation that last
	// computed them, laid out as the vertex buffers.
	meshLocals []float32
	// place holds where each vertex of a mesh whose parent is a warp fell
	// in the lattice when its positions were last computed (mapPoints):
	// when only the parent moved, it stands too (mapPlaced).
	place placement
	// defPlace is the scratch placement of deformers' points (not kept).
	defPlace placement

	renderOrder []int
	commands    []RenderCommand

	// Scratch.
	sc      []corner
	local   []float32
	local64 []float64 // advanced mode's mesh hook (created on use)
	bw      []bindWeight
	sortBuf []sortItem
	// sortKeys holds every draw-group child's sort key of the last
	// evaluation, in tree order (emitChildren sorts only when one changed).
	sortKeys []float64

	// Advanced mode (advrig.go): nil while every feature is off, so the
	// hooks below cost one nil check each.
	adv    *advRig
	vbones *boneSource // virtual bones for BoneTransform in Cubism mode
}

// colorOverride is a host color replacing evaluated colors.
type colorOverride struct {
	set      bool
	mul, scr Color
}

// frame is a deformer's canvas-space state: for a rotation deformer the
// affine map of child coordinates to the canvas (m: a, b, c, d, tx, ty with
// x' = a·x + b·y + tx, y' = c·x + d·y + ty) and the frame's angle, scale and
// vertical flip that children inherit; for a warp deformer the four-corner
// average affine frame used outside the grid (aff: cx, cy, dx.x, dx.y,
// dy.x, dy.y).
type frame struct {
	// A rotation's frame as eval.rs Transform::Rotation (float32): a point
	// maps to origin + R(angle)·(±x·scale, ±y·scale); sin and cos of the
	// angle, kept. A warp keeps scale, the scale of the nearest rotation
	// above (for rotations under it).
	ox, oy, angle, scale, sin, cos float32
	sx, sy                         float32 // ±scale, with the flips
	flipX, flipY                   bool
	// m is the rotation frame as an affine map (advanced mode and hosts);
	// aff a warp's four-corner average affine frame: centre and the mean
	// edge vectors along u and v (warp.rs Frame).
	m   [6]float64
	aff [6]float64
}

// bindWeight is the weight of one binding's (at most two) contributing keys.
type bindWeight struct {
	k0, k1 int
	w0, w1 float32
}

// sortItem is a draw-group child being sorted: the floored key, the child's
// position in the tree (ties keep tree order) and the child.
type sortItem struct {
	key  float64
	pos  int32
	node cnode
}

// MeshChange is the set of change flags of a mesh after an evaluation (ABI
// 1.4, Cubism's dynamic flags). After the first evaluation every change bit
// is set.
type MeshChange uint8

const (
	// MeshDrawn is a state, not a change: the mesh is in the render order
	// and its opacity is above zero.
	MeshDrawn MeshChange = 1 << iota
	// MeshVisibilityChanged: MeshVisible changed.
	MeshVisibilityChanged
	// MeshOpacityChanged: MeshOpacity changed.
	MeshOpacityChanged
	// MeshDrawOrderChanged: MeshDrawOrder (the value) changed.
	MeshDrawOrderChanged
	// MeshRenderOrderChanged: the mesh's position in RenderOrder changed.
	MeshRenderOrderChanged
	// MeshVerticesChanged: MeshVertices changed.
	MeshVerticesChanged
	// MeshColorsChanged: MeshColors changed.
	MeshColorsChanged

	meshAllChanges = MeshVisibilityChanged | MeshOpacityChanged | MeshDrawOrderChanged |
		MeshRenderOrderChanged | MeshVerticesChanged | MeshColorsChanged
)

// NewRig returns a new instance of m with every parameter at its default
// and the DefaultBehaviors (blink and breath) on, as the reference runtime
// starts a rig: Update then blinks and breathes through the model's ROLE
// parameters (SetBehaviors(0) switches that off). The model is prepared
// for evaluation on first use (once per model, shared by all its rigs);
// it must not be modified afterwards. A model that cannot be evaluated
// gives an inert rig whose Err says why.
func (m *Model) NewRig() *Rig {
	p := m.prep()
	if r := p.spare.Swap(nil); r != nil {
		r.model = m
		return r
	}
	r := &Rig{model: m, modelOpacity: 1}
	r.p = p
	if p.err != nil {
		r.fail(p.err)
		return r
	}
	np, nd, nm, npt := len(m.Parameters), len(m.Deformers), len(m.Meshes), len(m.Parts)
	r.values = append([]float32(nil), p.defaults...)
	r.current = append([]float32(nil), p.defaults...)
	r.partOpacityMul = make([]float32, npt)
	initialPoseOpacity(m.Pose, r.partOpacityMul) // the pose's starting state (pose.go)
	if p.cubism {
		host := make([]float32, npt)
		initialHostPartOpacity(m, host) // parts stored not visible start hidden
		for i, h := range host {
			r.partOpacityMul[i] *= h
		}
	}
	r.meshColorOverride = make([]colorOverride, nm)
	r.partColorOverride = make([]colorOverride, npt)
	r.warpPts = make([]float64, p.warpFloats)
	r.tris = make([][6]float64, p.tris)
	r.quads = make([][8]float64, p.quads)
	r.frames = make([]frame, nd)
	r.defOpacity = make([]float64, nd)
	if p.cubism {
		r.partOn = make([]bool, npt)
		r.defOn = make([]bool, nd)
		r.defMul = make([][3]float64, nd)
		r.defScr = make([][3]float64, nd)
	}
	r.smallLattice = make([]bool, nd)
	r.verts[0] = make([]float32, p.vertFloats)
	r.verts[1] = make([]float32, p.vertFloats)
	r.meshOpacity = make([]float32, nm)
	r.meshMul = make([]Color, nm)
	r.meshScr = make([]Color, nm)
	r.meshDraw = make([]float32, nm)
	r.meshDraw64 = make([]float64, nm)
	r.meshVisible = make([]bool, nm)
	r.orderPos = make([]int32, nm)
	r.changes = make([]MeshChange, nm)
	r.vertChanged = make([]bool, nm)
	r.finiteVerts = make([]bool, nm)
	r.meshRev = make([]uint64, nm)
	r.prevOpacity = make([]float32, nm)
	r.prevMul = make([]Color, nm)
	r.prevScr = make([]Color, nm)
	r.prevDraw = make([]float32, nm)
	r.prevVisible = make([]bool, nm)
	r.prevPos = make([]int32, nm)
	r.moved = newParamMask(nil, np)
	r.defMoved = make([]bool, nd)
	r.meshMoved = make([]bool, nm)
	r.localMoved = make([]bool, nm)
	r.meshProps = make([]props, nm)
	r.meshLocals = make([]float32, p.vertFloats)
	r.place = newPlacement(p.placePts)
	r.defPlace = newPlacement(max(p.maxDefPts, 2)) // a rotation maps 2 points
	r.compMoved = make([]bool, len(p.gcomps))
	r.partProps = make([]props, npt)
	r.comps = make([]Composite, npt)
	r.prevComps = make([]Composite, npt)
	// A mesh may be listed more than once in the draw tree; p.sortLen
	// counts every node.
	r.renderOrder = make([]int, 0, max(nm, p.sortLen))
	r.commands = make([]RenderCommand, 0, max(nm, p.sortLen)+2*len(p.groups))
	r.prevCommands = make([]RenderCommand, 0, cap(r.commands))
	r.sc = make([]corner, 0, 1<<p.maxAxes)
	r.local = make([]float32, p.maxLocal)
	r.local64 = make([]float64, p.maxLocal)
	r.bw = make([]bindWeight, p.maxBinds)
	r.sortBuf = make([]sortItem, p.sortLen)
	r.sortKeys = make([]float64, p.sortLen)
	return r
}

// Model returns the model r plays (nil for a nil rig).
func (r *Rig) Model() *Model {
	if r == nil {
		return nil
	}
	return r.model
}

// Err reports the internal failure that made the rig inert, or nil. A nil
// *Rig is inert too: its Err says so.
func (r *Rig) Err() error {
	if r == nil {
		return errNilRig
	}
	return r.err
}

// errNilRig is the Err of a nil *Rig.
var errNilRig = errors.New("p2l: nil *Rig (methods of a nil rig do nothing)")

// dead reports whether r is inert: nil, or failed (Err). Every exported
// method starts with it, so that neither kind of inert rig can panic.
func (r *Rig) dead() bool { return r == nil || r.err != nil }

// fail records an internal failure and makes the rig inert. The first
// failure also goes to the model's logger (WithLogger), at Error level.
func (r *Rig) fail(err error) {
	if r.err == nil {
		r.err = err
		if l := r.model.logger(); l != nil {
			l.LogAttrs(context.Background(), slog.LevelError, "p2l: rig failed", slog.String("error", err.Error()))
		}
	}
}

// SetParameter sets host-pose parameter i. The value is kept as given;
// evaluation clamps it to the parameter's range (or wraps it for a repeat
// parameter) without changing the stored host value. A value that is not
// finite (NaN, ±Inf) is ignored, as by every setter of Rig. On a
// PlaybackCubism model's rig the value also becomes the frame base the
// clips blend from (docs/ANIMATION.md §2b).
func (r *Rig) SetParameter(i int, v float32) {
	if r.dead() || i < 0 || i >= len(r.values) || !finite(v) {
		return
	}
	r.values[i] = v
	r.hostWrote(i)
}

// SetParameterByID sets the host-pose parameter with the given id and
// reports whether it exists. A value that is not finite is ignored (false).
func (r *Rig) SetParameterByID(id string, v float32) bool {
	if r.dead() || !finite(v) {
		return false
	}
	i, ok := r.p.paramByID[id]
	if ok {
		r.values[i] = v
		r.hostWrote(i)
	}
	return ok
}

// Parameter returns host-pose parameter i as set (NaN when out of range).
func (r *Rig) Parameter(i int) float32 {
	if r.dead() || i < 0 || i >= len(r.values) {
		return float32(math.NaN())
	}
	return r.values[i]
}

// ParameterCurrent returns the value parameter i had in the last
// evaluation, after clamping and wrapping and, under Update, after clips,
// expressions, behaviors and physics. NaN when out of range.
func (r *Rig) ParameterCurrent(i int) float32 {
	if r.dead() || i < 0 || i >= len(r.current) {
		return float32(math.NaN())
	}
	return r.current[i]
}

// ParameterValues appends the host pose (one value per parameter, in PARM
// order) to dst and returns the extended slice.
func (r *Rig) ParameterValues(dst []float32) []float32 {
	if r.dead() {
		return dst
	}
	return append(dst, r.values...)
}

// SetParameterValues sets the whole host pose from v, one value per
// parameter in PARM order. It reports false and changes nothing when
// len(v) differs from the parameter count or a value is not finite.
func (r *Rig) SetParameterValues(v []float32) bool {
	if r.dead() || len(v) != len(r.values) || !allFinite(v) {
		return false
	}
	copy(r.values, v)
	r.hostWroteAll()
	return true
}

// ResetParameters sets every host-pose parameter to its default.
func (r *Rig) ResetParameters() {
	if r.dead() {
		return
	}
	copy(r.values, r.p.defaults)
	r.hostWroteAll()
}

// Evaluate poses the rig from the host pose alone: no clips, expressions,
// behaviors or physics; the pose opacities (each POSE group's first part
// shown until an update fades another in, as the reference's p2l_evaluate)
// and the host's opacities apply. It also forgets the part and model
// opacities the last update's clips set.
func (r *Rig) Evaluate() {
	if r.dead() {
		return
	}
	if r.animation != nil {
		r.animation.out.reset()
	}
	copy(r.current, r.values)
	r.evaluate()
}

// evaluate runs the evaluation stages on r.current: clamp/wrap (end of stage
// 1), deformers, meshes, glue, parts and draw order, then the post
// multipliers and the change flags. A panic inside makes the rig inert.
func (r *Rig) evaluate() {
	defer func() {
		if e := recover(); e != nil {
			r.fail(fmt.Errorf("p2l: evaluation failed in stage %q: %v", r.stage, e))
		}
	}()
	r.stage = "parameters"
	r.clampCurrent()
	if r.adv == nil && r.evaluated && r.sameInputs() {
		// Nothing that evaluation reads has changed: the results stand,
		// and nothing changed since the last evaluation.
		for i := range r.changes {
			r.changes[i] &= MeshDrawn
		}
		r.stage = ""
		return
	}
	if r.adv != nil { // advanced mode, hook H1
		r.adv.holdParameters(r)
	}
	r.markMoved()
	if r.p.cubism {
		r.evalEnabled()
	}
	r.stage = "deformers"
	r.evalDeformers()
	r.stage = "meshes"
	r.evalMeshes()
	r.stage = "glue"
	r.evalGlues()
	if r.adv != nil { // advanced mode, hook H6
		r.stage = "simulation"
		r.adv.simulate(r)
	}
	r.stage = "parts"
	r.evalParts()
	r.stage = "draw order"
	r.evalDraw()
	r.stage = "multipliers"
	r.applyMultipliers()
	r.stage = "output check"
	if r.checkOutputs(); r.err != nil {
		return
	}
	r.stage = "change flags"
	r.updateChanges()
	r.evaluated = true
	r.saveInputs()
	r.stage = ""
}

// Check prepares m and evaluates it once at its default pose, as a new
// rig's first Evaluate does, and returns what would make that rig inert
// (Rig.Err): nil when the model evaluates. Readers call it so that a model
// which cannot be evaluated fails when it is read (Load does). The rig it
// evaluated is the next NewRig's, as if new (keepTrialRig): checking a
// model and then playing it costs one evaluation, not two.
func (m *Model) Check() error {
	r := m.NewRig()
	r.Evaluate()
	if err := r.Err(); err != nil {
		return err
	}
	keepTrialRig(r)
	return nil
}

// keepTrialRig hands r, a new rig evaluated once (Evaluate) and used no
// more, to the next NewRig of its model. r is made to look new: not
// evaluated, so its accessors answer as before a first evaluation and its
// next evaluation reports every change and counts revision 1; but its
// last inputs stay, so that evaluation at the same pose keeps every
// result it computed instead of computing them again. While kept, r does
// not point at its model: the prepared form lives as long as the model
// (prepCache), and must not keep it alive.
func keepTrialRig(r *Rig) {
	if r.dead() || !r.evaluated || !r.lastIn.valid || r.adv != nil || r.animation != nil {
		return
	}
	r.evaluated = false
	r.rev = 0
	clear(r.meshRev)
	clear(r.changes)
	r.model = nil
	r.p.spare.Store(r)
}

// sameInputs reports whether the last evaluation ran in Cubism mode on the
// same inputs: clamped parameter values, part and model opacity
// multipliers and host color overrides (bit for bit). The model is
// immutable, so the results would be identical.
func (r *Rig) sameInputs() bool {
	in := &r.lastIn
	if !in.valid || math.Float32bits(r.modelOpacity) != math.Float32bits(in.modelOpacity) ||
		!bitsEqual32(r.current, in.current) || !bitsEqual32(r.partOpacityMul, in.partMul) {
		return false
	}
	return sameOverrides(r.meshColorOverride, in.meshColor) && sameOverrides(r.partColorOverride, in.partColor)
}

// sameOverrides compares color overrides bit for bit.
func sameOverrides(a, b []colorOverride) bool {
	for i := range a {
		if a[i].set != b[i].set || !bitsEqual32(a[i].mul[:], b[i].mul[:]) || !bitsEqual32(a[i].scr[:], b[i].scr[:]) {
			return false
		}
	}
	return true
}

// saveInputs records the inputs of a full evaluation for sameInputs; an
// evaluation in advanced mode is never reused.
func (r *Rig) saveInputs() {
	in := &r.lastIn
	if in.current == nil {
		in.current = make([]float32, len(r.current))
		in.partMul = make([]float32, len(r.partOpacityMul))
		in.meshColor = make([]colorOverride, len(r.meshColorOverride))
		in.partColor = make([]colorOverride, len(r.partColorOverride))
	}
	copy(in.current, r.current)
	copy(in.partMul, r.partOpacityMul)
	copy(in.meshColor, r.meshColorOverride)
	copy(in.partColor, r.partColorOverride)
	in.modelOpacity = r.modelOpacity
	in.valid = r.adv == nil
}

func (r *Rig) meshOK(i int) bool {
	return !r.dead() && r.evaluated && i >= 0 && i < len(r.p.meshes)
}

// MeshVertices returns mesh i's evaluated vertices, x,y pairs in canvas
// pixels (y down).
func (r *Rig) MeshVertices(i int) []float32 {
	if !r.meshOK(i) {
		return nil
	}
	c := &r.p.meshes[i]
	if c.nv == 0 {
		return nil
	}
	return r.verts[r.vcur][c.vOff : c.vOff+2*c.nv : c.vOff+2*c.nv]
}

// MeshUVs returns mesh i's texture coordinates, u,v pairs (v down). The
// slice belongs to the Model.
func (r *Rig) MeshUVs(i int) []float32 {
	if r.dead() || i < 0 || i >= len(r.model.Meshes) {
		return nil
	}
	u := r.model.Meshes[i].UVs
	return u[:len(u):len(u)]
}

// MeshIndices returns mesh i's triangle indices. The slice belongs to the
// Model.
func (r *Rig) MeshIndices(i int) []uint32 {
	if r.dead() || i < 0 || i >= len(r.model.Meshes) {
		return nil
	}
	x := r.model.Meshes[i].Indices
	return x[:len(x):len(x)]
}

// MeshOpacity returns mesh i's evaluated opacity in [0, 1]: the mesh and
// deformer chain (each level clamped, then multiplied), times the part
// opacity multipliers of its ancestor parts and the model opacity (pose,
// clip and host opacities; 1 under Evaluate alone).
func (r *Rig) MeshOpacity(i int) float32 {
	if !r.meshOK(i) {
		return float32(math.NaN())
	}
	return r.meshOpacity[i]
}

// MeshColors returns mesh i's evaluated multiply and screen colors (the
// deformer chain composed in, host overrides applied).
func (r *Rig) MeshColors(i int) (multiply, screen Color) {
	if !r.meshOK(i) {
		return Color{}, Color{}
	}
	return r.meshMul[i], r.meshScr[i]
}

// MeshDrawOrder returns mesh i's evaluated draw-order value (before the
// +0.001 and floor of the sort key).
func (r *Rig) MeshDrawOrder(i int) float32 {
	if !r.meshOK(i) {
		return float32(math.NaN())
	}
	return r.meshDraw[i]
}

// MeshVisible reports whether mesh i is visible: it has geometry, its
// visible flag is set and no part above it is hidden or a sketch. Visible
// meshes of the draw tree are drawn (see RenderOrder) even at opacity 0.
func (r *Rig) MeshVisible(i int) bool {
	return r.meshOK(i) && r.meshVisible[i]
}

// MeshChanges returns mesh i's change flags from the last evaluation.
func (r *Rig) MeshChanges(i int) MeshChange {
	if !r.meshOK(i) {
		return 0
	}
	return r.changes[i]
}

// MeshRevision returns a counter of mesh i's vertex changes: it grows with
// every evaluation whose MeshVertices differ from the previous one
// (MeshVerticesChanged), and only then. A renderer that keeps a mesh's
// vertices between frames (in a vertex buffer, on the GPU) tells by one
// comparison whether they are still current, however many evaluations ran
// since it built them. It is 0 before the first evaluation and for a mesh
// that does not exist.
func (r *Rig) MeshRevision(i int) uint64 {
	if !r.meshOK(i) {
		return 0
	}
	return r.meshRev[i]
}

// Revision returns a counter of changes to the rig's outputs: it grows with
// every evaluation whose results differ from the previous one in anything
// a renderer reads (MeshVertices, MeshOpacity, MeshColors, MeshVisible,
// draw and render order, RenderCommands, GroupComposite: any mesh's
// MeshChanges besides MeshDrawn, or a group composite or command that
// differs), and with every evaluation in advanced mode; and only then (an
// evaluation on unchanged inputs keeps it). A renderer that keeps what it
// drew from the rig (ebitenp2l replays its last frame's submissions) tells
// by one comparison whether it is still current. It is 0 while the rig has
// nothing to draw: before the first evaluation and once it has failed.
func (r *Rig) Revision() uint64 {
	if r.dead() || !r.evaluated {
		return 0
	}
	return r.rev
}

// MeshRenderPosition returns mesh i's position in RenderOrder, −1 when it
// is not drawn.
func (r *Rig) MeshRenderPosition(i int) int {
	if !r.meshOK(i) {
		return -1
	}
	return int(r.orderPos[i])
}

// RenderOrder returns the meshes to draw, back to front.
func (r *Rig) RenderOrder() []int {
	if r.dead() || !r.evaluated {
		return nil
	}
	return r.renderOrder[:len(r.renderOrder):len(r.renderOrder)]
}

// RenderCommands returns the drawing order keeping isolated-group
// boundaries: the meshes of RenderOrder, with every isolated group (a draw
// group that names a part and carries a composite, and draws at least one
// mesh; the part's GroupMode does not decide) enclosed in OpenGroup(part) …
// CloseGroup.
func (r *Rig) RenderCommands() []RenderCommand {
	if r.dead() || !r.evaluated {
		return nil
	}
	return r.commands[:len(r.commands):len(r.commands)]
}

// GroupComposite returns how the isolated group of part is composited this
// frame: blend and alpha modes, masks (MaskMeshes lists the mask meshes with
// the mask parts expanded to their meshes; MaskParts is the file's list),
// invert flag, and the evaluated opacity (clamped to [0, 1]) and colors
// (not clamped): the draw-tree group's channels override the composite's
// static values. The composite is that of the last draw-tree group (in tree
// order) that names the part and carries one, else the part's own. The
// slices belong to the Model.
func (r *Rig) GroupComposite(part int) Composite {
	if r.dead() || !r.evaluated || part < 0 || part >= len(r.comps) {
		return Composite{}
	}
	return r.comps[part]
}

// PartOpacity returns part i's evaluated opacity (channels and blend shapes,
// clamped to [0, 1]). The core evaluation does not multiply it into mesh
// opacity.
func (r *Rig) PartOpacity(i int) float32 {
	if r.dead() || !r.evaluated || i < 0 || i >= len(r.partProps) {
		return float32(math.NaN())
	}
	return float32(r.partProps[i].opacity)
}

// PartColors returns part i's evaluated multiply and screen colors.
func (r *Rig) PartColors(i int) (multiply, screen Color) {
	if r.dead() || !r.evaluated || i < 0 || i >= len(r.partProps) {
		return Color{}, Color{}
	}
	p := &r.partProps[i]
	return toColor(p.mul), toColor(p.scr)
}

// PartDrawOrder returns part i's evaluated draw order, the key of its draw
// groups.
func (r *Rig) PartDrawOrder(i int) float32 {
	if r.dead() || !r.evaluated || i < 0 || i >= len(r.partProps) {
		return float32(math.NaN())
	}
	return float32(r.partProps[i].drawOrder)
}

// HitTest returns the first hit area, in file order, one of whose meshes is
// visible, has opacity above zero and contains the canvas point (x, y)
// (edges included); −1 when none does or the point is not finite.
func (r *Rig) HitTest(x, y float32) int {
	if r.dead() || !r.evaluated || !finite(x) || !finite(y) {
		return -1
	}
	for a := range r.model.HitAreas {
		for _, mi := range r.model.HitAreas[a].Meshes {
			if r.meshVisible[mi] && r.meshOpacity[mi] > 0 && r.meshContains(mi, float64(x), float64(y)) {
				return a
			}
		}
	}
	return -1
}

// meshContains reports whether a triangle of mesh i contains the point,
// edges included. Degenerate triangles contain nothing.
func (r *Rig) meshContains(i int, x, y float64) bool {
	v := r.MeshVertices(i)
	idx := r.model.Meshes[i].Indices
	for t := 0; t+2 < len(idx); t += 3 {
		a, b, c := 2*int(idx[t]), 2*int(idx[t+1]), 2*int(idx[t+2])
		ax, ay := float64(v[a]), float64(v[a+1])
		bx, by := float64(v[b]), float64(v[b+1])
		cx, cy := float64(v[c]), float64(v[c+1])
		if (bx-ax)*(cy-ay)-(by-ay)*(cx-ax) == 0 {
			continue
		}
		d1 := (bx-ax)*(y-ay) - (by-ay)*(x-ax)
		d2 := (cx-bx)*(y-by) - (cy-by)*(x-bx)
		d3 := (ax-cx)*(y-cy) - (ay-cy)*(x-cx)
		neg := d1 < 0 || d2 < 0 || d3 < 0
		pos := d1 > 0 || d2 > 0 || d3 > 0
		if !(neg && pos) {
			return true
		}
	}
	return false
}

// RenderCommand is one step of Rig.RenderCommands, in the spec's encoding:
// a mesh index (≥ 0), OpenGroup (−2 − part) or CloseGroup (−1).
type RenderCommand int32

// CloseGroup ends the innermost open isolated group.
const CloseGroup RenderCommand = -1

// OpenGroup returns the command that opens the isolated group of part.
func OpenGroup(part int) RenderCommand { return RenderCommand(-2 - part) }

// Mesh reports the mesh index of a draw command.
func (c RenderCommand) Mesh() (int, bool) { return int(c), c >= 0 }

// Group reports the part of a group-opening command.
func (c RenderCommand) Group() (part int, ok bool) { return int(-2 - c), c <= -2 }
