package p2l

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// skinModel builds a hostile-shaped skinned model: a home rotation
// deformer with nb bone rotations under it (each turning with parameter 0),
// one mesh of nv vertices under the home, and a SKIN entry over nb bones
// and axes of the given key counts (parameters 0..len(keys)-1).
func skinModel(nb, nv int, keys ...int) *Model {
	m := &Model{file: &p2lrt.File{Canvas: p2lrt.Canvas{Width: 100, Height: 100, PixelsPerUnit: -1}, Draw: p2lrt.DrawGroup{Part: -1}}}
	for a := range max(1, len(keys)) {
		m.file.Parameters = append(m.file.Parameters, p2lrt.Parameter{ID: "p" + string(rune('a'+a)), Min: -100, Max: 100})
	}
	rot := func(parent int, g *p2lrt.Grid[p2lrt.RotationKey]) p2lrt.Deformer {
		return p2lrt.Deformer{Kind: p2lrt.RotationDeformer, Parent: parent, Part: -1, Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled,
			Opacity: 1, Multiply: p2lrt.White, Rotation: &p2lrt.Rotation{Keyforms: g}}
	}
	m.file.Deformers = append(m.file.Deformers, rot(-1, &p2lrt.Grid[p2lrt.RotationKey]{Cells: []p2lrt.Cell[p2lrt.RotationKey]{{Coord: []uint16{}, Value: p2lrt.RotationKey{X: 50, Y: 50, Angle: 0, Scale: 1}}}}))
	turning := &p2lrt.Grid[p2lrt.RotationKey]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{-100, 100}}},
		Cells: []p2lrt.Cell[p2lrt.RotationKey]{{Coord: []uint16{0}, Value: p2lrt.RotationKey{X: 1, Y: 0, Angle: -30, Scale: 1}}, {Coord: []uint16{1}, Value: p2lrt.RotationKey{X: 1, Y: 0, Angle: 30, Scale: 1}}}}
	sk := p2lrt.Skin{Mesh: 0}
	for b := 0; b < nb; b++ {
		m.file.Deformers = append(m.file.Deformers, rot(0, turning))
		sk.Bones = append(sk.Bones, b+1)
	}
	for a, n := range keys {
		ax := p2lrt.Axis{Parameter: a}
		for k := 0; k < n; k++ {
			ax.Keys = append(ax.Keys, float32(-100+200*k/max(1, n-1)))
		}
		sk.Axes = append(sk.Axes, ax)
	}
	pos := make([]float32, 2*nv)
	for v := range nv {
		pos[2*v], pos[2*v+1] = float32(v%17), float32(v/17)
	}
	m.file.Meshes = []p2lrt.Mesh{{ID: "skinned", Parent: 0, TexturePage: -1, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible,
		Positions: pos, UVs: make([]float32, 2*nv), Indices: []uint32{0, 1, 2}, Opacity: 1, Multiply: p2lrt.White}}
	m.file.Draw.Children = []p2lrt.DrawNode{{Mesh: 0}}
	m.file.Skins = &p2lrt.Skins{Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureSkin, Hooks: p2lrt.HookMesh}, Meshes: []p2lrt.Skin{sk}}
	return m
}

// TestSkinListsBoundedAtLoad: a SKIN entry with a repeated bone or axis
// parameter, or with more bones or axes than the bounds, is a FormatError
// (the reader and Validate share checkRefs). The attack: 2000 bones in a
// 113 KB file kept the first SetAdvanced busy for over 20 s.
func TestSkinListsBoundedAtLoad(t *testing.T) {
	cases := map[string]struct {
		m    *Model
		want string
	}{
		"2000 bones":         {skinModel(2000, 3, 4), "2000 bones, at most 64"},
		"65 bones":           {skinModel(65, 3, 4), "65 bones, at most 64"},
		"17 axes":            {skinModel(2, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2), "17 axes, at most 16"},
		"repeated bone":      {func() *Model { m := skinModel(3, 3, 4); m.file.Skins.Meshes[0].Bones[2] = 1; return m }(), "deformer 1 is listed twice (also bones[0])"},
		"repeated parameter": {func() *Model { m := skinModel(3, 3, 4, 3); m.file.Skins.Meshes[0].Axes[1].Parameter = 0; return m }(), "parameter 0 is listed twice (also axes[0])"},
	}
	for name, c := range cases {
		err := c.m.file.Validate()
		var fe *p2lrt.FormatError
		if !errors.As(err, &fe) || fe.Tag != "SKIN" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a SKIN FormatError %q", name, err, c.want)
		}
	}
	if err := skinModel(64, 3, 4, 4).file.Validate(); err != nil {
		t.Errorf("64 distinct bones: %v", err)
	}
}

