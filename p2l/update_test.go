package p2l

import (
	"math"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// animModel: parameters a [−20, 20], b [−20, 20], eye (EyeBlink) and mouth
// (LipSync); part 0 holds mesh 0, part 1 holds mesh 1; pose group {0, 1};
// clip "set" drives a to 10 with a part-opacity and model-opacity curve;
// expression "plus" adds 5 to a.
func animModel() *Model {
	tri := func(id string) p2lrt.Mesh {
		return p2lrt.Mesh{ID: id, Parent: -1, TexturePage: -1, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible,
			Positions: []float32{0, 0, 1, 0, 0, 1}, UVs: []float32{0, 0, 1, 0, 0, 1}, Indices: []uint32{0, 1, 2},
			Opacity: 0.8, Multiply: p2lrt.White}
	}
	part := func(id string, mesh int) p2lrt.Part {
		return p2lrt.Part{ID: id, Flags: p2lrt.PartVisible, Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: mesh}},
			Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}}
	}
	return &Model{file: &p2lrt.File{
		Canvas: p2lrt.Canvas{Width: 10, Height: 10, PixelsPerUnit: -1},
		Parameters: []p2lrt.Parameter{
			{ID: "a", Min: -20, Max: 20}, {ID: "b", Min: -20, Max: 20},
			{ID: "eye", Min: 0, Max: 1, Default: 1}, {ID: "mouth", Min: 0, Max: 1},
		},
		Parts:  []p2lrt.Part{part("p0", 0), part("p1", 1)},
		Meshes: []p2lrt.Mesh{tri("m0"), tri("m1")},
		Draw:   p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{{Mesh: 0}, {Mesh: 1}}},
		Roles:  []p2lrt.Role{{Name: "EyeBlink", Parameters: []int{2}}, {Name: "LipSync", Parameters: []int{3}}},
		Clips: []p2lrt.Clip{{ID: "set", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 0,
			Curves: []p2lrt.ParameterCurve{constCurve(0, 10)},
			TargetCurves: []p2lrt.TargetCurve{
				{Target: p2lrt.TargetPartOpacity, Part: 1, FadeIn: -1, FadeOut: -1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0.5}}},
				{Target: p2lrt.TargetModelOpacity, Part: -1, FadeIn: -1, FadeOut: -1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0.6}}},
			},
			Events: []p2lrt.Event{{Time: 0.5, Value: "half"}}}},
		Expressions: []p2lrt.Expression{{ID: "plus", FadeIn: 0, FadeOut: 0, Entries: []p2lrt.ExpressionEntry{{Parameter: 0, Blend: p2lrt.ExpressionAdd, Value: 5}}}},
		Pose:        &p2lrt.Pose{FadeIn: 0.5, Groups: []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: 0}, {Part: 1}}}}},
	}}
}

func TestUpdatePipelineOrder(t *testing.T) {
	r := animModel().NewRig()
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	r.Layer(0).Start(0)
	r.Expressions().Set(0)
	r.SetParameterOverride(0, 0, 0.5)
	r.SetParameter(3, 0.1)
	r.LipSync(0.7, [5]float32{})
	r.SetBehaviors(BehaviorLipSync)
	for range 3 {
		r.Update(0.1)
	}
	// host 0 → clip 10 → expression +5 = 15 → override toward 0 by ½ = 7.5.
	if got := r.ParameterCurrent(0); got != 7.5 {
		t.Errorf("a = %v, want 7.5", got)
	}
	// Lip sync takes the larger of 0.1 and 0.7.
	if got := r.ParameterCurrent(3); !near(float64(got), 0.7, 1e-7) {
		t.Errorf("mouth = %v, want 0.7", got)
	}
	// Nothing accumulates: the host pose is unchanged and the next frame
	// gives the same values.
	if r.Parameter(0) != 0 {
		t.Errorf("host pose changed to %v", r.Parameter(0))
	}
	r.Update(0.1)
	if got := r.ParameterCurrent(0); got != 7.5 {
		t.Errorf("next frame a = %v, want 7.5", got)
	}
	// Values are clamped once at the end: 30 is clamped to 20.
	r.SetParameterOverride(0, 30, 1)
	r.Update(0.1)
	if got := r.ParameterCurrent(0); got != 20 {
		t.Errorf("clamped a = %v, want 20", got)
	}
	r.ClearParameterOverrides()
	r.Update(0.1)
	if got := r.ParameterCurrent(0); got != 15 {
		t.Errorf("without override a = %v, want 15", got)
	}
}

