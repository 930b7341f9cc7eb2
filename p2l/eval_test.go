package p2l

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// The expected numbers in these tests are worked out by hand from the rules
// of RUNTIME.md ("求值规则") and the decisions in docs/EVALUATION.md; the
// comments show the arithmetic.

const tol = 1e-4

// testModel is a small model builder.
type testModel struct{ Model }

func newTestModel(params ...p2lrt.Parameter) *testModel {
	return &testModel{Model{file: &p2lrt.File{Canvas: p2lrt.Canvas{Width: 100, Height: 100, PixelsPerUnit: -1}, Parameters: params, Draw: p2lrt.DrawGroup{Part: -1}}}}
}

func param(id string, min, max, def float32) p2lrt.Parameter {
	return p2lrt.Parameter{ID: id, Min: min, Max: max, Default: def}
}

// mesh adds a visible mesh with the given positions (x,y pairs), one
// triangle fan over them, under parent, drawn in the root group.
func (t *testModel) mesh(parent int, pos ...float32) int {
	n := len(pos) / 2
	var idx []uint32
	for k := 1; k+1 < n; k++ {
		idx = append(idx, 0, uint32(k), uint32(k+1))
	}
	t.file.Meshes = append(t.file.Meshes, p2lrt.Mesh{
		ID: "m" + string(rune('0'+len(t.file.Meshes))), Parent: parent, Flags: p2lrt.MeshVisible | p2lrt.MeshGeometry,
		TexturePage: -1, Positions: pos, UVs: make([]float32, len(pos)), Indices: idx,
		Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
	})
	i := len(t.file.Meshes) - 1
	t.file.Draw.Children = append(t.file.Draw.Children, p2lrt.DrawNode{Mesh: i})
	return i
}

func (t *testModel) warp(parent, cols, rows int, g *p2lrt.Grid[[]float32]) int {
	t.file.Deformers = append(t.file.Deformers, p2lrt.Deformer{Kind: p2lrt.WarpDeformer, Parent: parent, Part: -1,
		Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
		Warp: &p2lrt.Warp{Columns: cols, Rows: rows, Keyforms: g}})
	return len(t.file.Deformers) - 1
}

func (t *testModel) rotation(parent int, base float32, g *p2lrt.Grid[p2lrt.RotationKey]) int {
	t.file.Deformers = append(t.file.Deformers, p2lrt.Deformer{Kind: p2lrt.RotationDeformer, Parent: parent, Part: -1,
		Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
		Rotation: &p2lrt.Rotation{BaseAngle: base, Keyforms: g}})
	return len(t.file.Deformers) - 1
}

func static[T any](v T) *p2lrt.Grid[T] {
	return &p2lrt.Grid[T]{Cells: []p2lrt.Cell[T]{{Coord: []uint16{}, Value: v}}}
}

func (t *testModel) rig(tb testing.TB) *Rig {
	tb.Helper()
	r := t.Model.NewRig()
	if r.Err() != nil {
		tb.Fatal(r.Err())
	}
	return r
}

func eval(tb testing.TB, r *Rig) {
	tb.Helper()
	r.Evaluate()
	if r.Err() != nil {
		tb.Fatal(r.Err())
	}
}

func checkVerts(tb testing.TB, r *Rig, mesh int, want ...float64) {
	tb.Helper()
	got := r.Mesh(mesh).Vertices()
	if len(got) != len(want) {
		tb.Fatalf("mesh %d: %d floats, want %d", mesh, len(got), len(want))
	}
	for k := range want {
		if !near(float64(got[k]), want[k], tol) {
			tb.Fatalf("mesh %d: vertices %v, want %v", mesh, got, want)
		}
	}
}

func TestParameterClampAndWrap(t *testing.T) {
	m := newTestModel(param("a", -10, 10, 2), p2lrt.Parameter{ID: "spin", Min: -180, Max: 180, Repeat: true},
		p2lrt.Parameter{ID: "swapped", Min: 5, Max: -5, Default: 9})
	r := m.rig(t)
	// rig.rs Parameter::normalize: min + (v − min) rem_euclid (max − min)
	// outside the range; a plain parameter clamps to [min(min,max), max(..)].
	cases := []struct {
		p       int
		in, out float32
	}{
		// A value that is not finite is ignored: the previous one (3) stays.
		{0, 15, 10}, {0, -20, -10}, {0, 3, 3}, {0, float32(math.NaN()), 3}, {0, float32(math.Inf(1)), 3},
		// Repeat: only values outside the range wrap; the ends stay.
		{1, 180, 180}, {1, -180, -180}, {1, 200, -160}, // −180 + (380 rem 360 = 20)
		{1, -190, 170},  // −180 + (−10 rem⁺ 360 = 350)
		{1, 900, -180},  // −180 + (1080 rem 360 = 0)
		{1, 1000, -80},  // −180 + (1180 rem 360 = 100)
		{1, -540, -180}, // −180 + (−360 rem⁺ 360 = 0): exactly k ranges below min → min
		{1, -900, -180}, // −180 + (−720 rem⁺ 360 = 0)
		// min above max: clamped to [−5, 5]; the default 9 evaluates as 5.
		{2, 0.5, 0.5}, {2, 7, 5}, {2, -7, -5},
	}
	if got := r.ParameterCurrent(2); got != 5 {
		t.Errorf("default outside the range: current %v, want 5", got)
	}
	for _, c := range cases {
		r.SetParameter(c.p, c.in)
		eval(t, r)
		if got := r.ParameterCurrent(c.p); got != c.out {
			t.Errorf("param %d set %v: current %v, want %v", c.p, c.in, got, c.out)
		}
		if got, want := r.Parameter(c.p), c.in; got != want && finite(want) || !finite(want) && got != c.out {
			t.Errorf("host value changed to %v", got)
		}
	}
}

func TestKeyformMultilinear(t *testing.T) {
	m := newTestModel(param("p", 0, 10, 0), param("q", 0, 2, 0))
	mi := m.mesh(-1, 1, 1)
	// Cell (i,j) offsets x = 10i + j, y = 100j.
	g := &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 10}}, {Parameter: 1, Keys: []float32{0, 1, 2}}}}
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			g.Cells = append(g.Cells, p2lrt.Cell[[]float32]{Coord: []uint16{uint16(i), uint16(j)}, Value: []float32{float32(10*i + j), float32(100 * j)}})
		}
	}
	m.file.Meshes[mi].Keyforms = g
	r := m.rig(t)
	// p = 2.5: t = 0.25; q = 1.5: between keys 1 and 2, t = 0.5.
	// x = 0.375·1 + 0.125·11 + 0.375·2 + 0.125·12 = 4 ; y = 0.5·100 + 0.5·200 = 150.
	r.SetParameter(0, 2.5)
	r.SetParameter(1, 1.5)
	eval(t, r)
	checkVerts(t, r, mi, 1+4, 1+150)
	// Within 0.001 of a key: snapped. p = 9.9995 → 10, q = 0.0009 → 0: offsets (10, 0).
	r.SetParameter(0, 9.9995)
	r.SetParameter(1, 0.0009)
	eval(t, r)
	checkVerts(t, r, mi, 1+10, 1)
	// 0.002 away: not snapped. p = 9.998 → t = 0.9998: x = 9.998.
	r.SetParameter(0, 9.998)
	eval(t, r)
	checkVerts(t, r, mi, 1+9.998, 1)
}

func TestSparseGridZeroShape(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	// Mesh keyforms: key 0 offsets (4, 8), key 1 missing → zero offset.
	mi := m.mesh(-1, 10, 10)
	m.file.Meshes[mi].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
		Cells: []p2lrt.Cell[[]float32]{{Coord: []uint16{0}, Value: []float32{4, 8}}}}
	// Warp keyforms: key 0 a 1×1 grid over (20,20)–(60,60); key 1 missing →
	// every point at the origin.
	w := m.warp(-1, 1, 1, &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
		Cells: []p2lrt.Cell[[]float32]{{Coord: []uint16{0}, Value: []float32{20, 20, 60, 20, 20, 60, 60, 60}}}})
	wi := m.mesh(w, 0.5, 0.5)
	r := m.rig(t)
	r.SetParameter(0, 0.25)
	eval(t, r)
	// Mesh: 10 + 0.75·4 + 0.25·0 = 13, 10 + 0.75·8 = 16 (no re-weighting).
	checkVerts(t, r, mi, 13, 16)
	// Warp grid = 0.75 × key 0: centre (40,40) → (30,30).
	checkVerts(t, r, wi, 30, 30)
}

func TestFlagChannelTakesKeyNotAbove(t *testing.T) {
	m := newTestModel(param("p", 0, 2, 0))
	d := m.rotation(-1, 0, static(p2lrt.RotationKey{X: 50, Y: 50, Scale: 1}))
	m.file.Deformers[d].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelFlipX, Kind: p2lrt.ChannelFlag, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
		Axes:  []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1, 2}}},
		Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{1}}, {Coord: []uint16{2}}},
	}}}
	mi := m.mesh(d, 5, 0)
	r := m.rig(t)
	for _, c := range []struct {
		p float32
		x float64
	}{{0.9, 55}, {1.5, 45}, {0.9995, 45} /* snapped to key 1 */, {1.99, 45}, {2, 55}} {
		r.SetParameter(0, c.p)
		eval(t, r)
		checkVerts(t, r, mi, c.x, 50)
	}
}

