package cubism

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/moc3write"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

// renderWhite draws r at canvas scale into a 1000 × 800 image with the
// CPU renderer, every page opaque white, and returns the image and the
// renderer (for its pixel hit tests).
func renderWhite(t *testing.T, r *p2l.Rig) (*image.NRGBA, *render.Renderer) {
	t.Helper()
	white := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for i := range white.Pix {
		white.Pix[i] = 0xff
	}
	img := image.NewNRGBA(image.Rect(0, 0, 1000, 800))
	rr := &render.Renderer{Pages: []*image.RGBA{white}}
	if err := rr.Render(r, img, &render.Options{Transform: &p2l.Affine{A: 1, D: 1}}); err != nil {
		t.Fatal(err)
	}
	return img, rr
}

// TestMocCullingFrontFace: a culled art mesh (not double sided) whose
// triangle has the Editor's winding, (b − a) × (c − a) > 0 in the moc's
// y-down model space, is drawn; the same triangle wound the other way is
// not. The Editor's winding is Cubism's front face: every triangle of
// Live2D's Wanko sample has it and all its meshes are culled, yet every
// Cubism runtime shows the dog (docs/CUBISM.md, "Masks, culling").
//
// Front: (−1, −1), (1, −1), (−1, 1) in model units; (2·0 − 0·2) … the
// cross product (b − a) × (c − a) = (2, 0) × (0, 2) = 4 > 0. At semPPU
// 100 and origin (500, 400) it covers canvas (400..600, 300..500) below
// its diagonal; its centroid (−1/3, −1/3) is canvas (466.7, 366.7).
// Back: the same points as (−1, −1), (−1, 1), (1, −1), moved right by 3
// units: cross (0, 2) × (2, 0) = −4; centroid canvas (766.7, 366.7).
func TestMocCullingFrontFace(t *testing.T) {
	front := [][2]float32{{-1, -1}, {1, -1}, {-1, 1}}
	back := [][2]float32{{2, -1}, {2, 1}, {4, -1}}
	mesh := func(id string, pts [][2]float32) moc3write.ArtMesh {
		a := semMesh(id, -1, 500, pts...)
		a.DoubleSided = false
		a.Indices = []uint16{0, 1, 2}
		a.UVs = [][2]float32{{0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}}
		return a
	}
	m := &moc3write.Model{Canvas: semCanvas(), ArtMeshes: []moc3write.ArtMesh{mesh("Front", front), mesh("Back", back)}}
	rootGroup(m)
	for _, v := range []uint8{moc3write.V30, moc3write.V53} {
		img, _ := renderWhite(t, rigAt(t, lowerSem(t, m, v), nil))
		if a := img.NRGBAAt(466, 366).A; a != 0xff {
			t.Errorf("v%d: the Editor-wound triangle of a culled mesh is not drawn (alpha %d at its centroid)", v, a)
		}
		if c := img.NRGBAAt(766, 366); c != (color.NRGBA{}) {
			t.Errorf("v%d: the reversed triangle of a culled mesh is drawn (%v at its centroid)", v, c)
		}
	}
}

// TestMocCulledMask: a culled mesh masks with its front faces only, as
// Cubism's renderers draw a mask mesh with its own culling flag
// (CubismWebFramework, cubismrenderer_webgl.ts: setIsCulling before each
// clipping mesh); a .p2lrt model's masks are never culled.
//
// Mask: the Editor-wound triangle of TestMocCullingFrontFace over canvas
// x 400..600 (front) and a reversed one over x 700..900 (back), both below
// y = 300 + … their diagonals; Masked: a double-sided square of model units
// (−2, −2)..(5, 2), canvas (300, 200)..(1000, 600), drawn after the mask.
// At the front triangle's centroid (466, 366) Masked is drawn; at the back
// one's (766, 366) only when masks are not culled; outside both, at
// (650, 366), never.
func TestMocCulledMask(t *testing.T) {
	mask := semMesh("Mask", -1, 500, [2]float32{-1, -1}, [2]float32{1, -1}, [2]float32{-1, 1},
		[2]float32{2, -1}, [2]float32{2, 1}, [2]float32{4, -1})
	mask.DoubleSided = false
	mask.Indices = []uint16{0, 1, 2, 3, 4, 5}
	mask.UVs = make([][2]float32, 6)
	for i := range mask.UVs {
		mask.UVs[i] = [2]float32{0.5, 0.5}
	}
	masked := semMesh("Masked", -1, 600, [2]float32{-2, -2}, [2]float32{5, -2}, [2]float32{5, 2}, [2]float32{-2, 2})
	masked.Indices = []uint16{0, 1, 2, 0, 2, 3}
	masked.UVs = [][2]float32{{0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}}
	masked.Masks = []int32{0}
	m := &moc3write.Model{Canvas: semCanvas(), ArtMeshes: []moc3write.ArtMesh{mask, masked}}
	rootGroup(m)
	model := lowerSem(t, m, moc3write.V40)
	// draw renders model and returns the image and Masked's alpha at the
	// back face's centroid as the pixel hit test finds it.
	draw := func(model *p2l.Model) (*image.NRGBA, float32) {
		t.Helper()
		r := rigAt(t, model, nil)
		img, rr := renderWhite(t, r)
		hit, _ := rr.MeshAlphaAt(r, 1, 766.5, 366.5)
		return img, hit
	}
	// Mask itself draws white at its front triangle: read Masked where the
	// mask is not, and where its back triangle is (Mask draws nothing
	// there, culled).
	if !model.CullsMasks() {
		t.Fatal("a lowered .moc3 does not cull masks")
	}
	img, hit := draw(model)
	if a := img.NRGBAAt(766, 366).A; a != 0 || hit != 0 {
		t.Errorf("Cubism: the culled mask's back face masks (alpha %d at its centroid, hit test %g)", a, hit)
	}
	if a := img.NRGBAAt(650, 366).A; a != 0 {
		t.Errorf("Cubism: drawn outside the mask (alpha %d)", a)
	}
	ref := model.WithEvaluation(p2l.EvaluationReference)
	if ref.CullsMasks() {
		t.Fatal("a reference model culls masks")
	}
	img, hit = draw(ref)
	if a := img.NRGBAAt(766, 366).A; a != 0xff || hit != 1 {
		t.Errorf("reference: the unculled mask's back face does not mask (alpha %d at its centroid, hit test %g)", a, hit)
	}
}

