package p2l_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// The tests of this file check the Cubism framework's rules that
// PlaybackCubism models follow (docs/ANIMATION.md §10), each against values
// worked out by hand from the framework's formulas (CubismWebFramework
// 5-r.4: cubismmotion.ts, acubismmotion.ts, cubismmotionqueuemanager.ts,
// cubismexpressionmotionmanager.ts, cubismeyeblink.ts, cubismbreath.ts,
// cubismpose.ts; the sample's lappmodel.ts). Times are chosen so that the
// clocks are exact in binary unless a test is about decimals.

// cubismClipModel has parameters X, Y in [−100, 100] and Eye in [0, 1]
// (role EyeBlink), the given clips, and plays as Cubism.
// edited returns a model of a copy of m's file changed by edit, unchecked
// as ModelForTest's: a model is not changed once made, so a test that
// needs a variant makes a new one.
func edited(m *p2l.Model, edit func(f *p2lrt.File)) *p2l.Model {
	f := m.File()
	edit(f)
	return p2l.ModelForTest(f)
}

func cubismClipModel(clips ...p2lrt.Clip) *p2l.Model {
	m := p2l.ModelForTest(&p2lrt.File{
		Canvas:     p2lrt.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1},
		Draw:       p2lrt.DrawGroup{Part: -1},
		Parameters: []p2lrt.Parameter{{ID: "X", Min: -100, Max: 100}, {ID: "Y", Min: -100, Max: 100}, {ID: "Eye", Min: 0, Max: 1, Default: 1}},
		Roles:      []p2lrt.Role{{Name: "EyeBlink", Parameters: []int{2}}},
		Clips:      clips,
	})
	return m.WithPlayback(p2l.PlaybackCubism)
}

func near(t *testing.T, what string, got float32, want float64) {
	t.Helper()
	if math.Abs(float64(got)-want) > 1e-6 {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestCubismOneShotEnd: a one-shot motion starts on its first update at
// time 0 (events at 0 fire then), a stepped key written 0.4 in the JSON
// switches once the clock passes the decimal 0.4 (the float32 key is
// 0.4000000059604645, the framework keeps 0.4), the motion fades out by
// itself during its last FadeOut seconds (ease((end − now)/FadeOut), end
// = start + duration), finishes (Finished event, priority 0) on the update
// its time reaches the duration, shown at weight 0, and is gone after. Its
// fade-out blends from the frame base, its own last value unless the host
// wrote another, and what it leaves stays.
func TestCubismOneShotEnd(t *testing.T) {
	clip := p2lrt.Clip{ID: "C", Duration: 1, Fps: 30, FadeIn: 0, FadeOut: 0.5,
		Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Segments: []p2lrt.Segment{
			{Kind: p2lrt.SegmentStepped, End: p2lrt.Point{T: 0.4, V: 10}},
			{Kind: p2lrt.SegmentStepped, End: p2lrt.Point{T: 1, V: 10}},
		}}}},
		Events: []p2lrt.Event{{Time: 0, Value: "start"}}}
	m := cubismClipModel(clip)
	r := m.NewRig()
	r.SetBehaviors(0)
	if !r.Layer(0).Play(0, 2) {
		t.Fatal("not started")
	}
	// Update 1 (clock 1): start = 1, time 0: first segment's start value 0;
	// the event at 0 fires (window (0 − 1, 1 − 1]).
	r.UpdateStages(1, p2l.StageClips)
	near(t, "X at time 0", r.ParameterCurrent(0), 0)
	if ev := r.Events(); len(ev) != 1 || ev[0].Value != "start" {
		t.Errorf("events at time 0: %+v", ev)
	}
	if got := r.Layer(0).Time(); got != 0 {
		t.Errorf("clip time on the first update %v, want 0", got)
	}
	// Update 2: time ≈ 0.400000003, after the decimal key 0.4 and before
	// its float32 0.4000000059604645: the second segment (stepped: its
	// start value 10). Weight: fade-in 0 → 1; end − now = 2 − 1.400000003
	// ≈ 0.6 → ease(1.2) = 1.
	r.UpdateStages(0.400000003, p2l.StageClips)
	near(t, "X just after the key 0.4", r.ParameterCurrent(0), 10)
	// Update 3: now 1.900000003, end − now = 0.099999997: weight
	// ease(0.199999994) = 0.5 − 0.5·cos(0.2π) = 0.5 − 0.5·0.80901699 =
	// 0.0954915 (to 1e-8). The base is the motion's own 10, so X stays
	// 10 whatever the weight; with the host's 0 written into the base
	// before it: 0 + (10 − 0)·0.0954915.
	r.SetParameter(0, 0)
	r.UpdateStages(0.5, p2l.StageClips)
	near(t, "X fading out at its end from the host's 0", r.ParameterCurrent(0), 0.954915)
	if r.Layer(0).Priority() != 2 {
		t.Errorf("priority before the end %d, want 2", r.Layer(0).Priority())
	}
	// Update 4: now 2.000000003 ≥ end: time ≥ duration, weight
	// ease(−3e-9) = 0, Finished; priority 0, no playing clip. X keeps the
	// base, the last update's 0.954915.
	r.UpdateStages(0.1, p2l.StageClips)
	near(t, "X at the end", r.ParameterCurrent(0), 0.954915)
	if ev := r.Events(); len(ev) != 1 || !ev[0].Finished || ev[0].Time != 1 {
		t.Errorf("events at the end: %+v", ev)
	}
	if r.Layer(0).Priority() != 0 || r.Layer(0).Clip() != -1 {
		t.Errorf("after the end: priority %d, clip %d, want 0, −1", r.Layer(0).Priority(), r.Layer(0).Clip())
	}
	r.UpdateStages(0.1, p2l.StageClips)
	near(t, "X after the motion is gone", r.ParameterCurrent(0), 0.954915)
	r.SetParameter(0, 3)
	r.UpdateStages(0.1, p2l.StageClips)
	near(t, "X after the motion is gone (host 3)", r.ParameterCurrent(0), 3)

	// The same clip as a .p2lrt (the reference runtime): held at full
	// weight after its end, the key switching at the float32 time.
	ref := m.WithPlayback(p2l.PlaybackReference).NewRig()
	ref.SetBehaviors(0)
	ref.Layer(0).Start(0)
	ref.UpdateStages(1.5, p2l.StageClips)
	near(t, "reference: X held after the end", ref.ParameterCurrent(0), 10)
}

