package ebitenp2l

import (
	"image/color"
	"runtime"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// BenchmarkStillVsFloorGPU is BenchmarkStillVsFloor with each frame's GPU
// work inside its measurement: after the draw (or a floor's frame) it reads
// one pixel of the destination back, which makes Ebitengine flush its
// command queue and waits until the driver (Mesa llvmpipe here, on the same
// cores) has rasterized everything. It reports per frame, for the draw and
// the lower floor and as ratios, the game thread's CPU up to the read
// (thread-cpu, as BenchmarkStillVsFloor), the wall time to the read's end
// (sync-wall) and the whole process's CPU over the same span
// (process-cpu: the render thread and the rasterizer threads included). No
// frame overlaps the GPU work of the one before, so the wall time is not
// biased by which frame follows the heavier one.
func BenchmarkStillVsFloorGPU(b *testing.B) {
	for _, bm := range benchModels(b) {
		b.Run(bm.name+"/100", func(b *testing.B) { benchmarkStillVsFloorGPU(b, bm.model, 100) })
	}
}

func benchmarkStillVsFloorGPU(b *testing.B, model *p2l.Model, n int) {
	var s *benchScene
	var floors [2]*floorScene
	onGame(func() {
		s = newBenchScene(model, n)
		floors = [2]*floorScene{newFloorScene(model, n, maxBatchVertices), newFloorScene(model, n, chunkVertices)}
	})
	defer onGame(func() { s.dispose(); floors[0].dispose(); floors[1].dispose() })
	frames := []func(){func() { s.frame(false, false) }, floors[0].frame, floors[1].frame}
	dsts := []*ebiten.Image{s.dst, floors[0].dst, floors[1].dst}
	var px color.RGBA64
	var cpu, wall, proc [3]time.Duration
	timed := func(k int) {
		onGame(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0, c0, p0 := time.Now(), threadCPU(), processCPU()
			frames[k]()
			cpu[k] += threadCPU() - c0
			o := dsts[k].Bounds().Min
			px = dsts[k].RGBA64At(o.X, o.Y)
			wall[k] += time.Since(t0)
			proc[k] += processCPU() - p0
		})
	}
	for range 3 {
		for k := range frames {
			timed(k)
		}
	}
	cpu, wall, proc = [3]time.Duration{}, [3]time.Duration{}, [3]time.Duration{}
	replays := rd.replays
	b.ResetTimer()
	for i := range b.N {
		for j := range frames {
			timed((i + j) % 3)
		}
	}
	b.StopTimer()
	_ = px
	if rd.replays-replays != b.N {
		b.Errorf("%d of %d draws replayed", rd.replays-replays, b.N)
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	report := func(name string, d [3]time.Duration) {
		f := min(d[1], d[2])
		b.ReportMetric(per(d[0]), "draw-"+name+"-ns/op")
		b.ReportMetric(per(f), "floor-"+name+"-ns/op")
		b.ReportMetric(per(d[0])/per(f), "ratio-"+name)
	}
	report("thread-cpu", cpu)
	report("sync-wall", wall)
	report("process-cpu", proc)
}