func TestUpdateStages(t *testing.T) {
	r := animModel().NewRig()
	r.Layer(0).Start(0)
	r.Expressions().Set(0)
	r.UpdateStages(0.1, StageExpressions)
	if got := r.ParameterCurrent(0); got != 5 {
		t.Errorf("expressions only: a = %v, want 5", got)
	}
	if r.Layer(0).Clip() != 0 || r.animation.clips.layers[0].entries[0].age != 0 {
		t.Error("clip advanced although its stage was off")
	}
	r.UpdateStages(0.1, StageClips)
	if got := r.ParameterCurrent(0); got != 10 {
		t.Errorf("clips only: a = %v, want 10", got)
	}
	// Evaluate poses the host pose only.
	r.Evaluate()
	if got := r.ParameterCurrent(0); got != 0 {
		t.Errorf("Evaluate: a = %v, want 0", got)
	}
}

func TestUpdateOpacities(t *testing.T) {
	r := animModel().NewRig()
	// Evaluate on a new rig already shows each pose group's first part
	// (the reference's p2l_evaluate): mesh 1, under part 1, is hidden.
	r.Evaluate()
	if got, want := r.Mesh(1).Opacity(), float32(0); got != want || r.Mesh(0).Opacity() != 0.8 {
		t.Errorf("new rig, Evaluate: mesh opacities %v, %v; want 0.8, 0", r.Mesh(0).Opacity(), got)
	}
	r.SetHostOpacity(0.5)
	r.Layer(0).Start(0)
	r.Update(0.1)
	// Pose: part 0 shown (1), part 1 hidden (0) initially.
	// Clip: part 1 × 0.5, model × 0.6; host 0.5.
	if got := r.OpacityMultiplier(); !near(float64(got), 0.3, 1e-7) {
		t.Errorf("Opacity = %v, want 0.3", got)
	}
	if got := r.Mesh(0).Opacity(); !near(float64(got), 0.8*0.3, 1e-6) {
		t.Errorf("mesh 0 opacity = %v, want %v", got, 0.8*0.3)
	}
	if got := r.Mesh(1).Opacity(); got != 0 {
		t.Errorf("mesh 1 opacity = %v, want 0 (pose hides part 1)", got)
	}
	r.ShowPose(0, 1)
	r.Update(0.25) // part 1 fades in to 0.5; part 0 by Cubism's rule
	p1 := 0.5
	// (1 − p1)·0.5/0.5 = 0.5 would leave the back (1−0.5)(1−0.5) = 0.25 > 0.15:
	a1 := 1 - 0.15/(1-p1) // 0.7
	if got := r.Mesh(1).Opacity(); !near(float64(got), 0.8*0.3*p1*0.5, 1e-6) {
		t.Errorf("mesh 1 opacity = %v, want %v", got, 0.8*0.3*p1*0.5)
	}
	if got := r.Mesh(0).Opacity(); !near(float64(got), 0.8*0.3*a1, 1e-6) {
		t.Errorf("mesh 0 opacity = %v, want %v", got, 0.8*0.3*a1)
	}
	if got := r.Part(1).OpacityMultiplier(); !near(float64(got), 0.5*p1, 1e-6) {
		t.Errorf("part 1 multiplier = %v, want %v", got, 0.5*p1)
	}
	// An update without the pose stage keeps the pose opacities (they do
	// not advance) and, without the clip stage, the clips' opacities of the
	// last update that ran them.
	r.UpdateStages(0.1, StageExpressions)
	if got := r.Mesh(1).Opacity(); !near(float64(got), 0.8*0.3*p1*0.5, 1e-6) {
		t.Errorf("no pose or clip stage: mesh 1 opacity = %v, want %v", got, 0.8*0.3*p1*0.5)
	}
	// Evaluate: host opacity and pose, no clip opacities.
	r.Evaluate()
	if got := r.Mesh(0).Opacity(); !near(float64(got), 0.8*0.5*a1, 1e-6) {
		t.Errorf("Evaluate mesh 0 opacity = %v, want %v", got, 0.8*0.5*a1)
	}
	r.Part(0).SetHostOpacity(0.5)
	r.Evaluate()
	if got := r.Mesh(0).Opacity(); !near(float64(got), 0.8*0.5*a1*0.5, 1e-6) {
		t.Errorf("host part opacity: %v, want %v", got, 0.8*0.5*a1*0.5)
	}
	// Host colors: the mesh's own override wins over its part's.
	red, blue := p2lrt.Color{1, 0, 0}, p2lrt.Color{0, 0, 1}
	r.Part(0).SetColors(red, p2lrt.Black)
	r.Part(1).SetColors(red, p2lrt.Black)
	r.Mesh(1).SetColors(blue, p2lrt.Black)
	r.Update(0.1)
	if m, _ := r.Mesh(0).Colors(); m != red {
		t.Errorf("mesh 0 multiply %v, want the part's %v", m, red)
	}
	if m, _ := r.Mesh(1).Colors(); m != blue {
		t.Errorf("mesh 1 multiply %v, want its own %v", m, blue)
	}
}

