package p2l_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// simReference is one testdata/sim-reference-*.json: what PSD2Live's
// reference runtime computed for a model (the file whose SHA-256 is Model)
// playing Clip with the Advanced bits on and behaviors off at 1/60 s per
// update: per update the parameter values it used (p2l_parameter_current)
// and every 10th update the simulated mesh's drawn vertices
// (p2l_mesh_vertices), printed as JSON by the team's harness around the
// reference's C ABI (p2lref update FILE --dt 0.016666668 --frames 300
// --every 1 --behaviors 0 --advanced BITS --clip CLIP; not in this
// repository). P2L_REF=/path/to/p2lref P2L_REF_WRITE=1 go test ./p2l -run
// TestSimulationMatchesReferenceRig records them again.
type simReference struct {
	Note       string
	Model      string
	Clip       string
	Advanced   p2l.Features
	Mesh       int
	Parameters []string
	Values     [][]float32
	Frames     []simCheckpoint
}

type simCheckpoint struct {
	Frame    int
	Vertices []float32
}

// simRecords are the committed simulation references: the colliding cloth
// (every constraint kind, three colliders) and the default character's
// ribbon (two arm capsules, host-posed clip).
var simRecords = []struct {
	json, clip string
	model      func(t *testing.T) (file string, data []byte)
}{
	{"testdata/sim-reference-cloth.json", "Sway", func(t *testing.T) (string, []byte) {
		var b bytes.Buffer
		if err := p2l.Write(&b, p2l.ModelForTest(synth.CollidingCloth()), nil); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(t.TempDir(), "cloth.p2lrt")
		if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return f, b.Bytes()
	}},
	{"testdata/sim-reference-ribbon.json", "Idle", func(t *testing.T) (string, []byte) {
		const f = "../assets/default.p2lrt"
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		return f, data
	}},
}

// TestSimulationMatchesReferenceRig compares the simulated mesh with the
// reference's at every checkpoint twice: driven — the rig set to the
// reference's parameter values update by update, only the simulation stage
// (so that nothing but placement, colliders, timing and the solver is under
// test) — and played — our own playback of the clip with every stage. The
// solver steps bit-identically to the reference's given identical inputs
// (xpbd TestReferenceScenes); the evaluator computes targets and colliders
// with glibc's float32 sine, cosine and arctangent (internal/libm) and
// clips play in float32 as clip.rs, so the whole rig does too: the bound
// is 0.
func TestSimulationMatchesReferenceRig(t *testing.T) {
	for _, rec := range simRecords {
		file, data := rec.model(t)
		if bin := os.Getenv("P2L_REF"); bin != "" && os.Getenv("P2L_REF_WRITE") == "1" {
			writeSimReference(t, bin, rec.json, file, rec.clip, data)
		}
		raw, err := os.ReadFile(rec.json)
		if err != nil {
			t.Fatal(err)
		}
		var ref simReference
		if err := json.Unmarshal(raw, &ref); err != nil {
			t.Fatal(err)
		}
		if got := sha(data); got != ref.Model {
			t.Fatalf("%s: the model is now a different file (SHA-256 %s): its reference numbers are for another one; "+
				"record them again: P2L_REF=/work/ref/bin/p2lref P2L_REF_WRITE=1 go test ./p2l -run TestSimulationMatchesReferenceRig", rec.json, got)
		}
		m, err := p2l.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		idx := make([]int, len(ref.Parameters))
		for i, id := range ref.Parameters {
			if idx[i] = m.ParameterIndex(id); idx[i] < 0 {
				t.Fatalf("%s: no parameter %q", rec.json, id)
			}
		}
		// driven: the reference's parameter values, simulation stage only;
		// played: our own playback of the clip, every stage.
		for _, played := range []bool{false, true} {
			r := m.NewRig()
			r.SetBehaviors(0)
			if got := r.SetAdvanced(ref.Advanced); got != ref.Advanced {
				t.Fatalf("%s: advanced %b of %b: %v", rec.json, got, ref.Advanced, m.PrepareAdvanced())
			}
			mode := "driven"
			if played {
				mode = "played"
				r.Layer(0).Start(m.ClipIndex(ref.Clip))
			}
			values := make([]float32, m.Parameters().Len())
			next, worst, differ := 0, 0.0, 0
			for k, vals := range ref.Values {
				if played {
					r.UpdateStages(float64(float32(1.0/60)), p2l.AllStages)
				} else {
					for i, v := range vals {
						values[idx[i]] = v
					}
					r.SetParameterValues(values)
					r.UpdateStages(float64(float32(1.0/60)), p2l.StageSimulation)
				}
				if next < len(ref.Frames) && ref.Frames[next].Frame == k+1 {
					got := r.Mesh(ref.Mesh).Vertices()
					if len(got) != len(ref.Frames[next].Vertices) {
						t.Fatalf("%s: mesh %d has %d floats, the reference %d", rec.json, ref.Mesh, len(got), len(ref.Frames[next].Vertices))
					}
					for i, v := range ref.Frames[next].Vertices {
						if math.Float32bits(got[i]) != math.Float32bits(v) {
							differ++
						}
						worst = math.Max(worst, math.Abs(float64(got[i])-float64(v)))
					}
					next++
				}
			}
			if next != len(ref.Frames) || next < 30 || len(ref.Values) < 300 {
				t.Fatalf("%s: compared %d of %d checkpoints over %d updates", rec.json, next, len(ref.Frames), len(ref.Values))
			}
			if differ > 0 {
				t.Errorf("%s %s: %d vertex floats differ from the reference runtime's (max %.3g px) over %d updates (want bit-identical)", rec.json, mode, differ, worst, len(ref.Values))
			}
			t.Logf("%s %s: %d checkpoints over %d updates, %d floats differ from the reference runtime (max %.3g px)", rec.json, mode, next, len(ref.Values), differ, worst)
		}
	}
}

