package render_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/alloctest"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/render"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// The resource model's headline (docs/LIMITS.md): Load + texture decoding
// + the first render allocate at most
//
//	loadFactor × (file bytes + decompressed bytes) + 12 × budget texels
//	+ the renderer's bound for the image (docs/RENDERING.md, "Memory")
//
// (runtime.MemStats.TotalAlloc, an upper bound on the peak they add to the
// heap). The models below are shaped to make a file's bytes allocate as
// much as they can: many minimal records of every kind, stored plainly and
// zstd-compressed, and pages that are tiny in the file but fill the budget.

const (
	loadFactor = 48
	loadConst  = 2 << 20 // the prepared form's fixed scratch (a 2^16-corner table)
)

// memModel returns a model of n minimal records of one kind.
func memModel(kind string, n int) *p2lrt.File {
	m := &p2lrt.File{Canvas: p2lrt.Canvas{Width: 64, Height: 64, PixelsPerUnit: -1}, Draw: p2lrt.DrawGroup{Part: -1},
		Parameters: []p2lrt.Parameter{{ID: "p", Min: -1, Max: 1}}}
	tri := func(i int) p2lrt.Mesh {
		return p2lrt.Mesh{ID: fmt.Sprint("m", i), Parent: -1, TexturePage: -1, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible,
			Positions: []float32{0, 0, 9, 0, 0, 9}, UVs: []float32{0, 0, 1, 0, 0, 1}, Indices: []uint32{0, 1, 2}, Opacity: 1, Multiply: p2lrt.White}
	}
	switch kind {
	case "meshes":
		for i := 0; i < n; i++ {
			m.Meshes = append(m.Meshes, tri(i))
			m.Draw.Children = append(m.Draw.Children, p2lrt.DrawNode{Mesh: i})
		}
	case "deformers":
		for i := 0; i < n; i++ {
			m.Deformers = append(m.Deformers, p2lrt.Deformer{ID: fmt.Sprint("d", i), Kind: p2lrt.RotationDeformer, Parent: -1, Part: -1,
				Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled, Opacity: 1, Multiply: p2lrt.White,
				Rotation: &p2lrt.Rotation{Keyforms: &p2lrt.Grid[p2lrt.RotationKey]{Cells: []p2lrt.Cell[p2lrt.RotationKey]{{Coord: []uint16{}, Value: p2lrt.RotationKey{Scale: 1}}}}}})
		}
	case "parameters":
		for i := 0; i < n; i++ {
			m.Parameters = append(m.Parameters, p2lrt.Parameter{ID: fmt.Sprint("q", i), Min: 0, Max: 1})
		}
	case "parts":
		for i := 0; i < n; i++ {
			m.Parts = append(m.Parts, p2lrt.Part{ID: fmt.Sprint("t", i), Flags: p2lrt.PartVisible, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}})
		}
	case "groups":
		m.Meshes = []p2lrt.Mesh{tri(0)}
		g := &m.Draw
		for i := 0; i < n; i++ {
			m.Parts = append(m.Parts, p2lrt.Part{ID: fmt.Sprint("t", i), Flags: p2lrt.PartVisible, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}})
			g.Children = append(g.Children, p2lrt.DrawNode{Mesh: 0})
		}
	case "masks":
		// n isolated groups, each masked by part 0, which holds n meshes:
		// expanding every group's mask parts separately is n² entries.
		m.Parts = []p2lrt.Part{{ID: "all", Flags: p2lrt.PartVisible, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}}}
		for i := 0; i < n; i++ {
			m.Meshes = append(m.Meshes, tri(i))
			m.Parts[0].Children = append(m.Parts[0].Children, p2lrt.PartChild{Kind: p2lrt.ChildMesh, Index: i})
		}
		for i := 0; i < n; i++ {
			m.Parts = append(m.Parts, p2lrt.Part{ID: fmt.Sprint("g", i), Flags: p2lrt.PartVisible, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}})
			c := &p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, MaskParts: []int{0}}
			m.Draw.Children = append(m.Draw.Children, p2lrt.DrawNode{Group: &p2lrt.DrawGroup{Part: i + 1, Composite: c, Children: []p2lrt.DrawNode{{Mesh: i}}}})
		}
	case "clips":
		for i := 0; i < n; i++ {
			m.Clips = append(m.Clips, p2lrt.Clip{ID: fmt.Sprint("c", i), Duration: 1, FadeIn: -1, FadeOut: -1,
				Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 1}}}}}}})
		}
	case "segments":
		c := p2lrt.Curve{}
		for i := 0; i < n; i++ {
			c.Segments = append(c.Segments, p2lrt.Segment{Kind: p2lrt.SegmentStepped, End: p2lrt.Point{T: float32(i + 1), V: 1}})
		}
		m.Clips = []p2lrt.Clip{{ID: "c", Duration: float32(n), FadeIn: -1, FadeOut: -1, Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: c}}}}
	case "expressions":
		for i := 0; i < n; i++ {
			m.Expressions = append(m.Expressions, p2lrt.Expression{ID: fmt.Sprint("e", i), Entries: []p2lrt.ExpressionEntry{{Parameter: 0, Blend: p2lrt.ExpressionAdd, Value: 1}}})
		}
	case "physics":
		for i := 0; i < n; i++ {
			m.Physics.Groups = append(m.Physics.Groups, p2lrt.PhysicsGroup{ID: fmt.Sprint("g", i),
				Inputs:        []p2lrt.PhysicsInput{{Parameter: 0, Source: p2lrt.PhysicsX, Weight: 100}},
				Outputs:       []p2lrt.PhysicsOutput{{Parameter: 0, Vertex: 1, Source: p2lrt.PhysicsAngle, Scale: 1, Weight: 100}},
				Segments:      []p2lrt.PhysicsSegment{{Length: 1, Mobility: 1, Delay: 1, Acceleration: 1}},
				Normalization: p2lrt.PhysicsNormalization{PositionMin: -1, PositionMax: 1, AngleMin: -1, AngleMax: 1}})
		}
		m.Physics.Fps = 30
	case "keyforms":
		mesh := tri(0)
		ax := p2lrt.Axis{Parameter: 0}
		grid := &p2lrt.Grid[[]float32]{}
		for i := 0; i < n; i++ {
			ax.Keys = append(ax.Keys, -1+2*float32(i)/float32(n))
			grid.Cells = append(grid.Cells, p2lrt.Cell[[]float32]{Coord: []uint16{uint16(i)}, Value: make([]float32, 6)})
		}
		grid.Axes = []p2lrt.Axis{ax}
		mesh.Keyforms = grid
		m.Meshes = []p2lrt.Mesh{mesh}
		m.Draw.Children = []p2lrt.DrawNode{{Mesh: 0}}
	case "vertices":
		mesh := tri(0)
		mesh.Positions, mesh.UVs, mesh.Indices = make([]float32, 2*n), make([]float32, 2*n), nil
		for v := 0; v+2 < n; v += 3 {
			mesh.Indices = append(mesh.Indices, uint32(v), uint32(v+1), uint32(v+2))
		}
		m.Meshes = []p2lrt.Mesh{mesh}
		m.Draw.Children = []p2lrt.DrawNode{{Mesh: 0}}
	}
	return m
}

