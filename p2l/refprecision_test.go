package p2l_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// This file checks PlaybackReference, the float32 playback of models that
// do not come from the Cubism importer (docs/ANIMATION.md §2a), against
// PSD2Live's reference runtime at dt that are not powers of two, where a
// float64 clock and the reference's float32 one part after a few frames.
// refPlayModel (refplay_test.go), written by our writer, is played in both;
// the reference's answers are in testdata/reference-precision.jsonl, one
// line per scenario, recorded by TestReferencePrecisionLive with
// P2L_REF=/work/ref/bin/p2lref P2L_REF_WRITE=1 (each line holds the
// harness command and the SHA-256 of the file it read).

// precisionScenario is one run: p2lref update FILE --behaviors 0 --dt Dt
// --frames Frames --stages Stages [--clip] [--expression] [--pose] [--param].
type precisionScenario struct {
	Name       string             `json:"name"`
	Dt         float32            `json:"dt"`
	Frames     int                `json:"frames"`
	Stages     int                `json:"stages"`
	Clip       string             `json:"clip,omitempty"`
	Expression string             `json:"expression,omitempty"`
	Pose       []int              `json:"pose,omitempty"`
	Params     map[string]float32 `json:"params,omitempty"`
}

// precisionScenarios are the recorded runs. Stages 15: clips,
// expressions, behaviors (off), pose; 31 adds physics (Fps 32).
var precisionScenarios = []precisionScenario{
	{Name: "loop-expression-1/60", Dt: 1.0 / 60, Frames: 300, Stages: 15, Clip: "Loop", Expression: "Smile", Params: map[string]float32{"X": 2, "Y": -3}},
	{Name: "loop-0.1", Dt: 0.1, Frames: 100, Stages: 15, Clip: "Loop"},
	{Name: "once-1/60", Dt: 1.0 / 60, Frames: 120, Stages: 15, Clip: "Once", Params: map[string]float32{"Step": 4}},
	{Name: "once-0.05", Dt: 0.05, Frames: 40, Stages: 15, Clip: "Once"},
	{Name: "once-0.03", Dt: 0.03, Frames: 60, Stages: 15, Clip: "Once", Expression: "Smile"},
	{Name: "pose-1/60", Dt: 1.0 / 60, Frames: 40, Stages: 15, Pose: []int{0, 1}},
	{Name: "pose-0.07", Dt: 0.07, Frames: 12, Stages: 15, Pose: []int{0, 1}},
	{Name: "loop-physics-1/60", Dt: 1.0 / 60, Frames: 300, Stages: 31, Clip: "Loop", Params: map[string]float32{"X": 2, "Hair": 7, "Hair2": -5}},
	{Name: "once-physics-0.05", Dt: 0.05, Frames: 40, Stages: 31, Clip: "Once", Params: map[string]float32{"Hair": 7}},
}

func (s *precisionScenario) args(file string) []string {
	a := []string{"update", file, "--behaviors", "0",
		"--dt", strconv.FormatFloat(float64(s.Dt), 'g', -1, 32),
		"--frames", strconv.Itoa(s.Frames), "--stages", strconv.Itoa(s.Stages)}
	for id, v := range s.Params {
		a = append(a, "--param", id+"="+strconv.FormatFloat(float64(v), 'g', -1, 32))
	}
	if s.Clip != "" {
		a = append(a, "--clip", s.Clip)
	}
	if s.Expression != "" {
		a = append(a, "--expression", s.Expression)
	}
	if s.Pose != nil {
		a = append(a, "--pose", fmt.Sprintf("%d=%d", s.Pose[0], s.Pose[1]))
	}
	return a
}

// precisionFrame is what one update of the reference gave.
type precisionFrame struct {
	Params   []float32 `json:"params"`   // current values (before its clamp), PARM order
	Opacity  []float32 `json:"opacity"`  // mesh opacities
	Rig      float32   `json:"rig"`      // p2l_opacity
	Events   []string  `json:"events"`   // fired event texts
	ClipTime float32   `json:"clipTime"` // layer 0's clip time
	// vertices are every mesh's drawn vertices (live runs only).
	vertices [][]float32
}

type precisionRecord struct {
	Scenario precisionScenario `json:"scenario"`
	Cmd      string            `json:"cmd"`
	SHA256   string            `json:"sha256"`
	Frames   []precisionFrame  `json:"frames"`
}

const precisionFile = "testdata/reference-precision.jsonl"

