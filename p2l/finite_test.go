package p2l

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// hygieneModels are live models covering every stage: clips, expressions,
// pose, behaviors (roles), physics, and the advanced mode.
func hygieneModels(t *testing.T) map[string]*Rig {
	t.Helper()
	out := map[string]*Rig{}
	for name, m := range map[string]*Model{
		"anim": animModel(), "full": fullModel(), "pendulum": pendulumModel(30, p2lrt.PhysicsAngle), "behavior": behaviorModel(),
	} {
		if len(m.file.Parts) == 0 {
			m.file.Draw = p2lrt.DrawGroup{Part: -1}
		}
		r := m.NewRig()
		if err := r.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "full" {
			r.SetAdvanced(AllFeatures)
		}
		r.SetBehaviors(AllBehaviors)
		if len(m.file.Clips) > 0 {
			r.Layer(0).Start(0)
		}
		if len(m.file.Expressions) > 0 {
			r.Expressions().Set(0)
		}
		out[name] = r
	}
	return out
}

// saneArgs gives finite, in-range arguments for a method (receiver
// excluded), with argument k's floats (or the floats inside it) set to bad.
func saneArgs(mt reflect.Type, k int, bad float64) []reflect.Value {
	args := make([]reflect.Value, 0, mt.NumIn()-1)
	for i := 1; i < mt.NumIn(); i++ {
		v := 0.5
		if i-1 == k {
			v = bad
		}
		args = append(args, floatArg(mt.In(i), v))
	}
	return args
}

func floatArg(t reflect.Type, f float64) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		v.SetFloat(f)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Float32 {
			v.Set(reflect.ValueOf([]float32{0.5, float32(f), 0.25, 0.5}))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			v.Index(i).Set(floatArg(t.Elem(), f))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Field(i).CanSet() {
				v.Field(i).Set(floatArg(t.Field(i).Type, f))
			}
		}
	case reflect.Bool:
		v.SetBool(true)
	}
	return v
}

