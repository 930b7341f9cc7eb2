package render

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// greyColours are greys and near-greys (one channel a step or two away):
// the colours whose SetLum lands at or a rounding step past 0 or 1 and
// whose SetSat ties channels. 29, 45 and 254 are greys whose float32
// luminosity is not the grey itself (0.30·g + 0.59·g + 0.11·g rounds
// above it), so that SetLum(g, Lum(black or white)) leaves [0, 1].
var greyColours = [][3]uint8{
	{0, 0, 0}, {1, 1, 1}, {29, 29, 29}, {45, 45, 45}, {128, 128, 128}, {254, 254, 254}, {255, 255, 255},
	{128, 128, 129}, {129, 128, 128}, {128, 129, 128}, {254, 255, 255}, {255, 254, 255},
	{0, 0, 1}, {1, 0, 1}, {200, 201, 199},
}

// greyAlphas are the low and high texel alphas the greys are drawn with.
var greyAlphas = []uint8{8, 30, 128, 230, 255}

// greyTexel is texel k of the grid: colour k mod len(greyColours) at alpha
// k / len(greyColours).
func greyTexel(k int) [4]uint8 {
	c := greyColours[k%len(greyColours)]
	return [4]uint8{c[0], c[1], c[2], greyAlphas[k/len(greyColours)]}
}