// TestCubismLoopShape: a looping motion's lap is duration + 1/Fps (1 +
// 1/4 = 1.25 s); after its last key (1, 8) the end-correction segment runs
// linearly back to the first value (1.25, 0); at exactly 1.25 the curve
// gives the last value (the correction needs t < 1.25); the time is brought
// back by subtracting the lap while it exceeds it, and the fade-in restarts
// at the lap (fadeInStart = now − t). Linear curve 0 → 8 over [0, 1],
// FadeIn 0.5, steps of 0.125 s after a first update of 0. Each update
// blends from the last one's result (the frame base).
func TestCubismLoopShape(t *testing.T) {
	clip := p2lrt.Clip{ID: "L", Duration: 1, Fps: 4, Loop: true, FadeIn: 0.5, FadeOut: 0,
		Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Segments: []p2lrt.Segment{
			{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 8}}}}}}}
	r := cubismClipModel(clip).NewRig()
	r.SetBehaviors(0)
	r.Layer(0).Start(0)
	r.UpdateStages(0, p2l.StageClips) // time 0
	// want[k] after k more updates of 0.125 (X₀ = 0, the first update at
	// weight 0):
	//   k=1: t 0.125, value 1, fade-in ease(0.25) = 0.5 − √2/4 = a:
	//        X = 0 + (1 − 0)·a = a
	//   k=2: t 0.25, value 2, fade-in ease(0.5) = 0.5:
	//        X = a + (2 − a)·0.5 = 1 + a/2 = 1.25 − √2/8
	//   k=9: t 1.125, correction 8 + (0 − 8)·(0.125/0.25) = 4, weight 1
	//   k=10: t 1.25 (not > 1.25: no wrap yet), last value 8; the lap ends
	//         (elapsed ≥ 1.25) with start = now − 1.25: unchanged
	//   k=11: elapsed 1.375 → t 0.125, value 1; weight from fadeInStart
	//         set at k=10 (now − 1.25): age 1.375 → 1; lap ends again:
	//         start = fadeInStart = now − 0.125
	//   k=12: t 0.25, value 2, fade-in age 0.25: ease(0.5) = 0.5:
	//         X = 1 + (2 − 1)·0.5 = 1.5
	//   k=13: t 0.375, value 3, ease(0.75) = 0.5 + √2/4:
	//         X = 1.5 + (3 − 1.5)·(0.5 + √2/4)
	want := map[int]float64{1: 0.5 - math.Sqrt2/4, 2: 1.25 - math.Sqrt2/8, 9: 4, 10: 8, 11: 1, 12: 1.5,
		13: 1.5 + 1.5*(0.5+math.Sqrt2/4)}
	for k := 1; k <= 13; k++ {
		r.UpdateStages(0.125, p2l.StageClips)
		if w, ok := want[k]; ok {
			near(t, fmt.Sprintf("X after update %d", k), r.ParameterCurrent(0), w)
		}
	}
}

