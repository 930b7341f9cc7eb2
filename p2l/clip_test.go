package p2l

import (
	"fmt"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// easeSine is Cubism's CubismMath::GetEasingSine, written out here for the
// expected values (not the runtime's ease): 0 before 0, 1 after 1, else
// 0.5 − 0.5·cos(πx).
func easeSine(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return 0.5 - 0.5*math.Cos(math.Pi*x)
}

func constCurve(p int, v float32) p2lrt.ParameterCurve {
	return p2lrt.ParameterCurve{Parameter: p, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: v}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 10, V: v}}}}}
}

// clipModel: parameters a, b, eye (EyeBlink role), mouth (LipSync role),
// two parts.
func clipModel(clips ...p2lrt.Clip) *Model {
	return &Model{file: &p2lrt.File{
		Parameters: []p2lrt.Parameter{
			{ID: "a", Min: -100, Max: 100}, {ID: "b", Min: -100, Max: 100},
			{ID: "eye", Min: 0, Max: 1, Default: 1}, {ID: "mouth", Min: 0, Max: 1},
		},
		Parts: []p2lrt.Part{{ID: "p0"}, {ID: "p1"}},
		Roles: []p2lrt.Role{{Name: "EyeBlink", Parameters: []int{2}}, {Name: "LipSync", Parameters: []int{3}}},
		Clips: clips,
	}}
}

func newTestPlayer(m *Model) *clipPlayer {
	return newClipPlayer(m, roleParameters(m, "EyeBlink"), roleParameters(m, "LipSync"))
}

// clipFrame runs one update of p from base and returns the values.
func clipFrame(p *clipPlayer, base []float32, dt float64) ([]float32, clipOutputs) {
	v := append([]float32(nil), base...)
	out := clipOutputs{partOpacity: []float32{1, 1}, modelOpacity: 1}
	p.advance(dt)
	p.apply(v, &out)
	p.finishUpdate()
	return v, out
}

// The expected values below follow the reference runtime's player
// (PSD2Live runtime/src/clip.rs Player::update_layer, Playing::weight,
// fade_in, fade_out, local_time, fire; ffi.rs p2l_play_layer): each update
// first advances every clip's time, age and fade-out clock by dt, then
// samples; weight = fade-in × fade-out with fade-in = ease(age/fadeIn) and
// fade-out = 1 − ease(fading/fadeOut).

func TestClipFadeIn(t *testing.T) {
	m := clipModel(p2lrt.Clip{ID: "A", Duration: 10, FadeIn: 1, FadeOut: 1, Curves: []p2lrt.ParameterCurve{constCurve(0, 10)}})
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	base := []float32{0, 0, 1, 0}
	// The first update already shows age dt: ease(0.25).
	for k, want := range []float64{10 * easeSine(0.25), 10 * easeSine(0.5), 10 * easeSine(0.75), 10, 10} {
		v, _ := clipFrame(p, base, 0.25)
		if !near(float64(v[0]), want, 1e-5) {
			t.Errorf("frame %d: a = %v, want %v", k, v[0], want)
		}
	}
	// Default fades (negative in the model) are 1 s.
	if clipFade(-1) != 1 || clipFade(0.3) != 0.3 {
		t.Errorf("clipFade default wrong")
	}
}

// TestClipFirstUpdateAdvances: the first update after Play samples the clip
// at t = dt (the reference advances before sampling; Cubism samples t = 0).
func TestClipFirstUpdateAdvances(t *testing.T) {
	ramp := p2lrt.ParameterCurve{Parameter: 0, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 10}}}}}
	m := clipModel(p2lrt.Clip{ID: "ramp", Duration: 1, FadeIn: 0, FadeOut: 0, Curves: []p2lrt.ParameterCurve{ramp}})
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	if e := p.current(0); e == nil || e.t != 0 {
		t.Fatalf("before any update: %+v, want time 0", e)
	}
	for k, want := range []float64{1.25, 2.5, 3.75} {
		v, _ := clipFrame(p, []float32{0, 0, 1, 0}, 0.125)
		if !near(float64(v[0]), want, 1e-6) {
			t.Errorf("frame %d: %v, want %v (t = %v)", k, v[0], want, 0.125*float64(k+1))
		}
	}
}