// writtenRefPlayModel returns refPlayModel as our writer writes it, loaded.
func writtenRefPlayModel(t *testing.T) (*p2l.Model, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := p2l.Write(&b, refPlayModel(), nil); err != nil {
		t.Fatal(err)
	}
	m, err := p2l.Load(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return m, b.Bytes()
}

// TestReferencePrecision replays the recorded scenarios: every parameter,
// mesh opacity, the rig opacity and the clip time must be the reference's
// float32 to the bit (parameters after the evaluation's clamp, which both
// apply), and the events the same.
func TestReferencePrecision(t *testing.T) {
	data, err := os.ReadFile(precisionFile)
	if err != nil {
		t.Fatal(err)
	}
	m, file := writtenRefPlayModel(t)
	if m.Playback() != p2l.PlaybackReference {
		t.Fatalf("a model without the META mark plays as %v", m.Playback())
	}
	n := 0
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var rec precisionRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		if rec.SHA256 != sha(file) {
			t.Fatalf("refPlayModel as written changed since %s was recorded: with the reference harness, rerun "+
				"P2L_REF=/work/ref/bin/p2lref P2L_REF_WRITE=1 go test ./p2l -run TestReferencePrecisionLive", precisionFile)
		}
		comparePrecision(t, m, &rec.Scenario, rec.Frames)
		n++
	}
	if n != len(precisionScenarios) {
		t.Errorf("%d recorded scenarios, %d defined: rerecord", n, len(precisionScenarios))
	}
}

// comparePrecision plays sc on a new rig of m, compares each frame with ref
// and logs the largest differences and how many values are not
// bit-identical; every value must agree to the bit. (With a correctly
// rounded cosine instead of glibc's cosf in the fades, one value in 12,096
// differed by an ulp.)
func comparePrecision(t *testing.T, m *p2l.Model, sc *precisionScenario, ref []precisionFrame) (worstP, worstO float64) {
	t.Helper()
	r := scenarioRig(m, sc.Params, sc.Clip, sc.Expression, sc.Pose)
	r.SetBehaviors(0)
	bad := 0
	fail := func(format string, args ...any) {
		if bad++; bad <= 10 {
			t.Errorf(sc.Name+": "+format, args...)
		}
	}
	inexact, values := 0, 0
	check := func(what string, f int, got, want, scale float64) float64 {
		values++
		d := math.Abs(got-want) / scale
		if d != 0 {
			inexact++
		}
		if d != 0 {
			fail("frame %d: %s = %v, reference %v", f+1, what, got, want)
		}
		return d
	}
	for f, fr := range ref {
		r.UpdateStages(float64(sc.Dt), p2l.Stage(sc.Stages))
		for i, want := range fr.Params {
			p := m.Parameters().At(i)
			want = min(max(want, p.Min), p.Max)
			worstP = max(worstP, check(p.ID, f, float64(r.ParameterCurrent(i)), float64(want), float64(p.Max-p.Min)))
		}
		for i, want := range fr.Opacity {
			worstO = max(worstO, check(fmt.Sprintf("mesh %d opacity", i), f, float64(r.Mesh(i).Opacity()), float64(want), 1))
		}
		worstO = max(worstO, check("rig opacity", f, float64(r.OpacityMultiplier()), float64(fr.Rig), 1))
		if sc.Clip != "" {
			if got := r.Layer(0).Time(); got != float64(fr.ClipTime) {
				fail("frame %d: clip time %v, reference %v (the float32 clock)", f+1, got, fr.ClipTime)
			}
		}
		var got []string
		for _, e := range r.Events() {
			if !e.Finished { // the reference has no finished events
				got = append(got, e.Value)
			}
		}
		if strings.Join(got, ",") != strings.Join(fr.Events, ",") {
			fail("frame %d: events %q, reference %q", f+1, got, fr.Events)
		}
	}
	t.Logf("%s: %d frames, parameters within %.3g of their range, opacities within %.3g; %d of %d values not bit-identical",
		sc.Name, len(ref), worstP, worstO, inexact, values)
	return worstP, worstO
}

