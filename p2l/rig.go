package p2l

import (
	"context"
	"fmt"
	"log/slog"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Rig is one playing instance of a Model: its parameter values, animation
// state and the result of the last evaluation. A Rig must be used by one
// goroutine at a time; any number of rigs may share one Model.
//
// The contract (stated once in the package documentation) in short: an
// index out of range or a nil *Rig panics; file content never does; the
// values a setter takes that are not finite are ignored; numerical trouble
// at a pose is reported by Err. Per-object results and controls are found
// through small views: Mesh, Part, Layer, Expressions, Physics and
// Simulation.
//
// Slices returned by a Rig (or its views) are owned by the rig (or by the
// shared Model) and must not be modified. Those holding evaluation results
// stay valid until the next call that evaluates (Evaluate, Update,
// UpdateStages, SetAdvanced, Physics().Stabilize); copy them to keep them
// longer. Before the first evaluation, and after a failed one, results are
// those of an empty evaluation (nil slices, zero values, empty render
// order).
type Rig struct {
	model *Model
	p     *prepared
	err   error

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
	tris       [][6]float64 // the triangle-interpolated lattices' cell tables (warpCells)
	frames     []frame
	defOpacity []float64
	// Cubism evaluation only (nil otherwise): the enabled states of parts
	// and deformers, and the deformers' accumulated multiply and screen
	// colours.
	partOn, defOn  []bool
	defMul, defScr [][3]float64
	// smallLattice: a warp's lattice coordinates are small enough to bound
	// the points mapped inside its unit square (widen, latticeBound).
	smallLattice []bool

	// Mesh results; vertices are double-buffered so change detection can
	// compare with the previous evaluation.
	verts       [2][]float32
	vcur        int
	meshOpacity []float32
	meshMul     []p2lrt.Color
	meshScr     []p2lrt.Color
	meshDraw    []float32
	meshDraw64  []float64
	meshVisible []bool
	orderPos    []int32
	vertChanged []bool
	vertsBoth   []bool // both buffers hold the mesh's vertices (it kept them: nothing to copy)
	// finiteVerts: the mesh's vertices, as this evaluation recomputed
	// them, are finite by the lattice bound (latticeBound), so checkOutputs
	// does not read them; those glue then moved are in glueCheck.
	finiteVerts []bool
	// glueCheck is 0 when every vertex this evaluation's glues wrote is
	// finite, NaN otherwise (zeroIfFinite's sum).
	glueCheck   float32
	meshRev     []uint64 // MeshRevision
	rev         uint64   // Revision
	changes     []MeshChange
	prevOpacity []float32
	prevMul     []p2lrt.Color
	prevScr     []p2lrt.Color
	prevDraw    []float32
	prevVisible []bool
	prevPos     []int32

	partProps []props
	comps     []p2lrt.Composite
	// Previous evaluation's composites and commands, for Revision.
	prevComps    []p2lrt.Composite
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
	allMoved   bool   // every parameter counts as moved (no kept results)
	defOwn     []bool // a parameter the deformer itself reads moved
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
	// Deformers' own results from the evaluation that last computed them
	// (defOwn), kept as meshLocals and place are: properties (evalObj),
	// warp lattices in the parent's space laid out as warpPts and where
	// their points fell in a parent warp, rotations' keyed origin, angle
	// and scale.
	defProps   []props
	warpLocals []float32
	warpPlace  placement
	rotLocals  [][4]float32
	// located holds the segment of each shared keyform axis
	// (prepared.axes) at the current values (locateAxes).
	located []located
	// corners holds the corner weights of each distinct keyform grid
	// (cgrid.shared) at the current values, gridN their number (0: not
	// computed in this evaluation; gridWeights).
	corners []corner
	gridN   []int32

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
	mul, scr p2lrt.Color
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
	// MeshVisibilityChanged: MeshState.Visible changed.
	MeshVisibilityChanged
	// MeshOpacityChanged: MeshState.Opacity changed.
	MeshOpacityChanged
	// MeshDrawOrderChanged: MeshState.DrawOrder (the value) changed.
	MeshDrawOrderChanged
	// MeshRenderOrderChanged: the mesh's position in RenderOrder changed.
	MeshRenderOrderChanged
	// MeshVerticesChanged: MeshState.Vertices changed.
	MeshVerticesChanged
	// MeshColorsChanged: MeshState.Colors changed.
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
// (one built in memory: Load rejects such files) gives a rig whose Err says
// why; it keeps its parameters and animation state but never evaluates.
// NewRig panics on a nil model.
func (m *Model) NewRig() *Rig {
	if m == nil {
		panic("p2l: NewRig on a nil *Model")
	}
	p := m.prep()
	if r := p.spare.Swap(nil); r != nil {
		r.model = m
		return r
	}
	r := &Rig{model: m, modelOpacity: 1}
	r.p = p
	np, nd, nm, npt := len(m.file.Parameters), len(m.file.Deformers), len(m.file.Meshes), len(m.file.Parts)
	// The host state exists whatever the model: index checks read its
	// lengths (checkParameter, checkMesh, checkPart).
	r.partOpacityMul = make([]float32, npt)
	r.meshColorOverride = make([]colorOverride, nm)
	r.partColorOverride = make([]colorOverride, npt)
	if p.err != nil {
		r.values = make([]float32, np)
		r.current = make([]float32, np)
		r.ResetParameters()
		r.fail(p.err)
		return r
	}
	r.values = append([]float32(nil), p.defaults...)
	r.current = append([]float32(nil), p.defaults...)
	initialPoseOpacity(m.file.Pose, r.partOpacityMul) // the pose's starting state (pose.go)
	if p.cubism {
		host := make([]float32, npt)
		initialHostPartOpacity(m, host) // parts stored not visible start hidden
		for i, h := range host {
			r.partOpacityMul[i] *= h
		}
	}
	r.warpPts = make([]float64, p.warpFloats)
	r.tris = make([][6]float64, p.tris)
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
	r.vertsBoth = make([]bool, nm)
	r.meshOpacity = make([]float32, nm)
	r.meshMul = make([]p2lrt.Color, nm)
	r.meshScr = make([]p2lrt.Color, nm)
	r.meshDraw = make([]float32, nm)
	r.meshDraw64 = make([]float64, nm)
	r.meshVisible = make([]bool, nm)
	r.orderPos = make([]int32, nm)
	r.changes = make([]MeshChange, nm)
	r.vertChanged = make([]bool, nm)
	r.finiteVerts = make([]bool, nm)
	r.meshRev = make([]uint64, nm)
	r.prevOpacity = make([]float32, nm)
	r.prevMul = make([]p2lrt.Color, nm)
	r.prevScr = make([]p2lrt.Color, nm)
	r.prevDraw = make([]float32, nm)
	r.prevVisible = make([]bool, nm)
	r.prevPos = make([]int32, nm)
	r.moved = newParamMask(nil, np)
	r.defOwn = make([]bool, nd)
	r.defMoved = make([]bool, nd)
	r.defProps = make([]props, nd)
	r.warpLocals = make([]float32, p.warpFloats)
	r.warpPlace = newPlacement(p.warpFloats / 2)
	r.rotLocals = make([][4]float32, nd)
	r.located = make([]located, len(p.axes))
	r.corners = make([]corner, p.gridCorners)
	r.gridN = make([]int32, len(p.gridOffs))
	r.meshMoved = make([]bool, nm)
	r.localMoved = make([]bool, nm)
	r.meshProps = make([]props, nm)
	r.meshLocals = make([]float32, p.vertFloats)
	r.place = newPlacement(p.placePts)
	r.defPlace = newPlacement(max(p.maxDefPts, 2)) // a rotation maps 2 points
	r.compMoved = make([]bool, len(p.gcomps))
	r.partProps = make([]props, npt)
	r.comps = make([]p2lrt.Composite, npt)
	r.prevComps = make([]p2lrt.Composite, npt)
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

// Model returns the model r plays.
func (r *Rig) Model() *Model { return r.model }

// Err reports the numerical failure that stopped the rig's evaluation, or
// nil: a value that is not finite in an evaluated output (a model whose
// values overflow at the pose reached), or a model that cannot be prepared.
// From then on evaluation does nothing and results are those of an empty
// evaluation; everything else keeps working.
func (r *Rig) Err() error { return r.err }

// checkParameter, checkMesh and checkPart panic, as an index expression
// does, when i is not a parameter, mesh or part index: an index out of
// range is the caller's error, never the file's (docs/LIMITS.md).
func (r *Rig) checkParameter(i int) {
	if uint(i) >= uint(len(r.values)) {
		indexPanic("parameter", i, len(r.values))
	}
}

func (r *Rig) checkMesh(i int) {
	if uint(i) >= uint(len(r.meshColorOverride)) {
		indexPanic("mesh", i, len(r.meshColorOverride))
	}
}

func (r *Rig) checkPart(i int) {
	if uint(i) >= uint(len(r.partColorOverride)) {
		indexPanic("part", i, len(r.partColorOverride))
	}
}

// checkIndex panics when i is not in [0, n); what names the index.
func checkIndex(what string, i, n int) {
	if uint(i) >= uint(n) {
		indexPanic(what, i, n)
	}
}

// indexPanic is the panic of an index out of range, in the runtime's
// words: "p2l: mesh index 12 out of range [0:10]". Kept out of line so that
// the checks inline.
func indexPanic(what string, i, n int) {
	panic(fmt.Sprintf("p2l: %s index %d out of range [0:%d]", what, i, n))
}

// fail records a failure (Err) and stops evaluation: results read as an
// empty evaluation from then on. The first failure also goes to the model's logger (WithLogger), at Error level.
func (r *Rig) fail(err error) {
	if r.err == nil {
		r.err = err
		r.evaluated = false
		if l := r.model.logger(); l != nil {
			l.LogAttrs(context.Background(), slog.LevelError, "p2l: rig failed", slog.String("error", err.Error()))
		}
	}
}

// SetParameter sets host-pose parameter i (Model.ParameterIndex finds it
// by id or name). The value is kept as given; evaluation clamps it to the
// parameter's range (or wraps it for a repeat parameter) without changing
// the stored host value. A value that is not finite (NaN, ±Inf) is
// ignored, as by every setter of Rig. On a PlaybackCubism model's rig the
// value also becomes the frame base the clips blend from
// (docs/ANIMATION.md §2b).
func (r *Rig) SetParameter(i int, v float32) {
	r.checkParameter(i)
	if !finite(v) {
		return
	}
	r.values[i] = v
	r.hostWrote(i)
}

// Parameter returns host-pose parameter i as set.
func (r *Rig) Parameter(i int) float32 {
	r.checkParameter(i)
	return r.values[i]
}

// ParameterCurrent returns the value parameter i had in the last
// evaluation, after clamping and wrapping and, under Update, after clips,
// expressions, behaviors and physics.
func (r *Rig) ParameterCurrent(i int) float32 {
	r.checkParameter(i)
	return r.current[i]
}

// ParameterValues appends the host pose (one value per parameter, in PARM
// order) to dst and returns the extended slice.
func (r *Rig) ParameterValues(dst []float32) []float32 {
	return append(dst, r.values...)
}

// SetParameterValues sets the whole host pose from v, one value per
// parameter in PARM order. It panics when len(v) differs from the
// parameter count, and changes nothing when a value is not finite.
func (r *Rig) SetParameterValues(v []float32) {
	if len(v) != len(r.values) {
		panic(fmt.Sprintf("p2l: SetParameterValues with %d values for %d parameters", len(v), len(r.values)))
	}
	if !allFinite(v) {
		return
	}
	copy(r.values, v)
	r.hostWroteAll()
}

// ResetParameters sets every host-pose parameter to its default.
func (r *Rig) ResetParameters() {
	if r.p.err != nil {
		for i := range r.values {
			r.values[i] = clampParam(&r.model.file.Parameters[i], r.model.file.Parameters[i].Default)
		}
	} else {
		copy(r.values, r.p.defaults)
	}
	r.hostWroteAll()
}

// Evaluate poses the rig from the host pose alone: no clips, expressions,
// behaviors or physics; the pose opacities (each POSE group's first part
// shown until an update fades another in, as the reference's p2l_evaluate)
// and the host's opacities apply. It also forgets the part and model
// opacities the last update's clips set.
func (r *Rig) Evaluate() {
	if r.err != nil {
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
// multipliers and the change flags. Values that are not finite in the
// outputs fail the rig (checkOutputs, Err). Nothing here recovers a panic:
// a loaded model was evaluated once at load (trialEvaluate), every index
// the evaluation follows was validated then, so a panic here is a bug of
// this package and surfaces as one.
func (r *Rig) evaluate() {
	r.clampCurrent()
	if r.adv == nil && r.evaluated && r.sameInputs() {
		// Nothing that evaluation reads has changed: the results stand,
		// and nothing changed since the last evaluation.
		for i := range r.changes {
			r.changes[i] &= MeshDrawn
		}
		return
	}
	if r.adv != nil { // advanced mode, hook H1
		r.adv.holdParameters(r)
	}
	r.markMoved()
	if r.p.cubism {
		r.evalEnabled()
	}
	r.evalDeformers()
	r.evalMeshes()
	r.evalGlues()
	if r.adv != nil { // advanced mode, hook H6
		r.adv.simulate(r)
	}
	r.evalParts()
	r.evalDraw()
	r.applyMultipliers()
	if r.checkOutputs(); r.err != nil {
		return
	}
	r.updateChanges()
	r.evaluated = true
	r.saveInputs()
}

// check prepares m and evaluates it once at its default pose, as a new
// rig's first Evaluate does, and returns what would fail that rig
// (Rig.Err): nil when the model evaluates. Load and NewModel call it
// (trialEvaluate) so that a model which cannot be evaluated fails when it
// is made. The rig it
// evaluated is the next NewRig's, as if new (keepTrialRig): checking a
// model and then playing it costs one evaluation, not two.
func (m *Model) check() error {
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
// result it computed instead of computing them again.
func keepTrialRig(r *Rig) {
	if r.err != nil || !r.evaluated || !r.lastIn.valid || r.adv != nil || r.animation != nil {
		return
	}
	r.evaluated = false
	r.rev = 0
	clear(r.meshRev)
	clear(r.changes)
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

// Revision returns a counter of changes to the rig's outputs: it grows with
// every evaluation whose results differ from the previous one in anything
// a renderer reads (a MeshState's Vertices, Opacity, Colors, Visible,
// draw and render order, RenderCommands, a PartState's Composite: any
// mesh's Changes besides MeshDrawn, or a group composite or command that
// differs), and with every evaluation in advanced mode; and only then (an
// evaluation on unchanged inputs keeps it). A renderer that keeps what it
// drew from the rig (ebitenp2l replays its last frame's submissions) tells
// by one comparison whether it is still current. It is 0 while the rig has
// nothing to draw: before the first evaluation and once it has failed.
func (r *Rig) Revision() uint64 {
	if !r.evaluated {
		return 0
	}
	return r.rev
}

// RenderOrder returns the meshes to draw, back to front.
func (r *Rig) RenderOrder() []int {
	if !r.evaluated {
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
	if !r.evaluated {
		return nil
	}
	return r.commands[:len(r.commands):len(r.commands)]
}

// HitTest returns the first hit area, in file order, one of whose meshes
// contains the canvas point (x, y) (edges included); −1 when none does or
// the point is not finite. A mesh contains the point when it is visible,
// has opacity above zero and one of its triangles contains the point (the
// spec's rule); in a model evaluated as Cubism, as the Cubism framework's
// CubismUserModel.isHit tests a hit area, when it is enabled and the point
// lies in the bounding box of its vertices, whatever its opacity (Cubism
// models draw their hit-area meshes transparent).
func (r *Rig) HitTest(x, y float32) int {
	if !r.evaluated || !finite(x) || !finite(y) {
		return -1
	}
	for a := range r.model.file.HitAreas {
		for _, mi := range r.model.file.HitAreas[a].Meshes {
			if !r.meshVisible[mi] {
				continue
			}
			if r.p.cubism {
				if r.meshBoxContains(mi, x, y) {
					return a
				}
			} else if r.meshOpacity[mi] > 0 && r.meshContains(mi, float64(x), float64(y)) {
				return a
			}
		}
	}
	return -1
}

// meshBoxContains reports whether the bounding box of mesh i's vertices
// contains the point, edges included.
func (r *Rig) meshBoxContains(i int, x, y float32) bool {
	v := r.Mesh(i).Vertices()
	if len(v) < 2 {
		return false
	}
	left, right, top, bottom := v[0], v[0], v[1], v[1]
	for k := 2; k+1 < len(v); k += 2 {
		left, right = min(left, v[k]), max(right, v[k])
		top, bottom = min(top, v[k+1]), max(bottom, v[k+1])
	}
	return left <= x && x <= right && top <= y && y <= bottom
}

// meshContains reports whether a triangle of mesh i contains the point,
// edges included. Degenerate triangles contain nothing.
func (r *Rig) meshContains(i int, x, y float64) bool {
	v := r.Mesh(i).Vertices()
	idx := r.model.file.Meshes[i].Indices
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