// TestClipCrossfade: B replaces A; A fades out from the next update on with
// its own fade-out time, B fades in, weights multiply, and A is dropped once
// its fade-out has passed.
func TestClipCrossfade(t *testing.T) {
	m := clipModel(
		p2lrt.Clip{ID: "A", Duration: 10, Loop: true, FadeIn: 0, FadeOut: 0.5, Curves: []p2lrt.ParameterCurve{constCurve(0, 10)}},
		p2lrt.Clip{ID: "B", Duration: 10, Loop: true, FadeIn: 1, FadeOut: 1, Curves: []p2lrt.ParameterCurve{constCurve(0, 20)}},
	)
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	base := []float32{0, 0, 1, 0}
	v, _ := clipFrame(p, base, 0.125)
	if v[0] != 10 {
		t.Fatalf("A alone = %v, want 10", v[0])
	}
	p.play(0, 1, 1)
	for k := 1; k <= 6; k++ {
		v, _ = clipFrame(p, base, 0.125)
		el := 0.125 * float64(k)
		wa := 1 - easeSine(el/0.5)
		if el >= 0.5 {
			wa = 0 // dropped
		}
		wb := easeSine(el / 1)
		a := 10 * wa
		want := a + (20-a)*wb
		if !near(float64(v[0]), want, 1e-5) {
			t.Errorf("frame %d: %v, want %v", k, v[0], want)
		}
	}
	if n := len(p.layers[0].entries); n != 1 {
		t.Errorf("%d entries after A faded out, want 1", n)
	}
	// A fade-out of 0 drops the clip at once.
	p = newTestPlayer(clipModel(p2lrt.Clip{ID: "C", Duration: 10, FadeIn: 0, FadeOut: 0, Curves: []p2lrt.ParameterCurve{constCurve(0, 10)}}))
	p.play(0, 0, 0)
	clipFrame(p, base, 0.125)
	p.stop(0)
	if v, _ = clipFrame(p, base, 0.125); v[0] != 0 || len(p.layers[0].entries) != 0 {
		t.Errorf("after a stop with fade-out 0: %v, %d entries; want the base value and none", v[0], len(p.layers[0].entries))
	}
}

// TestClipRapidSwitch: every replaced clip fades out completely from the
// moment it was replaced, however quickly the switches come.
func TestClipRapidSwitch(t *testing.T) {
	m := clipModel(
		p2lrt.Clip{ID: "A", Duration: 10, Loop: true, FadeIn: 0, FadeOut: 1, Curves: []p2lrt.ParameterCurve{constCurve(0, 10)}},
		p2lrt.Clip{ID: "B", Duration: 10, Loop: true, FadeIn: 1, FadeOut: 1, Curves: []p2lrt.ParameterCurve{constCurve(0, 20)}},
	)
	p := newTestPlayer(m)
	base := []float32{0, 0, 1, 0}
	p.play(0, 0, 1)
	clipFrame(p, base, 0.125)
	for k := range 5 { // switch every frame
		p.play(0, k%2, 1)
		clipFrame(p, base, 0.125)
	}
	// The first A was replaced 5 updates ago: it is still there, 0.625 s
	// into its 1 s fade-out, and every later clip too.
	first := p.layers[0].entries[0]
	if first.clip != 0 || first.fading != 0.625 || len(p.layers[0].entries) != 6 {
		t.Errorf("oldest entry clip %d fading %v, %d entries; want A at 0.625 s and 6 entries", first.clip, first.fading, len(p.layers[0].entries))
	}
}

// TestClipPerCurveFadeOutOutlasts: a clip fading out stays while a curve's
// own fade-out outlasts the clip's, and that curve keeps its own weight.
func TestClipPerCurveFadeOutOutlasts(t *testing.T) {
	m := clipModel(p2lrt.Clip{ID: "A", Duration: 10, Loop: true, FadeIn: 0, FadeOut: 0.25,
		Curves:     []p2lrt.ParameterCurve{constCurve(0, 10), constCurve(1, 10)},
		CurveFades: []p2lrt.CurveFade{{Curve: 1, FadeIn: -1, FadeOut: 1}}})
	p := newTestPlayer(m)
	base := []float32{0, 0, 1, 0}
	p.play(0, 0, 1)
	clipFrame(p, base, 0.125)
	p.stop(0)
	for k := 1; k <= 9; k++ {
		v, _ := clipFrame(p, base, 0.125)
		el := 0.125 * float64(k)
		wa, wb := max(0, 1-easeSine(el/0.25)), 1-easeSine(el/1)
		if el >= 1 {
			wb = 0
		}
		if !near(float64(v[0]), 10*wa, 1e-5) || !near(float64(v[1]), 10*wb, 1e-5) {
			t.Errorf("%v s into the fade-out: a = %v, b = %v; want %v, %v", el, v[0], v[1], 10*wa, 10*wb)
		}
	}
	if len(p.layers[0].entries) != 0 {
		t.Error("clip kept after its longest fade-out")
	}
}