// warpModel has one 1×1 warp with corners (0,0), (10,0), (0,10), (20,20).
func warpModel(bilinear bool, pts ...float32) (*testModel, int) {
	m := newTestModel()
	w := m.warp(-1, 1, 1, static([]float32{0, 0, 10, 0, 0, 10, 20, 20}))
	if bilinear {
		m.file.Deformers[w].Flags |= p2lrt.DeformerBilinear
	}
	return m, m.mesh(w, pts...)
}

func TestWarpInside(t *testing.T) {
	m, mi := warpModel(false, 0.25, 0.25, 0.75, 0.75, 1, 1)
	r := m.rig(t)
	eval(t, r)
	// Lower triangle: P00 + ¼(P10−P00) + ¼(P01−P00) = (2.5, 2.5).
	// Upper triangle: P11 + ¼(P01−P11) + ¼(P10−P11) = (20,20) + (−5,−2.5) + (−2.5,−5).
	checkVerts(t, r, mi, 2.5, 2.5, 12.5, 12.5, 20, 20)

	m, mi = warpModel(true, 0.75, 0.75)
	r = m.rig(t)
	eval(t, r)
	// Bilinear: ¼(¼P00 + ¾P10) + ¾(¼P01 + ¾P11) = (1.875, 0) + (11.25, 13.125).
	checkVerts(t, r, mi, 13.125, 13.125)

	// A 2×1 grid: u = 0.75 falls in the second cell at fx = 0.5.
	m = newTestModel()
	w := m.warp(-1, 2, 1, static([]float32{0, 0, 10, 0, 30, 0, 0, 10, 10, 10, 30, 10}))
	mi = m.mesh(w, 0.75, 0.5)
	r = m.rig(t)
	eval(t, r)
	// fx + fy = 1: lower triangle (10,0) + ½(20,0) + ½(0,10) = (20, 5).
	checkVerts(t, r, mi, 20, 5)
}

func TestWarpOutside(t *testing.T) {
	// Affine frame: centre (7.5, 7.5), du = ((10,0) + (20,10))/2 = (15, 5),
	// dv = ((0,10) + (10,20))/2 = (5, 15); A(u,v) = c + (u−½)du + (v−½)dv.
	m, mi := warpModel(false, 5, 0.5, 2, 0.5, -1, -1, 3, 3, 0.5, -2)
	// Same in bilinear mode: outside the square it is always triangles.
	mb, mbi := warpModel(true, 5, 0.5, 2, 0.5, -1, -1, 3, 3, 0.5, -2)
	want := []float64{
		// (5, ½): beyond 3 → A = (7.5 + 4.5·15, 7.5 + 4.5·5).
		75, 30,
		// (2, ½): virtual cell between u = 1 (grid P10, P11) and u = 3
		// (A(3,0) = (42.5, 12.5)); fx = ½, fy = ½ → lower triangle:
		// (10,0) + ½(32.5,12.5) + ½(10,20).
		31.25, 16.25,
		// (−1, −1): corner cell, all three points virtual: A(−2,−2) =
		// (−42.5,−42.5), A(0,−2) = (−12.5,−32.5), A(−2,0) = (−32.5,−12.5);
		// fx = fy = ½ → (−42.5 + 15 + 5, −42.5 + 5 + 15).
		-22.5, -22.5,
		// (3, 3): on the ring's edge, equal to A(3,3) = (7.5 + 2.5·20, 7.5 + 2.5·20).
		57.5, 57.5,
		// (½, −2): A(½,−2) = (7.5 − 2.5·5, 7.5 − 2.5·15).
		-5, -30,
	}
	for _, c := range []struct {
		m  *testModel
		mi int
	}{{m, mi}, {mb, mbi}} {
		r := c.m.rig(t)
		eval(t, r)
		checkVerts(t, r, c.mi, want...)
	}
}

func TestRotationRoot(t *testing.T) {
	m := newTestModel()
	d := m.rotation(-1, 60, static(p2lrt.RotationKey{X: 100, Y: 50, Angle: 30, Scale: 2}))
	mi := m.mesh(d, 1, 0, 0, 1)
	r := m.rig(t)
	eval(t, r)
	// Angle 30 + 60 = 90: (x, y) → (100 − 2y, 50 + 2x).
	checkVerts(t, r, mi, 100, 52, 98, 50)
	m.file.Deformers[d].Flags |= p2lrt.DeformerFlipX | p2lrt.DeformerFlipY
	m2 := &testModel{Model{file: m.file}} // a fresh *Model: preparation is per model
	r = m2.rig(t)
	eval(t, r)
	// Own flips negate the child coordinates: (1,0) → (−1,0), (0,1) → (0,−1).
	checkVerts(t, r, mi, 100, 48, 102, 50)
}

// rotationPair has a parent rotation at (100,100), angle 90, scale ps and a
// child at (10,0) in the parent, angle 0, scale 0.5, with a mesh point (4,0).
func rotationPair(ps float32, flags p2lrt.DeformerFlags) (*testModel, int) {
	m := newTestModel()
	p := m.rotation(-1, 0, static(p2lrt.RotationKey{X: 100, Y: 100, Angle: 90, Scale: ps}))
	m.file.Deformers[p].Flags |= flags
	c := m.rotation(p, 0, static(p2lrt.RotationKey{X: 10, Y: 0, Angle: 0, Scale: 0.5}))
	return m, m.mesh(c, 4, 0)
}

func TestRotationUnderRotation(t *testing.T) {
	cases := []struct {
		name  string
		scale float32
		flags p2lrt.DeformerFlags
		x, y  float64
	}{
		// Origin P(10,0) = (100, 120); angle 90; scale 1: (4,0) → (100, 124).
		{"plain", 2, 0, 100, 124},
		// Parent flipY: origin unchanged (y = 0), child frame +180 → 270:
		// (4,0) → (100, 116).
		{"parent flipY", 2, p2lrt.DeformerFlipY, 100, 116},
		// Parent flipX: origin (−10,0) → (100, 80); no extra turn: (100, 84).
		{"parent flipX", 2, p2lrt.DeformerFlipX, 100, 84},
		// Parent scale −2: origin (100, 80); angle 90 + 180, scale −1:
		// (4,0) → (100 − 1·cos270·4, 80 − 1·sin270·4) = (100, 84).
		{"parent negative scale", -2, 0, 100, 84},
		// Both: the half turns cancel; origin (100 + 2·0, 100 − 20)... flipY
		// leaves (10,0); scale −2 → origin (100, 80); angle 90, scale −1:
		// (4,0) → (100, 80 − 4).
		{"parent flipY and negative scale", -2, p2lrt.DeformerFlipY, 100, 76},
	}
	for _, c := range cases {
		m, mi := rotationPair(c.scale, c.flags)
		r := m.rig(t)
		eval(t, r)
		got := r.Mesh(mi).Vertices()
		if !near(float64(got[0]), c.x, tol) || !near(float64(got[1]), c.y, tol) {
			t.Errorf("%s: got %v, want (%v, %v)", c.name, got, c.x, c.y)
		}
	}
}

func TestRotationUnderWarp(t *testing.T) {
	// A warp turning the unit square by 90°: W(u,v) = (−100v, 100u).
	m := newTestModel()
	w := m.warp(-1, 1, 1, static([]float32{0, 0, 0, 100, -100, 0, -100, 100}))
	d := m.rotation(w, 0, static(p2lrt.RotationKey{X: 0.5, Y: 0.5, Angle: 0, Scale: 1}))
	mi := m.mesh(d, 5, 0)
	r := m.rig(t)
	eval(t, r)
	// Origin W(½,½) = (−50, 50); 0.1 above: W(½, 0.4) = (−40, 50);
	// direction (−10, 0) → angle atan2(10, 0) = 90°: (5,0) → (−50, 55).
	checkVerts(t, r, mi, -50, 55)

	// Scale from the nearest rotation above the warp: root rotation scale 3.
	m = newTestModel()
	top := m.rotation(-1, 0, static(p2lrt.RotationKey{X: 0, Y: 0, Angle: 0, Scale: 3}))
	w = m.warp(top, 1, 1, static([]float32{0, 0, 10, 0, 0, 10, 10, 10}))
	d = m.rotation(w, 0, static(p2lrt.RotationKey{X: 0.5, Y: 0.5, Angle: 0, Scale: 1}))
	mi = m.mesh(d, 1, 0)
	r = m.rig(t)
	eval(t, r)
	// Canvas grid (0,0)–(30,30); origin (15,15); direction (0,3) → 0°;
	// scale 1·3: (1,0) → (18, 15).
	checkVerts(t, r, mi, 18, 15)
}

