package ebitenp2l

import (
	"fmt"
	"image/color"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// benchModels are the benchmarked models: the default character (assets:
// 36 meshes, 1,622 drawn vertices, one page, one isolated group, masks, and
// Add and Multiply meshes that read the backdrop) and the character-scale
// synthetic model (synth.Character(1): 118 drawn meshes, 8,496 vertices,
// two pages, random blend and alpha modes, masks, isolated groups).
func benchModels(b *testing.B) []struct {
	name  string
	model *p2l.Model
} {
	m, err := assets.DefaultModel()
	if err != nil {
		b.Fatal(err)
	}
	return []struct {
		name  string
		model *p2l.Model
	}{{"default", m}, {"synth", synth.Character(1)}}
}

// benchScene is n characters tiled over a 512×512 target.
type benchScene struct {
	chars []*Character
	opts  []DrawOptions
	dst   *ebiten.Image
}

func newBenchScene(model *p2l.Model, n int) *benchScene {
	s := &benchScene{dst: ebiten.NewImage(512, 512)}
	side := int(math.Ceil(math.Sqrt(float64(n))))
	cell := 512 / float64(side)
	scale := cell / float64(max(model.Canvas.Width, model.Canvas.Height))
	for i := range n {
		c := NewCharacter(model)
		var o DrawOptions
		o.GeoM.Scale(scale, scale)
		o.GeoM.Translate(float64(i%side)*cell, float64(i/side)*cell)
		s.chars = append(s.chars, c)
		s.opts = append(s.opts, o)
	}
	return s
}

func (s *benchScene) frame(update bool) {
	s.dst.Clear()
	for i, c := range s.chars {
		if update {
			c.Update(1.0 / 60)
		}
		c.Draw(s.dst, &s.opts[i])
	}
}

func (s *benchScene) dispose() {
	for _, c := range s.chars {
		c.Dispose()
	}
	s.dst.Deallocate()
}

// runFrames runs f as one frame per benchmark iteration, timing only f:
// between iterations the game loop ends the frame, so Ebitengine flushes
// and recycles its command queue as in a game. Besides wall time it reports
// cpu-ns/op, the CPU time of the thread running f.
func runFrames(b *testing.B, f func()) {
	b.StopTimer()
	b.ReportAllocs()
	for range 3 { // warm-up: pool pages, sub-images, atlas placement
		onGame(f)
	}
	b.ResetTimer() // drops the setup (model decoding, uploads)
	var cpu time.Duration
	for range b.N {
		onGame(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.StartTimer()
			t0 := threadCPU()
			f()
			cpu += threadCPU() - t0
			b.StopTimer()
		})
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func benchmarkCharacters(b *testing.B, model *p2l.Model, n int, update bool) {
	var s *benchScene
	onGame(func() { s = newBenchScene(model, n) })
	defer onGame(s.dispose)
	before := rd.drawCalls
	runFrames(b, func() { s.frame(update) })
	b.ReportMetric(float64(rd.drawCalls-before)/float64(b.N+3), "calls/frame")
}

// BenchmarkFrame measures the CPU time of Update + Draw per frame for 1, 10
// and 100 characters of each model; BenchmarkDraw the Draw part alone.
func BenchmarkFrame(b *testing.B) {
	for _, bm := range benchModels(b) {
		for _, n := range []int{1, 10, 100} {
			b.Run(fmt.Sprint(bm.name, "/", n), func(b *testing.B) { benchmarkCharacters(b, bm.model, n, true) })
		}
	}
}

func BenchmarkDraw(b *testing.B) {
	for _, bm := range benchModels(b) {
		for _, n := range []int{1, 10, 100} {
			b.Run(fmt.Sprint(bm.name, "/", n), func(b *testing.B) { benchmarkCharacters(b, bm.model, n, false) })
		}
	}
}

// BenchmarkFloor is the floor: the same number of vertices and indices as n
// characters, prepared once and submitted with plain DrawTriangles calls of
// at most 65,535 vertices (one call for one character).
func BenchmarkFloor(b *testing.B) {
	for _, bm := range benchModels(b) {
		b.Run(bm.name, func(b *testing.B) { benchmarkFloor(b, bm.model) })
	}
}

func benchmarkFloor(b *testing.B, model *p2l.Model) {
	rig := model.NewRig()
	rig.Evaluate()
	var verts []ebiten.Vertex
	var inds []uint16
	for _, mi := range rig.RenderOrder() {
		v, uv := rig.MeshVertices(mi), rig.MeshUVs(mi)
		base := uint16(len(verts))
		for i := 0; i+1 < len(v); i += 2 {
			verts = append(verts, ebiten.Vertex{DstX: v[i] / 4, DstY: v[i+1] / 4, SrcX: uv[i] * 64, SrcY: uv[i+1] * 64, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1})
		}
		for _, k := range rig.MeshIndices(mi) {
			inds = append(inds, base+uint16(k))
		}
	}
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var src, dst *ebiten.Image
			onGame(func() {
				src = ebiten.NewImage(64, 64)
				src.Fill(color.White)
				dst = ebiten.NewImage(512, 512)
			})
			defer onGame(func() { src.Deallocate(); dst.Deallocate() })
			per := max(1, maxBatchVertices/len(verts)) // characters per call
			var op ebiten.DrawTrianglesOptions
			// per copies of the character in each full call, the rest in a
			// last one; built before the timed frames.
			fullV, fullI := floorVerts(verts, per), floorInds(inds, len(verts), per)
			restV, restI := floorVerts(verts, n%per), floorInds(inds, len(verts), n%per)
			runFrames(b, func() {
				dst.Clear()
				for range n / per {
					dst.DrawTriangles(fullV, fullI, src, &op)
				}
				if len(restV) > 0 {
					dst.DrawTriangles(restV, restI, src, &op)
				}
			})
		})
	}
}

// floorVerts returns k copies of v.
func floorVerts(v []ebiten.Vertex, k int) []ebiten.Vertex {
	var s []ebiten.Vertex
	for range k {
		s = append(s, v...)
	}
	return s
}

// floorInds returns k copies of the indices in, the j-th offset by j·nv.
func floorInds(in []uint16, nv, k int) []uint16 {
	var s []uint16
	for j := range k {
		for _, x := range in {
			s = append(s, x+uint16(j*nv))
		}
	}
	return s
}
