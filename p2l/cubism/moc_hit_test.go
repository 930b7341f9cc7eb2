package cubism

import (
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/moc3write"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestMocHitAreaBox: a Cubism model's hit area contains the points of its
// mesh's vertex bounding box, whatever the mesh's opacity, as the Cubism
// framework's CubismUserModel.isHit tests it; the .p2lrt rule (visible,
// opacity above zero, inside a triangle) is kept for reference models.
//
// The mesh is the triangle (0, 0), (1, 0), (0, 1) in model units: canvas
// (500, 400), (600, 400), (500, 500) at semPPU 100, origin (500, 400); its
// box is [500, 600] × [400, 500]. (520, 420) lies in the triangle,
// (580, 480) in the box but not the triangle (0.8 + 0.8 > 1 in units),
// (600, 500) on the box's corner, (610, 420) outside.
func TestMocHitAreaBox(t *testing.T) {
	for _, opacity := range []float32{0, 1} {
		mesh := semMesh("HitAreaBody", -1, 500, [2]float32{0, 0}, [2]float32{1, 0}, [2]float32{0, 1})
		mesh.Keyforms[0].Opacity = opacity
		m := &moc3write.Model{Canvas: semCanvas(), ArtMeshes: []moc3write.ArtMesh{mesh}}
		rootGroup(m)
		data, err := moc3write.Write(m, moc3write.V40)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ReadMoc(data)
		if err != nil {
			t.Fatal(err)
		}
		f.HitAreas = []p2lrt.HitArea{{ID: "HitAreaBody", Name: "Body", Meshes: []int{0}}}
		model, err := p2l.NewModel(f)
		if err != nil {
			t.Fatal(err)
		}
		cub := rigAt(t, model, nil)
		ref := rigAt(t, model.WithEvaluation(p2l.EvaluationReference), nil)
		for _, c := range []struct {
			x, y     float32
			cub, ref int
		}{
			{520, 420, 0, 0},
			{580, 480, 0, -1},
			{600, 500, 0, -1},
			{610, 420, -1, -1},
		} {
			if opacity == 0 {
				c.ref = -1 // the reference rule needs opacity above zero
			}
			if got := cub.HitTest(c.x, c.y); got != c.cub {
				t.Errorf("opacity %g: Cubism HitTest(%g, %g) = %d, want %d", opacity, c.x, c.y, got, c.cub)
			}
			if got := ref.HitTest(c.x, c.y); got != c.ref {
				t.Errorf("opacity %g: reference HitTest(%g, %g) = %d, want %d", opacity, c.x, c.y, got, c.ref)
			}
		}
	}
}
