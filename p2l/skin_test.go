package p2l

import (
	"fmt"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// armFrames is a frame source for a two-segment arm: deformer 0, the upper
// arm and the mesh's home, sits at (50, 40) rotated by 10°; deformer 1, the
// forearm, is the elbow 10 px along the upper arm, bent by parameter 0 in
// degrees. Mesh 0's baked positions are the two-bone blend of truth at the
// keys of the skin axis and the chord (linear interpolation) between them,
// as the baking stores keyforms.
type armFrames struct {
	keys  []float32
	truth skinWeights
	rest  []float32
}

func (a *armFrames) frameAt(cur []float32, d int) Affine {
	upper := rot(50, 40, 10)
	if d == 0 {
		return upper
	}
	return upper.Mul(rot(10, 0, float64(cur[0])))
}

// lbsAt is the exact two-bone blend at elbow angle deg, in home space.
func (a *armFrames) lbsAt(deg float32, out []float64) {
	h := a.frameAt([]float32{deg}, 0)
	hinv, _ := h.Invert()
	def := []float32{0}
	var carry [2]Affine
	for b := 0; b < 2; b++ {
		binv, _ := a.frameAt(def, b).Invert()
		carry[b] = boneCarry(hinv, a.frameAt([]float32{deg}, b), binv.Mul(a.frameAt(def, 0)))
	}
	for v := range a.truth.w {
		px, py := float64(a.rest[2*v]), float64(a.rest[2*v+1])
		fx, fy := carry[a.truth.from[v]].Apply(px, py)
		tx, ty := carry[a.truth.to[v]].Apply(px, py)
		w := a.truth.w[v]
		out[2*v], out[2*v+1] = (1-w)*fx+w*tx, (1-w)*fy+w*ty
	}
}

func (a *armFrames) meshLocalAt(cur []float32, mesh int, out []float64) {
	k, t := locate(a.keys, cur[0])
	a.lbsAt(a.keys[k], out)
	if t == 0 {
		return
	}
	next := make([]float64, len(out))
	a.lbsAt(a.keys[k+1], next)
	for i := range out {
		out[i] += (next[i] - out[i]) * t
	}
}

func armModel() (*Model, *armFrames) {
	rest := []float32{0, 0, 6, -2, 9, 2, 10, -2, 11, 2, 14, -2, 20, 0}
	truth := skinWeights{
		from: []int32{0, 0, 0, 0, 0, 1, 1},
		to:   []int32{0, 0, 1, 1, 1, 1, 1},
		w:    []float64{0, 0, 0.25, 0.5, 0.75, 0, 0},
	}
	keys := []float32{0, 45, 90}
	m := &Model{file: &p2lrt.File{
		Parameters: []p2lrt.Parameter{{ID: "ParamElbow", Min: 0, Max: 90}},
		Deformers: []p2lrt.Deformer{
			{Kind: p2lrt.RotationDeformer, ID: "upper", Parent: -1, Rotation: &p2lrt.Rotation{}},
			{Kind: p2lrt.RotationDeformer, ID: "forearm", Parent: 0, Rotation: &p2lrt.Rotation{}},
		},
		Meshes: []p2lrt.Mesh{{ID: "arm", Parent: 0, Positions: rest}},
		Skins: &p2lrt.Skins{Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureSkin, Hooks: p2lrt.HookMesh}, Meshes: []p2lrt.Skin{{
			Mesh: 0, Axes: []p2lrt.Axis{{Parameter: 0, Keys: keys}}, Bones: []int{0, 1},
		}}},
	}}
	return m, &armFrames{keys: keys, truth: truth, rest: rest}
}

