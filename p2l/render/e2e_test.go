package render_test

import (
	"image"
	"testing"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

func BenchmarkRender(b *testing.B) {
	for _, tc := range []struct {
		name  string
		model func() (*p2l.Model, error)
	}{
		{"synth-character", func() (*p2l.Model, error) { return synth.Character(1), nil }},
		{"default-character", assets.DefaultModel},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m, err := tc.model()
			if err != nil {
				b.Fatal(err)
			}
			rig := m.NewRig()
			rig.Evaluate()
			img := image.NewRGBA(image.Rect(0, 0, 1024, 1024))
			var r render.Renderer
			if err := r.Render(rig, img, nil); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := r.Render(rig, img, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