func TestRotationAngleIsKeyPlusBase(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	d := m.rotation(-1, 90, &p2lrt.Grid[p2lrt.RotationKey]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[p2lrt.RotationKey]{
		{Coord: []uint16{0}, Value: p2lrt.RotationKey{X: 0, Y: 0, Angle: 0, Scale: 1}},
		{Coord: []uint16{1}, Value: p2lrt.RotationKey{X: 10, Y: 0, Angle: 90, Scale: 3}},
	}})
	mi := m.mesh(d, 2, 0)
	r := m.rig(t)
	r.SetParameter(0, 0.5)
	eval(t, r)
	// Keyform blend: origin (5,0), angle 45, scale 2; + base 90 → 135°:
	// (2,0) → (5 + 4·cos135, 4·sin135).
	checkVerts(t, r, mi, 5-4*math.Sqrt2/2, 4*math.Sqrt2/2)
}

func TestBlendShapes(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0), p2lrt.Parameter{ID: "b", Min: -1, Max: 1, Blend: true}, param("lim", 0, 1, 1))
	mi := m.mesh(-1, 0, 0)
	me := &m.file.Meshes[mi]
	// Keyforms on p: offset (1,1) at 0 (the default), (3,3) at 1.
	me.Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: []float32{1, 1}}, {Coord: []uint16{1}, Value: []float32{3, 3}}}}
	// Opacity channel on p: 1 at 0, 0.5 at 1.
	me.Channels = []p2lrt.Channel{{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
		Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{1}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{0.5}}}}}}
	// Binding on b: keys −1, 0 (neutral), 1; the neutral key's shape is
	// ignored; limit on lim: weight = lim.
	me.Shapes = []p2lrt.Binding[p2lrt.MeshShape]{{Parameter: 1, Keys: []float32{-1, 0, 1}, Neutral: 1,
		Present: []bool{true, true, true},
		Shapes: []p2lrt.MeshShape{
			{Deltas: []float32{-1, 1}, Opacity: 1, Multiply: p2lrt.White},
			{Deltas: []float32{100, 100}, Opacity: 0, Multiply: p2lrt.White},
			{Deltas: []float32{5, 5}, Opacity: 0.2, Multiply: p2lrt.White, DrawOrder: 10},
		},
		Limits: []p2lrt.Limit{{Parameter: 2, Points: []p2lrt.LimitPoint{{Value: 0, Weight: 0}, {Value: 1, Weight: 1}}}},
	}}
	r := m.rig(t)
	check := func(p, b, lim float32, x, y, op, do float64) {
		t.Helper()
		r.SetParameter(0, p)
		r.SetParameter(1, b)
		r.SetParameter(2, lim)
		eval(t, r)
		checkVerts(t, r, mi, x, y)
		if !near(float64(r.Mesh(mi).Opacity()), op, tol) || !near(float64(r.Mesh(mi).DrawOrder()), do, tol) {
			t.Errorf("p=%v b=%v lim=%v: opacity %v draw order %v, want %v %v", p, b, lim, r.Mesh(mi).Opacity(), r.Mesh(mi).DrawOrder(), op, do)
		}
	}
	// b = 0.5: neutral (w ½) adds nothing; key 1 (w ½) adds ½·((5,5) − (1,1)).
	// Opacity: ½·(0.2 − 1) = −0.4 → 0.6; draw order ½·(10 − 0) = 5.
	check(0, 0.5, 1, 1+2, 1+2, 0.6, 5)
	// b = −0.25: key −1 (w ¼) adds ¼·((−1,1) − (1,1)) = (−0.5, 0); opacity ¼·0.
	check(0, -0.25, 1, 0.5, 1, 1, 0)
	// Limit lim = 0.5 halves the b = 0.5 contribution: ¼·(4,4), opacity −0.2.
	check(0, 0.5, 0.5, 2, 2, 0.8, 2.5)
	// p = 1, b = 1: offset (3,3) + 1·(4,4); opacity 0.5 + (0.2 − 1) → clamped 0.
	check(1, 1, 1, 7, 7, 0, 10)
	// An absent key contributes nothing.
	r.model.file.Meshes[mi].Shapes[0].Present[2] = false
	m2 := &testModel{Model{file: m.file}}
	r = m2.rig(t)
	check(0, 1, 1, 1, 1, 1, 0)
}

func TestDeformerBlendShape(t *testing.T) {
	m := newTestModel(p2lrt.Parameter{ID: "b", Min: 0, Max: 1, Blend: true})
	d := m.rotation(-1, 0, static(p2lrt.RotationKey{X: 10, Y: 10, Angle: 10, Scale: 1}))
	m.file.Deformers[d].Rotation.Shapes = []p2lrt.Binding[p2lrt.RotationShape]{{Parameter: 0, Keys: []float32{0, 1}, Neutral: 0,
		Present: []bool{false, true},
		Shapes:  []p2lrt.RotationShape{{}, {X: 10, Y: 20, Angle: 100, Scale: 1, Opacity: 0.5, Multiply: p2lrt.Color{0, 1, 1}}}}}
	mi := m.mesh(d, 1, 0)
	r := m.rig(t)
	r.SetParameter(0, 0.5)
	eval(t, r)
	// Adds ½·(target − default): origin (10, 15), angle 10 + 45 = 55;
	// opacity 1 + ½(0.5 − 1) = 0.75 reaches the mesh; the deformer's
	// multiply (red 1 + ½(0 − 1) = 0.5) does not (eval.rs evaluate_ext).
	s, c := math.Sincos(55 * math.Pi / 180)
	checkVerts(t, r, mi, 10+c, 15+s)
	mul, _ := r.Mesh(mi).Colors()
	if !near(float64(r.Mesh(mi).Opacity()), 0.75, tol) || mul != p2lrt.White {
		t.Errorf("opacity %v multiply %v", r.Mesh(mi).Opacity(), mul)
	}
}

func TestOpacityAndColorChain(t *testing.T) {
	m := newTestModel()
	a := m.rotation(-1, 0, static(p2lrt.RotationKey{Scale: 1}))
	b := m.rotation(a, 0, static(p2lrt.RotationKey{Scale: 1}))
	m.file.Deformers[a].Opacity = 0.5
	m.file.Deformers[a].Multiply = p2lrt.Color{0.5, 1, 1}
	m.file.Deformers[a].Screen = p2lrt.Color{0.5, 0, 0}
	m.file.Deformers[b].Opacity = 1.5 // clamped to 1 at its level
	mi := m.mesh(b, 0, 0, 1, 0, 0, 1)
	m.file.Meshes[mi].Opacity = 0.8
	m.file.Meshes[mi].Multiply = p2lrt.Color{1.5, 0.5, 1}
	m.file.Meshes[mi].Screen = p2lrt.Color{0.5, 0, -0.25}
	m.file.Parts = []p2lrt.Part{{ID: "p", Flags: p2lrt.PartVisible, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: mi}},
		Composite: p2lrt.Composite{Opacity: 0.3, Multiply: p2lrt.White}}}
	r := m.rig(t)
	eval(t, r)
	// 0.8 · 1 · 0.5; the part's 0.3 is not multiplied in.
	if got := r.Mesh(mi).Opacity(); !near(float64(got), 0.4, tol) {
		t.Errorf("opacity %v, want 0.4", got)
	}
	if got := r.Part(0).Opacity(); !near(float64(got), 0.3, tol) {
		t.Errorf("part opacity %v, want 0.3", got)
	}
	// Colors: the mesh's own, unclamped; the deformers' never reach it
	// (eval.rs evaluate_ext pushes the mesh's own state).
	mul, scr := r.Mesh(mi).Colors()
	if mul != (p2lrt.Color{1.5, 0.5, 1}) || scr != (p2lrt.Color{0.5, 0, -0.25}) {
		t.Errorf("colors %v %v", mul, scr)
	}
}

func TestGlue(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	a := m.mesh(-1, 0, 0, 50, 50)
	b := m.mesh(-1, 10, 0, 70, 70)
	m.file.Glues = []p2lrt.Glue{{ID: "g", MeshA: a, MeshB: b, Intensity: 0.5, Pairs: []p2lrt.GluePair{{A: 0, B: 0, WeightA: 0.2, WeightB: 0.5}}}}
	r := m.rig(t)
	eval(t, r)
	// A moves 0.2·0.5 of the way to B: 0 + 0.1·10 = 1; B: 10 − 0.25·10 = 7.5.
	checkVerts(t, r, a, 1, 0, 50, 50)
	checkVerts(t, r, b, 7.5, 0, 70, 70)
	// Glue intensity channel: 1 at p = 1 → A goes 0.2 of the way: 2; B 5.
	m.file.Glues[0].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelGlueIntensity, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
		Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{0.5}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{1}}}}}}
	m2 := &testModel{Model{file: m.file}}
	r = m2.rig(t)
	r.SetParameter(0, 1)
	eval(t, r)
	checkVerts(t, r, a, 2, 0, 50, 50)
	checkVerts(t, r, b, 5, 0, 70, 70)
}

