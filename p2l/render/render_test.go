package render

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// fakeFrame is a hand-made evaluation: the renderer reads only what a Rig's
// accessors give, so these tests do not depend on the evaluator.
type fakeFrame struct {
	m       *p2lrt.File
	model   *p2l.Model // of m, made on first use (Model)
	verts   [][]float32
	uvs     [][]float32
	idx     [][]uint32
	opacity []float32
	mul     []p2lrt.Color
	scr     []p2lrt.Color
	cmds    []p2l.RenderCommand
	groups  map[int]p2lrt.Composite
}

func (f *fakeFrame) Model() *p2l.Model {
	if f.model == nil {
		// The file holds only what the renderer reads; make it a valid
		// one: no deformers (meshes at the root), a root draw group.
		f.m.Draw.Part = -1
		for i := range f.m.Meshes {
			f.m.Meshes[i].Parent = -1
		}
		f.model = synth.MustModel(f.m)
	}
	return f.model
}
func (f *fakeFrame) Err() error                                  { return nil }
func (f *fakeFrame) RenderCommands() []p2l.RenderCommand         { return f.cmds }
func (f *fakeFrame) MeshVertices(i int) []float32                { return f.verts[i] }
func (f *fakeFrame) MeshUVs(i int) []float32                     { return f.uvs[i] }
func (f *fakeFrame) MeshIndices(i int) []uint32                  { return f.idx[i] }
func (f *fakeFrame) MeshOpacity(i int) float32                   { return f.opacity[i] }
func (f *fakeFrame) MeshColors(i int) (p2lrt.Color, p2lrt.Color) { return f.mul[i], f.scr[i] }
func (f *fakeFrame) GroupComposite(p int) p2lrt.Composite        { return f.groups[p] }

// HitTest stands in for Rig.HitTest's triangle test: the point is in hit
// area 0 when the model has one.
func (f *fakeFrame) HitTest(x, y float32) int {
	if len(f.m.HitAreas) == 0 {
		return -1
	}
	return 0
}

// addMesh appends a mesh with the given canvas vertices, UVs and indices,
// drawn in order; it returns the mesh index.
func (f *fakeFrame) addMesh(mesh p2lrt.Mesh, verts, uvs []float32, idx []uint32) int {
	if f.m == nil {
		f.m = &p2lrt.File{Canvas: p2lrt.Canvas{Width: 16, Height: 16}}
	}
	if mesh.Opacity == 0 {
		mesh.Opacity = 1
	}
	f.m.Meshes = append(f.m.Meshes, mesh)
	f.verts = append(f.verts, verts)
	if uvs == nil {
		uvs = make([]float32, len(verts))
	}
	f.uvs = append(f.uvs, uvs)
	f.idx = append(f.idx, idx)
	f.opacity = append(f.opacity, mesh.Opacity)
	f.mul = append(f.mul, p2lrt.White)
	f.scr = append(f.scr, p2lrt.Black)
	i := len(f.m.Meshes) - 1
	f.cmds = append(f.cmds, p2l.RenderCommand(i))
	return i
}

// quad returns the vertices and two-triangle indices of the axis-aligned
// rectangle (x0, y0)–(x1, y1) with UVs spanning the unit square.
func quad(x0, y0, x1, y1 float32) (verts, uvs []float32, idx []uint32) {
	return []float32{x0, y0, x1, y0, x1, y1, x0, y1},
		[]float32{0, 0, 1, 0, 1, 1, 0, 1},
		[]uint32{0, 1, 2, 0, 2, 3}
}

func renderFrame(t *testing.T, r *Renderer, f *fakeFrame, w, h int, opts *Options) *image.RGBA {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if opts == nil {
		opts = &Options{Transform: &p2l.Identity}
	}
	if err := r.render(f, img, opts); err != nil {
		t.Fatal(err)
	}
	return img
}

// layerAt reads the renderer's base layer: the 8-bit values (k/255) it
// stores, before the output conversion.
func layerAt(r *Renderer, x, y int) Premul {
	p := r.layers[0].pix[4*(y*r.w+x):]
	return Premul{p[0], p[1], p[2], p[3]}
}

