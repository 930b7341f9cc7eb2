package p2l_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// simFrame is one line of `p2lref update`: the parameters the update used
// and every mesh's drawn vertices, as the shortest float32 decimals.
type simFrame struct {
	Frame      int `json:"frame"`
	Parameters []struct {
		ID      string  `json:"id"`
		Current float32 `json:"current"`
	} `json:"parameters"`
	Colliders []float32 `json:"sim_colliders"`
	Meshes    []struct {
		Index    int        `json:"index"`
		Vertices []*float32 `json:"vertices"`
	} `json:"meshes"`
}

// refSimRun runs `p2lref update FILE --dt DT --frames N --every 1
// --behaviors 0 --advanced BITS --clip CLIP` and returns its frames.
func refSimRun(t *testing.T, bin, file, clip string, bits p2l.Features, dt float32, frames int) []simFrame {
	t.Helper()
	args := []string{"update", file,
		"--dt", strconv.FormatFloat(float64(dt), 'g', -1, 32),
		"--frames", strconv.Itoa(frames), "--every", "1",
		"--behaviors", "0", "--advanced", strconv.Itoa(int(bits))}
	if clip != "" {
		args = append(args, "--clip", clip)
	}
	if st := os.Getenv("SIMSTAGES"); st != "" {
		args = append(args, "--stages", st)
	}
	fr := refLines[simFrame](t, bin, args)
	if len(fr) != frames {
		t.Fatalf("p2lref printed %d frames, want %d", len(fr), frames)
	}
	return fr
}

// TestSimulationLive (P2L_REF set) plays clips on the default character
// and on synth.CollidingCloth in both runtimes, behaviors off and the
// file's advanced features on, and logs the per-frame maximum difference
// of the simulated meshes.
func TestSimulationLive(t *testing.T) {
	bin := os.Getenv("P2L_REF")
	if bin == "" {
		t.Skip("P2L_REF not set (path of the reference harness p2lref)")
	}
	cloth := filepath.Join(t.TempDir(), "cloth.p2lrt")
	if v := os.Getenv("SIMCLOTH"); v != "" {
		cloth = v
	}
	{
		f, err := os.Create(cloth)
		if err != nil {
			t.Fatal(err)
		}
		if err := p2l.Write(f, p2l.ModelForTest(synth.CollidingCloth()), nil); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	for _, c := range []struct{ file, clip string }{
		{cloth, "Sway"},
		{"../assets/default.p2lrt", "Idle"},
		{"../assets/default.p2lrt", "Greeting"},
		{"../assets/default.p2lrt", "Nod"},
		{"../assets/default.p2lrt", "Surprise"},
	} {
		m, err := p2l.LoadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		bits := m.AdvancedAvailable()
		if v := os.Getenv("SIMBITS"); v != "" {
			n, _ := strconv.Atoi(v)
			bits = p2l.Features(n)
		}
		const dt = float32(1.0 / 60)
		const frames = 300
		ref := refSimRun(t, bin, c.file, c.clip, bits, dt, frames)
		r := m.NewRig()
		r.SetBehaviors(0)
		if got := r.SetAdvanced(bits); got != bits {
			t.Fatalf("advanced %b of %b", got, bits)
		}
		r.Layer(0).Start(m.ClipIndex(c.clip))
		var targets []int
		sims, _ := m.Simulations()
		for _, s := range sims.Sims {
			for _, tg := range s.Targets {
				targets = append(targets, tg.Mesh)
			}
		}
		worst, worstP, first := 0.0, 0.0, -1
		driven := os.Getenv("SIMDRIVEN") != ""
		values := make([]float32, m.Parameters().Len())
		allW := 0.0
		for k, f := range ref {
			if driven {
				for _, p := range f.Parameters {
					values[m.ParameterIndex(p.ID)] = p.Current
				}
				r.SetParameterValues(values)
				r.UpdateStages(float64(dt), p2l.StageSimulation)
			} else {
				st := p2l.AllStages
				if v := os.Getenv("SIMSTAGES"); v != "" {
					n, _ := strconv.Atoi(v)
					st = p2l.Stage(n)
				}
				r.UpdateStages(float64(dt), st)
			}
			for mi := range f.Meshes {
				got := r.Mesh(mi).Vertices()
				for i, v := range f.Meshes[mi].Vertices {
					allW = math.Max(allW, math.Abs(float64(got[i]-*v)))
				}
			}
			for _, p := range f.Parameters {
				d := math.Abs(float64(r.ParameterCurrent(m.ParameterIndex(p.ID)) - p.Current))
				if d > 0 && os.Getenv("SIMDEBUG") != "" && k < 40 {
					t.Logf("frame %d param %s ours %v ref %v", k+1, p.ID, r.ParameterCurrent(m.ParameterIndex(p.ID)), p.Current)
				}
				worstP = math.Max(worstP, d)
			}
			if cs := r.SimCollidersForTest(); os.Getenv("SIMDEBUG") != "" && k < 40 {
				for i := range f.Colliders {
					if cs[i] != f.Colliders[i] {
						t.Logf("frame %d collider float %d ours %v ref %v", k+1, i, cs[i], f.Colliders[i])
					}
				}
			}
			fw := 0.0
			for _, mi := range targets {
				got := r.Mesh(mi).Vertices()
				for i, v := range f.Meshes[mi].Vertices {
					fw = math.Max(fw, math.Abs(float64(got[i]-*v)))
				}
			}
			if fw > 0 && first < 0 && os.Getenv("SIMDEBUG") != "" {
				for mi := range f.Meshes {
					got := r.Mesh(mi).Vertices()
					for i, v := range f.Meshes[mi].Vertices {
						if got[i] != *v {
							t.Logf("frame %d mesh %d float %d ours %v ref %v", k+1, mi, i, got[i], *v)
						}
					}
				}
			}
			if fw > 0 && first < 0 {
				first = k + 1
			}
			if fw > worst {
				worst = fw
			}
			if (k+1)%30 == 0 {
				t.Logf("%s %s frame %d: %.3g px", c.file, c.clip, k+1, fw)
			}
		}
		t.Logf("%s %s: max %.3g px over %d frames (first difference at frame %d); parameters ≤ %.3g; all meshes ≤ %.3g", c.file, c.clip, worst, frames, first, worstP, allW)
	}
}
