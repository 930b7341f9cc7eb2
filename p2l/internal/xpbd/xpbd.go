// Package xpbd is the vertex simulation of the advanced mode (the SIMS and
// COLL chunks of P2LRT_V2.md): an extended position-based dynamics solver
// over flat particle arrays, with the "small steps" scheme of Macklin et al.
// (2019): every fixed step is split into substeps, each substep predicts
// positions from velocities, projects every constraint once in a fixed order
// with its Lagrange multiplier starting from zero, resolves collisions and
// derives velocities from the positional change.
//
// The world is y-up (canvas x, −canvas y), lengths are canvas pixels, times
// seconds. The package knows nothing of meshes: the caller (p2l's advanced
// mode) feeds per-frame target, anchor and collider positions and reads
// particle positions back. Everything runs single-threaded in a fixed order
// and allocates only in NewScene, so identical inputs give bit-identical
// trajectories.
package xpbd

import (
	"fmt"
	"math"
)

// Absent is the value of an index array entry meaning "none" (the file's
// 0xFFFFFFFF).
const Absent = math.MaxUint32

// Spec is the constant description of a scene: one SIMS simulation with its
// constraint arrays, indices already being particle indices. A negative
// compliance means the constraint (or, for stretch, that direction of it)
// is absent; zero is a hard constraint.
type Spec struct {
	Particles int
	Fps       float64
	Substeps  int
	// Gravity and Wind are accelerations in px/s², y up. Wind is scaled per
	// particle by WindFactor.
	GravityX, GravityY float64
	WindX, WindY       float64
	// PinCompliance applies to every pinned particle (PinWeight > 0); the
	// effective compliance is PinCompliance/PinWeight.
	PinCompliance float64

	// Per particle (len Particles).
	InvMass, Damping, WindFactor, PinWeight  []float64
	GoalCompliance, GoalOffsetX, GoalOffsetY []float64

	// Stretch: keeps |a−b| at Rest; Compliance when stretched,
	// CompressionCompliance when compressed.
	StretchA, StretchB                      []uint32
	Rest, Compliance, CompressionCompliance []float64
	// Area: keeps the signed area of triangle (A, B, C) at its initial value.
	TriA, TriB, TriC []uint32
	AreaCompliance   []float64
	// Bending: BendT1/BendT2 are triangle indices (into TriA...) of two
	// triangles sharing an edge; the distance between their two unshared
	// vertices is kept at its initial value.
	BendT1, BendT2 []uint32
	BendCompliance []float64
	// Welds pull particle pairs together; WeightA/WeightB scale how much each
	// side moves.
	WeldA, WeldB                     []uint32
	WeightA, WeightB, WeldCompliance []float64
	// Long-range attachments: particle LongParticle stays within
	// MaxDistance of particle LongRoot (the root does not move for it).
	LongParticle, LongRoot []uint32
	MaxDistance            []float64

	// Colliders the scene avoids (indices into the caller's collider list,
	// which Step receives as shapes).
	Colliders int
}

// Shape is one collider's placement for a step: a circle at A (Capsule
// false) or a capsule from A to B whose radius goes linearly from RadiusA
// to RadiusB, y up. Friction in [0, 1] is the share of sliding cancelled on
// contact.
type Shape struct {
	Capsule          bool
	AX, AY, BX, BY   float64
	RadiusA, RadiusB float64
	Friction         float64
}

// Scene is the running state of one simulation.
type Scene struct {
	spec Spec
	h    float64 // substep length
	step float64 // step length

	pos, prev, vel []float64 // x,y pairs
	// Rest values measured when the scene starts.
	areaRest, bendRest []float64
	bendP, bendQ       []uint32 // unshared vertices of each bending pair (Absent: degenerate)

	// The last two step results, for output interpolation.
	last, before []float64
	accum        float64
	steps        int // steps taken since start (saturating)
	started      bool

	// Inputs of the previous and current frame: targets (x,y per particle),
	// anchors (x,y per particle) and collider shapes.
	tgt0, tgt1 []float64
	anc0, anc1 []float64
	col0, col1 []Shape
	colNow     []Shape
	tgtNow     []float64
	ancNow     []float64

	hostWindX, hostWindY float64
}

// MaxStepsPerUpdate is the most fixed steps one Advance takes; the time
// beyond them is dropped, as the spec requires for every time-step
// extension.
const MaxStepsPerUpdate = 4