// stored8 is the 8-bit value a render target keeps of v: the nearest k/255,
// ties to even (the reference's rule, written here independently in
// float64, where the tests' ties are exact).
func stored8(v float64) float64 { return math.RoundToEven(v*255) / 255 }

// near8 reports whether every channel of got, read from a layer, is the
// 8-bit value an RGBA8 target stores for the exact result want: the nearest
// k/255, or, when want lies within 1e-4/255 of a tie, the even neighbour
// (want is float32 here, so a tie may be off by its rounding).
func near8(got, want Premul) bool {
	g := [4]float32{got.R, got.G, got.B, got.A}
	w := [4]float32{want.R, want.G, want.B, want.A}
	for k := range g {
		x := float64(w[k]) * 255
		gk := float64(g[k]) * 255
		if math.Abs(gk-math.Round(gk)) > 1e-3 {
			return false // not an 8-bit value at all
		}
		if math.Abs(x-math.Floor(x)-0.5) < 1e-4 {
			if math.Round(gk) != math.RoundToEven(math.Floor(x)+0.5) {
				return false
			}
			continue
		}
		if math.Round(gk) != math.Round(x) {
			return false
		}
	}
	return true
}

func near(a, b Premul, tol float32) bool {
	return abs32(a.R-b.R) <= tol && abs32(a.G-b.G) <= tol && abs32(a.B-b.B) <= tol && abs32(a.A-b.A) <= tol
}

// countCoverage draws the triangles of f with AddCompatible white at 1/8 per
// fragment over opaque black and returns how many times each pixel was hit.
func countCoverage(t *testing.T, f *fakeFrame, w, h int) [][]int {
	for i := range f.m.Meshes {
		f.m.Meshes[i].Blend = p2lrt.BlendAddCompatible
		f.m.Meshes[i].TexturePage = -1
		f.mul[i] = p2lrt.Color{0.125, 0.125, 0.125}
	}
	var r Renderer
	renderFrame(t, &r, f, w, h, &Options{Transform: &p2l.Identity, Background: color.RGBA{0, 0, 0, 255}})
	n := make([][]int, h)
	for y := range n {
		n[y] = make([]int, w)
		for x := range n[y] {
			n[y][x] = int(math.Round(float64(layerAt(&r, x, y).R) * 8))
		}
	}
	return n
}

// insideTopLeft is the independent statement of the fill rule for an
// axis-aligned rectangle with edges at x0, x1, y0, y1: the left and top
// edges are included, the right and bottom excluded.
func insideTopLeft(px, py, x0, y0, x1, y1 float64) bool {
	return px >= x0 && px < x1 && py >= y0 && py < y1
}

func TestTopLeftRuleSharedEdges(t *testing.T) {
	// A 6×6 grid of cells over [1.5, 13.5]², corners on pixel centres so
	// that every edge and diagonal passes through pixel centres; interior
	// vertices jittered by quarter pixels, alternating diagonal direction.
	f := &fakeFrame{}
	const n = 6
	var verts []float32
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			x := 1.5 + 2*float32(i)
			y := 1.5 + 2*float32(j)
			if i > 0 && i < n && j > 0 && j < n {
				x += 0.25 * float32((i*3+j)%5-2)
				y += 0.25 * float32((i+j*2)%5-2)
			}
			verts = append(verts, x, y)
		}
	}
	var idx []uint32
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a := uint32(j*(n+1) + i)
			b, c, d := a+1, a+uint32(n+1)+1, a+uint32(n+1)
			if (i+j)%2 == 0 {
				idx = append(idx, a, b, c, a, c, d)
			} else {
				idx = append(idx, a, b, d, b, c, d)
			}
		}
	}
	f.addMesh(p2lrt.Mesh{}, verts, nil, idx)
	cov := countCoverage(t, f, 16, 16)
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			want := 0
			if insideTopLeft(float64(x)+0.5, float64(y)+0.5, 1.5, 1.5, 13.5, 13.5) {
				want = 1
			}
			if cov[y][x] != want {
				t.Errorf("pixel (%d,%d) covered %d times, want %d", x, y, cov[y][x], want)
			}
		}
	}
}