func TestUpdateEvents(t *testing.T) {
	r := animModel().NewRig()
	r.Layer(2).Play(0, 1)
	n := 0
	for range 30 { // clip time 0 … 2.9 s: events at 0.5, 1.5, 2.5
		r.Update(0.1)
		for _, e := range r.Events() {
			if e.Value != "half" || e.Layer != 2 || e.Clip != 0 || e.Time != 0.5 {
				t.Errorf("event %+v", e)
			}
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d events, want 3 (once per lap)", n)
	}
	if r.Layer(2).Clip() != 0 || r.Layer(2).Priority() != 1 || r.Layer(3).Clip() != -1 {
		t.Error("layer info wrong")
	}
	if !math.IsNaN(float64(r.Layer(3).Time())) {
		t.Error("LayerTime of an empty layer is not NaN")
	}
}

// TestUpdateStabilize: stabilization writes the outputs at once.
func TestUpdateStabilize(t *testing.T) {
	m := pendulumModel(0, p2lrt.PhysicsAngle)
	m.file.Canvas = p2lrt.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1}
	m.file.Draw = p2lrt.DrawGroup{Part: -1}
	r := m.NewRig()
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	r.SetParameter(0, 10)
	r.Physics().Stabilize()
	if got := r.ParameterCurrent(1); !near(float64(got), 10, 1e-4) {
		t.Errorf("stabilized output %v, want 10", got)
	}
	r.Update(1.0 / 60)
	if got := r.ParameterCurrent(1); !near(float64(got), 10, 1e-4) {
		t.Errorf("after an update %v, want 10", got)
	}
}

