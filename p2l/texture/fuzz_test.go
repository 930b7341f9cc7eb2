package texture

import (
	"image"
	"image/color"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// FuzzDecodePages feeds arbitrary bytes to every page decoder (PNG, KTX2,
// external file content) under one small pixel budget: nothing may panic,
// a decoded page must be a well-formed premultiplied image, and the pages
// decoded together must fit the budget.
func FuzzDecodePages(f *testing.F) {
	src := straight()
	f.Add(encodePNG(f, src))
	f.Add(encodePNG(f, grayPNGImage(3, 5)))
	pal := image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.NRGBA{1, 2, 3, 4}, color.NRGBA{200, 100, 50, 255}})
	pal.Pix[3] = 1
	f.Add(encodePNG(f, pal))
	f.Add(encodePNG(f, image.NewNRGBA64(image.Rect(0, 0, 2, 3))))
	f.Add(makeKTX2(f, ktx2Options{vk: vkR8G8B8A8UNORM, pix: src.Pix, w: 2, h: 2}))
	f.Add(makeKTX2(f, ktx2Options{vk: vkB8G8R8A8SRGB, pix: src.Pix, w: 2, h: 2, super: superZstd}))
	f.Add(makeKTX2(f, ktx2Options{vk: vkR8G8B8A8UNORM, pix: src.Pix, w: 2, h: 2, super: superZlib, premul: true}))
	const budget = 1 << 14
	f.Fuzz(func(t *testing.T, data []byte) {
		m := &p2lrt.File{Textures: []p2lrt.TexturePage{
			{Kind: p2lrt.TexturePNG, Data: data},
			{Kind: p2lrt.TextureKTX2, Data: data},
			{Kind: p2lrt.TextureExternal, URI: "page", Data: data},
		}}
		used := 0
		for _, p := range decode(fileSource(m), &Options{MaxPixels: budget}) {
			if (p.Image == nil) == (p.Err == nil) {
				t.Fatalf("page %d: image %v with error %v", p.Index, p.Image != nil, p.Err)
			}
			if p.Image == nil {
				continue
			}
			w, h := p.Image.Rect.Dx(), p.Image.Rect.Dy()
			if w <= 0 || h <= 0 || p.Image.Rect.Min != (image.Point{}) || p.Image.Stride != 4*w || len(p.Image.Pix) != 4*w*h {
				t.Fatalf("page %d: malformed image %v stride %d len %d", p.Index, p.Image.Rect, p.Image.Stride, len(p.Image.Pix))
			}
			for i := 0; i < len(p.Image.Pix); i += 4 {
				px := p.Image.Pix[i : i+4]
				if px[0] > px[3] || px[1] > px[3] || px[2] > px[3] {
					t.Fatalf("page %d: texel %v is not premultiplied", p.Index, px)
				}
			}
			used += w * h
		}
		if used > budget {
			t.Fatalf("pages decoded %d texels, budget %d", used, budget)
		}
	})
}

func grayPNGImage(w, h int) *image.Gray16 {
	img := image.NewGray16(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 37)
	}
	return img
}
