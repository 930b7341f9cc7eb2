package ebitenp2l

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/cputime"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// benchModels are the benchmarked models: the default character (assets:
// 36 meshes, 1,622 drawn vertices, one page, one isolated group, masks, and
// Add and Multiply meshes that read the backdrop) and the character-scale
// synthetic model (synth.MustModel(synth.Character(1)): 118 drawn meshes, 8,496 vertices,
// two pages, random blend and alpha modes, masks, isolated groups).
func benchModels(b testing.TB) []struct {
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
	}{{"default", m}, {"synth", synth.MustModel(synth.Character(1))}}
}

// benchScene is n characters tiled over a 512×512 target.
type benchScene struct {
	chars []*Character
	opts  []DrawOptions
	dst   *ebiten.Image
	batch Batch
}

func newBenchScene(model *p2l.Model, n int) *benchScene {
	s := &benchScene{dst: ebiten.NewImage(512, 512)}
	for i := range n {
		s.chars = append(s.chars, NewCharacter(model))
		s.opts = append(s.opts, DrawOptions{GeoM: tileGeoM(model, n, i)})
	}
	return s
}

// tileGeoM places character i of n in its cell of a square grid over the
// 512×512 target.
func tileGeoM(model *p2l.Model, n, i int) ebiten.GeoM {
	side := int(math.Ceil(math.Sqrt(float64(n))))
	cell := 512 / float64(side)
	scale := cell / float64(max(model.Canvas().Width, model.Canvas().Height))
	var g ebiten.GeoM
	g.Scale(scale, scale)
	g.Translate(float64(i%side)*cell, float64(i/side)*cell)
	return g
}

// frame draws the scene: through one Batch, or with one Draw per character.
func (s *benchScene) frame(update, each bool) {
	s.dst.Clear()
	for i, c := range s.chars {
		if update {
			c.Update(1.0 / 60)
		}
		if each {
			c.Draw(s.dst, &s.opts[i])
		} else {
			s.batch.Add(c, &s.opts[i])
		}
	}
	if !each {
		s.batch.Draw(s.dst)
	}
}

func (s *benchScene) dispose() {
	for _, c := range s.chars {
		c.Deallocate()
	}
	s.dst.Deallocate()
}

// runFrames runs f as one frame per benchmark iteration, timing only f:
// between iterations the game loop ends the frame, so Ebitengine flushes
// and recycles its command queue as in a game. Besides wall time it reports
// cpu-ns/op, the CPU time of the thread running f, and raster-cpu-ns/op,
// the CPU time llvmpipe's rasterizer threads ran meanwhile (rasterCPU,
// read just outside the timed span: it allocates): GPU work of the frames
// before, which shares the cores with f and shows as wall time above its
// CPU time.
func runFrames(b *testing.B, f func()) {
	b.StopTimer()
	b.ReportAllocs()
	for range 3 { // warm-up: pool pages, sub-images, atlas placement
		onGame(f)
	}
	b.ResetTimer() // drops the setup (model decoding, uploads)
	var cpu, raster time.Duration
	for range b.N {
		onGame(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			r0 := rasterCPU()
			b.StartTimer()
			t0 := cputime.Thread()
			f()
			cpu += cputime.Thread() - t0
			b.StopTimer()
			raster += rasterCPU() - r0
		})
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(raster.Nanoseconds())/float64(b.N), "raster-cpu-ns/op")
}

func benchmarkCharacters(b *testing.B, model *p2l.Model, n int, update, each bool) {
	var s *benchScene
	onGame(func() { s = newBenchScene(model, n) })
	defer onGame(s.dispose)
	before, replays := rd.drawCalls, counters.replays
	runFrames(b, func() { s.frame(update, each) })
	b.ReportMetric(float64(rd.drawCalls-before)/float64(b.N+3), "calls/frame")
	// Replayed draws (docs/EBITEN.md "Replay") per frame: all but the first
	// two warm-up frames without Update, none with it (blink and breath
	// move every character).
	b.ReportMetric(float64(counters.replays-replays)/float64(b.N+3), "replays/frame")
}