// TestReferencePrecisionLive (P2L_REF set) runs the scenarios in the
// reference harness and compares live; with P2L_REF_WRITE=1 it rewrites
// testdata/reference-precision.jsonl.
func TestReferencePrecisionLive(t *testing.T) {
	bin := os.Getenv("P2L_REF")
	if bin == "" {
		t.Skip("P2L_REF not set (path of the reference harness p2lref)")
	}
	m, file := writtenRefPlayModel(t)
	path := t.TempDir() + "/refplay.p2lrt"
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for i := range precisionScenarios {
		sc := &precisionScenarios[i]
		args := sc.args(path)
		frames := runPrecision(t, bin, args)
		comparePrecision(t, m, sc, frames)
		cmd := "p2lref " + strings.Join(sc.args("refPlayModel.p2lrt"), " ")
		b, err := json.Marshal(precisionRecord{Scenario: *sc, Cmd: cmd, SHA256: sha(file), Frames: frames})
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	if os.Getenv("P2L_REF_WRITE") == "1" {
		if err := os.WriteFile(precisionFile, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runPrecision runs p2lref and keeps what precisionFrame holds.
func runPrecision(t *testing.T, bin string, args []string) []precisionFrame {
	t.Helper()
	type refLine struct {
		Parameters []struct {
			Current float32 `json:"current"`
		} `json:"parameters"`
		Meshes []struct {
			Opacity  float32   `json:"opacity"`
			Vertices []float32 `json:"vertices"`
		} `json:"meshes"`
		Opacity  float32 `json:"opacity"`
		ClipTime float32 `json:"clip_time"`
		Events   []struct {
			Value string `json:"value"`
		} `json:"events"`
	}
	var frames []precisionFrame
	for _, line := range refLines[refLine](t, bin, args) {
		var f precisionFrame
		for _, p := range line.Parameters {
			f.Params = append(f.Params, p.Current)
		}
		for _, m := range line.Meshes {
			f.Opacity = append(f.Opacity, m.Opacity)
			f.vertices = append(f.vertices, m.Vertices)
		}
		for _, e := range line.Events {
			f.Events = append(f.Events, e.Value)
		}
		f.Rig, f.ClipTime = line.Opacity, line.ClipTime
		frames = append(frames, f)
	}
	return frames
}

// TestReferencePrecisionDefaultLive (P2L_REF set) plays the default
// character's clips and expressions in both runtimes, behaviors off, and
// logs the largest differences (docs/ANIMATION.md §9, "On the default
// character"). It fails only beyond the loose bounds of a broken playback.
func TestReferencePrecisionDefaultLive(t *testing.T) {
	bin := os.Getenv("P2L_REF")
	if bin == "" {
		t.Skip("P2L_REF not set (path of the reference harness p2lref)")
	}
	const file = "../assets/default.p2lrt"
	m, err := p2l.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		clip, expr string
		dt         float32
		frames     int
		stages     int
	}{
		{"Idle", "", 1.0 / 60, 300, 63}, {"Greeting", "", 1.0 / 60, 300, 63}, {"Nod", "", 1.0 / 60, 300, 63},
		{"Surprise", "", 1.0 / 60, 300, 63}, {"", "Smile", 1.0 / 60, 120, 63}, {"", "Surprised", 1.0 / 60, 120, 63},
		{"Greeting", "Sad", 1.0 / 30, 240, 63}, {"Idle", "", 0.05, 200, 63},
		{"Idle", "", 1.0 / 60, 300, 15}, {"Greeting", "Sad", 1.0 / 30, 240, 15}, {"Idle", "", 0.05, 200, 15},
	} {
		sc := precisionScenario{Name: fmt.Sprintf("%s+%s dt %v stages %d", c.clip, c.expr, c.dt, c.stages),
			Dt: c.dt, Frames: c.frames, Stages: c.stages, Clip: c.clip, Expression: c.expr}
		args := append(sc.args(file), "--every", "1")
		ref := runPrecision(t, bin, args)
		r := scenarioRig(m, nil, c.clip, c.expr, nil)
		r.SetBehaviors(0)
		worstP, worstV, worstAt := 0.0, 0.0, ""
		for f, fr := range ref {
			r.UpdateStages(float64(c.dt), p2l.Stage(c.stages))
			for i, want := range fr.Params {
				p := m.Parameters().At(i)
				want = min(max(want, p.Min), p.Max)
				if d := math.Abs(float64(r.ParameterCurrent(i)-want)) / float64(p.Max-p.Min); d > worstP {
					worstP, worstAt = d, fmt.Sprintf("%s, frame %d", p.ID, f+1)
				}
			}
			for mi, vs := range fr.vertices {
				got := r.Mesh(mi).Vertices()
				for i, v := range vs {
					worstV = max(worstV, math.Abs(float64(got[i]-v)))
				}
			}
		}
		t.Logf("%s, %d frames: parameters within %.3g of their range (%s), vertices within %.3g px", sc.Name, len(ref), worstP, worstAt, worstV)
		if worstP > 0.05 {
			t.Errorf("%s: parameters %.3g of their range apart", sc.Name, worstP)
		}
	}
}
