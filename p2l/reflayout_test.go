package p2l

import (
	"math"
	"reflect"
	"testing"
)

// This file holds byte-level fixtures in the reference layout: files laid
// out field by field as PSD2Live's writer (P2lrt.kt at commit e4aff61b)
// writes them and its runtime (runtime/src/rig.rs) reads them, built with
// the bld helper of handbuilt_test.go, never by our writer. Each must load,
// evaluate to values computed by hand from the reference's rules, and come
// back byte for byte from our writer.

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

func TestReferenceBindingAbsentKeys(t *testing.T) {
	chunks := minimalChunks()
	chunks[5] = req("MESH", meshWithShapes(0, 0, 2, 4, 0, 0))
	data := buildV2(chunks...)
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	want := minimalModel()
	want.Meshes[0].Shapes = []Binding[MeshShape]{{Parameter: 0, Keys: []float32{-1, 0, 1}, Neutral: 1,
		Present: []bool{false, false, true},
		Shapes:  []MeshShape{{}, {}, {Deltas: []float32{0, 0, 2, 4, 0, 0}, DrawOrder: 7, Opacity: 0.5, Multiply: White}},
		Limits:  []Limit{{Parameter: 0, Points: []LimitPoint{{0, 0.5}}}}}}
	if !reflect.DeepEqual(m, want) {
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
	if v := r.MeshVertices(0); !near32s(v, []float32{0, 0, 10.5, 1, 0, 10}, 1e-6) {
		t.Errorf("vertices %v", v)
	}
	if o := r.MeshOpacity(0); math.Abs(float64(o)-0.875) > 1e-6 {
		t.Errorf("opacity %v, want 0.875", o)
	}
	if d := r.MeshDrawOrder(0); math.Abs(float64(d)-4) > 1e-6 {
		t.Errorf("draw order %v, want 4", d)
	}
	// At −1 the key is absent: nothing moves.
	r.SetParameter(0, -1)
	r.Evaluate()
	if v := r.MeshVertices(0); !near32s(v, []float32{0, 0, 10, 0, 0, 10}, 0) {
		t.Errorf("at -1: vertices %v", v)
	}
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
