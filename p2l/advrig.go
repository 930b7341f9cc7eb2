package p2l

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file connects the advanced mode to a Rig: SetAdvanced, the bone
// accessors, PrepareAdvanced, and the hook functions the core evaluator
// calls (each guarded by r.adv != nil, so that with every feature off the
// core path runs unchanged):
//
//	H1  advRig.holdParameters  end of stage 1, after clamping
//	H2  advRig.arcPivot        a rotation deformer's pivot, before its frame
//	H4  advRig.meshLocal       a mesh's local positions, before its parent
//	H6  advRig.simulate        after glue
//
// H3 (bone frames) needs no stage of its own: bones are DEFM rotation
// frames, which stage 2 computes, or virtual bones, evaluated on demand.

// advModel is the advanced data prepared once per model and shared by its
// rigs: the bone model and the skin weights. Safe for concurrent use.
type advModel struct {
	once sync.Once
	err  error // the bone model could not be built
	warn error // bad bone references (the rest works)

	// bones is a side model holding only the deformers bone frames need
	// (skin homes and bones, collider and attachable deformers, and their
	// ancestors), virtual bones included, so that frames at any parameter
	// values come from the core evaluator without touching a rig's pose.
	bones boneModel
	// skinBones holds, per SKIN entry, the side model of that skin's home
	// and bones alone: a skin evaluates it once per key combination around
	// the current values, so its size is the skin's cost.
	skinBones []boneModel

	mu   sync.Mutex
	fits map[int]*skinFitEntry // per SKIN entry and exact-links setting

	// budget holds, per SKIN entry, the error of a skin beyond the work
	// bounds (skinBudgets), nil for the others.
	budget []error
}

type skinFitEntry struct {
	once sync.Once
	home int
	rc   []Affine
	w    *skinWeights
	err  error
}

// adv returns m's prepared advanced data.
func (m *Model) adv() *advModel {
	a := &m.prep().adv
	a.once.Do(func() { a.err = recovered("building the bone model", func() error { return a.build(m) }) })
	return a
}

// boneModel is a side model of some deformers of a model (DEFM records and
// virtual bones) and the index of each in it.
type boneModel struct {
	m   *Model
	idx []int32 // deformer index (DEFM, then virtual) → index in m, −1 if absent
}

// build makes the bone side models.
func (a *advModel) build(m *Model) error {
	a.fits = map[int]*skinFitEntry{}
	nd := deformerCount(m)
	all := slices.Clone(m.file.Deformers)
	if m.file.Bones != nil {
		all = append(all, m.file.Bones.Virtual...)
	}
	need := make([]bool, nd)
	var skinNeed []bool // the skin being marked, or nil
	mark := func(d int) error {
		for n := 0; d >= 0; n++ {
			if d >= nd || n > nd {
				return fmt.Errorf("deformer %d out of range or in a parent cycle", d)
			}
			need[d] = true
			if skinNeed != nil {
				skinNeed[d] = true
			}
			d = all[d].Parent
		}
		return nil
	}
	for i := len(m.file.Deformers); i < nd; i++ {
		if p := all[i].Parent; p >= i {
			return fmt.Errorf("BONE virtual bone %d: parent %d is not earlier", i-len(m.file.Deformers), p)
		}
		if all[i].Kind != p2lrt.RotationDeformer {
			return fmt.Errorf("BONE virtual bone %d is not a rotation deformer", i-len(m.file.Deformers))
		}
	}
	// A bad reference only loses what uses it (checkSkin, checkCollider
	// and BoneTransform report or refuse it); it is remembered for
	// PrepareAdvanced.
	var errs []error
	use := func(what string, d int) {
		if err := mark(d); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		}
	}
	var skinNeeds [][]bool
	if m.file.Skins != nil {
		for si := range m.file.Skins.Meshes {
			sk := &m.file.Skins.Meshes[si]
			skinNeed = make([]bool, nd)
			if sk.Mesh >= 0 && sk.Mesh < len(m.file.Meshes) {
				use(fmt.Sprintf("SKIN entry %d home", si), m.file.Meshes[sk.Mesh].Parent)
			}
			for _, b := range sk.Bones {
				use(fmt.Sprintf("SKIN entry %d bone", si), b)
			}
			skinNeeds = append(skinNeeds, skinNeed)
		}
		skinNeed = nil
	}
	if m.file.Bones != nil {
		for i, ab := range m.file.Bones.Attachable {
			use(fmt.Sprintf("BONE attachable bone %d (%q)", i, ab.ID), ab.Deformer)
		}
	}
	if m.file.Collision != nil {
		for i, c := range m.file.Collision.Colliders {
			if c.Mesh < 0 && c.Deformer >= 0 {
				use(fmt.Sprintf("COLL collider %d (%q)", i, c.ID), c.Deformer)
			}
		}
	}
	a.warn = errors.Join(errs...)
	a.bones = sideModel(m, all, need)
	if err := a.bones.m.prep().err; err != nil {
		return fmt.Errorf("bone frames: %w", err)
	}
	sizes := make([]int, len(skinNeeds))
	for si, sn := range skinNeeds {
		a.skinBones = append(a.skinBones, sideModel(m, all, sn))
		sizes[si] = len(a.skinBones[si].m.file.Deformers)
	}
	a.budget = skinBudgets(m, sizes)
	return nil
}

