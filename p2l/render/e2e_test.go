package render_test

import (
	"image"
	"testing"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/cputime"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

// BenchmarkRender draws a whole character into a 1024×1024 image (the
// canvas fitted), steady state: the character-scale synthetic model (120
// meshes) and the default character.
func BenchmarkRender(b *testing.B) {
	for _, tc := range []struct {
		name  string
		model func() (*p2l.Model, error)
	}{
		{"synth-character", func() (*p2l.Model, error) { return synth.MustModel(synth.Character(1)), nil }},
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
			defer cputime.Lock()()
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cputime.Thread()
			for b.Loop() {
				if err := r.Render(rig, img, nil); err != nil {
					b.Fatal(err)
				}
			}
			if cpu := cputime.Thread() - c0; cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/frame")
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
		})
	}
}
