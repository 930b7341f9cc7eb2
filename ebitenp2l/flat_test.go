package ebitenp2l

import (
	"math"
	"testing"
)

// grid returns the vertices and triangles of a w×h grid of unit cells at
// scale s.
func grid(w, h int, s float32) ([]float32, []uint32) {
	var v []float32
	var idx []uint32
	for y := 0; y <= h; y++ {
		for x := 0; x <= w; x++ {
			v = append(v, float32(x)*s, float32(y)*s)
		}
	}
	at := func(x, y int) uint32 { return uint32(y*(w+1) + x) }
	for y := range h {
		for x := range w {
			idx = append(idx, at(x, y), at(x+1, y), at(x, y+1), at(x+1, y), at(x+1, y+1), at(x, y+1))
		}
	}
	return v, idx
}

// liesFlat runs the proof of flat.go on one mesh with margin need.
func liesFlat(v []float32, idx []uint32, need float64) bool {
	var mb meshBoundary
	mb.find(idx, len(v)/2, nil, nil)
	var e [maxFlatBoundary]flatEdge
	return mb.ok && mb.lies(v, idx, need, &e)
}

// TestFlatProof checks the proof that a mesh covers no point twice on
// meshes whose answer is known by construction.
func TestFlatProof(t *testing.T) {
	v, idx := grid(6, 4, 10)
	// The least height of the grid's right isosceles triangles is 10/√2;
	// boundary edges that do not meet are 10 apart.
	if h := 10 / math.Sqrt2; !liesFlat(v, idx, h-1e-6) || liesFlat(v, idx, h+1e-6) {
		t.Errorf("6×4 grid of 10-unit cells: not flat with margin %v − 1e-6, or flat with + 1e-6", h)
	}
	// Two grids side by side in one mesh (boxes apart): flat.
	v2, idx2 := grid(2, 2, 10)
	two := append([]float32{}, v...)
	for i := 0; i < len(v2); i += 2 {
		two = append(two, v2[i]+100, v2[i+1])
	}
	both := append([]uint32{}, idx...)
	for _, k := range idx2 {
		both = append(both, k+uint32(len(v)/2))
	}
	if !liesFlat(two, both, 1) {
		t.Errorf("two grids apart: not flat")
	}
	cases := []struct {
		name string
		v    []float32
		idx  []uint32
	}{
		// A third triangle over half of a quad.
		{"folded quad", []float32{0, 0, 10, 0, 0, 10, 10, 10}, []uint32{0, 1, 2, 1, 3, 2, 0, 1, 3}},
		// The same triangle twice.
		{"duplicate triangle", []float32{0, 0, 10, 0, 0, 10}, []uint32{0, 1, 2, 0, 1, 2}},
		// Two grids overlapping (the second moved by half a cell).
		{"overlapping grids", shifted(v, v2, 5), both},
		// A grid with one inner vertex pulled across its neighbour: the
		// triangles around it turn over.
		{"turned-over cell", moved(v, 2*7+2, 25, 0), idx},
		// A strip of quads wound one and a half times around a centre:
		// every triangle keeps its orientation, the boundary crosses itself.
		{"spiral strip", spiral(), spiralIndices()},
		// A sliver: too thin to survive rounding.
		{"sliver", []float32{0, 0, 100, 0, 50, 1e-4}, []uint32{0, 1, 2}},
	}
	for _, c := range cases {
		if liesFlat(c.v, c.idx, 1e-3) {
			t.Errorf("%s: proven flat with margin 1e-3", c.name)
		}
	}
}

// shifted returns vertices a followed by b moved right by dx.
func shifted(a, b []float32, dx float32) []float32 {
	out := append([]float32{}, a...)
	for i := 0; i < len(b); i += 2 {
		out = append(out, b[i]+dx, b[i+1])
	}
	return out
}

// moved returns v with vertex i moved by (dx, dy).
func moved(v []float32, i int, dx, dy float32) []float32 {
	out := append([]float32{}, v...)
	out[2*i] += dx
	out[2*i+1] += dy
	return out
}

// spiral returns the vertices of a strip of 36 quads wound 540° around the
// origin, widening as it goes: vertex 2k inner, 2k+1 outer at step k.
func spiral() []float32 {
	var v []float32
	for k := 0; k <= 36; k++ {
		a := float64(k) * 15 * math.Pi / 180
		ri, ro := 10+float64(k)/4, 20+float64(k)/4
		v = append(v, float32(ri*math.Cos(a)), float32(ri*math.Sin(a)), float32(ro*math.Cos(a)), float32(ro*math.Sin(a)))
	}
	return v
}

func spiralIndices() []uint32 {
	var idx []uint32
	for k := uint32(0); k < 36; k++ {
		i0, o0, i1, o1 := 2*k, 2*k+1, 2*k+2, 2*k+3
		idx = append(idx, i0, o0, i1, o0, o1, i1)
	}
	return idx
}