func TestTopLeftRuleFan(t *testing.T) {
	// Eight triangles around a vertex on the pixel centre (8.5, 8.5), both
	// windings mixed: the centre pixel is covered exactly once.
	f := &fakeFrame{}
	verts := []float32{8.5, 8.5}
	for k := 0; k < 8; k++ {
		a := float64(k) * math.Pi / 4
		verts = append(verts, float32(8.5+5*math.Cos(a)), float32(8.5+5*math.Sin(a)))
	}
	var idx []uint32
	for k := uint32(0); k < 8; k++ {
		if k%2 == 0 {
			idx = append(idx, 0, 1+k, 1+(k+1)%8)
		} else {
			idx = append(idx, 0, 1+(k+1)%8, 1+k)
		}
	}
	f.addMesh(p2lrt.Mesh{}, verts, nil, idx)
	cov := countCoverage(t, f, 16, 16)
	for y := range cov {
		for x, c := range cov[y] {
			if c > 1 {
				t.Errorf("pixel (%d,%d) covered %d times", x, y, c)
			}
		}
	}
	// Pixels well inside the octagon (distance < 4 from the centre) are
	// covered: no gaps along the spokes.
	for y := range cov {
		for x, c := range cov[y] {
			if math.Hypot(float64(x)+0.5-8.5, float64(y)+0.5-8.5) < 4 && c != 1 {
				t.Errorf("pixel (%d,%d) inside the fan covered %d times", x, y, c)
			}
		}
	}
}

func TestCullingWinding(t *testing.T) {
	// Triangle A: (1,1) (7,1) (1,7) has (b−a)×(c−a) = 36 > 0: a back face.
	// Triangle B: (9,1) (9,7) (15,1) has −36 < 0: a front face.
	verts := []float32{1, 1, 7, 1, 1, 7, 9, 1, 9, 7, 15, 1}
	idx := []uint32{0, 1, 2, 3, 4, 5}
	for _, tc := range []struct {
		name   string
		cull   bool
		xform  p2l.Affine
		a, b   bool
		probeA [2]int
		probeB [2]int
	}{
		{"no culling", false, p2l.Identity, true, true, [2]int{2, 2}, [2]int{10, 2}},
		{"culling", true, p2l.Identity, false, true, [2]int{2, 2}, [2]int{10, 2}},
		// A mirroring transform does not change which faces are front:
		// culling is decided in canvas coordinates.
		{"culling mirrored", true, p2l.Affine{A: -1, D: 1, TX: 16}, false, true, [2]int{13, 2}, [2]int{5, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeFrame{}
			var flags p2lrt.MeshFlags
			if tc.cull {
				flags = p2lrt.MeshCulling
			}
			f.addMesh(p2lrt.Mesh{Flags: flags, TexturePage: -1}, verts, nil, idx)
			var r Renderer
			img := renderFrame(t, &r, f, 16, 8, &Options{Transform: &tc.xform})
			if got := img.RGBAAt(tc.probeA[0], tc.probeA[1]).A == 255; got != tc.a {
				t.Errorf("triangle A drawn = %v, want %v", got, tc.a)
			}
			if got := img.RGBAAt(tc.probeB[0], tc.probeB[1]).A == 255; got != tc.b {
				t.Errorf("triangle B drawn = %v, want %v", got, tc.b)
			}
		})
	}
}

// page2x1 is a 2×1 page: opaque red, then half-transparent blue
// (premultiplied (0, 0, 128, 128)).
func page2x1() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 2, 1))
	copy(img.Pix, []uint8{255, 0, 0, 255, 0, 0, 128, 128})
	return img
}