// TestMocMaskUnion: where two mask meshes with partial alpha overlap, a
// Cubism model's masked mesh is covered by their union 1 − (1 − a)(1 − b),
// as Cubism's mask buffer composes them; the .p2lrt rule takes the
// maximum. The page's left column is opaque white, its right column alpha
// 128 (premultiplied 128, 128, 128, 128), so a = b = 128/255 at u = 0.75:
// the union is 1 − (127/255)² = 0.75196, 191.75 in 8 bits (192), the
// maximum 128. MaskA spans x −1..0.5, MaskB −0.5..1 (canvas 400..550 and
// 450..600, y 300..500); Masked, opaque white (u = 0.25), covers both.
func TestMocMaskUnion(t *testing.T) {
	square := func(id string, x0, x1 float32, u float32, order float32) moc3write.ArtMesh {
		m := semMesh(id, -1, order, [2]float32{x0, -1}, [2]float32{x1, -1}, [2]float32{x1, 1}, [2]float32{x0, 1})
		m.Indices = []uint16{0, 1, 2, 0, 2, 3}
		m.UVs = [][2]float32{{u, 0.25}, {u, 0.25}, {u, 0.75}, {u, 0.75}}
		return m
	}
	masked := square("Masked", -2, 2, 0.25, 600)
	masked.Masks = []int32{0, 1}
	// The masks draw nothing themselves (opacity 0; a mask mesh's opacity
	// does not change what it masks, in either rule).
	maskA, maskB := square("MaskA", -1, 0.5, 0.75, 400), square("MaskB", -0.5, 1, 0.75, 500)
	maskA.Keyforms[0].Opacity, maskB.Keyforms[0].Opacity = 0, 0
	m := &moc3write.Model{Canvas: semCanvas(), ArtMeshes: []moc3write.ArtMesh{maskA, maskB, masked}}
	rootGroup(m)
	model := lowerSem(t, m, moc3write.V40)
	page := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for y := range 2 {
		page.SetRGBA(0, y, color.RGBA{255, 255, 255, 255})
		page.SetRGBA(1, y, color.RGBA{128, 128, 128, 128})
	}
	// alphas renders model and returns Masked's alpha at four points of
	// the row y = 400 (A alone, both, B alone, neither) in the image, and
	// at the overlap as the pixel hit test finds it.
	alphas := func(model *p2l.Model) ([4]uint8, float32) {
		t.Helper()
		r := rigAt(t, model, nil)
		img := image.NewNRGBA(image.Rect(0, 0, 1000, 800))
		rr := &render.Renderer{Pages: []*image.RGBA{page}}
		if err := rr.Render(r, img, &render.Options{Transform: &p2l.Affine{A: 1, D: 1}}); err != nil {
			t.Fatal(err)
		}
		hit, _ := rr.MeshAlphaAt(r, 2, 500.5, 400.5)
		var out [4]uint8
		for i, x := range []int{425, 500, 575, 650} {
			out[i] = img.NRGBAAt(x, 400).A
		}
		return out, hit
	}
	if !model.UnitesMasks() {
		t.Fatal("a lowered .moc3 does not unite masks")
	}
	near := func(got, want uint8) bool { return got+1 >= want && got <= want+1 }
	ref := model.WithEvaluation(p2l.EvaluationReference)
	for _, c := range []struct {
		name    string
		model   *p2l.Model
		overlap uint8
		hit     float64
	}{
		{"Cubism", model, 192, 1 - (127.0/255)*(127.0/255)},
		{"reference", ref, 128, 128.0 / 255},
	} {
		got, hit := alphas(c.model)
		if !near(got[0], 128) || !near(got[1], c.overlap) || !near(got[2], 128) || got[3] != 0 {
			t.Errorf("%s: Masked's alpha at A alone, both, B alone, neither: %v, want [128 %d 128 0]", c.name, got, c.overlap)
		}
		if math.Abs(float64(hit)-c.hit) > 1e-3 {
			t.Errorf("%s: hit test alpha at the overlap %g, want %g", c.name, hit, c.hit)
		}
	}
}
