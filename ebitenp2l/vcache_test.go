package ebitenp2l

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// TestVertexCache draws one character through a sequence of frames in
// which its pose, GeoM and ColorScale change (several evaluations between
// two draws among them), and requires every frame to be bit-identical to
// the first draw of a new character in the same state, which has nothing
// cached yet. Repeated frames must take index lists from the cache.
func TestVertexCache(t *testing.T) {
	for _, m := range benchModels(t) {
		t.Run(m.name, func(t *testing.T) { onGame(func() { checkVertexCache(t, m.model) }) })
	}
}

func checkVertexCache(t *testing.T, model *p2l.Model) {
	poses := parityPoses(model)
	c := NewCharacter(model)
	defer c.Deallocate()
	c.Rig().SetBehaviors(0)
	var opts DrawOptions
	scale := 300 / float64(max(model.Canvas().Width, model.Canvas().Height))
	opts.GeoM.Scale(scale, scale)
	opts.GeoM.Translate(10, 10)
	pose := 0
	dst := blackImage(320, 320)
	defer dst.Deallocate()

	// frame draws c and a new character in c's state and compares them; it
	// returns the cache hits of c's draw.
	frame := func(what string) int {
		dst.Clear()
		hits := counters.cacheHits
		c.rec.reset() // the frame is planned and built, not replayed (replay_test.go checks replays)
		c.Draw(dst, &opts)
		hits = counters.cacheHits - hits
		got := pixels(dst)

		fresh := NewCharacter(model)
		defer fresh.Deallocate()
		fresh.Rig().SetParameterValues(poses[pose])
		fresh.Rig().Evaluate()
		dst.Clear()
		fresh.Draw(dst, &opts)
		if want := pixels(dst); !bytes.Equal(got, want) {
			d, at, _ := maxDiff(got, want, 320, func(int, int) bool { return false })
			t.Errorf("%s: the cached character differs from a new one by up to %d/255 at %v", what, d, at)
		}
		return hits
	}
	set := func(p int) {
		pose = p
		c.Rig().SetParameterValues(poses[p])
		c.Rig().Evaluate()
	}

	set(0)
	frame("first draw")
	frame("second draw")
	if h := frame("third draw"); h == 0 {
		t.Error("third identical draw: no index list came from the cache")
	}
	set(1)
	frame("new pose")
	// Several evaluations between two draws, ending on the pose drawn last.
	set(2)
	set(1)
	frame("two evaluations, same pose")
	frame("again")
	if h := frame("again, cached"); h == 0 {
		t.Error("repeated draw after the pose changes: no cache hit")
	}
	opts.GeoM.Translate(0.5, 0.25)
	frame("moved by a fraction of a pixel")
	frame("moved, again")
	frame("moved, cached")
	opts.ColorScale.Scale(0.5, 1, 1, 0.75)
	frame("new ColorScale")
	frame("new ColorScale, again")
	frame("new ColorScale, cached")
	opts.Filter = FilterNearest
	frame("nearest filter")
	set(0)
	frame("first pose again")
	frame("first pose, cached")
}

// revPose is a hand-made pose with mesh revisions, as *p2l.Rig has.
type revPose struct {
	*fakePose
	revs []uint64
}

func (p *revPose) MeshRevision(i int) uint64 { return p.revs[i] }

// TestCulledIndicesFollowRevisions: a culled mesh's kept index list is
// rebuilt when its revision moves (its faces turn with its vertices), and
// kept while it does not.
func TestCulledIndicesFollowRevisions(t *testing.T) {
	onGame(func() {
		s := newScene(10, 10)
		white := s.page(solid(color.NRGBA{255, 255, 255, 255}))
		m := s.quad(white, 0, 0, 10, 10, p2lrt.Mesh{Flags: p2lrt.MeshCulling})
		// As TestCulling: triangle 0 is a back face, triangle 1 a front face.
		s.pose.idx[m] = []uint32{0, 1, 2, 1, 2, 3}
		s.pose.cmds = []p2l.RenderCommand{mesh(m)}
		rp := &revPose{fakePose: &s.pose, revs: []uint64{1}}
		opts := &Options{Textures: texture.Options{Resolve: func(i int, _ *p2lrt.TexturePage) (image.Image, error) {
			return s.pages[i], nil
		}}}
		model, err := p2l.NewModel(&s.model)
		if err != nil {
			t.Fatal(err)
		}
		c := newCharacter(model, opts, nil, rp)
		defer c.Deallocate()
		dst := blackImage(10, 10)
		defer dst.Deallocate()
		c.Draw(dst, nil)
		check(t, pixels(dst), 10, 2, 2, [4]float64{0, 0, 0, 1}, 0, "back face")
		check(t, pixels(dst), 10, 8, 8, [4]float64{1, 1, 1, 1}, 0, "front face")
		// Mirror the quad left to right: the faces swap.
		v := s.pose.verts[m]
		for i := 0; i < len(v); i += 2 {
			v[i] = 10 - v[i]
		}
		rp.revs[m]++
		dst.Fill(color.Black)
		c.Draw(dst, nil)
		check(t, pixels(dst), 10, 8, 2, [4]float64{1, 1, 1, 1}, 0, "mirrored: the former back face, now in front")
		check(t, pixels(dst), 10, 2, 8, [4]float64{0, 0, 0, 1}, 0, "mirrored: the former front face, now culled")
	})
}