func TestBilinearSampling(t *testing.T) {
	// A 4×1 pixel quad with u across [0, 1]: pixel centres at u = 1/8,
	// 3/8, 5/8, 7/8, i.e. texel positions −0.25, 0.25, 0.75, 1.25 (texel
	// centres at 0 and 1). Clamp to edge gives texel 0 and texel 1 at the
	// ends; in between weights 0.75/0.25 and 0.25/0.75.
	f := &fakeFrame{}
	v, uv, idx := quad(0, 0, 4, 1)
	f.addMesh(p2lrt.Mesh{TexturePage: 0}, v, uv, idx)
	r := Renderer{Pages: []*image.RGBA{page2x1()}}
	renderFrame(t, &r, f, 4, 1, nil)
	t0 := Premul{1, 0, 0, 1}
	t1 := Premul{0, 0, 128.0 / 255, 128.0 / 255}
	mix := func(w float32) Premul { // (1−w)·t0 + w·t1
		return Premul{t0.R*(1-w) + t1.R*w, 0, t0.B*(1-w) + t1.B*w, t0.A*(1-w) + t1.A*w}
	}
	for x, w := range []float32{0, 0.25, 0.75, 1} {
		// Normal over transparent: the result is the sample itself.
		if got, want := layerAt(&r, x, 0), mix(w); !near8(got, want) {
			t.Errorf("pixel %d = %v, want %v", x, got, want)
		}
	}
	// At texel centres exactly (u = 0.25 and 0.75) the sample is the texel.
	if got := sample(page2x1(), 0.25, 0.5); !near(got, t0, 0) {
		t.Errorf("sample at texel centre 0 = %v", got)
	}
	if got := sample(page2x1(), 0.75, 0.5); !near(got, t1, 0) {
		t.Errorf("sample at texel centre 1 = %v", got)
	}
	if got := sample(page2x1(), math.NaN(), math.Inf(1)); !near(got, t0, 0) {
		t.Errorf("sample at NaN = %v", got)
	}
}

func TestColorsOpacityAndFallbackPages(t *testing.T) {
	// Page −1 samples opaque white: multiply (0.5, 1, 0.25), screen
	// (0, 0, 0.5), opacity 0.5 over transparent:
	// colour (0.5, 1, 0.25 + 0.5 − 0.125 = 0.625) premultiplied by 0.5.
	f := &fakeFrame{}
	v, uv, idx := quad(0, 0, 4, 4)
	f.addMesh(p2lrt.Mesh{TexturePage: -1, Opacity: 0.5}, v, uv, idx)
	f.mul[0] = p2lrt.Color{0.5, 1, 0.25}
	f.scr[0] = p2lrt.Color{0, 0, 0.5}
	// Unavailable page (index 3 of 1): draws nothing.
	v2, uv2, idx2 := quad(4, 0, 8, 4)
	f.addMesh(p2lrt.Mesh{TexturePage: 3}, v2, uv2, idx2)
	r := Renderer{Pages: []*image.RGBA{page2x1()}}
	renderFrame(t, &r, f, 8, 4, nil)
	if got, want := layerAt(&r, 1, 1), (Premul{0.25, 0.5, 0.3125, 0.5}); !near8(got, want) {
		t.Errorf("shaded = %v, want %v", got, want)
	}
	if got := layerAt(&r, 5, 1); got != (Premul{}) {
		t.Errorf("unavailable page drew %v", got)
	}
}

// softMaskPage is a 4×1 alpha ramp: alpha 0, 85, 170, 255 (white).
func softMaskPage() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 4, 1))
	for x, a := range []uint8{0, 85, 170, 255} {
		copy(img.Pix[4*x:], []uint8{a, a, a, a})
	}
	return img
}

func TestMaskCoverage(t *testing.T) {
	for _, invert := range []bool{false, true} {
		// Mask mesh 0 maps the alpha ramp onto x ∈ [0, 4) (one texel per
		// pixel, so pixel x samples texel x exactly). Mask mesh 1 covers
		// pixel 1 with a page of alpha 0.4 and a tiny opacity, which masks
		// ignore: coverage takes the maximum, not a sum or product.
		f := &fakeFrame{}
		v, uv, idx := quad(0, 0, 4, 1)
		f.addMesh(p2lrt.Mesh{TexturePage: 0}, v, uv, idx)
		half := image.NewRGBA(image.Rect(0, 0, 1, 1))
		copy(half.Pix, []uint8{102, 102, 102, 102}) // alpha 0.4
		v1, uv1, idx1 := quad(1, 0, 2, 1)
		f.addMesh(p2lrt.Mesh{TexturePage: 1, Opacity: 0.01}, v1, uv1, idx1)
		f.cmds = nil // masks need not be drawn
		var flags p2lrt.MeshFlags
		if invert {
			flags = p2lrt.MeshInvertMask
		}
		v2, uv2, idx2 := quad(0, 0, 4, 1)
		f.addMesh(p2lrt.Mesh{TexturePage: -1, Masks: []int{0, 1}, Flags: flags}, v2, uv2, idx2)
		r := Renderer{Pages: []*image.RGBA{softMaskPage(), half}}
		renderFrame(t, &r, f, 4, 1, nil)
		// Coverage: max(ramp, 0.4 on pixel 1) = 0, max(1/3, 0.4), 2/3, 1.
		for x, c := range []float32{0, 0.4, 170.0 / 255, 1} {
			if invert {
				c = 1 - c
			}
			if got, want := layerAt(&r, x, 0), (Premul{c, c, c, c}); !near(got, want, 1e-6) {
				t.Errorf("invert=%v pixel %d = %v, want %v", invert, x, got, want)
			}
		}
	}
}

