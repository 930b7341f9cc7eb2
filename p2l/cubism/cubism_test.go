package cubism

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func baseModel() *p2lrt.File {
	return &p2lrt.File{
		Parameters: []p2lrt.Parameter{
			{ID: "ParamAngleX", Min: -30, Max: 30}, {ID: "ParamEyeLOpen", Min: 0, Max: 1, Default: 1},
			{ID: "ParamHair", Min: -1, Max: 1},
		},
		Parts: []p2lrt.Part{{ID: "PartArmA"}, {ID: "PartArmB"}, {ID: "PartHandA"}},
	}
}

const motion = `{
 "Version": 3,
 "Meta": {"Duration": 2, "Fps": 30, "Loop": true, "AreBeziersRestricted": true, "FadeInTime": 0.5},
 "Curves": [
  {"Target": "Model", "Id": "EyeBlink", "Segments": [0, 1, 0, 2, 0]},
  {"Target": "Model", "Id": "Opacity", "Segments": [0, 1, 0, 2, 1]},
  {"Target": "Parameter", "Id": "ParamAngleX", "FadeInTime": 0.2,
   "Segments": [0, 0, 1, 0.5, 10, 1, 20, 1, 10, 3, 2, 5]},
  {"Target": "PartOpacity", "Id": "PartArmB", "Segments": [0, 1, 2, 1, 0]}
 ],
 "UserData": [{"Time": 1.5, "Value": "b"}, {"Time": 0.5, "Value": "a"}]
}`

func TestImportMotion(t *testing.T) {
	m := baseModel()
	c, warns, err := ImportMotion(m, "dir/idle_01.motion3.json", []byte(motion))
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	if c.ID != "idle_01" || c.Duration != 2 || c.Fps != 30 || c.Loop || c.FadeIn != 0.5 || c.FadeOut != 1 {
		t.Errorf("clip header %+v", c)
	}
	if len(c.Curves) != 1 || c.Curves[0].Parameter != 0 {
		t.Fatalf("curves %+v", c.Curves)
	}
	segs := c.Curves[0].Segments
	if len(segs) != 2 || segs[0].Kind != p2lrt.SegmentBezier || segs[0].C1 != (p2lrt.Point{T: 0.5, V: 10}) ||
		segs[0].C2 != (p2lrt.Point{T: 1, V: 20}) || segs[0].End != (p2lrt.Point{T: 1, V: 10}) ||
		segs[1].Kind != p2lrt.SegmentInverseStepped || segs[1].End != (p2lrt.Point{T: 2, V: 5}) {
		t.Errorf("segments %+v", segs)
	}
	if len(c.CurveFades) != 1 || c.CurveFades[0] != (p2lrt.CurveFade{Curve: 0, FadeIn: 0.2, FadeOut: -1}) {
		t.Errorf("curve fades %+v", c.CurveFades)
	}
	if len(c.TargetCurves) != 3 || c.TargetCurves[0].Target != p2lrt.TargetBlink ||
		c.TargetCurves[1].Target != p2lrt.TargetModelOpacity || c.TargetCurves[2].Target != p2lrt.TargetPartOpacity ||
		c.TargetCurves[2].Part != 1 || c.TargetCurves[2].Segments[0].Kind != p2lrt.SegmentStepped || c.TargetCurves[0].Segments[0].Kind != p2lrt.SegmentLinear {
		t.Errorf("target curves %+v", c.TargetCurves)
	}
	if len(c.Events) != 2 || c.Events[0] != (p2lrt.Event{Time: 0.5, Value: "a"}) || c.Events[1] != (p2lrt.Event{Time: 1.5, Value: "b"}) {
		t.Errorf("events %+v (want sorted by time)", c.Events)
	}
}

// frameworkBezier is the framework's unrestricted Bezier value at time t
// (CubismMotion.ts bezierEvaluateCardanoInterpretation: the curve parameter
// u solves x(u) = t, the value is y(u)), computed here independently of the
// importer's Cardano code: by bisection, valid for the monotonic x(u) of
// the segments used in these tests.
func frameworkBezier(x, y [4]float64, t float64) float64 {
	bern := func(c [4]float64, u float64) float64 {
		v := 1 - u
		return v*v*v*c[0] + 3*v*v*u*c[1] + 3*v*u*u*c[2] + u*u*u*c[3]
	}
	lo, hi := 0.0, 1.0
	for range 100 {
		mid := (lo + hi) / 2
		if bern(x, mid) < t {
			lo = mid
		} else {
			hi = mid
		}
	}
	return bern(y, (lo+hi)/2)
}