// sideModel builds the side model of the deformers marked in need (which
// must hold every ancestor of a marked one), with the arcs of those kept,
// so bone frames follow exact links too.
func sideModel(m *Model, all []p2lrt.Deformer, need []bool) boneModel {
	nd := len(all)
	bm := boneModel{m: &Model{file: &p2lrt.File{Parameters: m.file.Parameters, Canvas: m.file.Canvas, Draw: p2lrt.DrawGroup{Part: -1}}}, idx: make([]int32, nd)}
	for d := 0; d < nd; d++ {
		bm.idx[d] = -1
		if !need[d] {
			continue
		}
		rec := all[d]
		if rec.Parent >= 0 {
			rec.Parent = int(bm.idx[rec.Parent])
		}
		rec.Part = -1
		bm.idx[d] = int32(len(bm.m.file.Deformers))
		bm.m.file.Deformers = append(bm.m.file.Deformers, rec)
	}
	if m.file.Bones != nil {
		for _, arc := range m.file.Bones.Arcs {
			if arc.Deformer >= 0 && arc.Deformer < nd && bm.idx[arc.Deformer] >= 0 {
				if bm.m.file.Bones == nil {
					bm.m.file.Bones = &p2lrt.Bones{Header: m.file.Bones.Header}
				}
				arc.Deformer = int(bm.idx[arc.Deformer])
				bm.m.file.Bones.Arcs = append(bm.m.file.Bones.Arcs, arc)
			}
		}
	}
	return bm
}

// skinFit returns the rest carries and weights of SKIN entry si, fitting
// them once per model and exact-links setting when the chunk has none (the
// arcs shape the bone frames the weights are fitted to).
func (a *advModel) skinFit(m *Model, si int, exact bool) (*skinFitEntry, error) {
	key := 2 * si
	if exact {
		key++
	}
	e := a.fitEntry(key)
	e.once.Do(func() {
		e.err = recovered(fmt.Sprintf("fitting SKIN entry %d", si), func() (err error) {
			e.home, err = checkSkin(m, si)
			if err != nil {
				return err
			}
			if si < len(a.budget) && a.budget[si] != nil {
				return a.budget[si]
			}
			fs := a.skinSource(m, si, exact)
			sk := &m.file.Skins.Meshes[si]
			e.rc, err = restCarries(m, sk, e.home, fs)
			if err != nil {
				return err
			}
			if e.w = fileWeights(sk); e.w == nil {
				e.w, err = fitSkin(m, sk, e.home, e.rc, fs)
			}
			return err
		})
	})
	return e, e.err
}

// skinSource returns a bone source on SKIN entry si's own side model.
func (a *advModel) skinSource(m *Model, si int, exact bool) *boneSource {
	bs := newBoneSource(m, &a.skinBones[si])
	bs.setExact(exact)
	return bs
}

// fitEntry returns the fit entry under key, creating it when absent.
func (a *advModel) fitEntry(key int) *skinFitEntry {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fits == nil {
		a.fits = map[int]*skinFitEntry{}
	}
	e := a.fits[key]
	if e == nil {
		e = &skinFitEntry{}
		a.fits[key] = e
	}
	return e
}

