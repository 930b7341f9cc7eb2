package ebitenp2l

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
)

// BenchmarkHiyoriCrowdVsFloor is BenchmarkMovingVsFloor for 20 Hiyoris
// (the Cubism sample, loaded with cubism.Load; skipped without the
// samples) each playing her Idle group, blinking and breathing, drawn in
// one Batch: ratio-cpu and ratio-wall compare the draw with the same
// vertices in plain DrawTriangles calls (the lower of the two static
// floors), ratio-cpu-rebuilt with those vertices rebuilt every frame.
// docs/PERFORMANCE.md, "A crowd of Hiyoris", quotes them.
func BenchmarkHiyoriCrowdVsFloor(b *testing.B) {
	dir := filepath.Dir(cubismsamples.Model(b, "Hiyori"))
	m, _, err := cubism.Load(os.DirFS(dir), "Hiyori.model3.json")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("20", func(b *testing.B) {
		benchmarkVsFloor(b, m, 20, true, func(c *Character) {
			if err := c.Rig().SetIdleGroup("Idle"); err != nil {
				b.Fatal(err)
			}
		})
	})
}
