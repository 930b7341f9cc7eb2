package p2l

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file builds files byte by byte from the layouts of P2LRT_V2.md and
// docs/FORMAT.md, independently of the writer, so that a layout mistake
// shared by the reader and the writer (which share their field lists)
// still shows.

// bld appends little-endian values.
type bld struct{ b []byte }

func (w *bld) u8(v ...uint8) *bld { w.b = append(w.b, v...); return w }
func (w *bld) u16(v uint16) *bld  { w.b = binary.LittleEndian.AppendUint16(w.b, v); return w }
func (w *bld) u32(v uint32) *bld  { w.b = binary.LittleEndian.AppendUint32(w.b, v); return w }
func (w *bld) i32(v int32) *bld   { return w.u32(uint32(v)) }
func (w *bld) f32(v ...float32) *bld {
	for _, f := range v {
		w.u32(math.Float32bits(f))
	}
	return w
}
func (w *bld) pad4() *bld {
	for len(w.b)%4 != 0 {
		w.b = append(w.b, 0)
	}
	return w
}
func (w *bld) arrF32(v ...float32) *bld {
	w.pad4().u8(0, 0, 0, 0).u32(uint32(len(v)))
	return w.f32(v...)
}
func (w *bld) arrU16(v ...uint16) *bld {
	w.pad4().u8(16, 0, 0, 0).u32(uint32(len(v)))
	for _, x := range v {
		w.u16(x)
	}
	return w
}

// tchunk is one chunk of a hand-built file.
type tchunk struct {
	tag     string
	version uint16
	flags   uint16
	data    []byte
}

// req is a core chunk as P2lrt.kt flags it: required, with a CRC.
func req(tag string, data []byte) tchunk { return tchunk{tag, 1, 1 | 2, data} }

// opt is an optional chunk as P2lrt.kt flags it: a CRC only.
func opt(tag string, data []byte) tchunk { return tchunk{tag, 1, 2, data} }

// insertBefore returns cs with c inserted before the chunk tagged tag.
func insertBefore(cs []tchunk, tag string, c tchunk) []tchunk {
	for i := range cs {
		if cs[i].tag == tag {
			return append(cs[:i:i], append([]tchunk{c}, cs[i:]...)...)
		}
	}
	return append(cs, c)
}

// buildV2 lays chunks out as the spec says: 32-byte header, 40-byte TOC
// rows, chunks at 16-byte aligned offsets in the given order, zero padding.
// CRCs are filled in for chunks with flag bit1.
func buildV2(chunks ...tchunk) []byte {
	n := len(chunks)
	w := &bld{}
	w.b = append(w.b, "P2LRT\x00\x00\x00"...)
	w.u16(2).u16(0).u32(0).u32(uint32(n)).u32(32).u32(0).u32(0)
	pos := 32 + 40*n
	offs := make([]int, n)
	for i, c := range chunks {
		pos = (pos + 15) &^ 15
		offs[i] = pos
		pos += len(c.data)
	}
	for i, c := range chunks {
		w.b = append(w.b, c.tag...)
		w.u16(c.version).u16(c.flags)
		w.b = binary.LittleEndian.AppendUint64(w.b, uint64(offs[i]))
		w.b = binary.LittleEndian.AppendUint64(w.b, uint64(len(c.data)))
		w.b = binary.LittleEndian.AppendUint64(w.b, uint64(len(c.data)))
		var crc uint32
		if c.flags&2 != 0 {
			crc = crc32.ChecksumIEEE(c.data)
		}
		w.u32(crc).u32(0)
	}
	for i, c := range chunks {
		for len(w.b) < offs[i] {
			w.b = append(w.b, 0)
		}
		w.b = append(w.b, c.data...)
	}
	return w.b
}

const none = 0xFFFFFFFF