// BenchmarkFrame measures the CPU time of Update + Draw per frame for 1, 10
// and 100 characters of each model, drawn through one Batch; BenchmarkDraw
// the Draw part alone (the same frame again: replayed); BenchmarkDrawEach
// the Draw part with one Character.Draw per character (replayed too).
func BenchmarkFrame(b *testing.B) { benchmarkScenes(b, true, false) }

func BenchmarkDraw(b *testing.B) { benchmarkScenes(b, false, false) }

func BenchmarkDrawEach(b *testing.B) { benchmarkScenes(b, false, true) }

func benchmarkScenes(b *testing.B, update, each bool) {
	for _, bm := range benchModels(b) {
		for _, n := range []int{1, 10, 100} {
			b.Run(fmt.Sprint(bm.name, "/", n), func(b *testing.B) { benchmarkCharacters(b, bm.model, n, update, each) })
		}
	}
}

// BenchmarkFloor is the floor: the same vertices and indices as n
// characters of the scene (each character's meshes in draw order, placed
// as in the scene), prepared once and submitted with plain DrawTriangles
// calls of at most 65,536 vertices; BenchmarkFloorChunked the same in
// calls of at most chunkVertices whole characters' meshes (as Draw submits
// them; Ebitengine merges them into one command), so that the floor gets
// the same cache benefit. Read ratios against the lower of the two.
func BenchmarkFloor(b *testing.B) {
	for _, bm := range benchModels(b) {
		b.Run(bm.name, func(b *testing.B) { benchmarkFloor(b, bm.model, maxBatchVertices) })
	}
}

func BenchmarkFloorChunked(b *testing.B) {
	for _, bm := range benchModels(b) {
		b.Run(bm.name, func(b *testing.B) { benchmarkFloor(b, bm.model, chunkVertices) })
	}
}

func benchmarkFloor(b *testing.B, model *p2l.Model, chunk int) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var f *floorScene
			onGame(func() { f = newFloorScene(model, n, chunk) })
			defer onGame(f.dispose)
			runFrames(b, f.frame)
		})
	}
}

// floorScene is the floor of a scene of n characters: their meshes'
// vertices and indices in calls of whole meshes of at most chunk vertices,
// built once, drawn with plain DrawTriangles from a white page.
type floorScene struct {
	src, dst *ebiten.Image
	calls    [][]ebiten.Vertex
	callInds [][]uint16
	op       ebiten.DrawTrianglesOptions
}

func newFloorScene(model *p2l.Model, n, chunk int) *floorScene {
	rig := model.NewRig()
	rig.Evaluate()
	f := &floorScene{src: ebiten.NewImage(64, 64), dst: ebiten.NewImage(512, 512)}
	f.src.Fill(color.White)
	var verts []ebiten.Vertex
	var inds []uint16
	for i := range n {
		g := tileGeoM(model, n, i)
		for _, me := range floorCharacter(rig, g) {
			if len(verts) > 0 && len(verts)+len(me.verts) > chunk {
				f.calls, f.callInds = append(f.calls, verts), append(f.callInds, inds)
				verts, inds = nil, nil
			}
			for _, k := range me.inds {
				inds = append(inds, k+uint16(len(verts)))
			}
			verts = append(verts, me.verts...)
		}
	}
	f.calls, f.callInds = append(f.calls, verts), append(f.callInds, inds)
	return f
}

func (f *floorScene) frame() {
	f.dst.Clear()
	for i := range f.calls {
		f.dst.DrawTriangles(f.calls[i], f.callInds[i], f.src, &f.op)
	}
}

func (f *floorScene) dispose() { f.src.Deallocate(); f.dst.Deallocate() }

// rebuiltFloor is the floor of an animated crowd: every frame it rebuilds
// the vertices and indices of the crowd's characters as they are posed
// (each one's meshes in draw order through its GeoM, as floorCharacter
// does once) into reused slices and submits them with plain DrawTriangles
// calls of whole meshes of at most chunkVertices (Ebitengine merges them),
// from a white page. It is the least an animated frame does: no masks,
// blend modes, opacities, culling or bounds, only the moving vertices.
type rebuiltFloor struct {
	src, dst *ebiten.Image
	chars    []*Character
	geos     []ebiten.GeoM
	verts    []ebiten.Vertex
	inds     []uint16
	op       ebiten.DrawTrianglesOptions
}

