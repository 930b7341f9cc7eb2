package p2l

import (
	"errors"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// motionModel: animModel plus clip groups: "Idle" (two looping clips),
// "TapBody" (one-shot "wave", 0.5 s), a one-shot "poseB" whose part-opacity
// curves show pose entry 1 and hide entry 0; hit area "HitAreaBody" (no
// name) over mesh 0, hit area named "Head" over mesh 1.
func motionModel() *Model {
	m := animModel()
	c := func(id, name, group string, d float32, loop bool, v float32) p2lrt.Clip {
		return p2lrt.Clip{ID: id, Name: name, Group: group, Duration: d, Loop: loop, FadeIn: 0, FadeOut: 0,
			Curves: []p2lrt.ParameterCurve{constCurve(1, v)}}
	}
	m.file.Clips = append(m.file.Clips,
		c("idle_a", "Idle A", "Idle", 2, true, 1),
		c("idle_b", "Idle B", "Idle", 2, true, 2),
		c("wave", "Wave", "TapBody", 0.5, false, 3),
	)
	pb := c("poseB", "Pose B", "", 1, false, 4)
	pb.TargetCurves = []p2lrt.TargetCurve{
		{Target: p2lrt.TargetPartOpacity, Part: 0, FadeIn: -1, FadeOut: -1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}}},
		{Target: p2lrt.TargetPartOpacity, Part: 1, FadeIn: -1, FadeOut: -1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 1}}},
	}
	m.file.Clips = append(m.file.Clips, pb)
	m.file.Meshes[0].Positions = []float32{0, 0, 10, 0, 0, 10}
	m.file.Meshes[1].Positions = []float32{10, 10, 10, 0, 0, 10}
	m.file.HitAreas = []p2lrt.HitArea{{ID: "HitAreaBody", Meshes: []int{0}}, {ID: "HitAreaTop", Name: "Head", Meshes: []int{1}}}
	return m
}

func TestLookupRule(t *testing.T) {
	m := motionModel()
	m.file.Clips[1].Name = "IDLE_A" // a name equal to another clip's id ignoring case
	for _, c := range []struct {
		s    string
		want int
	}{
		{"idle_a", 1}, // exact id
		{"Idle B", 2}, // exact name
		{"IDLE_A", 1}, // exact name beats case-folded id of another
		{"WAVE", 3},   // id ignoring case
		{"pose b", 4}, // name ignoring case
		{"nope", -1},  // none
		{"", -1},      // empty matches no name
	} {
		if got := m.ClipIndex(c.s); got != c.want {
			t.Errorf("ClipIndex(%q) = %d, want %d", c.s, got, c.want)
		}
	}
	if got := m.HitAreaIndex("head"); got != 1 {
		t.Errorf("HitAreaIndex(head) = %d", got)
	}
	if got := m.ParameterIndex("MOUTH"); got != 3 {
		t.Errorf("ParameterIndex(MOUTH) = %d", got)
	}
}

// TestLookupThenCall: callers find records with the Model's lookups (id or
// name, −1 when absent) and pass indices; −1 passed on is an index out of
// range, which panics naming the kind of record. A refused clip is
// reported by LayerState.Play (false) and, for a clip group, by an error
// wrapping ErrPriority; an unknown group is a *NotFoundError.
func TestLookupThenCall(t *testing.T) {
	m := motionModel()
	r := m.NewRig()
	r.Layer(0).Start(m.ClipIndex("idle b"))
	if r.Layer(0).Clip() != 2 {
		t.Errorf("Start(ClipIndex(idle b)): playing %d", r.Layer(0).Clip())
	}
	if msg := PanicMessage(func() { r.Layer(0).Start(m.ClipIndex("idel")) }); msg != "p2l: clip index -1 out of range [0:5]" {
		t.Errorf("unknown clip: panic %q", msg)
	}
	r.Expressions().Set(m.ExpressionIndex("PLUS"))
	if got := r.Expressions().Playing(nil); len(got) != 1 || got[0] != m.ExpressionIndex("plus") {
		t.Errorf("Set(ExpressionIndex(PLUS)): playing %v", got)
	}
	if msg := PanicMessage(func() { r.Expressions().Set(m.ExpressionIndex("minus")) }); !strings.Contains(msg, "expression index -1 out of range") {
		t.Errorf("unknown expression: panic %q", msg)
	}
	r.SetParameter(m.ParameterIndex("A"), 3)
	if r.Parameter(0) != 3 {
		t.Errorf("SetParameter(ParameterIndex(A)): %v", r.Parameter(0))
	}
	if msg := PanicMessage(func() { r.SetParameter(m.ParameterIndex("zz"), 3) }); !strings.Contains(msg, "parameter index -1 out of range") {
		t.Errorf("unknown parameter: panic %q", msg)
	}
	// A refused clip: Play reports false; PlayGroup's error wraps
	// ErrPriority.
	r.Layer(1).Play(0, PriorityForce)
	if r.Layer(1).Play(m.ClipIndex("wave"), PriorityNormal) {
		t.Error("a clip of lower priority started")
	}
	if _, err := r.Layer(1).PlayGroup("Idle", 0, PriorityNormal); !errors.Is(err, ErrPriority) {
		t.Errorf("refused clip: %v", err)
	}
	_, err := r.Layer(0).PlayGroup("Dnace", 0, PriorityForce)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Kind != "clip group" || !strings.Contains(err.Error(), "TapBody") {
		t.Errorf("unknown group: %v", err)
	}
	// A nil rig panics, as a nil pointer does.
	var nr *Rig
	if PanicMessage(func() { nr.Layer(0).Start(0) }) == "" {
		t.Error("nil rig: no panic")
	}
}

