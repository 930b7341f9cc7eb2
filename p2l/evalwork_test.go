package p2l

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// manyAxesModel has n meshes, each with a keyform grid of axes axes (two
// keys each) and one sparse cell: a few hundred bytes per mesh, 2^axes
// cells blended per mesh per evaluation.
func manyAxesModel(n, axes int) *Model {
	m := &Model{file: &p2lrt.File{Canvas: p2lrt.Canvas{Width: 64, Height: 64, PixelsPerUnit: -1}, Draw: p2lrt.DrawGroup{Part: -1}}}
	var ax []p2lrt.Axis
	for a := 0; a < axes; a++ {
		m.file.Parameters = append(m.file.Parameters, p2lrt.Parameter{ID: fmt.Sprint("p", a), Min: -1, Max: 1})
		ax = append(ax, p2lrt.Axis{Parameter: a, Keys: []float32{-1, 1}})
	}
	for i := 0; i < n; i++ {
		m.file.Meshes = append(m.file.Meshes, p2lrt.Mesh{ID: fmt.Sprint("m", i), Parent: -1, TexturePage: -1, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible,
			Positions: []float32{0, 0, 9, 0, 0, 9}, UVs: make([]float32, 6), Indices: []uint32{0, 1, 2}, Opacity: 1, Multiply: p2lrt.White,
			Keyforms: &p2lrt.Grid[[]float32]{Axes: ax, Cells: []p2lrt.Cell[[]float32]{{Coord: make([]uint16, axes), Value: make([]float32, 6)}}}})
		m.file.Draw.Children = append(m.file.Draw.Children, p2lrt.DrawNode{Mesh: i})
	}
	return m
}

// TestEvalWorkBounded: a model whose grids would blend more than
// maxEvalWork floats per evaluation is refused when prepared, so at Load
// (the attack: 300 meshes of 16-axis grids in 163 KB evaluated in 0.76 s
// each frame); the same shape with 8 axes is accepted.
func TestEvalWorkBounded(t *testing.T) {
	var b strings.Builder
	if err := Write(&b, manyAxesModel(300, 16), nil); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	_, err := Load([]byte(b.String()))
	t.Logf("Load refused in %v", time.Since(t0))
	if err == nil || !strings.Contains(err.Error(), "floats per evaluation, more than 33554432") {
		t.Fatalf("Load of %d bytes: %v", b.Len(), err)
	}
	t.Logf("refused: %v", err)
	m := manyAxesModel(300, 8)
	if r := m.NewRig(); r.Err() != nil {
		t.Fatal(r.Err())
	}
	if w := evalWork(m); w != 300*256*7 {
		t.Errorf("evalWork = %d, want 300 meshes × 2^8 corners × (6 floats + 1)", w)
	}
}