func newRebuiltFloor(s *benchScene) *rebuiltFloor {
	f := &rebuiltFloor{src: ebiten.NewImage(64, 64), dst: ebiten.NewImage(512, 512), chars: s.chars}
	f.src.Fill(color.White)
	for i := range s.opts {
		f.geos = append(f.geos, s.opts[i].GeoM)
	}
	return f
}

func (f *rebuiltFloor) frame() {
	f.dst.Clear()
	f.verts, f.inds = f.verts[:0], f.inds[:0]
	for ci, c := range f.chars {
		rig := c.Rig()
		g := &f.geos[ci]
		a, b, cc, d := float32(g.Element(0, 0)), float32(g.Element(0, 1)), float32(g.Element(1, 0)), float32(g.Element(1, 1))
		tx, ty := float32(g.Element(0, 2)), float32(g.Element(1, 2))
		for _, mi := range rig.RenderOrder() {
			v, uv, idx := rig.Mesh(mi).Vertices(), rig.Mesh(mi).UVs(), rig.Mesh(mi).Indices()
			nv := len(v) / 2
			if len(f.verts)+nv > chunkVertices {
				f.submit()
			}
			base := len(f.verts)
			f.verts = slices.Grow(f.verts, nv)[:base+nv]
			out := f.verts[base:]
			v, uv = v[:2*nv], uv[:2*nv]
			for i := range out {
				x, y := v[2*i], v[2*i+1]
				o := &out[i] // stored field by field, as buildVertices does
				o.DstX, o.DstY = a*x+b*y+tx, cc*x+d*y+ty
				o.SrcX, o.SrcY = uv[2*i]*64, uv[2*i+1]*64
				o.ColorR, o.ColorG, o.ColorB, o.ColorA = 1, 1, 1, 1
			}
			l := len(f.inds)
			f.inds = slices.Grow(f.inds, len(idx))[:l+len(idx)]
			for j, k := range idx {
				f.inds[l+j] = uint16(k) + uint16(base)
			}
		}
	}
	f.submit()
}

func (f *rebuiltFloor) submit() {
	if len(f.inds) > 0 {
		f.dst.DrawTriangles(f.verts, f.inds, f.src, &f.op)
	}
	f.verts, f.inds = f.verts[:0], f.inds[:0]
}

func (f *rebuiltFloor) dispose() { f.src.Deallocate(); f.dst.Deallocate() }

// BenchmarkStillVsFloor measures a still crowd of 100 characters (the same
// Batch.Draw every frame: replayed, docs/EBITEN.md "Replay") and its two
// floors (BenchmarkFloor, BenchmarkFloorChunked) in alternating frames of
// one run, so that all three see the same load: it reports each one's
// thread CPU and wall time per frame and the draw's ratios to the lower
// floor (ratio-cpu, ratio-wall), which separate runs on a shared machine
// only approximate.
func BenchmarkStillVsFloor(b *testing.B) {
	for _, bm := range benchModels(b) {
		b.Run(bm.name+"/100", func(b *testing.B) { benchmarkVsFloor(b, bm.model, 100, false) })
	}
}

// BenchmarkMovingVsFloor is BenchmarkStillVsFloor for an animated crowd:
// before each of the draw's frames every character is updated (blink and
// breath move every one of them, so no frame is replayed: each is planned
// and built), outside the timed part; only Batch.Draw is timed, against
// the same floors in alternating frames, and against a third one that
// moves (rebuiltFloor: the crowd's posed vertices rebuilt every frame;
// ratio-cpu-rebuilt, ratio-wall-rebuilt).
func BenchmarkMovingVsFloor(b *testing.B) {
	for _, bm := range benchModels(b) {
		b.Run(bm.name+"/100", func(b *testing.B) { benchmarkVsFloor(b, bm.model, 100, true) })
	}
}