// TestCubismReplacedFadesOneUpdateLater: a motion replaced starts fading
// out after its next update (startFadeOut: end = now + FadeOut), and the
// new one starts at time 0 and weight 0 on that update. The crossfade is
// the framework's recursive filter: the older blends from the last
// update's result, the newer from the older's.
func TestCubismReplacedFadesOneUpdateLater(t *testing.T) {
	flat := func(id string, v float32) p2lrt.Clip {
		return p2lrt.Clip{ID: id, Duration: 10, Fps: 30, FadeIn: 0, FadeOut: 1, Curves: []p2lrt.ParameterCurve{{Parameter: 0,
			Curve: p2lrt.Curve{Start: p2lrt.Point{V: v}, Segments: []p2lrt.Segment{{End: p2lrt.Point{T: 10, V: v}}}}}}}
	}
	b := flat("B", 20)
	b.FadeIn = 1
	r := cubismClipModel(flat("A", 10), b).NewRig()
	r.SetBehaviors(0)
	r.Layer(0).Start(0)
	r.UpdateStages(0.25, p2l.StageClips)
	near(t, "A alone", r.ParameterCurrent(0), 10)
	r.Layer(0).Start(1)
	// A at full weight (no end yet): 10; B at time 0, ease(0) = 0; A's end
	// becomes now + 1.
	r.UpdateStages(0.25, p2l.StageClips)
	near(t, "update after the switch", r.ParameterCurrent(0), 10)
	// A: ease((end − now)/1) = ease(0.75) = 0.85355339 over the base 10:
	// 10 + (10 − 10)·0.85355339 = 10; B: ease(0.25) = 0.5 − √2/4 =
	// 0.14644661: v = 10 + (20 − 10)·0.14644661 = 11.4644661 (from the
	// host pose each update it would be 8.5355339 + (20 − 8.5355339)·
	// 0.14644661 = 10.2144661).
	r.UpdateStages(0.25, p2l.StageClips)
	x1 := 10 + 10*(0.5-math.Sqrt2/4)
	near(t, "crossfade", r.ParameterCurrent(0), x1)
	// A: ease(0.5) = 0.5: x1 + (10 − x1)·0.5; B: ease(0.5) = 0.5: that +
	// (20 − that)·0.5.
	r.UpdateStages(0.25, p2l.StageClips)
	x2 := x1 + (10-x1)*0.5
	near(t, "crossfade, next update", r.ParameterCurrent(0), x2+(20-x2)*0.5)
}

// TestCubismEffectWithoutCurve: a motion's EyeBlink curve pulls an
// EyeBlink parameter that has no curve of its own to the effect value by
// the motion's weight (v + (e − v)·w), where the reference multiplies.
func TestCubismEffectWithoutCurve(t *testing.T) {
	clip := p2lrt.Clip{ID: "E", Duration: 10, Fps: 30, FadeIn: 0.5, FadeOut: 1,
		TargetCurves: []p2lrt.TargetCurve{{Target: p2lrt.TargetBlink, Part: -1, FadeIn: -1, FadeOut: -1,
			Curve: p2lrt.Curve{Start: p2lrt.Point{V: 0.25}, Segments: []p2lrt.Segment{{End: p2lrt.Point{T: 10, V: 0.25}}}}}}}
	m := cubismClipModel(clip)
	r := m.NewRig()
	r.SetBehaviors(0)
	r.SetParameter(2, 0.8)
	r.Layer(0).Start(0)
	r.UpdateStages(0, p2l.StageClips)
	r.UpdateStages(0.25, p2l.StageClips)
	// w = ease(0.25/0.5) = 0.5: 0.8 + (0.25 − 0.8)·0.5 = 0.525.
	near(t, "Eye pulled half way", r.ParameterCurrent(2), 0.525)
	r.UpdateStages(0.25, p2l.StageClips) // w = ease(1) = 1: 0.25
	near(t, "Eye at the effect", r.ParameterCurrent(2), 0.25)
	ref := m.WithPlayback(p2l.PlaybackReference).NewRig()
	ref.SetBehaviors(0)
	ref.SetParameter(2, 0.8)
	ref.Layer(0).Start(0)
	ref.UpdateStages(0.5, p2l.StageClips) // w 1: 0.8·0.25
	near(t, "reference: Eye multiplied", ref.ParameterCurrent(2), 0.2)
}