func TestPlayGroup(t *testing.T) {
	m := motionModel()
	if g := m.ClipGroups(); strings.Join(g, ",") != "Idle,TapBody" {
		t.Errorf("groups %v", g)
	}
	r := m.NewRig()
	if c, err := r.Layer(0).PlayGroup("idle", 1, PriorityIdle); err != nil || c != 2 {
		t.Errorf("PlayGroup(idle, 1) = %d, %v", c, err)
	}
	if _, err := r.Layer(0).PlayGroup("Idle", 2, PriorityIdle); err == nil || !strings.Contains(err.Error(), "has 2 clips") {
		t.Errorf("index out of range: %v", err)
	}
	_, err := r.Layer(0).PlayGroup("Dance", -1, PriorityNormal)
	if !strings.Contains(err.Error(), `no clip group "Dance"`) || !strings.Contains(err.Error(), "Idle, TapBody") {
		t.Errorf("unknown group: %v", err)
	}
	// Random choice covers both clips of the group, deterministically for
	// a seed.
	seen := map[int]int{}
	r.SetMotionSeed(3)
	var first []int
	for range 40 {
		c, err := r.Layer(0).PlayGroup("Idle", -1, PriorityIdle)
		if err != nil {
			t.Fatal(err)
		}
		seen[c]++
		first = append(first, c)
	}
	if seen[1] == 0 || seen[2] == 0 || len(seen) != 2 {
		t.Errorf("random picks %v", seen)
	}
	r.SetMotionSeed(3)
	for i := range 40 {
		if c, _ := r.Layer(0).PlayGroup("Idle", -1, PriorityIdle); c != first[i] {
			t.Fatalf("pick %d: %d, first run %d (same seed)", i, c, first[i])
		}
	}
	// Priorities: a normal clip interrupts idle, idle does not interrupt
	// a normal clip.
	if _, err := r.Layer(0).PlayGroup("TapBody", 0, PriorityNormal); err != nil {
		t.Error(err)
	}
	if _, err := r.Layer(0).PlayGroup("Idle", 0, PriorityIdle); !errors.Is(err, ErrPriority) {
		t.Errorf("idle over normal: %v", err)
	}
}