// minimalChunks is a tiny model written from the spec and P2lrt.kt: strings
// "P", "Param", "part", "m"; one parameter; one part holding one mesh (a
// triangle); a draw tree with that mesh; an empty META last (P2lrt.kt
// always writes META; ours holds no entries here).
func minimalChunks() []tchunk {
	strs := (&bld{}).u32(4).u32(0).u32(1).u32(6).u32(10).u32(11).u8([]byte("PParampartm")...).b
	canv := (&bld{}).f32(100, 50, 50, 25, -1).b
	parm := (&bld{}).u32(1).u32(0).u32(1).f32(-1, 1, 0.5).u8(2).b
	defm := (&bld{}).u32(0).b
	part := (&bld{}).u32(1).u32(2).u32(none).u8(1, 2).i32(-7).
		u32(1).u8(1).u32(0).                                   // children: mesh 0
		u8(0).                                                 // channels
		u8(6, 1).u32(0).u32(0).u8(0).f32(1, 1, 1, 1, 0, 0, 0). // composite
		u16(0).b                                               // bindings
	mesh := (&bld{}).u32(1).u32(3).u32(none).i32(-1).u8(0, 0).u32(0).u8(8|4).i32(-1).
		arrF32(0, 0, 10, 0, 0, 10).arrF32(0, 0, 1, 0, 0, 1).arrU16(0, 1, 2).
		u16(0xFFFF).        // keyforms: no grid, nothing follows
		u8(0).              // channels
		f32(3, 1, 1, 1, 1). // drawOrder, opacity, multiply
		f32(0, 0, 0).u16(0).b
	draw := (&bld{}).i32(-1).i32(0).u8(0).u8(0).u32(1).u8(1).u32(0).b
	return []tchunk{req("STRS", strs), req("CANV", canv), req("PARM", parm), req("DEFM", defm),
		req("PART", part), req("MESH", mesh), req("DRAW", draw), opt("META", (&bld{}).u32(0).b)}
}

func minimalModel() *Model {
	return &Model{file: &p2lrt.File{
		Canvas:     p2lrt.Canvas{Width: 100, Height: 50, OriginX: 50, OriginY: 25, PixelsPerUnit: -1},
		Parameters: []p2lrt.Parameter{{ID: "P", Name: "Param", Min: -1, Max: 1, Default: 0.5, Repeat: true}},
		Parts: []p2lrt.Part{{ID: "part", Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated, DrawOrder: -7,
			Children:  []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 0}},
			Composite: p2lrt.Composite{Blend: p2lrt.BlendMultiply, AlphaBlend: p2lrt.AlphaAtop, Opacity: 1, Multiply: p2lrt.White}}},
		Meshes: []p2lrt.Mesh{{ID: "m", Parent: -1, TexturePage: -1, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible,
			Positions: []float32{0, 0, 10, 0, 0, 10}, UVs: []float32{0, 0, 1, 0, 0, 1}, Indices: []uint32{0, 1, 2},
			DrawOrder: 3, Opacity: 1, Multiply: p2lrt.White}},
		Draw: p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{{Mesh: 0}}},
	}}
}

func TestHandBuiltMinimal(t *testing.T) {
	data := buildV2(minimalChunks()...)
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if want := minimalModel(); !sameFile(m, want) {
		t.Fatalf("hand-built file decodes wrongly: %s", diffModels(want, m))
	}
	// The writer produces the same chunk contents (STRS in first-use order
	// is "P", "Param", "part", "m", exactly as built by hand).
	again := mustWrite(t, m, nil)
	if string(again) != string(data) {
		t.Fatalf("writer output differs from the hand-built file:\n%x\n%x", again, data)
	}
}

// TestHandBuiltV1 checks the v1 layout (P2lrt.kt v1()): magic, version, then the
// core sections with inline strings and plain arrays.
func TestHandBuiltV1(t *testing.T) {
	w := &bld{b: handBuiltV1()}
	m, err := Load(w.b)
	if err != nil {
		t.Fatal(err)
	}
	if want := minimalModel(); !sameFile(m, want) {
		t.Fatalf("hand-built v1 decodes wrongly: %s", diffModels(want, m))
	}
	if again := mustWrite(t, m, &p2lrt.WriteOptions{V1: true}); string(again) != string(w.b) {
		t.Fatalf("v1 writer differs from the hand-built file:\n%x\n%x", again, w.b)
	}
}

// handBuiltV1 is minimalModel as a v1 stream.
func handBuiltV1() []byte {
	str := func(w *bld, s string) { w.u32(uint32(len(s))).u8([]byte(s)...) }
	w := &bld{}
	w.b = append(w.b, "P2LRT\x00\x00\x00"...)
	w.u32(1)                   // version 1; the canvas follows at byte 12
	w.f32(100, 50, 50, 25, -1) // CANV
	w.u32(1)                   // PARM
	str(w, "P")
	str(w, "Param")
	w.f32(-1, 1, 0.5).u8(2)
	w.u32(0) // DEFM
	w.u32(1) // PART
	str(w, "part")
	str(w, "")
	w.u8(1, 2).i32(-7).u32(1).u8(1).u32(0).u8(0).u8(6, 1).u32(0).u32(0).u8(0).f32(1, 1, 1, 1, 0, 0, 0).u16(0)
	w.u32(1) // MESH
	str(w, "m")
	str(w, "")
	w.i32(-1).u8(0, 0).u32(0).u8(12).i32(-1)
	w.u32(6).f32(0, 0, 10, 0, 0, 10).u32(6).f32(0, 0, 1, 0, 0, 1).u32(3).u32(0).u32(1).u32(2)
	w.u16(0xFFFF).u8(0).f32(3, 1, 1, 1, 1, 0, 0, 0).u16(0)
	w.u32(0)                                         // GLUE
	w.i32(-1).i32(0).u8(0).u8(0).u32(1).u8(1).u32(0) // DRAW
	w.u32(0)                                         // TEXR
	w.f32(0).u32(0)                                  // PHYS
	w.u32(0)                                         // CLIP
	w.u32(0)                                         // ROLE
	return w.b
}

