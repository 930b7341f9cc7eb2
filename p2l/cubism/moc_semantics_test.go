package cubism

import (
	"math"
	"slices"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/moc3write"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// End-to-end tests of the Cubism evaluation: small synthetic .moc3 files
// (internal/moc3write, from the public format descriptions) go through
// ReadMoc and a rig; every vertex, opacity, colour and the render order is
// compared with values computed by hand from the rules, each rule cited
// (moc3-rs = MahouTechnologies/moc3-rs, moc3-rs/src/…; docs/CUBISM.md
// records the evidence). The arithmetic is written out in the expected
// values themselves; nothing is computed by the code under test.
//
// Every model has the canvas below: a root point (x, y) in model units
// (y down) is the canvas pixel (500 + 100x, 400 + 100y) (docs/CUBISM.md,
// "Coordinates").

const (
	semPPU = 100
	semOX  = 500
	semOY  = 400
)

func semCanvas() moc3write.Canvas {
	return moc3write.Canvas{PixelsPerUnit: semPPU, OriginX: semOX, OriginY: semOY, Width: 1000, Height: 800}
}

// px maps a root point in model units to canvas pixels.
func px(x, y float64) [2]float64 { return [2]float64{semOX + semPPU*x, semOY + semPPU*y} }

// semMesh is a root-part-less art mesh with one keyform at pts (model
// units, or the parent deformer's space).
func semMesh(id string, parentDef int, drawOrder float32, pts ...[2]float32) moc3write.ArtMesh {
	idx := make([]uint16, 0, 3*len(pts))
	for i := range pts {
		idx = append(idx, uint16(i), uint16((i+1)%len(pts)), uint16((i+2)%len(pts)))
	}
	uvs := make([][2]float32, len(pts))
	return moc3write.ArtMesh{ID: id, Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: parentDef,
		DoubleSided: true, UVs: uvs, Indices: idx,
		Keyforms: []moc3write.ArtMeshKeyform{{Opacity: 1, DrawOrder: drawOrder, Positions: pts}}}
}

// rootGroup lists every art mesh in one draw order group [0, 1000].
func rootGroup(m *moc3write.Model) {
	g := moc3write.DrawOrderGroup{MaxDrawOrder: 1000}
	for i := range m.ArtMeshes {
		g.Objects = append(g.Objects, moc3write.DrawOrderObject{Index: int32(i), Self: -1})
	}
	m.DrawOrderGroups = []moc3write.DrawOrderGroup{g}
}

// lowerSem writes m as version v and lowers it.
func lowerSem(t *testing.T, m *moc3write.Model, v uint8) *p2l.Model {
	t.Helper()
	data, err := moc3write.Write(m, v)
	if err != nil {
		t.Fatal("write:", err)
	}
	out, err := readMocModel(data)
	if err != nil {
		t.Fatal("ReadMoc:", err)
	}
	return out
}

// rigAt evaluates a new rig with the named parameters set.
func rigAt(t *testing.T, m *p2l.Model, values map[string]float32) *p2l.Rig {
	t.Helper()
	r := m.NewRig()
	for id, v := range values {
		i := m.ParameterIndex(id)
		if i < 0 {
			t.Fatalf("no parameter %q", id)
		}
		r.SetParameter(i, v)
	}
	r.Evaluate()
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return r
}

const (
	vertexTol = 1e-3 // canvas pixels (issue 31)
	valueTol  = 1e-5 // opacity and colours
)

func wantVertices(t *testing.T, r *p2l.Rig, mesh string, want ...[2]float64) {
	t.Helper()
	i := r.Model().MeshIndex(mesh)
	got := r.Mesh(i).Vertices()
	if len(got) != 2*len(want) {
		t.Fatalf("%s: %d vertex floats, want %d", mesh, len(got), 2*len(want))
	}
	for k, w := range want {
		if math.Abs(float64(got[2*k])-w[0]) > vertexTol || math.Abs(float64(got[2*k+1])-w[1]) > vertexTol {
			t.Errorf("%s vertex %d = (%v, %v), want (%v, %v)", mesh, k, got[2*k], got[2*k+1], w[0], w[1])
		}
	}
}

func wantValue(t *testing.T, what string, got float32, want float64) {
	t.Helper()
	if math.Abs(float64(got)-want) > valueTol {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func wantColor(t *testing.T, what string, got p2lrt.Color, want [3]float64) {
	t.Helper()
	for k := range 3 {
		if math.Abs(float64(got[k])-want[k]) > valueTol {
			t.Errorf("%s = %v, want %v", what, got, want)
			return
		}
	}
}

func wantOrder(t *testing.T, r *p2l.Rig, ids ...string) {
	t.Helper()
	var got []string
	for _, i := range r.RenderOrder() {
		got = append(got, r.Model().Meshes().At(i).ID)
	}
	if !slices.Equal(got, ids) {
		t.Errorf("render order %v, want %v", got, ids)
	}
}

// TestMocKeyformGrid: a root mesh on a two-parameter keyform grid.
// moc3-rs applicator.rs do_interpolate: keyforms first axis fastest, corner
// weights ∏(t or 1 − t); key_segment clamps outside the keys. The object is
// disabled outside [first − ε, last + ε) (key_table_is_outside), ε =
// 0.1^decimal places (puppet/mod.rs ParamData::new).
func TestMocKeyformGrid(t *testing.T) {
	colors := func(r, s float32) *moc3write.Colors {
		return &moc3write.Colors{Multiply: [3]float32{r, 1, 1}, Screen: [3]float32{s, 0, 0}}
	}
	tri := func(x, y float32) [][2]float32 { return [][2]float32{{x, y}, {x + 1, y}, {x, y + 1}} }
	m := &moc3write.Model{
		Canvas: semCanvas(),
		Parameters: []moc3write.Parameter{
			{ID: "ParamA", Min: -5, Max: 15, DecimalPlaces: 1},
			{ID: "ParamB", Min: -2, Max: 2, DecimalPlaces: 1},
		},
		ArtMeshes: []moc3write.ArtMesh{semMesh("Grid", -1, 500, tri(0, 0)...), semMesh("OneKey", -1, 500, tri(0, 0)...)},
	}
	g := &m.ArtMeshes[0]
	g.Axes = []moc3write.Axis{{Parameter: 0, Keys: []float32{0, 10}}, {Parameter: 1, Keys: []float32{-1, 1}}}
	g.Keyforms = []moc3write.ArtMeshKeyform{
		{Opacity: 1, DrawOrder: 500, Positions: tri(0, 0), Colors: colors(1, 0)},     // A=0,  B=−1
		{Opacity: 0.5, DrawOrder: 500, Positions: tri(2, 0), Colors: colors(0.5, 0)}, // A=10, B=−1
		{Opacity: 0.8, DrawOrder: 500, Positions: tri(0, 2), Colors: colors(1, 0.4)}, // A=0,  B=1
		{Opacity: 0.2, DrawOrder: 500, Positions: tri(4, 4), Colors: colors(0, 0.8)}, // A=10, B=1
	}
	one := &m.ArtMeshes[1]
	one.Axes = []moc3write.Axis{{Parameter: 1, Keys: []float32{1}}}
	rootGroup(m)
	model := lowerSem(t, m, moc3write.V42)

	// A = 2.5, B = 0.5: tA = 0.25, tB = (0.5 + 1)/2 = 0.75; weights
	// w0 = 0.75·0.25, w1 = 0.25·0.25, w2 = 0.75·0.75, w3 = 0.25·0.75.
	w := [4]float64{0.75 * 0.25, 0.25 * 0.25, 0.75 * 0.75, 0.25 * 0.75}
	x0 := w[1]*2 + w[3]*4 // first vertex: Σ w·keyform x (0, 2, 0, 4)
	y0 := w[2]*2 + w[3]*4 // and y (0, 0, 2, 4)
	r := rigAt(t, model, map[string]float32{"ParamA": 2.5, "ParamB": 0.5})
	wantVertices(t, r, "Grid", px(x0, y0), px(x0+1, y0), px(x0, y0+1))
	wantValue(t, "opacity", r.Mesh(0).Opacity(), w[0]*1+w[1]*0.5+w[2]*0.8+w[3]*0.2)
	mul, scr := r.Mesh(0).Colors()
	wantColor(t, "multiply", mul, [3]float64{w[0]*1 + w[1]*0.5 + w[2]*1 + w[3]*0, 1, 1})
	wantColor(t, "screen", scr, [3]float64{w[2]*0.4 + w[3]*0.8, 0, 0})
	// B = 0.5 is 0.5 from OneKey's only key 1: outside (ε = 0.1).
	wantOrder(t, r, "Grid")

	// A = 10.05 is above the last key but within ε: clamped, tA = 1:
	// (1 − tB)·kf1 + tB·kf3 = 0.25·(2, 0) + 0.75·(4, 4).
	r = rigAt(t, model, map[string]float32{"ParamA": 10.05, "ParamB": 0.5})
	wantVertices(t, r, "Grid", px(0.25*2+0.75*4, 0.75*4), px(0.25*2+0.75*4+1, 0.75*4), px(0.25*2+0.75*4, 0.75*4+1))
	wantOrder(t, r, "Grid")
	// The ends: the upper one counts as outside (v ≥ 10 + ε), the lower
	// one does not (v < 0 − ε is needed); a single key is a closed
	// interval's complement (v ≤ 1 − ε or v ≥ 1 + ε).
	for _, c := range []struct {
		a, b float32
		want []string
	}{
		{10.1, 0, nil},
		{-0.1, 0, []string{"Grid"}},
		{-0.11, 0, nil},
		{0, 0.95, []string{"Grid", "OneKey"}},
		{0, 1.05, []string{"Grid", "OneKey"}},
		{0, 0.9, []string{"Grid"}},
		{0, 1.1, nil}, // also at Grid's last key B = 1 plus ε
	} {
		r = rigAt(t, model, map[string]float32{"ParamA": c.a, "ParamB": c.b})
		wantOrder(t, r, c.want...)
		if vis := r.Mesh(0).Visible(); vis != slices.Contains(c.want, "Grid") {
			t.Errorf("A=%v B=%v: Grid visible %v", c.a, c.b, vis)
		}
	}
}

// warpGrid is a 1-row, 2-column warp lattice (3×2 points, row by row) in
// model units: the left cell is the unit square, the right one is sheared.
var warpGrid = [][2]float32{{0, 0}, {1, 0}, {2, 0.5}, {0, 1}, {1, 1}, {2.5, 2}}

// warpModel has a root warp "W" (warpGrid, opacity 0.5, multiply
// (0.5, 1, 1), screen (0.2, 0, 0)) holding the mesh "In" at pts.
func warpModel(quad bool, pts ...[2]float32) *moc3write.Model {
	m := &moc3write.Model{
		Canvas:     semCanvas(),
		Parameters: []moc3write.Parameter{{ID: "ParamA", Min: 0, Max: 1}},
		Deformers: []moc3write.Deformer{{ID: "W", Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: -1,
			Warp: &moc3write.WarpDeformer{Rows: 1, Columns: 2, QuadSource: quad, Keyforms: []moc3write.WarpKeyform{
				{Opacity: 0.5, Positions: warpGrid, Colors: &moc3write.Colors{Multiply: [3]float32{0.5, 1, 1}, Screen: [3]float32{0.2, 0, 0}}}}}}},
		ArtMeshes: []moc3write.ArtMesh{semMesh("In", 0, 500, pts...)},
	}
	m.ArtMeshes[0].Keyforms[0].Opacity = 0.8
	m.ArtMeshes[0].Keyforms[0].Colors = &moc3write.Colors{Multiply: [3]float32{0.5, 0.5, 1}, Screen: [3]float32{0.5, 0, 0}}
	rootGroup(m)
	return m
}

// TestMocWarp: a mesh under a root warp, inside the grid (bilinear and
// triangle cells), in the ring [−2, 3]² and beyond it (moc3-rs
// deformer/warp_deformer.rs apply_warp_deformer, math/lerp.rs), with the
// warp's opacity and colours inherited (puppet/mod.rs update: opacity
// multiplies, BlendColor::blend).
func TestMocWarp(t *testing.T) {
	pts := [][2]float32{
		{0.25, 0.5},   // left cell
		{0.875, 0.75}, // right cell, upper triangle
		{0.75, 0.1},   // right cell, lower triangle
		{2, 0.25},     // ring, right side, lower triangle
		{2.5, 0.75},   // ring, right side, upper triangle
		{-1, -0.5},    // ring, lower-left corner
		{4, 0.5},      // beyond the ring
		{-3, -3},      // beyond the ring
	}
	// The ring's affine frame (four corners P00 = (0, 0), P10 = (2, 0.5),
	// P01 = (0, 1), P11 = (2.5, 2)): d1 = P11 − P00 = (2.5, 2),
	// d2 = P10 − P01 = (2, −0.5); vx = (d1 + d2)/2 = (2.25, 0.75),
	// vy = (d1 − d2)/2 = (0.25, 1.25); centroid = (4.5, 3.5)/4 =
	// (1.125, 0.875); origin = centroid − d1/2 = (−0.125, −0.125).
	F := func(u, v float64) [2]float64 { return [2]float64{-0.125 + 2.25*u + 0.25*v, -0.125 + 0.75*u + 1.25*v} }
	add := func(a, b [2]float64, s float64) [2]float64 { return [2]float64{a[0] + s*b[0], a[1] + s*b[1]} }
	sub := func(a, b [2]float64) [2]float64 { return [2]float64{a[0] - b[0], a[1] - b[1]} }
	P := func(i int) [2]float64 { return [2]float64{float64(warpGrid[i][0]), float64(warpGrid[i][1])} }
	pix := func(p [2]float64) [2]float64 { return px(p[0], p[1]) }

	// Left cell (unit square): (0.25, 0.5) → grid (0.5, 0.5) → (0.5, 0.5)
	// whichever the interpolation.
	left := px(0.5, 0.5)
	// Right cell corners BL = P10' = (1, 0), BR = (2, 0.5), TL = (1, 1),
	// TR = (2.5, 2).
	bl, br, tl, tr := P(1), P(2), P(4), P(5)
	// (0.875, 0.75): grid (1.75, 0.75), fraction (0.75, 0.75).
	bilinear1 := [2]float64{
		bl[0]*0.25*0.25 + br[0]*0.75*0.25 + tl[0]*0.25*0.75 + tr[0]*0.75*0.75,
		bl[1]*0.25*0.25 + br[1]*0.75*0.25 + tl[1]*0.25*0.75 + tr[1]*0.75*0.75,
	}
	// Triangles: 0.75 + 0.75 > 1, the upper one: TR + (TL − TR)·0.25 +
	// (BR − TR)·0.25.
	tri1 := add(add(tr, sub(tl, tr), 0.25), sub(br, tr), 0.25)
	// (0.75, 0.1): grid (1.5, 0.1), fraction (0.5, 0.1).
	bilinear2 := [2]float64{
		bl[0]*0.5*0.9 + br[0]*0.5*0.9 + tl[0]*0.5*0.1 + tr[0]*0.5*0.1,
		bl[1]*0.5*0.9 + br[1]*0.5*0.9 + tl[1]*0.5*0.1 + tr[1]*0.5*0.1,
	}
	tri2 := add(add(bl, sub(br, bl), 0.5), sub(tl, bl), 0.1) // 0.5 + 0.1 ≤ 1: lower
	// Ring, right side (case 5), row 0: corners BL = P(2,0) = (2, 0.5),
	// BR = F(3, 0), TL = P(2,1) = (2.5, 2), TR = F(3, 1); t = ((u − 1)/2,
	// v·rows); always triangles.
	rbl, rbr, rtl, rtr := P(2), F(3, 0), P(5), F(3, 1)
	ring1 := add(add(rbl, sub(rbr, rbl), 0.5), sub(rtl, rbl), 0.25)     // (2, 0.25): t = (0.5, 0.25), lower
	ring2 := add(add(rtr, sub(rtl, rtr), 0.25), sub(rbr, rtr), 0.25)    // (2.5, 0.75): t = (0.75, 0.75), upper
	cbr, ctl, ctr := F(0, -2), F(-2, 0), P(0)                           // case 0: BL = F(−2, −2), BR, TL, TR = P00
	ring3 := add(add(ctr, sub(ctl, ctr), 1-0.5), sub(cbr, ctr), 1-0.75) // (−1, −0.5): t = (0.5, 0.75), upper
	wantFor := func(mid1, mid2 [2]float64) [][2]float64 {
		return [][2]float64{left, pix(mid1), pix(mid2), pix(ring1), pix(ring2), pix(ring3), pix(F(4, 0.5)), pix(F(-3, -3))}
	}
	for _, c := range []struct {
		name string
		v    uint8
		quad bool
		want [][2]float64
	}{
		{"3.0 triangles", moc3write.V30, false, wantFor(tri1, tri2)},
		{"4.2 triangles", moc3write.V42, false, wantFor(tri1, tri2)},
		{"4.2 bilinear", moc3write.V42, true, wantFor(bilinear1, bilinear2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := warpModel(c.quad, pts...)
			if c.v < moc3write.V42 {
				m.Deformers[0].Warp.Keyforms[0].Colors = nil
				m.ArtMeshes[0].Keyforms[0].Colors = nil
			}
			r := rigAt(t, lowerSem(t, m, c.v), nil)
			wantVertices(t, r, "In", c.want...)
			wantValue(t, "opacity", r.Mesh(0).Opacity(), 0.5*0.8)
			mul, scr := r.Mesh(0).Colors()
			if c.v >= moc3write.V42 {
				wantColor(t, "multiply", mul, [3]float64{0.5 * 0.5, 1 * 0.5, 1})
				wantColor(t, "screen", scr, [3]float64{0.2 + 0.5 - 0.2*0.5, 0, 0})
			} else {
				wantColor(t, "multiply", mul, [3]float64{1, 1, 1})
				wantColor(t, "screen", scr, [3]float64{0, 0, 0})
			}
		})
	}
}

// TestMocRotations: a rotation at the root, a rotation in it, a rotation in
// a warp, and a reflection. moc3-rs deformer/rotation_deformer.rs: p =
// origin + R(base + angle)·(scale·q), R the standard matrix in the moc's
// y-down space; a child rotation's origin goes through its parent, its
// angle gains the parent's turn of the probe (0, −1)
// (calculate_rotation_deformer_angle), its scale is multiplied by the
// rotations' above (puppet/mod.rs deformer_scale_data). The samples give a
// rotation without one above a scale of 1/ppu, so children are in pixels.
func TestMocRotations(t *testing.T) {
	rot := func(id string, parent int, ox, oy, angle, scale float32, reflectX bool) moc3write.Deformer {
		return moc3write.Deformer{ID: id, Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: parent,
			Rotation: &moc3write.RotationDeformer{BaseAngle: 10, Keyforms: []moc3write.RotationKeyform{
				{Opacity: 1, Angle: angle - 10, OriginX: ox, OriginY: oy, Scale: scale, ReflectX: reflectX}}}}
	}
	m := &moc3write.Model{
		Canvas:     semCanvas(),
		Parameters: []moc3write.Parameter{{ID: "ParamA", Min: 0, Max: 1}},
		Deformers: []moc3write.Deformer{
			rot("R1", -1, 1, 0.5, 30, 0.01, false), // root: origin in model units, scale 1/ppu
			rot("R2", 0, 20, 0, 10, 2, false),      // in R1: origin in R1's pixels
			{ID: "W", Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: -1,
				Warp: &moc3write.WarpDeformer{Rows: 1, Columns: 2, QuadSource: true,
					Keyforms: []moc3write.WarpKeyform{{Opacity: 1, Positions: warpGrid}}}},
			rot("R3", 2, 0.875, 0.5, 0, 0.01, false), // in W: origin in W's unit square
			rot("RX", -1, 1, 0.5, 30, 0.01, true),    // R1 reflected horizontally
		},
		ArtMeshes: []moc3write.ArtMesh{
			semMesh("M1", 0, 500, [2]float32{10, 0}, [2]float32{0, 10}, [2]float32{0, 0}),
			semMesh("M2", 1, 500, [2]float32{5, 0}, [2]float32{0, 5}, [2]float32{0, 0}),
			semMesh("M3", 3, 500, [2]float32{10, 0}, [2]float32{0, 10}, [2]float32{0, 0}),
			semMesh("MX", 4, 500, [2]float32{10, 0}, [2]float32{0, 10}, [2]float32{0, 0}),
		},
	}
	rootGroup(m)
	r := rigAt(t, lowerSem(t, m, moc3write.V40), nil)
	deg := math.Pi / 180
	// frame(o, θ, s)(q) = o + R(θ)·(s·q), in model units.
	frame := func(o [2]float64, theta, s float64) func(x, y float64) [2]float64 {
		c, sn := math.Cos(theta*deg), math.Sin(theta*deg)
		return func(x, y float64) [2]float64 {
			return [2]float64{o[0] + s*(c*x-sn*y), o[1] + s*(sn*x+c*y)}
		}
	}
	pix := func(p [2]float64) [2]float64 { return px(p[0], p[1]) }
	f1 := frame([2]float64{1, 0.5}, 30, 0.01)
	wantVertices(t, r, "M1", pix(f1(10, 0)), pix(f1(0, 10)), pix(f1(0, 0)))
	// R2: origin f1(20, 0); the probe (20, 0) + (0, −10) turns by R1's 30°;
	// angle 10 + 30, scale 2·0.01.
	f2 := frame(f1(20, 0), 10+30, 2*0.01)
	wantVertices(t, r, "M2", pix(f2(5, 0)), pix(f2(0, 5)), pix(f2(0, 0)))
	// R3: origin W(0.875, 0.5); the probe W(0.875, 0.4) − W(0.875, 0.5)
	// = d, turn = angle from (0, −1) to d = atan2(dx, −dy) (y down). In the
	// right cell (corners (1,0), (2,0.5), (1,1), (2.5,2)), bilinear with
	// fractions (0.75, v): W = Σ corner·weight.
	W := func(fu, fv float64) [2]float64 {
		return [2]float64{
			1*(1-fu)*(1-fv) + 2*fu*(1-fv) + 1*(1-fu)*fv + 2.5*fu*fv,
			0*(1-fu)*(1-fv) + 0.5*fu*(1-fv) + 1*(1-fu)*fv + 2*fu*fv,
		}
	}
	o3, probe := W(0.75, 0.5), W(0.75, 0.4)
	turn := math.Atan2(probe[0]-o3[0], -(probe[1]-o3[1])) / deg
	f3 := frame(o3, turn, 0.01)
	wantVertices(t, r, "M3", pix(f3(10, 0)), pix(f3(0, 10)), pix(f3(0, 0)))
	// Reflection (moc3-rs ignores it; ours, docs/CUBISM.md: ReflectX
	// negates the child's x before the frame).
	wantVertices(t, r, "MX", pix(f1(-10, 0)), pix(f1(0, 10)), pix(f1(0, 0)))
}

// TestMocParts: part opacity multiplies down the part tree into the art
// meshes (moc3-rs update: calculated_part_opacities, art mesh opacity ×
// its part's); a part stored not visible starts at opacity 0
// (framedata_for_puppet) until the host or a pose sets it (the framework
// writes part opacities: CubismPose::Reset shows each group's first part).
func TestMocParts(t *testing.T) {
	tri := [][2]float32{{0, 0}, {1, 0}, {0, 1}}
	m := &moc3write.Model{
		Canvas:     semCanvas(),
		Parameters: []moc3write.Parameter{{ID: "ParamA", Min: 0, Max: 1}},
		Parts: []moc3write.Part{
			{ID: "PartRoot", Parent: -1, Visible: true, Enabled: true, Keyforms: []moc3write.PartKeyform{{DrawOrder: 500}}},
			{ID: "PartHidden", Parent: 0, Visible: false, Enabled: true, Keyforms: []moc3write.PartKeyform{{DrawOrder: 500}}},
		},
		ArtMeshes: []moc3write.ArtMesh{semMesh("A", -1, 500, tri...), semMesh("B", -1, 500, tri...)},
	}
	m.ArtMeshes[0].ParentPart, m.ArtMeshes[1].ParentPart = 0, 1
	m.ArtMeshes[1].Keyforms[0].Opacity = 0.8
	rootGroup(m)
	model := lowerSem(t, m, moc3write.V40)
	r := rigAt(t, model, nil)
	wantValue(t, "A opacity", r.Mesh(0).Opacity(), 1)
	wantValue(t, "B opacity (hidden part)", r.Mesh(1).Opacity(), 0)
	r.Part(1).SetHostOpacity(0.5)
	r.Part(0).SetHostOpacity(0.5)
	r.Evaluate()
	wantValue(t, "A opacity", r.Mesh(0).Opacity(), 0.5)
	wantValue(t, "B opacity", r.Mesh(1).Opacity(), 0.8*0.5*0.5) // own × PartHidden × PartRoot

	// A pose whose group lists the hidden part first shows it.
	posed, _, err := importModel(model.File(), "", File{Name: "x.pose3.json", Data: []byte(`{"Type": "Live2D Pose", "Groups": [[{"Id": "PartHidden", "Link": []}]]}`)})
	if err != nil {
		t.Fatal(err)
	}
	r = rigAt(t, posed, nil)
	wantValue(t, "B opacity (posed)", r.Mesh(1).Opacity(), 0.8)
}

// TestMocDrawOrder: draw orders round half away from zero, clamp to their
// group's [min, max], ties keep the group's object order, and a part's
// group is placed by the part's keyform-blended draw order (moc3-rs
// puppet/draw_order.rs sort_render_order).
func TestMocDrawOrder(t *testing.T) {
	tri := [][2]float32{{0, 0}, {1, 0}, {0, 1}}
	m := &moc3write.Model{
		Canvas:     semCanvas(),
		Parameters: []moc3write.Parameter{{ID: "ParamX", Min: 0, Max: 1, DecimalPlaces: 1}},
		Parts: []moc3write.Part{{ID: "P", Parent: -1, Visible: true, Enabled: true,
			Axes:     []moc3write.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
			Keyforms: []moc3write.PartKeyform{{DrawOrder: 300}, {DrawOrder: 800}}}},
		ArtMeshes: []moc3write.ArtMesh{
			semMesh("A", -1, 500, tri...),
			semMesh("E", -1, 499.5, tri...), // rounds to 500: ties with A, after it
			semMesh("B", -1, 700, tri...),
			semMesh("C", -1, 950, tri...), // clamped to its group's 900: ties with D, before it
			semMesh("D", -1, 900, tri...),
		},
	}
	m.ArtMeshes[3].ParentPart, m.ArtMeshes[4].ParentPart = 0, 0
	m.DrawOrderGroups = []moc3write.DrawOrderGroup{
		{MinDrawOrder: 0, MaxDrawOrder: 1000, Objects: []moc3write.DrawOrderObject{
			{Index: 0, Self: -1}, {Index: 1, Self: -1}, {Part: true, Index: 0, Self: 1}, {Index: 2, Self: -1}}},
		{MinDrawOrder: 100, MaxDrawOrder: 900, Objects: []moc3write.DrawOrderObject{{Index: 3, Self: -1}, {Index: 4, Self: -1}}},
	}
	model := lowerSem(t, m, moc3write.V40)
	// X = 0.5: P = 300 + 0.5·(800 − 300) = 550, between A, E (500) and B.
	wantOrder(t, rigAt(t, model, map[string]float32{"ParamX": 0.5}), "A", "E", "C", "D", "B")
	// X = 0: P = 300, first.
	wantOrder(t, rigAt(t, model, map[string]float32{"ParamX": 0}), "C", "D", "A", "E", "B")
}

// TestMocGlue: glue pulls vertex pairs together after deformation, both
// read first (moc3-rs deformer/glue.rs apply_glue); the intensity blends
// over its keyforms and, from 5.0, its blend shapes (the shape's
// difference from its base keyform times the parameter's weight and the
// least constraint weight: Cubism Editor manual, blend shapes "add
// differences"; "Limit Settings for Blend Shape Weights").
func TestMocGlue(t *testing.T) {
	tri := func(x float32) [][2]float32 { return [][2]float32{{x, 0}, {x + 1, 0}, {x, 1}} }
	m := &moc3write.Model{
		Canvas: semCanvas(),
		Parameters: []moc3write.Parameter{
			{ID: "ParamG", Min: 0, Max: 1},
			{ID: "ParamS", Min: 0, Max: 1, BlendShape: true, Keys: []float32{0, 1}},
			{ID: "ParamC", Min: 0, Max: 1},
		},
		ArtMeshes: []moc3write.ArtMesh{semMesh("A", -1, 500, tri(0)...), semMesh("B", -1, 500, tri(1)...)},
		Glues: []moc3write.Glue{{ID: "G", MeshA: 0, MeshB: 1,
			Points:   []moc3write.GluePoint{{Weight: 0.5, Vertex: 0}, {Weight: 0.25, Vertex: 0}},
			Axes:     []moc3write.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
			Keyforms: []moc3write.GlueKeyform{{Intensity: 0}, {Intensity: 1}},
			BlendShapes: []moc3write.BlendShape[moc3write.GlueKeyform]{{Parameter: 1, Keys: []float32{0, 1}, BaseKey: 0,
				Keyforms:    []moc3write.GlueKeyform{{Intensity: 0}, {Intensity: 0.5}},
				Constraints: []moc3write.Constraint{{Parameter: 2, Keys: []float32{0, 1}, Weights: []float32{1, 0}}}}},
		}},
	}
	rootGroup(m)
	model := lowerSem(t, m, moc3write.V50)
	glued := func(in float64) (a, b [2]float64) {
		// a = (0, 0), b = (1, 0): a += (b − a)·0.5·in, b += (a − b)·0.25·in.
		return px(0+(1-0)*0.5*in, 0), px(1+(0-1)*0.25*in, 0)
	}
	// G = 0.5: intensity 0.5.
	r := rigAt(t, model, map[string]float32{"ParamG": 0.5})
	a, b := glued(0.5)
	wantVertices(t, r, "A", a, px(1, 0), px(0, 1))
	wantVertices(t, r, "B", b, px(2, 0), px(1, 1))
	// G = 0, S = 1, C = 0.5: intensity 0 + 0.5·1·(1 − 0.5) = 0.25.
	r = rigAt(t, model, map[string]float32{"ParamS": 1, "ParamC": 0.5})
	a, b = glued(0.25)
	wantVertices(t, r, "A", a, px(1, 0), px(0, 1))
	wantVertices(t, r, "B", b, px(2, 0), px(1, 1))
}

// TestMocBlendShapeConstraints: an art mesh blend shape adds its keyforms'
// differences (stored as differences from the base key: the samples' base
// keyforms are zero) weighted by the blend-shape parameter and the least
// of its constraints' weights (Cubism Editor manual, "Limit Settings for
// Blend Shape Weights": with several limits the smallest is multiplied in).
func TestMocBlendShapeConstraints(t *testing.T) {
	tri := [][2]float32{{0, 0}, {1, 0}, {0, 1}}
	zero := make([][2]float32, 3)
	right := [][2]float32{{1, 0}, {1, 0}, {1, 0}}
	m := &moc3write.Model{
		Canvas: semCanvas(),
		Parameters: []moc3write.Parameter{
			{ID: "ParamS", Min: 0, Max: 1, BlendShape: true, Keys: []float32{0, 1}},
			{ID: "ParamC1", Min: 0, Max: 1},
			{ID: "ParamC2", Min: 0, Max: 1},
		},
		ArtMeshes: []moc3write.ArtMesh{semMesh("M", -1, 500, tri...)},
	}
	m.ArtMeshes[0].BlendShapes = []moc3write.BlendShape[moc3write.ArtMeshKeyform]{{Parameter: 0, Keys: []float32{0, 1}, BaseKey: 0,
		Keyforms: []moc3write.ArtMeshKeyform{{Positions: zero}, {Opacity: -0.5, Positions: right}},
		Constraints: []moc3write.Constraint{
			{Parameter: 1, Keys: []float32{0, 1}, Weights: []float32{1, 0}},
			{Parameter: 2, Keys: []float32{0, 1}, Weights: []float32{1, 0}},
		}}}
	rootGroup(m)
	r := rigAt(t, lowerSem(t, m, moc3write.V42), map[string]float32{"ParamS": 0.5, "ParamC1": 0.5, "ParamC2": 0.25})
	// weight = 0.5 · min(1 − 0.5, 1 − 0.25) = 0.25 (a product would give
	// 0.1875): x += 0.25, opacity = 1 − 0.5·0.25.
	w := 0.5 * math.Min(1-0.5, 1-0.25)
	wantVertices(t, r, "M", px(w, 0), px(1+w, 0), px(w, 1))
	wantValue(t, "opacity", r.Mesh(0).Opacity(), 1-0.5*w)
}

// TestMocDeformerColorBlendShapes: blend shapes of deformers add their
// keyforms' multiply and screen differences from the base keyform, as they
// do positions and opacity (Cubism Editor manual: blend shapes add
// differences; Mao's Rotation64, an aura colour, has a black multiply and a
// screen colour, blended towards others by ParamAuraColor2), and the
// children inherit the result (moc3-rs BlendColor::blend: multiply p·c,
// screen p + c − p·c). A shape whose colour differences are zero leaves the
// deformer's colours as they are.
func TestMocDeformerColorBlendShapes(t *testing.T) {
	colors := func(m, s [3]float32) *moc3write.Colors { return &moc3write.Colors{Multiply: m, Screen: s} }
	zero := colors([3]float32{}, [3]float32{})
	m := &moc3write.Model{
		Canvas: semCanvas(),
		Parameters: []moc3write.Parameter{
			{ID: "ParamS", Min: 0, Max: 1, BlendShape: true, Keys: []float32{0, 1}},
			{ID: "ParamZ", Min: 0, Max: 1, BlendShape: true, Keys: []float32{0, 1}},
		},
		Deformers: []moc3write.Deformer{
			{ID: "R", Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: -1,
				Rotation: &moc3write.RotationDeformer{
					Keyforms: []moc3write.RotationKeyform{{Opacity: 1, Scale: 0.01,
						Colors: colors([3]float32{0, 0, 0}, [3]float32{1, 0.25, 0.75})}},
					BlendShapes: []moc3write.BlendShape[moc3write.RotationKeyform]{
						{Parameter: 0, Keys: []float32{0, 1}, BaseKey: 0, Keyforms: []moc3write.RotationKeyform{
							{Colors: zero}, {Colors: colors([3]float32{0.5, 0.25, 0}, [3]float32{0, 0.5, -0.5})}}},
						{Parameter: 1, Keys: []float32{0, 1}, BaseKey: 0, Keyforms: []moc3write.RotationKeyform{
							{Colors: zero}, {Angle: 90, Colors: zero}}},
					}}},
			{ID: "W", Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: -1,
				Warp: &moc3write.WarpDeformer{Rows: 1, Columns: 2, QuadSource: true,
					Keyforms: []moc3write.WarpKeyform{{Opacity: 1, Positions: warpGrid,
						Colors: colors([3]float32{0.5, 1, 1}, [3]float32{0.2, 0, 0})}},
					BlendShapes: []moc3write.BlendShape[moc3write.WarpKeyform]{
						{Parameter: 0, Keys: []float32{0, 1}, BaseKey: 0, Keyforms: []moc3write.WarpKeyform{
							{Positions: make([][2]float32, 6), Colors: zero},
							{Positions: make([][2]float32, 6), Colors: colors([3]float32{0.25, 0, 0}, [3]float32{0.4, 0.5, 0})}}}}}},
		},
		ArtMeshes: []moc3write.ArtMesh{
			semMesh("InR", 0, 500, [2]float32{10, 0}, [2]float32{0, 10}, [2]float32{0, 0}),
			semMesh("InW", 1, 500, [2]float32{0.25, 0.25}, [2]float32{0.5, 0.25}, [2]float32{0.25, 0.5}),
		},
	}
	rootGroup(m)
	model := lowerSem(t, m, moc3write.V50)
	r := rigAt(t, model, map[string]float32{"ParamS": 0.5})
	mul, scr := r.Mesh(model.MeshIndex("InR")).Colors()
	// R at ParamS 0.5: multiply (0, 0, 0) + 0.5·(0.5, 0.25, 0) = (0.25,
	// 0.125, 0); screen (1, 0.25, 0.75) + 0.5·(0, 0.5, −0.5) = (1, 0.5,
	// 0.5). The mesh's own colours are white and black: it shows R's.
	wantColor(t, "InR multiply", mul, [3]float64{0.25, 0.125, 0})
	wantColor(t, "InR screen", scr, [3]float64{1, 0.5, 0.5})
	mul, scr = r.Mesh(model.MeshIndex("InW")).Colors()
	// W: multiply (0.5, 1, 1) + 0.5·(0.25, 0, 0) = (0.625, 1, 1); screen
	// (0.2, 0, 0) + 0.5·(0.4, 0.5, 0) = (0.4, 0.25, 0).
	wantColor(t, "InW multiply", mul, [3]float64{0.625, 1, 1})
	wantColor(t, "InW screen", scr, [3]float64{0.4, 0.25, 0})
	// ParamZ's shape turns R by 90° and has no colour difference: R keeps
	// its keyform colours, multiply (0, 0, 0), screen (1, 0.25, 0.75).
	r = rigAt(t, model, map[string]float32{"ParamZ": 1})
	mul, scr = r.Mesh(model.MeshIndex("InR")).Colors()
	wantColor(t, "InR multiply (ParamZ)", mul, [3]float64{0, 0, 0})
	wantColor(t, "InR screen (ParamZ)", scr, [3]float64{1, 0.25, 0.75})
	// The turn itself: R's frame at the origin, angle 90°, scale 0.01:
	// (10, 0) ↦ (0, 0.1), (0, 10) ↦ (−0.1, 0) in model units.
	wantVertices(t, r, "InR", px(0, 0.1), px(-0.1, 0), px(0, 0))
}

// TestMocManyTurns: a rotation whose keyforms span ten turns (Ren's
// Rotation17 goes from 0° to 3600° over ParamNoiseRotate) places its
// children as the angle reduced to one turn does: float32 radians of
// 58.9 rad are only good to 3.8e-6 rad, 3.4e-3 px at the 1800 px of this
// mesh's far vertex, so whole turns come off before the conversion.
func TestMocManyTurns(t *testing.T) {
	m := &moc3write.Model{
		Canvas:     semCanvas(),
		Parameters: []moc3write.Parameter{{ID: "ParamTurn", Min: 0, Max: 1}},
		Deformers: []moc3write.Deformer{{ID: "R", Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: -1,
			Axes: []moc3write.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
			Rotation: &moc3write.RotationDeformer{Keyforms: []moc3write.RotationKeyform{
				{Opacity: 1, OriginX: 1, OriginY: 0.5, Scale: 0.01},
				{Opacity: 1, OriginX: 1, OriginY: 0.5, Scale: 0.01, Angle: 3600}}}}},
		ArtMeshes: []moc3write.ArtMesh{semMesh("M", 0, 500, [2]float32{1800, 0}, [2]float32{0, 1800}, [2]float32{0, 0})},
	}
	rootGroup(m)
	r := rigAt(t, lowerSem(t, m, moc3write.V40), map[string]float32{"ParamTurn": 0.9375})
	// 0.9375·3600° = 3375° = 9 turns + 135°: (1800, 0) ↦ (1, 0.5) +
	// 18·(cos 135°, sin 135°), (0, 1800) ↦ (1, 0.5) + 18·(−sin 135°,
	// cos 135°), in model units.
	c, s := math.Cos(135*math.Pi/180), math.Sin(135*math.Pi/180)
	wantVertices(t, r, "M", px(1+18*c, 0.5+18*s), px(1-18*s, 0.5+18*c), px(1, 0.5))
}

// TestMocDrawableFlags: masks, inverted masks, culling (a mesh not double
// sided is culled), the legacy blend bits and the 5.3 blend modes and
// offscreen parts are lowered as stored (moc3.hexpat DrawableFlags; Core
// 06.00 csmColorBlendType/csmAlphaBlendType numbering, research notes §6).
// moc3write.Example: MeshFace (not double sided), MeshEye (double sided,
// inverted mask by MeshFace), MeshGlow (additive, masked by both); in 5.3
// MeshFace Multiply/Atop, MeshGlow Color/DisjointOver and an offscreen on
// PartFace (AddGlow/Out, inverted mask by MeshGlow, opacity 0.85 and 0.5
// over ParamEyeLOpen's keys 0 and 1).
func TestMocDrawableFlags(t *testing.T) {
	for _, v := range []uint8{moc3write.V40, moc3write.V53} {
		m := lowerSem(t, moc3write.Example(v), v)
		face, eye, glow := m.Meshes().At(0), m.Meshes().At(1), m.Meshes().At(2)
		if face.Flags&p2lrt.MeshCulling == 0 || eye.Flags&p2lrt.MeshCulling != 0 {
			t.Errorf("v%d: culling flags %v %v", v, face.Flags, eye.Flags)
		}
		if eye.Flags&p2lrt.MeshInvertMask == 0 || !slices.Equal(eye.Masks, []int{0}) || !slices.Equal(glow.Masks, []int{0, 1}) {
			t.Errorf("v%d: masks %v %v, eye flags %v", v, eye.Masks, glow.Masks, eye.Flags)
		}
		wantBlend := func(mesh p2lrt.Mesh, b p2lrt.BlendMode, a p2lrt.AlphaMode) {
			if mesh.Blend != b || mesh.AlphaBlend != a {
				t.Errorf("v%d: %s blend %v/%v, want %v/%v", v, mesh.ID, mesh.Blend, mesh.AlphaBlend, b, a)
			}
		}
		if v < moc3write.V53 {
			wantBlend(glow, p2lrt.BlendAddCompatible, p2lrt.AlphaOver)
			wantBlend(face, p2lrt.BlendNormal, p2lrt.AlphaOver)
			continue
		}
		wantBlend(face, p2lrt.BlendMultiply, p2lrt.AlphaAtop)
		wantBlend(glow, p2lrt.BlendColor, p2lrt.AlphaDisjointOver)
		part := m.PartIndex("PartFace")
		r := rigAt(t, m, map[string]float32{"ParamEyeLOpen": 0.5})
		c := r.Part(part).Composite()
		if c.Blend != p2lrt.BlendAddGlow || c.AlphaBlend != p2lrt.AlphaOut || !c.InvertMask || !slices.Equal(c.MaskMeshes, []int{2}) {
			t.Errorf("offscreen composite %+v", c)
		}
		wantValue(t, "offscreen opacity", c.Opacity, 0.5*0.85+0.5*0.5)
	}
}
