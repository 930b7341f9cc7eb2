package p2l_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cputime"
	"github.com/psd2live/p2l-ebiten/internal/evalfloor"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// benchPose puts every parameter of a grid axis the fraction f of the way
// from its first grid key to its second (0 < f < 1), so every keyform grid
// blends all its corners (the expensive case), and returns the pose.
func benchPose(m *p2l.Model, f float32) []float32 {
	v := make([]float32, m.Parameters().Len())
	for i, p := range m.Parameters().All() {
		v[i] = p.Default
	}
	set := func(axes []p2lrt.Axis) {
		for _, a := range axes {
			if len(a.Keys) > 1 {
				v[a.Parameter] = a.Keys[0] + (a.Keys[1]-a.Keys[0])*f
			}
		}
	}
	for _, me := range m.Meshes().All() {
		if me.Keyforms != nil {
			set(me.Keyforms.Axes)
		}
	}
	for _, d := range m.Deformers().All() {
		if d.Warp != nil {
			set(d.Warp.Keyforms.Axes)
		} else {
			set(d.Rotation.Keyforms.Axes)
		}
	}
	return v
}

// animatedPose is a typical game frame: the parameters an idle clip,
// look-at, breath and physics drive (the standard ones) sit between keys,
// the rest at their defaults.
func animatedPose(m *p2l.Model, frame int) []float32 {
	v := make([]float32, m.Parameters().Len())
	for i, p := range m.Parameters().All() {
		v[i] = p.Default
	}
	for i, id := range []string{"ParamAngleX", "ParamAngleY", "ParamAngleZ", "ParamBodyAngleX",
		"ParamEyeBallX", "ParamEyeBallY", "ParamBreath", "ParamHairFront", "ParamHairBack"} {
		if k := m.ParameterIndex(id); k >= 0 {
			p := m.Parameters().At(k)
			f := 0.3 + 0.2*float32((frame+i)%5)/5 // strictly between keys
			v[k] = p.Min + (p.Max-p.Min)*f
		}
	}
	return v
}

// runEvaluate times r.Evaluate on m alternating between two poses (see
// evaluatePoses) and returns the thread CPU time per evaluation in
// nanoseconds (0 where the platform does not tell).
func runEvaluate(b *testing.B, m *p2l.Model, worst bool) float64 {
	r := m.NewRig()
	poses := evaluatePoses(m, worst)
	r.SetParameterValues(poses[0])
	r.Evaluate()
	if r.Err() != nil {
		b.Fatal(r.Err())
	}
	verts := 0
	for _, me := range m.Meshes().All() {
		verts += len(me.Positions) / 2
	}
	defer cputime.Lock()()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Thread()
	i := 0
	for b.Loop() {
		// Alternate between two poses so that every evaluation recomputes
		// what the parameters that differ between them reach.
		r.SetParameterValues(poses[i&1])
		r.Evaluate()
		i++
	}
	perOp := 0.0
	if cpu := cputime.Thread() - c0; cpu > 0 {
		perOp = float64(cpu.Nanoseconds()) / float64(b.N)
		b.ReportMetric(perOp, "cpu-ns/op")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(verts), "ns/vertex")
	return perOp
}

// evaluatePoses are the two poses runEvaluate alternates between: the
// typical frame's (animatedPose 0 and 1), or with worst every grid
// parameter between two keys and moving (within the same keys), so that
// nothing keeps its last results.
func evaluatePoses(m *p2l.Model, worst bool) [2][]float32 {
	if worst {
		return [2][]float32{benchPose(m, 0.5), benchPose(m, 0.6)}
	}
	return [2][]float32{animatedPose(m, 0), animatedPose(m, 1)}
}

// BenchmarkEvaluate evaluates the character-scale synthetic model (120
// meshes, 8640 vertices, 56 deformers, 48 parameters, blend shapes, glue)
// at a typical animated pose (see animatedPose).
func BenchmarkEvaluate(b *testing.B) { runEvaluate(b, p2l.ModelForTest(synth.Character(1)), false) }

// BenchmarkEvaluateAllCorners is the worst case of the same model: every
// grid parameter lies between two grid keys, so every grid blends all its
// cells, and moves from one evaluation to the next, so every deformer and
// mesh is recomputed.
func BenchmarkEvaluateAllCorners(b *testing.B) {
	runEvaluate(b, p2l.ModelForTest(synth.Character(1)), true)
}

// BenchmarkEvaluateScaling evaluates the worst case with 1×, 4× and 16× the
// vertices (same meshes, deformers and parameters): time should grow
// linearly in the vertex count once it dominates.
func BenchmarkEvaluateScaling(b *testing.B) {
	for _, k := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("%dx", k), func(b *testing.B) {
			runEvaluate(b, p2l.ModelForTest(synth.Generate(synth.Options{Seed: 1, VerticesPerMesh: 72 * k})), true)
		})
	}
}