// hasFloats reports whether values of t carry floats.
func hasFloats(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return true
	case reflect.Slice, reflect.Array:
		return hasFloats(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasFloats(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// outputs is everything a renderer or host reads after an update.
func outputs(r *Rig) string {
	var b strings.Builder
	fmt.Fprintf(&b, "err %v opacity %v\n", r.Err(), r.OpacityMultiplier())
	for i := range r.model.file.Parameters {
		fmt.Fprintf(&b, "p%d %v\n", i, math.Float32bits(r.ParameterCurrent(i)))
	}
	for i := range r.model.file.Meshes {
		m, s := r.Mesh(i).Colors()
		fmt.Fprintf(&b, "m%d %v %v %v %v %v\n", i, r.Mesh(i).Vertices(), r.Mesh(i).Opacity(), m, s, r.Mesh(i).DrawOrder())
	}
	for i := range r.model.file.Parts {
		fmt.Fprintf(&b, "part%d %v %v\n", i, r.Part(i).Opacity(), r.Part(i).OpacityMultiplier())
	}
	return b.String()
}

// rigViews are the receivers of the Rig API: the rig and its views (index
// 0 where one is needed), with their types.
var rigViews = []struct {
	typ reflect.Type
	of  func(r *Rig) reflect.Value
}{
	{reflect.TypeOf((*Rig)(nil)), func(r *Rig) reflect.Value { return reflect.ValueOf(r) }},
	{reflect.TypeOf(MeshState{}), func(r *Rig) reflect.Value { return reflect.ValueOf(r.Mesh(0)) }},
	{reflect.TypeOf(PartState{}), func(r *Rig) reflect.Value { return reflect.ValueOf(r.Part(0)) }},
	{reflect.TypeOf(LayerState{}), func(r *Rig) reflect.Value { return reflect.ValueOf(r.Layer(0)) }},
	{reflect.TypeOf(ExpressionState{}), func(r *Rig) reflect.Value { return reflect.ValueOf(r.Expressions()) }},
	{reflect.TypeOf(PhysicsState{}), func(r *Rig) reflect.Value { return reflect.ValueOf(r.Physics()) }},
	{reflect.TypeOf(SimulationState{}), func(r *Rig) reflect.Value { return reflect.ValueOf(r.Simulation()) }},
}

// callOn calls method name of view on r with args; a rig whose model has
// no object for the view (no mesh, no part) is skipped.
func callOn(view func(r *Rig) reflect.Value, r *Rig, name string, args []reflect.Value) {
	var v reflect.Value
	if PanicMessage(func() { v = view(r) }) != "" {
		return
	}
	if name == "SetParameterValues" {
		// A whole pose (a slice of another length panics): the value
		// under test (args' second) for every parameter.
		src := args[0].Interface().([]float32)
		pose := make([]float32, len(r.values))
		for i := range pose {
			pose[i] = src[1]
		}
		args = []reflect.Value{reflect.ValueOf(pose)}
	}
	v.MethodByName(name).Call(args)
}

// TestSettersIgnoreNonFinite: every method taking floats, called with NaN,
// +Inf or −Inf in any one float argument (the others sane), leaves the rig
// exactly as if it had not been called: the following updates give
// bit-identical outputs. Update and UpdateStages (dt not finite or ≤ 0
// poses without advancing) and the queries are covered elsewhere.
func TestSettersIgnoreNonFinite(t *testing.T) {
	skip := map[string]bool{"Update": true, "UpdateStages": true, "HitTest": true}
	tested := 0
	for _, view := range rigViews {
		typ := view.typ
		for i := 0; i < typ.NumMethod(); i++ {
			m := typ.Method(i)
			if skip[m.Name] || strings.HasSuffix(m.Name, "ForTest") {
				continue
			}
			for k := 1; k < m.Type.NumIn(); k++ {
				if !hasFloats(m.Type.In(k)) {
					continue
				}
				tested++
				for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
					a, b := hygieneModels(t), hygieneModels(t)
					for name := range a {
						a[name].Update(0.1)
						b[name].Update(0.1)
						callOn(view.of, a[name], m.Name, saneArgs(m.Type, k-1, bad))
						for f := 0; f < 5; f++ {
							a[name].Update(0.1)
							b[name].Update(0.1)
						}
						if oa, ob := outputs(a[name]), outputs(b[name]); oa != ob {
							t.Errorf("%s: %v.%s with argument %d = %v changed the rig:\n%s\nwant\n%s", name, typ, m.Name, k-1, bad, oa, ob)
						}
					}
				}
			}
		}
	}
	if tested < 20 {
		t.Fatalf("only %d float arguments found: the enumeration is broken", tested)
	}
}

// walkFloats calls bad for every float inside v (following pointers,
// slices, arrays, structs and maps) that is not finite.
func walkFloats(v reflect.Value, path string, seen map[uintptr]bool, bad func(path string, f float64)) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); f-f != 0 {
			bad(path, f)
		}
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		walkFloats(v.Elem(), path, seen, bad)
	case reflect.Interface:
		if !v.IsNil() {
			walkFloats(v.Elem(), path, seen, bad)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkFloats(v.Index(i), fmt.Sprintf("%s[%d]", path, i), seen, bad)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			walkFloats(v.Field(i), path+"."+v.Type().Field(i).Name, seen, bad)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			walkFloats(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), seen, bad)
		}
	}
}

// rigState reports the non-finite floats of r's state, the shared model and
// prepared data left out, and so are the values each update rebuilds from
// the host pose before clamping (a behavior or override may push them past
// the float32 range; evaluation clamps them to the parameter's range).
func rigState(r *Rig) []string {
	var out []string
	seen := map[uintptr]bool{}
	seen[reflect.ValueOf(r.model).Pointer()] = true
	seen[reflect.ValueOf(r.p).Pointer()] = true
	walkFloats(reflect.ValueOf(r), "rig", seen, func(path string, f float64) {
		if !strings.HasPrefix(path, "rig.animation.prePhysics[") && !strings.HasPrefix(path, "rig.current[") {
			out = append(out, fmt.Sprintf("%s = %v", path, f))
		}
	})
	return out
}