// TestCubismBlink: Cubism's blink overwrites the EyeBlink parameters
// (host 0.5), on its own clock, each phase timed from the update that
// began it, and not while a motion is updated. With an interval of exactly
// 0.5 s (MinInterval = MaxInterval), closing 0.25, closed 0.125, opening
// 0.25 and updates of 0.125: clock 0.125 draws the next blink at 0.625;
// at 0.75 (> 0.625) closing starts (1); 0.875: 1 − 0.5; 1.0: closed (0);
// 1.125: still 0, opening starts; 1.25: 0.5; 1.375: open (1), next at
// 1.875.
func TestCubismBlink(t *testing.T) {
	m := cubismClipModel(p2lrt.Clip{ID: "C", Duration: 0.5, Fps: 30, FadeIn: 0, FadeOut: 0})
	r := m.NewRig()
	r.SetBehaviors(p2l.BehaviorBlink)
	s := r.BehaviorSettings()
	s.Blink = p2l.BlinkSettings{MinInterval: 0.5, MaxInterval: 0.5, Closing: 0.25, Closed: 0.125, Opening: 0.25}
	r.SetBehaviorSettings(s)
	r.SetParameter(2, 0.5)
	want := []float64{1, 1, 1, 1, 1, 1, 0.5, 0, 0, 0.5, 1}
	for k, w := range want {
		r.Update(0.125)
		near(t, fmt.Sprintf("Eye at clock %v", 0.125*float64(k+1)), r.ParameterCurrent(2), w)
	}
	// A motion being updated stops the blink: the host value shows.
	r.Layer(0).Start(0)
	for k := 0; k < 3; k++ {
		r.Update(0.125)
		near(t, "Eye under a motion", r.ParameterCurrent(2), 0.5)
	}
	if got := p2l.CubismBlinkSettings; got.MinInterval != 0 || got.MaxInterval != 7 {
		t.Errorf("Cubism blink interval [%v, %v], want [0, 7] (r·(2·4 − 1))", got.MinInterval, got.MaxInterval)
	}
	if got := m.NewRig().BehaviorSettings().Blink; got != p2l.CubismBlinkSettings {
		t.Errorf("a Cubism rig starts with %+v", got)
	}
}

// TestCubismBreath: CubismBreath with the sample's table adds
// (offset + peak·sin(2π·time/cycle))·weight: ParamAngleX (0, 15, 6.5345,
// 0.5) over the host value and ParamBreath (0.5, 0.5, 3.2345, 1), found by
// their standard ids (the model has no ROLE records).
func TestCubismBreath(t *testing.T) {
	m := (p2l.ModelForTest(&p2lrt.File{
		Canvas:     p2lrt.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1},
		Draw:       p2lrt.DrawGroup{Part: -1},
		Parameters: []p2lrt.Parameter{{ID: "ParamAngleX", Min: -30, Max: 30}, {ID: "ParamBreath", Min: 0, Max: 1}},
	})).WithPlayback(p2l.PlaybackCubism)
	r := m.NewRig()
	r.SetBehaviors(p2l.BehaviorBreath)
	r.SetParameter(0, 5)
	for k := 1; k <= 3; k++ {
		r.Update(0.25)
		tt := 0.25 * float64(k) * 2 * math.Pi
		near(t, "ParamAngleX", r.ParameterCurrent(0), 5+15*math.Sin(tt/6.5345)*0.5)
		near(t, "ParamBreath", r.ParameterCurrent(1), (0.5+0.5*math.Sin(tt/3.2345))*1)
	}
}

