package render

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/internal/conformance"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

var update = flag.Bool("update", false, "rewrite the golden images of testdata/conformance")

const conformanceDir = "../../testdata/conformance"

// renderConformance renders model c at pose p and scale s into straight
// RGBA (float layers), loading the committed file (so external pages
// resolve as for a host).
func renderConformance(t *testing.T, c conformance.Model, p conformance.Pose, s float64) *image.NRGBA {
	t.Helper()
	var img *image.NRGBA
	renderConformanceInto(t, c, p, s, func(w, h int) draw.Image {
		img = image.NewNRGBA(image.Rect(0, 0, w, h))
		return img
	})
	return img
}

// renderConformanceInto renders model c at pose p and scale s into the
// image newImage makes for the scaled canvas size.
func renderConformanceInto(t *testing.T, c conformance.Model, p conformance.Pose, s float64, newImage func(w, h int) draw.Image) {
	t.Helper()
	m, err := p2l.LoadFile(filepath.Join(conformanceDir, c.Name+".p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	rig := m.NewRig()
	for id, v := range p.Values {
		rig.SetParameter(m.ParameterIndex(id), v)
	}
	rig.Evaluate()
	w := int(math.Round(float64(m.Canvas().Width) * s))
	h := int(math.Round(float64(m.Canvas().Height) * s))
	img := newImage(w, h)
	// External pages are relative to the model file.
	r := Renderer{TextureOptions: texture.Options{FS: os.DirFS(conformanceDir)}}
	if err := r.Render(rig, img, &Options{Transform: &p2l.Affine{A: s, D: s}}); err != nil {
		t.Fatal(err)
	}
}

// TestConformanceGoldens compares every conformance model, pose and scale
// with its golden image (exactly, up to 1/255 for floating-point
// differences between platforms). Regenerate with -update after checking
// the new images.
func TestConformanceGoldens(t *testing.T) {
	for _, c := range conformance.All() {
		for _, p := range c.Poses {
			for _, s := range []float64{1, 2} {
				name := fmt.Sprintf("%s-%s-x%g.png", c.Name, p.Name, s)
				img := renderConformance(t, c, p, s)
				path := filepath.Join(conformanceDir, name)
				if *update {
					f, err := os.Create(path)
					if err != nil {
						t.Fatal(err)
					}
					if err := png.Encode(f, img); err != nil {
						t.Fatal(err)
					}
					f.Close()
					continue
				}
				f, err := os.Open(path)
				if err != nil {
					t.Fatalf("%v (run go test ./p2l/render -run Conformance -update)", err)
				}
				want, err := png.Decode(f)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				if want.Bounds() != img.Bounds() {
					t.Errorf("%s: size %v, golden %v", name, img.Bounds(), want.Bounds())
					continue
				}
				worst, at := 0, image.Point{}
				for y := 0; y < img.Rect.Dy(); y++ {
					for x := 0; x < img.Rect.Dx(); x++ {
						g := img.NRGBAAt(x, y)
						w := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
						for _, d := range []int{int(g.R) - int(w.R), int(g.G) - int(w.G), int(g.B) - int(w.B), int(g.A) - int(w.A)} {
							if d < 0 {
								d = -d
							}
							if d > worst {
								worst, at = d, image.Pt(x, y)
							}
						}
					}
				}
				if worst > 1 {
					t.Errorf("%s: differs from the golden by %d/255 at %v", name, worst, at)
				}
			}
		}
	}
}

// premulOut reads an output pixel back as premultiplied float64.
func premulOut(img *image.NRGBA, x, y int) [4]float64 {
	c := img.NRGBAAt(x, y)
	a := float64(c.A) / 255
	return [4]float64{float64(c.R) / 255 * a, float64(c.G) / 255 * a, float64(c.B) / 255 * a, a}
}

// texel8 is the pipeline's view of a straight 8-bit texel: premultiplied
// with rounding (p = round(c·a/255)), then straight again for the W3C
// formulas.
func texel8(c color.NRGBA) (rgb64, float64) {
	a := float64(c.A) / 255
	if c.A == 0 {
		return rgb64{}, 0
	}
	p := func(v uint8) float64 { return math.Round(float64(v)*float64(c.A)/255) / 255 / a }
	return rgb64{p(c.R), p(c.G), p(c.B)}, a
}

// texelExact is a straight 8-bit texel as straight output reads it: its
// colour exactly (premultiplied in float at sampling).
func texelExact(c color.NRGBA) (rgb64, float64) {
	return rgb64{float64(c.R) / 255, float64(c.G) / 255, float64(c.B) / 255}, float64(c.A) / 255
}

// TestBlendMatrixIndependently checks every pixel of the blend matrix
// (scale 1, one texel per pixel) against the float64 W3C/KHR/Cubism
// formulas of composite_test.go: top half over the opaque backdrop, bottom
// half inside an isolated group over a translucent backdrop (left) and a
// transparent one (right), in both output kinds:
//
//   - straight (*image.NRGBA, float layers, texels premultiplied exactly;
//     the golden images): every straight channel within 1/255 of the exact
//     result divided by its exact alpha, at every alpha of at least 1/255
//     (docs/RENDERING.md, "Straight output");
//   - premultiplied (*image.RGBA, 8-bit layers): every premultiplied
//     channel within 1/255 of the formulas applied to the backdrop as an
//     8-bit group layer stores it ("8-bit destination").
func TestBlendMatrixIndependently(t *testing.T) {
	c := conformance.BlendMatrix()
	straight := renderConformance(t, c, c.Poses[0], 1)
	var premulImg *image.RGBA
	renderConformanceInto(t, c, c.Poses[0], 1, func(w, h int) draw.Image {
		premulImg = image.NewRGBA(image.Rect(0, 0, w, h))
		return premulImg
	})
	worstStraight, worstPremul := 0.0, 0.0
	for a := p2lrt.AlphaMode(0); a < p2lrt.NumAlphaModes; a++ {
		for b := p2lrt.BlendMode(0); b < p2lrt.NumBlendModes; b++ {
			for j := 0; j < conformance.Cell; j++ {
				for i := 0; i < conformance.Cell; i++ {
					// Premultiplied output starts from the 8-bit premultiplied
					// texels (as a GPU's upload); straight output from the
					// file's texels exactly.
					cs8, as := texel8(conformance.SourceTexel(i, j))
					cd8, _ := texel8(conformance.BackdropTexel(i, j))
					csx, _ := texelExact(conformance.SourceTexel(i, j))
					cdx, _ := texelExact(conformance.BackdropTexel(i, j))
					// Inside the group the opaque backdrop is drawn at
					// opacity 0.6. A float layer keeps C/255 · 0.6 and
					// alpha 0.6 (straight colour C/255); an 8-bit layer
					// keeps the nearest k/255 of each (never a tie: C is a
					// multiple of 16, conformance.BackdropTexel), alpha
					// 153/255.
					bt := conformance.BackdropTexel(i, j)
					op := float64(float32(conformance.GroupBackdropOpacity))
					halfA := math.Round(255 * op)
					half8 := func(c uint8) float64 { return math.Round(float64(c)*op) / halfA }
					cdg8 := rgb64{half8(bt.R), half8(bt.G), half8(bt.B)}
					// (the backdrop's channels are multiples of 16 over
					// alpha 255: its 8-bit premultiplied texels are exact)
					for half := 0; half < 2; half++ {
						x := int(b)*conformance.Cell + i
						y := (int(a)+half*p2lrt.NumAlphaModes)*conformance.Cell + j
						for _, exact := range []bool{true, false} {
							cs, cd := cs8, cd8
							if exact {
								cs, cd = csx, cdx
							}
							ad, d := 1.0, cd
							if half == 1 {
								ad, d = op, cd
								if !exact {
									ad, d = halfA/255, cdg8
								}
								if i >= conformance.Cell/2 {
									ad, d = 0, rgb64{}
								}
							}
							want := reference(b, a, cs, as, d, ad)
							if exact {
								got := straight.NRGBAAt(x, y)
								g := [4]float64{float64(got.R) / 255, float64(got.G) / 255, float64(got.B) / 255, float64(got.A) / 255}
								w := [4]float64{0, 0, 0, want[3]}
								if want[3] >= 1.0/255 {
									for k := 0; k < 3; k++ {
										w[k] = math.Min(want[k]/want[3], 1)
									}
								} else {
									g = [4]float64{0, 0, 0, g[3]} // colour of a (nearly) transparent pixel is free
								}
								for k := range g {
									if dd := math.Abs(g[k] - w[k]); dd > worstStraight {
										worstStraight = dd
										if dd > 1.0/255+1e-9 {
											t.Errorf("straight %v+%v half %d texel (%d,%d): channel %d = %.4f, want %.4f (alpha %.4f)", b, a, half, i, j, k, g[k], w[k], want[3])
										}
									}
								}
								continue
							}
							for k := 0; k < 3; k++ {
								want[k] = math.Min(want[k], want[3]) // output keeps colour ≤ alpha
							}
							px := premulImg.RGBAAt(x, y)
							got := [4]float64{float64(px.R) / 255, float64(px.G) / 255, float64(px.B) / 255, float64(px.A) / 255}
							for k := range got {
								if dd := math.Abs(got[k] - want[k]); dd > worstPremul {
									worstPremul = dd
									if dd > 1.0/255+1e-9 {
										t.Errorf("premultiplied %v+%v half %d texel (%d,%d): channel %d = %.4f, want %.4f", b, a, half, i, j, k, got[k], want[k])
									}
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("blend matrix: max difference from the float64 formulas: straight %.2f/255, premultiplied %.2f/255", worstStraight*255, worstPremul*255)
}

// TestFeatureAndGroupSpotChecks checks chosen pixels of the other models
// against values worked out from the rules.
func TestFeatureAndGroupSpotChecks(t *testing.T) {
	near := func(name string, got, want [4]float64) {
		t.Helper()
		for k := range got {
			if math.Abs(got[k]-want[k]) > 2.0/255 {
				t.Errorf("%s: got %.4f, want %.4f", name, got, want)
				return
			}
		}
	}
	bd := func(x, y int) rgb64 { // the backdrop page tiled at one texel per pixel
		c, _ := texel8(conformance.BackdropTexel(x%16, y%16))
		return c
	}
	opaque := func(c rgb64) [4]float64 { return [4]float64{c[0], c[1], c[2], 1} }
	over := func(s rgb64, as float64, d rgb64) [4]float64 { // Normal+Over onto opaque
		return [4]float64{s[0]*as + d[0]*(1-as), s[1]*as + d[1]*(1-as), s[2]*as + d[2]*(1-as), 1}
	}
	f := conformance.Features()
	img := renderConformance(t, f, f.Poses[0], 1)
	// Page −1 mesh (x 64..80, y 56..72): white × (0.9, 0.4, 0.7), opaque.
	near("page -1", premulOut(img, 70, 60), [4]float64{0.9, 0.4, 0.7, 1})
	// BC1 KTX2 page (x 84..100): unavailable, draws nothing.
	near("unsupported KTX2", premulOut(img, 90, 60), opaque(bd(90, 60)))
	// PNG, KTX2 and external pages show the same texels.
	for _, p := range []image.Point{{3, 2}, {10, 12}, {15, 0}} {
		s, as := texel8(conformance.SourceTexel(p.X, p.Y))
		for k, x0 := range []int{4, 24, 44} {
			x, y := x0+p.X, 56+p.Y
			near(fmt.Sprintf("page kind %d texel %v", k, p), premulOut(img, x, y), over(s, as, bd(x, y)))
		}
	}
	// Culling: left triangle (x 104..124, y 32/56 ..) is a back face.
	green := rgb64{0.1, 0.7, 0.3}
	near("cull off, back face", premulOut(img, 108, 36), opaque(green))
	near("cull on, back face", premulOut(img, 108, 60), opaque(bd(108, 60)))
	near("cull on, front face", premulOut(img, 140, 60), opaque(green))
	// Inverted mask: outside its disc (x 66, y 42) coverage is 0, so the
	// mesh shows fully: (0.2, 0.3, 0.9) at opacity 0.8; at the disc's
	// centre (86, 24: mask texel 15.5+) coverage is the mask alpha there.
	near("inverted mask outside disc", premulOut(img, 66, 42), over(rgb64{0.2, 0.3, 0.9}, 0.8, bd(66, 42)))
	cov3 := math.Round(math.Max(0, math.Min(1, 1.5-1.5*math.Hypot(0.5, 0.5)/16))*255) / 255
	near("inverted mask disc centre", premulOut(img, 86, 24), over(rgb64{0.2, 0.3, 0.9}, 0.8*(1-cov3), bd(86, 24)))
	// Masked mesh: outside both discs (x 58, y 42) nothing is drawn; at
	// the centre of disc 1 (pixel 23,23 → texel 15,15 of the 32² mask)
	// coverage = mask alpha there.
	near("masked outside", premulOut(img, 58, 42), opaque(bd(58, 42)))
	// Mask alpha at texel (15, 15): 1.5 − 1.5·hypot(0.5, 0.5)/16.
	cov := math.Round(math.Max(0, math.Min(1, 1.5-1.5*math.Hypot(0.5, 0.5)/16))*255) / 255
	// Disc 2 covers x 24..56: texel (-1 → clamped)… pixel 23 lies left of
	// it, so coverage is disc 1's alone. The masked mesh samples the
	// source page stretched over 56×40 pixels: compare with the renderer's
	// own sampler for the texel value, the mask rule for the rest.
	tex := sample(srcPage(t), (23.5-4)/56, (23.5-4)/40)
	s := rgb64{float64(tex.R / tex.A), float64(tex.G / tex.A), float64(tex.B / tex.A)}
	near("masked at disc centre", premulOut(img, 23, 23), over(s, float64(tex.A)*cov, bd(23, 23)))

	// Groups: channel group, red-only pixel (x 10, y 10).
	g := conformance.Groups()
	for _, tc := range []struct {
		pose        int
		op          float64
		mul, screen rgb64
	}{
		{0, 1, rgb64{1, 1, 1}, rgb64{}},
		{1, 0.25, rgb64{1, 0.5, 0.25}, rgb64{0, 0, 0.5}},
		{2, 0.625, rgb64{1, 0.75, 0.625}, rgb64{0, 0, 0.25}},
	} {
		img := renderConformance(t, g, g.Poses[tc.pose], 1)
		c := rgb64{1 * tc.mul[0], 0, 0}
		for k := range c {
			c[k] = c[k] + tc.screen[k] - c[k]*tc.screen[k]
		}
		near(fmt.Sprintf("channel group pose %s", g.Poses[tc.pose].Name), premulOut(img, 10, 10), over(c, tc.op, bd(10, 10)))
		// Overlap of red and blue inside the group: blue alone (isolation).
		b := rgb64{0, 0, tc.mul[2]}
		for k := range b {
			b[k] = b[k] + tc.screen[k] - b[k]*tc.screen[k]
		}
		near("channel group overlap", premulOut(img, 25, 25), over(b, tc.op, bd(25, 25)))
	}
	img = renderConformance(t, g, g.Poses[0], 1)
	// Mesh-masked group: outside the disc nothing; inverted group: inside
	// the disc centre (72, 24) coverage ≈ 1 → nothing, at (94, 46) outside
	// the disc → yellow.
	near("masked group outside disc", premulOut(img, 57, 39), opaque(bd(57, 39)))
	near("inverted group outside disc", premulOut(img, 94, 46), opaque(rgb64{1, 0.9, 0.1}))
	// Out group (mode_1, x 116..148): Normal+Out keeps the backdrop outside
	// the group's content, scaled by 1 − as: with opacity 0.6 on an
	// opaque orange, dst·(1 − 0.6).
	d := bd(118, 58)
	near("Out group", premulOut(img, 118, 58), [4]float64{d[0] * 0.4, d[1] * 0.4, d[2] * 0.4, 0.4})
}

func srcPage(t *testing.T) *image.RGBA {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, conformance.Cell, conformance.Cell))
	for j := 0; j < conformance.Cell; j++ {
		for i := 0; i < conformance.Cell; i++ {
			c := conformance.SourceTexel(i, j)
			img.Set(i, j, c)
		}
	}
	return img
}
