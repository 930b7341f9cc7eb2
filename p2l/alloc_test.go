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
			if coreChunks[tag] {
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

// TestHugeWarpWithoutKeyforms: a 4096×4096 warp without keyforms (the
// reference accepts it: every point at the origin) must not make
// evaluation allocate the 4097² points it declares from a file of a few
// hundred bytes: such a lattice maps everything to one point whatever its
// size, and the evaluator collapses it. So must a keyform grid of no cell
// (every cell missing: every point at the origin too; the spec allows it,
// rig.rs Grid::new does not).
func TestHugeWarpWithoutKeyforms(t *testing.T) {
	defm := func(grid []byte) []byte {
		w := (&bld{}).u32(1).u8(0).u32(none).i32(-1).i32(-1).u8(0).f32(1, 1, 1, 1, 0, 0, 0).u32(4096).u32(4096)
		w.b = append(w.b, grid...)
		return w.u8(0).u16(0).b
	}
	allocs := func(data []byte) (*Model, uint64) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m, err := Load(data)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		return m, after.TotalAlloc - before.TotalAlloc
	}
	// Against the same file without the deformer (the load, the prepared
	// tables and the trial evaluation cost about 1 MB on their own).
	_, base := allocs(buildV2(minimalChunks()...))
	m, d := allocs(buildV2(withChunk("DEFM", func(c *tchunk) { c.data = defm([]byte{0xff, 0xff}) })...))
	if d > base+64<<10 {
		t.Fatalf("allocated %d bytes, %d without the warp", d, base)
	}
	if m.file.Deformers[0].Warp.Columns != 4096 || m.file.Deformers[0].Warp.Keyforms != nil {
		t.Fatalf("warp %+v", m.file.Deformers[0].Warp)
	}
	// No axes, no cells (u16 0, u32 0): the same warp, at the same cost.
	m, d = allocs(buildV2(withChunk("DEFM", func(c *tchunk) { c.data = defm([]byte{0, 0, 0, 0, 0, 0}) })...))
	if d > base+64<<10 {
		t.Fatalf("0 cells: allocated %d bytes, %d without the warp", d, base)
	}
	if m.file.Deformers[0].Warp.Columns != 4096 || m.file.Deformers[0].Warp.Keyforms != nil {
		t.Fatalf("0 cells: warp %+v", m.file.Deformers[0].Warp)
	}
}