func TestIsolatedGroup(t *testing.T) {
	// Two overlapping opaque meshes, red then blue, inside a group of
	// opacity 0.5 with multiply (1, 1, 0.5), over opaque white. Isolation:
	// the overlap shows blue·0.5 over white, not red showing through.
	f := &fakeFrame{}
	v, uv, idx := quad(0, 0, 3, 1)
	red := f.addMesh(p2lrt.Mesh{TexturePage: -1}, v, uv, idx)
	v2, uv2, idx2 := quad(1, 0, 4, 1)
	blue := f.addMesh(p2lrt.Mesh{TexturePage: -1}, v2, uv2, idx2)
	f.mul[red] = p2lrt.Color{1, 0, 0}
	f.mul[blue] = p2lrt.Color{0, 0, 1}
	f.m.Parts = []p2lrt.Part{{ID: "g"}}
	f.cmds = []p2l.RenderCommand{p2l.OpenGroup(0), p2l.RenderCommand(red), p2l.RenderCommand(blue), p2l.CloseGroup}
	f.groups = map[int]p2lrt.Composite{0: {Opacity: 0.5, Multiply: p2lrt.Color{1, 1, 0.5}, Screen: p2lrt.Black}}
	var r Renderer
	renderFrame(t, &r, f, 4, 1, &Options{Transform: &p2l.Identity, Background: color.RGBA{255, 255, 255, 255}})
	// Pixel 0: red·0.5 over white = (1, 0.5, 0.5). Pixels 1–3: blue with
	// multiply b·0.5 = 0.5, at 0.5 over white: (0.5, 0.5, 0.25 + 0.5).
	want := []Premul{{1, 0.5, 0.5, 1}, {0.5, 0.5, 0.75, 1}, {0.5, 0.5, 0.75, 1}, {0.5, 0.5, 0.75, 1}}
	for x, w := range want {
		if got := layerAt(&r, x, 0); !near8(got, w) {
			t.Errorf("pixel %d = %v, want %v", x, got, w)
		}
	}
}

