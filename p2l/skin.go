package p2l

import (
	"fmt"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file applies the SKIN chunk at hook H4 (P2LRT_V2.md): for a skinned
// mesh, in its home's space and before the home's transform, it adds
//
//	LBS(current) − Σ_c w_c · LBS(c)
//
// where LBS blends two bone carries A_b = H⁻¹ · B · B_rest⁻¹ · H_rest per
// vertex and c runs over the key combinations of the skin axes around the
// current values (other parameters at their current values) with the
// baking's multilinear weights. The blend is linear in the carries, so the
// per-frame work is one blended carry per bone and combination, then one
// 2×3 transform per vertex.

// maxFitSamples is the most key combinations the weight fit samples; beyond
// it the fit samples each axis on its own (P2LRT_V2.md: "最多 1024 个，否则
// 逐轴").
const maxFitSamples = 1024

// Bounds of the skins (docs/LIMITS.md). The editor writes at most 16 bones
// and 8 axes per skinned mesh, and never weights (the runtime fits them),
// so real files stay far inside them.
const (
	// maxSkinBones and maxSkinAxes bound one SKIN entry's lists (checked
	// at load, with duplicates: p2lrt).
	maxSkinBones = p2lrt.MaxSkinBones
	maxSkinAxes  = p2lrt.MaxSkinAxes
	// maxFitWork bounds the weight fits of one model, summed over its
	// skins in file order: per skin, samples × (vertices × bone pairs +
	// the model's vertices and deformers, one evaluation per sample).
	// BenchmarkSkinFitAtBound: about a second of CPU at the bound. A skin
	// beyond it stays off.
	maxFitWork = 1 << 27
	// maxFitBytes bounds the memory of one skin's fit (baked positions and
	// bone carries per sample).
	maxFitBytes = 256 << 20
	// maxSkinFrameWork bounds what the skins cost per evaluation, summed in
	// file order: per skin, (2^axes + 1) evaluations of its own bone
	// model's deformers (BenchmarkSkinFrameAtBound: about 20 ms of CPU at
	// the bound). A skin beyond it stays off.
	maxSkinFrameWork = 1 << 16
)

// fitSamples is the number of samples the weight fit of sk takes: every key
// combination, or with more than maxFitSamples the keys of each axis.
func fitSamples(sk *p2lrt.Skin) int {
	total, sum := 1, 0
	for _, ax := range sk.Axes {
		sum += len(ax.Keys)
		if total <= maxFitSamples {
			total *= len(ax.Keys)
		}
	}
	if total <= maxFitSamples {
		return total
	}
	return sum
}

// skinBudgets decides, in file order, which skins fit in the work bounds
// (boneDeformers[si]: the size of skin si's side model):
// the weight fit (for skins without weights) and the cost per evaluation.
// The error of a skin beyond them says which bound and by how much.
func skinBudgets(m *Model, boneDeformers []int) []error {
	if m.file.Skins == nil {
		return nil
	}
	errs := make([]error, len(m.file.Skins.Meshes))
	model := int64(len(m.file.Deformers))
	for i := range m.file.Meshes {
		model += int64(len(m.file.Meshes[i].Positions) / 2)
	}
	var fit, frame int64
	for si := range m.file.Skins.Meshes {
		sk := &m.file.Skins.Meshes[si]
		if len(sk.Axes) > maxSkinAxes || len(sk.Bones) > maxSkinBones || sk.Mesh < 0 || sk.Mesh >= len(m.file.Meshes) {
			continue // checkSkin refuses it
		}
		nd := max(1, boneDeformers[si])
		f := (int64(1)<<len(sk.Axes) + 1) * int64(nd)
		if frame+f > maxSkinFrameWork {
			errs[si] = fmt.Errorf("SKIN entry %d: %d axes over %d bone deformers cost %d deformer evaluations per frame; with the skins before it that exceeds the bound of %d", si, len(sk.Axes), nd, f, maxSkinFrameWork)
			continue
		}
		if len(sk.Weight) == 0 {
			s := int64(fitSamples(sk))
			nv, nb := int64(len(m.file.Meshes[sk.Mesh].Positions)/2), int64(len(sk.Bones))
			w := s * (nv*nb*(nb+1)/2 + model)
			if fit+w > maxFitWork {
				errs[si] = fmt.Errorf("SKIN entry %d: fitting its weights takes %d operations (%d samples × (%d vertices × %d bone pairs + a model evaluation)); with the skins before it that exceeds the bound of %d", si, w, s, nv, nb*(nb+1)/2, maxFitWork)
				continue
			}
			if b := s * (16*nv + 48*nb); b > maxFitBytes {
				errs[si] = fmt.Errorf("SKIN entry %d: fitting its weights needs %d bytes (%d samples × %d vertices), more than %d", si, b, s, nv, maxFitBytes)
				continue
			}
			fit += w
		}
		frame += f
	}
	return errs
}

// frameSource gives canvas frames of deformers (DEFM records and virtual
// bones) and meshes' local positions at arbitrary parameter values. The
// evaluator implements it; the skin code never changes the rig's own pose.
type frameSource interface {
	// frameAt returns deformer d's canvas frame with parameter values cur.
	frameAt(cur []float32, d int) Affine
	// meshLocalAt writes mesh's positions in its parent's space (rest,
	// keyforms and blend shapes; no extension) with values cur into out.
	meshLocalAt(cur []float32, mesh int, out []float64)
}

// skinWeights are one mesh's per-vertex two-bone weights: indices into the
// skin's bone list and the weight of `to`.
type skinWeights struct {
	from, to []int32
	w        []float64
}

// skinRun is one skinned mesh's runtime state.
type skinRun struct {
	skin      *p2lrt.Skin
	home      int // the mesh's parent deformer
	weights   *skinWeights
	restCarry []Affine // per bone: B_rest⁻¹ · H_rest
	carry     []Affine // scratch: A_b(current)
	blend     []Affine // scratch: Σ_c w_c A_b(c)
	combos    comboSet
	vals      []float32   // scratch parameter values
	bs        frameSource // bone frames on the skin's own side model
}

// checkSkin validates skin record si of m and returns its home deformer.
func checkSkin(m *Model, si int) (int, error) {
	sk := &m.file.Skins.Meshes[si]
	fail := func(format string, a ...any) (int, error) {
		return 0, fmt.Errorf("SKIN entry %d: %s", si, fmt.Sprintf(format, a...))
	}
	if sk.Mesh < 0 || sk.Mesh >= len(m.file.Meshes) {
		return fail("mesh %d out of range", sk.Mesh)
	}
	mesh := &m.file.Meshes[sk.Mesh]
	home := mesh.Parent
	if home < 0 || home >= len(m.file.Deformers) || m.file.Deformers[home].Kind != p2lrt.RotationDeformer {
		return fail("mesh %d's parent is not a rotation deformer", sk.Mesh)
	}
	nd := deformerCount(m)
	if len(sk.Bones) == 0 {
		return fail("no bones")
	}
	for i, b := range sk.Bones {
		if b < 0 || b >= nd {
			return fail("bone %d: deformer %d out of range", i, b)
		}
		if b < len(m.file.Deformers) && m.file.Deformers[b].Kind != p2lrt.RotationDeformer {
			return fail("bone %d: deformer %d is not a rotation deformer", i, b)
		}
	}
	for i, ax := range sk.Axes {
		if ax.Parameter < 0 || ax.Parameter >= len(m.file.Parameters) || len(ax.Keys) == 0 {
			return fail("axis %d: bad parameter or no keys", i)
		}
		for k := 1; k < len(ax.Keys); k++ {
			if !(ax.Keys[k] > ax.Keys[k-1]) {
				return fail("axis %d: keys not ascending", i)
			}
		}
	}
	if len(sk.Axes) > maxSkinAxes {
		return fail("%d axes, at most %d", len(sk.Axes), maxSkinAxes)
	}
	if len(sk.Bones) > maxSkinBones {
		return fail("%d bones, at most %d", len(sk.Bones), maxSkinBones)
	}
	nv := len(mesh.Positions) / 2
	if len(sk.Weight) != 0 {
		if len(sk.From) != nv || len(sk.To) != nv || len(sk.Weight) != nv {
			return fail("from/to/weight have %d/%d/%d entries for %d vertices", len(sk.From), len(sk.To), len(sk.Weight), nv)
		}
		for v := 0; v < nv; v++ {
			if int(sk.From[v]) >= len(sk.Bones) || int(sk.To[v]) >= len(sk.Bones) {
				return fail("vertex %d: bone out of range", v)
			}
			if w := sk.Weight[v]; !(w >= 0 && w <= 1) {
				return fail("vertex %d: weight %v outside [0, 1]", v, w)
			}
		}
	}
	return home, nil
}

// fileWeights returns the weights the chunk gives, or nil when it has none.
func fileWeights(sk *p2lrt.Skin) *skinWeights {
	if len(sk.Weight) == 0 {
		return nil
	}
	w := &skinWeights{from: make([]int32, len(sk.Weight)), to: make([]int32, len(sk.Weight)), w: make([]float64, len(sk.Weight))}
	for v := range sk.Weight {
		w.from[v], w.to[v], w.w[v] = int32(sk.From[v]), int32(sk.To[v]), float64(sk.Weight[v])
	}
	return w
}

// defaults returns the model's default parameter values.
func defaults(m *Model) []float32 {
	v := make([]float32, len(m.file.Parameters))
	for i, p := range m.file.Parameters {
		v[i] = p.Default
	}
	return v
}

// restCarries returns B_rest⁻¹ · H_rest per bone, the rest pose being every
// parameter at its default. A singular rest frame (scale 0) cannot carry
// anything: the bone is an error.
func restCarries(m *Model, sk *p2lrt.Skin, home int, fs frameSource) ([]Affine, error) {
	def := defaults(m)
	h := fs.frameAt(def, home)
	out := make([]Affine, len(sk.Bones))
	for i, b := range sk.Bones {
		inv, ok := fs.frameAt(def, b).Invert()
		if !ok {
			return nil, fmt.Errorf("SKIN mesh %d: bone %d has a singular rest frame", sk.Mesh, b)
		}
		out[i] = inv.Mul(h)
	}
	return out, nil
}

// carries writes A_b at values cur for every bone into out; ok is false
// when the home frame is singular there (then no correction applies).
func (s *skinRun) carries(cur []float32, fs frameSource, out []Affine) bool {
	hinv, ok := fs.frameAt(cur, s.home).Invert()
	if !ok {
		return false
	}
	for i, b := range s.skin.Bones {
		out[i] = boneCarry(hinv, fs.frameAt(cur, b), s.restCarry[i])
	}
	return true
}

// apply adds the skin correction at values cur to local (the mesh's x,y
// pairs in the home's space, before the home's transform).
func (s *skinRun) apply(m *Model, cur []float32, local []float64) {
	fs := s.bs
	if !s.carries(cur, fs, s.carry) {
		return
	}
	for i := range s.blend {
		s.blend[i] = Affine{}
	}
	combos := s.combos.compute(s.skin.Axes, func(p int) float32 { return cur[p] })
	copy(s.vals, cur)
	for _, c := range combos {
		for a, ax := range s.skin.Axes {
			s.vals[ax.Parameter] = ax.Keys[c.keys[a]]
		}
		// The combination's carries go into the blend; s.vals differs from
		// cur only on the skin axes, so on a key (one combination of weight
		// 1 whose values are the current ones) the blend is bit-identical
		// to the current carries.
		hinv, ok := fs.frameAt(s.vals, s.home).Invert()
		if !ok {
			return
		}
		for i, b := range s.skin.Bones {
			s.blend[i] = affineAddScaled(s.blend[i], c.weight, boneCarry(hinv, fs.frameAt(s.vals, b), s.restCarry[i]))
		}
	}
	for i := range s.carry {
		s.carry[i] = affineSub(s.carry[i], s.blend[i])
	}
	rest := m.file.Meshes[s.skin.Mesh].Positions
	w := s.weights
	for v := range w.w {
		dx, dy := skinDelta(s.carry, int(w.from[v]), int(w.to[v]), w.w[v], float64(rest[2*v]), float64(rest[2*v+1]))
		local[2*v] += dx
		local[2*v+1] += dy
	}
}

// fitSkin fits per-vertex weights for a skin without any: at every key
// combination of its axes (other parameters at their defaults), or, with
// more than maxFitSamples combinations, at every key of each axis alone, it
// compares where the baking put each vertex with where each bone carries
// its rest position, and keeps the best pair (skinFit.best).
func fitSkin(m *Model, sk *p2lrt.Skin, home int, restCarry []Affine, fs frameSource) (*skinWeights, error) {
	def := defaults(m)
	var samples [][]float32
	total := 1
	for _, ax := range sk.Axes {
		if total > maxFitSamples {
			break
		}
		total *= len(ax.Keys)
	}
	if total <= maxFitSamples {
		idx := make([]int, len(sk.Axes))
		for {
			v := append([]float32(nil), def...)
			for a, ax := range sk.Axes {
				v[ax.Parameter] = ax.Keys[idx[a]]
			}
			samples = append(samples, v)
			a := 0
			for ; a < len(idx); a++ {
				idx[a]++
				if idx[a] < len(sk.Axes[a].Keys) {
					break
				}
				idx[a] = 0
			}
			if a == len(idx) {
				break
			}
		}
	} else {
		for _, ax := range sk.Axes {
			for _, k := range ax.Keys {
				v := append([]float32(nil), def...)
				v[ax.Parameter] = k
				samples = append(samples, v)
			}
		}
	}
	mesh := &m.file.Meshes[sk.Mesh]
	nv := len(mesh.Positions) / 2
	nb := len(sk.Bones)
	// Per sample: baked positions and per bone its carry.
	baked := make([][]float64, len(samples))
	carry := make([][]Affine, len(samples))
	s := skinRun{skin: sk, home: home, restCarry: restCarry}
	for c, v := range samples {
		baked[c] = make([]float64, 2*nv)
		fs.meshLocalAt(v, sk.Mesh, baked[c])
		carry[c] = make([]Affine, nb)
		if !s.carries(v, fs, carry[c]) {
			return nil, fmt.Errorf("SKIN mesh %d: singular home frame at a key combination", sk.Mesh)
		}
	}
	w := &skinWeights{from: make([]int32, nv), to: make([]int32, nv), w: make([]float64, nv)}
	f := skinFit{samples: len(samples), bones: nb, target: make([]float64, 2*len(samples)), moved: make([]float64, 2*len(samples)*nb)}
	for v := 0; v < nv; v++ {
		px, py := float64(mesh.Positions[2*v]), float64(mesh.Positions[2*v+1])
		for c := range samples {
			f.target[2*c], f.target[2*c+1] = baked[c][2*v], baked[c][2*v+1]
			for b := 0; b < nb; b++ {
				f.moved[(c*nb+b)*2], f.moved[(c*nb+b)*2+1] = carry[c][b].Apply(px, py)
			}
		}
		from, to, ww := f.best()
		if math.IsNaN(ww) {
			from, to, ww = 0, 0, 0
		}
		w.from[v], w.to[v], w.w[v] = int32(from), int32(to), ww
	}
	return w, nil
}

// newSkinRun prepares skin si with the given weights.
func newSkinRun(m *Model, si, home int, restCarry []Affine, w *skinWeights, fs frameSource) *skinRun {
	sk := &m.file.Skins.Meshes[si]
	nb := len(sk.Bones)
	return &skinRun{
		skin: sk, home: home, weights: w, restCarry: restCarry,
		carry: make([]Affine, nb), blend: make([]Affine, nb),
		vals: make([]float32, len(m.file.Parameters)), bs: fs,
	}
}
