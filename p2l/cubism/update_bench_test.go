package cubism

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/psd2live/p2l-ebiten/internal/cputime"
	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/internal/evalfloor"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// playingSample loads a sample bundle and returns a rig playing it as a
// game does: its idle group (idleGroup) as the idle group (a clip of it at
// a time, another at random when one ends), blink and breath on, its
// physics and pose running, after warm frames of dt.
func playingSample(tb testing.TB, name string, warm int, dt float64) (*p2l.Model, *p2l.Rig) {
	tb.Helper()
	m, _, err := Load(os.DirFS(filepath.Dir(cubismsamples.Model(tb, name))), name+".model3.json")
	if err != nil {
		tb.Fatal(err)
	}
	r := m.NewRig()
	if err := r.SetIdleGroup(idleGroup(m)); err != nil {
		tb.Fatal(err)
	}
	r.SetBehaviors(p2l.DefaultBehaviors)
	for range warm {
		r.Update(dt)
	}
	if err := r.Err(); err != nil {
		tb.Fatal(err)
	}
	return m, r
}

// idleGroup is the group a sample idles with: "Idle" (the five shared
// samples), else the first named group of its clips, else "" (none: the
// Kei samples of Live2D's MotionSync components keep their motions in the
// group "", which the framework does not idle with either).
func idleGroup(m *p2l.Model) string {
	group := ""
	for _, c := range m.Clips().All() {
		if c.Group == "Idle" {
			return "Idle"
		}
		if group == "" {
			group = c.Group
		}
	}
	return group
}

// TestSampleUpdateAllocs: an Update of each sample playing (idle motions,
// physics, blink, breath, pose) allocates nothing in steady state, over
// 20 s of play at 30 Hz: idle clips end and others start in that time.
func TestSampleUpdateAllocs(t *testing.T) {
	for _, name := range cubismsamples.Names {
		t.Run(name, func(t *testing.T) {
			m, r := playingSample(t, name, 60, 1.0/30)
			clips := map[int]bool{}
			if a := testing.AllocsPerRun(600, func() {
				r.Update(1.0 / 30)
				clips[r.Layer(0).Clip()] = true
			}); a != 0 {
				t.Errorf("%v allocations per Update", a)
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			idle := 0
			for _, c := range m.Clips().All() {
				if g := idleGroup(m); g != "" && c.Group == g {
					idle++
				}
			}
			delete(clips, -1) // the update between two clips
			if idle > 1 && len(clips) < 2 {
				t.Errorf("one idle clip played in 20 s (%v): the test did not see a clip change", clips)
			}
		})
	}
}

// updateFloorSink keeps the floor passes from being optimised away.
var updateFloorSink float64

// updateBlock is how many updates or floor passes BenchmarkSampleUpdate
// times in a row before switching to the other.
const updateBlock = 16

// BenchmarkSampleUpdate times, per sample, a 60 Hz Update of the sample
// playing (playingSample: idle motions, physics, blink, breath, pose)
// against the memory floor of its evaluation (internal/evalfloor at the
// pose the warm-up left: the keyform bytes that pose selects, the vertices
// written once), in alternating blocks of updateBlock on a locked thread.
// It reports both per op in thread CPU (update-cpu-ns, floor-cpu-ns) and
// wall time, and the ratios (ratio-cpu, ratio-wall). docs/PERFORMANCE.md,
// "`Update` of a sample", quotes them.
func BenchmarkSampleUpdate(b *testing.B) {
	for _, name := range cubismsamples.Names {
		b.Run(name, func(b *testing.B) {
			m, r := playingSample(b, name, 120, 1.0/60)
			floor := evalfloor.New(m, r.ParameterValues(nil))
			var sink float64
			defer cputime.Lock()()
			var cpu, wall [2]time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for done := 0; done < b.N; done += updateBlock {
				n := min(updateBlock, b.N-done)
				t0, c0 := time.Now(), cputime.Thread()
				for range n {
					r.Update(1.0 / 60)
				}
				c1, t1 := cputime.Thread(), time.Now()
				for range n {
					sink += floor.Pass()
				}
				cpu[0] += c1 - c0
				cpu[1] += cputime.Thread() - c1
				wall[0] += t1.Sub(t0)
				wall[1] += time.Since(t1)
			}
			b.StopTimer()
			updateFloorSink = sink
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
			if cpu[1] > 0 {
				b.ReportMetric(per(cpu[0]), "update-cpu-ns")
				b.ReportMetric(per(cpu[1]), "floor-cpu-ns")
				b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "ratio-cpu")
			}
			b.ReportMetric(per(wall[0]), "update-wall-ns")
			b.ReportMetric(per(wall[1]), "floor-wall-ns")
			b.ReportMetric(float64(wall[0])/float64(wall[1]), "ratio-wall")
			b.ReportMetric(float64(floor.Bytes()), "floor-bytes")
		})
	}
}