func TestNestedGroupsWithMaskAndBlend(t *testing.T) {
	// Outer group (Multiply+Over, opacity 1) holds an inner group
	// (opacity 0.5, masked by mesh 0 inverted) holding a grey mesh.
	// Backdrop: opaque (0.8, 0.4, 0.2). Mask covers pixel 0 only.
	f := &fakeFrame{}
	mv, muv, midx := quad(0, 0, 1, 1)
	mask := f.addMesh(p2lrt.Mesh{TexturePage: -1}, mv, muv, midx)
	v, uv, idx := quad(0, 0, 2, 1)
	grey := f.addMesh(p2lrt.Mesh{TexturePage: -1}, v, uv, idx)
	f.mul[grey] = p2lrt.Color{0.5, 0.5, 0.5}
	f.m.Parts = []p2lrt.Part{{ID: "outer"}, {ID: "inner"}}
	f.cmds = []p2l.RenderCommand{p2l.OpenGroup(0), p2l.OpenGroup(1), p2l.RenderCommand(grey), p2l.CloseGroup, p2l.CloseGroup}
	f.groups = map[int]p2lrt.Composite{
		0: {Blend: p2lrt.BlendMultiply, Opacity: 1, Multiply: p2lrt.White},
		1: {Opacity: 0.5, Multiply: p2lrt.White, MaskMeshes: []int{mask}, InvertMask: true},
	}
	var r Renderer
	renderFrame(t, &r, f, 2, 1, &Options{Transform: &p2l.Identity, Background: color.RGBA{204, 102, 51, 255}})
	bd := rgb64{0.8, 0.4, 0.2}
	// Pixel 0: inverted coverage 0 → inner layer transparent → outer layer
	// transparent → backdrop unchanged. Pixel 1: the inner layer stores the
	// grey 0.5 as 128/255 (8 bits, ties to even); at group opacity 0.5 the outer
	// layer stores premultiplied 64/255 at alpha 0.5 → 128/255; that
	// composites Multiply+Over onto the opaque backdrop (W3C reference),
	// on the stored values.
	want0 := premul(bd, 1)
	g := stored8(0.5)
	ao := stored8(0.5)
	gp := stored8(g * 0.5)
	ref := reference(p2lrt.BlendMultiply, p2lrt.AlphaOver, rgb64{gp / ao, gp / ao, gp / ao}, ao, bd, 1)
	want1 := Premul{float32(ref[0]), float32(ref[1]), float32(ref[2]), float32(ref[3])}
	if got := layerAt(&r, 0, 0); !near(got, want0, 1e-6) {
		t.Errorf("pixel 0 = %v, want %v", got, want0)
	}
	if got := layerAt(&r, 1, 0); !near8(got, want1) {
		t.Errorf("pixel 1 = %v, want %v", got, want1)
	}
}

func TestAdvancedModeReadsDestinationBeforeMesh(t *testing.T) {
	// One mesh whose two triangles overlap completely (same quad twice),
	// white at opacity 0.5 over opaque grey 0.5. Overlay+Over reads the
	// destination: every pixel is the single-layer result (the last
	// triangle replaces, as with Cubism's destination copy), not overlay
	// applied twice. Screen+Over is a FixedFunction combination: it blends
	// triangle after triangle (as a GPU blend unit and the reference
	// runtime do), so screen is applied twice.
	g := 128.0 / 255
	once := func(b p2lrt.BlendMode, d rgb64) [4]float64 {
		return reference(b, p2lrt.AlphaOver, rgb64{1, 1, 1}, 0.5, d, 1)
	}
	stored := func(v [4]float64) rgb64 { // as the 8-bit destination holds it
		return rgb64{math.Round(v[0]*255) / 255, math.Round(v[1]*255) / 255, math.Round(v[2]*255) / 255}
	}
	for _, tc := range []struct {
		blend p2lrt.BlendMode
		want  [4]float64
	}{
		{p2lrt.BlendOverlay, once(p2lrt.BlendOverlay, rgb64{g, g, g})},
		{p2lrt.BlendScreen, once(p2lrt.BlendScreen, stored(once(p2lrt.BlendScreen, rgb64{g, g, g})))},
	} {
		f := &fakeFrame{}
		v, uv, idx := quad(0, 0, 2, 2)
		idx = append(idx, idx...)
		f.addMesh(p2lrt.Mesh{TexturePage: -1, Blend: tc.blend, Opacity: 0.5}, v, uv, idx)
		var r Renderer
		renderFrame(t, &r, f, 2, 2, &Options{Transform: &p2l.Identity, Background: color.RGBA{128, 128, 128, 255}})
		want := Premul{float32(tc.want[0]), float32(tc.want[1]), float32(tc.want[2]), float32(tc.want[3])}
		for y := 0; y < 2; y++ {
			for x := 0; x < 2; x++ {
				if got := layerAt(&r, x, y); !near8(got, want) {
					t.Errorf("%v: pixel (%d,%d) = %v, want %v", tc.blend, x, y, got, want)
				}
			}
		}
	}
}