// TestExtremeFiniteInputsKeepStateFinite: finite extremes (±3e38, 1e30 s
// updates) through every float setter never leave NaN or infinities in
// the rig's state (clip clocks, pendulums, followers, simulations), and
// the rig either stays live with finite outputs or fails with an error.
func TestExtremeFiniteInputsKeepStateFinite(t *testing.T) {
	for _, big := range []float64{3e38, -3e38, 1e30} {
		rigs := hygieneModels(t)
		for _, view := range rigViews {
			typ := view.typ
			for i := 0; i < typ.NumMethod(); i++ {
				m := typ.Method(i)
				if strings.HasSuffix(m.Name, "ForTest") || m.Name == "Update" || m.Name == "UpdateStages" {
					continue
				}
				for k := 1; k < m.Type.NumIn(); k++ {
					if !hasFloats(m.Type.In(k)) {
						continue
					}
					for name, r := range rigs {
						callOn(view.of, r, m.Name, saneArgs(m.Type, k-1, big))
						r.Update(1.0 / 60)
						if bad := rigState(r); len(bad) > 0 && r.Err() == nil {
							t.Errorf("%s: %v.%s(arg %d = %g) left non-finite state: %s", name, typ, m.Name, k-1, big, strings.Join(bad[:min(len(bad), 5)], "; "))
							rigs[name] = hygieneModels(t)[name]
						}
					}
				}
			}
		}
		for name, r := range rigs {
			for _, dt := range []float64{big, big, 1e300, 1.7e308, 1.7e308} {
				r.Update(dt)
			}
			if bad := rigState(r); len(bad) > 0 && r.Err() == nil {
				t.Errorf("%s: updates of %g s left non-finite state: %s", name, big, strings.Join(bad[:min(len(bad), 5)], "; "))
			}
		}
	}
}

// TestOverflowingPoseFailsTheRig: finite extremes in a model (rest
// positions and keyform offsets near the float32 limit) sum past it at one
// pose. The rig fails there with an error naming the mesh, instead of
// handing out infinite vertices; at the other pose it is live and finite.
func TestOverflowingPoseFailsTheRig(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	mi := m.mesh(-1, 3e38, 0, 3e38, 1, 0, 0)
	m.file.Meshes[mi].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
		Cells: []p2lrt.Cell[[]float32]{{Coord: []uint16{0}, Value: make([]float32, 6)}, {Coord: []uint16{1}, Value: []float32{3e38, 0, 3e38, 0, 0, 0}}}}
	r := m.rig(t)
	eval(t, r)
	if v := r.Mesh(mi).Vertices(); len(v) != 6 || v[0] != 3e38 {
		t.Fatalf("default pose: %v", v)
	}
	r.SetParameter(0, 0.75) // 3e38 + 0.75·3e38 > MaxFloat32
	r.Evaluate()
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), `mesh 0 ("m0")`) {
		t.Fatalf("Err = %v, want a non-finite vertex of mesh 0", err)
	}
	if v := r.Mesh(mi).Vertices(); v != nil {
		t.Errorf("a failed rig hands out vertices %v", v)
	}
	// The same through Load: the trial evaluation at the default pose
	// refuses a model that overflows there.
	m.file.Meshes[mi].Positions = []float32{3e38, 0, 3e38, 1, -3e38, 0}
	m.file.Meshes[mi].Keyforms.Cells[0].Value = []float32{3e38, 0, 0, 0, -3e38, 0}
	var b strings.Builder
	if err := Write(&b, &m.Model, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Load([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "not finite") {
		t.Errorf("Load of a model overflowing at its default pose: %v", err)
	}
}

// TestNonFiniteScan checks the branch-free scan on every position and kind
// of bad value.
func TestNonFiniteScan(t *testing.T) {
	for n := 0; n < 11; n++ {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(i) * 3e37
		}
		if got := nonFinite(s); got != -1 {
			t.Fatalf("n=%d: finite slice reported at %d", n, got)
		}
		for i := 0; i < n; i++ {
			for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(0x7fc00001)} {
				c := append([]float32(nil), s...)
				c[i] = bad
				if got := nonFinite(c); got != i {
					t.Fatalf("n=%d: %v at %d reported at %d", n, bad, i, got)
				}
			}
		}
	}
	for _, ok := range []float32{math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 0, float32(math.Copysign(0, -1))} {
		if nonFinite([]float32{ok}) != -1 {
			t.Errorf("%v reported as not finite", ok)
		}
	}
}

// TestCheckOutputsNamesTheCulprit: each kind of output that is not finite
// fails the rig with an error naming the record.
func TestCheckOutputsNamesTheCulprit(t *testing.T) {
	for _, c := range []struct {
		name   string
		poison func(r *Rig)
		want   string
	}{
		{"vertex", func(r *Rig) { r.verts[r.vcur][len(r.verts[r.vcur])-1] = float32(math.Inf(1)) }, `mesh 1 ("m1"): evaluated vertex`},
		{"opacity", func(r *Rig) { r.meshOpacity[1] = float32(math.NaN()) }, `mesh 1 ("m1"): evaluated opacity`},
		{"mesh color", func(r *Rig) { r.meshScr[0][2] = float32(math.Inf(-1)) }, `mesh 0 ("m0"): evaluated opacity, color`},
		{"part draw order", func(r *Rig) { r.partProps[1].drawOrder = 1e39 }, `part 1 ("p1")`},
		{"part color", func(r *Rig) { r.partProps[0].mul[1] = math.NaN() }, `part 0 ("p0")`},
	} {
		r := animModel().NewRig()
		r.Evaluate()
		r.checkOutputs()
		if r.Err() != nil {
			t.Fatalf("%s: a finite evaluation failed: %v", c.name, r.Err())
		}
		c.poison(r)
		r.checkOutputs()
		if err := r.Err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Err = %v, want it to name %s", c.name, err, c.want)
		}
	}
}

