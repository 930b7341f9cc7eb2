package ebitenp2l

import (
	"runtime"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/internal/cputime"
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
// (process-cpu: the render thread and the rasterizer threads included),
// and of that the rasterizer threads' (raster-cpu, Mesa llvmpipe only). No
// frame overlaps the GPU work of the one before, so the wall time is not
// biased by which frame follows the heavier one. A third floor samples its
// page with Ebitengine's bilinear filter (FilterLinear: four taps a
// fragment, as the drawable's default filtering reads; the other floors
// read one, nearest): the ratios to it are reported as ratio-…-linear.
func BenchmarkStillVsFloorGPU(b *testing.B) {
	for _, bm := range benchModels(b) {
		b.Run(bm.name+"/100", func(b *testing.B) { benchmarkStillVsFloorGPU(b, bm.model, 100) })
	}
}

func benchmarkStillVsFloorGPU(b *testing.B, model *p2l.Model, n int) {
	v := newVsFloor(model, n)
	defer v.dispose()
	var linear *floorScene
	onGame(func() {
		linear = newFloorScene(model, n, maxBatchVertices)
		linear.op.Filter = ebiten.FilterLinear
		linear.op.DisableMipmaps = true // as the drawable: no per-triangle mipmap level pass
	})
	defer onGame(linear.dispose)
	frames := append(v.frames(), linear.frame)
	dsts := []*ebiten.Image{v.scene.dst, v.floors[0].dst, v.floors[1].dst, linear.dst}
	var cpu, wall, proc, raster [4]time.Duration
	timed := func(k int) {
		onGame(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0, c0, p0, r0 := time.Now(), cputime.Thread(), cputime.Process(), rasterCPU()
			frames[k]()
			cpu[k] += cputime.Thread() - c0
			o := dsts[k].Bounds().Min
			_ = dsts[k].RGBA64At(o.X, o.Y) // waits for the GPU
			wall[k] += time.Since(t0)
			proc[k] += cputime.Process() - p0
			raster[k] += rasterCPU() - r0
		})
	}
	for range 3 { // warm-up: the draw's third frame is its first replay
		for k := range frames {
			timed(k)
		}
	}
	cpu, wall, proc, raster = [4]time.Duration{}, [4]time.Duration{}, [4]time.Duration{}, [4]time.Duration{}
	replays := counters.replays
	b.ResetTimer()
	for i := range b.N {
		for j := range frames {
			timed((i + j) % len(frames))
		}
	}
	b.StopTimer()
	if counters.replays-replays != b.N {
		b.Errorf("%d of %d draws replayed", counters.replays-replays, b.N)
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	report := func(name string, d [4]time.Duration) {
		f := min(d[1], d[2])
		b.ReportMetric(per(d[0]), "draw-"+name+"-ns/op")
		b.ReportMetric(per(f), "floor-"+name+"-ns/op")
		b.ReportMetric(per(d[0])/per(f), "ratio-"+name)
		b.ReportMetric(per(d[3]), "linear-floor-"+name+"-ns/op")
		b.ReportMetric(per(d[0])/per(d[3]), "ratio-"+name+"-linear")
	}
	report("thread-cpu", cpu)
	report("sync-wall", wall)
	report("process-cpu", proc)
	if raster[1] > 0 {
		report("raster-cpu", raster)
	}
}

// vsFloor is a crowd of n characters and its two floors (BenchmarkFloor,
// BenchmarkFloorChunked), drawn in alternating frames of one run.
type vsFloor struct {
	scene  *benchScene
	floors [2]*floorScene
}

func newVsFloor(model *p2l.Model, n int) *vsFloor {
	v := &vsFloor{}
	onGame(func() {
		v.scene = newBenchScene(model, n)
		v.floors = [2]*floorScene{newFloorScene(model, n, maxBatchVertices), newFloorScene(model, n, chunkVertices)}
	})
	return v
}

// frames returns the three frames: the crowd's Batch.Draw, the floors.
func (v *vsFloor) frames() []func() {
	return []func(){func() { v.scene.frame(false, false) }, v.floors[0].frame, v.floors[1].frame}
}

func (v *vsFloor) dispose() {
	onGame(func() { v.scene.dispose(); v.floors[0].dispose(); v.floors[1].dispose() })
}
