package p2l

import (
	"runtime"
	"strings"
	"testing"
)

// TestHugeCountSmallChunk: a 64-byte chunk claiming 0xFFFFFFFF records is
// rejected before anything proportional to the claim is allocated.
func TestHugeCountSmallChunk(t *testing.T) {
	huge := func(prefix ...byte) []byte {
		b := append(prefix, 0xff, 0xff, 0xff, 0xff)
		for len(b) < 64 {
			b = append(b, 0)
		}
		return b
	}
	f32zero := []byte{0, 0, 0, 0}
	variants := map[string][]byte{}
	for _, tag := range []string{"STRS", "PARM", "DEFM", "PART", "MESH", "GLUE", "TEXR", "CLIP", "ROLE", "PGUI", "META", "EXPR", "HITA", "UDAT", "CEXT"} {
		variants[tag] = huge()
	}
	variants["PHYS"] = huge(f32zero...)
	variants["POSE"] = huge(f32zero...)
	variants["DRAW"] = huge(append(append([]byte{0xff, 0xff, 0xff, 0xff}, f32zero...), 0, 0)...)
	ext := []byte{1, 0, 0, 0} // feature 1, hooks 0, then the header's counts
	variants["SKIN"] = huge(ext...)
	for tag, content := range variants {
		if len(content) != 64 {
			t.Fatalf("%s: %d bytes", tag, len(content))
		}
		cs := minimalChunks()
		found := false
		for i := range cs {
			if cs[i].tag == tag {
				cs[i].data, found = content, true
			}
		}
		if !found {
			flags := uint16(0)
			if findDef(tag).core {
				flags = 1
			}
			cs = append(cs, tchunk{tag, 1, flags, content})
		}
		data := buildV2(cs...)
		var err error
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err = Load(data)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "not fit") {
			t.Errorf("%s: %v", tag, err)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
			t.Errorf("%s: allocated %d bytes", tag, d)
		}
		if n := testing.AllocsPerRun(5, func() { Load(data) }); n > 200 {
			t.Errorf("%s: %v allocations", tag, n)
		}
	}
}

// TestHugeWarpWithoutKeyforms: a 4000×4000 warp whose keyform grid has no
// cell would make evaluation allocate hundreds of MB from a file of a few
// hundred bytes; the reader rejects it first.
func TestHugeWarpWithoutKeyforms(t *testing.T) {
	m := minimalModel()
	w := &Warp{Columns: 4000, Rows: 4000, Keyforms: &Grid[[]float32]{}}
	m.Deformers = []Deformer{{Kind: WarpDeformer, ID: "w", Parent: -1, Part: -1, Opacity: 1, Multiply: White, Warp: w}}
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "at least one cell") {
		t.Fatalf("Validate: %v", err)
	}
	// The same record, hand-built: DEFM with one warp, grid with no axes
	// and no cells.
	defm := (&bld{}).u32(1).u8(0).u32(none).i32(-1).i32(-1).u8(0).f32(1, 1, 1, 1, 0, 0, 0).
		u32(4000).u32(4000).u16(0).u32(0).u8(0).u16(0).b
	data := buildV2(withChunk("DEFM", func(c *tchunk) { c.data = defm })...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Load(data)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "DEFM") || !strings.Contains(err.Error(), "at least one cell") {
		t.Fatalf("Load: %v", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Fatalf("allocated %d bytes", d)
	}
}