func TestClipPriorities(t *testing.T) {
	m := clipModel(
		p2lrt.Clip{ID: "once", Duration: 0.5, FadeIn: 0, FadeOut: 0, Curves: []p2lrt.ParameterCurve{constCurve(0, 1)}},
		p2lrt.Clip{ID: "other", Duration: 1, FadeIn: 0, FadeOut: 0, Curves: []p2lrt.ParameterCurve{constCurve(0, 2)}},
	)
	p := newTestPlayer(m)
	base := []float32{0, 0, 1, 0}
	if !p.play(0, 0, 2) {
		t.Fatal("play refused on an idle layer")
	}
	if p.play(0, 1, 1) {
		t.Error("lower priority started over a playing clip")
	}
	if !p.play(0, 0, 2) {
		t.Error("equal priority refused")
	}
	for range 8 {
		clipFrame(p, base, 0.125)
	}
	// The one-shot clip ended: priority 0, but it holds its last pose.
	if p.layers[0].priority != 0 {
		t.Errorf("priority after the end = %d, want 0", p.layers[0].priority)
	}
	v, _ := clipFrame(p, base, 0.125)
	if v[0] != 1 {
		t.Errorf("ended one-shot clip gives %v, want its end value 1", v[0])
	}
	if !p.play(0, 1, 1) {
		t.Error("priority 1 refused after the clip ended")
	}
	if p.play(1, 5, 1) || p.play(MaxLayers, 0, 1) || p.play(-1, 0, 1) {
		t.Error("bad clip or layer accepted")
	}
}

// TestClipOneShotClamp: a one-shot clip's time is clamped to its duration
// (the reference's local_time), so keys after the duration never show; a
// looping clip wraps.
func TestClipOneShotClamp(t *testing.T) {
	ramp := p2lrt.ParameterCurve{Parameter: 0, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 2, V: 20}}}}}
	m := clipModel(p2lrt.Clip{ID: "once", Duration: 1, FadeIn: 0, FadeOut: 0, Curves: []p2lrt.ParameterCurve{ramp}},
		p2lrt.Clip{ID: "loop", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 0, Curves: []p2lrt.ParameterCurve{ramp}})
	for c, want := range []float64{10, 2.5} { // at 1.25 s: clamped to 1 s; wrapped to 0.25 s
		p := newTestPlayer(m)
		p.play(0, c, 0)
		var v []float32
		for range 10 {
			v, _ = clipFrame(p, []float32{0, 0, 1, 0}, 0.125)
		}
		if !near(float64(v[0]), want, 1e-5) {
			t.Errorf("%s at 1.25 s: %v, want %v", m.file.Clips[c].ID, v[0], want)
		}
	}
}

func TestClipLayers(t *testing.T) {
	m := clipModel(
		p2lrt.Clip{ID: "base", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 0, Curves: []p2lrt.ParameterCurve{constCurve(0, 10), constCurve(1, 4)}},
		p2lrt.Clip{ID: "over", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 0, Curves: []p2lrt.ParameterCurve{constCurve(0, 30)}},
	)
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	p.play(3, 1, 1)
	p.layers[3].weight = 0.25
	v, _ := clipFrame(p, []float32{0, 0, 1, 0}, 0.1)
	// Layer 3 over layer 0 with weight ¼: 10 + (30 − 10)·¼ = 15; b untouched
	// by layer 3.
	if v[0] != 15 || v[1] != 4 {
		t.Errorf("layers: a = %v, b = %v, want 15, 4", v[0], v[1])
	}
}

