package ebitenp2l

import (
	"errors"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// TestDispose: characters of one model share its pages; the last Dispose
// releases them, and the pool goes when no character is left.
func TestDispose(t *testing.T) {
	m, err := p2l.LoadFile(filepath.Join(conformanceDir, "groups.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	onGame(func() {
		a, b := NewCharacter(m), NewCharacter(m)
		if a.res != b.res || a.res.pageImg[0] == nil {
			t.Error("two characters of one model do not share its pages")
		}
		dst := blackImage(64, 64)
		defer dst.Deallocate()
		a.Draw(dst, nil) // fills the pool (the model has groups)
		if len(pool.layers) == 0 || pool.layers[0].img == nil {
			t.Error("no layer page after drawing groups")
		}
		a.Dispose()
		a.Dispose() // no-op
		a.Draw(dst, nil)
		if res[m] == nil || b.res.refs != 1 {
			t.Error("disposing one character released the shared pages")
		}
		b.Dispose()
		if res[m] != nil {
			t.Error("pages of a model kept after its last character")
		}
		if liveCharacters == 0 && (len(pool.layers) != 0 || pool.coverage.img != nil || pool.scratch.img != nil) {
			t.Error("pool kept after the last character")
		}
	})
}

// TestTextureInfo: pages that cannot be decoded are reported, not fatal;
// external pages resolve through Options.Textures.FS.
func TestTextureInfo(t *testing.T) {
	m, err := p2l.LoadFile(filepath.Join(conformanceDir, "features.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	onGame(func() {
		c := NewCharacterWithOptions(m, &Options{Textures: texture.Options{FS: os.DirFS(conformanceDir)}})
		defer c.Dispose()
		unsupported, external := 0, 0
		for i, p := range m.Textures {
			err := c.TextureInfo(i)
			if errors.Is(err, texture.ErrUnsupported) {
				unsupported++
			}
			if p.Kind == p2l.TextureExternal && err == nil {
				external++
			}
		}
		if unsupported == 0 || external == 0 {
			t.Errorf("features model: %d unsupported pages reported, %d external pages decoded; want ≥ 1 each", unsupported, external)
		}
		if c.TextureInfo(len(m.Textures)) == nil {
			t.Error("TextureInfo of a page out of range: nil")
		}
	})
}

// TestFilterNearest: FilterNearest samples the nearest texel; the default
// filters bilinearly.
func TestFilterNearest(t *testing.T) {
	onGame(func() {
		s := newScene(4, 1)
		img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
		img.SetNRGBA(0, 0, color.NRGBA{0, 0, 0, 255})
		img.SetNRGBA(1, 0, color.NRGBA{255, 255, 255, 255})
		pg := s.page(img)
		m := s.quad(pg, 0, 0, 4, 1, p2l.Mesh{})
		s.pose.cmds = []p2l.RenderCommand{mesh(m)}
		c := s.character(t)
		dst := blackImage(4, 1)
		defer dst.Deallocate()
		// Pixel 1's center is at u = 1.5/4 = 0.375: texel coordinate 0.75,
		// a quarter of the way from texel 0's center to texel 1's.
		c.Draw(dst, &DrawOptions{Filter: FilterNearest})
		check(t, pixels(dst), 4, 1, 0, [4]float64{0, 0, 0, 1}, 0, "nearest")
		c.Draw(dst, nil)
		check(t, pixels(dst), 4, 1, 0, [4]float64{0.25, 0.25, 0.25, 1}, 1.0/255, "bilinear")
	})
}
