package moc3write

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// slotCount is the number of offset-table slots of each version
// (moc3.hexpat: 101 through 3.0, +1 warp quad flag in 3.3, +35 in 4.2,
// +15 in 5.0; 5.3: +15 from the Ren sample).
var slotCount = map[uint8]int{V30: 101, V33: 102, V40: 102, V42: 137, V50: 152, V53: 167}

func TestEmptyModel(t *testing.T) {
	for _, v := range Versions {
		b, err := Write(&Model{}, v)
		if err != nil {
			t.Fatal(err)
		}
		s := loadBytes(b)
		// Count table at 0x7c0 (0x16c0 in 5.3), 128 bytes before 5.0 and
		// 256 from it, then the 64-byte canvas; every array is empty and
		// points at the aligned end, which is the file's end:
		// 0x7c0+128+64 = 0x880, 0x7c0+256+64 = 0x900, 0x16c0+256+64 = 0x1800.
		ct, end := 0x7c0, 0x880
		switch {
		case v >= V53:
			ct, end = 0x16c0, 0x1800
		case v >= V50:
			end = 0x900
		}
		if string(b[:4]) != "MOC3" || b[4] != v || b[5] != 0 || len(b) != end {
			t.Fatalf("v%d: header % x, length %#x, want MOC3 %d 0 and %#x", v, b[:6], len(b), v, end)
		}
		if s.slot(0) != ct || s.slot(1) != end-64 {
			t.Errorf("v%d: count table %#x, canvas %#x", v, s.slot(0), s.slot(1))
		}
		for i := 2; i < slotCount[v]; i++ {
			if s.slot(i) != end {
				t.Errorf("v%d slot %d: %#x, want %#x", v, i, s.slot(i), end)
			}
		}
		if s.slot(slotCount[v]) != 0 {
			t.Errorf("v%d: slot %d (past the table) is %#x", v, slotCount[v], s.slot(slotCount[v]))
		}
		for i, c := range s.counts {
			if c != 0 {
				t.Errorf("v%d: count %d is %d", v, i, c)
			}
		}
	}
}

// TestOnePart checks a one-part 3.0 file against offsets computed by hand.
func TestOnePart(t *testing.T) {
	m := &Model{
		Canvas: Canvas{PixelsPerUnit: 2, OriginX: 3, OriginY: 4, Width: 5, Height: 6, Flags: 1},
		Parts:  []Part{{ID: "PartA", Parent: -1, Visible: true, Keyforms: []PartKeyform{{DrawOrder: 500}}}},
	}
	b, err := Write(m, V30)
	if err != nil {
		t.Fatal(err)
	}
	s := loadBytes(b)
	// Canvas at 0x840; parts: runtime space 0x880 (8 bytes), ids right
	// after at 0x888 (64 bytes, to 0x8c8), then 4-byte arrays at 0x900,
	// 0x940, 0x980, 0x9c0, 0xa00, 0xa40. Deformers to parameters are empty
	// at 0xa80, where the part keyform's draw order goes (4 bytes); the
	// keyform bindings (one, of no parameter binding) at 0xac0 and 0xb00;
	// the rest empty at 0xb40, the file's end.
	want := map[int]int{1: 0x840, 2: 0x880, 3: 0x888, 4: 0x900, 5: 0x940, 6: 0x980, 7: 0x9c0, 8: 0xa00, 9: 0xa40,
		10: 0xa80, 58: 0xa80, 59: 0xac0, 72: 0xac0, 73: 0xac0, 74: 0xb00, 75: 0xb40, 100: 0xb40}
	for slot, off := range want {
		if s.slot(slot) != off {
			t.Errorf("slot %d: %#x, want %#x", slot, s.slot(slot), off)
		}
	}
	if len(b) != 0xb40 {
		t.Errorf("length %#x, want 0xb40", len(b))
	}
	le := binary.LittleEndian
	checks := []struct {
		what      string
		got, want uint32
	}{
		{"parts", s.counts[CountParts], 1}, {"part keyforms", s.counts[CountPartKeyforms], 1},
		{"keyform bindings", s.counts[CountKeyformBindings], 1}, {"parameter bindings", s.counts[CountParameterBindings], 0},
		{"canvas ppu", le.Uint32(b[0x840:]), 0x40000000}, {"canvas height", le.Uint32(b[0x850:]), 0x40c00000},
		{"canvas flags", uint32(b[0x854]), 1},
		{"keyform binding", le.Uint32(b[0x900:]), 0}, {"keyform begin", le.Uint32(b[0x940:]), 0},
		{"keyform count", le.Uint32(b[0x980:]), 1}, {"visible", le.Uint32(b[0x9c0:]), 1}, {"enabled", le.Uint32(b[0xa00:]), 0},
		{"parent", le.Uint32(b[0xa40:]), 0xffffffff}, {"draw order 500", le.Uint32(b[0xa80:]), 0x43fa0000},
		{"binding begin", le.Uint32(b[0xac0:]), 0}, {"binding count", le.Uint32(b[0xb00:]), 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %#x, want %#x", c.what, c.got, c.want)
		}
	}
	if id := b[0x888 : 0x888+64]; string(bytes.TrimRight(id, "\x00")) != "PartA" || id[5] != 0 {
		t.Errorf("id bytes %q", id)
	}
	if rt := b[0x880:0x888]; !bytes.Equal(rt, make([]byte, 8)) {
		t.Errorf("runtime space % x, want zeros", rt)
	}
}

