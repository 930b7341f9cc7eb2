package p2l

import (
	"bytes"
	"slices"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Tests of Cubism evaluation (evaluation.go; docs/CUBISM.md, "Evaluation:
// the Core's rules and ours"). Expected values come from the rules as
// moc3-rs states them, worked out by hand in the comments.

// cubism marks the test model for Cubism evaluation, with key epsilons.
func (t *testModel) cubism(eps string) *testModel {
	t.file.Meta = []p2lrt.MetaEntry{{Key: MetaEvaluation, Value: "cubism"}}
	if eps != "" {
		t.file.Meta = append(t.file.Meta, p2lrt.MetaEntry{Key: MetaKeyEpsilons, Value: eps})
	}
	return t
}

func TestEvaluationSelector(t *testing.T) {
	m := newTestModel()
	if m.Evaluation() != EvaluationReference {
		t.Fatal("a model without the key is not reference-evaluated")
	}
	c := m.WithEvaluation(EvaluationCubism)
	if c.Evaluation() != EvaluationCubism || m.Evaluation() != EvaluationReference {
		t.Fatal("WithEvaluation: clone not Cubism or original changed")
	}
	if c.WithEvaluation(EvaluationReference).Evaluation() != EvaluationReference {
		t.Fatal("WithEvaluation(reference) kept the key")
	}
	// Playback is a separate key: Cubism playback leaves the evaluation alone.
	if m.WithPlayback(PlaybackCubism).Evaluation() != EvaluationReference {
		t.Fatal("playback=cubism selected Cubism evaluation")
	}
	var b bytes.Buffer
	if err := Write(&b, c, nil); err != nil {
		t.Fatal(err)
	}
	back, err := Load(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if back.Evaluation() != EvaluationCubism {
		t.Fatal("the selector does not survive Write and Load")
	}
}

// TestCubismKeyformsDoNotSnap: the reference snaps p = 9.9995 to the key 10;
// the Core (moc3-rs key_segment) blends at t = 0.99995.
func TestCubismKeyformsDoNotSnap(t *testing.T) {
	m := newTestModel(param("p", 0, 10, 0)).cubism("")
	mi := m.mesh(-1, 0, 0)
	m.file.Meshes[mi].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 10}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: []float32{0, 0}}, {Coord: []uint16{1}, Value: []float32{1000, 0}}}}
	r := m.rig(t)
	r.SetParameter(0, 9.9995)
	eval(t, r)
	// x = 1000 · 9.9995/10 = 999.95 (the reference gives 1000).
	checkVerts(t, r, mi, 999.95, 0)
	// Beyond the keys the end key holds: p = 10 → 1000.
	r.SetParameter(0, 10)
	eval(t, r)
	checkVerts(t, r, mi, 1000, 0)
}

// TestCubismOutOfRangeDisables: keys 0 and 1 of p ∈ [−1, 2], ε = 0.1.
// moc3-rs key_table_is_outside: outside when v < 0 − 0.1 or v ≥ 1 + 0.1.
func TestCubismOutOfRangeDisables(t *testing.T) {
	m := newTestModel(param("p", -1, 2, 0), param("q", 0, 1, 0)).cubism("0.1,0.1")
	keyed := &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: []float32{0, 0}}, {Coord: []uint16{1}, Value: []float32{0, 0}}}}
	// A warp keyed on p, a mesh under it (keyed on q), a free mesh keyed on p.
	w := m.warp(-1, 1, 1, &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: []float32{0, 0, 10, 0, 0, 10, 10, 10}}, {Coord: []uint16{1}, Value: []float32{0, 0, 10, 0, 0, 10, 10, 10}}}})
	under := m.mesh(w, 0.5, 0.5, 1, 0.5, 1, 1)
	m.file.Meshes[under].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 1, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: []float32{0, 0, 0, 0, 0, 0}}, {Coord: []uint16{1}, Value: []float32{0, 0, 0, 0, 0, 0}}}}
	free := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	m.file.Meshes[free].Keyforms = &p2lrt.Grid[[]float32]{Axes: keyed.Axes, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: make([]float32, 6)}, {Coord: []uint16{1}, Value: make([]float32, 6)}}}
	r := m.rig(t)
	for _, c := range []struct {
		p    float32
		want bool
	}{
		{0, true}, {1, true}, {-0.05, true}, // −0.05 ≥ −0.1
		{-0.1, true},                              // not below −0.1
		{-0.2, false}, {1.05, true}, {1.1, false}, // 1.1 ≥ 1 + 0.1
		{2, false},
	} {
		r.SetParameter(0, c.p)
		eval(t, r)
		if r.Mesh(under).Visible() != c.want || r.Mesh(free).Visible() != c.want {
			t.Errorf("p = %v: visible %v (under the warp) %v (free), want %v", c.p, r.Mesh(under).Visible(), r.Mesh(free).Visible(), c.want)
		}
		if in := slices.Contains(r.RenderOrder(), free); in != c.want {
			t.Errorf("p = %v: in the render order %v, want %v", c.p, in, c.want)
		}
	}
	// A single key k: disabled when |v − k| ≥ ε.
	kr := keyRange{lo: 1 - 0.1, hi: 1 + 0.1, single: true}
	if kr.outside(1) || kr.outside(1.05) || !kr.outside(0.9) || !kr.outside(1.1) {
		t.Error("single-key range test")
	}
	// The reference evaluation ignores key ranges (a clone: a prepared
	// model is not modified).
	m = &testModel{*m.Model.clone()}
	m.file.Meta = nil
	r = m.rig(t)
	r.SetParameter(0, 2)
	eval(t, r)
	if !r.Mesh(free).Visible() || !r.Mesh(under).Visible() {
		t.Error("reference evaluation disabled a mesh")
	}
}

