package p2l_test

import (
	"bytes"
	"math"
	"reflect"
	"sync"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// pose sets a varied pose from a frame number.
func pose(r *p2l.Rig, m *p2l.Model, frame int) {
	for i, p := range m.Parameters().All() {
		t := float64(frame)*0.07 + float64(i)*0.9
		v := float64(p.Min) + (float64(p.Max)-float64(p.Min))*(0.5+0.6*math.Sin(t)) // also outside the range
		r.SetParameter(i, float32(v))
	}
}

// snapshot copies every evaluation result of r.
type snapshot struct {
	Verts   [][]float32
	Opacity []float32
	Colors  [][2]p2lrt.Color
	Draw    []float32
	Order   []int
	Cmds    []p2l.RenderCommand
}

func snap(r *p2l.Rig) snapshot {
	var s snapshot
	m := r.Model()
	for i := range m.Meshes().Len() {
		s.Verts = append(s.Verts, append([]float32(nil), r.Mesh(i).Vertices()...))
		s.Opacity = append(s.Opacity, r.Mesh(i).Opacity())
		mul, scr := r.Mesh(i).Colors()
		s.Colors = append(s.Colors, [2]p2lrt.Color{mul, scr})
		s.Draw = append(s.Draw, r.Mesh(i).DrawOrder())
	}
	s.Order = append(s.Order, r.RenderOrder()...)
	s.Cmds = append(s.Cmds, r.RenderCommands()...)
	return s
}

func bitsEqual(a, b snapshot) bool {
	for i := range a.Verts {
		for k := range a.Verts[i] {
			if math.Float32bits(a.Verts[i][k]) != math.Float32bits(b.Verts[i][k]) {
				return false
			}
		}
		if math.Float32bits(a.Opacity[i]) != math.Float32bits(b.Opacity[i]) || a.Colors[i] != b.Colors[i] ||
			math.Float32bits(a.Draw[i]) != math.Float32bits(b.Draw[i]) {
			return false
		}
	}
	return reflect.DeepEqual(a.Order, b.Order) && reflect.DeepEqual(a.Cmds, b.Cmds)
}

// TestDeterministicAcrossRigsAndModels: the same pose gives bit-identical
// results on two rigs of one model, on a rig of an identical second model,
// and on the same rig after other poses.
func TestDeterministicAcrossRigsAndModels(t *testing.T) {
	m1, m2 := p2l.ModelForTest(synth.Generate(synth.Options{Seed: 3, Meshes: 40})), p2l.ModelForTest(synth.Generate(synth.Options{Seed: 3, Meshes: 40}))
	a, b, c := m1.NewRig(), m1.NewRig(), m2.NewRig()
	for f := 0; f < 20; f++ {
		pose(a, m1, f)
		a.Evaluate()
		want := snap(a)
		pose(b, m1, f)
		b.Evaluate()
		pose(c, m2, f)
		c.Evaluate()
		if !bitsEqual(want, snap(b)) || !bitsEqual(want, snap(c)) {
			t.Fatalf("frame %d: results differ", f)
		}
		pose(a, m1, f+7) // disturb a, then come back
		a.Evaluate()
		pose(a, m1, f)
		a.Evaluate()
		if !bitsEqual(want, snap(a)) {
			t.Fatalf("frame %d: re-evaluation differs", f)
		}
	}
	if a.Err() != nil || b.Err() != nil || c.Err() != nil {
		t.Fatal(a.Err(), b.Err(), c.Err())
	}
	if !reflect.DeepEqual(m1.File(), m2.File()) {
		t.Fatal("evaluation changed the file of a model")
	}
}

// TestConcurrentRigs runs 8 goroutines, each with its own rig on one shared
// model (run with -race), and checks each against a serial evaluation.
func TestConcurrentRigs(t *testing.T) {
	m := p2l.ModelForTest(synth.Generate(synth.Options{Seed: 5, Meshes: 30, VerticesPerMesh: 30}))
	frames := 10
	want := make([]snapshot, frames)
	ref := m.NewRig()
	for f := range want {
		pose(ref, m, f)
		ref.Evaluate()
		want[f] = snap(ref)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := m.NewRig()
			for f := 0; f < frames; f++ {
				pose(r, m, f)
				r.Evaluate()
				if !bitsEqual(want[f], snap(r)) {
					errs <- "mismatch"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func TestEvaluateDoesNotAllocate(t *testing.T) {
	m := p2l.ModelForTest(synth.Character(1))
	r := m.NewRig()
	r.Evaluate()
	f := 0
	allocs := testing.AllocsPerRun(50, func() {
		pose(r, m, f)
		f++
		r.Evaluate()
	})
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	if allocs != 0 {
		t.Fatalf("Evaluate allocates %v times per run", allocs)
	}
}

func TestCharacterRendersSomething(t *testing.T) {
	m := p2l.ModelForTest(synth.Character(2))
	r := m.NewRig()
	r.Evaluate()
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	if n := len(r.RenderOrder()); n < m.Meshes().Len()-4 {
		t.Fatalf("only %d of %d meshes drawn", n, m.Meshes().Len())
	}
	open := 0
	for _, c := range r.RenderCommands() {
		if _, ok := c.Group(); ok {
			open++
		}
	}
	if open == 0 {
		t.Fatal("no isolated group in the synthetic character")
	}
	// Every vertex lies on the canvas neighbourhood at the default pose.
	for _, i := range r.RenderOrder() {
		for _, v := range r.Mesh(i).Vertices() {
			if !(v > -1024 && v < 2048) {
				t.Fatalf("mesh %d vertex %v far off the canvas", i, v)
			}
		}
	}
}

// TestEncodingsEvaluateIdentically writes the synthetic character as v2,
// v1, deflate and zstd, loads each, and requires bit-identical evaluations
// (the spec's v1/v2/compression conformance rule).
func TestEncodingsEvaluateIdentically(t *testing.T) {
	f := synth.Generate(synth.Options{Seed: 11, Meshes: 40})
	// v1 has no POSE chunk, and Evaluate applies the pose's starting state:
	// compare without one.
	f.Pose = nil
	m := p2l.ModelForTest(f)
	opts := []*p2lrt.WriteOptions{{}, {V1: true}, {Compression: p2lrt.CompressDeflate}, {Compression: p2lrt.CompressZstd}}
	var rigs []*p2l.Rig
	for _, o := range opts {
		var buf bytes.Buffer
		if err := p2l.Write(&buf, m, o); err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		lm, err := p2l.Load(buf.Bytes())
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		rigs = append(rigs, lm.NewRig())
	}
	for f := 0; f < 5; f++ {
		var want snapshot
		for k, r := range rigs {
			pose(r, r.Model(), f)
			r.Evaluate()
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
			if k == 0 {
				want = snap(r)
			} else if !bitsEqual(want, snap(r)) {
				t.Fatalf("frame %d: encoding %+v evaluates differently", f, opts[k])
			}
		}
	}
}

// TestExtremeHostValues: any host value, however absurd, evaluates to
// finite geometry without failing the rig.
func TestExtremeHostValues(t *testing.T) {
	m := p2l.ModelForTest(synth.Generate(synth.Options{Seed: 21, Meshes: 30}))
	r := m.NewRig()
	vals := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e30, -1e30, 0, 1e-30}
	for f := 0; f < 40; f++ {
		for i := range m.Parameters().Len() {
			r.SetParameter(i, vals[(f*7+i*3)%len(vals)])
		}
		r.Evaluate()
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
		for i := range m.Meshes().Len() {
			for _, v := range r.Mesh(i).Vertices() {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("frame %d mesh %d: non-finite vertex", f, i)
				}
			}
			if op := r.Mesh(i).Opacity(); !(op >= 0 && op <= 1) {
				t.Fatalf("mesh %d opacity %v", i, op)
			}
		}
		for i, p := range m.Parameters().All() {
			if c := r.ParameterCurrent(i); !(c >= p.Min && c <= p.Max) {
				t.Fatalf("parameter %d current %v outside [%v, %v]", i, c, p.Min, p.Max)
			}
		}
	}
}