// TestBindings checks the parameter and keyform bindings of objects that
// share and interleave axes: bindings are grouped by parameter and
// deduplicated, keys follow their bindings.
func TestBindings(t *testing.T) {
	one := []PartKeyform{{}, {}}
	m := &Model{
		Parameters: []Parameter{{ID: "P0"}, {ID: "P1"}},
		Parts: []Part{
			{ID: "a", Axes: []Axis{{Parameter: 1, Keys: []float32{0, 1}}}, Keyforms: one},
			{ID: "b", Axes: []Axis{{Parameter: 0, Keys: []float32{-1, 1}}}, Keyforms: one},
			{ID: "c", Axes: []Axis{{Parameter: 1, Keys: []float32{0, 1}}}, Keyforms: one},
			{ID: "d", Axes: []Axis{{Parameter: 1, Keys: []float32{0, 1}}, {Parameter: 0, Keys: []float32{-1, 1}}},
				Keyforms: []PartKeyform{{}, {}, {}, {}}},
		},
	}
	b, err := Write(m, V30)
	if err != nil {
		t.Fatal(err)
	}
	s := loadBytes(b)
	// Parameter bindings: P0's (keys -1,1) is binding 0, P1's (0,1) is 1;
	// keys [-1 1 0 1]. Keyform bindings in first-appearance order:
	// [1] for a and c, [0] for b, [1 0] for d.
	eq := func(what string, got []int32, want ...int32) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %v, want %v", what, got, want)
			return
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %v, want %v", what, got, want)
				return
			}
		}
	}
	eq("part keyform bindings", s.i32s(4, 4), 0, 1, 0, 2)
	eq("parameter binding begins", s.i32s(56, 2), 0, 1)
	eq("parameter binding counts", s.i32s(57, 2), 1, 1)
	eq("binding indices", s.i32s(slotParamBindIndices, 4), 1, 0, 1, 0)
	eq("keyform binding begins", s.i32s(slotKeyformBindBegin, 3), 0, 1, 2)
	eq("keyform binding counts", s.i32s(slotKeyformBindCount, 3), 1, 1, 2)
	eq("key begins", s.i32s(75, 2), 0, 2)
	eq("key counts", s.i32s(76, 2), 2, 2)
	eq("keys (float bits)", s.i32s(77, 4), int32(-0x40800000), 0x3f800000, 0, 0x3f800000)
}