// TestCubismExpressionSwitch: CubismExpressionMotionManager. X1 adds 10 to
// X (fades 1 s), X2 adds 20 to Y (fade-in 0.5 s). Each starts on the
// update after it is set; the older entry's targets are taken as they are,
// the newer crossfades them by its weight; the older is dropped once the
// newer is fully in.
func TestCubismExpressionSwitch(t *testing.T) {
	m := edited(cubismClipModel(), func(f *p2lrt.File) {
		f.Expressions = []p2lrt.Expression{
			{ID: "X1", FadeIn: 1, FadeOut: 1, Entries: []p2lrt.ExpressionEntry{{Parameter: 0, Blend: p2lrt.ExpressionAdd, Value: 10}}},
			{ID: "X2", FadeIn: 0.5, FadeOut: 1, Entries: []p2lrt.ExpressionEntry{{Parameter: 1, Blend: p2lrt.ExpressionAdd, Value: 20}}},
		}
	})
	r := m.NewRig()
	r.SetBehaviors(0)
	r.Expressions().Set(0)
	r.UpdateStages(0, p2l.StageExpressions)
	near(t, "X at X1's start", r.ParameterCurrent(0), 0)
	r.UpdateStages(1, p2l.StageExpressions) // fade-in ease(1) = 1
	near(t, "X1 in", r.ParameterCurrent(0), 10)
	r.Expressions().Set(1)
	// X1 (oldest) unweighted: X + 10; X2 at weight 0; W = min(1 + 0, 1).
	r.UpdateStages(0.25, p2l.StageExpressions)
	near(t, "X at the switch", r.ParameterCurrent(0), 10)
	near(t, "Y at the switch", r.ParameterCurrent(1), 0)
	// X2's weight ease(0.25/0.5) = 0.5: X's additive 10·0.5 + 0·0.5 = 5,
	// Y's 0·0.5 + 20·0.5 = 10 (X1's fade-out does not count).
	r.UpdateStages(0.25, p2l.StageExpressions)
	near(t, "X crossfading", r.ParameterCurrent(0), 5)
	near(t, "Y crossfading", r.ParameterCurrent(1), 10)
	r.UpdateStages(0.25, p2l.StageExpressions) // X2 in: X1 dropped
	near(t, "X after", r.ParameterCurrent(0), 0)
	near(t, "Y after", r.ParameterCurrent(1), 20)
	if got := r.Expressions().Playing(nil); len(got) != 1 || got[0] != 1 {
		t.Errorf("playing %v, want [1]", got)
	}
	// The expression clamp: X2 overwritten to 150 is clamped to 100 before
	// the blend (SetParameterValue clamps the target).
	m = edited(m, func(f *p2lrt.File) {
		f.Expressions[1].Entries[0] = p2lrt.ExpressionEntry{Parameter: 1, Blend: p2lrt.ExpressionOverwrite, Value: 150}
	})
	r2 := m.NewRig()
	r2.Expressions().Set(1)
	r2.UpdateStages(0, p2l.StageExpressions)
	r2.UpdateStages(0.25, p2l.StageExpressions) // W = 0.5: 0·0.5 + 100·0.5
	near(t, "Y clamped, then blended", r2.ParameterCurrent(1), 50)
}

// TestCubismPoseSlots: a motion's part-opacity curves do not multiply the
// parts: they write the parts' pose slots, and the pose shows the first
// entry whose slot is above 0.001, fading (FadeIn 0.5) with the
// back-opacity rule: curves PA 0, PB 1; at the first update PB's opacity
// 0 + 0/0.5 = 0, PA min(1, 0·(0.5 − 1)/0.5 + 1 = 1) = 1; after 0.25 s PB
// 0.5, PA: a = (1 − 0.5)·0.5/0.5 = 0.5, (1 − 0.5)·(1 − 0.5) = 0.25 > 0.15
// so a = 1 − 0.15/0.5 = 0.7; after 0.5 s PB 1, PA 0.
func TestCubismPoseSlots(t *testing.T) {
	constant := func(v float32) p2lrt.Curve {
		return p2lrt.Curve{Start: p2lrt.Point{V: v}, Segments: []p2lrt.Segment{{End: p2lrt.Point{T: 10, V: v}}}}
	}
	m := cubismClipModel(p2lrt.Clip{ID: "B", Duration: 10, Fps: 30, FadeIn: 0, FadeOut: 0, TargetCurves: []p2lrt.TargetCurve{
		{Target: p2lrt.TargetPartOpacity, Part: 0, FadeIn: -1, FadeOut: -1, Curve: constant(0)},
		{Target: p2lrt.TargetPartOpacity, Part: 1, FadeIn: -1, FadeOut: -1, Curve: constant(1)},
	}})
	m = edited(m, func(f *p2lrt.File) {
		f.Parts = []p2lrt.Part{{ID: "PA", Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}}, {ID: "PB", Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}}}
		f.Pose = &p2lrt.Pose{FadeIn: 0.5, Groups: []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: 0}, {Part: 1}}}}}
	})
	r := m.NewRig()
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	r.SetBehaviors(0)
	r.Layer(0).Start(0)
	for _, step := range []struct {
		dt     float64
		pa, pb float64
	}{{0, 1, 0}, {0.25, 0.7, 0.5}, {0.25, 0, 1}} {
		r.Update(step.dt)
		near(t, "PA", r.Part(0).OpacityMultiplier(), step.pa)
		near(t, "PB", r.Part(1).OpacityMultiplier(), step.pb)
	}
}

