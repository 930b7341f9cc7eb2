package render

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestRenderSurvivesGarbage feeds frames with non-finite and huge
// vertices, indices out of range, odd-length arrays, bad modes, NaN
// colours and opacities, group commands out of range: the renderer must
// neither panic nor hang. The model's own records are valid (a Model is
// validated when it is made: NewModel refuses bad modes, masks and pages,
// validate_test.go), with every blend and alpha mode, masks and both
// texture pages.
func TestRenderSurvivesGarbage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []float32{0, 1, -1, 5, 31.5, 1e30, -1e30, float32(math.NaN()), float32(math.Inf(1)), 0.5}
	pick := func() float32 { return vals[rng.IntN(len(vals))] + rng.Float32()*32 }
	for iter := 0; iter < 200; iter++ {
		f := &fakeFrame{}
		n := 1 + rng.IntN(4)
		for k := 0; k < n; k++ {
			nv := rng.IntN(7)
			verts := make([]float32, nv*2+rng.IntN(2))
			uvs := make([]float32, nv*2)
			for i := range verts {
				verts[i] = pick()
			}
			for i := range uvs {
				uvs[i] = pick() / 32
			}
			idx := make([]uint32, rng.IntN(10))
			for i := range idx {
				idx[i] = uint32(rng.IntN(nv + 2))
			}
			mi := f.addMesh(p2lrt.Mesh{
				TexturePage: rng.IntN(3) - 1,
				Blend:       p2lrt.BlendMode(rng.IntN(p2lrt.NumBlendModes)),
				AlphaBlend:  p2lrt.AlphaMode(rng.IntN(p2lrt.NumAlphaModes)),
				Masks:       []int{rng.IntN(n)},
				Flags:       p2lrt.MeshFlags(rng.IntN(4)),
			}, verts, uvs, idx)
			f.opacity[mi] = pick()
			f.mul[mi] = p2lrt.Color{pick(), pick(), pick()}
			f.scr[mi] = p2lrt.Color{pick(), 0, pick()}
		}
		f.m.Parts = []p2lrt.Part{{}, {}}
		f.m.Textures = []p2lrt.TexturePage{{Kind: p2lrt.TexturePNG}, {Kind: p2lrt.TexturePNG}}
		f.groups = map[int]p2lrt.Composite{0: {Opacity: pick(), Multiply: p2lrt.Color{pick(), 1, 1}, MaskMeshes: []int{9, -3, 0}, Blend: 99, AlphaBlend: 3}}
		cmds := []p2l.RenderCommand{p2l.CloseGroup, p2l.OpenGroup(0), p2l.OpenGroup(7)}
		f.cmds = append(cmds, append(f.cmds, p2l.RenderCommand(99))...)
		r := Renderer{Pages: []*image.RGBA{softMaskPage(), nil}}
		img := image.NewRGBA(image.Rect(0, 0, 32, 32))
		xf := p2l.Affine{A: float64(pick()), D: 1, TX: float64(pick())}
		if err := r.render(f, img, &Options{Transform: &xf}); err != nil {
			t.Fatal(err)
		}
		r.hitTestAlpha(f, pick(), pick(), 0.5)
	}
}