// TestRebase checks rebase's four-lane additions against adding one index
// at a time, at every length and alignment of a short slice and with sums
// up to 65,535 in every lane.
func TestRebase(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]uint16, 64)
	out := make([]uint16, 64)
	for _, base := range []uint16{0, 1, 300, 65535 - 40, 65535} {
		for start := range 4 {
			for n := 0; start+n <= 40; n++ {
				src := buf[start : start+n]
				for j := range src {
					src[j] = uint16(rng.IntN(int(65535-base) + 1))
				}
				if n > 0 && base < 65535 {
					src[n-1] = 65535 - base // the largest sum, in the last lane
				}
				dst := out[(start+1)%4 : (start+1)%4+n]
				rebase(dst, src, base)
				for j := range src {
					if dst[j] != src[j]+base {
						t.Fatalf("base %d, start %d, n %d: dst[%d] = %d, want %d", base, start, n, j, dst[j], src[j]+base)
					}
				}
			}
		}
	}
}

// TestBoxOf checks boxOf against one pass of comparisons: odd and even
// counts of points, and a NaN anywhere making the box NaN.
func TestBoxOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n < 12; n++ {
		v := make([]float32, 2*n)
		for j := range v {
			v[j] = float32(rng.NormFloat64() * 100)
		}
		want := [4]float32{v[0], v[1], v[0], v[1]}
		for i := 0; i < n; i++ {
			x, y := v[2*i], v[2*i+1]
			if x < want[0] {
				want[0] = x
			}
			if x > want[2] {
				want[2] = x
			}
			if y < want[1] {
				want[1] = y
			}
			if y > want[3] {
				want[3] = y
			}
		}
		if got := boxOf(append(v, 7)); got != want { // a lone coordinate is not a point
			t.Errorf("%d points: %v, want %v", n, got, want)
		}
		for j := range v {
			w := slices.Clone(v)
			w[j] = float32(math.NaN())
			b := boxOf(w)
			if c := j % 2; !math.IsNaN(float64(b[c])) || !math.IsNaN(float64(b[c+2])) {
				t.Errorf("%d points, NaN at %d: %v", n, j, b)
			}
		}
	}
}

// TestUpdateKeepsBoxes requires Character.Update and UpdateStages to leave
// the canvas box of every mesh the evaluation drew current: kept for the
// mesh's present revision and equal to the box of its vertices computed
// here point by point (NaN for fewer than three points or a NaN), so that
// the draw computes none (Character.keepBoxes). Blink and breath move
// meshes between the updates, so stale boxes would show.
func TestUpdateKeepsBoxes(t *testing.T) {
	for _, m := range benchModels(t) {
		t.Run(m.name, func(t *testing.T) {
			onGame(func() {
				c := NewCharacter(m.model)
				defer c.Deallocate()
				rig := c.Rig()
				dst := blackImage(64, 64)
				defer dst.Deallocate()
				c.Draw(dst, nil) // boxes of the first evaluation, from the draw
				moved := 0
				for step := range 40 {
					before := make([]uint64, m.model.Meshes().Len())
					for mi := range before {
						before[mi] = rig.Mesh(mi).Revision()
					}
					if step%2 == 0 {
						c.Update(0.1)
					} else {
						c.UpdateStages(0.1, p2l.AllStages&^p2l.StagePhysics)
					}
					for mi := range m.model.Meshes().Len() {
						if rig.Mesh(mi).Changes()&p2l.MeshDrawn == 0 {
							continue
						}
						rev := rig.Mesh(mi).Revision()
						if rev != before[mi] {
							moved++
						}
						want := pointBox(rig.Mesh(mi).Vertices())
						if mi >= len(c.vc.bb) {
							t.Fatalf("step %d: no box kept for mesh %d", step, mi)
						}
						if c.vc.bbRev[mi] != rev || !sameBox(c.vc.bb[mi], want) {
							t.Fatalf("step %d, mesh %d: box %v for revision %d, want %v for %d", step, mi, c.vc.bb[mi], c.vc.bbRev[mi], want, rev)
						}
					}
				}
				if moved == 0 {
					t.Fatal("no drawn mesh moved: the test checks nothing")
				}
			})
		})
	}
}

// pointBox is the box x0, y0, x1, y1 of the points of v, one at a time.
func pointBox(v []float32) [4]float32 {
	nan := float32(math.NaN())
	if len(v) < 6 {
		return [4]float32{nan, nan, nan, nan}
	}
	b := [4]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	for i := 0; i+1 < len(v); i += 2 {
		x, y := v[i], v[i+1]
		if x != x || y != y {
			return [4]float32{nan, nan, nan, nan}
		}
		b[0], b[1] = min(b[0], x), min(b[1], y)
		b[2], b[3] = max(b[2], x), max(b[3], y)
	}
	return b
}

// sameBox reports whether a and b are equal, NaN matching NaN.
func sameBox(a, b [4]float32) bool {
	for i := range a {
		if a[i] != b[i] && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return true
}
