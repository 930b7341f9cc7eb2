package cubism

import (
	"image"
	"image/color"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/moc3write"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

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
		r := rigAt(t, lowerSem(t, m, v), nil)
		white := image.NewRGBA(image.Rect(0, 0, 2, 2))
		for i := range white.Pix {
			white.Pix[i] = 0xff
		}
		img := image.NewNRGBA(image.Rect(0, 0, 1000, 800))
		rr := render.Renderer{Pages: []*image.RGBA{white}}
		id := p2l.Affine{A: 1, D: 1}
		if err := rr.Render(r, img, &render.Options{Transform: &id}); err != nil {
			t.Fatal(err)
		}
		if a := img.NRGBAAt(466, 366).A; a != 0xff {
			t.Errorf("v%d: the Editor-wound triangle of a culled mesh is not drawn (alpha %d at its centroid)", v, a)
		}
		if c := img.NRGBAAt(766, 366); c != (color.NRGBA{}) {
			t.Errorf("v%d: the reversed triangle of a culled mesh is drawn (%v at its centroid)", v, c)
		}
	}
}
