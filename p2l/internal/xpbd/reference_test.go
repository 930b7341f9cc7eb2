package xpbd

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The scenes of testdata/reference-*.json were stepped by the reference
// runtime's solver (PSD2Live runtime/src/sim.rs at ec8af5e6, with the update
// logic of advanced.rs: start at rest, at most four steps, the newest time
// beyond dropped, output between the last two steps), fed exactly the
// inputs this test generates. How they were made: `go test
// ./p2l/internal/xpbd -run ReferenceScenes -xpbd.record DIR` writes each
// scene's inputs (spec, then per update dt, goals, anchors, colliders) as
// whitespace-separated numbers to DIR/<scene>.in; a scratch program outside
// this repository (not committed) ran them through the reference's
// sim::Solver and printed the drawn positions per update; the checkpoints
// below are those numbers (float32, shortest round-trip text). The
// scenes' specs are the default character's ribbon (assets/default.p2lrt as
// of this commit: stretch, area, bending, long-range, goals, two capsules)
// and synth.CollidingCloth (every constraint kind, three colliders).

var record = flag.String("xpbd.record", "", "write the reference scenes' inputs and our outputs to this directory")

// motion moves a scene's inputs: goals and anchors turn by
// Turn·sin(2πT/2.5) about Pivot and shift by (Shift·sin(2πT/1.7),
// Lift·(1 − cos(2πT/3.1))); collider ends shift by ColliderShift·sin(2πT/1.3)
// in x. T is the time of the update (the sum of the dts before it).
type motion struct {
	Pivot                      [2]float64
	Turn, Shift, Lift          float64
	ColliderShift              float64
	HostWindX, HostWindY       float32
	Frames, CheckpointInterval int
}

type referenceScene struct {
	Note   string
	Spec   Spec
	Motion motion
	// Rest, Anchors and Colliders are the goals, anchors and collider
	// placement at T = 0.
	Rest, Anchors []float32
	Colliders     []Shape
	// Reference holds the reference's drawn positions (x,y per particle,
	// y up) after every CheckpointInterval-th update and the last.
	Reference []checkpoint
}

type checkpoint struct {
	Frame int // 1-based update
	Out   []float32
}

// dtAt is the time update f (1-based) advances by: mostly 1/60 s, with
// frames of 1/30, 1/144, no time, and a 0.2 s hitch (beyond four steps).
func dtAt(f int) float32 {
	switch {
	case f%50 == 17:
		return 0.2
	case f%37 == 5:
		return 0
	case f%23 == 3:
		return 1.0 / 144
	case f%29 == 7:
		return 1.0 / 30
	}
	return 1.0 / 60
}

// inputs writes the goals, anchors and colliders of time T.
func (sc *referenceScene) inputs(T float64, goals, anchors []float32, col []Shape) {
	m := &sc.Motion
	th := m.Turn * math.Sin(2*math.Pi*T/2.5)
	c, s := math.Cos(th), math.Sin(th)
	dx := m.Shift * math.Sin(2*math.Pi*T/1.7)
	dy := m.Lift * (1 - math.Cos(2*math.Pi*T/3.1))
	move := func(x, y float32) (float32, float32) {
		rx, ry := float64(x)-m.Pivot[0], float64(y)-m.Pivot[1]
		// Explicit conversions keep every platform from fusing these.
		return float32(m.Pivot[0] + float64(c*rx) - float64(s*ry) + dx), float32(m.Pivot[1] + float64(s*rx) + float64(c*ry) + dy)
	}
	for i := 0; i < len(sc.Rest); i += 2 {
		goals[i], goals[i+1] = move(sc.Rest[i], sc.Rest[i+1])
		anchors[i], anchors[i+1] = move(sc.Anchors[i], sc.Anchors[i+1])
	}
	cx := float32(m.ColliderShift * math.Sin(2*math.Pi*T/1.3))
	for k, b := range sc.Colliders {
		b.AX += cx
		b.BX += cx
		col[k] = b
	}
}

