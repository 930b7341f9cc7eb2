package ebitenp2l

import (
	"image"
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/internal/moc3write"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/render"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// TestCubismCulledMaskParity: in a model lowered from .moc3 a culled mask
// mesh masks with its front faces only (p2l.Model.CullsMasks), on the GPU
// as in the CPU reference renderer (the CPU rule is tested by hand in
// p2l/cubism's TestMocCulledMask).
//
// Canvas 100×80, 10 px a unit, origin (50, 40). Mask (culled): the
// Editor-wound triangle (−1, −1), (1, −1), (−1, 1) — canvas (40..60,
// 30..50), a front face — and its mirror moved 3 units right — canvas
// (70..90, 30..50), a back face. Masked: a double-sided square over the
// whole canvas, drawn after, multiplied to red so that it tells itself
// from the white mask. At the back face's centroid (76, 36) nothing is
// drawn; at the front face's (46, 36) Masked's red.
func TestCubismCulledMaskParity(t *testing.T) {
	uvs := func(n int) [][2]float32 { return make([][2]float32, n) }
	m := &moc3write.Model{
		Canvas: moc3write.Canvas{PixelsPerUnit: 10, OriginX: 50, OriginY: 40, Width: 100, Height: 80},
		ArtMeshes: []moc3write.ArtMesh{
			{ID: "Mask", Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: -1, UVs: uvs(6),
				Indices:  []uint16{0, 1, 2, 3, 4, 5},
				Keyforms: []moc3write.ArtMeshKeyform{{Opacity: 1, DrawOrder: 500, Positions: [][2]float32{{-1, -1}, {1, -1}, {-1, 1}, {2, -1}, {2, 1}, {4, -1}}}}},
			{ID: "Masked", Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: -1, DoubleSided: true, UVs: uvs(4),
				Indices: []uint16{0, 1, 2, 0, 2, 3}, Masks: []int32{0},
				Keyforms: []moc3write.ArtMeshKeyform{{Opacity: 1, DrawOrder: 600, Positions: [][2]float32{{-5, -4}, {5, -4}, {5, 4}, {-5, 4}}}}},
		},
		DrawOrderGroups: []moc3write.DrawOrderGroup{{MaxDrawOrder: 1000, Objects: []moc3write.DrawOrderObject{{Index: 0, Self: -1}, {Index: 1, Self: -1}}}},
	}
	model := mocModel(t, m, func(f *p2lrt.File) { f.Meshes[1].Multiply = p2lrt.Color{1, 0, 0} })
	white := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for i := range white.Pix {
		white.Pix[i] = 0xff
	}
	gpu, cpu := drawBoth(t, model, white)
	red := color.RGBA{R: 0xff, A: 0xff}
	for name, p := range map[string][]byte{"GPU": gpu, "CPU": cpu} {
		if c := pixelAt(p, 76, 36); c != (color.RGBA{}) {
			t.Errorf("%s: %v at the culled mask's back face, want nothing", name, c)
		}
		if c := pixelAt(p, 46, 36); c != red {
			t.Errorf("%s: %v at the mask's front face, want Masked's red", name, c)
		}
	}
}

// drawBoth draws model's rig at its default pose on a 100×80 canvas with
// every texture page page, on the GPU (a Character) and with the CPU
// reference renderer, checks that the two agree within parityTolerance
// and returns both as premultiplied RGBA pixels.
func drawBoth(t *testing.T, model *p2l.Model, page image.Image) (gpu, cpu []byte) {
	t.Helper()
	topts := texture.Options{Resolve: func(int, *p2lrt.TexturePage) (image.Image, error) { return page, nil }}
	var rig *p2l.Rig
	onGame(func() {
		c := NewCharacterWithOptions(model, &Options{Textures: topts})
		defer c.Deallocate()
		rig = c.Rig()
		rig.Evaluate()
		dst := ebiten.NewImage(100, 80)
		defer dst.Deallocate()
		c.Draw(dst, &DrawOptions{})
		gpu = pixels(dst)
	})
	r := render.Renderer{TextureOptions: topts}
	want := image.NewRGBA(image.Rect(0, 0, 100, 80))
	if err := r.Render(rig, want, &render.Options{Transform: &p2l.Affine{A: 1, D: 1}}); err != nil {
		t.Fatal(err)
	}
	if d, at, _ := maxDiff(gpu, want.Pix, 100, func(int, int) bool { return false }); d > parityTolerance {
		t.Errorf("GPU and CPU differ by %d/255 at %v", d, at)
	}
	return gpu, want.Pix
}

// mocModel writes m as a moc 4.0 file, lowers it with cubism.ReadMoc,
// lets edit change the file (when not nil) and makes the model.
func mocModel(t *testing.T, m *moc3write.Model, edit func(*p2lrt.File)) *p2l.Model {
	t.Helper()
	data, err := moc3write.Write(m, moc3write.V40)
	if err != nil {
		t.Fatal(err)
	}
	f, err := cubism.ReadMoc(data)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(f)
	}
	model, err := p2l.NewModel(f)
	if err != nil {
		t.Fatal(err)
	}
	return model
}

