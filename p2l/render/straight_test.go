package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestStraightOutputExactAtLowAlpha draws soft-edged meshes over
// transparency (alpha 1/255 … 1 across the image) stacked in several
// ways — one mesh, two Normal meshes, Normal under Screen, and an isolated
// Multiply group at opacity 0.5 — into straight output and requires every
// straight channel to lie within 1/255 of the exact result: the float64
// formulas (composite_test.go) applied to the same texels, divided by the
// exact alpha. With 8-bit layers the division by a small alpha magnifies
// every rounding (up to 255/255 at alpha 1/255); with float layers it does
// not.
func TestStraightOutputExactAtLowAlpha(t *testing.T) {
	const w = 255
	// Page: column x has alpha x+1 and premultiplied colour
	// (a, round(a/2), round(a/5)): straight about (1, 0.5, 0.2).
	page := image.NewRGBA(image.Rect(0, 0, w, 1))
	texel := func(x int) (rgb64, float64) {
		a := x + 1
		p := [3]int{a, int(math.Round(float64(a) / 2)), int(math.Round(float64(a) / 5))}
		fa := float64(a) / 255
		return rgb64{float64(p[0]) / 255 / fa, float64(p[1]) / 255 / fa, float64(p[2]) / 255 / fa}, fa
	}
	for x := 0; x < w; x++ {
		a := x + 1
		copy(page.Pix[4*x:], []uint8{uint8(a), uint8(math.Round(float64(a) / 2)), uint8(math.Round(float64(a) / 5)), uint8(a)})
	}
	type layerSpec struct {
		blend   p2lrt.BlendMode
		opacity float32
		mul     p2lrt.Color
		mirror  bool // texel w−1−x instead of x
	}
	rows := [][]layerSpec{
		{{p2lrt.BlendNormal, 0.7, p2lrt.White, false}},
		{{p2lrt.BlendNormal, 0.7, p2lrt.White, false}, {p2lrt.BlendNormal, 0.3, p2lrt.Color{0.2, 0.9, 0.5}, true}},
		{{p2lrt.BlendNormal, 0.9, p2lrt.White, false}, {p2lrt.BlendScreen, 0.6, p2lrt.Color{0.1, 0.3, 1}, false}},
		{{p2lrt.BlendNormal, 1, p2lrt.Color{0.3, 0.6, 0.9}, false}, {p2lrt.BlendMultiply, 0.8, p2lrt.White, true}},
	}
	const groupRow = 3 // drawn inside a group: Multiply+Over, opacity 0.5
	f := &fakeFrame{}
	f.m = &p2lrt.File{Canvas: p2lrt.Canvas{Width: w, Height: float32(len(rows))}, Parts: []p2lrt.Part{{ID: "g"}}}
	f.groups = map[int]p2lrt.Composite{0: {Blend: p2lrt.BlendMultiply, Opacity: 0.5, Multiply: p2lrt.White}}
	for y, row := range rows {
		if y == groupRow {
			f.cmds = append(f.cmds, p2l.OpenGroup(0))
		}
		for _, l := range row {
			v, uv, idx := quad(0, float32(y), w, float32(y+1))
			if l.mirror {
				uv = []float32{1, 0, 0, 0, 0, 1, 1, 1}
			}
			mi := f.addMesh(p2lrt.Mesh{TexturePage: 0, Blend: l.blend, Opacity: l.opacity}, v, uv, idx)
			f.mul[mi] = l.mul
		}
		if y == groupRow {
			f.cmds = append(f.cmds, p2l.CloseGroup)
		}
	}
	r := Renderer{Pages: []*image.RGBA{page}}
	img := image.NewNRGBA(image.Rect(0, 0, w, len(rows)))
	if err := r.render(f, img, &Options{Transform: &p2l.Identity}); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for y, row := range rows {
		for x := 0; x < w; x++ {
			var d rgb64
			ad := 0.0
			for _, l := range row {
				tx := x
				if l.mirror {
					tx = w - 1 - x
				}
				cs, as := texel(tx)
				for k := range cs {
					cs[k] *= float64(l.mul[k])
				}
				as *= float64(l.opacity)
				o := reference(l.blend, p2lrt.AlphaOver, cs, as, d, ad)
				ad = o[3]
				for k := range d {
					d[k] = o[k] / ad
				}
			}
			if y == groupRow {
				// The group layer over transparency at opacity 0.5.
				o := reference(p2lrt.BlendMultiply, p2lrt.AlphaOver, d, ad*0.5, rgb64{}, 0)
				ad = o[3]
				for k := range d {
					d[k] = o[k] / ad
				}
			}
			got := img.NRGBAAt(x, y)
			g := [4]float64{float64(got.R) / 255, float64(got.G) / 255, float64(got.B) / 255, float64(got.A) / 255}
			want := [4]float64{math.Min(d[0], 1), math.Min(d[1], 1), math.Min(d[2], 1), ad}
			for k := range g {
				dd := math.Abs(g[k] - want[k])
				worst = max(worst, dd)
				if dd > 1.0/255+1e-9 {
					t.Errorf("row %d x %d: channel %d = %.4f, want %.4f (alpha %.5f)", y, x, k, g[k], want[k], ad)
				}
			}
		}
	}
	t.Logf("straight output: max difference from the exact result %.2f/255", worst*255)
}

// TestStraightOutputKeepsTexelColour: a page whose texels have alpha 1/255
// to 4/255 and colour (200, 100, 50), drawn at one texel per pixel into
// straight output, keeps that colour (within 1/255); premultiplied in 8
// bits the texel (200·1/255 → 1/255) would come out as 255, 0, 0.
func TestStraightOutputKeepsTexelColour(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 4, 1))
	for x := 0; x < 4; x++ {
		copy(src.Pix[4*x:], []uint8{200, 100, 50, uint8(1 + x)})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, src); err != nil {
		t.Fatal(err)
	}
	f := &fakeFrame{m: &p2lrt.File{Canvas: p2lrt.Canvas{Width: 4, Height: 1},
		Textures: []p2lrt.TexturePage{{Kind: p2lrt.TexturePNG, Width: 4, Height: 1, Data: buf.Bytes()}}}}
	v, uv, idx := quad(0, 0, 4, 1)
	f.addMesh(p2lrt.Mesh{TexturePage: 0}, v, uv, idx)
	var r Renderer
	img := image.NewNRGBA(image.Rect(0, 0, 4, 1))
	if err := r.render(f, img, &Options{Transform: &p2l.Identity}); err != nil {
		t.Fatal(err)
	}
	for x := 0; x < 4; x++ {
		got := img.NRGBAAt(x, 0)
		if got.A != uint8(1+x) || absDiff(got.R, 200) > 1 || absDiff(got.G, 100) > 1 || absDiff(got.B, 50) > 1 {
			t.Errorf("pixel %d = %v, want (200, 100, 50, %d)", x, got, 1+x)
		}
	}
	// The premultiplied output of the same frame is the 8-bit one.
	rgba := image.NewRGBA(image.Rect(0, 0, 4, 1))
	if err := r.render(f, rgba, &Options{Transform: &p2l.Identity}); err != nil {
		t.Fatal(err)
	}
	if got, want := rgba.RGBAAt(0, 0), (color.RGBA{1, 0, 0, 1}); got != want {
		t.Errorf("premultiplied pixel 0 = %v, want %v", got, want)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