// TestReferenceScenes steps the two recorded scenes for 300 updates and
// requires every checkpoint to lie within 1e-3 px of the reference's (it
// is bit-identical when this was written: the solver follows the
// reference's float32 arithmetic operation for operation).
func TestReferenceScenes(t *testing.T) {
	files, _ := filepath.Glob("testdata/reference-*.json")
	if len(files) == 0 {
		t.Fatal("no reference scenes in testdata")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var sc referenceScene
		if err := json.Unmarshal(data, &sc); err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(file), "reference-"), ".json")
		worst, exact, compared := 0.0, 0, 0
		outs := sc.run(t, name)
		for _, cp := range sc.Reference {
			got := outs[cp.Frame-1]
			compared++
			same := true
			for i, v := range cp.Out {
				d := math.Abs(float64(got[i]) - float64(v))
				worst = max(worst, d)
				same = same && got[i] == v
			}
			if same {
				exact++
			}
		}
		if compared < sc.Motion.Frames/sc.Motion.CheckpointInterval {
			t.Errorf("%s: only %d checkpoints", name, compared)
		}
		if worst > 1e-3 {
			t.Errorf("%s: max difference from the reference %.3g px over %d updates (bound 1e-3)", name, worst, sc.Motion.Frames)
		}
		t.Logf("%s: %d particles, %d updates: max difference from the reference %.3g px; %d of %d checkpoints bit-identical",
			name, sc.Spec.Particles, sc.Motion.Frames, worst, exact, compared)
	}
}

// run steps the scene through its updates and returns the drawn positions
// after each; with -xpbd.record it also writes the inputs and outputs.
func (sc *referenceScene) run(t *testing.T, name string) [][]float32 {
	s := mustScene(t, sc.Spec)
	s.SetWind(sc.Motion.HostWindX, sc.Motion.HostWindY)
	n := sc.Spec.Particles
	goals, anchors := make([]float32, 2*n), make([]float32, 2*n)
	col := make([]Shape, len(sc.Colliders))
	var in *bufio.Writer
	if *record != "" {
		f, err := os.Create(filepath.Join(*record, name+".in"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		in = bufio.NewWriter(f)
		defer in.Flush()
		sc.writeSpec(in)
	}
	var outs [][]float32
	T := 0.0
	for f := 1; f <= sc.Motion.Frames; f++ {
		dt := dtAt(f)
		sc.inputs(T, goals, anchors, col)
		s.Place(goals, anchors, col)
		if f == 1 {
			s.Start()
		} else {
			s.Advance(dt)
		}
		T += float64(dt)
		out := make([]float32, 2*n)
		s.Output(out)
		outs = append(outs, out)
		if in != nil {
			fmt.Fprint(in, dt)
			for _, a := range [][]float32{goals, anchors} {
				for _, v := range a {
					fmt.Fprint(in, " ", v)
				}
			}
			fmt.Fprint(in, " ", len(col))
			for _, c := range col {
				fmt.Fprint(in, " ", c.AX, " ", c.AY, " ", c.BX, " ", c.BY, " ", c.RadiusA, " ", c.RadiusB, " ", c.Friction)
			}
			fmt.Fprintln(in)
		}
	}
	if *record != "" {
		f, err := os.Create(filepath.Join(*record, name+".ours"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w := bufio.NewWriter(f)
		defer w.Flush()
		for _, o := range outs {
			for i, v := range o {
				if i > 0 {
					fmt.Fprint(w, " ")
				}
				fmt.Fprint(w, v)
			}
			fmt.Fprintln(w)
		}
	}
	return outs
}

// writeSpec writes the scene's constants in the order the scratch driver
// reads them: fps, substeps, gravity, wind, pin compliance, host wind,
// particle count, then each array as its length and values.
func (sc *referenceScene) writeSpec(w *bufio.Writer) {
	sp := &sc.Spec
	fmt.Fprintln(w, sp.Fps, sp.Substeps, sp.GravityX, sp.GravityY, sp.WindX, sp.WindY, sp.PinCompliance, sc.Motion.HostWindX, sc.Motion.HostWindY, sp.Particles)
	fs := func(a []float32) {
		fmt.Fprint(w, len(a))
		for _, v := range a {
			fmt.Fprint(w, " ", v)
		}
		fmt.Fprintln(w)
	}
	us := func(a []uint32) {
		fmt.Fprint(w, len(a))
		for _, v := range a {
			fmt.Fprint(w, " ", v)
		}
		fmt.Fprintln(w)
	}
	for _, a := range [][]float32{sp.InvMass, sp.Damping, sp.WindFactor, sp.PinWeight, sp.GoalCompliance, sp.GoalOffsetX, sp.GoalOffsetY} {
		fs(a)
	}
	us(sp.StretchA)
	us(sp.StretchB)
	fs(sp.Rest)
	fs(sp.Compliance)
	fs(sp.CompressionCompliance)
	us(sp.TriA)
	us(sp.TriB)
	us(sp.TriC)
	fs(sp.AreaCompliance)
	us(sp.BendT1)
	us(sp.BendT2)
	fs(sp.BendCompliance)
	us(sp.WeldA)
	us(sp.WeldB)
	fs(sp.WeightA)
	fs(sp.WeightB)
	fs(sp.WeldCompliance)
	us(sp.LongParticle)
	us(sp.LongRoot)
	fs(sp.MaxDistance)
	fmt.Fprintln(w, sc.Motion.Frames)
}