func TestRefused(t *testing.T) {
	c := &Colors{}
	cases := []struct {
		name string
		m    Model
		v    uint8
		want string
	}{
		{"version 0", Model{}, 0, "unknown version"},
		{"version 7", Model{}, 7, "unknown version"},
		{"quad before 3.3", Model{Deformers: []Deformer{{Warp: &WarpDeformer{QuadSource: true, Keyforms: []WarpKeyform{{Positions: make([][2]float32, 1)}}}}}}, V30, "quad source"},
		{"colours before 4.2", Model{ArtMeshes: []ArtMesh{{Keyforms: []ArtMeshKeyform{{Colors: c}}}}}, V40, "colours"},
		{"parameter keys before 4.2", Model{Parameters: []Parameter{{Keys: []float32{0}}}}, V40, "4.2"},
		{"blend shape parameter before 4.2", Model{Parameters: []Parameter{{BlendShape: true}}}, V33, "4.2"},
		{"mesh blend shapes before 4.2", Model{ArtMeshes: []ArtMesh{{Keyforms: []ArtMeshKeyform{{}}, BlendShapes: []BlendShape[ArtMeshKeyform]{{}}}}}, V40, "blend shapes"},
		{"part blend shapes before 5.0", Model{Parts: []Part{{Keyforms: []PartKeyform{{}}, BlendShapes: []BlendShape[PartKeyform]{{}}}}}, V42, "blend shapes"},
		{"glue blend shapes before 5.0", Model{Glues: []Glue{{Keyforms: []GlueKeyform{{}}, BlendShapes: []BlendShape[GlueKeyform]{{}}}}}, V42, "blend shapes"},
		{"mesh blend mode before 5.3", Model{ArtMeshes: []ArtMesh{{Keyforms: []ArtMeshKeyform{{}}, Blend: Blend{Alpha: 1}}}}, V50, "5.3"},
		{"offscreen before 5.3", Model{Parts: []Part{{Keyforms: []PartKeyform{{}}}}, Offscreens: []Offscreen{{}}}, V50, "offscreens"},
		{"grid mismatch", Model{Parameters: []Parameter{{}}, Parts: []Part{{Axes: []Axis{{Keys: []float32{0, 1}}}, Keyforms: []PartKeyform{{}}}}}, V30, "grid has 2"},
		{"no keys", Model{Parameters: []Parameter{{}}, Parts: []Part{{Axes: []Axis{{}}, Keyforms: []PartKeyform{{}}}}}, V30, "no keys"},
		{"axis parameter", Model{Parts: []Part{{Axes: []Axis{{Parameter: 0, Keys: []float32{0}}}, Keyforms: []PartKeyform{{}}}}}, V30, "out of range"},
		{"warp positions", Model{Deformers: []Deformer{{Warp: &WarpDeformer{Rows: 1, Columns: 1, Keyforms: []WarpKeyform{{Positions: make([][2]float32, 3)}}}}}}, V30, "grid has 4"},
		{"mesh positions", Model{ArtMeshes: []ArtMesh{{UVs: make([][2]float32, 2), Keyforms: []ArtMeshKeyform{{}}}}}, V30, "2 vertices"},
		{"both deformer kinds", Model{Deformers: []Deformer{{Warp: &WarpDeformer{}, Rotation: &RotationDeformer{}}}}, V30, "exactly one"},
		{"long id", Model{Parts: []Part{{ID: strings.Repeat("x", 65), Keyforms: []PartKeyform{{}}}}}, V30, "longer than 64"},
		{"legacy blend mode", Model{ArtMeshes: []ArtMesh{{BlendMode: 4, Keyforms: []ArtMeshKeyform{{}}}}}, V30, "2 bits"},
		{"offscreen keyforms", Model{Parts: []Part{{Keyforms: []PartKeyform{{}}}}, Offscreens: []Offscreen{{}}}, V53, "0 keyforms"},
		{"offscreen owner", Model{Offscreens: []Offscreen{{OwnerPart: 0}}}, V53, "owner part 0 out of range"},
		{"constraint lengths", Model{Parameters: []Parameter{{}}, ArtMeshes: []ArtMesh{{Keyforms: []ArtMeshKeyform{{}},
			BlendShapes: []BlendShape[ArtMeshKeyform]{{Constraints: []Constraint{{Keys: []float32{0}}}}}}}}, V42, "1 keys, 0 weights"},
		{"draw-order cycle", Model{DrawOrderGroups: []DrawOrderGroup{{Objects: []DrawOrderObject{{Part: true, Self: 0}}}}}, V30, "contains itself"},
	}
	for _, tc := range cases {
		if _, err := Write(&tc.m, tc.v); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, v := range Versions {
		a, err := Write(Example(v), v)
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		b, _ := Write(Example(v), v)
		if !bytes.Equal(a, b) {
			t.Errorf("v%d: two writes differ", v)
		}
		be, err := WriteBigEndian(Example(v), v)
		if err != nil {
			t.Fatal(err)
		}
		// Same layout, every offset byte-swapped, the endianness byte set.
		if len(be) != len(a) || be[5] != 1 || binary.BigEndian.Uint32(be[tableOffset:]) != binary.LittleEndian.Uint32(a[tableOffset:]) {
			t.Errorf("v%d: big-endian file differs in layout", v)
		}
	}
}

func TestSeeds(t *testing.T) {
	seeds := Seeds()
	if len(seeds) != 2*len(Versions) {
		t.Fatalf("%d seeds, want %d", len(seeds), 2*len(Versions))
	}
	for i, s := range seeds {
		if string(s[:4]) != "MOC3" || s[4] != Versions[i/2] || len(s)%align != 0 {
			t.Errorf("seed %d: header % x, length %d", i, s[:6], len(s))
		}
	}
}
