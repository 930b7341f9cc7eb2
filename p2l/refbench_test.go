package p2l_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/psd2live/p2l-ebiten/internal/cputime"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// refBench is what `p2lref bench` prints: how many evaluations it timed
// and the thread CPU and wall time of each.
type refBench struct {
	OK          bool    `json:"ok"`
	Error       string  `json:"error"`
	Evaluations int     `json:"evaluations"`
	CPUPerEval  float64 `json:"cpu_ns_per_eval"`
	WallPerEval float64 `json:"wall_ns_per_eval"`
}

// BenchmarkEvaluateVsReference times BenchmarkEvaluate's typical frame
// (two poses in turn) on the synthetic character and on the default
// character against the reference runtime's evaluation of the same file at
// the same poses, through the harness named by P2L_REF:
//
//	p2lref bench FILE --pose V0,V1,… --pose … --min-time SECONDS
//
// evaluates at the poses in turn (after a warm-up) until SECONDS of its
// thread's CPU time have passed and prints one JSON line,
// {"ok":true,"evaluations":N,"cpu_ns_per_eval":X,"wall_ns_per_eval":Y}.
// The b.N evaluations run in refRounds rounds, each followed by the
// reference for as long (at least 0.1 s), so that both see nearly the same
// load on a shared machine. Reported: cpu-ns/op (ours, all rounds),
// ref-cpu-ns/op (the reference, all rounds) and ×ref, the median of the
// rounds' ratios (the goal of issue 35: ≤ 0.4 on the synthetic character,
// ≤ 0.35 on the default one; docs/PERFORMANCE.md, "Against the reference
// runtime").
func BenchmarkEvaluateVsReference(b *testing.B) {
	bin := os.Getenv("P2L_REF")
	for _, c := range []struct {
		name string
		file func(b *testing.B) []byte
	}{
		{"synth", func(b *testing.B) []byte {
			var buf bytes.Buffer
			if err := p2l.Write(&buf, p2l.ModelForTest(synth.Character(1)), nil); err != nil {
				b.Fatal(err)
			}
			return buf.Bytes()
		}},
		{"default", func(b *testing.B) []byte {
			data, err := os.ReadFile("../assets/default.p2lrt")
			if err != nil {
				b.Fatal(err)
			}
			return data
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			if bin == "" {
				b.Skip("P2L_REF not set (path of the reference harness p2lref)")
			}
			data := c.file(b)
			m, err := p2l.Load(data)
			if err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(b.TempDir(), c.name+".p2lrt")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				b.Fatal(err)
			}
			poses := evaluatePoses(m, false)
			refArgs := []string{"bench", path}
			for _, pose := range poses {
				vs := make([]string, len(pose))
				for i, v := range pose {
					vs[i] = strconv.FormatFloat(float64(v), 'g', -1, 32)
				}
				refArgs = append(refArgs, "--pose", strings.Join(vs, ","))
			}
			r := m.NewRig()
			r.SetParameterValues(poses[0])
			r.Evaluate()
			if r.Err() != nil {
				b.Fatal(r.Err())
			}
			defer cputime.Lock()()
			b.ReportAllocs()
			b.ResetTimer()
			const refRounds = 5
			var ours, ref time.Duration
			var refEvals float64
			var ratios []float64
			i := 0
			for round := range refRounds {
				c0 := cputime.Thread()
				n := b.N / refRounds
				if round < b.N%refRounds {
					n++ // b.N in all
				}
				for range n {
					r.SetParameterValues(poses[i&1])
					r.Evaluate()
					i++
				}
				spent := cputime.Thread() - c0
				ours += spent
				if b.N < 100 || spent <= 0 || n == 0 {
					continue // Go's first probe of b.N, or no thread CPU clock
				}
				b.StopTimer()
				args := append(refArgs, "--min-time", strconv.FormatFloat(max(spent, 100*time.Millisecond).Seconds(), 'g', 4, 64))
				lines := refLines[refBench](b, bin, args)
				if len(lines) != 1 || !lines[0].OK || lines[0].CPUPerEval <= 0 {
					b.Fatalf("p2lref bench: %+v", lines)
				}
				ref += time.Duration(lines[0].CPUPerEval * float64(lines[0].Evaluations))
				refEvals += float64(lines[0].Evaluations)
				ratios = append(ratios, float64(spent)/float64(n)/lines[0].CPUPerEval)
				b.StartTimer()
			}
			if ours > 0 {
				b.ReportMetric(float64(ours)/float64(b.N), "cpu-ns/op")
			}
			if len(ratios) > 0 {
				slices.Sort(ratios)
				b.ReportMetric(float64(ref)/refEvals, "ref-cpu-ns/op")
				b.ReportMetric(ratios[len(ratios)/2], "×ref")
			}
		})
	}
}