func TestOutputFormatsKeepAndFit(t *testing.T) {
	f := &fakeFrame{}
	v, uv, idx := quad(0, 0, 8, 8)
	f.addMesh(p2lrt.Mesh{TexturePage: -1, Opacity: 0.5}, v, uv, idx)
	f.mul[0] = p2lrt.Color{1, 0.5, 0}
	f.m.Canvas = p2lrt.Canvas{Width: 8, Height: 16}
	// Fit: canvas 8×16 into 4×4 → scale 0.25, quad covers x,y ∈ [0, 2).
	rgba := image.NewRGBA(image.Rect(0, 0, 4, 4))
	var r Renderer
	if err := r.render(f, rgba, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := rgba.RGBAAt(1, 1), (color.RGBA{128, 64, 0, 128}); got != want {
		t.Errorf("premultiplied = %v, want %v", got, want)
	}
	if got := rgba.RGBAAt(2, 1); got != (color.RGBA{}) {
		t.Errorf("outside the fitted canvas = %v", got)
	}
	nrgba := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	if err := r.render(f, nrgba, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := nrgba.NRGBAAt(1, 1), (color.NRGBA{255, 128, 0, 128}); got != want {
		t.Errorf("straight = %v, want %v", got, want)
	}
	// Keep: draw over existing opaque blue content.
	for i := 0; i < len(rgba.Pix); i += 4 {
		copy(rgba.Pix[i:], []uint8{0, 0, 255, 255})
	}
	if err := r.render(f, rgba, &Options{Keep: true}); err != nil {
		t.Fatal(err)
	}
	// (1, 0.5, 0)·0.5 + (0, 0, 1)·0.5 = (0.5, 0.25, 0.5).
	if got, want := rgba.RGBAAt(1, 1), (color.RGBA{128, 64, 128, 255}); got != want {
		t.Errorf("kept = %v, want %v", got, want)
	}
	if got, want := rgba.RGBAAt(3, 3), (color.RGBA{0, 0, 255, 255}); got != want {
		t.Errorf("kept outside = %v, want %v", got, want)
	}
}

func TestRenderSteadyStateAllocatesNothing(t *testing.T) {
	f := &fakeFrame{}
	v, uv, idx := quad(1, 1, 30, 30)
	f.addMesh(p2lrt.Mesh{TexturePage: 0, Blend: p2lrt.BlendOverlay}, v, uv, idx)
	f.addMesh(p2lrt.Mesh{TexturePage: 0, Masks: []int{0}}, v, uv, idx)
	f.m.Parts = []p2lrt.Part{{ID: "g"}}
	f.cmds = append([]p2l.RenderCommand{p2l.OpenGroup(0)}, append(f.cmds, p2l.CloseGroup)...)
	f.groups = map[int]p2lrt.Composite{0: {Opacity: 1, Multiply: p2lrt.White, MaskMeshes: []int{1}}}
	r := Renderer{Pages: []*image.RGBA{softMaskPage()}}
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	opts := &Options{}
	if err := r.render(f, img, opts); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { r.render(f, img, opts) }); n != 0 {
		t.Errorf("%v allocations per frame, want 0", n)
	}
}

func TestHitTestAlpha(t *testing.T) {
	// Mesh 0 maps the alpha ramp onto x ∈ [0, 4): alpha at canvas x=0.5 is
	// 0, at 3.5 is 1. Hit area 0 = mesh 0.
	f := &fakeFrame{}
	v, uv, idx := quad(0, 0, 4, 1)
	f.addMesh(p2lrt.Mesh{TexturePage: 0}, v, uv, idx)
	f.m.HitAreas = []p2lrt.HitArea{{ID: "body", Meshes: []int{0}}}
	r := Renderer{Pages: []*image.RGBA{softMaskPage()}}
	for _, tc := range []struct {
		x, y, th float32
		want     int
	}{
		{0.5, 0.5, 0.5, -1}, // transparent texel: click-through
		{3.5, 0.5, 0.5, 0},
		{2.5, 0.5, 0.5, 0},  // alpha 2/3
		{1.5, 0.5, 0.5, -1}, // alpha 1/3
		{4.0, 0.5, 0.5, 0},  // on the edge: included, alpha 1
		{4.1, 0.5, 0, -1},   // outside
	} {
		if got := r.hitTestAlpha(f, tc.x, tc.y, tc.th); got != tc.want {
			t.Errorf("HitTestAlpha(%g, %g, %g) = %d, want %d", tc.x, tc.y, tc.th, got, tc.want)
		}
	}
	f.opacity[0] = 0
	if got := r.hitTestAlpha(f, 3.5, 0.5, 0); got != -1 {
		t.Errorf("invisible mesh hit: %d", got)
	}
}