// TestGreysMatchW3C draws every blend × alpha combination of a grey or
// near-grey source over a grey or near-grey backdrop (greyColours at
// greyAlphas: 75 × 75 pairs per combination, each a block of greyBlock²
// equal texels drawn one texel per pixel, PNG pages the renderer decodes
// itself) and compares the pixel at each block's centre with the float64
// W3C / KHR / Cubism formulas of composite_test.go:
//
//   - straight output (*image.NRGBA, what `p2l render` writes): from the
//     file's texels exactly, each straight channel within 1/255 of the exact
//     result divided by its alpha;
//   - premultiplied output (*image.RGBA): from the 8-bit premultiplied
//     texels (the GPU's input), each channel within 1/255.
//
// SetLum of a grey over a grey keeps the backdrop's luminosity. Hue and
// Color turned such pixels black (0/0 in ClipColor, issue 35): black at
// alpha 30 over white at alpha 230 gave (0, 0, 0, a) for premultiplied
// (230, 230, 230, a) in straight output, because the float premultiplied
// white texel divides back to 1 + 2⁻²³; in both outputs greys 29, 45 …
// with Color over black did the same.
func TestGreysMatchW3C(t *testing.T) {
	// Each pair is a block of greyBlock × greyBlock texels, and only its
	// centre is read: the interpolated texture coordinates are not exactly
	// at texel centres, and a bilinear weight of 1e-7 on a neighbouring
	// pair would move ColorDodge's B(1, 0) = 0 to B(1, 1e-7) = 1 (a jump
	// of the formula, not of the renderer).
	const greyBlock = 3
	n := len(greyColours) * len(greyAlphas)
	size := n * greyBlock
	// Source page: block (i, j) is greyTexel(i); backdrop page: greyTexel(j).
	pageOf := func(texel func(i, j int) [4]uint8) []byte {
		img := image.NewNRGBA(image.Rect(0, 0, size, size))
		for j := 0; j < size; j++ {
			for i := 0; i < size; i++ {
				t := texel(i/greyBlock, j/greyBlock)
				copy(img.Pix[j*img.Stride+4*i:], t[:])
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	const cols = int(p2lrt.NumBlendModes)
	f := &fakeFrame{m: &p2lrt.File{
		Canvas: p2lrt.Canvas{Width: float32(cols * size), Height: float32(int(p2lrt.NumAlphaModes) * size)},
		Textures: []p2lrt.TexturePage{
			{Kind: p2lrt.TexturePNG, Width: uint32(size), Height: uint32(size), Data: pageOf(func(i, _ int) [4]uint8 { return greyTexel(i) })},
			{Kind: p2lrt.TexturePNG, Width: uint32(size), Height: uint32(size), Data: pageOf(func(_, j int) [4]uint8 { return greyTexel(j) })},
		},
	}}
	for a := p2lrt.AlphaMode(0); a < p2lrt.NumAlphaModes; a++ {
		for b := p2lrt.BlendMode(0); b < p2lrt.NumBlendModes; b++ {
			x0, y0 := float32(int(b)*size), float32(int(a)*size)
			v, uv, idx := quad(x0, y0, x0+float32(size), y0+float32(size))
			f.addMesh(p2lrt.Mesh{TexturePage: 1}, v, uv, idx)
			f.addMesh(p2lrt.Mesh{TexturePage: 0, Blend: b, AlphaBlend: a}, v, uv, idx)
		}
	}
	w, h := cols*size, int(p2lrt.NumAlphaModes)*size
	var r Renderer
	straight := image.NewNRGBA(image.Rect(0, 0, w, h))
	premulImg := image.NewRGBA(image.Rect(0, 0, w, h))
	for _, dst := range []draw.Image{straight, premulImg} {
		if err := r.render(f, dst, &Options{Transform: &p2l.Identity}); err != nil {
			t.Fatal(err)
		}
	}
	exact := func(t [4]uint8) (rgb64, float64) {
		return rgb64{float64(t[0]) / 255, float64(t[1]) / 255, float64(t[2]) / 255}, float64(t[3]) / 255
	}
	premul8 := func(t [4]uint8) (rgb64, float64) {
		a := float64(t[3])
		p := func(c uint8) float64 { return math.Round(float64(c)*a/255) / a } // round(c·a/255)/255 ÷ a/255
		return rgb64{p(t[0]), p(t[1]), p(t[2])}, a / 255
	}
	worst := [2]float64{}
	fails := 0
	for a := p2lrt.AlphaMode(0); a < p2lrt.NumAlphaModes; a++ {
		for b := p2lrt.BlendMode(0); b < p2lrt.NumBlendModes; b++ {
			for j := 0; j < n; j++ {
				for i := 0; i < n; i++ {
					x, y := int(b)*size+i*greyBlock+greyBlock/2, int(a)*size+j*greyBlock+greyBlock/2
					for out, texel := range []func([4]uint8) (rgb64, float64){exact, premul8} {
						cs, as := texel(greyTexel(i))
						cd, ad := texel(greyTexel(j))
						want := reference(b, a, cs, as, cd, ad)
						var got, wantOut [4]float64
						if out == 0 {
							px := straight.NRGBAAt(x, y)
							got = [4]float64{float64(px.R) / 255, float64(px.G) / 255, float64(px.B) / 255, float64(px.A) / 255}
							wantOut = [4]float64{0, 0, 0, want[3]}
							if want[3] >= 1.0/255 {
								for k := range 3 {
									wantOut[k] = math.Min(want[k]/want[3], 1)
								}
							} else {
								got = [4]float64{0, 0, 0, got[3]} // colour of a (nearly) transparent pixel is free
							}
						} else {
							px := premulImg.RGBAAt(x, y)
							got = [4]float64{float64(px.R) / 255, float64(px.G) / 255, float64(px.B) / 255, float64(px.A) / 255}
							wantOut = want
							for k := range 3 {
								wantOut[k] = math.Min(want[k], want[3]) // the output keeps colour ≤ alpha
							}
						}
						for k := range got {
							if math.IsNaN(wantOut[k]) {
								t.Fatalf("%v+%v: the float64 formulas give NaN for %v over %v", b, a, greyTexel(i), greyTexel(j))
							}
							d := math.Abs(got[k] - wantOut[k])
							worst[out] = max(worst[out], d)
							if d > 1.0/255+1e-9 {
								if fails++; fails <= 20 {
									t.Errorf("%s %v+%v: %v over %v: channel %d = %.4f, want %.4f (%v, want %.4f)",
										[]string{"straight", "premultiplied"}[out], b, a, greyTexel(i), greyTexel(j), k, got[k], wantOut[k], got, wantOut)
								}
							}
						}
					}
				}
			}
		}
	}
	if fails > 20 {
		t.Errorf("… %d differences beyond 1/255 in all", fails)
	}
	t.Logf("greys: max difference from the float64 formulas: straight %.2f/255, premultiplied %.2f/255", worst[0]*255, worst[1]*255)
}

// TestClipColorGreyBeyondRange: a grey a rounding step past 1 (or below 0)
// is white (black), the limit of ClipColor's formula as the luminosity
// reaches 1 (0), where the formula itself divides 0 by 0.
func TestClipColorGreyBeyondRange(t *testing.T) {
	up := math.Nextafter32(1, 2)
	down := -math.Nextafter32(0, 1)
	for _, c := range []struct {
		in, want [3]float32
	}{
		{[3]float32{up, up, up}, [3]float32{1, 1, 1}},
		{[3]float32{down, down, down}, [3]float32{0, 0, 0}},
		{[3]float32{-0.25, -0.25, -0.25}, [3]float32{0, 0, 0}},
		{[3]float32{1.5, 1.5, 1.5}, [3]float32{1, 1, 1}},
		// Inside: (1.2, 0.5, 0.5) has l = 0.30·1.2 + 0.70·0.5 = 0.71, x = 1.2:
		// c = 0.71 + (c − 0.71)·0.29/0.49 → (1, 0.71 − 0.21·0.29/0.49, …).
		{[3]float32{1.2, 0.5, 0.5}, [3]float32{1, 0.71 - 0.21*0.29/0.49, 0.71 - 0.21*0.29/0.49}},
	} {
		got := clipColor(c.in)
		for k := range got {
			if math.IsNaN(float64(got[k])) || math.Abs(float64(got[k]-c.want[k])) > 1e-6 {
				t.Errorf("clipColor(%v) = %v, want %v", c.in, got, c.want)
				break
			}
		}
	}
	// The pixel, through Composite: black at alpha 30/255 over a
	// white whose straight colour is 1 + 2⁻²³ at alpha 230/255. B = white,
	// so with Over: co = 1·p0 + 0·p1 + 1·p2 = ad·as + ad·(1 − as) = ad.
	ad := float32(230) / 255
	for _, blend := range []p2lrt.BlendMode{p2lrt.BlendHue, p2lrt.BlendColor} {
		got := Composite(Premul{0, 0, 0, float32(30) / 255}, Premul{ad * up, ad * up, ad * up, ad}, blend, p2lrt.AlphaOver)
		if math.Abs(float64(got.R-ad)) > 1e-6 || got.R != got.G || got.G != got.B {
			t.Errorf("%v: black over white = %v, want colour %v", blend, got, ad)
		}
	}
}
