package p2l

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l/internal/libm"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Evaluation is the rule set a model's deformation and drawing state are
// evaluated with. It is a property of the Model, recorded in its META
// chunk under MetaEvaluation, so that it survives Write and Load. It is
// separate from Playback (the animation arithmetic): p2l/cubism.Import
// gives PSD2Live models Cubism playback, yet they stay PSD2Live rigs.
type Evaluation uint8

const (
	// EvaluationReference evaluates as PSD2Live's reference runtime
	// (docs/EVALUATION.md), bit for bit. Every model without the META key
	// evaluates this way.
	EvaluationReference Evaluation = iota
	// EvaluationCubism evaluates as the Cubism Core does, as far as its
	// public descriptions and moc3-rs tell (docs/CUBISM.md, "Evaluation:
	// the Core's rules and ours"): keyforms blend without snapping to keys,
	// an object whose parameters leave its keys' range is disabled with
	// everything under it, multiply and screen colours inherit through
	// deformers, a rotation under a warp turns with the warp's downward
	// probe, draw orders round to the nearest integer. p2l/cubism.ReadMoc
	// marks the models it lowers from .moc3 with it.
	EvaluationCubism
)

// MetaEvaluation is the META key recording a model's Evaluation: the value
// "cubism" means EvaluationCubism; absent (or any other value) means
// EvaluationReference.
const MetaEvaluation = "evaluation"

// MetaKeyEpsilons is the META key of a Cubism-evaluated model giving, per
// parameter in PARM order, how far (in the parameter's units) a value may
// lie outside an object's keys before the object is disabled: decimal
// numbers separated by commas (the Core derives it from the parameter's
// decimal places, 10^−decimals, as moc3-rs does). Parameters beyond the
// list, and a list that does not parse, use 0.
const MetaKeyEpsilons = "cubism.key-epsilons"

// MetaDrawOrderRanges is the META key of a Cubism-evaluated model giving
// each draw group's range of draw orders, the groups in tree order (a
// group before its children, children in order): "min:max" entries
// separated by commas. The Core clamps a group's rounded draw orders to its
// draw order group's minimum and maximum before sorting (moc3-rs
// sort_render_order). Groups beyond the list, and entries that do not
// parse, are not clamped.
const MetaDrawOrderRanges = "cubism.draw-order-ranges"

// String returns "reference" or "cubism", the value recorded under
// MetaEvaluation.
func (e Evaluation) String() string {
	if e == EvaluationCubism {
		return "cubism"
	}
	return "reference"
}

// Evaluation returns the model's evaluation rules (MetaEvaluation).
func (m *Model) Evaluation() Evaluation {
	if v, ok := m.MetaValue(MetaEvaluation); ok && v == EvaluationCubism.String() {
		return EvaluationCubism
	}
	return EvaluationReference
}

// CullsMasks reports whether a mesh with MeshCulling drops its back faces
// where it masks other meshes too, as Cubism's renderers do (they draw a
// mask mesh with its own culling flag): true for models evaluated as
// Cubism. The .p2lrt rule never culls masks (docs/RENDERING.md, step 4).
func (m *Model) CullsMasks() bool { return m.Evaluation() == EvaluationCubism }

// UnitesMasks reports whether the coverage of several mask meshes (or of
// overlapping triangles) is their union, 1 − ∏(1 − α) of their texture
// alphas, as Cubism's renderers compose a mask buffer (each mask mesh
// multiplies it by 1 − α): true for models evaluated as Cubism. The .p2lrt
// rule takes the maximum (docs/RENDERING.md, step 7); the two differ only
// where masks with partial alpha overlap.
func (m *Model) UnitesMasks() bool { return m.Evaluation() == EvaluationCubism }

// WithEvaluation returns a model with m's records whose META records e,
// replacing any earlier MetaEvaluation entry; m is not changed.
func (m *Model) WithEvaluation(e Evaluation) *Model {
	c := m.clone()
	meta := slices.DeleteFunc(slices.Clone(c.file.Meta), func(x p2lrt.MetaEntry) bool { return x.Key == MetaEvaluation })
	if e == EvaluationCubism {
		meta = append(meta, p2lrt.MetaEntry{Key: MetaEvaluation, Value: e.String()})
	}
	if len(meta) == 0 {
		meta = nil
	}
	c.file.Meta = meta
	return c
}

