package p2l_test

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
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
	for _, c := range keptModels(t) {
		t.Run(c.name, func(t *testing.T) {
			if c.m.Parameters().Len() == 0 {
				t.Skip("no parameters")
			}
			checkKept(t, c.m, 300)
		})
	}
}

// TestWarpsWithoutCellTablesMatch plays the poses of the kept-results
// tests on two rigs of each model: one as prepared (the triangle-interpolated
// warps with many points a cell keep a cell table, chooseCellTables) and
// one whose warps all interpolate from their lattices. warp.rs's
// arithmetic is the same either way, so every vertex must be the same,
// bit for bit, on the points placed anew and on the kept placements.
func TestWarpsWithoutCellTablesMatch(t *testing.T) {
	tabled := 0
	for _, c := range keptModels(t) {
		t.Run(c.name, func(t *testing.T) {
			direct, tables := c.m.WithoutCellTablesForTest()
			tabled += tables
			rng := rand.New(rand.NewPCG(3, 4))
			pose := make([]float32, c.m.Parameters().Len())
			for i, p := range c.m.Parameters().All() {
				pose[i] = p.Default
			}
			r, d := c.m.NewRig(), direct.NewRig()
			for step := range 200 {
				for range 1 + rng.IntN(3) {
					if len(pose) == 0 {
						break
					}
					i := rng.IntN(len(pose))
					p := c.m.Parameters().At(i)
					pose[i] = p.Min - 0.25*(p.Max-p.Min) + 1.5*(p.Max-p.Min)*rng.Float32() // beyond the range too
				}
				r.SetParameterValues(pose)
				r.Evaluate()
				d.SetParameterValues(pose)
				d.Evaluate()
				if r.Err() != nil || d.Err() != nil {
					t.Fatal(r.Err(), d.Err())
				}
				for i := range c.m.Meshes().Len() {
					if !sameBits(r.Mesh(i).Vertices(), d.Mesh(i).Vertices()) {
						t.Fatalf("step %d mesh %d: vertices differ without cell tables", step, i)
					}
				}
			}
		})
	}
	if tabled == 0 {
		t.Fatal("no model has a warp with a cell table: the comparison compares nothing")
	}
}

// keptModels are the models the kept-results tests play: the default
// character, synthetic characters (nested warps and rotations, points
// outside warps' unit squares, bilinear warps) and the conformance models
// (whose few parameters move no mesh under a warp).
func keptModels(t *testing.T) []namedModel {
	t.Helper()
	ms := []namedModel{{"synth", p2l.ModelForTest(synth.Character(1)), true}, {"synth-2", p2l.ModelForTest(synth.Character(2)), true}}
	files, _ := filepath.Glob("../testdata/conformance/*.p2lrt")
	if len(files) == 0 {
		t.Fatal("no conformance models")
	}
	for i, f := range append([]string{"../assets/default.p2lrt"}, files...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p2l.Load(data)
		if err != nil {
			t.Fatal(f, err)
		}
		ms = append(ms, namedModel{filepath.Base(f), m, i == 0})
	}
	return ms
}

type namedModel struct {
	name string
	m    *p2l.Model
	// placed: some of its meshes are mapped from a kept placement when
	// only deformers' parameters move.
	placed bool
}

