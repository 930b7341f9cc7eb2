package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

type traceLine struct {
	Frame      int                `json:"frame"`
	Time       float64            `json:"time"`
	Parameters map[string]float64 `json:"parameters"`
	Parts      map[string]float64 `json:"parts"`
	Opacity    float64            `json:"opacity"`
	Events     []struct {
		Value string  `json:"value"`
		Layer int     `json:"layer"`
		Clip  string  `json:"clip"`
		Time  float64 `json:"time"`
	} `json:"events"`
}

func TestTraceCommand(t *testing.T) {
	dir := t.TempDir()
	m := tinyModel()
	m.Parameters = append(m.Parameters, p2lrt.Parameter{ID: "Q", Min: -10, Max: 10})
	m.Clips = []p2lrt.Clip{{ID: "ramp", Duration: 1, Fps: 30, Loop: true, FadeIn: 0, FadeOut: 0,
		Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0},
			Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 1}}}}}},
		Events: []p2lrt.Event{{Time: 0.5, Value: "half"}}}}
	m.Expressions = []p2lrt.Expression{{ID: "up", FadeIn: 0, FadeOut: 0, Entries: []p2lrt.ExpressionEntry{{Parameter: 1, Blend: p2lrt.ExpressionAdd, Value: 3}}}}
	in := filepath.Join(dir, "m.p2lrt")
	var b bytes.Buffer
	if err := m.Write(&b, &p2lrt.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(dir, "in.jsonl")
	os.WriteFile(input, []byte(`{"frame": 2, "set": {"Q": -2}, "expression": "up"}
{"frame": 5, "override": {"Q": [10, 0.5]}, "behaviors": ["blink"]}
`), 0o644)
	args := []string{"trace", in, "--clip", "ramp", "--input", input, "--dt", "0.25", "--frames", "8"}
	code, out, errs := runCmd(args...)
	if code != 0 {
		t.Fatalf("trace: %d %s", code, errs)
	}
	_, out2, _ := runCmd(args...)
	if out != out2 {
		t.Error("two runs differ")
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 8 {
		t.Fatalf("%d lines, want 8", len(lines))
	}
	var events []string
	for f, l := range lines {
		var tl traceLine
		if err := json.Unmarshal([]byte(l), &tl); err != nil {
			t.Fatalf("line %d: %v", f, err)
		}
		// The first update already advances the clip (the reference's
		// clock): clip time (f+1)·0.25, looping.
		if want := float64((f+1)%4) * 0.25; tl.Frame != f || tl.Parameters["P"] != want {
			t.Errorf("frame %d: P = %v, want %v", f, tl.Parameters["P"], want)
		}
		var q float64
		switch {
		case f >= 5:
			q = (-2+3)*0.5 + 10*0.5 // host −2, +3, pulled halfway to 10
		case f >= 2:
			q = 1
		}
		if tl.Parameters["Q"] != q {
			t.Errorf("frame %d: Q = %v, want %v", f, tl.Parameters["Q"], q)
		}
		if tl.Opacity != 1 || tl.Parts["part"] != 1 {
			t.Errorf("frame %d: opacity %v parts %v", f, tl.Opacity, tl.Parts)
		}
		for _, e := range tl.Events {
			if e.Clip != "ramp" || e.Layer != 0 || e.Time != 0.5 {
				t.Errorf("event %+v", e)
			}
			events = append(events, e.Value)
		}
	}
	if len(events) != 2 {
		t.Errorf("events %v, want half twice (frames 1 and 5)", events)
	}
	code, _, errs = runCmd("trace", in, "--clip", "nope")
	if code != 1 || !strings.Contains(errs, "clips: ramp") {
		t.Errorf("unknown clip: %d %q", code, errs)
	}
}

// TestTraceBehaviors: trace starts the rig as NewRig does, with blink and
// breath on (--behaviors default), seeded 1 whatever ran before, so two runs
// agree; --behaviors none leaves the host pose. Breath follows behavior.rs:
// min + (0.5 + 0.5·sin(2π·t/3.2345))·range at behavior time t (the first
// update's dt included), and the eye shuts once within 2–6 s.
func TestTraceBehaviors(t *testing.T) {
	m := tinyModel()
	m.Parameters = append(m.Parameters, p2lrt.Parameter{ID: "B", Min: -2, Max: 2}, p2lrt.Parameter{ID: "E", Min: 0, Max: 1, Default: 1})
	m.Roles = []p2lrt.Role{{Name: "Breath", Parameters: []int{1}}, {Name: "EyeBlink", Parameters: []int{2}}}
	in := writeTiny(t, m)
	trace := func(args ...string) []traceLine {
		t.Helper()
		code, out, errs := runCmd(append([]string{"trace", in, "--dt", "0.125", "--frames", "56"}, args...)...)
		if code != 0 {
			t.Fatalf("trace %v: exit %d: %s", args, code, errs)
		}
		_, out2, _ := runCmd(append([]string{"trace", in, "--dt", "0.125", "--frames", "56"}, args...)...)
		if out != out2 {
			t.Errorf("trace %v: two runs differ", args)
		}
		var lines []traceLine
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var tl traceLine
			if err := json.Unmarshal([]byte(l), &tl); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, tl)
		}
		return lines
	}
	shut := -1.0
	for f, tl := range trace() {
		bt := float64(f+1) * 0.125
		if want := -2 + (0.5+0.5*math.Sin(2*math.Pi*bt/3.2345))*4; math.Abs(tl.Parameters["B"]-want) > 1e-5 {
			t.Errorf("default, frame %d: B = %v, want %v (breath)", f, tl.Parameters["B"], want)
		}
		if tl.Parameters["E"] == 0 && shut < 0 {
			shut = bt
		}
	}
	if shut < 2 || shut > 6.2 {
		t.Errorf("default: the eye first shut at %v s, want within 2–6 s (+ the closing 0.1 s)", shut)
	}
	for f, tl := range trace("--behaviors", "none") {
		if tl.Parameters["B"] != 0 || tl.Parameters["E"] != 1 {
			t.Errorf("none, frame %d: B %v E %v, want the defaults 0 and 1", f, tl.Parameters["B"], tl.Parameters["E"])
		}
	}
	for f, tl := range trace("--behaviors", "breath") {
		if tl.Parameters["E"] != 1 || tl.Parameters["B"] == 0 {
			t.Errorf("breath, frame %d: B %v E %v; want B moving, E at 1", f, tl.Parameters["B"], tl.Parameters["E"])
		}
	}
	for _, bad := range []string{"blinks", "blink,", ""} {
		if code, _, errs := runCmd("trace", in, "--behaviors", bad); code != 2 || !strings.Contains(errs, "--behaviors") {
			t.Errorf("--behaviors %q: exit %d %q, want 2 naming the flag", bad, code, errs)
		}
	}
}
