package ebitenp2l

import (
	"image"
	"image/color"
	"runtime"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// calls returns the DrawTrianglesShader calls made by f.
func calls(f func()) int {
	before := rd.drawCalls
	f()
	return rd.drawCalls - before
}

// TestBatching checks the batching rules on hand-made scenes.
func TestBatching(t *testing.T) {
	var dst *ebiten.Image
	onGame(func() { dst = blackImage(64, 64) })
	defer onGame(dst.Deallocate)
	red := solid(color.NRGBA{255, 0, 0, 255})
	t.Run("same page", func(t *testing.T) {
		onGame(func() {
			s := newScene(64, 64)
			pg := s.page(red)
			for i := range 6 {
				m := s.quad(pg, float32(i), 0, float32(i)+10, 10, p2lrt.Mesh{})
				s.pose.cmds = append(s.pose.cmds, mesh(m))
			}
			c := s.character(t)
			if n := calls(func() { c.Draw(dst, nil) }); n != 1 {
				t.Errorf("six normal meshes on one page: %d calls, want 1", n)
			}
			if n := c.DrawCalls(); n != 1 {
				t.Errorf("DrawCalls() = %d after one batched draw, want 1", n)
			}
		})
	})
	t.Run("alternating pages", func(t *testing.T) {
		onGame(func() {
			s := newScene(64, 64)
			a, b := s.page(red), s.page(solid(color.NRGBA{0, 0, 255, 255}))
			for i := range 4 {
				m := s.quad([]int{a, a, b, a}[i], 0, 0, 10, 10, p2lrt.Mesh{})
				s.pose.cmds = append(s.pose.cmds, mesh(m))
			}
			c := s.character(t)
			// A model's pages are packed into one image.
			if n := calls(func() { c.Draw(dst, nil) }); n != 1 {
				t.Errorf("pages a a b a: %d calls, want 1", n)
			}
		})
	})
	t.Run("blend state", func(t *testing.T) {
		onGame(func() {
			s := newScene(64, 64)
			pg := s.page(red)
			// Overlapping: the order must stay, so the blends split the
			// calls, except that AddCompatible shares Normal's blend.
			for _, b := range []p2lrt.BlendMode{p2lrt.BlendNormal, p2lrt.BlendAddCompatible, p2lrt.BlendMultiplyCompatible, p2lrt.BlendMultiplyCompatible, p2lrt.BlendNormal} {
				m := s.quad(pg, 0, 0, 10, 10, p2lrt.Mesh{Blend: b})
				s.pose.cmds = append(s.pose.cmds, mesh(m))
			}
			c := s.character(t)
			if n := calls(func() { c.Draw(dst, nil) }); n != 3 {
				t.Errorf("normal, add, multiply, multiply, normal (overlapping): %d calls, want 3", n)
			}
		})
	})
	t.Run("reordering", func(t *testing.T) {
		onGame(func() {
			s := newScene(64, 64)
			pg := s.page(red)
			// normal A, multiply B over A, normal C beside both: C joins A's
			// call (it overlaps nothing drawn since), so two calls.
			a := s.quad(pg, 0, 0, 10, 10, p2lrt.Mesh{})
			b := s.quad(pg, 5, 0, 15, 10, p2lrt.Mesh{Blend: p2lrt.BlendMultiplyCompatible})
			c := s.quad(pg, 20, 0, 30, 10, p2lrt.Mesh{})
			d := s.quad(pg, 12, 0, 22, 10, p2lrt.Mesh{}) // over B and C: a third call
			s.pose.cmds = []p2l.RenderCommand{mesh(a), mesh(b), mesh(c)}
			ch := s.character(t)
			if n := calls(func() { ch.Draw(dst, nil) }); n != 2 {
				t.Errorf("normal, multiply over it, normal beside: %d calls, want 2", n)
			}
			s.pose.cmds = append(s.pose.cmds, mesh(d))
			if n := calls(func() { ch.Draw(dst, nil) }); n != 3 {
				t.Errorf("… then normal over the multiply: %d calls, want 3", n)
			}
		})
	})
	t.Run("masks", func(t *testing.T) {
		onGame(func() {
			s := newScene(64, 64)
			pg := s.page(red)
			mk := s.quad(pg, 0, 0, 10, 10, p2lrt.Mesh{})
			s.pose.cmds = append(s.pose.cmds, mesh(mk))
			for i := range 3 {
				m := s.quad(pg, 0, 0, 10, 10, p2lrt.Mesh{Masks: []int{mk}, Flags: p2lrt.MeshFlags(i & 1)})
				s.pose.cmds = append(s.pose.cmds, mesh(m))
			}
			c := s.character(t)
			// Coverage: clear + one draw; main: the mask mesh and the three
			// masked meshes (normal and inverted share the coverage) in one.
			if n := calls(func() { c.Draw(dst, nil) }); n != 3 {
				t.Errorf("three meshes masked by one set: %d DrawTrianglesShader calls, want 3", n)
			}
		})
	})
	t.Run("backdrop", func(t *testing.T) {
		onGame(func() {
			s := newScene(64, 64)
			pg := s.page(solid(color.NRGBA{128, 255, 128, 255}))
			screen := p2lrt.Mesh{Blend: p2lrt.BlendScreen, AlphaBlend: p2lrt.AlphaAtop}
			// Two disjoint Screen+Atop meshes (which read the backdrop) share
			// one copy and one draw; the third overlaps the second, so it
			// needs a fresh copy.
			a := s.quad(pg, 0, 0, 10, 10, screen)
			b := s.quad(pg, 20, 0, 30, 10, screen)
			c := s.quad(pg, 25, 0, 35, 10, screen)
			s.pose.cmds = []p2l.RenderCommand{mesh(a), mesh(b), mesh(c)}
			ch := s.character(t)
			d := blackImage(64, 64)
			defer d.Deallocate()
			if n := calls(func() { ch.Draw(d, nil) }); n != 4 {
				t.Errorf("disjoint, disjoint, overlapping backdrop meshes: %d calls, want 4", n)
			}
			p := pixels(d)
			// Screen of (0.5, 1, 0.5) over opaque black, then over itself:
			// 0.5 + 0.5 − 0.25 = 0.75 where b and c overlap (Atop over an
			// opaque backdrop is Over).
			h := 128.0 / 255
			check(t, p, 64, 5, 5, [4]float64{h, 1, h, 1}, 1.5/255, "a")
			check(t, p, 64, 22, 5, [4]float64{h, 1, h, 1}, 1.5/255, "b")
			check(t, p, 64, 27, 5, [4]float64{2*h - h*h, 1, 2*h - h*h, 1}, 1.5/255, "c over b")
			check(t, p, 64, 32, 5, [4]float64{h, 1, h, 1}, 1.5/255, "c")
		})
	})
	t.Run("ten characters", func(t *testing.T) {
		onGame(func() {
			s := newScene(64, 64)
			pg := s.page(red)
			for range 5 {
				m := s.quad(pg, 0, 0, 10, 10, p2lrt.Mesh{})
				s.pose.cmds = append(s.pose.cmds, mesh(m))
			}
			var cs []*Character
			for range 10 {
				cs = append(cs, s.character(t))
			}
			// One call per character; Ebitengine then merges the ten calls into
			// one command, since shader, page, target, blend and (absent)
			// uniforms are equal.
			n := calls(func() {
				for i, c := range cs {
					var o DrawOptions
					o.GeoM.Translate(float64(i), 0)
					c.Draw(dst, &o)
				}
			})
			if n != 10 {
				t.Errorf("ten characters: %d calls, want 10", n)
			}
			// In a Batch they share one call.
			var b Batch
			for i, c := range cs {
				var o DrawOptions
				o.GeoM.Translate(float64(i), 0)
				b.Add(c, &o)
			}
			if n := calls(func() { b.Draw(dst) }); n != 1 || b.DrawCalls() != 1 {
				t.Errorf("ten characters in a Batch: %d calls (DrawCalls %d), want 1", n, b.DrawCalls())
			}
		})
	})
}

// ownAllocs runs f in n consecutive frames (after two warm-up frames) and
// returns the heap allocations made per frame by this package's non-test
// code: allocation sites are attributed to the first non-runtime function
// of their stack, through the memory profiler at full rate. Ebitengine's
// own allocations are not counted: v2.8.8 allocates one small slice for
// every command it cannot merge (internal/graphicscommand/commandqueue.go,
// c.dstRegions), which no caller can avoid.
func ownAllocs(n int, f func()) float64 {
	for range 2 {
		onGame(f)
	}
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	before := ownProfiled()
	for range n {
		onGame(f)
	}
	return float64(ownProfiled()-before) / float64(n)
}

func ownProfiled() int64 {
	runtime.GC()
	runtime.GC() // the profile is as of the last completed collection
	recs := make([]runtime.MemProfileRecord, 4096)
	k, ok := runtime.MemProfile(recs, true)
	for !ok {
		recs = make([]runtime.MemProfileRecord, k+1024)
		k, ok = runtime.MemProfile(recs, true)
	}
	var total int64
	for _, r := range recs[:k] {
		frames := runtime.CallersFrames(r.Stack())
		for {
			fr, more := frames.Next()
			if strings.HasPrefix(fr.Function, "runtime.") {
				if !more {
					break
				}
				continue
			}
			if strings.HasPrefix(fr.Function, "github.com/psd2live/p2l-ebiten/ebitenp2l.") && !strings.HasSuffix(fr.File, "_test.go") {
				total += r.AllocObjects
			}
			break
		}
	}
	return total
}

// TestDrawAllocs: a steady frame with masks, groups and backdrop-reading
// modes makes no allocation in this package.
func TestDrawAllocs(t *testing.T) {
	s := newScene(40, 40)
	pg := s.page(solid(color.NRGBA{200, 100, 50, 200}))
	mk := s.quad(pg, 0, 0, 20, 20, p2lrt.Mesh{})
	a := s.quad(pg, 5, 5, 30, 30, p2lrt.Mesh{Masks: []int{mk}})
	b := s.quad(pg, 10, 10, 40, 40, p2lrt.Mesh{Blend: p2lrt.BlendOverlay, AlphaBlend: p2lrt.AlphaAtop})
	g := s.part()
	s.pose.comps[g] = p2lrt.Composite{Opacity: 0.7, Multiply: p2lrt.White, Blend: p2lrt.BlendScreen}
	s.pose.cmds = []p2l.RenderCommand{mesh(mk), p2l.OpenGroup(g), mesh(a), mesh(b), p2l.CloseGroup, mesh(b)}
	var c *Character
	var dst *ebiten.Image
	onGame(func() {
		c = s.character(t)
		dst = blackImage(64, 64)
	})
	defer onGame(dst.Deallocate)
	var o DrawOptions
	if n := ownAllocs(50, func() {
		o.GeoM.Translate(0.25, 0)
		c.Draw(dst, &o)
	}); n != 0 {
		t.Errorf("allocations per Draw: %v, want 0", n)
	}
}

// TestSynthFrameAllocs: steady frames of three character-scale synthetic
// characters (Update + Draw, as BenchmarkFrame runs them) make no
// allocation in this package.
func TestSynthFrameAllocs(t *testing.T) {
	var s *benchScene
	onGame(func() { s = newBenchScene(synth.MustModel(synth.Character(1)), 3) })
	defer onGame(s.dispose)
	if n := ownAllocs(10, func() { s.frame(true, false) }); n != 0 {
		t.Errorf("allocations per frame: %v, want 0", n)
	}
}

// TestBatchMatchesDraws: a Batch gives the pixels of the same characters
// drawn one by one, while it reorders and merges their draws: characters
// of two models side by side, overlapping each other, partly off the
// target (their groups then take clipped layers), with a ColorScale and
// nearest filtering, all with masks, isolated groups and backdrop reads.
func TestBatchMatchesDraws(t *testing.T) {
	def, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	models := []*p2l.Model{synth.MustModel(synth.Character(1)), def}
	type placed struct {
		model int
		x, y  float64
		scale float64
		cs    [4]float32
		near  bool
	}
	scene := []placed{
		{0, 0, 0, 0.25, [4]float32{1, 1, 1, 1}, false},
		{1, 260, 0, 0.2, [4]float32{1, 1, 1, 1}, false},
		{0, 120, 60, 0.25, [4]float32{1, 0.5, 1, 0.8}, false}, // overlaps the first two
		{1, 300, 40, 0.2, [4]float32{1, 1, 1, 1}, true},       // overlaps the second
		{0, -150, 300, 0.5, [4]float32{1, 1, 1, 1}, false},    // mostly off the target
		{1, 380, 300, 0.3, [4]float32{1, 1, 1, 1}, false},     // partly off the target
		{0, 300, 260, 0.2, [4]float32{1, 1, 1, 1}, false},
	}
	var seq, bat []byte
	var n1, n2 int
	onGame(func() {
		var cs []*Character
		var opts []DrawOptions
		for _, p := range scene {
			c := NewCharacter(models[p.model])
			defer c.Deallocate()
			var o DrawOptions
			o.GeoM.Scale(p.scale, p.scale)
			o.GeoM.Translate(p.x, p.y)
			o.ColorScale.Scale(p.cs[0], p.cs[1], p.cs[2], p.cs[3])
			if p.near {
				o.Filter = FilterNearest
			}
			cs = append(cs, c)
			opts = append(opts, o)
		}
		a, b := blackImage(480, 400), blackImage(480, 400)
		defer a.Deallocate()
		defer b.Deallocate()
		n1 = calls(func() {
			for i, c := range cs {
				c.Draw(a, &opts[i])
			}
		})
		var batch Batch
		for i, c := range cs {
			batch.Add(c, &opts[i])
		}
		n2 = calls(func() { batch.Draw(b) })
		seq, bat = pixels(a), pixels(b)
	})
	// Top-level draws land on the same pixels bit for bit; group layers sit
	// at other places of their page in the two frames, and a vertex moved
	// by a whole number of pixels can round differently in float32, which
	// moves a bilinear weight by ~1e-7: rarely a 1/255 step, which later
	// Overlay or Multiply steps can double. A reordering error shows as
	// whole areas far off.
	d, at, _ := maxDiff(bat, seq, 480, func(int, int) bool { return false })
	differ := 0
	for i := range bat {
		if bat[i] != seq[i] {
			differ++
		}
	}
	if d > 2 || differ > len(bat)/1000 {
		t.Errorf("Batch and one Draw per character differ by up to %d/255 (at %v), %d channels differ", d, at, differ)
		if *dumpParity != "" {
			w := image.NewRGBA(image.Rect(0, 0, 480, 400))
			copy(w.Pix, seq)
			dump(t, "batch", bat, w)
		}
	}
	if n2 >= n1 {
		t.Errorf("Batch: %d calls, not fewer than one Draw per character (%d)", n2, n1)
	}
	t.Logf("%d characters: %d calls drawn one by one, %d in a Batch; pixels differ by up to %d/255 (%d of %d channels)", len(scene), n1, n2, d, differ, len(bat))
}