func TestDrawOrder(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	tri := []float32{0, 0, 1, 0, 0, 1}
	for i := 0; i < 7; i++ {
		m.mesh(-1, tri...)
	}
	m.file.Draw.Children = nil
	do := []float32{500.9995, 501, 500.5, 1, 2, 999, 0}
	for i, d := range do {
		m.file.Meshes[i].DrawOrder = d
	}
	m.file.Meshes[6].Flags &^= p2lrt.MeshVisible // hidden: not drawn
	m.file.Parts = []p2lrt.Part{
		{ID: "iso", Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated, DrawOrder: 700,
			Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 3}, {Kind: p2lrt.ChildMesh, Index: 4}}, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}},
	}
	// The part's draw order is driven by a channel: 700 at p = 0, 400 at p = 1.
	m.file.Parts[0].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelDrawOrder, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
		Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{700}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{400}}}}}}
	m.file.Draw = p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{
		{Mesh: 0}, {Mesh: 1}, {Mesh: 2},
		{Group: &p2lrt.DrawGroup{Part: 0, DrawOrder: 0, Composite: &p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}, Children: []p2lrt.DrawNode{{Mesh: 4}, {Mesh: 3}}}},
		{Group: &p2lrt.DrawGroup{Part: -1, DrawOrder: 600, Children: []p2lrt.DrawNode{{Mesh: 5}, {Mesh: 6}}}},
	}}
	r := m.rig(t)
	eval(t, r)
	// Keys floor(k + 0.001): mesh0 501, mesh1 501 (tie: tree order), mesh2
	// 500, isolated group 700, plain group 600. Inside the isolated group
	// mesh3 (1) before mesh4 (2); mesh6 is hidden.
	wantOrder := []int{2, 0, 1, 5, 3, 4}
	wantCmd := []RenderCommand{2, 0, 1, 5, OpenGroup(0), 3, 4, CloseGroup}
	check := func(order []int, cmds []RenderCommand) {
		t.Helper()
		if len(r.RenderOrder()) != len(order) || len(r.RenderCommands()) != len(cmds) {
			t.Fatalf("order %v commands %v, want %v %v", r.RenderOrder(), r.RenderCommands(), order, cmds)
		}
		for i := range order {
			if r.RenderOrder()[i] != order[i] {
				t.Fatalf("order %v, want %v", r.RenderOrder(), order)
			}
		}
		for i := range cmds {
			if r.RenderCommands()[i] != cmds[i] {
				t.Fatalf("commands %v, want %v", r.RenderCommands(), cmds)
			}
		}
	}
	check(wantOrder, wantCmd)
	// p = 1: the isolated group's key becomes 400, before everything else.
	r.SetParameter(0, 1)
	eval(t, r)
	check([]int{3, 4, 2, 0, 1, 5}, []RenderCommand{OpenGroup(0), 3, 4, CloseGroup, 2, 0, 1, 5})
	if r.Mesh(6).RenderPosition() != -1 || r.Mesh(6).Visible() {
		t.Error("hidden mesh drawn")
	}
}

// TestHiddenAndSketchParts: only a mesh's own visible flag hides it; a
// hidden or sketch part above it does not (eval.rs render_order checks
// rig.meshes[m].visible alone). A mesh without geometry stays in the order.
func TestHiddenAndSketchParts(t *testing.T) {
	m := newTestModel()
	tri := []float32{0, 0, 1, 0, 0, 1}
	for i := 0; i < 3; i++ {
		m.mesh(-1, tri...)
	}
	m.file.Meshes = append(m.file.Meshes, p2lrt.Mesh{ID: "nogeom", Parent: -1, TexturePage: -1, Flags: p2lrt.MeshVisible, Opacity: 1, Multiply: p2lrt.White})
	m.file.Meshes = append(m.file.Meshes, p2lrt.Mesh{ID: "off", Parent: -1, TexturePage: -1, Flags: p2lrt.MeshGeometry,
		Positions: tri, UVs: tri, Indices: []uint32{0, 1, 2}, Opacity: 1, Multiply: p2lrt.White})
	m.file.Draw.Children = append(m.file.Draw.Children, p2lrt.DrawNode{Mesh: 3}, p2lrt.DrawNode{Mesh: 4})
	m.file.Parts = []p2lrt.Part{
		{ID: "root", Flags: p2lrt.PartVisible, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildPart, Index: 1}, {Kind: p2lrt.ChildPart, Index: 2}, {Kind: p2lrt.ChildMesh, Index: 0}}},
		{ID: "hidden", Flags: 0, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 1}}},
		{ID: "sketch", Flags: p2lrt.PartVisible | p2lrt.PartSketch, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 2}}},
	}
	r := m.rig(t)
	eval(t, r)
	if o := r.RenderOrder(); len(o) != 4 || o[0] != 0 || o[1] != 1 || o[2] != 2 || o[3] != 3 {
		t.Errorf("render order %v, want [0 1 2 3]", o)
	}
	if r.Mesh(4).Visible() || r.Mesh(4).RenderPosition() != -1 || !r.Mesh(3).Visible() || len(r.Mesh(3).Vertices()) != 0 {
		t.Error("own flag / geometry-less mesh")
	}
	if m.Model.PartParent(2) != 0 || m.Model.MeshPart(1) != 1 || m.Model.MeshPart(0) != 0 {
		t.Error("part relations")
	}
}

func TestDeformerFlagsDoNotAffectEvaluation(t *testing.T) {
	m := newTestModel()
	d := m.rotation(-1, 0, static(p2lrt.RotationKey{X: 10, Scale: 1}))
	mi := m.mesh(d, 1, 1)
	m.file.Deformers[d].Flags = 0 // neither visible nor enabled
	r := m.rig(t)
	eval(t, r)
	checkVerts(t, r, mi, 11, 1)
	if !r.Mesh(mi).Visible() || r.Mesh(mi).Opacity() != 1 {
		t.Error("deformer flags changed visibility or opacity")
	}
}

func TestMeshChanges(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	a := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	b := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	// c: under a rotation whose angle moves with p; only the y of its
	// second vertex changes... x too: (1,0) turns to (cos 90, sin 90).
	d := m.rotation(-1, 0, &p2lrt.Grid[p2lrt.RotationKey]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[p2lrt.RotationKey]{
		{Coord: []uint16{0}, Value: p2lrt.RotationKey{Scale: 1}}, {Coord: []uint16{1}, Value: p2lrt.RotationKey{Angle: 90, Scale: 1}}}})
	c := m.mesh(d, 0, 0, 1, 0, 0, 1)
	m.file.Meshes[a].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: make([]float32, 6)}, {Coord: []uint16{1}, Value: []float32{1, 1, 1, 1, 1, 1}}}}
	m.file.Meshes[b].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
		Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{1}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{0}}}}}}
	r := m.rig(t)
	eval(t, r)
	all := MeshDrawn | MeshVisibilityChanged | MeshOpacityChanged | MeshDrawOrderChanged | MeshRenderOrderChanged | MeshVerticesChanged | MeshColorsChanged
	if r.Mesh(a).Changes() != all || r.Mesh(b).Changes() != all || r.Mesh(c).Changes() != all {
		t.Fatalf("first evaluation: %b %b", r.Mesh(a).Changes(), r.Mesh(b).Changes())
	}
	eval(t, r)
	if r.Mesh(a).Changes() != MeshDrawn || r.Mesh(b).Changes() != MeshDrawn || r.Mesh(c).Changes() != MeshDrawn {
		t.Fatalf("unchanged evaluation: %b %b", r.Mesh(a).Changes(), r.Mesh(b).Changes())
	}
	r.SetParameter(0, 1)
	eval(t, r)
	if r.Mesh(a).Changes() != MeshDrawn|MeshVerticesChanged {
		t.Errorf("a: %b", r.Mesh(a).Changes())
	}
	if r.Mesh(c).Changes()&MeshVerticesChanged == 0 {
		t.Errorf("c (under a rotation): %b", r.Mesh(c).Changes())
	}
	if r.Mesh(b).Changes() != MeshOpacityChanged { // opacity 0: no longer drawn
		t.Errorf("b: %b", r.Mesh(b).Changes())
	}
}