// TestSkinWorkBounded: skins whose weight fit or per-frame cost exceed the
// bounds are left off, with an error from PrepareAdvanced naming the
// bound; they are refused from their sizes, before any work. A skin of the
// editor's largest shape (16 bones, 8 axes of 2 keys) fits both bounds.
func TestSkinWorkBounded(t *testing.T) {
	// 64 bones, 4^5 = 1024 key combinations, 2000 vertices: a fit of
	// 1024 × 2000 × 2080 ≈ 4.3e9 operations.
	heavy := skinModel(64, 2000, 4, 4, 4, 4, 4)
	err := heavy.PrepareAdvanced()
	if err == nil || !strings.Contains(err.Error(), "fitting its weights takes") {
		t.Fatalf("heavy fit: %v", err)
	}
	if got := heavy.NewRig().SetAdvanced(p2lrt.FeatureSkin); got != 0 {
		t.Errorf("heavy fit: SetAdvanced turned on %b", got)
	}
	// 16 axes: 2^16 + 1 evaluations of a 65-deformer bone model per frame.
	wide := skinModel(64, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
	sk0 := &wide.file.Skins.Meshes[0]
	sk0.From, sk0.To, sk0.Weight = make([]uint32, 3), make([]uint32, 3), make([]float32, 3)
	if err := wide.PrepareAdvanced(); err == nil || !strings.Contains(err.Error(), "per frame") {
		t.Fatalf("16 axes: %v", err)
	}
	// With weights in the file no fit is needed: only the per-frame bound
	// applies.
	given := skinModel(64, 2000, 4, 4, 4, 4, 4)
	sk := &given.file.Skins.Meshes[0]
	sk.From, sk.To, sk.Weight = make([]uint32, 2000), make([]uint32, 2000), make([]float32, 2000)
	if err := given.PrepareAdvanced(); err != nil {
		t.Errorf("weights given: %v", err)
	}
	editor := skinModel(16, 300, 2, 2, 2, 2, 2, 2, 2, 2)
	if err := editor.PrepareAdvanced(); err != nil {
		t.Fatalf("editor-sized skin: %v", err)
	}
	r := editor.NewRig()
	if got := r.SetAdvanced(p2lrt.FeatureSkin); got != p2lrt.FeatureSkin {
		t.Fatalf("editor-sized skin: SetAdvanced = %b", got)
	}
	r.SetParameter(0, 37)
	r.Update(1.0 / 60)
	if r.Err() != nil || len(r.Mesh(0).Vertices()) != 600 {
		t.Errorf("editor-sized skin does not evaluate: %v", r.Err())
	}
}

// TestSkinBudgetsAreShared: the bounds apply to a model's skins together,
// in file order, so many skins that each fit cannot add up past them.
func TestSkinBudgetsAreShared(t *testing.T) {
	m := skinModel(16, 300, 2, 2, 2, 2, 2, 2, 2, 2)
	one := m.file.Skins.Meshes[0]
	for len(m.file.Skins.Meshes) < 40 {
		m.file.Meshes = append(m.file.Meshes, m.file.Meshes[0])
		m.file.Draw.Children = append(m.file.Draw.Children, p2lrt.DrawNode{Mesh: len(m.file.Meshes) - 1})
		sk := one
		sk.Mesh = len(m.file.Meshes) - 1
		m.file.Skins.Meshes = append(m.file.Skins.Meshes, sk)
	}
	sizes := make([]int, len(m.file.Skins.Meshes))
	for i := range sizes {
		sizes[i] = 17 // each skin's own side model: its home and 16 bones
	}
	errs := skinBudgets(m, sizes)
	first := -1
	for i, err := range errs {
		if err != nil && first < 0 {
			first = i
		}
		if first >= 0 && err == nil {
			t.Errorf("skin %d fits after skin %d did not", i, first)
		}
	}
	if first <= 0 {
		t.Fatalf("first skin over the bounds: %d (%v)", first, errs)
	}
	t.Logf("%d editor-sized skins fit, skin %d: %v", first, first, errs[first])
}

// BenchmarkSkinFrameAtBound is one update of a skin near the per-frame
// bound (12 live axes over a 15-deformer bone model: 4097 × 15 = 61 455
// deformer evaluations), the worst a file can make the skins cost per
// frame; compare BenchmarkEvaluate (a whole character) in the same run.
func BenchmarkSkinFrameAtBound(b *testing.B) {
	m := skinModel(14, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
	sk := &m.file.Skins.Meshes[0]
	sk.From, sk.To, sk.Weight = make([]uint32, 3), make([]uint32, 3), make([]float32, 3)
	for a := range sk.Axes {
		m.file.Parameters = append(m.file.Parameters, p2lrt.Parameter{ID: fmt.Sprint("q", a), Min: -100, Max: 100})
		sk.Axes[a].Parameter = len(m.file.Parameters) - 1
	}
	r := m.NewRig()
	if r.SetAdvanced(p2lrt.FeatureSkin) != p2lrt.FeatureSkin {
		b.Fatal(m.PrepareAdvanced())
	}

	for a := range sk.Axes {
		r.SetParameter(sk.Axes[a].Parameter, 13) // between the keys: every combination live
	}
	i := 0
	for b.Loop() {
		i++
		r.SetParameter(0, float32(i%7))
		r.Update(1.0 / 60)
	}
}

// BenchmarkSkinFitAtBound is the weight fit of a skin just inside the fit
// bound: 64 bones (2080 pairs), 2^6 = 64 key combinations, 1000 vertices
// (64 × (1000 × 2080 + 1001) ≈ 1.33e8 operations, maxFitWork 1.34e8).
func BenchmarkSkinFitAtBound(b *testing.B) {
	for b.Loop() {
		m := skinModel(64, 1000, 2, 2, 2, 2, 2, 2)
		if err := m.PrepareAdvanced(); err != nil {
			b.Fatal(err)
		}
	}
}