// keyEpsilons parses MetaKeyEpsilons into one value per parameter (0 where
// absent or unreadable; negative and non-finite values count as 0).
func keyEpsilons(m *Model) []float32 {
	eps := make([]float32, len(m.file.Parameters))
	v, ok := m.MetaValue(MetaKeyEpsilons)
	if !ok {
		return eps
	}
	for i, f := range strings.Split(v, ",") {
		if i >= len(eps) {
			break
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 32)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			continue
		}
		eps[i] = float32(x)
	}
	return eps
}

// drawOrderRanges parses MetaDrawOrderRanges: per group in tree order its
// [min, max], ±MaxFloat64 (no clamp) where absent or unreadable.
func drawOrderRanges(m *Model) [][2]float64 {
	v, ok := m.MetaValue(MetaDrawOrderRanges)
	if !ok {
		return nil
	}
	var out [][2]float64
	for _, f := range strings.Split(v, ",") {
		r := [2]float64{-math.MaxFloat64, math.MaxFloat64}
		if lo, hi, ok := strings.Cut(strings.TrimSpace(f), ":"); ok {
			a, errA := strconv.ParseFloat(lo, 64)
			b, errB := strconv.ParseFloat(hi, 64)
			if errA == nil && errB == nil && a <= b {
				r = [2]float64{a, b}
			}
		}
		out = append(out, r)
	}
	return out
}

// keyRange is one axis of a Cubism object's keyform grid, as a range test:
// the object is disabled when its parameter lies outside
// [lo − eps, hi + eps) (moc3-rs key_table_is_outside: below the first key
// by eps or more, or at or above the last key plus eps), and, for a single
// key, when it is eps or more away from it.
type keyRange struct {
	param  int32
	lo, hi float32 // first key − eps, last key + eps
	single bool
}

// outside reports whether v leaves the range.
func (k keyRange) outside(v float32) bool {
	if k.single {
		return v <= k.lo || v >= k.hi
	}
	return v < k.lo || v >= k.hi
}

// appendKeyRanges appends the range tests of grid g to out.
func appendKeyRanges(out []keyRange, g *cgrid, eps []float32) []keyRange {
	for a, p := range g.params {
		keys := g.keys[a]
		e := eps[p]
		out = append(out, keyRange{param: p, lo: keys[0] - e, hi: keys[len(keys)-1] + e, single: len(keys) == 1})
	}
	return out
}

// inRange reports whether every range test passes at cur.
func inRange(ks []keyRange, cur []float32) bool {
	for _, k := range ks {
		if k.outside(cur[k.param]) {
			return false
		}
	}
	return true
}

// cubismColor composes a parent's accumulated multiply and screen colours
// pm, ps with a child's own cm, cs into m, s (moc3-rs BlendColor::blend):
// multiplies multiply, screens combine as p + c − p·c. The colours are
// float64; m and s may be float32 (a mesh's, rounded once from them).
func cubismColor[T float32 | float64](pm, ps, cm, cs *[3]float64, m, s *[3]T) {
	for k := range 3 {
		m[k] = T(pm[k] * cm[k])
		s[k] = T(ps[k] + cs[k] - ps[k]*cs[k])
	}
}

// evalEnabled computes, for Cubism evaluation, which parts and deformers are
// enabled (moc3-rs Puppet::resolve_enabled): a part when all its keyform
// axes are within range and its parent part is enabled; a deformer when the
// file enables it, its axes are within range, and its part and parent
// deformer are enabled. Parts are visited parents first.
func (r *Rig) evalEnabled() {
	p := r.p
	c := &p.cub
	for _, i := range c.partOrder {
		on := inRange(c.partRanges[i], r.current)
		// A parent in a cycle of parts (not deeper up) is not read.
		if pp := p.partParent[i]; pp >= 0 && on && c.partDepth[pp] < c.partDepth[i] {
			on = r.partOn[pp]
		}
		r.partOn[i] = on
	}
	for i := range p.defs {
		on := c.defOn[i] && inRange(c.defRanges[i], r.current)
		if pt := c.defPart[i]; on && pt >= 0 {
			on = r.partOn[pt]
		}
		if pd := p.defs[i].parent; on && pd >= 0 {
			on = r.defOn[pd]
		}
		r.defOn[i] = on
	}
}