// PrepareAdvanced prepares everything the advanced mode needs that can be
// shared: the bone frames and, for skinned meshes the SKIN chunk gives no
// weights for, the fitted weights. Call it off the game loop (at load, in a
// goroutine) so that SetAdvanced later does not fit; it is safe for
// concurrent use and does the work once per model. It reports what is wrong
// with the model's extension chunks, if anything (SetAdvanced then leaves
// the affected feature off).
func (m *Model) PrepareAdvanced() error {
	if m.prep().err != nil {
		return m.prep().err
	}
	a := m.adv()
	errs := []error{a.err, a.warn}
	if a.err == nil && m.file.Skins != nil && len(m.file.Skins.Meshes) > 0 {
		for si := range m.file.Skins.Meshes {
			if _, err := a.skinFit(m, si, false); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if m.file.Simulations != nil {
		for si := range m.file.Simulations.Sims {
			if _, err := newSimRun(m, si, m.file.Collision != nil); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("p2l: advanced mode: %w", err)
	}
	return nil
}

// boneSource evaluates bone frames on a side model and, for fitting, mesh
// positions on a fresh rig of the full model. It belongs to one goroutine.
type boneSource struct {
	m     *Model
	bm    *boneModel
	rig   *Rig // on bm.m
	full  *Rig // on m, created when first needed
	last  []float32
	valid bool
	// exact reports whether the side rig applies arcs (exact links on).
	exact bool
}

func newBoneSource(m *Model, bm *boneModel) *boneSource {
	return &boneSource{m: m, bm: bm, rig: bm.m.NewRig(), last: make([]float32, len(m.file.Parameters))}
}

// setExact turns exact links on or off for the bone frames.
func (bs *boneSource) setExact(on bool) {
	if on == bs.exact {
		return
	}
	bs.exact = on
	bs.valid = false
	if on && bs.bm.m.file.Bones != nil && len(bs.bm.m.file.Bones.Arcs) > 0 {
		bs.rig.adv = &advRig{bits: p2lrt.FeatureExactLinks}
		bs.rig.adv.initArcs(bs.bm.m)
	} else {
		bs.rig.adv = nil
	}
}

// frameAt evaluates the side model's deformers at cur (once per distinct
// cur) and returns deformer d's canvas frame.
func (bs *boneSource) frameAt(cur []float32, d int) Affine {
	if !bs.valid || !slices.Equal(cur, bs.last) {
		copy(bs.last, cur)
		r := bs.rig
		copy(r.current, cur)
		r.clampCurrent()
		// Deformers alone, outside evaluate: recompute every one, and
		// leave nothing for a later evaluation to compare with.
		r.lastIn.valid = false
		r.markMoved()
		r.evalDeformers()
		bs.valid = true
	}
	return bs.rig.deformerFrame(int(bs.bm.idx[d]))
}

// has reports whether deformer d's frame is available.
func (bs *boneSource) has(d int) bool {
	return d >= 0 && d < len(bs.bm.idx) && bs.bm.idx[d] >= 0
}

// meshLocalAt evaluates the full model at cur in Cubism mode and maps the
// mesh's canvas vertices back into its parent's space.
func (bs *boneSource) meshLocalAt(cur []float32, mesh int, out []float64) {
	if bs.full == nil {
		bs.full = bs.m.NewRig()
	}
	copy(bs.full.current, cur)
	bs.full.evaluate()
	v := bs.full.Mesh(mesh).Vertices()
	inv, _ := bs.frameAt(cur, bs.m.file.Meshes[mesh].Parent).Invert()
	for i := 0; i+1 < len(out) && i+1 < len(v); i += 2 {
		out[i], out[i+1] = inv.Apply(float64(v[i]), float64(v[i+1]))
	}
}

// deformerFrame returns deformer d's canvas frame from the last evaluation:
// a rotation deformer's frame, or a warp's four-corner average affine frame
// (unit square to canvas).
func (r *Rig) deformerFrame(d int) Affine {
	f := &r.frames[d]
	if r.p.defs[d].kind == p2lrt.RotationDeformer {
		return Affine{f.m[0], f.m[1], f.m[2], f.m[3], f.m[4], f.m[5]}
	}
	a := &f.aff
	return Affine{A: a[2], B: a[4], C: a[3], D: a[5], TX: a[0] - (a[2]+a[4])/2, TY: a[1] - (a[3]+a[5])/2}
}

// advRig is a rig's advanced-mode state; nil while every feature is off.
type advRig struct {
	bits Features
	bs   *boneSource // bone frames (skinning, virtual bones, colliders)

	// H1: parameters held at their default, pendulum groups skipped.
	held    []int
	heldDef []float32
	skipped []bool // per PHYS group

	// H2: per deformer index of the rig's model, its arc (nil: none).
	arcs []*arcRun

	// H4: per mesh, its skin run (nil: none) and the simulations whose
	// static corrections it carries.
	skins       []*skinRun
	corrections [][]*p2lrt.Simulation

	// H6.
	sims   []*simRun
	simDT  float64 // time the next evaluation advances the simulations by
	stepIn bool    // the next evaluation is an update (interpolated output)
	in     rigSimInputs
}

// Advanced returns the features currently on.
func (r *Rig) Advanced() Features {
	if r.adv == nil {
		return 0
	}
	return r.adv.bits
}

// SetAdvanced switches the advanced features (FeatureSkin,
// FeatureExactLinks, FeatureSim, FeatureCollision) and returns those
// actually on: only available bits, only with their dependencies on
// (collision needs simulation, a chunk depending on another needs it), and
// without features whose data turned out unusable (Model.PrepareAdvanced
// reports why). 0 is the Cubism-equivalent mode, the default; with 0 the
// rig evaluates bit-identically to the same model without extension chunks
// and keeps no advanced state. Every call resets the simulations: the next
// update starts them at rest in the then current pose.
//
// Skin weights missing from the file are fitted by the first call that
// needs them, once per model; call Model.PrepareAdvanced beforehand to keep
// that work off the game loop. If the rig has been evaluated, SetAdvanced
// evaluates it again with the values of that evaluation.
func (r *Rig) SetAdvanced(bits Features) Features {
	if r.err != nil {
		return 0
	}
	m := r.model
	bits = m.resolveFeatures(bits & AllFeatures)
	r.adv = nil
	if bits != 0 {
		r.adv = newAdvRig(r, bits)
		if r.adv.bits == 0 {
			r.adv = nil
		}
	}
	if r.evaluated {
		r.evaluate()
	}
	return r.Advanced()
}

// newAdvRig builds the state for bits, dropping features whose data fails.
func newAdvRig(r *Rig, bits Features) *advRig {
	m := r.model
	a := m.adv()
	ad := &advRig{bits: bits}
	if a.err != nil {
		ad.bits &^= p2lrt.FeatureSkin
	}
	if ad.bits&(p2lrt.FeatureSkin) != 0 || (m.file.Bones != nil && len(m.file.Bones.Virtual) > 0) || ad.bits&p2lrt.FeatureCollision != 0 {
		if a.err == nil {
			ad.bs = newBoneSource(m, &a.bones)
			ad.bs.setExact(ad.bits&p2lrt.FeatureExactLinks != 0)
		}
	}
	if ad.bits&p2lrt.FeatureExactLinks != 0 {
		ad.initArcs(m)
		if ad.arcs == nil {
			ad.bits &^= p2lrt.FeatureExactLinks
		}
	}
	if ad.bits&p2lrt.FeatureSkin != 0 {
		ad.skins = make([]*skinRun, len(m.file.Meshes))
		ok := false
		for si := range m.file.Skins.Meshes {
			exact := ad.bits&p2lrt.FeatureExactLinks != 0
			e, err := a.skinFit(m, si, exact)
			if err != nil {
				continue
			}
			ad.skins[m.file.Skins.Meshes[si].Mesh] = newSkinRun(m, si, e.home, e.rc, e.w, a.skinSource(m, si, exact))
			ok = true
		}
		if !ok {
			ad.skins = nil
			ad.bits &^= p2lrt.FeatureSkin
		}
	}
	if ad.bits&p2lrt.FeatureSim != 0 {
		coll := ad.bits&p2lrt.FeatureCollision != 0
		for si := range m.file.Simulations.Sims {
			run, err := newSimRun(m, si, coll)
			if err != nil {
				continue
			}
			ad.sims = append(ad.sims, run)
		}
		if len(ad.sims) == 0 {
			ad.bits &^= p2lrt.FeatureSim | p2lrt.FeatureCollision
		} else {
			ad.initHeld(m)
		}
		if !coll {
			ad.bits &^= p2lrt.FeatureCollision
		}
	} else {
		ad.bits &^= p2lrt.FeatureCollision
	}
	return ad
}

// initHeld gathers H1's parameters and pendulum groups and H4's static
// corrections of the running simulations.
func (ad *advRig) initHeld(m *Model) {
	add := func(p int) {
		if p >= 0 && p < len(m.file.Parameters) && !slices.Contains(ad.held, p) {
			ad.held = append(ad.held, p)
			ad.heldDef = append(ad.heldDef, clampParam(&m.file.Parameters[p], m.file.Parameters[p].Default))
		}
	}
	ad.skipped = make([]bool, len(m.file.Physics.Groups))
	skip := func(g int) {
		if g >= 0 && g < len(ad.skipped) {
			ad.skipped[g] = true
		}
	}
	for _, p := range m.file.Simulations.Header.Parameters {
		add(p)
	}
	for _, g := range m.file.Simulations.Header.PhysicsGroups {
		skip(g)
	}
	ad.corrections = make([][]*p2lrt.Simulation, len(m.file.Meshes))
	for _, s := range ad.sims {
		for _, p := range s.sim.Parameters {
			add(p)
		}
		for _, g := range s.sim.PhysicsGroups {
			skip(g)
		}
		for ci := range s.sim.Corrections {
			c := &s.sim.Corrections[ci]
			if c.Parameter < 0 || c.Parameter >= len(m.file.Parameters) {
				continue
			}
			for _, cm := range c.Meshes {
				if cm.Mesh >= 0 && cm.Mesh < len(m.file.Meshes) && !slices.Contains(ad.corrections[cm.Mesh], s.sim) {
					ad.corrections[cm.Mesh] = append(ad.corrections[cm.Mesh], s.sim)
				}
			}
		}
	}
}

// holdParameters is hook H1: the simulation's replaced mode parameters take
// their defaults for the whole evaluation.
func (ad *advRig) holdParameters(r *Rig) {
	for i, p := range ad.held {
		r.current[p] = ad.heldDef[i]
	}
}

// meshLocal is hook H4 for mesh i: local holds its positions in the
// parent's space (rest, keyforms, blend shapes), before the parent's
// transform.
func (ad *advRig) meshLocal(r *Rig, i int, local []float64) {
	if ad.skins != nil {
		if s := ad.skins[i]; s != nil {
			s.apply(r.model, r.current, local)
		}
	}
	if ad.corrections != nil {
		for _, sim := range ad.corrections[i] {
			correctionOffsets(sim, i, func(p int) float32 { return r.current[p] }, local)
		}
	}
}

// SimulationState is a rig's live simulation (advanced mode, SIMS and
// COLL, on with FeatureSim): the verbs of PhysicsState for it. Get it with
// Rig.Simulation; its calls do nothing while FeatureSim is off.
type SimulationState struct{ r *Rig }

// Simulation returns the rig's live simulation.
func (r *Rig) Simulation() SimulationState {
	_ = r.model // a nil rig panics here, not at the view's first use
	return SimulationState{r}
}

// Reset makes the next update start every simulation again at rest in the
// then current pose.
func (s SimulationState) Reset() {
	if s.r.adv == nil {
		return
	}
	for _, sim := range s.r.adv.sims {
		sim.reset()
	}
}

// SetWind sets the host's wind for every simulation, an acceleration in
// canvas pixels per second² with y down like the canvas, added to each
// simulation's own wind and scaled by the particles' wind factors. A NaN or
// infinite component is ignored (the call does nothing); finite values are
// clamped to ±MaxSimWind, so that the float32 simulation cannot overflow.
func (s SimulationState) SetWind(x, y float32) {
	if s.r.adv == nil || !finite(x) || !finite(y) {
		return
	}
	x = max(-MaxSimWind, min(MaxSimWind, x))
	y = max(-MaxSimWind, min(MaxSimWind, y))
	for _, sim := range s.r.adv.sims {
		sim.scene.SetWind(x, -y)
	}
}

// MaxSimWind bounds each component of SimulationState.SetWind, in px/s² (a thousand times
// gravity on the default character's scale).
const MaxSimWind = 1e6

// advanceSimulation tells the next evaluation to place and advance the
// simulations by dt seconds (the update path). Without it an evaluation
// only draws them as their last update left them.
func (r *Rig) advanceSimulation(dt float64) {
	if r.adv != nil && len(r.adv.sims) > 0 {
		r.adv.simDT = dt
		r.adv.stepIn = true
	}
}

// simulate is hook H6, after glue.
func (ad *advRig) simulate(r *Rig) {
	if len(ad.sims) == 0 {
		return
	}
	dt, update := ad.simDT, ad.stepIn
	ad.simDT, ad.stepIn = 0, false
	in := &ad.in
	in.r, in.ad = r, ad
	// One simulation after the other, each reading the pose as the ones
	// before it drew it (the reference runtime's order). The simulation
	// runs in float32 seconds, as the reference's updates do.
	for _, s := range ad.sims {
		if update {
			s.update(in, r.model.file.Collision, float32(dt))
		} else {
			s.draw(in)
		}
	}
}

// rigSimInputs gives the simulations the rig's evaluated meshes and
// deformers. It lives in advRig so that passing it as an interface does not
// allocate.
type rigSimInputs struct {
	r   *Rig
	ad  *advRig
	pts [2]float64
}

func (in *rigSimInputs) vertices(mesh int) []float32 {
	c := &in.r.p.meshes[mesh]
	return in.r.verts[in.r.vcur][c.vOff : c.vOff+2*c.nv]
}

func (in *rigSimInputs) deformerPoint(d int, x, y float64) (float64, float64) {
	r := in.r
	if d < len(r.model.file.Deformers) {
		if r.p.defs[d].kind == p2lrt.RotationDeformer {
			// The frame in float32, as the meshes under it are placed
			// (the reference's Transform::apply).
			fx, fy := r.frames[d].apply(float32(x), float32(y))
			return float64(fx), float64(fy)
		}
		in.pts = [2]float64{x, y}
		r.toCanvas(int32(d), in.pts[:])
		return in.pts[0], in.pts[1]
	}
	if in.ad.bs == nil || !in.ad.bs.has(d) {
		return x, y // no bone frames (PrepareAdvanced reports why)
	}
	return in.ad.bs.frameAt(r.current, d).Apply(x, y)
}

// BoneTransform returns attachable bone i's canvas transform in the last
// evaluation: it maps the bone's local space to canvas pixels (y down), so
// an object drawn in bone space follows the bone. Virtual bones are
// evaluated now, at the last evaluation's parameter values. ok is false
// when the rig has not been evaluated (or has failed). i indexes the BONE
// chunk's attachable bones (Model.Bones.Attachable, which holds their
// ids); BoneTransform panics when it is out of range.
func (r *Rig) BoneTransform(i int) (t Affine, ok bool) {
	n := 0
	if r.model.file.Bones != nil {
		n = len(r.model.file.Bones.Attachable)
	}
	checkIndex("bone", i, n)
	if !r.evaluated {
		return Identity, false
	}
	d := r.model.file.Bones.Attachable[i].Deformer
	if d >= 0 && d < len(r.model.file.Deformers) {
		t = r.deformerFrame(d)
	} else {
		bs := r.virtualBones()
		if bs == nil || !bs.has(d) {
			return Identity, false
		}
		t = bs.frameAt(r.current, d)
	}
	if !finiteAffine(t) {
		r.fail(recordFail("BONE", "attachable bone", i, r.model.file.Bones.Attachable[i].ID, "", "transform is not finite; the model's values overflow at this pose"))
		return Identity, false
	}
	return t, true
}

// virtualBones returns the bone source for on-demand virtual bones, made
// when first needed in Cubism mode.
func (r *Rig) virtualBones() *boneSource {
	if r.adv != nil && r.adv.bs != nil {
		return r.adv.bs
	}
	if r.vbones == nil {
		a := r.model.adv()
		if a.err != nil {
			return nil
		}
		r.vbones = newBoneSource(r.model, &a.bones)
	}
	return r.vbones
}