var floorSink float64

// BenchmarkFloor streams, from one contiguous buffer, as many bytes as one
// evaluation of BenchmarkEvaluateAllCorners (and the scaling variants) reads from
// keyforms and rest positions: a lower bound set by memory traffic. Divide
// the Evaluate figures by these to read the overhead ratio.
func BenchmarkFloor(b *testing.B) {
	for _, k := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("%dx", k), func(b *testing.B) {
			m := p2l.ModelForTest(synth.Generate(synth.Options{Seed: 1, VerticesPerMesh: 72 * k}))
			buf := make([]float32, evalfloor.KeyformBytes(m, benchPose(m, 0.5))/4)
			for i := range buf {
				buf[i] = float32(i & 1023)
			}
			b.SetBytes(int64(4 * len(buf)))
			defer cputime.Lock()()
			b.ResetTimer()
			c0 := cputime.Thread()
			for b.Loop() {
				var s0, s1, s2, s3 float64
				j := 0
				for ; j+4 <= len(buf); j += 4 {
					s0 += float64(buf[j])
					s1 += float64(buf[j+1])
					s2 += float64(buf[j+2])
					s3 += float64(buf[j+3])
				}
				floorSink = s0 + s1 + s2 + s3
			}
			if cpu := cputime.Thread() - c0; cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkEvaluateFloor is the memory floor of BenchmarkEvaluate: one
// pass that reads, from one contiguous buffer, as many bytes as that
// evaluation's pose must read (rest positions and the keyform cells of
// the mesh and warp grids its parameters select: one cell per axis on a
// key, two between keys) and writes the evaluated vertices once (8 bytes
// per vertex). Deformer, parameter and index data are not counted, so it
// is a lower bound.
func BenchmarkEvaluateFloor(b *testing.B) { runEvaluateFloor(b, p2l.ModelForTest(synth.Character(1))) }

// BenchmarkEvaluateDefault evaluates the default character (assets/) at
// the typical animated pose of BenchmarkEvaluate: a real model, whose head
// and body angles reach every deformer and mesh.
func BenchmarkEvaluateDefault(b *testing.B) { runEvaluate(b, defaultCharacter(b), false) }

// BenchmarkEvaluateDefaultFloor is the memory floor of
// BenchmarkEvaluateDefault, as BenchmarkEvaluateFloor is of
// BenchmarkEvaluate.
func BenchmarkEvaluateDefaultFloor(b *testing.B) { runEvaluateFloor(b, defaultCharacter(b)) }

// defaultCharacter loads the default character from assets/.
func defaultCharacter(b *testing.B) *p2l.Model {
	data, err := os.ReadFile("../assets/default.p2lrt")
	if err != nil {
		b.Fatal(err)
	}
	m, err := p2l.Load(data)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func runEvaluateFloor(b *testing.B, m *p2l.Model) {
	f := evalfloor.New(m, animatedPose(m, 0))
	b.SetBytes(int64(f.Bytes()))
	defer cputime.Lock()()
	b.ResetTimer()
	c0 := cputime.Thread()
	for b.Loop() {
		floorSink = f.Pass()
	}
	if cpu := cputime.Thread() - c0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(f.Bytes()), "bytes")
}

// BenchmarkEvaluateUnchanged evaluates the character again with unchanged
// inputs (a paused or fully idle rig): the results are kept.
func BenchmarkEvaluateUnchanged(b *testing.B) {
	m := p2l.ModelForTest(synth.Character(1))
	r := m.NewRig()
	r.SetParameterValues(animatedPose(m, 0))
	r.Evaluate()
	b.ReportAllocs()
	for b.Loop() {
		r.Evaluate()
	}
}

// BenchmarkOutputCheck is the finite check every evaluation ends with
// (vertices, mesh and part opacities, colors and draw orders) on the
// model of BenchmarkEvaluate; compare its cpu-ns/op with that benchmark's
// in the same run.
func BenchmarkOutputCheck(b *testing.B) {
	m := p2l.ModelForTest(synth.Character(1))
	r := m.NewRig()
	r.SetParameterValues(animatedPose(m, 0))
	r.Evaluate()
	defer cputime.Lock()()
	b.ReportAllocs()
	c0 := cputime.Thread()
	for b.Loop() {
		r.CheckOutputsForTest()
	}
	if cpu := cputime.Thread() - c0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	if r.Err() != nil {
		b.Fatal(r.Err())
	}
}