// meshEnabled is the Cubism visibility of mesh i: the file enables it, its
// keyform axes are within range, and its part and parent deformer are
// enabled (moc3-rs resolve_enabled). A disabled mesh is not drawn.
func (r *Rig) meshEnabled(i int) bool {
	p := r.p
	c := &p.cub
	if !c.meshOn[i] || !inRange(c.meshRanges[i], r.current) {
		return false
	}
	if pt := p.meshPart[i]; pt >= 0 && !r.partOn[pt] {
		return false
	}
	if pd := p.meshes[i].parent; pd >= 0 && !r.defOn[pd] {
		return false
	}
	return true
}

// inheritColors writes into mul and scr an object's own multiply and
// screen colours (pr) composed with those its parent deformer accumulated
// (−1: none), for Cubism evaluation. Through pointers: [3]float64 arrays
// returned by value go through memory, and this runs for every mesh and
// deformer at every evaluation.
func inheritColors[T float32 | float64](r *Rig, pr *props, parent int32, mul, scr *[3]T) {
	if parent < 0 {
		for k := range 3 {
			mul[k], scr[k] = T(pr.mul[k]), T(pr.scr[k])
		}
		return
	}
	cubismColor(&r.defMul[parent], &r.defScr[parent], &pr.mul, &pr.scr, mul, scr)
}

// cubismTurn is the angle a warp parent adds to a child rotation whose
// origin (x, y) in the warp's unit square maps to (ox, oy) on the canvas
// (moc3-rs calculate_rotation_deformer_angle with base scale factor 0.1):
// the angle from the probe's direction (0, −1) to the mapped direction of
// the probe (x, y − 0.1), atan2 + 90° (the moc's space and the canvas are
// both y down: the reference's rule). When the mapped direction is zero or
// not finite, the probe shrinks tenfold (10 tries), each try also probing
// the opposite way (x, y + step), whose angle from (0, 1) is atan2 − 90°;
// nothing usable gives 0 (the reference turns a collapsed warp by 90°).
func (r *Rig) cubismTurn(parent int32, x, y, ox, oy float32) float32 {
	step := float32(0.1)
	for range 10 {
		for _, sign := range [2]float32{-1, 1} {
			pt := [2]float32{x, y + sign*step}
			r.mapPoints(parent, pt[:], pt[:], r.defPlace)
			dx, dy := pt[0]-ox, pt[1]-oy
			if finite(dx) && finite(dy) && (dx != 0 || dy != 0) {
				return float32(libm.Atan2f(dy, dx)*degsPerRad) - 90*sign
			}
		}
		step *= 0.1
	}
	return 0
}

// initialHostPartOpacity sets op (one per part) to the host part opacities
// a new rig starts with: 1, except, for Cubism evaluation, 0 for a part the
// file stores not visible and the pose does not drive. The Core seeds its
// part opacity array from the parts' visible flags (moc3-rs
// framedata_for_puppet: 1 when visible, else 0) and the framework's pose
// then writes the opacity of every part of its groups (CubismPose::Reset),
// so a pose part starts as the pose says; p2l keeps the pose's share
// apart (poseState) and multiplies it in.
func initialHostPartOpacity(m *Model, op []float32) {
	for i := range op {
		op[i] = 1
	}
	if m.Evaluation() != EvaluationCubism {
		return
	}
	inPose := make([]bool, len(op))
	if m.file.Pose != nil {
		mark := func(i int) {
			if i >= 0 && i < len(inPose) {
				inPose[i] = true
			}
		}
		for _, g := range m.file.Pose.Groups {
			for _, e := range g.Entries {
				mark(e.Part)
				for _, l := range e.Linked {
					mark(l)
				}
			}
		}
	}
	for i := range op {
		if i < len(m.file.Parts) && m.file.Parts[i].Flags&p2lrt.PartVisible == 0 && !inPose[i] {
			op[i] = 0
		}
	}
}
