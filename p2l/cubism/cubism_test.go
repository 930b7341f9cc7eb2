package cubism

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
)

func baseModel() *p2l.Model {
	return &p2l.Model{
		Parameters: []p2l.Parameter{
			{ID: "ParamAngleX", Min: -30, Max: 30}, {ID: "ParamEyeLOpen", Min: 0, Max: 1, Default: 1},
			{ID: "ParamHair", Min: -1, Max: 1},
		},
		Parts: []p2l.Part{{ID: "PartArmA"}, {ID: "PartArmB"}, {ID: "PartHandA"}},
	}
}

const motion = `{
 "Version": 3,
 "Meta": {"Duration": 2, "Fps": 30, "Loop": true, "AreBeziersRestricted": true, "FadeInTime": 0.5},
 "Curves": [
  {"Target": "Model", "Id": "EyeBlink", "Segments": [0, 1, 0, 2, 0]},
  {"Target": "Model", "Id": "Opacity", "Segments": [0, 1]},
  {"Target": "Parameter", "Id": "ParamAngleX", "FadeInTime": 0.2,
   "Segments": [0, 0, 1, 0.5, 10, 1, 20, 1, 10, 3, 2, 5]},
  {"Target": "PartOpacity", "Id": "PartArmB", "Segments": [0, 1, 2, 1, 0]}
 ],
 "UserData": [{"Time": 1.5, "Value": "b"}, {"Time": 0.5, "Value": "a"}]
}`

func TestImportMotion(t *testing.T) {
	m := baseModel()
	c, err := ImportMotion(m, "dir/idle_01.motion3.json", []byte(motion))
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "idle_01" || c.Duration != 2 || c.Fps != 30 || !c.Loop || c.FadeIn != 0.5 || c.FadeOut != 1 {
		t.Errorf("clip header %+v", c)
	}
	if len(c.Curves) != 1 || c.Curves[0].Parameter != 0 {
		t.Fatalf("curves %+v", c.Curves)
	}
	segs := c.Curves[0].Segments
	if len(segs) != 2 || segs[0].Kind != p2l.SegmentBezier || segs[0].C1 != (p2l.Point{T: 0.5, V: 10}) ||
		segs[0].C2 != (p2l.Point{T: 1, V: 20}) || segs[0].End != (p2l.Point{T: 1, V: 10}) ||
		segs[1].Kind != p2l.SegmentInverseStepped || segs[1].End != (p2l.Point{T: 2, V: 5}) {
		t.Errorf("segments %+v", segs)
	}
	if len(c.CurveFades) != 1 || c.CurveFades[0] != (p2l.CurveFade{Curve: 0, FadeIn: 0.2, FadeOut: -1}) {
		t.Errorf("curve fades %+v", c.CurveFades)
	}
	if len(c.TargetCurves) != 3 || c.TargetCurves[0].Target != p2l.TargetBlink ||
		c.TargetCurves[1].Target != p2l.TargetModelOpacity || c.TargetCurves[2].Target != p2l.TargetPartOpacity ||
		c.TargetCurves[2].Part != 1 || c.TargetCurves[2].Segments[0].Kind != p2l.SegmentStepped || c.TargetCurves[0].Segments[0].Kind != p2l.SegmentLinear {
		t.Errorf("target curves %+v", c.TargetCurves)
	}
	if len(c.Events) != 2 || c.Events[0] != (p2l.Event{Time: 0.5, Value: "a"}) || c.Events[1] != (p2l.Event{Time: 1.5, Value: "b"}) {
		t.Errorf("events %+v (want sorted by time)", c.Events)
	}
}