func TestClipEvents(t *testing.T) {
	m := clipModel(p2lrt.Clip{ID: "loop", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 0,
		Events: []p2lrt.Event{{Time: 0, Value: "start"}, {Time: 0.5, Value: "mid"}, {Time: 1, Value: "end"}}})
	p := newTestPlayer(m)
	p.play(2, 0, 1)
	base := []float32{0, 0, 1, 0}
	var got []string
	collect := func() {
		for _, e := range p.events {
			if e.Layer != 2 || e.Clip != 0 {
				t.Errorf("event %+v: wrong layer or clip", e)
			}
			got = append(got, e.Value)
		}
	}
	clipFrame(p, base, 0.25) // 0 → 0.25: the first update fires the events at 0
	collect()
	for range 11 { // to 3.0 s in 0.25 s steps (exact in binary)
		clipFrame(p, base, 0.25)
		collect()
	}
	// Laps: start(0) mid end/start(1) mid end/start(2) mid end/start(3).
	// Crossing 1.0 passes "end" of lap 0 then "start" of lap 1.
	want := []string{"start", "mid", "end", "start", "mid", "end", "start", "mid", "end", "start"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	// Seeking fires nothing, the next update continues from the new time.
	got = got[:0]
	p.seek(2, 0.4)
	clipFrame(p, base, 0.25) // 0.4 → 0.65: "mid"
	collect()
	if len(got) != 1 || got[0] != "mid" {
		t.Errorf("after seek: %v, want [mid]", got)
	}
	if e := p.current(2); e == nil || !near(e.t, 0.65, 1e-7) { // a float32 clock (PlaybackReference)
		t.Errorf("time after seek and update: %+v", e)
	}
	// 2.5 laps in one update fire lap by lap (0.65 → 3.15).
	got = got[:0]
	clipFrame(p, base, 2.5)
	collect()
	if want := []string{"end", "start", "mid", "end", "start", "mid", "end", "start"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("2.5 laps: %v, want %v", got, want)
	}
	// More than maxEventLaps laps fire each event once.
	got = got[:0]
	clipFrame(p, base, 10)
	collect()
	if len(got) != 3 {
		t.Errorf("10 laps: %v, want each event once", got)
	}
}

// TestClipEventsOfThePlayingClipOnly: a clip fading out fires no events
// (the reference fires the current clip's only; Cubism fires every queued
// motion's).
func TestClipEventsOfThePlayingClipOnly(t *testing.T) {
	m := clipModel(p2lrt.Clip{ID: "A", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 1, Events: []p2lrt.Event{{Time: 0.5, Value: "a"}}},
		p2lrt.Clip{ID: "B", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 1, Events: []p2lrt.Event{{Time: 0.75, Value: "b"}}})
	p := newTestPlayer(m)
	base := []float32{0, 0, 1, 0}
	p.play(0, 0, 0)
	clipFrame(p, base, 0.25)
	p.play(0, 1, 0)
	var got []string
	for range 4 {
		clipFrame(p, base, 0.25)
		for _, e := range p.events {
			got = append(got, e.Value)
		}
	}
	if fmt.Sprint(got) != "[b]" {
		t.Errorf("events %v, want [b] (A fading out fires none)", got)
	}
}

func TestClipSeekKeepsFadeIn(t *testing.T) {
	m := clipModel(p2lrt.Clip{ID: "A", Duration: 10, FadeIn: 1, FadeOut: 1,
		Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 10, V: 100}}}}}}})
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	base := []float32{0, 0, 1, 0}
	clipFrame(p, base, 0.25)
	clipFrame(p, base, 0.25) // time 0.5, fade-in ease(0.5)
	p.seek(0, 5)
	v, _ := clipFrame(p, base, 0.25) // time 5.25, fade-in continues: ease(0.75)
	if want := 52.5 * easeSine(0.75); !near(float64(v[0]), want, 1e-4) {
		t.Errorf("after seek: %v, want %v", v[0], want)
	}
}