// TestCubismUpdateAllocs: a Cubism rig playing a looping clip with
// events, an expression, blink, breath, look-at, lip sync and a host
// override, over its frame base, allocates nothing per update.
func TestCubismUpdateAllocs(t *testing.T) {
	clip := p2lrt.Clip{ID: "L", Duration: 1, Fps: 30, Loop: true, FadeIn: 0.5, FadeOut: 0.5,
		Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Segments: []p2lrt.Segment{
			{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 8}}}}}},
		Events: []p2lrt.Event{{Time: 0.5, Value: "e"}}}
	m := edited(cubismClipModel(clip), func(f *p2lrt.File) {
		f.Expressions = []p2lrt.Expression{{ID: "X", FadeIn: 0.3, FadeOut: 0.3, Entries: []p2lrt.ExpressionEntry{{Parameter: 1, Value: 5}}}}
	})
	r := m.NewRig()
	r.Layer(0).Start(0)
	r.Expressions().Set(0)
	r.SetBehaviors(p2l.AllBehaviors)
	r.LookAt(0.5, -0.25)
	r.LipSync(0.4, [5]float32{})
	r.SetParameterOverride(1, 30, 0.5)
	for k := 0; k < 200; k++ {
		r.Update(1.0 / 60)
	}
	if n := testing.AllocsPerRun(200, func() { r.Update(1.0 / 60) }); n != 0 {
		t.Errorf("%v allocations per update", n)
	}
}

// flatClip is a one-shot clip of duration d holding parameter param at v,
// without fades.
func flatClip(id string, param int, v, d float32) p2lrt.Clip {
	return p2lrt.Clip{ID: id, Duration: d, Fps: 30, FadeIn: 0, FadeOut: 0, Curves: []p2lrt.ParameterCurve{{Parameter: param,
		Curve: p2lrt.Curve{Start: p2lrt.Point{V: v}, Segments: []p2lrt.Segment{{End: p2lrt.Point{T: d, V: v}}}}}}}
}

// TestCubismFrameBase: each update starts from the frame base, the last
// update's clip result (loadParameters/saveParameters): a parameter no clip
// moves any more keeps its last clip value instead of going back to the
// host pose; a host write goes into the base, clamped (setParameterValueById
// then saveParameters), and stays until a clip moves the parameter; what
// the behaviors and expressions add is not kept.
func TestCubismFrameBase(t *testing.T) {
	m := cubismClipModel(flatClip("M", 0, 10, 0.5))
	r := m.NewRig()
	r.SetBehaviors(0)
	r.SetParameter(1, 250) // Y: base clamp(250) = 100; the host value stays 250
	r.Layer(0).Start(0)
	r.UpdateStages(0.25, p2l.StageClips) // M's first update: X 10 (weight 1: no fades)
	near(t, "X under M", r.ParameterCurrent(0), 10)
	near(t, "Y from the base", r.ParameterCurrent(1), 100)
	if got := r.Parameter(1); got != 250 {
		t.Errorf("host Y %v, want 250 as set", got)
	}
	// M ends at time 0.5 (weight 0: X = base 10) and is removed; X keeps
	// 10 on every later update.
	for k := 0; k < 4; k++ {
		r.UpdateStages(0.25, p2l.StageClips)
		near(t, fmt.Sprintf("X held after M (update %d)", k), r.ParameterCurrent(0), 10)
	}
	if r.Layer(0).Clip() != -1 {
		t.Errorf("M still playing")
	}
	r.SetParameter(0, -5)
	r.UpdateStages(0.25, p2l.StageClips)
	near(t, "X after a host write", r.ParameterCurrent(0), -5)
	// An expression adding 20 to Y is applied on top of the base, not
	// into it: clamp(100 + 20) = 100; after it is switched off, Y is
	// the base's 100, and with the base at 50, 50 + 20 = 70.
	m2 := edited(cubismClipModel(), func(f *p2lrt.File) {
		f.Expressions = []p2lrt.Expression{{ID: "E", FadeIn: 0, FadeOut: 0, Entries: []p2lrt.ExpressionEntry{{Parameter: 1, Blend: p2lrt.ExpressionAdd, Value: 20}}}}
	})
	r2 := m2.NewRig()
	r2.SetBehaviors(0)
	r2.SetParameter(1, 50)
	r2.Expressions().Set(0)
	for k := 0; k < 3; k++ {
		r2.Update(0.25)
		near(t, "Y with the expression", r2.ParameterCurrent(1), 70)
	}
	r2.ResetParameters() // base Y = default 0
	r2.Update(0.25)
	near(t, "Y with the expression after ResetParameters", r2.ParameterCurrent(1), 20)
}

