package p2l

import (
	"math"
	"reflect"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Files the spec allows that the reader used to refuse (issue 35), built
// byte by byte from P2LRT_V2.md (line numbers of that file in the
// comments) with the bld helpers of handbuilt_test.go, never by our
// writer. Each must load and evaluate; where the reader keeps the file's
// meaning in another form (docs/FORMAT.md), our writer writes that form —
// a file rig.rs reads — which is checked byte for byte against the same
// file built by hand in that form, and the two must evaluate to the same
// bits.

// triangleMesh is minimalChunks' MESH chunk (one triangle, no parent) with
// the given keyform grid and channels in place of "u16 0xFFFF, u8 0".
// P2LRT_V2.md 177–182: sref id, sref name, i32 parent, u8 blend, u8
// alphaBlend, u32 n × ref maskMesh, u8 flags, i32 texturePage, [geometry]
// positions, uvs, indices, grid<array<f32> deltas>, channels, f32
// drawOrder, f32 opacity, rgb multiply, rgb screen, bindings.
func triangleMesh(keyforms, channels func(w *bld)) []byte {
	return triangleMeshID(3, keyforms, channels)
}

// triangleMeshID is triangleMesh with the mesh's id at sref id.
func triangleMeshID(id uint32, keyforms, channels func(w *bld)) []byte {
	w := (&bld{}).u32(1).u32(id).u32(none).i32(-1).u8(0, 0).u32(0).u8(8|4).i32(-1).
		arrF32(0, 0, 10, 0, 0, 10).arrF32(0, 0, 1, 0, 0, 1).arrU16(0, 1, 2)
	keyforms(w)
	channels(w)
	return w.f32(3, 1, 1, 1, 1).f32(0, 0, 0).u16(0).b
}

func noGrid(w *bld)     { w.u16(0xFFFF) }
func noChannels(w *bld) { w.u8(0) }

// withMESH is minimalChunks with another MESH chunk.
func withMESH(mesh []byte) []byte {
	cs := minimalChunks()
	cs[5] = req("MESH", mesh)
	return buildV2(cs...)
}

// loadSameAs loads data and the equivalent file want (the form the writer
// writes), checks that they decode to equal models, that the writer writes
// want back byte for byte, and that both evaluate to the same bits at the
// default pose and at the parameter's ends. It returns the model.
func loadSameAs(t *testing.T, data, want []byte) *Model {
	t.Helper()
	m, err := Load(data)
	if err != nil {
		t.Fatalf("spec-valid file refused: %v", err)
	}
	mw, err := Load(want)
	if err != nil {
		t.Fatalf("the equivalent file does not load: %v", err)
	}
	if !sameFile(m, mw) {
		t.Fatalf("the file and its equivalent decode differently: %s", diffModels(mw, m))
	}
	if again := mustWrite(t, m, nil); string(again) != string(want) {
		t.Fatalf("writer output differs from the equivalent file:\n%x\n%x", again, want)
	}
	r, rw := m.NewRig(), mw.NewRig()
	for _, v := range []float32{0.5, -1, 1} {
		r.SetParameter(0, v)
		rw.SetParameter(0, v)
		r.Evaluate()
		rw.Evaluate()
		for i := range m.file.Meshes {
			if a, b := r.Mesh(i).Vertices(), rw.Mesh(i).Vertices(); !reflect.DeepEqual(bits32(a), bits32(b)) {
				t.Errorf("P=%v mesh %d: vertices %v, equivalent file %v", v, i, a, b)
			}
			if a, b := r.Mesh(i).Opacity(), rw.Mesh(i).Opacity(); math.Float32bits(a) != math.Float32bits(b) {
				t.Errorf("P=%v mesh %d: opacity %v, equivalent file %v", v, i, a, b)
			}
		}
	}
	return m
}

func bits32(v []float32) []uint32 {
	b := make([]uint32, len(v))
	for i, f := range v {
		b[i] = math.Float32bits(f)
	}
	return b
}

// TestGridWithoutCells: grid<F> (P2LRT_V2.md 96) sets no minimum on
// `u32 cells`, and RUNTIME.md 37 gives every missing cell of a sparse grid
// the zero shape (mesh offsets zero, a deformer's absolute shape at the
// origin), so a grid of 0 cells is every combination missing.
func TestGridWithoutCells(t *testing.T) {
	minimal := buildV2(minimalChunks()...)
	t.Run("mesh keyforms, 0 axes 0 cells", func(t *testing.T) {
		// u16 axes = 0, u32 cells = 0: no offset at any pose, which is the
		// mesh without keyforms (u16 0xFFFF).
		data := withMESH(triangleMesh(func(w *bld) { w.u16(0).u32(0) }, noChannels))
		m := loadSameAs(t, data, minimal)
		r := m.NewRig()
		r.Evaluate()
		if v := r.Mesh(0).Vertices(); !near32s(v, []float32{0, 0, 10, 0, 0, 10}, 0) {
			t.Errorf("vertices %v, want the rest pose", v)
		}
	})
	t.Run("mesh keyforms, 1 axis 0 cells", func(t *testing.T) {
		// One axis on parameter 0 with keys −1, 1, then u32 cells = 0.
		data := withMESH(triangleMesh(func(w *bld) { w.u16(1).u32(0).arrF32(-1, 1).u32(0) }, noChannels))
		loadSameAs(t, data, minimal)
	})
	t.Run("channels", func(t *testing.T) {
		// channels (P2LRT_V2.md 97): u8 n × { u8 channel, u8 kind, grid }.
		// Opacity (channel 1, kind 0 scalar) over parameter 0 without
		// cells: every cell missing counts 0, so opacity 0 at every pose —
		// the grid of no axes and one cell 0. FlipX (channel 4, kind 2
		// flag) without cells: a missing flag cell leaves the flip as it
		// was, as no channel does.
		empty := func(w *bld) { w.u16(1).u32(0).arrF32(-1, 1).u32(0) }
		data := withMESH(triangleMesh(noGrid, func(w *bld) {
			w.u8(2).u8(1, 0)
			empty(w)
			w.u8(4, 2)
			empty(w)
		}))
		want := withMESH(triangleMesh(noGrid, func(w *bld) { w.u8(1).u8(1, 0).u16(0).u32(1).f32(0) }))
		m := loadSameAs(t, data, want)
		r := m.NewRig()
		r.Evaluate()
		if r.Mesh(0).Opacity() != 0 {
			t.Errorf("opacity %v, want 0", r.Mesh(0).Opacity())
		}
	})
	t.Run("rotation keyforms, 1 axis 0 cells", func(t *testing.T) {
		// DEFM (P2LRT_V2.md 155–162): one rotation "r" (kind 1) without
		// parent or part, flags visible|enabled, opacity 1, white, black,
		// base angle 0, then its grid<{x, y, angle, scale}>: every cell
		// missing is the all-zero keyform: pivot (0, 0), angle 0, scale 0,
		// so the triangle under it collapses onto the origin. The
		// equivalent: no axes and one cell (0, 0, 0, 0).
		// Strings in the writer's first-use order (DEFM before PART, MESH).
		strs := strsChunk("P", "Param", "r", "part", "m")
		defm := func(grid func(w *bld)) []byte {
			w := (&bld{}).u32(1).u8(1).u32(2).i32(-1).i32(-1).u8(1|2).f32(1, 1, 1, 1, 0, 0, 0).f32(0)
			grid(w)
			return w.u8(0).u16(0).b
		}
		mesh := triangleMeshID(4, noGrid, noChannels)
		le.PutUint32(mesh[12:], 0) // parent: deformer 0
		file := func(grid func(w *bld)) []byte {
			cs := minimalChunks()
			cs[0], cs[3], cs[4], cs[5] = req("STRS", strs), req("DEFM", defm(grid)), req("PART", onePart(3, 1)), req("MESH", mesh)
			return buildV2(cs...)
		}
		data := file(func(w *bld) { w.u16(1).u32(0).arrF32(-1, 1).u32(0) })
		want := file(func(w *bld) { w.u16(0).u32(1).f32(0, 0, 0, 0) })
		m := loadSameAs(t, data, want)
		r := m.NewRig()
		r.Evaluate()
		if v := r.Mesh(0).Vertices(); !near32s(v, []float32{0, 0, 0, 0, 0, 0}, 0) {
			t.Errorf("vertices %v, want all at the origin", v)
		}
	})
}

// TestMeshWithoutGeometry: MESH flags bit 3 clear (P2LRT_V2.md 179–186):
// positions, uvs and indices are absent and the keyform grid and the rest
// follow at once. rig.rs mesh reads it (geometry None, 0 vertices).
func TestMeshWithoutGeometry(t *testing.T) {
	// The smallest record: sref id "m", name none, parent −1, blend 0,
	// alpha 0, no masks, flags 4 (visible), page −1, no grid, no channels,
	// drawOrder 3, opacity 1, multiply white, screen black, no bindings:
	// 4+4+4+1+1+4+1+4+2+1+4+4+12+12+2 = 60 bytes after the u32 count.
	smallest := (&bld{}).u32(1).u32(3).u32(none).i32(-1).u8(0, 0).u32(0).u8(4).i32(-1).
		u16(0xFFFF).u8(0).f32(3, 1, 1, 1, 1).f32(0, 0, 0).u16(0).b
	if len(smallest) != 4+60 {
		t.Fatalf("record of %d bytes", len(smallest)-4)
	}
	// The same with a keyform grid on parameter 0 (keys −1, 1; a cell at
	// key 1 with deltas (7, 7), which no vertex uses — rig.rs validate
	// checks deltas only against geometry) and a binding on parameter 0
	// (keys 0, 1, neutral 0) whose present key 1 has no deltas and
	// opacity 0.5 (P2LRT_V2.md 98, 182).
	keyed := (&bld{}).u32(1).u32(3).u32(none).i32(-1).u8(0, 0).u32(0).u8(4).i32(-1).
		u16(1).u32(0).arrF32(-1, 1).u32(1).u16(1).arrF32(7, 7).
		u8(0).f32(3, 1, 1, 1, 1).f32(0, 0, 0).
		u16(1).u32(0).arrF32(0, 1).u32(0).u8(0).u8(1).arrF32().f32(7, 0.5, 1, 1, 1, 0, 0, 0).u16(0).b
	for name, mesh := range map[string][]byte{"smallest": smallest, "keyed": keyed} {
		t.Run(name, func(t *testing.T) {
			data := withMESH(mesh)
			m := loadSameAs(t, data, data)
			me := &m.file.Meshes[0]
			if me.Flags != p2lrt.MeshVisible || me.Positions != nil || me.UVs != nil || me.Indices != nil {
				t.Fatalf("mesh %+v", me)
			}
			r := m.NewRig()
			r.Evaluate()
			// Default 0.5: the binding is halfway to key 1: opacity
			// 1 + ½(0.5 − 1) = 0.75 (keyed); 1 without it.
			want := float32(1)
			if name == "keyed" {
				want = 0.75
			}
			if len(r.Mesh(0).Vertices()) != 0 || math.Abs(float64(r.Mesh(0).Opacity()-want)) > 1e-6 {
				t.Errorf("vertices %v opacity %v, want none and %v", r.Mesh(0).Vertices(), r.Mesh(0).Opacity(), want)
			}
		})
	}
}

// TestCoreChunkNotFlaggedRequired: the required flag (P2LRT_V2.md 33, bit0)
// decides only what a reader does with a chunk it does not know (68–70); a
// known chunk is read as its version says (67), flagged or not. Every core
// chunk of the minimal file with the flag clear loads as the minimal file,
// which the writer writes back (flag set, 115).
func TestCoreChunkNotFlaggedRequired(t *testing.T) {
	minimal := buildV2(minimalChunks()...)
	for _, tag := range []string{"STRS", "CANV", "PARM", "DEFM", "PART", "MESH", "DRAW"} {
		t.Run(tag, func(t *testing.T) {
			data := buildV2(withChunk(tag, func(c *tchunk) { c.flags = 2 })...)
			loadSameAs(t, data, minimal)
		})
	}
}

// TestNegativeNullableReferences: a nullable reference is an i32 with −1
// for none (P2LRT_V2.md 91); the spec names no other negative, and rig.rs
// optional reads every negative as none. DEFM parent and part (155), MESH
// parent (178) and DRAW part (194) at −2, −5 and −2³¹ load as −1.
func TestNegativeNullableReferences(t *testing.T) {
	// Strings in the writer's first-use order (DEFM before PART, MESH).
	strs := strsChunk("P", "Param", "r", "part", "m")
	file := func(defParent, defPart, meshParent, drawPart int32) []byte {
		// One rotation "r": base angle 0, no axes and one keyform
		// (10, 20, 0°, 1), no channels, no bindings.
		defm := (&bld{}).u32(1).u8(1).u32(2).i32(defParent).i32(defPart).u8(1|2).f32(1, 1, 1, 1, 0, 0, 0).
			f32(0).u16(0).u32(1).f32(10, 20, 0, 1).u8(0).u16(0).b
		mesh := triangleMeshID(4, noGrid, noChannels)
		le.PutUint32(mesh[12:], uint32(meshParent))
		draw := (&bld{}).i32(drawPart).i32(0).u8(0).u8(0).u32(1).u8(1).u32(0).b
		cs := minimalChunks()
		cs[0], cs[3], cs[4], cs[5], cs[6] = req("STRS", strs), req("DEFM", defm), req("PART", onePart(3, 1)), req("MESH", mesh), req("DRAW", draw)
		return buildV2(cs...)
	}
	want := file(-1, -1, -1, -1)
	for _, v := range []int32{-2, -5, math.MinInt32} {
		m := loadSameAs(t, file(v, v, v, v), want)
		if d := m.file.Deformers[0]; d.Parent != -1 || d.Part != -1 || m.file.Meshes[0].Parent != -1 || m.file.Draw.Part != -1 {
			t.Errorf("%d: parents %d %d %d %d, want −1", v, d.Parent, d.Part, m.file.Meshes[0].Parent, m.file.Draw.Part)
		}
	}
	// The mesh under the rotation (parent 0) with the deformer's parent −2:
	// the rotation is a root, its keyform moves the triangle by (10, 20).
	under := func(defParent int32) []byte { return file(defParent, -1, 0, -1) }
	m := loadSameAs(t, under(-2), under(-1))
	r := m.NewRig()
	r.Evaluate()
	if v := r.Mesh(0).Vertices(); !near32s(v, []float32{10, 20, 20, 20, 10, 30}, 1e-5) {
		t.Errorf("vertices %v, want the triangle moved by (10, 20)", v)
	}
}