func TestClipEffectsAndOpacity(t *testing.T) {
	blink := p2lrt.TargetCurve{Target: p2lrt.TargetBlink, Part: -1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0.5}}}
	lip := p2lrt.TargetCurve{Target: p2lrt.TargetLipSync, Part: -1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0.25}}}
	partOp := p2lrt.TargetCurve{Target: p2lrt.TargetPartOpacity, Part: 1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0.3}}}
	modelOp := p2lrt.TargetCurve{Target: p2lrt.TargetModelOpacity, Part: -1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 1.6}}}
	m := clipModel(
		// Own curves for eye and mouth: the effects act on the curve values.
		p2lrt.Clip{ID: "own", Duration: 1, Loop: true, FadeIn: 1, FadeOut: 1,
			Curves:       []p2lrt.ParameterCurve{constCurve(2, 0.8), constCurve(3, 0.5)},
			TargetCurves: []p2lrt.TargetCurve{blink, lip, partOp, modelOp}},
		// No own curves: the effects act on the current value by the weight.
		p2lrt.Clip{ID: "none", Duration: 1, Loop: true, FadeIn: 1, FadeOut: 1,
			TargetCurves: []p2lrt.TargetCurve{blink, lip}},
	)
	base := []float32{0, 0, 1, 0.1}
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	v, out := clipFrame(p, base, 0.25) // weight w = ease(0.25)
	w := easeSine(0.25)
	if want := 1 + (0.8*0.5-1)*w; !near(float64(v[2]), want, 1e-6) {
		t.Errorf("eye with own curve = %v, want %v", v[2], want)
	}
	if want := 0.1 + (0.5+0.25-0.1)*w; !near(float64(v[3]), want, 1e-6) {
		t.Errorf("mouth with own curve = %v, want %v", v[3], want)
	}
	// Opacity curves are set directly, whatever the fade weight, clamped to
	// [0, 1] (the reference's set_clip_opacities and ffi.rs update).
	if !near(float64(out.partOpacity[1]), 0.3, 1e-7) || out.partOpacity[0] != 1 || out.modelOpacity != 1 {
		t.Errorf("opacities %v, %v; want [1 0.3], 1 (1.6 clamped)", out.partOpacity, out.modelOpacity)
	}

	p = newTestPlayer(m)
	p.play(0, 1, 1)
	v, _ = clipFrame(p, base, 0.25)
	if want := 1 * (1 + (0.5-1)*w); !near(float64(v[2]), want, 1e-6) {
		t.Errorf("eye without curve = %v, want %v", v[2], want)
	}
	if want := 0.1 + 0.25*w; !near(float64(v[3]), want, 1e-6) {
		t.Errorf("mouth without curve = %v, want %v", v[3], want)
	}
}

func TestClipCurveFades(t *testing.T) {
	m := clipModel(p2lrt.Clip{ID: "A", Duration: 10, FadeIn: 1, FadeOut: 1,
		Curves:     []p2lrt.ParameterCurve{constCurve(0, 10), constCurve(1, 10)},
		CurveFades: []p2lrt.CurveFade{{Curve: 1, FadeIn: 0.5, FadeOut: -1}}})
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	base := []float32{0, 0, 1, 0}
	v, _ := clipFrame(p, base, 0.25)
	if !near(float64(v[0]), 10*easeSine(0.25), 1e-5) || !near(float64(v[1]), 10*easeSine(0.5), 1e-5) {
		t.Errorf("curve fades: a = %v, b = %v, want %v, %v", v[0], v[1], 10*easeSine(0.25), 10*easeSine(0.5))
	}
	_ = math.Pi
}

// TestClipHostileTimes: extreme durations, fades and times neither hang nor
// produce non-finite values (issue 14): durations from the smallest float32
// to the largest, fades up to 1e38, dt from 1e-300 to an hour, and a
// looping clip whose laps are too short for float64 to count after a long
// time (duration 1e-13 after 1000 s: lap 1e16 + 1 rounds to 1e16, which
// hung the lap loop before it had a counter).
func TestClipHostileTimes(t *testing.T) {
	for _, d := range []float32{math.SmallestNonzeroFloat32, 1e-13, 1e-6, 1, 1e7, math.MaxFloat32} {
		for _, fade := range []float32{0, 1e-30, 1, 1e38} {
			for _, loop := range []bool{false, true} {
				c := p2lrt.Clip{ID: "c", Duration: d, Loop: loop, FadeIn: fade, FadeOut: fade,
					Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 1}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: d, V: 5}}}}}},
					Events: []p2lrt.Event{{Time: 0, Value: "a"}, {Time: d / 2, Value: "b"}}}
				p := newTestPlayer(clipModel(c))
				p.play(0, 0, 0)
				for _, dt := range []float64{1e-300, 1000, 2e-13, 3600, 2e-13, 1e-9, 0.5} {
					v, _ := clipFrame(p, []float32{0, 0, 1, 0}, dt)
					if math.IsNaN(float64(v[0])) || math.IsInf(float64(v[0]), 0) || len(p.events) > 2*(maxEventLaps+2) {
						t.Fatalf("duration %v fade %v loop %v dt %v: value %v, %d events", d, fade, loop, dt, v[0], len(p.events))
					}
				}
				p.stop(0)
				clipFrame(p, []float32{0, 0, 1, 0}, 1)
			}
		}
	}
}