// loadBytes writes memModel(kind, n) with comp and measures Load: the
// file's bytes plus its decompressed bytes, and what Load allocates.
func loadBytes(t *testing.T, kind string, n int, comp p2lrt.Compression) (in, alloc int64) {
	t.Helper()
	in, alloc, err := tryLoad(t, kind, n, comp)
	if err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	return in, alloc
}

func tryLoad(t *testing.T, kind string, n int, comp p2lrt.Compression) (in, alloc int64, err error) {
	t.Helper()
	var b bytes.Buffer
	if err := memModel(kind, n).Write(&b, &p2lrt.WriteOptions{Compression: comp}); err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	data := b.Bytes()
	fi, err := p2lrt.Inspect(data)
	if err != nil {
		t.Fatal(err)
	}
	in = int64(len(data))
	for _, c := range fi.Chunks {
		if c.Compression != "none" {
			in += int64(c.RawLength)
		}
	}
	got := alloctest.Bytes(func() { _, err = p2l.Load(data) })
	return in, int64(got), err
}

// memKinds are the record kinds memModel makes.
var memKinds = []string{"masks", "meshes", "deformers", "parameters", "parts", "groups", "clips", "segments", "expressions", "physics", "keyforms", "vertices"}

// TestLoadMemoryFactor: for every record kind, plain and compressed, Load
// allocates at most loadFactor × (file + decompressed bytes) + loadConst;
// the slope between n and 4n records is the factor per byte.
func TestLoadMemoryFactor(t *testing.T) {
	worst := 0.0
	for _, kind := range memKinds {
		for _, comp := range []p2lrt.Compression{p2lrt.CompressNone, p2lrt.CompressZstd} {
			n := 1000
			if kind == "masks" {
				n = 60 // 60 and 240 groups masked by 60 and 240 meshes: within the bound
			}
			in1, a1 := loadBytes(t, kind, n, comp)
			in4, a4 := loadBytes(t, kind, 4*n, comp)
			slope := float64(a4-a1) / float64(in4-in1)
			worst = max(worst, slope)
			t.Logf("%-12s compression %d: %8d → %8d bytes in, %9d → %9d allocated: %.1f bytes per byte", kind, comp, in1, in4, a1, a4, slope)
			for _, c := range [][2]int64{{in1, a1}, {in4, a4}} {
				if c[1] > loadFactor*c[0]+loadConst {
					t.Errorf("%s: Load of %d bytes (file + decompressed) allocated %d, more than %d × + %d", kind, c[0], c[1], loadFactor, loadConst)
				}
			}
		}
	}
	t.Logf("worst: %.1f bytes allocated per byte of file or decompressed content", worst)
	// Beyond the mask bound (1000 groups masked by a part of 1000 meshes:
	// 10^6 entries) Load refuses, allocating within the same bound.
	in, alloc, err := tryLoad(t, "masks", 1000, p2lrt.CompressZstd)
	if err == nil || !strings.Contains(err.Error(), "masks, with mask parts expanded to their meshes, name more than 65536") {
		t.Errorf("quadratic masks: %v", err)
	}
	if alloc > loadFactor*in+loadConst {
		t.Errorf("refusing quadratic masks: %d bytes in, %d allocated", in, alloc)
	}
	t.Logf("quadratic masks refused: %d bytes in, %d allocated", in, alloc)
}