// pixelAt is the pixel (x, y) of 100-pixel-wide RGBA pixels p.
func pixelAt(p []byte, x, y int) color.RGBA {
	o := 4 * (y*100 + x)
	return color.RGBA{p[o], p[o+1], p[o+2], p[o+3]}
}

// TestCubismMaskUnionParity: where two mask meshes with partial alpha
// overlap, a Cubism model's masked mesh is covered by their union
// 1 − (1 − a)(1 − b) (p2l.Model.UnitesMasks), on the GPU as in the CPU
// reference renderer; the same model under the .p2lrt rule takes their
// maximum (the CPU rule is tested by hand in p2l/cubism's TestMocMaskUnion).
//
// Canvas 100×80, 10 px a unit, origin (50, 40). The page: left column
// opaque white, right column white at alpha 128. MaskA (x −1..0.5,
// canvas 40..55) and MaskB (−0.5..1, canvas 45..60), y −1..1 (30..50),
// sample the right column (a = b = 128/255) at opacity 0; Masked, over
// both (canvas 30..70 × 20..60), the opaque left column. Premultiplied
// white × coverage: 128 where one mask is, 1 − (127/255)² = 0.75196,
// 191.75 (192, the coverage stored in 8 bits), where both are; 128 there
// under the .p2lrt rule; nothing where neither is.
func TestCubismMaskUnionParity(t *testing.T) {
	square := func(id string, x0, x1, u, opacity, order float32) moc3write.ArtMesh {
		return moc3write.ArtMesh{ID: id, Visible: true, Enabled: true, ParentPart: -1, ParentDeformer: -1, DoubleSided: true,
			UVs: [][2]float32{{u, 0.25}, {u, 0.25}, {u, 0.75}, {u, 0.75}}, Indices: []uint16{0, 1, 2, 0, 2, 3},
			Keyforms: []moc3write.ArtMeshKeyform{{Opacity: opacity, DrawOrder: order,
				Positions: [][2]float32{{x0, -1}, {x1, -1}, {x1, 1}, {x0, 1}}}}}
	}
	masked := square("Masked", -2, 2, 0.25, 1, 600)
	for i := range masked.Keyforms[0].Positions {
		masked.Keyforms[0].Positions[i][1] *= 2
	}
	masked.Masks = []int32{0, 1}
	m := &moc3write.Model{
		Canvas:    moc3write.Canvas{PixelsPerUnit: 10, OriginX: 50, OriginY: 40, Width: 100, Height: 80},
		ArtMeshes: []moc3write.ArtMesh{square("MaskA", -1, 0.5, 0.75, 0, 400), square("MaskB", -0.5, 1, 0.75, 0, 500), masked},
		DrawOrderGroups: []moc3write.DrawOrderGroup{{MaxDrawOrder: 1000,
			Objects: []moc3write.DrawOrderObject{{Index: 0, Self: -1}, {Index: 1, Self: -1}, {Index: 2, Self: -1}}}},
	}
	model := mocModel(t, m, nil)
	page := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	for y := range 2 {
		page.SetNRGBA(0, y, color.NRGBA{255, 255, 255, 255})
		page.SetNRGBA(1, y, color.NRGBA{255, 255, 255, 128})
	}
	for _, c := range []struct {
		name    string
		model   *p2l.Model
		overlap uint8
	}{
		{"Cubism", model, 192},
		{"reference", model.WithEvaluation(p2l.EvaluationReference), 128},
	} {
		gpu, cpu := drawBoth(t, c.model, page)
		for name, p := range map[string][]byte{"GPU": gpu, "CPU": cpu} {
			for _, w := range []struct {
				x    int
				want uint8
			}{{42, 128}, {50, c.overlap}, {57, 128}, {65, 0}} {
				got := pixelAt(p, w.x, 40)
				if d := int(got.A) - int(w.want); d < -1 || d > 1 || got.R != got.A {
					t.Errorf("%s %s: %v at x %d, want white at alpha %d", c.name, name, got, w.x, w.want)
				}
			}
		}
	}
}