// TestKeptPlacementMatchesFullEvaluation plays long runs of frames that
// move only parameters no mesh's geometry reads — every mesh under a
// moving warp keeps its positions in the warp's space and is mapped again
// from where they fell in the lattice the last time they were computed —
// broken now and then by a frame moving a parameter some mesh's geometry
// reads (those positions change, and where they fall). Values are random
// in and beyond the parameters' ranges. Every frame is checked bit for bit
// against a new rig evaluating the same pose from scratch, so a placement
// kept after its positions changed, or recorded wrongly, fails it.
func TestKeptPlacementMatchesFullEvaluation(t *testing.T) {
	for _, c := range keptModels(t) {
		t.Run(c.name, func(t *testing.T) {
			m := c.m
			var parentOnly, geometry []int
			reads := make([][]int32, m.Meshes().Len())
			read := make([]bool, m.Parameters().Len())
			for i := range m.Meshes().Len() {
				reads[i] = m.MeshReadsForTest(i)
				for _, p := range reads[i] {
					read[p] = true
				}
			}
			for p, g := range read {
				if g {
					geometry = append(geometry, p)
				} else {
					parentOnly = append(parentOnly, p)
				}
			}
			if len(parentOnly) == 0 {
				t.Skip("no parameter that only deformers read")
			}
			rng := rand.New(rand.NewPCG(5, 6))
			pose := make([]float32, m.Parameters().Len())
			for i, p := range m.Parameters().All() {
				pose[i] = p.Default
			}
			r := m.NewRig()
			placedMeshes, outside := 0, 0
			for step := range 400 {
				before := slices.Clone(pose)
				ps := parentOnly
				if step%23 == 7 && len(geometry) > 0 {
					ps = geometry
				}
				for range 1 + rng.IntN(2) {
					i := ps[rng.IntN(len(ps))]
					p := m.Parameters().At(i)
					// Half a range beyond either end, clamped or wrapped.
					pose[i] = p.Min + (p.Max-p.Min)*(2*rng.Float32()-0.5)
				}
				f := evaluateBoth(t, r, pose)
				for i := range m.Meshes().Len() {
					if !sameBits(r.Mesh(i).Vertices(), f.Mesh(i).Vertices()) {
						t.Fatalf("step %d mesh %d: vertices differ from a full evaluation", step, i)
					}
					in, out := r.PlacementForTest(i)
					if in+out == 0 || step == 0 || r.Mesh(i).Changes()&p2l.MeshVerticesChanged == 0 {
						continue
					}
					if !slices.ContainsFunc(reads[i], func(p int32) bool { return before[p] != pose[p] }) {
						placedMeshes++ // mapped again from the kept placement
						outside += out
					}
				}
			}
			if placedMeshes == 0 && c.placed {
				t.Fatal("no mesh was mapped from a kept placement: the test does not exercise it")
			}
			t.Logf("%d mesh evaluations from a kept placement, %d of their vertices outside the unit square", placedMeshes, outside)
		})
	}
}

func checkKept(t *testing.T, m *p2l.Model, steps int) {
	rng := rand.New(rand.NewPCG(1, 2))
	pose := make([]float32, m.Parameters().Len())
	for i, p := range m.Parameters().All() {
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
			p := m.Parameters().At(i)
			switch rng.IntN(4) {
			case 0:
				pose[i] = p.Default
			case 1:
				pose[i] = p.Max
			default:
				pose[i] = p.Min + (p.Max-p.Min)*rng.Float32()
			}
		}
		revs := make([]uint64, m.Meshes().Len())
		for i := range revs {
			revs[i] = r.Mesh(i).Revision()
		}
		f := evaluateBoth(t, r, pose)
		for i := range m.Meshes().Len() {
			v, w := r.Mesh(i).Vertices(), f.Mesh(i).Vertices()
			if !sameBits(v, w) {
				t.Fatalf("step %d mesh %d: vertices differ from a full evaluation", step, i)
			}
			om, os := r.Mesh(i).Colors()
			fm, fs := f.Mesh(i).Colors()
			if !sameBits([]float32{r.Mesh(i).Opacity(), r.Mesh(i).DrawOrder()}, []float32{f.Mesh(i).Opacity(), f.Mesh(i).DrawOrder()}) ||
				!sameBits(om[:], fm[:]) || !sameBits(os[:], fs[:]) || r.Mesh(i).Visible() != f.Mesh(i).Visible() {
				t.Fatalf("step %d mesh %d: properties differ from a full evaluation", step, i)
			}
			if step == 0 {
				continue
			}
			changed := !sameBits(v, before[i])
			if got := r.Mesh(i).Changes()&p2l.MeshVerticesChanged != 0; got != changed {
				t.Fatalf("step %d mesh %d: MeshVerticesChanged %v, vertices changed %v", step, i, got, changed)
			}
			if grew := r.Mesh(i).Revision() != revs[i]; grew != changed {
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
		for i := range m.Meshes().Len() {
			before = append(before, slices.Clone(r.Mesh(i).Vertices()))
		}
	}
	if kept == 0 {
		t.Fatal("no mesh kept its vertices: the test does not exercise kept results")
	}
	t.Logf("%d steps, %d mesh evaluations with unchanged vertices", steps, kept)
}

// evaluateBoth evaluates pose on r and on a new rig of r's model, which
// evaluates it from scratch, and returns the new rig.
func evaluateBoth(t *testing.T, r *p2l.Rig, pose []float32) *p2l.Rig {
	t.Helper()
	r.SetParameterValues(pose)
	r.Evaluate()
	f := r.Model().NewRig()
	f.SetParameterValues(pose)
	f.Evaluate()
	if r.Err() != nil || f.Err() != nil {
		t.Fatal(r.Err(), f.Err())
	}
	return f
}

// sameBits reports whether a and b hold the same float32 bits.
func sameBits(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}
