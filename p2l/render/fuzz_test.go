package render

import (
	"image"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// FuzzRender loads arbitrary files and draws what loads, posed, updated and
// in every advanced mode, into small straight and premultiplied images, and
// hit-tests them: nothing may panic, and the renderer's allocation stays
// within its documented bound (docs/RENDERING.md, "Memory") plus what the
// file itself can need.
func FuzzRender(f *testing.F) {
	for _, name := range []string{"features", "groups", "blend-matrix"} {
		if data, err := os.ReadFile(filepath.Join(conformanceDir, name+".p2lrt")); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := p2l.Load(data, p2l.WithMaxDecompressed(1<<22))
		if err != nil {
			return
		}
		var r Renderer
		r.TextureOptions.MaxPixels = 1 << 16
		rgba := image.NewRGBA(image.Rect(0, 0, 24, 16))
		nrgba := image.NewNRGBA(image.Rect(0, 0, 16, 24))
		for _, bits := range []p2l.Features{0, m.AdvancedAvailable()} {
			rig := m.NewRig()
			rig.SetAdvanced(bits)
			rig.Update(1.0 / 30)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_ = r.Render(rig, rgba, nil)
			_ = r.Render(rig, nrgba, &Options{Transform: &p2l.Affine{A: 0.5, D: -0.5, TY: 16}})
			runtime.ReadMemStats(&after)
			// 164 bytes per output pixel (two small images), the decoded
			// pages (4 bytes per texel of the budget) and the triangle
			// buffers, bounded by the file's size.
			if a := after.TotalAlloc - before.TotalAlloc; a > 2*(64<<20)+4<<16+200*uint64(len(data)) {
				t.Fatalf("rendering a %d-byte file into two small images allocated %d bytes", len(data), a)
			}
			r.HitTestAlpha(rig, 3, 4, 0.5)
		}
	})
}

// TestGroupOutsideTheImage is FuzzRender's first finding: an isolated
// group whose contents all fall outside the image (here groups.p2lrt,
// scaled by ½ and flipped upwards out of a 16×24 image) has an empty
// layer, and clearing it sliced out of range.
func TestGroupOutsideTheImage(t *testing.T) {
	m, err := p2l.LoadFile(filepath.Join(conformanceDir, "groups.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	rig := m.NewRig()
	rig.Update(1.0 / 30)
	var r Renderer
	img := image.NewNRGBA(image.Rect(0, 0, 16, 24))
	if err := r.Render(rig, img, &Options{Transform: &p2l.Affine{A: 0.5, D: -0.5, TY: 16}}); err != nil {
		t.Fatal(err)
	}
}