// TestLatticeBoundKeepsVerticesFinite checks the bound that lets
// checkOutputs skip the vertices mapped through a warp (latticeBound,
// widen): random lattices with every coordinate at most 2^124 in magnitude
// (many at exactly ±2^124, the widest differences), triangle-interpolated
// and bilinear, map random points of the open unit square to finite
// vertices; lattices whose coordinates are at most 2^40 in magnitude (many
// at exactly ±2^40) are taken as bounding them (widen's test, sums of
// squares below float32's largest, accepts them: 24 squares of 2^80), and
// those vertices are the ones skipped; a lattice beyond the bound is
// checked, and one that overflows to infinity fails the rig naming the
// mesh.
func TestLatticeBoundKeepsVerticesFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	build := func(bilinear bool, coord func() float32) (*testModel, int) {
		m := newTestModel()
		pts := make([]float32, 2*4*3) // 3×2 cells
		for j := range pts {
			pts[j] = coord()
		}
		w := m.warp(-1, 3, 2, static(pts))
		if bilinear {
			m.file.Deformers[w].Flags |= p2lrt.DeformerBilinear
		}
		pos := make([]float32, 2*50)
		for j := range pos {
			pos[j] = rng.Float32() // in [0, 1)
		}
		return m, m.mesh(w, pos...)
	}
	for trial := range 400 {
		bound := float32(latticeBound)
		skipped := trial%4 >= 2 // half the trials within 2^40: skipped
		if skipped {
			bound = 0x1p40
		}
		m, mi := build(trial%2 == 1, func() float32 {
			switch rng.IntN(3) {
			case 0:
				return bound
			case 1:
				return -bound
			}
			return bound * (2*rng.Float32() - 1)
		})
		r := m.rig(t)
		eval(t, r)
		if skipped && !r.finiteVerts[mi] {
			t.Fatalf("trial %d: a lattice within ±2^40 was not taken as bounding its vertices", trial)
		}
		if i := nonFinite(r.Mesh(mi).Vertices()); i >= 0 {
			t.Fatalf("trial %d: vertex float %d is %v through a lattice within ±%g", trial, i, r.Mesh(mi).Vertices()[i], bound)
		}
	}
	m, mi := build(false, func() float32 { return 3e38 })
	r := m.rig(t)
	if eval(t, r); r.finiteVerts[mi] {
		t.Error("a lattice at 3e38 was taken as bounding its vertices")
	}
	// A rotation scaling the lattice by 10 carries 3e38 to infinity: the
	// vertices through it are not finite, and the rig fails.
	m, mi = build(false, func() float32 { return 3e38 })
	m.file.Deformers = append([]p2lrt.Deformer{m.file.Deformers[0]}, m.file.Deformers[0])
	m.file.Deformers[0] = p2lrt.Deformer{Kind: p2lrt.RotationDeformer, Parent: -1, Part: -1,
		Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
		Rotation: &p2lrt.Rotation{Keyforms: static(p2lrt.RotationKey{Scale: 10})}}
	m.file.Deformers[1].Parent = 0
	m.file.Meshes[mi].Parent = 1
	r = m.Model.NewRig()
	r.Evaluate()
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), `mesh 0 ("m0")`) {
		t.Fatalf("Err = %v, want a non-finite vertex of mesh 0", err)
	}
}