// benchmarkVsFloor times the draw of a crowd of n characters (moving:
// updated before each frame, untimed) and its two floors in alternating
// frames (see BenchmarkStillVsFloor).
//
// setup, when given, is called on each character first (an idle group, say).
func benchmarkVsFloor(b *testing.B, model *p2l.Model, n int, moving bool, setup ...func(*Character)) {
	v := newVsFloor(model, n)
	defer v.dispose()
	s, frames := v.scene, v.frames()
	onGame(func() {
		for _, c := range s.chars {
			for _, f := range setup {
				f(c)
			}
		}
	})
	if moving {
		var rf *rebuiltFloor
		onGame(func() { rf = newRebuiltFloor(s) })
		defer onGame(rf.dispose)
		frames = append(frames, rf.frame)
	}
	var cpu, wall [4]time.Duration
	var updCPU time.Duration
	// run runs frames[k] as one frame (a moving crowd updated first,
	// outside the frame's timing: its thread CPU goes to updCPU) and, when
	// timed, adds its thread CPU and wall time to k's.
	run := func(k int, timed bool) {
		onGame(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if k == 0 && moving {
				u0 := cputime.Thread()
				for _, c := range s.chars {
					c.Update(1.0 / 60)
				}
				if timed {
					updCPU += cputime.Thread() - u0
				}
			}
			t0, c0 := time.Now(), cputime.Thread()
			frames[k]()
			if timed {
				cpu[k] += cputime.Thread() - c0
				wall[k] += time.Since(t0)
			}
		})
	}
	for range 3 { // warm-up: a still draw's third frame is its first replay
		for k := range frames {
			run(k, false)
		}
	}
	replays, calls := counters.replays, rd.drawCalls
	b.ResetTimer()
	for i := range b.N {
		for j := range frames {
			run((i+j)%len(frames), true) // rotate which goes first
		}
	}
	b.StopTimer()
	want := b.N
	if moving {
		want = 0
	}
	if counters.replays-replays != want {
		b.Errorf("%d of %d draws replayed, want %d", counters.replays-replays, b.N, want)
	}
	b.ReportMetric(float64(rd.drawCalls-calls)/float64(b.N), "calls/frame") // the floors' plain DrawTriangles are not counted
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	b.ReportMetric(per(cpu[0]), "draw-cpu-ns/op")
	b.ReportMetric(per(min(cpu[1], cpu[2])), "floor-cpu-ns/op")
	b.ReportMetric(per(cpu[0])/per(min(cpu[1], cpu[2])), "ratio-cpu")
	if moving {
		// What the draw's work done in Update costs there (Character.Update
		// keeps the canvas boxes, vcache.go).
		b.ReportMetric(per(updCPU), "update-cpu-ns/op")
	}
	b.ReportMetric(per(wall[0]), "draw-wall-ns/op")
	b.ReportMetric(per(min(wall[1], wall[2])), "floor-wall-ns/op")
	b.ReportMetric(per(wall[0])/per(min(wall[1], wall[2])), "ratio-wall")
	if moving {
		b.ReportMetric(per(cpu[3]), "rebuilt-cpu-ns/op")
		b.ReportMetric(per(cpu[0])/per(cpu[3]), "ratio-cpu-rebuilt")
		b.ReportMetric(per(wall[3]), "rebuilt-wall-ns/op")
		b.ReportMetric(per(wall[0])/per(wall[3]), "ratio-wall-rebuilt")
	}
}

type floorMesh struct {
	verts []ebiten.Vertex
	inds  []uint16
}

// floorCharacter returns the vertices and indices of rig's meshes in draw
// order through g.
func floorCharacter(rig *p2l.Rig, g ebiten.GeoM) []floorMesh {
	var ms []floorMesh
	for _, mi := range rig.RenderOrder() {
		var me floorMesh
		v, uv := rig.Mesh(mi).Vertices(), rig.Mesh(mi).UVs()
		for i := 0; i+1 < len(v); i += 2 {
			x, y := g.Apply(float64(v[i]), float64(v[i+1]))
			me.verts = append(me.verts, ebiten.Vertex{DstX: float32(x), DstY: float32(y), SrcX: uv[i] * 64, SrcY: uv[i+1] * 64, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1})
		}
		for _, k := range rig.Mesh(mi).Indices() {
			me.inds = append(me.inds, uint16(k))
		}
		ms = append(ms, me)
	}
	return ms
}