// TestHandBuiltPhysics checks the PHYS record in the reference layout
// (P2lrt.kt physics(), rig.rs physics_group): input {param, f32 weight,
// u8 source, u8 reflect}, output {param, u32 vertex, f32 scale, f32 weight,
// u8 source, u8 reflect}, segments {length, mobility, delay, acceleration}
// with an implicit root, normalization {min, default, max} for position
// then angle.
func handBuiltPhysChunks() ([]tchunk, []byte) {
	chunks := minimalChunks()
	// STRS gains "Hair" (first used by PHYS, after the other chunks).
	chunks[0] = req("STRS", (&bld{}).u32(5).u32(0).u32(1).u32(6).u32(10).u32(11).u32(15).u8([]byte("PParampartmHair")...).b)
	phys := (&bld{}).f32(30).u32(1).
		u32(4).u32(none).                                   // id "Hair", no name
		u32(1).u32(0).f32(60).u8(1, 0).                     // input: param 0, weight 60, angle, no reflect
		u32(1).u32(0).u32(1).f32(1.5, 100).u8(1, 1).        // output: param 0, vertex 1, scale, weight, angle, reflect
		u32(2).f32(10, 0.95, 0.9, 1.5).f32(5, 0.9, 0.8, 1). // two segments
		f32(-10, 0.5, 10, -20, 1, 20).b                     // normalization
	return chunks, phys
}

// handBuiltPhysicsFile is minimalModel with the PHYS chunk of
// handBuiltPhysChunks.
func handBuiltPhysicsFile() []byte {
	chunks, phys := handBuiltPhysChunks()
	return buildV2(insertBefore(chunks, "META", req("PHYS", phys))...)
}

func TestHandBuiltPhysics(t *testing.T) {
	chunks, phys := handBuiltPhysChunks()
	data := handBuiltPhysicsFile()
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	want := minimalModel()
	want.file.Physics = p2lrt.Physics{Fps: 30, Groups: []p2lrt.PhysicsGroup{{ID: "Hair",
		Inputs:   []p2lrt.PhysicsInput{{Parameter: 0, Weight: 60, Source: p2lrt.PhysicsAngle}},
		Outputs:  []p2lrt.PhysicsOutput{{Parameter: 0, Vertex: 1, Scale: 1.5, Weight: 100, Source: p2lrt.PhysicsAngle, Reflect: true}},
		Segments: []p2lrt.PhysicsSegment{{Length: 10, Mobility: 0.95, Delay: 0.9, Acceleration: 1.5}, {Length: 5, Mobility: 0.9, Delay: 0.8, Acceleration: 1}},
		Normalization: p2lrt.PhysicsNormalization{PositionMin: -10, PositionDefault: 0.5, PositionMax: 10,
			AngleMin: -20, AngleDefault: 1, AngleMax: 20},
	}}}
	if !sameFile(m, want) {
		t.Fatalf("hand-built PHYS decodes wrongly: %s", diffModels(want, m))
	}
	if again := mustWrite(t, m, nil); string(again) != string(data) {
		t.Fatalf("writer output differs from the hand-built file:\n%x\n%x", again, data)
	}
	// Vertex 2 (the end of the second segment) is the last one; 3 is out
	// of range, 0 (the root) is accepted and writes nothing.
	for v, ok := range map[uint32]bool{0: true, 2: true, 3: false} {
		b := append([]byte(nil), phys...)
		binary.LittleEndian.PutUint32(b[4+4+4+4+4+4+4+2+4+4:], v)
		_, err := Load(buildV2(insertBefore(chunks, "META", req("PHYS", b))...))
		if (err == nil) != ok {
			t.Errorf("output vertex %d: err %v, want accepted %v", v, err, ok)
		}
	}
}