func TestUpdateAPIEdges(t *testing.T) {
	m := animModel()
	m.file.Clips = append(m.file.Clips, p2lrt.Clip{ID: "ev", Duration: 2, FadeIn: 0, FadeOut: 0.5,
		Curves: []p2lrt.ParameterCurve{constCurve(1, 8)},
		Events: []p2lrt.Event{{Time: 0, Value: "zero"}, {Time: 0.4, Value: "early"}, {Time: 0.6, Value: "late"}}})
	r := m.NewRig()
	// Seek before the first update: that update goes from 0.5 to 0.55 and
	// fires nothing before it.
	r.Layer(1).Play(1, 0)
	if !r.Layer(1).Seek(0.5) {
		t.Fatal("seek refused")
	}
	r.Update(0.05)
	if len(r.Events()) != 0 || !near(r.Layer(1).Time(), 0.55, 1e-7) { // a float32 clock (PlaybackReference)
		t.Errorf("after seek: events %v, time %v", r.Events(), r.Layer(1).Time())
	}
	r.Update(0.15)
	if ev := r.Events(); len(ev) != 1 || ev[0].Value != "late" {
		t.Errorf("events %v, want [late]", ev)
	}
	// Layer weight ½: b = 0 + (8 − 0)·½.
	r.Layer(1).SetWeight(0.5)
	r.Update(0.1)
	if got := r.ParameterCurrent(1); got != 4 || r.Layer(1).Weight() != 0.5 {
		t.Errorf("layer weight: b = %v, weight %v", got, r.Layer(1).Weight())
	}
	// StopLayer: priority 0 at once, the clip fades out (0.5 s) after the
	// next update, then the layer is empty.
	r.Layer(1).Play(1, 5)
	r.Layer(1).Stop()
	if r.Layer(1).Priority() != 0 || r.Layer(1).Clip() != -1 {
		t.Errorf("after stop: priority %d clip %d", r.Layer(1).Priority(), r.Layer(1).Clip())
	}
	for range 8 {
		r.Update(0.1)
	}
	if got := r.ParameterCurrent(1); got != 0 || len(r.animation.clips.layers[1].entries) != 0 {
		t.Errorf("stopped layer still applies: b = %v", got)
	}
	// Settings are sanitized; bad ones are ignored, each on its own.
	set := func(f func(*BehaviorSettings)) {
		s := r.BehaviorSettings()
		f(&s)
		r.SetBehaviorSettings(s)
	}
	set(func(s *BehaviorSettings) {
		s.Blink = BlinkSettings{MinInterval: -1, MaxInterval: 3, Closing: -2, Closed: 0.1, Opening: 0.2}
	})
	if s := r.BehaviorSettings().Blink; s.MinInterval != 0 || s.Closing != 0 || s.MaxInterval != 3 {
		t.Errorf("blink settings %+v", s)
	}
	set(func(s *BehaviorSettings) {
		s.Blink = BlinkSettings{MinInterval: 1, MaxInterval: 3, Closing: float32(math.NaN()), Closed: 0.1, Opening: 0.2}
		s.Breath.Period = 7 // a valid change beside the bad blink applies
	})
	if s := r.BehaviorSettings(); s.Blink.MinInterval != 0 || s.Blink.Closing != 0 || s.Breath.Period != 7 {
		t.Errorf("blink settings with NaN were taken, or the breath beside them not: %+v", s)
	}
	set(func(s *BehaviorSettings) { s.Strength = -1; s.LookAt.Omega = -3 })
	if s := r.BehaviorSettings(); s.Strength != 1 || s.LookAt.Omega != DefaultLookAtSettings.Omega {
		t.Error("negative strength or omega accepted")
	}
	r.SetBehaviors(r.Behaviors() | BehaviorBlink | BehaviorBreath)
	r.SetBehaviors(r.Behaviors() &^ BehaviorBlink)
	if r.Behaviors() != BehaviorBreath {
		t.Errorf("behaviors %v, want breath only", r.Behaviors())
	}
	// Indices out of range panic, naming the kind of index.
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { r.Expressions().Set(5) }, "expression index 5"},
		{func() { r.ShowPose(0, 9) }, "p2l: pose "},
		{func() { r.Part(-1).PoseOpacity() }, "part index -1"},
		{func() { r.Part(7).OpacityMultiplier() }, "part index 7"},
		{func() { r.SetParameterOverride(99, 1, 1) }, "parameter index 99"},
		{func() { r.Mesh(99).SetColors(p2lrt.White, p2lrt.Black) }, "mesh index 99"},
		{func() { r.Part(-1).SetHostOpacity(0) }, "part index -1"},
		{func() { r.Layer(MaxLayers) }, "layer index 16 out of range [0:16]"},
	} {
		if msg := PanicMessage(c.f); !strings.Contains(msg, c.want) {
			t.Errorf("panic %q, want one naming %s", msg, c.want)
		}
	}
	r.Update(0.1)
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
}