// BenchmarkEmitMesh measures building the vertices and indices of every
// drawn mesh of one character (emitMesh) without submitting them, per
// vertex of thread CPU ("build"), and its floor ("copy"): copying the same
// vertices and indices from prepared slices. Everything stays in the CPU's
// caches here; at 100 characters memory traffic adds to both.
func BenchmarkEmitMesh(b *testing.B) {
	for _, bm := range benchModels(b) {
		for _, mode := range []string{"build", "copy"} {
			b.Run(bm.name+"/"+mode, func(b *testing.B) { benchmarkEmitMesh(b, bm.model, mode) })
		}
	}
}

func benchmarkEmitMesh(b *testing.B, model *p2l.Model, mode string) {
	var c *Character
	onGame(func() { c = NewCharacter(model) })
	defer onGame(c.Deallocate)
	r := &renderer{}
	r.dstB = image.Rect(0, 0, 512, 512)
	r.stamp = 1
	r.chars = make([]charPlan, 1)
	e := entry{c: c, opts: DrawOptions{GeoM: tileGeoM(model, 1, 0)}}
	if !r.planChar(0, &e) {
		b.Fatal("nothing visible")
	}
	cp := &r.chars[0]
	var meshes []int
	nv := 0
	for _, it := range cp.items {
		if it.mesh >= 0 {
			meshes = append(meshes, int(it.mesh))
			nv += len(cp.rig.MeshVertices(int(it.mesh))) / 2
		}
	}
	col := [8]float32{1, 1, 1, 1, 0, 0, 0, 0}
	emit := func() {
		for _, mi := range meshes {
			r.emitMesh(cp, mi, image.Point{}, col, false)
		}
		r.flush() // no call: discards
	}
	if mode == "copy" {
		var verts [][]ebiten.Vertex
		var inds [][]uint16
		for _, mi := range meshes {
			r.emitMesh(cp, mi, image.Point{}, col, false)
			verts = append(verts, slices.Clone(r.verts))
			inds = append(inds, slices.Clone(r.inds))
			r.flush()
		}
		emit = func() {
			for k := range meshes {
				if len(r.verts)+len(verts[k]) > chunkVertices {
					r.flush()
				}
				base := uint16(len(r.verts))
				r.verts = append(r.verts, verts[k]...)
				l := len(r.inds)
				r.inds = slices.Grow(r.inds, len(inds[k]))[:l+len(inds[k])]
				for j, x := range inds[k] {
					r.inds[l+j] = x + base
				}
			}
			r.flush()
		}
	}
	emit()
	emit()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	t0 := cputime.Thread()
	for range b.N {
		emit()
	}
	cpu := cputime.Thread() - t0
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*nv), "cpu-ns/vertex")
}

// BenchmarkPlanOps times the first phases of an animated crowd's frame
// alone, without drawing: plan and layout (plan-cpu-ns/op), then ops and
// batching (ops-cpu-ns/op), of 100 characters updated before each frame
// (untimed; their positions then leave the CPU's caches as in a game). It
// isolates the work the drawable does beyond the floors, which
// BenchmarkMovingVsFloor only shows inside a whole frame.
func BenchmarkPlanOps(b *testing.B) {
	for _, bm := range benchModels(b) {
		b.Run(bm.name+"/100", func(b *testing.B) {
			var s *benchScene
			onGame(func() { s = newBenchScene(bm.model, 100) })
			defer onGame(s.dispose)
			entries := make([]entry, len(s.chars))
			for i, c := range s.chars {
				entries[i] = entry{c: c, opts: s.opts[i]}
			}
			var plan, ops time.Duration
			onGame(func() {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				r := &rd
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					for _, c := range s.chars {
						c.Update(1.0 / 60)
					}
					b.StartTimer()
					t0 := cputime.Thread()
					ok := r.plan(s.dst, entries)
					t1 := cputime.Thread()
					if ok {
						r.buildOps(len(entries))
					}
					ops += cputime.Thread() - t1
					plan += t1 - t0
					r.release(len(entries))
				}
			})
			b.ReportMetric(float64(plan.Nanoseconds())/float64(b.N), "plan-cpu-ns/op")
			b.ReportMetric(float64(ops.Nanoseconds())/float64(b.N), "ops-cpu-ns/op")
		})
	}
}