// NewScene checks spec and returns a scene that starts on its first Advance.
func NewScene(spec Spec) (*Scene, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	n := spec.Particles
	s := &Scene{spec: spec}
	s.step = 1 / spec.Fps
	s.h = s.step / float64(spec.Substeps)
	s.pos = make([]float64, 2*n)
	s.prev = make([]float64, 2*n)
	s.vel = make([]float64, 2*n)
	s.last = make([]float64, 2*n)
	s.before = make([]float64, 2*n)
	s.tgt0 = make([]float64, 2*n)
	s.tgt1 = make([]float64, 2*n)
	s.anc0 = make([]float64, 2*n)
	s.anc1 = make([]float64, 2*n)
	s.tgtNow = make([]float64, 2*n)
	s.ancNow = make([]float64, 2*n)
	s.col0 = make([]Shape, spec.Colliders)
	s.col1 = make([]Shape, spec.Colliders)
	s.colNow = make([]Shape, spec.Colliders)
	s.areaRest = make([]float64, len(spec.TriA))
	s.bendRest = make([]float64, len(spec.BendT1))
	s.bendP = make([]uint32, len(spec.BendT1))
	s.bendQ = make([]uint32, len(spec.BendT1))
	for i := range spec.BendT1 {
		s.bendP[i], s.bendQ[i] = s.unshared(spec.BendT1[i], spec.BendT2[i])
	}
	return s, nil
}

// unshared returns the vertex of triangle t1 not in t2 and the vertex of t2
// not in t1, or Absent twice when the triangles do not share exactly one
// edge (then the bending constraint is absent).
func (s *Scene) unshared(t1, t2 uint32) (uint32, uint32) {
	a := [3]uint32{s.spec.TriA[t1], s.spec.TriB[t1], s.spec.TriC[t1]}
	b := [3]uint32{s.spec.TriA[t2], s.spec.TriB[t2], s.spec.TriC[t2]}
	in := func(v uint32, t [3]uint32) bool { return v == t[0] || v == t[1] || v == t[2] }
	p, q := uint32(Absent), uint32(Absent)
	np, nq := 0, 0
	for _, v := range a {
		if !in(v, b) {
			p, np = v, np+1
		}
	}
	for _, v := range b {
		if !in(v, a) {
			q, nq = v, nq+1
		}
	}
	if np != 1 || nq != 1 {
		return Absent, Absent
	}
	return p, q
}

func (spec *Spec) check() error {
	n := spec.Particles
	if n < 0 {
		return fmt.Errorf("xpbd: negative particle count %d", n)
	}
	if !(spec.Fps > 0) || math.IsInf(spec.Fps, 0) {
		return fmt.Errorf("xpbd: fps %v is not a positive finite number", spec.Fps)
	}
	if spec.Substeps < 1 || spec.Substeps > 1024 {
		return fmt.Errorf("xpbd: substeps %d outside 1..1024", spec.Substeps)
	}
	if spec.Colliders < 0 {
		return fmt.Errorf("xpbd: negative collider count")
	}
	for _, v := range []float64{spec.GravityX, spec.GravityY, spec.WindX, spec.WindY, spec.PinCompliance} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("xpbd: non-finite scene setting %v", v)
		}
	}
	perParticle := map[string][]float64{
		"invMass": spec.InvMass, "damping": spec.Damping, "windFactor": spec.WindFactor,
		"pinWeight": spec.PinWeight, "goalCompliance": spec.GoalCompliance,
		"goalOffsetX": spec.GoalOffsetX, "goalOffsetY": spec.GoalOffsetY,
	}
	for _, name := range []string{"invMass", "damping", "windFactor", "pinWeight", "goalCompliance", "goalOffsetX", "goalOffsetY"} {
		a := perParticle[name]
		if len(a) != n {
			return fmt.Errorf("xpbd: %s has %d entries for %d particles", name, len(a), n)
		}
		if err := finite(name, a); err != nil {
			return err
		}
	}
	for i, m := range spec.InvMass {
		if m < 0 {
			return fmt.Errorf("xpbd: invMass[%d] = %v is negative", i, m)
		}
	}
	type group struct {
		name string
		idx  [][]uint32
		vals [][]float64
		max  int // index bound
	}
	groups := []group{
		{"stretch", [][]uint32{spec.StretchA, spec.StretchB}, [][]float64{spec.Rest, spec.Compliance, spec.CompressionCompliance}, n},
		{"area", [][]uint32{spec.TriA, spec.TriB, spec.TriC}, [][]float64{spec.AreaCompliance}, n},
		{"bend", [][]uint32{spec.BendT1, spec.BendT2}, [][]float64{spec.BendCompliance}, len(spec.TriA)},
		{"weld", [][]uint32{spec.WeldA, spec.WeldB}, [][]float64{spec.WeightA, spec.WeightB, spec.WeldCompliance}, n},
		{"long-range", [][]uint32{spec.LongParticle, spec.LongRoot}, [][]float64{spec.MaxDistance}, n},
	}
	for _, g := range groups {
		m := len(g.idx[0])
		for _, a := range g.idx {
			if len(a) != m {
				return fmt.Errorf("xpbd: %s arrays have different lengths", g.name)
			}
			for j, v := range a {
				if int64(v) >= int64(g.max) {
					return fmt.Errorf("xpbd: %s constraint %d refers to %d of %d", g.name, j, v, g.max)
				}
			}
		}
		for _, a := range g.vals {
			if len(a) != m {
				return fmt.Errorf("xpbd: %s arrays have different lengths", g.name)
			}
			if err := finite(g.name, a); err != nil {
				return err
			}
		}
	}
	return nil
}

