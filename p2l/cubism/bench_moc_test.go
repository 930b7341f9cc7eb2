package cubism

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/psd2live/p2l-ebiten/internal/cputime"
	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/internal/evalfloor"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/moc3"
)

// BenchmarkSampleMoc, per sample: reading the .moc3's bytes and preparing
// it (Prepare) — one loop that times, alternately, reading the file
// (os.ReadFile) and then ReadMoc (parse, lower, validate, one trial
// evaluation) with a rig's first Evaluate —, the same steps one by one
// (Phases), and a typical frame's Evaluate against its memory floor
// (Evaluate, runSampleEvaluate).
// docs/PERFORMANCE.md, "Cubism models", reads the ratios.
//
// Prepare reports read-ns/op (reading alone), ns/op (reading and
// preparing), x-read (their ratio: the issue's "a few times the time to
// read its bytes") and the same in process CPU time (cpu-x-read), which
// counts the garbage collector's threads and not the time other processes
// hold the cores. Read and prepare alternate in one loop, so the ratio
// compares the two under the same load.
func BenchmarkSampleMoc(b *testing.B) {
	for _, name := range cubismsamples.Names {
		path := cubismsamples.Moc(b, name)
		b.Run(name+"/Prepare", func(b *testing.B) {
			var read, readCPU time.Duration
			runtime.GC()
			t0, c0 := time.Now(), cputime.Process()
			for b.Loop() {
				r0, rc0 := time.Now(), cputime.Process()
				data, err := os.ReadFile(path)
				if err != nil {
					b.Fatal(err)
				}
				read += time.Since(r0)
				readCPU += cputime.Process() - rc0
				m, err := readMocModel(data)
				if err != nil {
					b.Fatal(err)
				}
				r := m.NewRig()
				r.Evaluate()
			}
			all, allCPU := time.Since(t0), cputime.Process()-c0
			n := float64(b.N)
			b.ReportMetric(float64(read.Nanoseconds())/n, "read-ns/op")
			b.ReportMetric(float64(all)/float64(read), "x-read")
			if readCPU > 0 {
				b.ReportMetric(float64(allCPU)/float64(readCPU), "cpu-x-read")
			}
		})
		b.Run(name+"/Phases", func(b *testing.B) { runPrepPhases(b, path) })
		b.Run(name+"/Evaluate", func(b *testing.B) {
			data, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			m, err := readMocModel(data)
			if err != nil {
				b.Fatal(err)
			}
			runSampleEvaluate(b, m)
		})
	}
}

// prepPhases names the steps runPrepPhases times.
var prepPhases = [...]string{"read", "parse", "lower", "validate", "new-model", "rig", "eval"}

// runPrepPhases times each step of reading and preparing the moc at path,
// as Load does them (ReadMoc's steps, then newModel: validation,
// preparation and trial evaluation; then a rig and its first Evaluate), in
// process CPU time, and reports each as a multiple of
// reading the file (metric x-NAME; read is 1).
func runPrepPhases(b *testing.B, path string) {
	var t [len(prepPhases)]time.Duration
	runtime.GC()
	for b.Loop() {
		c := cputime.Process()
		lap := func(i int) {
			n := cputime.Process()
			t[i] += n - c
			c = n
		}
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		lap(0)
		moc, err := moc3.Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		lap(1)
		m, err := lowerMoc(moc)
		if err != nil {
			b.Fatal(err)
		}
		lap(2)
		if err := m.Validate(); err != nil {
			b.Fatal(err)
		}
		lap(3)
		model, err := newModel(m)
		if err != nil {
			b.Fatal(err)
		}
		lap(4)
		r := model.NewRig()
		lap(5)
		r.Evaluate()
		lap(6)
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
	}
	if t[0] == 0 {
		return // no CPU clock here
	}
	for i, n := range prepPhases {
		b.ReportMetric(float64(t[i])/float64(t[0]), "x-"+n)
	}
}

// samplePose is a typical game frame of a Cubism model: the standard
// parameters an idle motion, look-at, blinking, lip sync and breath drive
// sit between keys (fraction 0.3–0.46 of their range, varying with frame),
// the rest at their defaults.
func samplePose(m *p2l.Model, frame int) []float32 {
	v := make([]float32, m.Parameters().Len())
	for i, p := range m.Parameters().All() {
		v[i] = p.Default
	}
	for i, id := range []string{"ParamAngleX", "ParamAngleY", "ParamAngleZ", "ParamBodyAngleX",
		"ParamEyeBallX", "ParamEyeBallY", "ParamEyeLOpen", "ParamEyeROpen", "ParamMouthOpenY", "ParamBreath"} {
		if k := m.ParameterIndex(id); k >= 0 {
			p := m.Parameters().At(k)
			f := 0.3 + 0.2*float32((frame+i)%5)/5
			v[k] = p.Min + (p.Max-p.Min)*f
		}
	}
	return v
}

var floorSink float64

// evalBlock is how many evaluations, then floor passes, run in turn.
const evalBlock = 16

// runSampleEvaluate times a rig of m evaluating the typical frame
// (samplePose, alternating between two so that what the moving parameters
// reach is recomputed) against the memory floor of that evaluation
// (internal/evalfloor, as BenchmarkEvaluateFloor for .p2lrt): blocks of
// evaluations and blocks of floor passes alternate, each timed in wall and
// thread CPU time, and the ratios are reported (x-floor, cpu-x-floor).
// ns/op is one evaluation and one floor pass.
func runSampleEvaluate(b *testing.B, m *p2l.Model) {
	r := m.NewRig()
	poses := [2][]float32{samplePose(m, 0), samplePose(m, 1)}
	r.SetParameterValues(poses[0])
	r.Evaluate()
	if err := r.Err(); err != nil {
		b.Fatal(err)
	}
	floor := evalfloor.New(m, poses[0])
	defer cputime.Lock()()
	var eval, evalCPU, fl, flCPU time.Duration
	i := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if i%evalBlock == 0 {
			t, c := time.Now(), cputime.Thread()
			for range evalBlock {
				floorSink = floor.Pass()
			}
			fl += time.Since(t)
			flCPU += cputime.Thread() - c
		}
		t, c := time.Now(), cputime.Thread()
		r.SetParameterValues(poses[i&1])
		r.Evaluate()
		eval += time.Since(t)
		evalCPU += cputime.Thread() - c
		i++
	}
	passes := float64((i + evalBlock - 1) / evalBlock * evalBlock)
	b.ReportMetric(float64(eval.Nanoseconds())/float64(i), "eval-ns/op")
	b.ReportMetric(float64(fl.Nanoseconds())/passes, "floor-ns/op")
	b.ReportMetric((float64(eval)/float64(i))/(float64(fl)/passes), "x-floor")
	if flCPU > 0 {
		b.ReportMetric(float64(evalCPU.Nanoseconds())/float64(i), "eval-cpu-ns/op")
		b.ReportMetric((float64(evalCPU)/float64(i))/(float64(flCPU)/passes), "cpu-x-floor")
	}
	b.ReportMetric(float64(floor.Bytes()), "floor-bytes")
}