// TestIdleResumesAndFinished: with an idle group, layer 0 plays it; a tap
// clip replaces it; when the tap clip (0.5 s, one-shot) ends, a finished
// event fires and the idle group resumes on the next update.
func TestIdleResumesAndFinished(t *testing.T) {
	m := motionModel()
	r := m.NewRig()
	if err := r.SetIdleGroup("Dance"); err == nil {
		t.Error("unknown idle group accepted")
	}
	if err := r.SetIdleGroup("Idle"); err != nil || r.IdleGroup() != "Idle" {
		t.Fatal(err, r.IdleGroup())
	}
	r.Update(0.1)
	idle := r.Layer(0).Clip()
	if idle != 1 && idle != 2 {
		t.Fatalf("idle group not started: clip %d", idle)
	}
	if r.Layer(0).Priority() != PriorityIdle {
		t.Errorf("idle priority %d", r.Layer(0).Priority())
	}
	// Tap the body (hit area without a name: TapBody from its id).
	area, clip := r.Tap(2, 2)
	if area != 0 || clip != 3 {
		t.Fatalf("Tap = %d, %d, want area 0, clip 3 (wave)", area, clip)
	}
	// wave (0.5 s) finishes in the update whose clip time reaches 0.5,
	// not before (1/8 s steps are exact in binary).
	var finished []FiredEvent
	prev := -1.0
	for k := 0; k < 8 && len(finished) == 0; k++ {
		r.Update(0.125)
		now := r.Layer(0).Time()
		for _, e := range r.Events() {
			if e.Finished {
				finished = append(finished, e)
				if now < 0.5 || prev >= 0.5 {
					t.Errorf("finished at clip time %v (previous update %v), want the update reaching 0.5", now, prev)
				}
			}
		}
		if r.Layer(0).Clip() != 3 {
			t.Fatalf("update %d: playing %d, want the tap clip", k, r.Layer(0).Clip())
		}
		prev = now
	}
	if len(finished) != 1 || finished[0].Clip != 3 || finished[0].Layer != 0 || finished[0].Time != 0.5 || finished[0].Value != "" {
		t.Fatalf("finished events %+v", finished)
	}
	r.Update(0.1)
	if c := r.Layer(0).Clip(); c != 1 && c != 2 {
		t.Errorf("after the tap clip ended: playing %d, want an idle clip", c)
	}
	// Stopping layer 0 also returns to idle; looping idle clips never
	// finish.
	r.Layer(0).Stop()
	r.Update(0.1)
	if c := r.Layer(0).Clip(); c != 1 && c != 2 {
		t.Errorf("after Stop: playing %d", c)
	}
	for range 50 {
		r.Update(0.1)
		for _, e := range r.Events() {
			if e.Finished {
				t.Fatalf("a looping clip finished: %+v", e)
			}
		}
	}
	// No idle group: the ended clip holds.
	r.SetIdleGroup("")
	r.Layer(0).Play(3, PriorityForce)
	for range 8 {
		r.Update(0.1)
	}
	if r.Layer(0).Clip() != 3 {
		t.Errorf("without idle group: playing %d", r.Layer(0).Clip())
	}
}

func TestTapGroupConvention(t *testing.T) {
	m := &Model{file: &p2lrt.File{HitAreas: []p2lrt.HitArea{{ID: "HitAreaHead", Name: "Head"}, {ID: "HitAreaBody"}, {ID: "Tail"}, {ID: "HitArea"}}}}
	for i, want := range []string{"TapHead", "TapBody", "TapTail", "TapHitArea", ""} {
		if got := m.TapGroup(i); got != want {
			t.Errorf("TapGroup(%d) = %q, want %q", i, got, want)
		}
	}
	// The named area of motionModel has no TapHead group: no clip. (Without
	// its pose: the pose's starting state hides part 1, the Head.)
	mm := motionModel()
	mm.file.Pose = nil
	r := mm.NewRig()
	r.Evaluate()
	if area, clip := r.Tap(9, 9); area != 1 || clip != -1 {
		t.Errorf("Tap on Head = %d, %d, want 1, -1", area, clip)
	}
	if area, clip := r.Tap(-5, -5); area != -1 || clip != -1 {
		t.Errorf("Tap outside = %d, %d", area, clip)
	}
	// TapArea: area 0 (id HitAreaBody) plays TapBody's only clip, 3
	// (wave); area −1 (HitTest's none) and area 1 (no group) play
	// nothing; any other area out of range panics.
	for _, c := range []struct{ area, want int }{{-1, -1}, {1, -1}, {0, 3}} {
		if got := r.TapArea(c.area); got != c.want {
			t.Errorf("TapArea(%d) = %d, want %d", c.area, got, c.want)
		}
	}
	if msg := PanicMessage(func() { r.TapArea(4) }); msg != "p2l: hit area index 4 out of range [0:2]" {
		t.Errorf("TapArea(4): panic %q", msg)
	}
	if r.Layer(0).Clip() != 3 {
		t.Errorf("after TapArea(0) playing %d, want 3", r.Layer(0).Clip())
	}
}

