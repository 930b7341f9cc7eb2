package p2l

import (
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file holds byte-level fixtures in the reference layout: files laid
// out field by field as PSD2Live's writer (P2lrt.kt at commit e4aff61b)
// writes them and its runtime (runtime/src/rig.rs) reads them, built with
// the bld helper of handbuilt_test.go, never by our writer. Each must load,
// evaluate to values computed by hand from the reference's rules (the
// arithmetic is in the comments), and come back byte for byte from our
// writer. The same files are given to the reference runtime by
// reference_test.go (its answers are committed in testdata/reference).

// strsChunk is an STRS chunk holding strs in order.
func strsChunk(strs ...string) []byte {
	w := (&bld{}).u32(uint32(len(strs))).u32(0)
	n := 0
	for _, s := range strs {
		n += len(s)
		w.u32(uint32(n))
	}
	for _, s := range strs {
		w.u8([]byte(s)...)
	}
	return w.b
}

// v2Core lays out the core chunks P2lrt.kt writes for a model, in its order,
// optional ones only when given, META last.
func v2Core(strs, canv, parm, defm, part, mesh, draw, phys, meta []byte) []byte {
	cs := []tchunk{req("STRS", strs), req("CANV", canv), req("PARM", parm), req("DEFM", defm),
		req("PART", part), req("MESH", mesh), req("DRAW", draw)}
	if phys != nil {
		cs = append(cs, req("PHYS", phys))
	}
	return buildV2(append(cs, opt("META", meta))...)
}

// onePart is a PART chunk with one visible pass-through part (its id at
// sref id) holding meshes 0..n−1, a neutral composite and no bindings.
func onePart(id uint32, n int) []byte {
	w := (&bld{}).u32(1).u32(id).u32(none).u8(1, 0).i32(0).u32(uint32(n))
	for i := 0; i < n; i++ {
		w.u8(1).u32(uint32(i))
	}
	return w.u8(0).u8(0, 0).u32(0).u32(0).u8(0).f32(1, 1, 1, 1, 0, 0, 0).u16(0).b
}

// flatDraw is a DRAW root group listing meshes 0..n−1.
func flatDraw(n int) []byte {
	w := (&bld{}).i32(-1).i32(0).u8(0).u8(0).u32(uint32(n))
	for i := 0; i < n; i++ {
		w.u8(1).u32(uint32(i))
	}
	return w.b
}

// physMeshV2 is one triangle mesh (id at sref id, name none) whose keyform
// grid on parameter 1 (keys −30, 30, deltas −30 and +30 on x) moves it by
// the value of parameter 1 along x.
func physMeshV2(id uint32) []byte {
	return (&bld{}).u32(1).u32(id).u32(none).i32(-1).u8(0, 0).u32(0).u8(8|4).i32(-1).
		arrF32(0, 0, 10, 0, 0, 10).arrF32(0, 0, 1, 0, 0, 1).arrU16(0, 1, 2).
		u16(1).u32(1).arrF32(-30, 30). // one axis: parameter 1, keys
		u32(2).u16(0).arrF32(-30, 0, -30, 0, -30, 0).u16(1).arrF32(30, 0, 30, 0, 30, 0).
		u8(0).f32(500, 1, 1, 1, 1, 0, 0, 0).u16(0).b
}

// physRecord is the PHYS chunk content of the physics fixtures, in P2lrt.kt
// physics(): fps 30; group "Hair" (sref id): input {param 0, weight 50,
// Angle, no reflect}; output {param 1, vertex 1, scale 30, weight 100,
// Angle, no reflect}; segments {10, 0.9, 0.8, 1.5}, {5, 0.9, 0.8, 1};
// normalization position −10/0/10, angle −20/0/20.
func physRecord(w *bld, id, name func(w *bld)) {
	w.f32(30).u32(1)
	id(w)
	name(w)
	w.u32(1).u32(0).f32(50).u8(1, 0)
	w.u32(1).u32(1).u32(1).f32(30, 100).u8(1, 0)
	w.u32(2).f32(10, 0.9, 0.8, 1.5).f32(5, 0.9, 0.8, 1)
	w.f32(-10, 0, 10, -20, 0, 20)
}

// fixturePhysics: parameters In (−10..10) and Out (−30..30), a part, the
// physMesh, PHYS, and the META P2lrt.kt writes (generator, version).
func fixturePhysics() []byte {
	strs := strsChunk("In", "Out", "part", "m", "Hair", "generator", "psd2live", "generator_version", "0.1.0")
	parm := (&bld{}).u32(2).u32(0).u32(none).f32(-10, 10, 0).u8(0).u32(1).u32(none).f32(-30, 30, 0).u8(0).b
	phys := &bld{}
	physRecord(phys, func(w *bld) { w.u32(4) }, func(w *bld) { w.u32(none) })
	meta := (&bld{}).u32(2).u32(5).u32(6).u32(7).u32(8).b
	return v2Core(strs, (&bld{}).f32(100, 100, 50, 50, -1).b, parm, (&bld{}).u32(0).b, onePart(2, 1),
		physMeshV2(3), flatDraw(1), phys.b, meta)
}

// wantStabilizedOut is the Out value after physics stabilization at
// In = 5, from Cubism's rules (physics3, as physics.go and physics.rs):
// In = 5 of [−10, 10] normalizes around the range's midpoint 0 into the
// angle range: 5·(20 − 0)/10 = 10, negated without reflect: −10, times the
// weight 0.5: the group's angle is −5°. Stabilized, the first segment points
// along gravity turned by −5°: (sin −5°, cos −5°); its angle from the root's
// downward direction (0, 1) is +5° = 0.0872665 rad; times the scale 30 =
// 2.617994 (within Out's range, weight 100: the value itself).
var wantStabilizedOut = 5 * math.Pi / 180 * 30

func checkPhysicsFixture(t *testing.T, m *Model) {
	t.Helper()
	r := m.NewRig()
	r.SetParameter(0, 5)
	r.Physics().Stabilize()
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	out := float64(r.ParameterCurrent(1))
	if math.Abs(out-wantStabilizedOut) > 1e-4 {
		t.Fatalf("Out %v, want %v", out, wantStabilizedOut)
	}
	// The keyform on Out moves the mesh by Out along x.
	x := wantStabilizedOut
	if v := r.Mesh(0).Vertices(); !near32s(v, []float32{float32(x), 0, float32(10 + x), 0, float32(x), 10}, 1e-4) {
		t.Errorf("vertices %v", v)
	}
}

func TestReferencePhysicsFixture(t *testing.T) {
	data := fixturePhysics()
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	g := m.file.Physics.Groups[0]
	if m.file.Physics.Fps != 30 || g.ID != "Hair" || len(g.Segments) != 2 || g.Segments[1] != (p2lrt.PhysicsSegment{Length: 5, Mobility: 0.9, Delay: 0.8, Acceleration: 1}) ||
		g.Inputs[0] != (p2lrt.PhysicsInput{Parameter: 0, Weight: 50, Source: p2lrt.PhysicsAngle}) ||
		g.Outputs[0] != (p2lrt.PhysicsOutput{Parameter: 1, Vertex: 1, Scale: 30, Weight: 100, Source: p2lrt.PhysicsAngle}) ||
		g.Normalization != (p2lrt.PhysicsNormalization{PositionMin: -10, PositionDefault: 0, PositionMax: 10, AngleMin: -20, AngleDefault: 0, AngleMax: 20}) {
		t.Fatalf("physics %+v", m.file.Physics)
	}
	if len(m.file.Meta) != 2 || m.file.Meta[0] != (p2lrt.MetaEntry{Key: "generator", Value: "psd2live"}) {
		t.Fatalf("meta %+v", m.file.Meta)
	}
	checkPhysicsFixture(t, m)
	if again := mustWrite(t, m, nil); string(again) != string(data) {
		t.Fatalf("writer output differs from the hand-built file:\n%x\n%x", again, data)
	}
}

// fixtureV1PhysicsClips is a v1 stream (P2lrt.kt v1()): the physics
// fixture's model with a clip and a role, strings inline, arrays plain.
func fixtureV1PhysicsClips() []byte {
	str := func(w *bld, s string) { w.u32(uint32(len(s))).u8([]byte(s)...) }
	w := &bld{}
	w.b = append(w.b, "P2LRT\x00\x00\x00"...)
	w.u32(1)
	w.f32(100, 100, 50, 50, -1) // CANV at byte 12
	w.u32(2)                    // PARM
	str(w, "In")
	str(w, "")
	w.f32(-10, 10, 0).u8(0)
	str(w, "Out")
	str(w, "")
	w.f32(-30, 30, 0).u8(0)
	w.u32(0) // DEFM
	w.u32(1) // PART
	str(w, "part")
	str(w, "")
	w.u8(1, 0).i32(0).u32(1).u8(1).u32(0).u8(0).u8(0, 0).u32(0).u32(0).u8(0).f32(1, 1, 1, 1, 0, 0, 0).u16(0)
	w.u32(1) // MESH
	str(w, "m")
	str(w, "")
	w.i32(-1).u8(0, 0).u32(0).u8(8 | 4).i32(-1)
	w.u32(6).f32(0, 0, 10, 0, 0, 10).u32(6).f32(0, 0, 1, 0, 0, 1).u32(3).u32(0).u32(1).u32(2)
	w.u16(1).u32(1).u32(2).f32(-30, 30).u32(2).u16(0).u32(6).f32(-30, 0, -30, 0, -30, 0).u16(1).u32(6).f32(30, 0, 30, 0, 30, 0)
	w.u8(0).f32(500, 1, 1, 1, 1, 0, 0, 0).u16(0)
	w.u32(0)                                         // GLUE
	w.i32(-1).i32(0).u8(0).u8(0).u32(1).u8(1).u32(0) // DRAW
	w.u32(0)                                         // TEXR
	physRecord(w, func(w *bld) { str(w, "Hair") }, func(w *bld) { str(w, "") })
	w.u32(1) // CLIP: "Idle", 2 s, 30 fps, looping, no fade-in (−1), fade-out 0.5
	str(w, "Idle")
	str(w, "Idle")
	str(w, "Idle")
	w.f32(2, 30).u8(1).f32(-1, 0.5)
	w.u32(1).u32(0).f32(0, 0).u32(2) // curve on In from (0, 0)
	w.u8(0).f32(1, 10)               // linear to (1, 10)
	w.u8(1).f32(float32(4)/3, 10, float32(5)/3, 0).f32(2, 0)
	w.u32(1) // ROLE
	str(w, "Sway")
	w.u32(1).u32(0)
	return w.b
}

func TestReferenceV1PhysicsClips(t *testing.T) {
	data := fixtureV1PhysicsClips()
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	checkPhysicsFixture(t, m)
	if len(m.file.Clips) != 1 || len(m.file.Roles) != 1 || m.file.Roles[0].Name != "Sway" {
		t.Fatalf("clips %+v roles %+v", m.file.Clips, m.file.Roles)
	}
	c := m.file.Clips[0]
	if c.ID != "Idle" || c.Group != "Idle" || c.Duration != 2 || c.Fps != 30 || !c.Loop || c.FadeIn != -1 || c.FadeOut != 0.5 {
		t.Fatalf("clip %+v", c)
	}
	// Linear from (0, 0) to (1, 10): 5 at 0.5. The Bézier from (1, 10)
	// with control points (4/3, 10), (5/3, 0) to (2, 0), time-linear: at
	// 1.5 (u = ½) the value is ⅛·10 + ⅜·10 + ⅜·0 + ⅛·0 = 5; at 1.25
	// (u = ¼): (27/64 + 27/64)·10 = 8.4375.
	cv := &c.Curves[0].Curve
	for _, k := range []struct{ t, v float64 }{{0.5, 5}, {1, 10}, {1.5, 5}, {1.25, 8.4375}, {2, 0}} {
		if got := CurveValue(cv, k.t); math.Abs(float64(got)-k.v) > 1e-5 {
			t.Errorf("curve at %v: %v, want %v", k.t, got, k.v)
		}
	}
	if again := mustWrite(t, m, &p2lrt.WriteOptions{V1: true}); string(again) != string(data) {
		t.Fatalf("v1 writer output differs from the hand-built file:\n%x\n%x", again, data)
	}
}

// meshWithShapes is minimalChunks' MESH record with a blend binding on
// parameter 0: keys −1, 0, 1, neutral 1; keys 0 and 1 absent (only their
// u8 present = 0 is written), key 2 present with deltas; one limit on
// parameter 0 with the single point (0, 0.5).
func meshWithShapes(deltas ...float32) []byte {
	w := (&bld{}).u32(1).u32(3).u32(none).i32(-1).u8(0, 0).u32(0).u8(8|4).i32(-1).
		arrF32(0, 0, 10, 0, 0, 10).arrF32(0, 0, 1, 0, 0, 1).arrU16(0, 1, 2).
		u16(0xFFFF).u8(0).f32(3, 1, 1, 1, 1, 0, 0, 0)
	w.u16(1).u32(0).arrF32(-1, 0, 1).u32(1) // binding: parameter 0, keys, neutral 1
	w.u8(0).u8(0)                           // keys 0 and 1: absent, nothing follows
	w.u8(1).arrF32(deltas...).f32(7, 0.5, 1, 1, 1, 0, 0, 0)
	w.u16(1).u32(0).u16(1).f32(0, 0.5) // one limit, one point
	return w.b
}

func fixtureBindingAbsentKeys() []byte {
	chunks := minimalChunks()
	chunks[5] = req("MESH", meshWithShapes(0, 0, 2, 4, 0, 0))
	return buildV2(chunks...)
}

func TestReferenceBindingAbsentKeys(t *testing.T) {
	data := fixtureBindingAbsentKeys()
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	want := minimalModel()
	want.file.Meshes[0].Shapes = []p2lrt.Binding[p2lrt.MeshShape]{{Parameter: 0, Keys: []float32{-1, 0, 1}, Neutral: 1,
		Present: []bool{false, false, true},
		Shapes:  []p2lrt.MeshShape{{}, {}, {Deltas: []float32{0, 0, 2, 4, 0, 0}, DrawOrder: 7, Opacity: 0.5, Multiply: p2lrt.White}},
		Limits:  []p2lrt.Limit{{Parameter: 0, Points: []p2lrt.LimitPoint{{Value: 0, Weight: 0.5}}}}}}
	if !sameFile(m, want) {
		t.Fatalf("decodes wrongly: %s", diffModels(want, m))
	}
	if again := mustWrite(t, m, nil); string(again) != string(data) {
		t.Fatalf("writer output differs from the hand-built file:\n%x\n%x", again, data)
	}
	// At the default 0.5 the binding sits halfway between the neutral key
	// (nothing) and key 2: weight 0.5, times the limit's 0.5. Vertex 1 moves
	// by 0.25·(2, 4); opacity goes 1 → 1 + 0.25·(0.5 − 1); draw order
	// 3 + 0.25·(7 − 3).
	r := m.NewRig()
	r.Evaluate()
	if v := r.Mesh(0).Vertices(); !near32s(v, []float32{0, 0, 10.5, 1, 0, 10}, 1e-6) {
		t.Errorf("vertices %v", v)
	}
	if o := r.Mesh(0).Opacity(); math.Abs(float64(o)-0.875) > 1e-6 {
		t.Errorf("opacity %v, want 0.875", o)
	}
	if d := r.Mesh(0).DrawOrder(); math.Abs(float64(d)-4) > 1e-6 {
		t.Errorf("draw order %v, want 4", d)
	}
	// At −1 the key is absent: nothing moves.
	r.SetParameter(0, -1)
	r.Evaluate()
	if v := r.Mesh(0).Vertices(); !near32s(v, []float32{0, 0, 10, 0, 0, 10}, 0) {
		t.Errorf("at -1: vertices %v", v)
	}
}

// fixtureEmptyDeltas: minimalChunks' mesh with a keyform grid on parameter 0
// (keys −1, 1) whose first cell has no deltas (array count 0) and whose
// second moves every vertex by (2, 0), and a binding (keys 0, 1, neutral 0)
// whose present key 1 has no deltas but opacity 0.5 and draw order 7.
func fixtureEmptyDeltas() []byte {
	mesh := (&bld{}).u32(1).u32(3).u32(none).i32(-1).u8(0, 0).u32(0).u8(8|4).i32(-1).
		arrF32(0, 0, 10, 0, 0, 10).arrF32(0, 0, 1, 0, 0, 1).arrU16(0, 1, 2).
		u16(1).u32(0).arrF32(-1, 1).u32(2).u16(0).arrF32().u16(1).arrF32(2, 0, 2, 0, 2, 0).
		u8(0).f32(3, 1, 1, 1, 1, 0, 0, 0).
		u16(1).u32(0).arrF32(0, 1).u32(0).u8(0).u8(1).arrF32().f32(7, 0.5, 1, 1, 1, 0, 0, 0).u16(0).b
	chunks := minimalChunks()
	chunks[5] = req("MESH", mesh)
	return buildV2(chunks...)
}

func TestReferenceEmptyDeltas(t *testing.T) {
	data := fixtureEmptyDeltas()
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	me := &m.file.Meshes[0]
	if me.Keyforms == nil || len(me.Keyforms.Cells) != 2 || me.Keyforms.Cells[0].Value != nil ||
		len(me.Shapes) != 1 || me.Shapes[0].Shapes[1].Deltas != nil || !me.Shapes[0].Present[1] {
		t.Fatalf("mesh %+v", me)
	}
	r := m.NewRig()
	r.Evaluate()
	// Default 0.5: the keyform is ¾ of the way to key 1, whose cell moves
	// by (2, 0): (1.5, 0); the empty first cell adds nothing. The shape is
	// at weight ½ (neutral key 0 adds nothing): no vertex move, opacity
	// 1 + ½(0.5 − 1) = 0.75, draw order 3 + ½(7 − 3) = 5.
	if v := r.Mesh(0).Vertices(); !near32s(v, []float32{1.5, 0, 11.5, 0, 1.5, 10}, 1e-6) {
		t.Errorf("vertices %v", v)
	}
	if o, d := r.Mesh(0).Opacity(), r.Mesh(0).DrawOrder(); math.Abs(float64(o)-0.75) > 1e-6 || math.Abs(float64(d)-5) > 1e-6 {
		t.Errorf("opacity %v draw order %v, want 0.75 5", o, d)
	}
	// At −1: the empty cell alone, the neutral key: the rest pose.
	r.SetParameter(0, -1)
	r.Evaluate()
	if v := r.Mesh(0).Vertices(); !near32s(v, []float32{0, 0, 10, 0, 0, 10}, 0) || r.Mesh(0).Opacity() != 1 {
		t.Errorf("at -1: vertices %v opacity %v", r.Mesh(0).Vertices(), r.Mesh(0).Opacity())
	}
	if again := mustWrite(t, m, nil); string(again) != string(data) {
		t.Fatalf("writer output differs from the hand-built file:\n%x\n%x", again, data)
	}
}

// fixtureKeyformless: a 4096×4096 warp "w" and a rotation "r" without
// keyform grids (u16 0xFFFF), and a rotation "r2" under the warp with the
// static keyform (0.5, 0.5, 0°, 1); one triangle under each.
func fixtureKeyformless() []byte {
	strs := strsChunk("P", "Param", "w", "r", "r2", "part", "a", "b", "c")
	parm := (&bld{}).u32(1).u32(0).u32(1).f32(-1, 1, 0.5).u8(2).b
	head := func(w *bld, kind uint8, id uint32, parent int32) {
		w.u8(kind).u32(id).i32(parent).i32(-1).u8(1|2).f32(1, 1, 1, 1, 0, 0, 0)
	}
	d := (&bld{}).u32(3)
	head(d, 0, 2, -1)
	d.u32(4096).u32(4096).u16(0xFFFF).u8(0).u16(0) // warp: no grid, no channels, no bindings
	head(d, 1, 3, -1)
	d.f32(0).u16(0xFFFF).u8(0).u16(0) // rotation: base angle 0, no grid
	head(d, 1, 4, 0)
	d.f32(0).u16(0).u32(1).f32(0.5, 0.5, 0, 1).u8(0).u16(0) // static keyform
	mesh := func(w *bld, id uint32, parent int32, pos ...float32) {
		w.u32(id).u32(none).i32(parent).u8(0, 0).u32(0).u8(8|4).i32(-1).
			arrF32(pos...).arrF32(0, 0, 1, 0, 0, 1).arrU16(0, 1, 2).u16(0xFFFF).u8(0).f32(500, 1, 1, 1, 1, 0, 0, 0).u16(0)
	}
	me := (&bld{}).u32(3)
	mesh(me, 6, 0, 0.2, 0.2, 0.8, 0.2, 0.2, 0.8)
	mesh(me, 7, 1, 0, 0, 10, 0, 0, 10)
	mesh(me, 8, 2, 0, 0, 10, 0, 0, 10)
	return v2Core(strs, (&bld{}).f32(100, 100, 50, 50, -1).b, parm, d.b, onePart(5, 3), me.b, flatDraw(3), nil, (&bld{}).u32(0).b)
}

func TestReferenceKeyformless(t *testing.T) {
	data := fixtureKeyformless()
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.file.Deformers[0].Warp.Keyforms != nil || m.file.Deformers[1].Rotation.Keyforms != nil {
		t.Fatal("keyform grids appeared")
	}
	r := m.NewRig()
	r.Evaluate()
	// eval.rs lattice_points: every point of the warp at the origin, so
	// every child point maps to (0, 0). pivot_at: the rotation is the
	// identity. rotation_frame: r2 sits at the warp's image of (0.5, 0.5),
	// (0, 0), turned 90° (the collapsed lattice's "above" point is the
	// origin itself): (10, 0) → (0, 10), (0, 10) → (−10, 0).
	for _, c := range []struct {
		mesh int
		want []float32
	}{{0, []float32{0, 0, 0, 0, 0, 0}}, {1, []float32{0, 0, 10, 0, 0, 10}}, {2, []float32{0, 0, 0, 10, -10, 0}}} {
		if v := r.Mesh(c.mesh).Vertices(); !near32s(v, c.want, 1e-5) {
			t.Errorf("mesh %d: vertices %v, want %v", c.mesh, v, c.want)
		}
	}
	if again := mustWrite(t, m, nil); string(again) != string(data) {
		t.Fatalf("writer output differs from the hand-built file:\n%x\n%x", again, data)
	}
}

// fixturePageWithoutTEXR: minimalChunks' mesh samples texture page 0, and
// the file has no TEXR chunk (P2lrt.kt writes the page index whatever
// pages exist).
func fixturePageWithoutTEXR() []byte {
	return buildV2(withChunk("MESH", func(c *tchunk) {
		c.data = append([]byte(nil), c.data...)
		le.PutUint32(c.data[4+4+4+4+1+1+4+1:], 0) // texturePage 0
	})...)
}

func TestReferencePageWithoutTEXR(t *testing.T) {
	data := fixturePageWithoutTEXR()
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.file.Meshes[0].TexturePage != 0 || len(m.file.Textures) != 0 {
		t.Fatalf("page %d, %d pages", m.file.Meshes[0].TexturePage, len(m.file.Textures))
	}
	// The mesh evaluates and stays in the render order; drawing it is the
	// renderers' business (the reference's draws nothing for it).
	r := m.NewRig()
	r.Evaluate()
	if v := r.Mesh(0).Vertices(); !near32s(v, []float32{0, 0, 10, 0, 0, 10}, 0) || len(r.RenderOrder()) != 1 {
		t.Errorf("vertices %v order %v", v, r.RenderOrder())
	}
	if again := mustWrite(t, m, nil); string(again) != string(data) {
		t.Fatalf("writer output differs from the hand-built file:\n%x\n%x", again, data)
	}
}

// TestReferenceMinimal: the minimal v2 and v1 files evaluate to their rest
// pose; the part is isolated in PART (groupMode 2) but its draw group has
// no composite, so it draws flat (eval.rs render_commands).
func TestReferenceMinimal(t *testing.T) {
	for name, data := range map[string][]byte{"v2": buildV2(minimalChunks()...), "v1": handBuiltV1()} {
		m, err := Load(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r := m.NewRig()
		r.Evaluate()
		mul, scr := r.Mesh(0).Colors()
		if v := r.Mesh(0).Vertices(); !near32s(v, []float32{0, 0, 10, 0, 0, 10}, 0) || r.Mesh(0).Opacity() != 1 ||
			mul != p2lrt.White || scr != p2lrt.Black || r.Mesh(0).DrawOrder() != 3 || len(r.RenderCommands()) != 1 || r.RenderCommands()[0] != 0 {
			t.Errorf("%s: vertices %v opacity %v colors %v %v draw %v commands %v", name, v, r.Mesh(0).Opacity(), mul, scr,
				r.Mesh(0).DrawOrder(), r.RenderCommands())
		}
	}
}

// referenceFixtures lists the fixtures above by name (reference_test.go
// hands them to the reference runtime).
func referenceFixtures() map[string][]byte {
	return map[string][]byte{
		"v2-minimal":           buildV2(minimalChunks()...),
		"v1-minimal":           handBuiltV1(),
		"physics":              fixturePhysics(),
		"v1-physics-clips":     fixtureV1PhysicsClips(),
		"binding-absent-keys":  fixtureBindingAbsentKeys(),
		"empty-deltas":         fixtureEmptyDeltas(),
		"keyformless":          fixtureKeyformless(),
		"page-without-texr":    fixturePageWithoutTEXR(),
		"handbuilt-phys-chunk": handBuiltPhysicsFile(),
		// Not hand-built: our writer's output of fullModel (every chunk),
		// for the reference to read.
		"writer-full-model": mustEncode(fullModel()),
	}
}

func mustEncode(m *Model) []byte {
	b, err := m.file.Encode(nil)
	if err != nil {
		panic(err)
	}
	return b
}

func near32s(a, b []float32, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i])-float64(b[i])) > tol {
			return false
		}
	}
	return true
}