// TestUnrestrictedBezier: Bezier segments of a file without
// AreBeziersRestricted become a few restricted pieces that stay within
// 1e-5 of the target's range of the framework's cubic-in-time curve.
func TestUnrestrictedBezier(t *testing.T) {
	cases := []struct {
		name string
		x, y [4]float64 // start, control 1, control 2, end
		max  int        // most pieces expected
	}{
		// x(u) = y(u): the value equals the time, a single piece.
		{"identity", [4]float64{0, 0, 1, 1}, [4]float64{0, 0, 1, 1}, 1},
		{"ease-in-out", [4]float64{0, 0.4, 0.6, 1}, [4]float64{0, 0, 1, 1}, 8},
		{"steep", [4]float64{0, 0.05, 0.9, 1}, [4]float64{0, 1, 1, 1}, 16},
		{"long-offset", [4]float64{12.5, 13.1, 15.2, 16.25}, [4]float64{-0.8, 0.9, -1, 0.6}, 16},
	}
	for _, cs := range cases {
		js := fmt.Sprintf(`{"Meta": {"Duration": 20, "Fps": 30}, "Curves": [{"Target": "Parameter", "Id": "ParamHair",
		  "Segments": [%v, %v, 1, %v, %v, %v, %v, %v, %v]}]}`, cs.x[0], cs.y[0], cs.x[1], cs.y[1], cs.x[2], cs.y[2], cs.x[3], cs.y[3])
		c, _, err := ImportMotion(baseModel(), "e.motion3.json", []byte(js))
		if err != nil {
			t.Fatal(err)
		}
		cv := c.Curves[0].Curve
		if n := len(cv.Segments); n > cs.max {
			t.Errorf("%s: %d pieces, want at most %d", cs.name, n, cs.max)
		}
		const rng = 2 // ParamHair runs over [-1, 1]
		worst := 0.0
		for k := 0; k <= 1000; k++ {
			tm := cs.x[0] + (cs.x[3]-cs.x[0])*float64(k)/1000
			want := frameworkBezier(cs.x, cs.y, tm)
			worst = max(worst, math.Abs(float64(p2l.CurveValue(&cv, tm))-want))
		}
		if worst > 1e-5*rng {
			t.Errorf("%s: %d pieces, worst difference %.3g, want ≤ %.3g", cs.name, len(cv.Segments), worst, 1e-5*rng)
		}
		t.Logf("%s: %d pieces, worst difference %.3g of the range", cs.name, len(cv.Segments), worst/rng)
	}
	// Restricted files keep the Bezier as is.
	js := `{"Meta": {"Duration": 1, "AreBeziersRestricted": true}, "Curves": [{"Target": "Parameter", "Id": "ParamHair", "Segments": [0, 0, 1, 0.4, 0, 0.6, 1, 1, 1]}]}`
	c, _, _ := ImportMotion(baseModel(), "e.motion3.json", []byte(js))
	if len(c.Curves[0].Segments) != 1 {
		t.Errorf("restricted file: %d segments, want 1", len(c.Curves[0].Segments))
	}
}

