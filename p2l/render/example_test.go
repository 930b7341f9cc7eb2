package render_test

import (
	"fmt"
	"image"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

// Render a character into a thumbnail and ask what is under a point.
func ExampleRenderer() {
	m, err := assets.DefaultModel()
	if err != nil {
		panic(err)
	}
	rig := m.NewRig()
	rig.Evaluate()

	// Keep the Renderer: its buffers are reused by the next frame.
	var r render.Renderer
	img := image.NewNRGBA(image.Rect(0, 0, 250, 300)) // straight alpha output
	if err := r.Render(rig, img, nil); err != nil {   // nil options: fit the canvas
		panic(err)
	}
	fmt.Println(img.Bounds().Size(), img.NRGBAAt(0, 0).A)

	// Hit areas under canvas points, by drawn pixels: the face, and an
	// empty corner; and the topmost drawn mesh at the chin.
	th := float32(render.DefaultHitThreshold)
	fmt.Println(m.HitAreas().At(r.HitTestAlpha(rig, 500, 580, th)).ID, r.HitTestAlpha(rig, 1, 1, th))
	fmt.Println(m.Meshes().At(r.MeshAt(rig, 500, 580, th)).ID)
	// Output:
	// (250,300) 0
	// HitAreaHead -1
	// Face
}