// TestUnrestrictedBezier: an ease-in-out segment with control times at the
// ends, from (0,0) to (1,1) with control values 0 and 1, is symmetric: the
// cubic-in-time evaluation gives 0.5 at t = 0.5; at t = 0.25 the parameter u
// solves 3u²(1−u) + u³ = 0.25 and the value equals the time polynomial.
func TestUnrestrictedBezier(t *testing.T) {
	const js = `{"Meta": {"Duration": 1, "Fps": 30}, "Curves": [{"Target": "Parameter", "Id": "ParamHair",
	  "Segments": [0, 0, 1, 0, 0, 1, 1, 1, 1]}]}`
	c, err := ImportMotion(baseModel(), "e.motion3.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	cv := c.Curves[0].Curve
	if len(cv.Segments) != bezierPieces {
		t.Fatalf("%d segments, want %d linear pieces", len(cv.Segments), bezierPieces)
	}
	if got := cv.Value(0.5); math.Abs(float64(got)-0.5) > 1e-6 {
		t.Errorf("value at 0.5 = %v, want 0.5", got)
	}
	// Here x(u) and y(u) are the same polynomial, so y = t at every sample.
	if got := cv.Value(0.25); math.Abs(float64(got)-0.25) > 1e-6 {
		t.Errorf("value at 0.25 = %v, want 0.25", got)
	}
	// Restricted files keep the Bezier as is.
	c, _ = ImportMotion(baseModel(), "e.motion3.json", []byte(strings.Replace(js, `"Fps": 30`, `"Fps": 30, "AreBeziersRestricted": true`, 1)))
	if len(c.Curves[0].Segments) != 1 {
		t.Errorf("restricted file: %d segments, want 1", len(c.Curves[0].Segments))
	}
}

func TestImportErrors(t *testing.T) {
	m := baseModel()
	cases := []struct {
		name, data, field string
	}{
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "Nope", "Segments": [0, 0]}]}`, "Curves[0].Id"},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "ParamHair", "Segments": [0, 0, 7, 1, 1]}]}`, "Curves[0].Segments[2]"},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "ParamHair", "Segments": [0, 0, 0, 1]}]}`, "Curves[0].Segments[3]"},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "ParamHair", "Segments": [1, 0, 0, 0.5, 1]}]}`, "Curves[0].Segments[2]"},
		{"a.motion3.json", `{"Meta": {"Duration": -1}}`, "Meta.Duration"},
		{"a.motion3.json", `{"Meta": {}}`, "Meta.Duration"},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Model", "Id": "Foo", "Segments": [0, 0]}]}`, "Curves[0].Id"},
		{"a.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "PartOpacity", "Id": "PartX", "Segments": [0, 0]}]}`, "Curves[0].Id"},
		{"a.motion3.json", `{"Meta": {"Duration": "x"}}`, "Meta.Duration"},
		{"a.motion3.json", `{"Meta": `, ""},
		{"b.exp3.json", `{"Parameters": [{"Id": "ParamHair", "Value": 1, "Blend": "Screen"}]}`, "Parameters[0].Blend"},
		{"b.exp3.json", `{"Parameters": [{"Id": "Missing", "Value": 1}]}`, "Parameters[0].Id"},
		{"c.pose3.json", `{"Groups": [[{"Id": "PartArmA", "Link": ["Nope"]}]]}`, "Groups[0][0].Link[0]"},
		{"d.physics3.json", `{"PhysicsSettings": [{"Input": [{"Source": {"Target": "Parameter", "Id": "ParamAngleX"}, "Weight": 100, "Type": "Z"}]}]}`, "PhysicsSettings[0].Input[0].Type"},
		{"d.physics3.json", physicsJSONText(`"VertexIndex": 5`), "PhysicsSettings[0].Output[0].VertexIndex"},
	}
	for _, cs := range cases {
		err := Import(m, "", File{Name: cs.name, Data: []byte(cs.data)})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s %s: error %v, want *Error", cs.name, cs.data, err)
			continue
		}
		if e.File != cs.name || e.Field != cs.field {
			t.Errorf("%s: error %q names field %q, want %q", cs.name, err, e.Field, cs.field)
		}
	}
	if len(m.Clips) != 0 || len(m.Expressions) != 0 || m.Pose != nil {
		t.Error("failed import changed the model")
	}
	if err := Import(m, "", File{Name: "x.json", Data: []byte("{}")}); err == nil {
		t.Error("unknown file kind accepted")
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

func TestImportAll(t *testing.T) {
	m := baseModel()
	err := Import(m, "Idle",
		File{"idle.motion3.json", []byte(motion)},
		File{"smile.exp3.json", []byte(`{"FadeInTime": 0.3, "Parameters": [{"Id": "ParamEyeLOpen", "Value": 0.5, "Blend": "Multiply"}, {"Id": "ParamHair", "Value": 1}]}`)},
		File{"m.pose3.json", []byte(`{"Groups": [[{"Id": "PartArmA", "Link": ["PartHandA"]}, {"Id": "PartArmB", "Link": []}]]}`)},
		File{"m.physics3.json", []byte(physicsJSONText(`"VertexIndex": 1`))},
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Clips) != 1 || m.Clips[0].Group != "Idle" {
		t.Errorf("clips %+v", m.Clips)
	}
	x := m.Expressions[0]
	if x.ID != "smile" || x.FadeIn != 0.3 || x.FadeOut != 1 || len(x.Entries) != 2 ||
		x.Entries[0] != (p2l.ExpressionEntry{Parameter: 1, Blend: p2l.ExpressionMultiply, Value: 0.5}) ||
		x.Entries[1].Blend != p2l.ExpressionAdd {
		t.Errorf("expression %+v", x)
	}
	if m.Pose == nil || m.Pose.FadeIn != 0.5 || len(m.Pose.Groups) != 1 || m.Pose.Groups[0].Entries[0].Linked[0] != 2 {
		t.Errorf("pose %+v", m.Pose)
	}
	ph := m.Physics
	if ph.Fps != 30 || len(ph.Groups) != 1 {
		t.Fatalf("physics %+v", ph)
	}
	g := ph.Groups[0]
	if g.Name != "Hair" || g.Inputs[1].Source != p2l.PhysicsY || !g.Inputs[1].Reflect || g.Inputs[0].Weight != 60 ||
		g.Outputs[0].Vertex != 1 || g.Outputs[0].Scale != 1.5 || len(g.Segments) != 1 || g.Segments[0].Length != 3 || g.Normalization.AngleMax != 10 {
		t.Errorf("group %+v", g)
	}
	// Importing the same motion again replaces it.
	if err := Import(m, "", File{"idle.motion3.json", []byte(motion)}); err != nil || len(m.Clips) != 1 {
		t.Errorf("re-import: %v, %d clips", err, len(m.Clips))
	}
}