func finite(name string, a []float64) error {
	for i, v := range a {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("xpbd: %s[%d] is not finite", name, i)
		}
	}
	return nil
}

// Particles returns the particle count.
func (s *Scene) Particles() int { return s.spec.Particles }

// Started reports whether the scene has been placed at rest (by the first
// SetInputs after NewScene or Reset).
func (s *Scene) Started() bool { return s.started }

// StepsTaken returns the number of fixed steps taken since the start.
func (s *Scene) StepsTaken() int { return s.steps }

// Reset makes the next SetInputs start the scene again at rest.
func (s *Scene) Reset() {
	s.started = false
	s.accum = 0
	s.steps = 0
}

// SetInputs gives the scene this frame's targets (x,y per particle: where
// the evaluated pose puts each particle), anchors (x,y per particle: where
// each pinned particle is held; a particle's own target when it follows
// itself) and collider shapes, all y up. The slices are copied.
//
// The first call after NewScene or Reset places every particle at rest on
// its target and measures the rest areas and bending distances there; the
// frame before it counts as identical.
func (s *Scene) SetInputs(targets, anchors []float64, colliders []Shape) {
	copy(s.tgt0, s.tgt1)
	copy(s.anc0, s.anc1)
	copy(s.col0, s.col1)
	copy(s.tgt1, targets)
	copy(s.anc1, anchors)
	copy(s.col1, colliders)
	if s.started {
		return
	}
	s.started = true
	copy(s.tgt0, s.tgt1)
	copy(s.anc0, s.anc1)
	copy(s.col0, s.col1)
	copy(s.pos, s.tgt1)
	for i := 0; i < s.spec.Particles; i++ {
		if s.spec.InvMass[i] == 0 {
			s.pos[2*i], s.pos[2*i+1] = s.kinematic(i, s.tgt1, s.anc1)
		}
	}
	clear(s.vel)
	copy(s.prev, s.pos)
	copy(s.last, s.pos)
	copy(s.before, s.pos)
	for i := range s.areaRest {
		s.areaRest[i] = s.area(s.spec.TriA[i], s.spec.TriB[i], s.spec.TriC[i])
	}
	for i := range s.bendRest {
		if p := s.bendP[i]; p != Absent {
			s.bendRest[i] = dist(s.pos, p, s.bendQ[i])
		}
	}
}

// kinematic returns where a particle of zero inverse mass is held: its
// anchor when pinned (and pins exist), else its target.
func (s *Scene) kinematic(i int, tgt, anc []float64) (float64, float64) {
	if s.spec.PinWeight[i] > 0 && s.spec.PinCompliance >= 0 {
		return anc[2*i], anc[2*i+1]
	}
	return tgt[2*i], tgt[2*i+1]
}

// Advance runs the fixed steps that dt seconds make up, at most
// MaxStepsPerUpdate, and returns how many it ran. When more steps are due,
// the oldest time is dropped: the steps run are the last ones of the frame,
// so after a hitch the scene continues from the present inputs. Within the
// frame, targets, anchors and colliders move linearly from the previous
// SetInputs to the last one, and each step sees them at its end time.
func (s *Scene) Advance(dt float64) int {
	if !s.started || !(dt > 0) || math.IsInf(dt, 0) {
		return 0
	}
	start := s.accum
	total := math.Floor((start + dt) / s.step)
	n := MaxStepsPerUpdate
	if total < MaxStepsPerUpdate {
		n = int(total)
	}
	skip := total - float64(n) // steps dropped, the oldest ones
	for k := 1; k <= n; k++ {
		s.stepOnce(s.frameFraction(start, dt, skip+float64(k)))
	}
	// The fractional remainder stays for the output interpolation.
	s.accum = start + dt - total*s.step
	if !(s.accum >= 0) { // rounding, or dt too large for the subtraction
		s.accum = 0
	} else if s.accum >= s.step {
		s.accum = math.Nextafter(s.step, 0)
	}
	return n
}

// frameFraction is where, between the previous and the current inputs, the
// end of step n (1-based) of this frame lies. The accumulator held `start`
// seconds before the frame, so step n ends step*n − start seconds into the
// frame's dt.
func (s *Scene) frameFraction(start, dt, n float64) float64 {
	f := (s.step*n - start) / dt
	if f > 1 {
		f = 1
	}
	if f < 0 {
		f = 0
	}
	return f
}

// Alpha returns the interpolation factor between the last two steps that
// the output uses: the time left in the accumulator over the step.
func (s *Scene) Alpha() float64 { return s.accum / s.step }

// Interpolated writes the particle positions interpolated between the last
// two steps into out (x,y per particle, y up).
func (s *Scene) Interpolated(out []float64) {
	// Before two steps exist, before holds the rest pose, so the same
	// formula applies from the first step on.
	a := s.Alpha()
	for i := range out[:2*s.spec.Particles] {
		out[i] = s.before[i] + (s.last[i]-s.before[i])*a
	}
}

// Last writes the particle positions of the last step into out.
func (s *Scene) Last(out []float64) { copy(out, s.last) }