// pageModel is memModel("meshes", n) with its meshes spread over pages
// PNG pages of side² texels (one colour, so a few hundred bytes each).
func pageModel(t *testing.T, n, pages, side int) *p2lrt.File {
	m := memModel("meshes", n)
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	for i := range img.Pix {
		img.Pix[i] = 0xc0
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	for p := 0; p < pages; p++ {
		m.Textures = append(m.Textures, p2lrt.TexturePage{Kind: p2lrt.TexturePNG, Width: uint32(side), Height: uint32(side), Data: b.Bytes()})
	}
	for i := range m.Meshes {
		m.Meshes[i].TexturePage = i % pages
		m.Meshes[i].Positions = []float32{0, 0, 64, 0, 0, 64} // each covers half the canvas
	}
	return m
}

// TestPeakMemoryOfLoadTexturesRender is the headline bound: a file, its
// pages and the first render of it together allocate at most
//
//	48 × (file + decompressed bytes) + 2 MiB           (Load)
//	+ 12 × budget texels                               (texture pages)
//	+ 36·w·h + 64 MiB (w·h < 2^19), else 164·w·h       (the renderer's own)
//	+ 96 bytes × triangles of the largest mesh
//
// with the pixel budget shared by all pages: 24 pages of 512² (3 KB each
// in the file) under a budget of 4 pages decode 4 and refuse 20.
func TestPeakMemoryOfLoadTexturesRender(t *testing.T) {
	const side, budget = 512, 4 * 512 * 512
	for _, comp := range []p2lrt.Compression{p2lrt.CompressNone, p2lrt.CompressZstd} {
		var b bytes.Buffer
		if err := pageModel(t, 500, 24, side).Write(&b, &p2lrt.WriteOptions{Compression: comp}); err != nil {
			t.Fatal(err)
		}
		data := b.Bytes()
		fi, err := p2lrt.Inspect(data)
		if err != nil {
			t.Fatal(err)
		}
		in := int64(len(data))
		for _, c := range fi.Chunks {
			if c.Compression != "none" {
				in += int64(c.RawLength)
			}
		}
		var m *p2l.Model
		load := int64(alloctest.Bytes(func() { m, err = p2l.Load(data) }))
		if err != nil {
			t.Fatal(err)
		}
		rig := m.NewRig()
		rig.Update(1.0 / 30)
		const w, h = 256, 256
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		r := render.Renderer{TextureOptions: texture.Options{MaxPixels: budget}}
		first := int64(alloctest.Bytes(func() { err = r.Render(rig, dst, nil) }))
		if err != nil {
			t.Fatal(err)
		}
		decoded := 0
		for _, p := range r.TextureInfo() {
			if p.Err == nil {
				decoded++
			} else if !strings.Contains(p.Err.Error(), "pixel budget") {
				t.Errorf("page %d: %v", p.Index, p.Err)
			}
		}
		if decoded != 4 {
			t.Errorf("%d pages decoded, want the 4 the budget holds", decoded)
		}
		loadBound := loadFactor*in + loadConst
		renderBound := 12*int64(budget) + 36*w*h + 64<<20 + 96*1 // one triangle per mesh
		if load > loadBound || first > renderBound {
			t.Errorf("compression %d: Load %d (bound %d), textures + first render %d (bound %d)", comp, load, loadBound, first, renderBound)
		}
		t.Logf("compression %d: file %d + decompressed %d bytes, budget %d texels (24 pages of %d², 4 fit), %d×%d render: Load %d bytes (%.1f× in), pages + first render %d bytes (%.2f× 4·budget); total %d ≤ %d",
			comp, len(data), in-int64(len(data)), budget, side, w, h, load, float64(load)/float64(in), first, float64(first)/float64(4*budget), load+first, loadBound+renderBound)
	}
}