// TestClipPose: with SetClipPose the part-opacity curves of the playing
// clip choose the pose entry (here entry 1, part 1); without, the pose keeps
// entry 0 and the curves only multiply.
func TestClipPose(t *testing.T) {
	for _, on := range []bool{false, true} {
		r := motionModel().NewRig()
		r.SetClipPose(on)
		if r.ClipPose() != on {
			t.Fatal("ClipPose")
		}
		r.Layer(0).Start(4)
		for range 20 {
			r.Update(0.1) // 2 s: the 0.5 s pose fade is over
		}
		p0, p1 := r.Part(0).PoseOpacity(), r.Part(1).PoseOpacity()
		if on && (p0 != 0 || p1 != 1) {
			t.Errorf("clip pose on: pose opacities %v, %v, want 0, 1", p0, p1)
		}
		if !on && (p0 != 1 || p1 != 0) {
			t.Errorf("clip pose off: pose opacities %v, %v, want 1, 0", p0, p1)
		}
	}
}

// TestLipSyncVowels checks the mouth rule of docs/ANIMATION.md §6 on a
// model with MouthOpenY (LipSync role, 0..1), ParamMouthForm (−1..1) and
// ParamA (0..1), with the default shapes: I = {Open 0.35, Form 1}, U =
// {0.3, −1}.
func TestLipSyncVowels(t *testing.T) {
	m := animModel()
	m.file.Parameters = append(m.file.Parameters, p2lrt.Parameter{ID: "ParamMouthForm", Min: -1, Max: 1}, p2lrt.Parameter{ID: "ParamA", Min: 0, Max: 1})
	const form, pa = 4, 5
	r := m.NewRig()
	// Level 0.8, weights I 0.5 and U 0.25 (confidence 0.75).
	r.LipSync(0.8, [5]float32{0, 0.5, 0.25, 0, 0})
	r.Update(0.1)
	// Opening: 0.8 · ((1 − 0.75) + 0.5·0.35 + 0.25·0.3) = 0.8 · 0.5 = 0.4.
	if got := r.ParameterCurrent(3); !near(float64(got), 0.4, 1e-6) {
		t.Errorf("mouth open %v, want 0.4", got)
	}
	// Form: mean (0.5·1 + 0.25·(−1))/0.75 = 1/3, weight 0.75: 0 + (1/3)·0.75 = 0.25.
	if got := r.ParameterCurrent(form); !near(float64(got), 0.25, 1e-6) {
		t.Errorf("mouth form %v, want 0.25", got)
	}
	if got := r.ParameterCurrent(pa); got != 0 {
		t.Errorf("ParamA %v, want 0 (A has no weight)", got)
	}
	// A alone at weight 1: fully open, form untouched toward 0, ParamA =
	// level.
	r.LipSync(0.5, [5]float32{1, 0, 0, 0, 0})
	r.SetParameter(form, 0.8)
	r.Update(0.1)
	if got := r.ParameterCurrent(3); !near(float64(got), 0.5, 1e-6) {
		t.Errorf("A: open %v, want 0.5", got)
	}
	if got := r.ParameterCurrent(form); !near(float64(got), 0, 1e-6) {
		t.Errorf("A: form %v, want 0 (A's form, weight 1)", got)
	}
	if got := r.ParameterCurrent(pa); !near(float64(got), 0.5, 1e-6) {
		t.Errorf("ParamA %v, want 0.5", got)
	}
	// Weights above 1 in sum are scaled down; LipSync clears the vowels.
	r.LipSync(1, [5]float32{1, 1, 0, 0, 0})
	r.Update(0.1)
	// open: 0.5·1 + 0.5·0.35 = 0.675; form: (0 + 1)/2 = 0.5 pulled from
	// the host 0.8 with weight 1 → 0.5.
	if got := r.ParameterCurrent(3); !near(float64(got), 0.675, 1e-6) {
		t.Errorf("scaled: open %v, want 0.675", got)
	}
	if got := r.ParameterCurrent(form); !near(float64(got), 0.5, 1e-6) {
		t.Errorf("scaled: form %v, want 0.5", got)
	}
	r.LipSync(0.3, [5]float32{})
	r.Update(0.1)
	if got := r.ParameterCurrent(form); got != 0.8 {
		t.Errorf("LipSync kept the vowels: form %v, want the host 0.8", got)
	}
}