// TestOldLayoutMessages: files in p2l-ebiten's pre-reference layouts are
// rejected with an error that names the layout and says what it looks
// like, not only the misparse a few fields later.
func TestOldLayoutMessages(t *testing.T) {
	// v1 with the old flags word (0) before the canvas.
	v1 := handBuiltV1()
	old := append(append(append([]byte(nil), v1[:12]...), 0, 0, 0, 0), v1[12:]...)
	_, err := Load(old)
	checkErr(t, err, "p2l: v1 section")
	checkErr(t, err, "pre-reference layout, with a flags word before the canvas")
	// PHYS input in the old order {param, u8 source, f32 weight, u8 reflect}.
	chunks, phys := handBuiltPhysChunks()
	b := append([]byte(nil), phys...)
	in := 4 + 4 + 4 + 4 + 4                      // fps, groups, id, name, input count
	b[in+4] = 1                                  // source Angle first
	le.PutUint32(b[in+5:], math.Float32bits(60)) // then the weight
	_, err = Load(buildV2(insertBefore(chunks, "META", req("PHYS", b))...))
	checkErr(t, err, "p2l: v2 chunk PHYS: offset")
	checkErr(t, err, "groups[0].inputs[0].source: value 66 out of range")
	checkErr(t, err, "pre-reference layout?")
	// An error of a model names no layout.
	m := minimalModel()
	m.file.Meshes[0].Indices[0] = 9
	if err := m.file.Validate(); err == nil || err.Error() != "p2l: chunk MESH: meshes[0].indices: index 9 at 0 is not below the vertex count 3" {
		t.Errorf("model error: %v", err)
	}
}