// TestCubismDisabledParentsPropagate: a deformer without its enabled flag,
// and a part keyed on p outside its range, disable what is under them
// (moc3-rs resolve_enabled).
func TestCubismDisabledParentsPropagate(t *testing.T) {
	m := newTestModel(param("p", 0, 2, 0)).cubism("0.001")
	d := m.rotation(-1, 0, static(p2lrt.RotationKey{Scale: 1}))
	a := m.mesh(d, 0, 0, 1, 0, 0, 1)
	b := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	c := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	m.file.Parts = []p2lrt.Part{
		{ID: "top", Flags: p2lrt.PartVisible, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildPart, Index: 1}}, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White},
			Channels: []p2lrt.Channel{{ID: p2lrt.ChannelDrawOrder, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
				Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{500}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{500}}}}}}},
		{ID: "inner", Flags: p2lrt.PartVisible, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: b}}, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}},
	}
	r := m.rig(t)
	eval(t, r)
	if !r.Mesh(a).Visible() || !r.Mesh(b).Visible() || !r.Mesh(c).Visible() {
		t.Fatal("enabled meshes hidden")
	}
	// p = 2 ≥ 1 + 0.001: "top" is disabled, so is "inner", so is mesh b.
	r.SetParameter(0, 2)
	eval(t, r)
	if r.Mesh(b).Visible() || !r.Mesh(c).Visible() {
		t.Errorf("part out of range: b visible %v (want false), c %v (want true)", r.Mesh(b).Visible(), r.Mesh(c).Visible())
	}
	m = &testModel{*m.Model.clone()}
	m.file.Deformers[d].Flags &^= p2lrt.DeformerEnabled
	r = m.rig(t)
	eval(t, r)
	if r.Mesh(a).Visible() {
		t.Error("a mesh under a disabled deformer is visible")
	}
}

// TestCubismColorsInherit: moc3-rs BlendColor::blend down the deformer
// chain: multiply = parent·child, screen = p + c − p·c.
func TestCubismColorsInherit(t *testing.T) {
	m := newTestModel().cubism("")
	d0 := m.rotation(-1, 0, static(p2lrt.RotationKey{Scale: 1}))
	d1 := m.rotation(d0, 0, static(p2lrt.RotationKey{Scale: 1}))
	m.file.Deformers[d0].Multiply, m.file.Deformers[d0].Screen = p2lrt.Color{0.5, 1, 0.8}, p2lrt.Color{0.2, 0, 0.5}
	m.file.Deformers[d1].Multiply, m.file.Deformers[d1].Screen = p2lrt.Color{0.5, 0.5, 1}, p2lrt.Color{0.5, 0.1, 0}
	mi := m.mesh(d1, 0, 0, 1, 0, 0, 1)
	m.file.Meshes[mi].Multiply, m.file.Meshes[mi].Screen = p2lrt.Color{0.5, 1, 0.5}, p2lrt.Color{0, 0, 0.5}
	r := m.rig(t)
	eval(t, r)
	mul, scr := r.Mesh(mi).Colors()
	// multiply: (0.5·0.5·0.5, 1·0.5·1, 0.8·1·0.5) = (0.125, 0.5, 0.4).
	// screen d0∘d1: (0.2+0.5−0.1, 0+0.1−0, 0.5+0−0) = (0.6, 0.1, 0.5);
	// then ∘ mesh: (0.6, 0.1, 0.5+0.5−0.25) = (0.6, 0.1, 0.75).
	want := [2]p2lrt.Color{{0.125, 0.5, 0.4}, {0.6, 0.1, 0.75}}
	for k := range 3 {
		if !near(float64(mul[k]), float64(want[0][k]), 1e-6) || !near(float64(scr[k]), float64(want[1][k]), 1e-6) {
			t.Fatalf("colors %v %v, want %v %v", mul, scr, want[0], want[1])
		}
	}
}