// TestMeshRevision checks that a mesh's revision grows exactly with the
// evaluations that change its vertices, however many there are between two
// reads (what a renderer keeping vertices relies on).
func TestMeshRevision(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	a := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	b := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	m.file.Meshes[a].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: make([]float32, 6)}, {Coord: []uint16{1}, Value: []float32{1, 1, 1, 1, 1, 1}}}}
	r := m.rig(t)
	if r.Mesh(a).Revision() != 0 {
		t.Fatalf("before the first evaluation: %d", r.Mesh(a).Revision())
	}
	eval(t, r)
	ra, rb := r.Mesh(a).Revision(), r.Mesh(b).Revision()
	if ra == 0 || rb == 0 {
		t.Fatalf("first evaluation: revisions %d %d", ra, rb)
	}
	eval(t, r)
	if r.Mesh(a).Revision() != ra || r.Mesh(b).Revision() != rb {
		t.Errorf("unchanged evaluation moved the revisions: %d %d → %d %d", ra, rb, r.Mesh(a).Revision(), r.Mesh(b).Revision())
	}
	// There and back: the vertices end where they were after two changes;
	// the revision counts both and never returns to an older value.
	r.SetParameter(0, 1)
	eval(t, r)
	r.SetParameter(0, 0)
	eval(t, r)
	if got := r.Mesh(a).Revision(); got != ra+2 {
		t.Errorf("a after two changes: revision %d, want %d", got, ra+2)
	}
	if got := r.Mesh(b).Revision(); got != rb {
		t.Errorf("b (never moved): revision %d, want %d", got, rb)
	}
	for _, i := range []int{-1, 99} {
		if msg := PanicMessage(func() { r.Mesh(i).Revision() }); msg != fmt.Sprintf("p2l: mesh index %d out of range [0:2]", i) {
			t.Errorf("revision of mesh %d, which does not exist: panic %q", i, msg)
		}
	}
}

// TestMeshChangeFlagsOrderAndColors covers the change flags TestMeshChanges
// does not reach: the draw-order value, the position in the render order,
// colors and the model-level opacity (ABI 1.4; Cubism's dynamic flags).
func TestMeshChangeFlagsOrderAndColors(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	a := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	b := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	// a's draw order goes 500 -> 600 with p; b stays at 550, so at p = 1
	// the two swap places in the render order.
	m.file.Meshes[a].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelDrawOrder, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
		Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{500}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{600}}}}}}
	m.file.Meshes[b].DrawOrder = 550
	r := m.rig(t)
	eval(t, r)
	if o := r.RenderOrder(); len(o) != 2 || o[0] != a || o[1] != b {
		t.Fatalf("order at p=0: %v, want [a b]", o)
	}
	r.SetParameter(0, 1)
	eval(t, r)
	if o := r.RenderOrder(); len(o) != 2 || o[0] != b || o[1] != a {
		t.Fatalf("order at p=1: %v, want [b a]", o)
	}
	if got, want := r.Mesh(a).Changes(), MeshDrawn|MeshDrawOrderChanged|MeshRenderOrderChanged; got != want {
		t.Errorf("a (value and position changed): %07b, want %07b", got, want)
	}
	if got, want := r.Mesh(b).Changes(), MeshDrawn|MeshRenderOrderChanged; got != want {
		t.Errorf("b (only its position changed): %07b, want %07b", got, want)
	}
	r.Mesh(b).SetColors(p2lrt.Color{0.5, 0.5, 0.5}, p2lrt.Black)
	eval(t, r)
	if r.Mesh(a).Changes() != MeshDrawn || r.Mesh(b).Changes() != MeshDrawn|MeshColorsChanged {
		t.Errorf("colour override: a %07b, b %07b", r.Mesh(a).Changes(), r.Mesh(b).Changes())
	}
	// The model opacity multiplies every mesh: both report an opacity change.
	r.SetHostOpacity(0.5)
	eval(t, r)
	for _, i := range []int{a, b} {
		if r.Mesh(i).Changes() != MeshDrawn|MeshOpacityChanged || r.Mesh(i).Opacity() != 0.5 {
			t.Errorf("model opacity: mesh %d flags %07b opacity %v", i, r.Mesh(i).Changes(), r.Mesh(i).Opacity())
		}
	}
	eval(t, r)
	if r.Mesh(a).Changes() != MeshDrawn || r.Mesh(b).Changes() != MeshDrawn {
		t.Errorf("steady state: a %07b, b %07b", r.Mesh(a).Changes(), r.Mesh(b).Changes())
	}
}

func TestHitTest(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	a := m.mesh(-1, 0, 0, 10, 0, 0, 10)
	b := m.mesh(-1, 0, 0, 20, 0, 0, 20)
	m.file.HitAreas = []p2lrt.HitArea{{ID: "small", Meshes: []int{a}}, {ID: "big", Meshes: []int{b}}}
	r := m.rig(t)
	eval(t, r)
	for _, c := range []struct {
		x, y float32
		want int
	}{{1, 1, 0}, {5, 5, 0} /* on the edge */, {6, 6, 1}, {10, 10, 1}, {15, 15, -1}, {-0.1, 1, -1}} {
		if got := r.HitTest(c.x, c.y); got != c.want {
			t.Errorf("HitTest(%v, %v) = %d, want %d", c.x, c.y, got, c.want)
		}
	}
	r.modelOpacity = 0 // opacity 0: not hit
	eval(t, r)
	if got := r.HitTest(1, 1); got != -1 {
		t.Errorf("transparent mesh hit: %d", got)
	}
}

func TestPostMultipliers(t *testing.T) {
	m := newTestModel()
	mi := m.mesh(-1, 0, 0)
	m.file.Meshes[mi].Opacity = 0.8
	m.file.Parts = []p2lrt.Part{
		{ID: "outer", Flags: p2lrt.PartVisible, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildPart, Index: 1}}},
		{ID: "inner", Flags: p2lrt.PartVisible, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: mi}}},
	}
	r := m.rig(t)
	r.partOpacityMul[0] = 0.5
	r.partOpacityMul[1] = 0.5
	r.modelOpacity = 0.5
	r.partColorOverride[0] = colorOverride{set: true, mul: p2lrt.Color{0, 0, 0}, scr: p2lrt.Color{1, 1, 1}}
	eval(t, r)
	// 0.8 · 0.5 · 0.5 · 0.5.
	if got := r.Mesh(mi).Opacity(); !near(float64(got), 0.1, tol) {
		t.Errorf("opacity %v, want 0.1", got)
	}
	if mul, scr := r.Mesh(mi).Colors(); mul != (p2lrt.Color{}) || scr != (p2lrt.Color{1, 1, 1}) {
		t.Errorf("part override not applied: %v %v", mul, scr)
	}
	r.meshColorOverride[mi] = colorOverride{set: true, mul: p2lrt.Color{1, 0, 1}, scr: p2lrt.Black}
	eval(t, r)
	if mul, _ := r.Mesh(mi).Colors(); mul != (p2lrt.Color{1, 0, 1}) {
		t.Errorf("mesh override does not win: %v", mul)
	}
}

func TestGroupComposite(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	for i := 0; i < 3; i++ {
		m.mesh(-1, 0, 0, 1, 0, 0, 1)
	}
	m.file.Draw.Children = nil
	m.file.Parts = []p2lrt.Part{
		{ID: "iso", Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 0}},
			Composite: p2lrt.Composite{Blend: p2lrt.BlendMultiply, AlphaBlend: p2lrt.AlphaAtop, MaskMeshes: []int{2}, MaskParts: []int{1}, Opacity: 0.9, Multiply: p2lrt.White}},
		{ID: "maskpart", Flags: p2lrt.PartVisible, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 1}, {Kind: p2lrt.ChildMesh, Index: 2}}},
	}
	m.file.Draw = p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{{Group: &p2lrt.DrawGroup{Part: 0, Children: []p2lrt.DrawNode{{Mesh: 0}},
		Composite: &p2lrt.Composite{Blend: p2lrt.BlendMultiply, AlphaBlend: p2lrt.AlphaAtop, MaskMeshes: []int{2}, MaskParts: []int{1}, Opacity: 0.9, Multiply: p2lrt.White},
		Channels: []p2lrt.Channel{{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
			Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{0.5}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{0.25}}}}}}}}}}
	r := m.rig(t)
	r.SetParameter(0, 0.5)
	eval(t, r)
	c := r.Part(0).Composite()
	// The draw group's channel overrides the static 0.9: ½·0.5 + ½·0.25.
	if c.Blend != p2lrt.BlendMultiply || c.AlphaBlend != p2lrt.AlphaAtop || !near(float64(c.Opacity), 0.375, tol) {
		t.Errorf("composite %+v", c)
	}
	// Mask meshes: 2, then part 1's meshes 1 and 2 without the duplicate.
	if len(c.MaskMeshes) != 2 || c.MaskMeshes[0] != 2 || c.MaskMeshes[1] != 1 {
		t.Errorf("masks %v, want [2 1]", c.MaskMeshes)
	}
	info, ok := m.Model.GroupInfo(0)
	if !ok || info.Opacity != 0.9 || len(info.MaskMeshes) != 2 {
		t.Errorf("group info %+v", info)
	}
}

// readsParam returns keyforms over parameter p that leave the n floats
// of a mesh as they are: the mesh then reads p, so that a new value of p
// recomputes it (evaluation keeps the results of meshes whose inputs did
// not change).
func readsParam(p, n int) *p2lrt.Grid[[]float32] {
	return &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: p, Keys: []float32{0, 1}}},
		Cells: []p2lrt.Cell[[]float32]{{Coord: []uint16{0}, Value: make([]float32, n)}, {Coord: []uint16{1}, Value: make([]float32, n)}}}
}

