package texture

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestStraightPages: with Options.Straight, PNG pages and straight KTX2
// pages also give their texels as stored (for exact straight output);
// premultiplied KTX2 pages give none; the premultiplied Image is the same
// as without the option.
func TestStraightPages(t *testing.T) {
	src := straight()
	var pngData bytes.Buffer
	if err := png.Encode(&pngData, src); err != nil {
		t.Fatal(err)
	}
	premulPix := append([]byte(nil), Premultiply(src).Pix...)
	m := &p2lrt.File{Textures: []p2lrt.TexturePage{
		{Kind: p2lrt.TexturePNG, Width: 2, Height: 2, Data: pngData.Bytes()},
		{Kind: p2lrt.TextureKTX2, Width: 2, Height: 2, Data: makeKTX2(t, ktx2Options{vk: vkR8G8B8A8UNORM, pix: src.Pix, w: 2, h: 2})},
		{Kind: p2lrt.TextureKTX2, Width: 2, Height: 2, Data: makeKTX2(t, ktx2Options{vk: vkR8G8B8A8UNORM, pix: premulPix, w: 2, h: 2, premul: true})},
	}}
	plain := decode(fileSource(m), nil)
	pages := decode(fileSource(m), &Options{Straight: true})
	for i, p := range pages {
		if p.Image == nil || !bytes.Equal(p.Image.Pix, plain[i].Image.Pix) || plain[i].Straight != nil {
			t.Fatalf("page %d: premultiplied image differs with Straight, or Straight set without the option", i)
		}
		if i < 2 {
			if p.Straight == nil || !bytes.Equal(p.Straight.Pix, src.Pix) {
				t.Errorf("page %d: straight texels %v, want %v", i, p.Straight, src.Pix)
			}
		} else if p.Straight != nil {
			t.Errorf("page %d (premultiplied KTX2): straight texels given", i)
		}
	}
}