func TestSkinFitAndArmOnArc(t *testing.T) {
	m, fs := armModel()
	home, err := checkSkin(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	sk := &m.file.Skins.Meshes[0]
	rc, err := restCarries(m, sk, home, fs)
	if err != nil {
		t.Fatal(err)
	}
	w, err := fitSkin(m, sk, home, rc, fs)
	if err != nil {
		t.Fatal(err)
	}
	for v := range fs.truth.w {
		tf, tt, tw := fs.truth.from[v], fs.truth.to[v], fs.truth.w[v]
		if tw == 0 {
			tt = tf // a rigid vertex fits as one bone
		}
		if w.from[v] != tf || w.to[v] != tt || math.Abs(w.w[v]-tw) > 1e-9 {
			t.Errorf("vertex %d fitted (%d, %d, %v), want (%d, %d, %v)", v, w.from[v], w.to[v], w.w[v], tf, tt, tw)
		}
	}
	run := newSkinRun(m, 0, home, rc, w, fs)
	local := make([]float64, 14)
	exact := make([]float64, 14)
	// Between keys the baked (chord) position plus the correction is the
	// exact blend: the wrist (vertex 6, rigid on the forearm) lies on the
	// circle of radius 10 around the elbow (10, 0) of home space.
	for _, v := range []float32{10, 22.5, 30, 60, 77} {
		cur := []float32{v}
		fs.meshLocalAt(cur, 0, local)
		chordR := math.Hypot(local[12]-10, local[13])
		run.apply(m, cur, local)
		fs.lbsAt(v, exact)
		for i := range local {
			if math.Abs(local[i]-exact[i]) > 1e-9 {
				t.Fatalf("elbow %v: coordinate %d = %v, want %v", v, i, local[i], exact[i])
			}
		}
		if r := math.Hypot(local[12]-10, local[13]); math.Abs(r-10) > 1e-9 || chordR > 10-1e-6 {
			t.Fatalf("elbow %v: wrist %v from the elbow (chord %v), want on the arc (10)", v, r, chordR)
		}
	}
	// At every key the correction is exactly zero.
	for _, k := range fs.keys {
		cur := []float32{k}
		fs.meshLocalAt(cur, 0, local)
		before := append([]float64(nil), local...)
		run.apply(m, cur, local)
		for i := range local {
			if local[i] != before[i] {
				t.Fatalf("key %v: coordinate %d moved by %v, want exactly 0", k, i, local[i]-before[i])
			}
		}
	}
	if allocs := testing.AllocsPerRun(20, func() { run.apply(m, []float32{30}, local) }); allocs > 1 {
		// The fake source allocates its []float32 argument; the run itself
		// must not.
		t.Errorf("apply allocates %v per call", allocs)
	}
}

func TestSkinFitPerAxisBeyond1024Combinations(t *testing.T) {
	// Ten more two-key axes on parameters that move nothing make 3·2¹⁰ =
	// 3072 combinations, beyond the 1024 the fit samples jointly: it then
	// samples each axis alone (3 + 10·2 samples) and still recovers the
	// weights.
	m, fs := armModel()
	sk := &m.file.Skins.Meshes[0]
	for i := 0; i < 10; i++ {
		m.file.Parameters = append(m.file.Parameters, p2lrt.Parameter{ID: fmt.Sprint("P", i), Min: -1, Max: 1})
		sk.Axes = append(sk.Axes, p2lrt.Axis{Parameter: len(m.file.Parameters) - 1, Keys: []float32{-1, 1}})
	}
	home, err := checkSkin(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := restCarries(m, sk, home, fs)
	if err != nil {
		t.Fatal(err)
	}
	w, err := fitSkin(m, sk, home, rc, fs)
	if err != nil {
		t.Fatal(err)
	}
	for v := range fs.truth.w {
		tf, tt, tw := fs.truth.from[v], fs.truth.to[v], fs.truth.w[v]
		if tw == 0 {
			tt = tf
		}
		if w.from[v] != tf || w.to[v] != tt || math.Abs(w.w[v]-tw) > 1e-9 {
			t.Errorf("vertex %d fitted (%d, %d, %v), want (%d, %d, %v)", v, w.from[v], w.to[v], w.w[v], tf, tt, tw)
		}
	}
}