func TestOutOfRangeAndFailure(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	mi := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	m.file.Meshes[mi].Keyforms = readsParam(0, 6)
	r := m.rig(t)
	eval(t, r)
	// An index out of range panics, naming the kind of index and the range
	// (one mesh, one parameter).
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { r.Mesh(-1) }, "p2l: mesh index -1 out of range [0:1]"},
		{func() { r.Mesh(5).Vertices() }, "p2l: mesh index 5 out of range [0:1]"},
		{func() { r.Mesh(9).Opacity() }, "p2l: mesh index 9 out of range [0:1]"},
		{func() { r.Parameter(3) }, "p2l: parameter index 3 out of range [0:1]"},
		{func() { r.SetParameter(7, 1) }, "p2l: parameter index 7 out of range [0:1]"},
		{func() { r.SetParameter(m.Model.ParameterIndex("nope"), 1) }, "p2l: parameter index -1 out of range [0:1]"},
	} {
		if got := PanicMessage(c.f); got != c.want {
			t.Errorf("panic %q, want %q", got, c.want)
		}
	}
	if m.Model.ParameterIndex("nope") != -1 || m.Model.MeshIndex("m0") != mi {
		t.Error("lookups")
	}
	if r.Parameter(0) != 0 || r.Err() != nil {
		t.Error("a call that panicked changed the rig")
	}
	// A model that cannot be evaluated gives a rig with a reason, which
	// never evaluates and reads as an empty evaluation.
	bad := newTestModel()
	bad.mesh(3, 0, 0)
	br := bad.Model.NewRig()
	br.Evaluate()
	if br.Err() == nil || br.RenderOrder() != nil || br.Mesh(0).Vertices() != nil || br.Revision() != 0 {
		t.Error("bad model accepted")
	}
	// A model modified after it was shared (here: after its rig prepared
	// it) is a programmer error, not numerical trouble at a pose: the
	// evaluation panics instead of carrying on with broken tables.
	m.Model.file.Meshes[mi].Positions = nil // breaks the prepared sizes
	r.SetParameter(0, 0.5)                  // new inputs: the rig evaluates the mesh again
	if PanicMessage(r.Evaluate) == "" {
		t.Fatal("evaluation of a model modified after preparation did not panic")
	}
}

func TestWarpUnderRotation(t *testing.T) {
	m := newTestModel()
	d := m.rotation(-1, 0, static(p2lrt.RotationKey{X: 100, Y: 0, Angle: 90, Scale: 2}))
	// Grid in the rotation's space; p → (100 − 2y, 2x) on the canvas:
	// (0,0) → (100,0), (10,0) → (100,20), (0,10) → (80,0), (10,10) → (80,20).
	w := m.warp(d, 1, 1, static([]float32{0, 0, 10, 0, 0, 10, 10, 10}))
	mi := m.mesh(w, 0.5, 0.25)
	r := m.rig(t)
	eval(t, r)
	// (100,0) + ½(0,20) + ¼(−20,0).
	checkVerts(t, r, mi, 95, 10)
}

func TestWarpUnderWarp(t *testing.T) {
	// Outer: corners (0,0), (100,0), (0,100), (200,200). Inner: the outer
	// square (0.1..0.7)², mapped through the outer grid to the canvas:
	// (10,10), (70,10), (10,70) (lower triangle) and (0.7,0.7) → upper:
	// (200,200) + 0.3(−200,−100) + 0.3(−100,−200) = (110,110).
	m := newTestModel()
	outer := m.warp(-1, 1, 1, static([]float32{0, 0, 100, 0, 0, 100, 200, 200}))
	inner := m.warp(outer, 1, 1, static([]float32{0.1, 0.1, 0.7, 0.1, 0.1, 0.7, 0.7, 0.7}))
	mi := m.mesh(inner, 0.75, 0.75)
	r := m.rig(t)
	eval(t, r)
	// The child interpolates in the inner warp's canvas grid (upper
	// triangle): (110,110) + ¼(−100,−40) + ¼(−40,−100) = (75, 75), not the
	// outer map of (0.55, 0.55), which would be (65, 65).
	checkVerts(t, r, mi, 75, 75)
}

func TestNestedIsolatedGroups(t *testing.T) {
	m := newTestModel()
	tri := []float32{0, 0, 1, 0, 0, 1}
	for i := 0; i < 3; i++ {
		m.mesh(-1, tri...)
	}
	m.file.Parts = []p2lrt.Part{
		{ID: "a", Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildPart, Index: 1}, {Kind: p2lrt.ChildMesh, Index: 0}}},
		{ID: "b", Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 1}}},
		{ID: "empty", Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated},
	}
	iso := func() *p2lrt.Composite { return &p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White} }
	m.file.Draw = p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{
		{Group: &p2lrt.DrawGroup{Part: 0, Composite: iso(), Children: []p2lrt.DrawNode{{Mesh: 0}, {Group: &p2lrt.DrawGroup{Part: 1, Composite: iso(), Children: []p2lrt.DrawNode{{Mesh: 1}}}}}}},
		{Group: &p2lrt.DrawGroup{Part: 2, Composite: iso()}}, // draws nothing: no commands
		{Mesh: 2},
	}}
	r := m.rig(t)
	eval(t, r)
	want := []RenderCommand{OpenGroup(0), 0, OpenGroup(1), 1, CloseGroup, CloseGroup, 2}
	got := r.RenderCommands()
	if len(got) != len(want) {
		t.Fatalf("commands %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("commands %v, want %v", got, want)
		}
	}
}

func TestModelLookups(t *testing.T) {
	m := newTestModel(param("a", 0, 1, 0), param("b", 0, 1, 0))
	m.mesh(-1, 0, 0)
	m.file.GUI = &p2lrt.GUI{Snaps: []p2lrt.Snap{{Parameter: 1, Keys: []float32{0, 0.5, 1}}}}
	m.file.Meta = []p2lrt.MetaEntry{{Key: "generator", Value: "test"}}
	m.file.Roles = []p2lrt.Role{{Name: "EyeBlink", Parameters: []int{0, 1}}}
	m.file.UserData = []p2lrt.UserData{{Kind: 0, Target: 0, Value: "hello"}}
	m.file.Textures = []p2lrt.TexturePage{{Kind: p2lrt.TextureExternal, Width: 4, Height: 2, URI: "a.png"}}
	md := &m.Model
	if s := md.ParameterSnaps(1); len(s) != 3 || md.ParameterSnaps(0) != nil {
		t.Errorf("snaps %v", s)
	}
	if v, ok := md.MetaValue("generator"); !ok || v != "test" {
		t.Error("meta")
	}
	if _, ok := md.MetaValue("nope"); ok {
		t.Error("meta absent")
	}
	if r := md.RoleParameters("EyeBlink"); len(r) != 2 || md.RoleParameters("x") != nil {
		t.Error("roles")
	}
	if u, ok := md.MeshUserData(0); !ok || u != "hello" {
		t.Error("user data")
	}
	if _, ok := md.MeshUserData(1); ok {
		t.Error("user data out of range")
	}
	if ti, ok := md.TextureInfo(0); !ok || ti.URI != "a.png" || ti.Width != 4 || ti.Kind != p2lrt.TextureExternal {
		t.Error("texture info")
	}
	if _, ok := md.TextureInfo(1); ok {
		t.Error("texture info out of range")
	}
	if md.ParameterIndex("b") != 1 || md.PartIndex("x") != -1 || md.PartParent(0) != -1 || md.MeshPart(5) != -1 {
		t.Error("indices")
	}
}

// TestUnchangedInputsKeepResults: an evaluation on unchanged inputs keeps
// the results and reports no change; any changed input evaluates again.
func TestUnchangedInputsKeepResults(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	a := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	m.file.Meshes[a].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: make([]float32, 6)}, {Coord: []uint16{1}, Value: []float32{1, 1, 1, 1, 1, 1}}}}
	m.file.Parts = []p2lrt.Part{{ID: "p", Flags: p2lrt.PartVisible, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: a}}}}
	r := m.rig(t)
	eval(t, r)
	eval(t, r)
	if r.Mesh(a).Changes() != MeshDrawn {
		t.Fatalf("unchanged: %b", r.Mesh(a).Changes())
	}
	checkVerts(t, r, a, 0, 0, 1, 0, 0, 1)
	// Host value outside the range clamps to the same current value: still
	// unchanged.
	r.SetParameter(0, -5)
	eval(t, r)
	if r.Mesh(a).Changes() != MeshDrawn {
		t.Fatalf("same clamped value: %b", r.Mesh(a).Changes())
	}
	r.SetParameter(0, 1)
	eval(t, r)
	if r.Mesh(a).Changes() != MeshDrawn|MeshVerticesChanged {
		t.Fatalf("moved: %b", r.Mesh(a).Changes())
	}
	checkVerts(t, r, a, 1, 1, 2, 1, 1, 2)
	r.partOpacityMul[0] = 0.5
	eval(t, r)
	if r.Mesh(a).Changes() != MeshDrawn|MeshOpacityChanged || r.Mesh(a).Opacity() != 0.5 {
		t.Fatalf("part multiplier: %b %v", r.Mesh(a).Changes(), r.Mesh(a).Opacity())
	}
	r.partColorOverride[0] = colorOverride{set: true, mul: p2lrt.Color{1, 0, 0}}
	eval(t, r)
	if r.Mesh(a).Changes() != MeshDrawn|MeshColorsChanged {
		t.Fatalf("part color: %b", r.Mesh(a).Changes())
	}
	r.modelOpacity = 0.5
	eval(t, r)
	if r.Mesh(a).Opacity() != 0.25 {
		t.Fatalf("model opacity: %v", r.Mesh(a).Opacity())
	}
}

