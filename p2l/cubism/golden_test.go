package cubism

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// The golden files in testdata were produced by running the Live2D Cubism
// Web Framework (5-r.4, commit 677c503) under Node on the inputs they
// contain; only its outputs are kept here. See docs/ANIMATION.md.

type goldenPhysicsCase struct {
	Name     string          `json:"name"`
	Physics3 json.RawMessage `json:"physics3"`
	Params   []struct {
		ID  string  `json:"id"`
		Min float32 `json:"min"`
		Max float32 `json:"max"`
		Def float32 `json:"def"`
	} `json:"params"`
	Wind     [2]float32 `json:"wind"`
	InputIDs []string   `json:"inputIds"`
	Outputs  []string   `json:"outputIds"`
	Frames   []struct {
		Dt        float64   `json:"dt"`
		Stabilize bool      `json:"stabilize"`
		In        []float32 `json:"in"`
		Out       []float64 `json:"out"`
	} `json:"frames"`
}

// TestPhysicsMatchesCubism replays the framework's physics runs: the
// physics3.json is imported with ImportPhysics and run through Rig.Update
// (physics stage); every output must match within 2e-5 on every frame.
func TestPhysicsMatchesCubism(t *testing.T) {
	data, err := os.ReadFile("testdata/cubism-physics.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenPhysicsCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			m := &p2l.Model{Canvas: p2l.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1}, Draw: p2l.DrawGroup{Part: -1}}
			for _, p := range c.Params {
				m.Parameters = append(m.Parameters, p2l.Parameter{ID: p.ID, Min: p.Min, Max: p.Max, Default: p.Def})
			}
			ph, err := ImportPhysics(m, c.Name+".physics3.json", c.Physics3)
			if err != nil {
				t.Fatal(err)
			}
			m.Physics = ph
			r := m.NewRig()
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
			r.SetPhysicsWind(c.Wind[0], c.Wind[1])
			in := make([]int, len(c.InputIDs))
			for k, id := range c.InputIDs {
				in[k] = m.ParameterIndex(id)
			}
			out := make([]int, len(c.Outputs))
			for k, id := range c.Outputs {
				out[k] = m.ParameterIndex(id)
			}
			worst := 0.0
			for f, fr := range c.Frames {
				for k, v := range fr.In {
					r.SetParameter(in[k], v)
				}
				if fr.Stabilize {
					r.UpdateStages(0, 0) // pose the frame without physics
					r.PhysicsStabilize()
				} else {
					r.UpdateStages(float32(fr.Dt), p2l.StagePhysics)
				}
				for k, want := range fr.Out {
					got := float64(r.ParameterCurrent(out[k]))
					d := math.Abs(got - want)
					worst = max(worst, d)
					if d > 2e-5 {
						t.Fatalf("frame %d output %s = %v, Cubism %v (diff %.3g)", f, c.Outputs[k], got, want, d)
					}
				}
			}
			t.Logf("%d frames, worst difference %.3g", len(c.Frames), worst)
		})
	}
}
