package ebitenp2l

import (
	"image/color"
	"runtime"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
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
				m := s.quad(pg, float32(i), 0, float32(i)+10, 10, p2l.Mesh{})
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
				m := s.quad([]int{a, a, b, a}[i], 0, 0, 10, 10, p2l.Mesh{})
				s.pose.cmds = append(s.pose.cmds, mesh(m))
			}
			c := s.character(t)
			if n := calls(func() { c.Draw(dst, nil) }); n != 3 {
				t.Errorf("pages a a b a: %d calls, want 3", n)
			}
		})
	})
	t.Run("blend state", func(t *testing.T) {
		onGame(func() {
			s := newScene(64, 64)
			pg := s.page(red)
			for _, b := range []p2l.BlendMode{p2l.BlendNormal, p2l.BlendAddCompatible, p2l.BlendAddCompatible, p2l.BlendNormal} {
				m := s.quad(pg, 0, 0, 10, 10, p2l.Mesh{Blend: b})
				s.pose.cmds = append(s.pose.cmds, mesh(m))
			}
			c := s.character(t)
			if n := calls(func() { c.Draw(dst, nil) }); n != 3 {
				t.Errorf("normal, add, add, normal: %d calls, want 3", n)
			}
		})
	})
	t.Run("masks", func(t *testing.T) {
		onGame(func() {
			s := newScene(64, 64)
			pg := s.page(red)
			mk := s.quad(pg, 0, 0, 10, 10, p2l.Mesh{})
			s.pose.cmds = append(s.pose.cmds, mesh(mk))
			for i := range 3 {
				m := s.quad(pg, 0, 0, 10, 10, p2l.Mesh{Masks: []int{mk}, Flags: p2l.MeshFlags(i & 1)})
				s.pose.cmds = append(s.pose.cmds, mesh(m))
			}
			c := s.character(t)
			// Coverage: clear + one draw; main: the mask mesh, then the three
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
			screen := p2l.Mesh{Blend: p2l.BlendScreen}
			// Two disjoint Screen meshes share one copy and one draw; the
			// third overlaps the second, so it needs a fresh copy.
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
			// Screen of (0.5, 1, 0.5) over black, then over itself:
			// 0.5 + 0.5 − 0.25 = 0.75 where b and c overlap.
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
				m := s.quad(pg, 0, 0, 10, 10, p2l.Mesh{})
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
	mk := s.quad(pg, 0, 0, 20, 20, p2l.Mesh{})
	a := s.quad(pg, 5, 5, 30, 30, p2l.Mesh{Masks: []int{mk}})
	b := s.quad(pg, 10, 10, 40, 40, p2l.Mesh{Blend: p2l.BlendOverlay, AlphaBlend: p2l.AlphaAtop})
	g := s.part()
	s.pose.comps[g] = p2l.Composite{Opacity: 0.7, Multiply: p2l.White, Blend: p2l.BlendScreen}
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
	onGame(func() { s = newBenchScene(synth.Character(1), 3) })
	defer onGame(s.dispose)
	if n := ownAllocs(10, func() { s.frame(true) }); n != 0 {
		t.Errorf("allocations per frame: %v, want 0", n)
	}
}