func TestColorChannels(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	d := m.rotation(-1, 0, static(p2lrt.RotationKey{Scale: 1}))
	colorGrid := func(a, b p2lrt.Color) *p2lrt.Grid[p2lrt.ChannelValue] {
		return &p2lrt.Grid[p2lrt.ChannelValue]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
			Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue(a)}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue(b)}}}
	}
	m.file.Deformers[d].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelScreen, Kind: p2lrt.ChannelColor, Grid: colorGrid(p2lrt.Color{0, 0, 0}, p2lrt.Color{0.4, 0.2, 0})}}
	mi := m.mesh(d, 0, 0)
	m.file.Meshes[mi].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelMultiply, Kind: p2lrt.ChannelColor, Grid: colorGrid(p2lrt.Color{1, 1, 1}, p2lrt.Color{0, 0.5, 1})}}
	m.file.Meshes[mi].Screen = p2lrt.Color{0.5, 0, 0}
	r := m.rig(t)
	r.SetParameter(0, 0.5)
	eval(t, r)
	mul, scr := r.Mesh(mi).Colors()
	// Multiply: ½(1,1,1) + ½(0,0.5,1) = (0.5, 0.75, 1). Screen: the
	// mesh's own (0.5, 0, 0); the deformer's ½(0.4,0.2,0) does not reach it.
	want := []float64{0.5, 0.75, 1, 0.5, 0, 0}
	got := []float32{mul[0], mul[1], mul[2], scr[0], scr[1], scr[2]}
	for k := range want {
		if !near(float64(got[k]), want[k], tol) {
			t.Fatalf("colors %v %v, want %v", mul, scr, want)
		}
	}
}

// TestBulkHostPose: ParameterValues / SetParameterValues read and write the
// whole host pose in PARM order; values are stored as given and clamped
// only when evaluated; a slice of the wrong length panics, one holding a
// value that is not finite changes nothing.
func TestBulkHostPose(t *testing.T) {
	m := newTestModel(param("a", 0, 10, 2), param("b", -1, 1, 0))
	// One mesh whose first vertex moves by a's value along x (offset
	// keyforms 0 at a = 0 and 10 at a = 10: the vertex x equals a).
	mi := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	m.file.Meshes[mi].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 10}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: make([]float32, 6)}, {Coord: []uint16{1}, Value: []float32{10, 0, 0, 0, 0, 0}}}}
	r := m.rig(t)
	if got := r.ParameterValues(nil); len(got) != 2 || got[0] != 2 || got[1] != 0 {
		t.Fatalf("defaults %v, want [2 0]", got)
	}
	r.SetParameterValues([]float32{12, -0.5})
	// Appends to dst; the stored host value keeps 12 (not clamped).
	if got := r.ParameterValues([]float32{99}); len(got) != 3 || got[0] != 99 || got[1] != 12 || got[2] != -0.5 {
		t.Errorf("ParameterValues(dst) = %v, want [99 12 -0.5]", got)
	}
	eval(t, r)
	// Evaluation clamps a to 10: vertex 0 at x = 10.
	if v := r.Mesh(mi).Vertices(); v[0] != 10 || r.ParameterCurrent(0) != 10 {
		t.Errorf("clamped evaluation: x = %v, current %v; want 10, 10", v[0], r.ParameterCurrent(0))
	}
	for _, bad := range [][]float32{nil, {1}, {1, 2, 3}} {
		if msg := PanicMessage(func() { r.SetParameterValues(bad) }); !strings.Contains(msg, "values for 2 parameters") {
			t.Errorf("SetParameterValues(%v): panic %q, want one naming the count", bad, msg)
		}
	}
	r.SetParameterValues([]float32{1, float32(math.NaN())})
	if got := r.ParameterValues(nil); got[0] != 12 || got[1] != -0.5 {
		t.Errorf("a refused pose changed the values: %v", got)
	}
}

// TestRigFailureLogged: a rig that fails reports the reason to the
// model's logger (the one Load got through WithLogger), once.
func TestRigFailureLogged(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0))
	mi := m.mesh(-1, 0, 0, 1, 0, 0, 1)
	// A keyform with 4 floats for 3 vertices: the model cannot be prepared.
	m.file.Meshes[mi].Keyforms = static([]float32{1, 2, 3, 4})
	var buf bytes.Buffer
	m.Model.log = slog.New(slog.NewTextHandler(&buf, nil))
	r := m.Model.NewRig()
	if r.Err() == nil {
		t.Fatal("a model with a short keyform gave a working rig")
	}
	r.Evaluate() // failed: it does not evaluate, nothing more is logged
	log := buf.String()
	if strings.Count(log, "p2l: rig failed") != 1 || !strings.Contains(log, "keyform 0 has 4 floats, want 6") || !strings.Contains(log, "level=ERROR") {
		t.Errorf("log %q, want one error naming the short keyform", log)
	}
	// Without a logger nothing is written anywhere and nothing panics.
	m2 := newTestModel()
	m2.file.Meshes = m.file.Meshes
	m2.file.Draw = m.file.Draw
	if r := m2.Model.NewRig(); r.Err() == nil {
		t.Fatal("second model: no failure")
	}
}

// TestLoadLoggerReceivesRigFailures: end to end through the public API, the
// logger given to Load with WithLogger receives the failure of a rig of that
// model (here numerical trouble at a pose: rest positions of 3e38 plus
// 0.75 × a keyform offset of 3e38 exceed MaxFloat32; the default pose,
// p = 0, is finite, so Load's trial evaluation passes).
func TestLoadLoggerReceivesRigFailures(t *testing.T) {
	tm := newTestModel(param("p", 0, 1, 0))
	mi := tm.mesh(-1, 3e38, 0, 3e38, 1, 0, 0)
	tm.file.Meshes[mi].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
		Cells: []p2lrt.Cell[[]float32]{{Coord: []uint16{0}, Value: make([]float32, 6)}, {Coord: []uint16{1}, Value: []float32{3e38, 0, 3e38, 0, 0, 0}}}}
	var file bytes.Buffer
	if err := Write(&file, &tm.Model, nil); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	m, err := Load(file.Bytes(), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	if logs.Len() != 0 {
		t.Fatalf("a good load logged %q", logs.String())
	}
	r := m.NewRig()
	r.Evaluate()
	r.SetParameter(0, 0.75)
	r.Evaluate()
	if r.Err() == nil {
		t.Fatal("no rig failure")
	}
	if got := logs.String(); !strings.Contains(got, "p2l: rig failed") || !strings.Contains(got, `mesh 0 (\"m0\")`) {
		t.Errorf("log %q, want the rig failure naming mesh 0", got)
	}
}