// TestCubismClampEveryWrite: every write is clamped at once
// (SetParameterValue), so a later blend starts from the clamped value: a
// clip holding X at 150 stores clamp(150) = 100, and a host override of
// −100 at weight 0.5 (setParameterValueById(X, −100, 0.5)) gives
// 100·0.5 + (−100)·0.5 = 0, where clamping once at the end (the reference)
// gives clamp(150 + (−100 − 150)·0.5) = 25. The base keeps the clamped
// 100.
func TestCubismClampEveryWrite(t *testing.T) {
	m := cubismClipModel(flatClip("M", 0, 150, 10))
	for _, c := range []struct {
		pb   p2l.Playback
		want float64
	}{{p2l.PlaybackCubism, 0}, {p2l.PlaybackReference, 25}} {
		r := m.WithPlayback(c.pb).NewRig()
		r.SetBehaviors(0)
		r.Layer(0).Start(0)
		r.SetParameterOverride(0, -100, 0.5)
		r.Update(0.25)
		near(t, c.pb.String()+": X clamped, then pulled by the override", r.ParameterCurrent(0), c.want)
	}
	r := m.NewRig()
	r.SetBehaviors(0)
	r.Layer(0).Start(0)
	r.Update(0.25)
	r.Layer(0).Stop() // fade-out 0: M's weight stays 1 until its end, now + 0
	r.Update(0.25)
	r.Update(0.25)
	near(t, "X kept in the base, clamped", r.ParameterCurrent(0), 100)
}

// TestCubismPriorities: the Cubism sample's startMotion over
// CubismMotionManager: PriorityForce always starts; any other priority
// only above the current one (and above the reservation, which the start
// clears at once: so never at 0); the current priority goes back to 0
// only once every clip of the layer finished, so a clip replaced and still
// fading out keeps it. Play starts whatever plays, at priority 0. The
// reference starts a clip at a priority at least the layer's, 0 once its
// clip finished.
func TestCubismPriorities(t *testing.T) {
	long := flatClip("Long", 0, 10, 10)
	long.FadeOut = 1
	m := cubismClipModel(long, flatClip("Short", 1, 5, 0.25))
	r := m.NewRig()
	r.SetBehaviors(0)
	for _, s := range []struct {
		clip, priority int
		want           bool
	}{
		{0, 0, false}, // reserveMotion(0): 0 ≤ the reservation 0
		{0, 2, true},  // 2 > 0
		{1, 2, false}, // 2 ≤ the current 2
		{1, 1, false},
		{1, 3, true}, // PriorityForce
		{0, 3, true}, // again, though equal
		{1, 5, true}, // 5 > 3
		{0, 4, false},
	} {
		if got := r.Layer(0).Play(s.clip, s.priority); got != s.want {
			t.Errorf("PlayLayer(0, %d, %d) = %v, want %v (layer at %d)", s.clip, s.priority, got, s.want, r.Layer(0).Priority())
		}
	}
	if got := r.Layer(0).Priority(); got != 5 {
		t.Errorf("priority %d, want 5", got)
	}
	// Short (the newest, at 5) ends at 0.25 s; Long, replaced, fades
	// out until 1 s after its update: the priority stays 5 until it ends.
	r.UpdateStages(0.25, p2l.StageClips) // every clip's first update; Long's end = 0.25 + 1
	r.UpdateStages(0.25, p2l.StageClips) // Short's time 0.25: finished
	if got := r.Layer(0).Priority(); got != 5 {
		t.Errorf("priority while Long fades out %d, want 5", got)
	}
	for k := 0; k < 4; k++ {
		r.UpdateStages(0.25, p2l.StageClips) // now 1.5 > Long's end 1.25: finished
	}
	if got := r.Layer(0).Priority(); got != 0 {
		t.Errorf("priority after every clip finished %d, want 0", got)
	}
	if !r.Layer(0).Play(0, 1) {
		t.Error("priority 1 refused once the layer finished")
	}
	if r.Layer(0).Start(1); r.Layer(0).Clip() != 1 || r.Layer(0).Priority() != 0 {
		t.Errorf("Start: clip %d, priority %d, want 1, 0", r.Layer(0).Clip(), r.Layer(0).Priority())
	}
	if _, err := r.Layer(0).PlayGroup("nothing", 0, 2); err == nil {
		t.Error("unknown group accepted")
	}
	ref := m.WithPlayback(p2l.PlaybackReference).NewRig()
	if !ref.Layer(0).Play(0, 0) || !ref.Layer(0).Play(1, 0) || ref.Layer(0).Play(0, -1) {
		t.Error("reference: priority 0 over 0 must start, −1 must not")
	}
}