// writeSimReference records rec.json from the reference runtime.
func writeSimReference(t *testing.T, bin, out, file, clip string, data []byte) {
	m, err := p2l.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	sims, _ := m.Simulations()
	if len(sims.Sims) == 0 || len(sims.Sims[0].Targets) == 0 {
		t.Fatalf("%s: no simulation", file)
	}
	bits := m.AdvancedAvailable()
	const dt = float32(1.0 / 60)
	frames := refSimRun(t, bin, file, clip, bits, dt, 300)
	mesh := sims.Sims[0].Targets[0].Mesh
	rec := simReference{
		Note: "See simref_test.go: reference runtime (pattoneirc/psd2live runtime/, sources of COMMITS.txt: sim.rs ec8af5e6, advanced.rs e7a12ab0, ffi.rs cccb8a95) " +
			"built on Debian 12 (glibc 2.36, x86-64) via the harness: p2lref update FILE --dt 0.016666668 --frames 300 --every 1 --behaviors 0 --advanced " +
			strconv.Itoa(int(bits)) + " --clip " + clip + "; Values = p2l_parameter_current per update, Frames = p2l_mesh_vertices of mesh " +
			m.Meshes().At(mesh).ID + " every 10th update.",
		Model: sha(data), Clip: clip, Advanced: bits, Mesh: mesh,
	}
	for _, p := range frames[0].Parameters {
		rec.Parameters = append(rec.Parameters, p.ID)
	}
	for _, f := range frames {
		vals := make([]float32, len(f.Parameters))
		for i, p := range f.Parameters {
			vals[i] = p.Current
		}
		rec.Values = append(rec.Values, vals)
		if f.Frame%10 == 0 {
			cp := simCheckpoint{Frame: f.Frame}
			for _, v := range f.Meshes[mesh].Vertices {
				if v == nil {
					t.Fatalf("%s frame %d: non-finite vertex", file, f.Frame)
				}
				cp.Vertices = append(cp.Vertices, *v)
			}
			rec.Frames = append(rec.Frames, cp)
		}
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", out)
}
