package ebitenp2l

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestGreysCompositeFormulas is TestCompositeFormulas over greys and
// near-greys (the grid of p2l/render's TestGreysMatchW3C): every blend ×
// alpha combination of each of 60 × 60 source/backdrop texel pairs, drawn
// at one texel per pixel as a Normal backdrop mesh under the blended mesh
// on a transparent target, each pixel within 1.5/255 of refComposite on
// the 8-bit premultiplied texels. Hue and Color divide 0 by 0 in ClipColor
// when SetLum puts a grey a rounding step outside [0, 1] (issue 35): a grey
// source of 29/255 with Color over black gave black.
func TestGreysCompositeFormulas(t *testing.T) {
	colours := [][3]uint8{
		{0, 0, 0}, {1, 1, 1}, {29, 29, 29}, {45, 45, 45}, {128, 128, 128}, {254, 254, 254}, {255, 255, 255},
		{128, 128, 129}, {129, 128, 128}, {254, 255, 255}, {0, 0, 1}, {200, 201, 199},
	}
	alphas := []uint8{8, 30, 128, 230, 255}
	n := len(colours) * len(alphas)
	texel := func(k int) color.NRGBA {
		c := colours[k%len(colours)]
		return color.NRGBA{c[0], c[1], c[2], alphas[k/len(colours)]}
	}
	// Each pair is a block of 3 × 3 equal texels and only its centre is
	// read, so that no bilinear weight reaches a neighbouring pair.
	const block = 3
	size := n * block
	page := func(of func(i, j int) color.NRGBA) image.Image {
		img := image.NewNRGBA(image.Rect(0, 0, size, size))
		for j := 0; j < size; j++ {
			for i := 0; i < size; i++ {
				img.SetNRGBA(i, j, of(i/block, j/block))
			}
		}
		return img
	}
	// Cells: 9 columns × 10 rows of blend × alpha combinations.
	const cols = 9
	rows := (int(p2lrt.NumBlendModes)*int(p2lrt.NumAlphaModes) + cols - 1) / cols
	w, h := cols*size, rows*size
	cell := func(b p2lrt.BlendMode, a p2lrt.AlphaMode) (int, int) {
		k := int(a)*int(p2lrt.NumBlendModes) + int(b)
		return k % cols * size, k / cols * size
	}
	onGame(func() {
		s := newScene(float32(w), float32(h))
		src := s.page(page(func(i, _ int) color.NRGBA { return texel(i) }))
		back := s.page(page(func(_, j int) color.NRGBA { return texel(j) }))
		for a := p2lrt.AlphaMode(0); a < p2lrt.NumAlphaModes; a++ {
			for b := p2lrt.BlendMode(0); b < p2lrt.NumBlendModes; b++ {
				x, y := cell(b, a)
				x0, y0, x1, y1 := float32(x), float32(y), float32(x+size), float32(y+size)
				s.pose.cmds = append(s.pose.cmds,
					p2l.RenderCommand(s.quad(back, x0, y0, x1, y1, p2lrt.Mesh{})),
					p2l.RenderCommand(s.quad(src, x0, y0, x1, y1, p2lrt.Mesh{Blend: b, AlphaBlend: a})))
			}
		}
		c := s.character(t)
		dst := ebiten.NewImage(w, h)
		defer dst.Deallocate()
		c.Draw(dst, nil)
		px := pixels(dst)
		worst, fails := 0.0, 0
		for a := p2lrt.AlphaMode(0); a < p2lrt.NumAlphaModes; a++ {
			for b := p2lrt.BlendMode(0); b < p2lrt.NumBlendModes; b++ {
				x0, y0 := cell(b, a)
				for j := 0; j < n; j++ {
					for i := 0; i < n; i++ {
						got := at(px, w, x0+i*block+block/2, y0+j*block+block/2)
						want := refComposite(b, a, premul8(texel(i)), premul8(texel(j)))
						for k := range 4 {
							if math.IsNaN(want[k]) {
								t.Errorf("%v+%v: refComposite gives NaN for %v over %v", b, a, texel(i), texel(j))
								return
							}
							want[k] = min(max(want[k], 0), 1)
							d := math.Abs(got[k] - want[k])
							worst = max(worst, d)
							if d > 1.5/255 {
								if fails++; fails <= 20 {
									t.Errorf("%v+%v: %v over %v: channel %d = %.4f, want %.4f (%.4f, want %.4f)", b, a, texel(i), texel(j), k, got[k], want[k], got, want)
								}
							}
						}
					}
				}
			}
		}
		if fails > 20 {
			t.Errorf("… %d differences beyond 1.5/255 in all", fails)
		}
		t.Logf("greys: max channel difference %.2f/255", worst*255)
	})
}