// TestCubismRotationUnderWarp: the moc's unit square and the canvas are
// both y down, so the turn is the angle from (0, −1) to the mapped probe
// direction. The warp W(u,v) = (−100v, 100u) of TestRotationUnderWarp: the
// probe (½, 0.4) maps to (−40, 50), the origin to (−50, 50): direction
// (10, 0), atan2 0° + 90° = 90°: (5,0) → (−50, 55).
func TestCubismRotationUnderWarp(t *testing.T) {
	m := newTestModel().cubism("")
	w := m.warp(-1, 1, 1, static([]float32{0, 0, 0, 100, -100, 0, -100, 100}))
	d := m.rotation(w, 0, static(p2lrt.RotationKey{X: 0.5, Y: 0.5, Angle: 0, Scale: 1}))
	mi := m.mesh(d, 5, 0)
	r := m.rig(t)
	eval(t, r)
	checkVerts(t, r, mi, -50, 55)

	// Upright: W(u,v) = (100u, 100v). Probe (½, 0.4) → (50, 40), origin
	// (50, 50): direction (0, −10), atan2 −90° + 90° = 0: (5,0) → (55, 50).
	m = newTestModel().cubism("")
	w = m.warp(-1, 1, 1, static([]float32{0, 0, 100, 0, 0, 100, 100, 100}))
	d = m.rotation(w, 0, static(p2lrt.RotationKey{X: 0.5, Y: 0.5, Angle: 0, Scale: 1}))
	mi = m.mesh(d, 5, 0)
	r = m.rig(t)
	eval(t, r)
	checkVerts(t, r, mi, 55, 50)

	// A collapsed warp (every point (7, 7)) maps every probe onto the
	// origin: no usable direction, turn 0 (the reference turns by 90°).
	m = newTestModel().cubism("")
	w = m.warp(-1, 1, 1, static([]float32{7, 7, 7, 7, 7, 7, 7, 7}))
	d = m.rotation(w, 0, static(p2lrt.RotationKey{X: 0.5, Y: 0.5, Angle: 0, Scale: 1}))
	mi = m.mesh(d, 5, 0)
	r = m.rig(t)
	eval(t, r)
	checkVerts(t, r, mi, 12, 7)
}

// TestCubismDrawOrderRounds: keys round half away from zero (moc3-rs
// f32::round): 500.5 → 501 draws after 500.9995 → 501 only by tree order;
// 500.4 → 500 first. The reference's floor(v + 0.001) gives 500, 501, 500.
func TestCubismDrawOrderRounds(t *testing.T) {
	m := newTestModel().cubism("")
	tri := []float32{0, 0, 1, 0, 0, 1}
	for range 3 {
		m.mesh(-1, tri...)
	}
	m.file.Meshes[0].DrawOrder, m.file.Meshes[1].DrawOrder, m.file.Meshes[2].DrawOrder = 500.5, 500.9995, 500.4
	r := m.rig(t)
	eval(t, r)
	if got := r.RenderOrder(); !slices.Equal(got, []int{2, 0, 1}) {
		t.Errorf("Cubism order %v, want [2 0 1]", got)
	}
	m = &testModel{*m.Model.clone()}
	m.file.Meta = nil
	r = m.rig(t)
	eval(t, r)
	if got := r.RenderOrder(); !slices.Equal(got, []int{0, 2, 1}) {
		t.Errorf("reference order %v, want [0 2 1]", got)
	}
}

func TestCubismEvaluateDoesNotAllocate(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0)).cubism("0.1")
	w := m.warp(-1, 1, 1, static([]float32{0, 0, 100, 0, 0, 100, 100, 100}))
	d := m.rotation(w, 0, &p2lrt.Grid[p2lrt.RotationKey]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[p2lrt.RotationKey]{
		{Coord: []uint16{0}, Value: p2lrt.RotationKey{X: 0.5, Y: 0.5, Scale: 1}}, {Coord: []uint16{1}, Value: p2lrt.RotationKey{X: 0.5, Y: 0.5, Angle: 30, Scale: 1}}}})
	m.mesh(d, 5, 0, 6, 0, 5, 1)
	r := m.rig(t)
	eval(t, r)
	v := float32(0)
	allocs := testing.AllocsPerRun(50, func() {
		v = 1 - v
		r.SetParameter(0, v)
		r.Evaluate()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per evaluation", allocs)
	}
}
