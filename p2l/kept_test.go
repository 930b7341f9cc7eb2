package p2l_test

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// TestKeptResultsMatchFullEvaluation plays poses that move a few
// parameters at a time on one rig, whose evaluations keep the results of
// the deformers, meshes and glue components whose inputs did not change,
// and checks every result bit for bit against a new rig evaluating the
// same pose from scratch; the change flags and revisions must say exactly
// which meshes' vertices changed from the pose before.
func TestKeptResultsMatchFullEvaluation(t *testing.T) {
	data, err := os.ReadFile("../assets/default.p2lrt")
	if err != nil {
		t.Fatal(err)
	}
	def, err := p2l.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		m    *p2l.Model
	}{{"default", def}, {"synth", synth.Character(1)}, {"synth-2", synth.Character(2)}} {
		t.Run(c.name, func(t *testing.T) { checkKept(t, c.m, 300) })
	}
}

func checkKept(t *testing.T, m *p2l.Model, steps int) {
	rng := rand.New(rand.NewPCG(1, 2))
	pose := make([]float32, len(m.Parameters))
	for i, p := range m.Parameters {
		pose[i] = p.Default
	}
	r := m.NewRig()
	var before [][]float32 // vertices of the pose before
	kept := 0
	for step := range steps {
		// One to three parameters move, now and then none or all; a value
		// is random in the range, a key end or the default.
		n := 1 + rng.IntN(3)
		switch step % 17 {
		case 5:
			n = 0
		case 11:
			n = len(pose)
		}
		for range n {
			i := rng.IntN(len(pose))
			p := m.Parameters[i]
			switch rng.IntN(4) {
			case 0:
				pose[i] = p.Default
			case 1:
				pose[i] = p.Max
			default:
				pose[i] = p.Min + (p.Max-p.Min)*rng.Float32()
			}
		}
		revs := make([]uint64, len(m.Meshes))
		for i := range revs {
			revs[i] = r.MeshRevision(i)
		}
		r.SetParameterValues(pose)
		r.Evaluate()
		f := m.NewRig()
		f.SetParameterValues(pose)
		f.Evaluate()
		if r.Err() != nil || f.Err() != nil {
			t.Fatal(r.Err(), f.Err())
		}
		for i := range m.Meshes {
			v, w := r.MeshVertices(i), f.MeshVertices(i)
			if !sameBits(v, w) {
				t.Fatalf("step %d mesh %d: vertices differ from a full evaluation", step, i)
			}
			om, os := r.MeshColors(i)
			fm, fs := f.MeshColors(i)
			if !sameBits([]float32{r.MeshOpacity(i), r.MeshDrawOrder(i)}, []float32{f.MeshOpacity(i), f.MeshDrawOrder(i)}) ||
				!sameBits(om[:], fm[:]) || !sameBits(os[:], fs[:]) || r.MeshVisible(i) != f.MeshVisible(i) {
				t.Fatalf("step %d mesh %d: properties differ from a full evaluation", step, i)
			}
			if step == 0 {
				continue
			}
			changed := !sameBits(v, before[i])
			if got := r.MeshChanges(i)&p2l.MeshVerticesChanged != 0; got != changed {
				t.Fatalf("step %d mesh %d: MeshVerticesChanged %v, vertices changed %v", step, i, got, changed)
			}
			if grew := r.MeshRevision(i) != revs[i]; grew != changed {
				t.Fatalf("step %d mesh %d: revision grew %v, vertices changed %v", step, i, grew, changed)
			}
			if !changed && len(v) > 0 {
				kept++
			}
		}
		if !slices.Equal(r.RenderCommands(), f.RenderCommands()) {
			t.Fatalf("step %d: render commands differ from a full evaluation", step)
		}
		before = before[:0]
		for i := range m.Meshes {
			before = append(before, slices.Clone(r.MeshVertices(i)))
		}
	}
	if kept == 0 {
		t.Fatal("no mesh kept its vertices: the test does not exercise kept results")
	}
	t.Logf("%d steps, %d mesh evaluations with unchanged vertices", steps, kept)
}

// sameBits reports whether a and b hold the same float32 bits.
func sameBits(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}
