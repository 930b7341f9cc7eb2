package main

import (
	"encoding/json"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// traceFuzzModel is tinyModel with what trace inputs can name: a clip, an
// expression, a pose group, physics and the behavior roles.
func traceFuzzModel() *p2lrt.File {
	m := tinyModel()
	m.Parameters = append(m.Parameters, p2lrt.Parameter{ID: "Q", Min: -30, Max: 30})
	m.Clips = []p2lrt.Clip{{ID: "Idle", Duration: 1, Loop: true, FadeIn: 0.2, FadeOut: 0.2,
		Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Start: p2lrt.Point{}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 1}}}}}},
		Events: []p2lrt.Event{{Time: 0.5, Value: "half"}}}}
	m.Expressions = []p2lrt.Expression{{ID: "Smile", FadeIn: 0.3, FadeOut: 0.3, Entries: []p2lrt.ExpressionEntry{{Parameter: 1, Blend: p2lrt.ExpressionAdd, Value: 5}}}}
	m.Roles = []p2lrt.Role{{Name: "LipSync", Parameters: []int{0}}, {Name: "AngleX", Parameters: []int{1}}}
	m.Physics = p2lrt.Physics{Fps: 30, Groups: []p2lrt.PhysicsGroup{{ID: "g",
		Inputs:        []p2lrt.PhysicsInput{{Parameter: 1, Source: p2lrt.PhysicsX, Weight: 100}},
		Outputs:       []p2lrt.PhysicsOutput{{Parameter: 0, Vertex: 1, Source: p2lrt.PhysicsAngle, Scale: 1, Weight: 100}},
		Segments:      []p2lrt.PhysicsSegment{{Length: 10, Mobility: 0.9, Delay: 0.9, Acceleration: 1}},
		Normalization: p2lrt.PhysicsNormalization{PositionMin: -10, PositionMax: 10, AngleMin: -10, AngleMax: 10}}}}
	return m
}

// FuzzTraceInput feeds arbitrary --input files to trace's parser and, when
// they parse, plays them (up to 40 frames) on a model with clips,
// expressions, physics and behaviors: nothing may panic or fail the rig,
// and every frame line must be valid JSON.
func FuzzTraceInput(f *testing.F) {
	f.Add([]byte(`{"frame": 0, "set": {"P": 0.5}, "play": "Idle"}
{"frame": 3, "override": {"Q": [5, 0.5]}, "lookAt": [0.5, 0], "lipSync": 0.3, "behaviors": ["blink", "breath", "lookAt", "lipSync"]}
{"frame": 5, "strength": 2, "seed": 7, "playLayer": {"layer": 1, "clip": "Idle", "priority": 2}, "stopLayer": 1}
{"frame": 6, "layerWeight": {"layer": 1, "weight": 0.5}, "seek": 0.25, "expression": "Smile", "addExpression": "Smile"}
{"frame": 9, "removeExpression": "Smile", "showPose": [0, 1], "opacity": 0.8, "wind": [0.3, 0], "stabilize": true}`))
	f.Add([]byte(`{"frame": 2, "set": {"P": 1e30}, "lookAt": [1e38, -1e38], "seek": 1e300, "strength": 3e38}`))
	f.Add([]byte(`{"frame":1000000000000}`))
	m := synth.MustModel(traceFuzzModel())
	f.Fuzz(func(t *testing.T, data []byte) {
		inputs, err := parseTraceInput("fuzz", data)
		if err != nil {
			return
		}
		r := m.NewRig()
		next := 0
		var line []byte
		for fr := 0; fr < 40; fr++ {
			for next < len(inputs) && inputs[next].Frame == fr {
				stabilize, err := applyTraceInput(m, r, &inputs[next])
				if err != nil {
					return // an unknown name: trace stops with this error
				}
				if stabilize {
					r.Physics().Stabilize()
				}
				next++
			}
			r.Update(1.0 / 60)
			if err := r.Err(); err != nil {
				t.Fatalf("frame %d: the rig failed: %v", fr, err)
			}
			line = appendTraceFrame(line[:0], m, r, fr, float64(fr+1)/60)
			if !json.Valid(line) {
				t.Fatalf("frame %d: invalid JSON %s", fr, line)
			}
		}
	})
}