// TestOutsideUnitSquareOverflowFailsTheRig: a warp of small coordinates
// bounds only the points inside its unit square (latticeBound); a point far
// outside follows the lattice's four-corner average affine frame (warp.rs
// Frame, mapWarp64), which carries it as far as its coordinates say. The
// warp is one cell keyed on p: at p = 0 its corners are (0,0), (100,0),
// (0,100), (100,100) — centre (50, 50), mean edges (100, 0) and (0, 100) —
// at p = 1 twice that. The mesh's vertex at u = 2e36, v = 0.5 maps at p = 0
// to x = 50 + (2e36 − 0.5)·100 ≈ 2e38, finite; at p = 1 to
// 100 + (2e36 − 0.5)·200 ≈ 4e38, beyond float32's 3.4e38: the rig fails
// naming the mesh, whether the vertex is placed afresh (a new rig) or mapped
// again from its kept placement (only the warp's parameter moved).
func TestOutsideUnitSquareOverflowFailsTheRig(t *testing.T) {
	build := func() *testModel {
		m := newTestModel(param("p", 0, 1, 0))
		m.warp(-1, 1, 1, &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[[]float32]{
			{Coord: []uint16{0}, Value: []float32{0, 0, 100, 0, 0, 100, 100, 100}},
			{Coord: []uint16{1}, Value: []float32{0, 0, 200, 0, 0, 200, 200, 200}},
		}})
		m.mesh(0, 0.5, 0.5, 2e36, 0.5, 0.25, 0.75)
		return m
	}
	r := build().rig(t)
	eval(t, r)
	if x := r.Mesh(0).Vertices()[2]; !(x > 1.99e38 && x < 2.01e38) {
		t.Fatalf("p = 0: outside vertex x = %v, want about 2e38", x)
	}
	for _, c := range []struct {
		name string
		r    *Rig
	}{{"placed again", r}, {"new rig", build().Model.NewRig()}} {
		c.r.SetParameterValues([]float32{1})
		c.r.Evaluate()
		if err := c.r.Err(); err == nil || !strings.Contains(err.Error(), `mesh 0 ("m0")`) {
			t.Errorf("%s: Err = %v, want a non-finite vertex of mesh 0", c.name, err)
		}
	}
}

// TestRotationSumOverflowIsNotAFailure: the mapping through a rotation
// sums the coordinates it writes to learn that all are finite; finite
// vertices whose sum is not (3e38 + 3e38 > MaxFloat32) are then checked one
// by one, and the rig stays live. The rotation is the identity (angle 0:
// sin 0, cos 1; scale 1; origin 0), so each vertex maps to itself:
// (3e38, 1) → (0 + 3e38·1 − 1·0, 0 + 3e38·0 + 1·1) = (3e38, 1).
func TestRotationSumOverflowIsNotAFailure(t *testing.T) {
	m := newTestModel()
	rot := m.rotation(-1, 0, static(p2lrt.RotationKey{Scale: 1}))
	mi := m.mesh(rot, 3e38, 1, 3e38, 2, 0, 0)
	r := m.rig(t)
	eval(t, r)
	want := []float32{3e38, 1, 3e38, 2, 0, 0}
	if got := r.Mesh(mi).Vertices(); !slices.Equal(got, want) {
		t.Fatalf("vertices %v, want %v", got, want)
	}
}

// TestGlueOverflowFailsTheRig: glued meshes under a warp of small
// coordinates are finite by the lattice bound before glue, and checkOutputs
// then reads only the vertices glue moved. A glue weight near the float32
// limit carries a moved vertex to infinity (A = 0.25·100 + (0.75·100 −
// 0.25·100)·3e38·1 = 50·3e38 > MaxFloat32): the rig fails naming the mesh;
// with weight 0.5 the same rig is live and the glued vertex is halfway
// (25 + 50·0.5 = 50).
func TestGlueOverflowFailsTheRig(t *testing.T) {
	for _, c := range []struct {
		weight float32
		fails  bool
	}{{0.5, false}, {3e38, true}} {
		m := newTestModel()
		w := m.warp(-1, 1, 1, static([]float32{0, 0, 100, 0, 0, 100, 100, 100}))
		a := m.mesh(w, 0.25, 0.25, 0.5, 0.25, 0.25, 0.5)
		b := m.mesh(w, 0.75, 0.25, 0.5, 0.75, 0.75, 0.75)
		m.file.Glues = []p2lrt.Glue{{ID: "g", MeshA: a, MeshB: b, Intensity: 1, Pairs: []p2lrt.GluePair{{A: 0, B: 0, WeightA: c.weight}}}}
		r := m.Model.NewRig()
		if !c.fails {
			eval(t, r)
			if !r.finiteVerts[a] || !r.finiteVerts[b] {
				t.Error("glued meshes under a small lattice are read by the final check")
			}
			checkVerts(t, r, a, 50, 25, 50, 25, 25, 50)
			continue
		}
		r.Evaluate()
		if err := r.Err(); err == nil || !strings.Contains(err.Error(), `mesh 0 ("m0")`) {
			t.Errorf("weight %g: Err = %v, want a non-finite vertex of mesh 0", c.weight, err)
		}
	}
}
