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
	data, err := moc3write.Write(m, moc3write.V40)
	if err != nil {
		t.Fatal(err)
	}
	f, err := cubism.ReadMoc(data)
	if err != nil {
		t.Fatal(err)
	}
	f.Meshes[1].Multiply = p2lrt.Color{1, 0, 0}
	model, err := p2l.NewModel(f)
	if err != nil {
		t.Fatal(err)
	}
	white := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for i := range white.Pix {
		white.Pix[i] = 0xff
	}
	topts := texture.Options{Resolve: func(int, *p2lrt.TexturePage) (image.Image, error) { return white, nil }}
	var gpu []byte
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
	cpu := render.Renderer{TextureOptions: topts}
	want := image.NewRGBA(image.Rect(0, 0, 100, 80))
	if err := cpu.Render(rig, want, &render.Options{Transform: &p2l.Affine{A: 1, D: 1}}); err != nil {
		t.Fatal(err)
	}
	if d, at, _ := maxDiff(gpu, want.Pix, 100, func(int, int) bool { return false }); d > parityTolerance {
		t.Errorf("GPU and CPU differ by %d/255 at %v", d, at)
	}
	px := func(p []byte, x, y int) color.RGBA {
		o := 4 * (y*100 + x)
		return color.RGBA{p[o], p[o+1], p[o+2], p[o+3]}
	}
	red := color.RGBA{R: 0xff, A: 0xff}
	for name, p := range map[string][]byte{"GPU": gpu, "CPU": want.Pix} {
		if c := px(p, 76, 36); c != (color.RGBA{}) {
			t.Errorf("%s: %v at the culled mask's back face, want nothing", name, c)
		}
		if c := px(p, 46, 36); c != red {
			t.Errorf("%s: %v at the mask's front face, want Masked's red", name, c)
		}
	}
}