// TestImportWarnings: what the framework skips or reads as a default is
// skipped (or read the same way) with a warning naming the field, and the
// rest of the file is imported.
func TestImportWarnings(t *testing.T) {
	const ok = `{"Target": "Parameter", "Id": "ParamHair", "Segments": [0, 0, 0, 1, 1]}`
	cases := []struct {
		name, data, field string
		check             func(*p2l.Model) bool
	}{
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "Nope", "Segments": [0, 0, 0, 1, 1]}, ` + ok + `]}`, "Curves[0].Id",
			func(m *p2l.Model) bool { return len(m.Clips().At(0).Curves) == 1 }},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "ParamHair", "Segments": [0, 0, 7, 1, 1]}, ` + ok + `]}`, "Curves[0].Segments[2]",
			func(m *p2l.Model) bool { return len(m.Clips().At(0).Curves) == 1 }},
		// Numbers past the end of the array read as 0, as in the framework.
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "ParamHair", "Segments": [0, 0.5, 0, 1]}]}`, "Curves[0].Segments",
			func(m *p2l.Model) bool {
				c := m.Clips().At(0).Curves
				return len(c) == 1 && len(c[0].Segments) == 1 && c[0].Segments[0].End == p2lrt.Point{T: 1, V: 0}
			}},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "ParamHair", "Segments": [0, 0.5]}]}`, "Curves[0].Segments",
			func(m *p2l.Model) bool {
				c := m.Clips().At(0).Curves
				return len(c) == 1 && len(c[0].Segments) == 1 && c[0].Segments[0] == p2lrt.Segment{}
			}},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "ParamHair", "Segments": [1, 0, 0, 0.5, 1]}]}`, "Curves[0].Segments[2]", nil},
		{"a.motion3.json", `{"Meta": {"Duration": -1}, "Curves": [` + ok + `]}`, "Meta.Duration",
			func(m *p2l.Model) bool { return m.Clips().At(0).Duration == 1 }},
		{"a.motion3.json", `{"Meta": {}, "UserData": [{"Time": 2.5, "Value": "x"}]}`, "Meta.Duration",
			func(m *p2l.Model) bool { return m.Clips().At(0).Duration == 2.5 }},
		{"a.motion3.json", `{"Meta": {"Duration": "x"}}`, "Meta.Duration", nil},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Model", "Id": "Foo", "Segments": [0, 0, 0, 1, 1]}]}`, "Curves[0].Id", nil},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "PartOpacity", "Id": "PartX", "Segments": [0, 0, 0, 1, 1]}]}`, "Curves[0].Id", nil},
		// An unknown target is the framework's default, Model.
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Nonsense", "Id": "Opacity", "Segments": [0, 1, 0, 1, 0]}]}`, "Curves[0].Target",
			func(m *p2l.Model) bool {
				return len(m.Clips().At(0).TargetCurves) == 1 && m.Clips().At(0).TargetCurves[0].Target == p2lrt.TargetModelOpacity
			}},
		// Curves out of the Model, Parameter, PartOpacity order end the evaluation.
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [` + ok + `, {"Target": "Model", "Id": "Opacity", "Segments": [0, 1, 0, 1, 0]}, ` + ok + `]}`, "Curves[1]",
			func(m *p2l.Model) bool {
				return len(m.Clips().At(0).Curves) == 1 && len(m.Clips().At(0).TargetCurves) == 0
			}},
		{"a.motion3.json", `{"Meta": {"Duration": 1, "CurveCount": 1}, "Curves": [` + ok + `, ` + ok + `]}`, "Meta.CurveCount",
			func(m *p2l.Model) bool { return len(m.Clips().At(0).Curves) == 1 }},
		{"a.motion3.json", `{"Meta": {"Duration": 1, "CurveCount": 5}, "Curves": [` + ok + `]}`, "Meta.CurveCount",
			func(m *p2l.Model) bool { return len(m.Clips().At(0).Curves) == 1 }},
		{"b.exp3.json", `{"Parameters": [{"Id": "ParamHair", "Value": 1, "Blend": "Screen"}]}`, "Parameters[0].Blend",
			func(m *p2l.Model) bool { return m.Expressions().At(0).Entries[0].Blend == p2lrt.ExpressionAdd }},
		{"b.exp3.json", `{"Parameters": [{"Id": "Missing", "Value": 1}, {"Id": "ParamHair", "Value": 1}]}`, "Parameters[0].Id",
			func(m *p2l.Model) bool { return len(m.Expressions().At(0).Entries) == 1 }},
		{"c.pose3.json", `{"Groups": [[{"Id": "PartArmA", "Link": ["Nope"]}]]}`, "Groups[0][0].Link[0]",
			func(m *p2l.Model) bool { pose, ok := m.Pose(); return ok && len(pose.Groups[0].Entries[0].Linked) == 0 }},
		{"c.pose3.json", `{"Groups": [[{"Id": "PartNope"}, {"Id": "PartArmB"}]]}`, "Groups[0][0].Id",
			func(m *p2l.Model) bool { pose, ok := m.Pose(); return ok && len(pose.Groups[0].Entries) == 1 }},
		{"d.physics3.json", `{"PhysicsSettings": [{"Input": [{"Source": {"Target": "Parameter", "Id": "ParamAngleX"}, "Weight": 100, "Type": "Z"}],
		  "Vertices": [{}, {"Radius": 1}]}]}`, "PhysicsSettings[0].Input[0].Type",
			func(m *p2l.Model) bool { return len(m.Physics().Groups) == 1 && len(m.Physics().Groups[0].Inputs) == 0 }},
		// An output on a vertex the strand lacks: the framework writes 0
		// there; vertex 1 with scale 0 writes the same.
		{"d.physics3.json", physicsJSONText(`"VertexIndex": 5`), "PhysicsSettings[0].Output[0].VertexIndex",
			func(m *p2l.Model) bool {
				o := m.Physics().Groups[0].Outputs[0]
				return o.Vertex == 1 && o.Scale == 0 && o.Weight == 100
			}},
		{"d.physics3.json", `{"Meta": {"Fps": -5}, "PhysicsSettings": []}`, "Meta.Fps",
			func(m *p2l.Model) bool { return m.Physics().Fps == 0 }},
	}
	for _, cs := range cases {
		m := baseModel()
		out, warns, err := importModel(m, "", File{Name: cs.name, Data: []byte(cs.data)})
		if err != nil {
			t.Errorf("%s %s: %v, want warnings only", cs.name, cs.data, err)
			continue
		}
		found := false
		for _, w := range warns {
			if w.File != cs.name {
				t.Errorf("%s: warning %q names file %q", cs.name, w, w.File)
			}
			found = found || w.Field == cs.field
		}
		if !found {
			t.Errorf("%s %s: warnings %q, want one for %s", cs.name, cs.data, warns, cs.field)
		}
		if cs.check != nil && !cs.check(out) {
			t.Errorf("%s %s: imported %+v %+v %+v %+v", cs.name, cs.data, out.File().Clips, out.File().Expressions, out.File().Pose, out.Physics())
		}
		if err := out.File().Validate(); err != nil {
			t.Errorf("%s %s: imported model does not validate: %v", cs.name, cs.data, err)
		}
	}
}

// TestImportErrors: only what no runtime can use fails a file, with an
// error naming the file and the field.
func TestImportErrors(t *testing.T) {
	m := baseModel()
	cases := []struct {
		file  File
		field string
	}{
		{File{Name: "a.motion3.json", Data: []byte(`{"Meta": `)}, ""},
		{File{Name: "a.motion3.json", Data: []byte(`[1, 2]`)}, ""},
		{File{Name: "a.motion3.json", Data: []byte(`{} {}`)}, ""},
		{File{Name: "a.physics3.json", Data: []byte(`{"Meta": {"Fps": 1e30}, "PhysicsSettings": []}`)}, "Meta.Fps"},
		{File{Name: "a.physics3.json", Data: []byte(`{"Meta": {"Fps": 1001}, "PhysicsSettings": []}`)}, "Meta.Fps"},
		// The kind the caller states is trusted and the content checked.
		{File{Name: "a.motion3.json", Data: []byte(motion), Kind: Physics}, ""},
		{File{Name: "a.json", Data: []byte(physicsJSONText(`"VertexIndex": 1`)), Kind: Motion}, ""},
		{File{Name: "x.json", Data: []byte(`{}`)}, ""},
	}
	for _, cs := range cases {
		out, _, err := importModel(m, "", cs.file)
		var e *Error
		if !errors.As(err, &e) || out != nil {
			t.Errorf("%s %s: model %v, error %v, want *Error", cs.file.Name, cs.file.Data, out, err)
			continue
		}
		if e.File != cs.file.Name || e.Field != cs.field {
			t.Errorf("%s: error %q names field %q, want %q", cs.file.Name, err, e.Field, cs.field)
		}
	}
	// A kind given by the caller overrides the name; the content decides
	// when neither tells.
	out, _, err := importModel(m, "", File{Name: "hair.json", Data: []byte(physicsJSONText(`"VertexIndex": 1`)), Kind: Physics},
		File{Name: "walk", Data: []byte(motion)})
	if err != nil || len(out.Physics().Groups) != 1 || out.ClipIndex("walk") != 0 {
		t.Errorf("kind from the caller / content: %v, %+v", err, out)
	}
}

func physicsJSONText(vertexIndex string) string {
	return `{"Meta": {"Fps": 30, "PhysicsDictionary": [{"Id": "S1", "Name": "Hair"}]},
	 "PhysicsSettings": [{"Id": "S1",
	  "Input": [{"Source": {"Target": "Parameter", "Id": "ParamAngleX"}, "Weight": 60, "Type": "X", "Reflect": false},
	            {"Source": {"Target": "Parameter", "Id": "ParamAngleX"}, "Weight": 40, "Type": "Y", "Reflect": true}],
	  "Output": [{"Destination": {"Target": "Parameter", "Id": "ParamHair"}, ` + vertexIndex + `, "Scale": 1.5, "Weight": 100, "Type": "Angle", "Reflect": false}],
	  "Vertices": [{"Position": {"X": 0, "Y": 0}, "Mobility": 1, "Delay": 1, "Acceleration": 1, "Radius": 0},
	               {"Position": {"X": 0, "Y": 3}, "Mobility": 0.95, "Delay": 0.9, "Acceleration": 1.5, "Radius": 3}],
	  "Normalization": {"Position": {"Minimum": -10, "Default": 0, "Maximum": 10}, "Angle": {"Minimum": -10, "Default": 0, "Maximum": 10}}}]}`
}

// TestImportAll imports every kind into a loaded model: the model is left
// as it was, and the new one answers every lookup for the imported records.
func TestImportAll(t *testing.T) {
	var buf bytes.Buffer
	base := baseModel()
	base.Canvas = p2lrt.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1}
	base.Draw = p2lrt.DrawGroup{Part: -1}
	base.Clips = []p2lrt.Clip{{ID: "old", Duration: 1}}
	if err := base.Write(&buf, nil); err != nil {
		t.Fatal(err)
	}
	m, err := p2l.Load(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	// Build m's lookups first: a Model's lookups are built once.
	if m.ClipIndex("idle") != -1 || m.ExpressionIndex("smile") != -1 {
		t.Fatal("lookups before import")
	}
	f := m.File()
	before := fmt.Sprintf("%+v", *f)
	out, warns, err := importModel(f, "Idle",
		File{Name: "idle.motion3.json", Data: []byte(motion)},
		File{Name: "smile.exp3.json", Data: []byte(`{"FadeInTime": 0.3, "Parameters": [{"Id": "ParamEyeLOpen", "Value": 0.5, "Blend": "Multiply"}, {"Id": "ParamHair", "Value": 1}]}`)},
		File{Name: "m.pose3.json", Data: []byte(`{"Groups": [[{"Id": "PartArmA", "Link": ["PartHandA"]}, {"Id": "PartArmB", "Link": []}]]}`)},
		File{Name: "m.physics3.json", Data: []byte(physicsJSONText(`"VertexIndex": 1`))},
	)
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	if after := fmt.Sprintf("%+v", *f); after != before || m.ClipIndex("idle") != -1 || m.ExpressionIndex("smile") != -1 {
		t.Error("Import changed the model it was given")
	}
	// The imported model plays as the Cubism framework (float64), the
	// loaded one as the reference runtime (float32).
	if out.Playback() != p2l.PlaybackCubism || m.Playback() != p2l.PlaybackReference {
		t.Errorf("playback: imported %v, loaded %v", out.Playback(), m.Playback())
	}
	if out.ClipIndex("old") != 0 || out.ClipIndex("idle") != 1 || out.ExpressionIndex("smile") != 0 || out.Clips().At(1).Group != "Idle" {
		t.Errorf("lookups on the imported model: old %d, idle %d, smile %d; clips %+v", out.ClipIndex("old"), out.ClipIndex("idle"), out.ExpressionIndex("smile"), out.File().Clips)
	}
	if r := out.NewRig(); r.Err() != nil {
		t.Errorf("rig on the imported model: %v", r.Err())
	} else {
		r.Layer(0).Start(out.ClipIndex("idle"))
		r.Expressions().Set(out.ExpressionIndex("smile"))
		if r.Layer(0).Clip() != 1 || len(r.Expressions().Playing(nil)) != 1 {
			t.Errorf("rig on the imported model: clip %d, expressions %v", r.Layer(0).Clip(), r.Expressions().Playing(nil))
		}
	}
	x := out.Expressions().At(0)
	if x.ID != "smile" || x.FadeIn != 0.3 || x.FadeOut != 1 || len(x.Entries) != 2 ||
		x.Entries[0] != (p2lrt.ExpressionEntry{Parameter: 1, Blend: p2lrt.ExpressionMultiply, Value: 0.5}) ||
		x.Entries[1].Blend != p2lrt.ExpressionAdd {
		t.Errorf("expression %+v", x)
	}
	if pose, ok := out.Pose(); !ok || pose.FadeIn != 0.5 || len(pose.Groups) != 1 || pose.Groups[0].Entries[0].Linked[0] != 2 {
		t.Errorf("pose %+v", out.File().Pose)
	}
	ph := out.Physics()
	if ph.Fps != 30 || len(ph.Groups) != 1 {
		t.Fatalf("physics %+v", ph)
	}
	g := ph.Groups[0]
	if g.Name != "Hair" || g.Inputs[1].Source != p2lrt.PhysicsY || !g.Inputs[1].Reflect || g.Inputs[0].Weight != 60 ||
		g.Outputs[0].Vertex != 1 || g.Outputs[0].Scale != 1.5 || len(g.Segments) != 1 || g.Segments[0].Length != 3 || g.Normalization.AngleMax != 10 {
		t.Errorf("group %+v", g)
	}
	if err := out.File().Validate(); err != nil {
		t.Error(err)
	}
	// Importing the same motion again replaces it.
	again, _, err := Import(out.File(), "", File{Name: "idle.motion3.json", Data: []byte(motion)})
	if err != nil || len(again.Clips) != 2 || out.Clips().Len() != 2 || len(again.Meta) != out.Meta().Len() {
		t.Errorf("re-import: %v, %d clips", err, len(again.Clips))
	}
}