// TestReferenceEvalRules: rules of the reference runtime (eval.rs) that the
// spec leaves open, one per subtest, with hand-computed values.
func TestReferenceEvalRules(t *testing.T) {
	t.Run("collapsed warp turns a rotation by 90°", func(t *testing.T) {
		// eval.rs rotation_frame: turn = atan2(above − origin) + 90°; a
		// warp with all four points at (50, 50) maps above = origin, so
		// the frame turns 90°: (10, 0) → (50, 50) + R(90°)(10, 0) = (50, 60).
		m := newTestModel()
		w := m.warp(-1, 1, 1, static([]float32{50, 50, 50, 50, 50, 50, 50, 50}))
		d := m.rotation(w, 0, static(p2lrt.RotationKey{X: 0.5, Y: 0.5, Scale: 1}))
		mi := m.mesh(d, 10, 0)
		r := m.rig(t)
		eval(t, r)
		checkVerts(t, r, mi, 50, 60)
	})
	t.Run("keyform-less warp and rotation", func(t *testing.T) {
		// eval.rs lattice_points: no grid, every point at the origin; a
		// 4096×4096 lattice maps (0.3, 0.7) to (0, 0). pivot_at: no grid,
		// the identity: (3, 4) stays (3, 4). A rotation under the collapsed
		// warp sits at (0, 0) turned 90°: (2, 0) → (0, 2).
		m := newTestModel()
		w := m.warp(-1, 4096, 4096, nil)
		a := m.mesh(w, 0.3, 0.7)
		d := m.rotation(-1, 0, nil)
		b := m.mesh(d, 3, 4)
		d2 := m.rotation(w, 0, nil)
		c := m.mesh(d2, 2, 0)
		r := m.rig(t)
		eval(t, r)
		checkVerts(t, r, a, 0, 0)
		checkVerts(t, r, b, 3, 4)
		checkVerts(t, r, c, 0, 2)
	})
	t.Run("a mesh listed twice is drawn twice", func(t *testing.T) {
		m := newTestModel()
		mi := m.mesh(-1, 0, 0, 1, 0, 0, 1)
		m.file.Draw.Children = append(m.file.Draw.Children, p2lrt.DrawNode{Mesh: mi})
		r := m.rig(t)
		eval(t, r)
		if o := r.RenderOrder(); len(o) != 2 || o[0] != 0 || o[1] != 0 || r.Mesh(0).RenderPosition() != 0 {
			t.Errorf("render order %v", o)
		}
	})
	t.Run("a glue on one mesh does nothing", func(t *testing.T) {
		m := newTestModel()
		mi := m.mesh(-1, 0, 0, 10, 0)
		m.file.Glues = []p2lrt.Glue{{ID: "g", MeshA: mi, MeshB: mi, Intensity: 1, Pairs: []p2lrt.GluePair{{A: 0, B: 1, WeightA: 0.5, WeightB: 0.5}}}}
		r := m.rig(t)
		eval(t, r)
		checkVerts(t, r, mi, 0, 0, 10, 0)
	})
	t.Run("a flag channel's missing cell keeps the static flag", func(t *testing.T) {
		// eval.rs apply_channels: floor_cell None leaves the flag. The
		// rotation is flipped in x by its flags; the FlipX channel has only
		// the cell at key 1 (false).
		m := newTestModel(param("p", 0, 1, 0))
		d := m.rotation(-1, 0, static(p2lrt.RotationKey{Scale: 1}))
		m.file.Deformers[d].Flags |= p2lrt.DeformerFlipX
		m.file.Deformers[d].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelFlipX, Kind: p2lrt.ChannelFlag, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
			Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{1}, Value: p2lrt.ChannelValue{0}}}}}}
		mi := m.mesh(d, 1, 0)
		r := m.rig(t)
		eval(t, r)
		checkVerts(t, r, mi, -1, 0)
		r.SetParameter(0, 1)
		eval(t, r)
		checkVerts(t, r, mi, 1, 0)
	})
	t.Run("rotation shapes do not flip", func(t *testing.T) {
		m := newTestModel(p2lrt.Parameter{ID: "b", Min: 0, Max: 1, Blend: true})
		d := m.rotation(-1, 0, static(p2lrt.RotationKey{Scale: 1}))
		m.file.Deformers[d].Rotation.Shapes = []p2lrt.Binding[p2lrt.RotationShape]{{Parameter: 0, Keys: []float32{0, 1}, Neutral: 0,
			Present: []bool{false, true}, Shapes: []p2lrt.RotationShape{{}, {Scale: 1, FlipX: 1, FlipY: 1, Opacity: 1, Multiply: p2lrt.White}}}}
		mi := m.mesh(d, 1, 2)
		r := m.rig(t)
		r.SetParameter(0, 1)
		eval(t, r)
		checkVerts(t, r, mi, 1, 2)
	})
	t.Run("limit points are taken as written", func(t *testing.T) {
		// eval.rs piecewise with points (1, 0.5), (0, 1) at x = 0.5: x is
		// at or below the first point's value, so the factor is 0.5 (sorted
		// points would give 0.75). Mesh shape at b = 1: 0.5·(4, 0).
		m := newTestModel(p2lrt.Parameter{ID: "b", Min: 0, Max: 1, Default: 0, Blend: true}, param("x", 0, 1, 0.5))
		mi := m.mesh(-1, 0, 0)
		m.file.Meshes[mi].Shapes = []p2lrt.Binding[p2lrt.MeshShape]{{Parameter: 0, Keys: []float32{0, 1}, Neutral: 0,
			Present: []bool{false, true}, Shapes: []p2lrt.MeshShape{{}, {Deltas: []float32{4, 0}, Opacity: 1, Multiply: p2lrt.White}},
			Limits: []p2lrt.Limit{{Parameter: 1, Points: []p2lrt.LimitPoint{{Value: 1, Weight: 0.5}, {Value: 0, Weight: 1}}}}}}
		r := m.rig(t)
		r.SetParameter(0, 1)
		eval(t, r)
		checkVerts(t, r, mi, 2, 0)
	})
	t.Run("equal keys, duplicate cells, static grid with two cells", func(t *testing.T) {
		// eval.rs span_exact on keys 0, 1, 1, 2 at v = 1 (or 1.0005, which
		// snaps to the first key within 0.001): the segment is the last
		// with lower key ≤ v, index 2, t = 0 → the cell at coordinate 2
		// (x offset 20). Coordinate 3 is listed twice: the last (40) wins
		// (rig.rs Grid::new). A grid without axes reads its first cell.
		m := newTestModel(param("p", 0, 2, 0))
		a := m.mesh(-1, 0, 0)
		m.file.Meshes[a].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1, 1, 2}}}, Cells: []p2lrt.Cell[[]float32]{
			{Coord: []uint16{1}, Value: []float32{10, 0}}, {Coord: []uint16{2}, Value: []float32{20, 0}},
			{Coord: []uint16{3}, Value: []float32{30, 0}}, {Coord: []uint16{3}, Value: []float32{40, 0}}}}
		b := m.mesh(-1, 0, 0)
		m.file.Meshes[b].Keyforms = &p2lrt.Grid[[]float32]{Cells: []p2lrt.Cell[[]float32]{{Value: []float32{1, 1}}, {Value: []float32{2, 2}}}}
		r := m.rig(t)
		for _, c := range []struct{ v, x float32 }{{1, 20}, {1.0005, 20}, {2, 40}, {1.5, 30}} {
			r.SetParameter(0, c.v)
			eval(t, r)
			checkVerts(t, r, a, float64(c.x), 0)
		}
		checkVerts(t, r, b, 1, 1)
	})
}

// TestRevision checks that the rig-wide revision grows with every
// evaluation that changes anything a renderer draws — vertices, an
// opacity, a colour, a group composite — and with nothing else (what
// ebitenp2l's frame replay relies on).
func TestRevision(t *testing.T) {
	m := newTestModel(param("p", 0, 1, 0), param("q", 0, 1, 0), param("idle", 0, 1, 0))
	for i := 0; i < 2; i++ {
		m.mesh(-1, 0, 0, 1, 0, 0, 1)
	}
	// p moves mesh 0's vertices; q changes only the group's opacity;
	// "idle" drives nothing.
	m.file.Meshes[0].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[[]float32]{
		{Coord: []uint16{0}, Value: make([]float32, 6)}, {Coord: []uint16{1}, Value: []float32{1, 1, 1, 1, 1, 1}}}}
	m.file.Parts = []p2lrt.Part{{ID: "iso", Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 1}},
		Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}}}
	m.file.Draw = p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{{Mesh: 0}, {Group: &p2lrt.DrawGroup{Part: 0, Children: []p2lrt.DrawNode{{Mesh: 1}},
		Composite: &p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White},
		Channels: []p2lrt.Channel{{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{Axes: []p2lrt.Axis{{Parameter: 1, Keys: []float32{0, 1}}},
			Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{1}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{0.5}}}}}}}}}}
	r := m.rig(t)
	if r.Revision() != 0 {
		t.Fatalf("before the first evaluation: %d", r.Revision())
	}
	eval(t, r)
	rev := r.Revision()
	if rev == 0 {
		t.Fatal("first evaluation: revision 0")
	}
	step := func(what string, change func(), want bool) {
		t.Helper()
		change()
		eval(t, r)
		got := r.Revision()
		if want && got <= rev || !want && got != rev {
			t.Errorf("%s: revision %d → %d (want a change: %v)", what, rev, got, want)
		}
		rev = got
	}
	step("unchanged", func() {}, false)
	step("a parameter that drives nothing", func() { r.SetParameter(2, 1) }, false)
	step("vertices", func() { r.SetParameter(0, 1) }, true)
	step("group opacity only", func() { r.SetParameter(1, 1) }, true)
	if c := r.Part(0).Composite(); c.Opacity != 0.5 || r.Mesh(0).Changes()&^MeshDrawn != 0 || r.Mesh(1).Changes()&^MeshDrawn != 0 {
		t.Errorf("the group step changed more than the composite: %+v, %b %b", c, r.Mesh(0).Changes(), r.Mesh(1).Changes())
	}
	step("mesh colours", func() { r.meshColorOverride[0] = colorOverride{set: true, mul: p2lrt.Color{1, 0, 1}} }, true)
	step("mesh opacity", func() { r.modelOpacity = 0.5 }, true)
	step("unchanged again", func() {}, false)
	r.fail(errors.New("test failure"))
	if r.Revision() != 0 {
		t.Errorf("a failed rig (nothing to draw) has revision %d, want 0", r.Revision())
	}
}
