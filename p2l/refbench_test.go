package p2l_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
// character, then, in the same run, the reference runtime's evaluation of
// the same file at the same poses through the harness named by P2L_REF:
//
//	p2lref bench FILE --pose V0,V1,… --pose … --min-time SECONDS
//
// evaluates at the poses in turn (after a warm-up) until SECONDS of its
// thread's CPU time have passed and prints one JSON line,
// {"ok":true,"evaluations":N,"cpu_ns_per_eval":X,"wall_ns_per_eval":Y}.
// Reported: cpu-ns/op (ours), ref-cpu-ns/op and ×ref, their ratio (the
// goal of issue 35: ≤ 0.4 on the synthetic character, ≤ 0.35 on the
// default one; docs/PERFORMANCE.md, "Against the reference runtime").
func BenchmarkEvaluateVsReference(b *testing.B) {
	bin := os.Getenv("P2L_REF")
	for _, c := range []struct {
		name string
		file func(b *testing.B) []byte
	}{
		{"synth", func(b *testing.B) []byte {
			var buf bytes.Buffer
			if err := p2l.Write(&buf, synth.Character(1), nil); err != nil {
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
			ours := runEvaluate(b, m, false)
			if b.N < 100 || ours == 0 {
				return // Go's first probe of b.N, or no thread CPU clock: no comparison
			}
			// The reference for as long as we ran, at least 0.2 s.
			spent := max(time.Duration(ours*float64(b.N)), 200*time.Millisecond)
			b.StopTimer()
			args := []string{"bench", path, "--min-time", strconv.FormatFloat(spent.Seconds(), 'g', 4, 64)}
			for _, pose := range evaluatePoses(m, false) {
				vs := make([]string, len(pose))
				for i, v := range pose {
					vs[i] = strconv.FormatFloat(float64(v), 'g', -1, 32)
				}
				args = append(args, "--pose", strings.Join(vs, ","))
			}
			lines := refLines[refBench](b, bin, args)
			if len(lines) != 1 || !lines[0].OK || lines[0].CPUPerEval <= 0 {
				b.Fatalf("p2lref bench: %+v", lines)
			}
			b.ReportMetric(lines[0].CPUPerEval, "ref-cpu-ns/op")
			b.ReportMetric(ours/lines[0].CPUPerEval, "×ref")
		})
	}
}