// TestCubismLookAt: CubismTargetPoint with the sample's factors. The first
// update only notes the time; then each update accelerates by at most
// maxA = (Δt·30)·(4/30)/4.5 toward the target and moves by the velocity,
// capped at 4/30 a call, whatever dt: toward (1, 1) from rest, d = √2, the
// wanted velocity (4/30)/√2 on each axis, an acceleration of 4/30 ≤ maxA
// (maxA = 0.4444 at Δt 0.5, 0.2222 at 0.25) and below the stopping speed
// 0.5·(√(maxA² + 8·maxA·d) − maxA) (≥ 0.5 at these steps): x = y = √2/15
// after one move, 2√2/15 after two, at either dt (frame-rate dependent).
// AngleX += 30x, AngleY += 30y, AngleZ += x·y·(−30), BodyAngleX += 10x,
// EyeBallX += x, EyeBallY += y. Within 0.01 of the target it stays.
func TestCubismLookAt(t *testing.T) {
	m := (p2l.ModelForTest(&p2lrt.File{
		Canvas: p2lrt.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1},
		Draw:   p2lrt.DrawGroup{Part: -1},
		Parameters: []p2lrt.Parameter{{ID: "ParamAngleX", Min: -30, Max: 30}, {ID: "ParamAngleY", Min: -30, Max: 30},
			{ID: "ParamAngleZ", Min: -30, Max: 30}, {ID: "ParamBodyAngleX", Min: -10, Max: 10},
			{ID: "ParamEyeBallX", Min: -1, Max: 1}, {ID: "ParamEyeBallY", Min: -1, Max: 1}},
	})).WithPlayback(p2l.PlaybackCubism)
	for _, dt := range []float64{0.5, 0.25} {
		r := m.NewRig()
		r.SetBehaviors(p2l.BehaviorLookAt)
		r.LookAt(1, 1)
		r.Update(dt)
		near(t, "AngleX after the first update", r.ParameterCurrent(0), 0)
		for k := 1; k <= 2; k++ {
			r.Update(dt)
			x := float64(k) * math.Sqrt2 / 15
			what := fmt.Sprintf("dt %v, move %d: ", dt, k)
			near(t, what+"AngleX", r.ParameterCurrent(0), 30*x)
			near(t, what+"AngleY", r.ParameterCurrent(1), 30*x)
			near(t, what+"AngleZ", r.ParameterCurrent(2), x*x*-30)
			near(t, what+"BodyAngleX", r.ParameterCurrent(3), 10*x)
			near(t, what+"EyeBallX", r.ParameterCurrent(4), x)
			near(t, what+"EyeBallY", r.ParameterCurrent(5), x)
		}
	}
	r := m.NewRig()
	r.SetBehaviors(p2l.BehaviorLookAt)
	r.LookAt(0.005, -0.01) // within 0.01 on both axes: no move
	for k := 0; k < 3; k++ {
		r.Update(0.5)
	}
	near(t, "AngleX near the target", r.ParameterCurrent(0), 0)
}

// TestCubismLipSync: the sample adds 0.8·value to each LipSync parameter
// (addParameterValueById(id, v, 0.8)), clamped: over the host's 0.3,
// level 0.5 gives 0.3 + 0.4 = 0.7 and level 1 gives clamp(1.1) = 1, where
// the reference takes the larger of the value and the level (0.5, 1).
func TestCubismLipSync(t *testing.T) {
	m := (p2l.ModelForTest(&p2lrt.File{
		Canvas:     p2lrt.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1},
		Draw:       p2lrt.DrawGroup{Part: -1},
		Parameters: []p2lrt.Parameter{{ID: "ParamMouthOpenY", Min: 0, Max: 1}},
		Roles:      []p2lrt.Role{{Name: "LipSync", Parameters: []int{0}}},
	}))
	for _, c := range []struct {
		pb         p2l.Playback
		half, full float64
	}{{p2l.PlaybackCubism, 0.7, 1}, {p2l.PlaybackReference, 0.5, 1}} {
		r := m.WithPlayback(c.pb).NewRig()
		r.SetBehaviors(0)
		r.SetParameter(0, 0.3)
		r.LipSync(0.5, [5]float32{})
		r.Update(0.25)
		near(t, c.pb.String()+": mouth at level 0.5", r.ParameterCurrent(0), c.half)
		r.LipSync(1, [5]float32{})
		r.Update(0.25)
		near(t, c.pb.String()+": mouth at level 1", r.ParameterCurrent(0), c.full)
	}
}
