package p2l

import (
	"math"
	"testing"
)

func constCurve(p int, v float32) ParameterCurve {
	return ParameterCurve{Parameter: p, Curve: Curve{Start: Point{0, v}, Segments: []Segment{{Kind: SegmentLinear, End: Point{10, v}}}}}
}

// clipModel: parameters a, b, eye (EyeBlink role), mouth (LipSync role),
// two parts.
func clipModel(clips ...Clip) *Model {
	return &Model{
		Parameters: []Parameter{
			{ID: "a", Min: -100, Max: 100}, {ID: "b", Min: -100, Max: 100},
			{ID: "eye", Min: 0, Max: 1, Default: 1}, {ID: "mouth", Min: 0, Max: 1},
		},
		Parts: []Part{{ID: "p0"}, {ID: "p1"}},
		Roles: []Role{{Name: "EyeBlink", Parameters: []int{2}}, {Name: "LipSync", Parameters: []int{3}}},
		Clips: clips,
	}
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

func TestClipFadeIn(t *testing.T) {
	m := clipModel(Clip{ID: "A", Duration: 10, FadeIn: 1, FadeOut: 1, Curves: []ParameterCurve{constCurve(0, 10)}})
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	base := []float32{0, 0, 1, 0}
	// The clip starts on the first update (fade-in weight 0), then its
	// weight is ease(elapsed/1 s).
	for k, want := range []float64{0, 10 * easeSine(0.25), 10 * easeSine(0.5), 10 * easeSine(0.75), 10, 10} {
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

// TestClipCrossfade: B replaces A; A starts fading out after the next
// update (Cubism's queue), with its own fade-out time, and weights multiply.
func TestClipCrossfade(t *testing.T) {
	m := clipModel(
		Clip{ID: "A", Duration: 10, Loop: true, FadeIn: 0, FadeOut: 0.5, Curves: []ParameterCurve{constCurve(0, 10)}},
		Clip{ID: "B", Duration: 10, Loop: true, FadeIn: 1, FadeOut: 1, Curves: []ParameterCurve{constCurve(0, 20)}},
	)
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	base := []float32{0, 0, 1, 0}
	v, _ := clipFrame(p, base, 0.1)
	if v[0] != 10 {
		t.Fatalf("A alone = %v, want 10", v[0])
	}
	p.play(0, 1, 1)
	// Frame 1 after the switch: A still full (its fade-out starts after this
	// update, ending 0.5 s later), B at weight 0.
	v, _ = clipFrame(p, base, 0.1)
	if v[0] != 10 {
		t.Errorf("switch frame: %v, want 10", v[0])
	}
	// Frame 2: A = ease(0.4/0.5), B = ease(0.1/1): v = lerp(lerp(0,10,wa),20,wb).
	for k := 2; k <= 7; k++ {
		v, _ = clipFrame(p, base, 0.1)
		el := 0.1 * float64(k-1)
		wa := easeSine((0.5 - el) / 0.5)
		if el > 0.5 {
			wa = 0
		}
		wb := easeSine(el / 1)
		a := 10 * wa
		want := a + (20-a)*wb
		if !near(float64(v[0]), want, 1e-4) {
			t.Errorf("frame %d: %v, want %v", k, v[0], want)
		}
	}
	if n := len(p.layers[0].entries); n != 1 {
		t.Errorf("%d entries after A faded out, want 1", n)
	}
}

// TestClipRapidSwitch: every replaced clip fades out completely; a later
// replacement never extends a running fade-out.
func TestClipRapidSwitch(t *testing.T) {
	m := clipModel(
		Clip{ID: "A", Duration: 10, Loop: true, FadeIn: 0, FadeOut: 1, Curves: []ParameterCurve{constCurve(0, 10)}},
		Clip{ID: "B", Duration: 10, Loop: true, FadeIn: 1, FadeOut: 1, Curves: []ParameterCurve{constCurve(0, 20)}},
	)
	p := newTestPlayer(m)
	base := []float32{0, 0, 1, 0}
	p.play(0, 0, 1)
	clipFrame(p, base, 0.1)
	for k := range 5 { // switch every frame
		p.play(0, k%2, 1)
		clipFrame(p, base, 0.1)
	}
	// The first A started fading at t = 0.2 and ends at 1.2: it must still
	// be queued, with end time 1.2.
	first := p.layers[0].entries[0]
	if first.clip != 0 || !near(first.fade.end, 1.2, 1e-6) {
		t.Errorf("oldest entry clip %d end %v, want A ending at 1.2", first.clip, first.fade.end)
	}
}

func TestClipPriorities(t *testing.T) {
	m := clipModel(
		Clip{ID: "once", Duration: 0.5, FadeIn: 0, FadeOut: 0, Curves: []ParameterCurve{constCurve(0, 1)}},
		Clip{ID: "other", Duration: 1, FadeIn: 0, FadeOut: 0, Curves: []ParameterCurve{constCurve(0, 2)}},
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
		clipFrame(p, base, 0.1)
	}
	// The one-shot clip ended: priority 0, but it holds its last pose.
	if p.layers[0].priority != 0 {
		t.Errorf("priority after the end = %d, want 0", p.layers[0].priority)
	}
	v, _ := clipFrame(p, base, 0.1)
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

func TestClipLayers(t *testing.T) {
	m := clipModel(
		Clip{ID: "base", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 0, Curves: []ParameterCurve{constCurve(0, 10), constCurve(1, 4)}},
		Clip{ID: "over", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 0, Curves: []ParameterCurve{constCurve(0, 30)}},
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
	m := clipModel(Clip{ID: "loop", Duration: 1, Loop: true, FadeIn: 0, FadeOut: 0,
		Events: []Event{{0, "start"}, {0.5, "mid"}, {1, "end"}}})
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
	clipFrame(p, base, 0.25) // local time 0: "start"
	collect()
	for range 12 { // 3 s more in 0.25 s steps (exact in binary): local 0.25 … 3.0
		clipFrame(p, base, 0.25)
		collect()
	}
	// Laps: start(0) mid end/start(1) mid end/start(2) mid end/start(3).
	// Crossing 1.0 passes "end" of lap 0 then "start" of lap 1.
	want := []string{"start", "mid", "end", "start", "mid", "end", "start", "mid", "end", "start"}
	if len(got) != len(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("events %v, want %v", got, want)
		}
	}
	// Seeking fires nothing, the next update continues from the new time.
	got = got[:0]
	p.seek(2, 0.4)
	clipFrame(p, base, 0.2) // 0.4 → 0.6: "mid"
	collect()
	if len(got) != 1 || got[0] != "mid" {
		t.Errorf("after seek: %v, want [mid]", got)
	}
	if e := p.current(2); e == nil || !near(e.t, 0.6, 1e-6) {
		t.Errorf("time after seek and update: %+v", e)
	}
	// More than a lap in one update fires each event once.
	got = got[:0]
	clipFrame(p, base, 2.5)
	collect()
	if len(got) != 3 {
		t.Errorf("long update: %v, want each event once", got)
	}
}

func TestClipSeekKeepsFadeIn(t *testing.T) {
	m := clipModel(Clip{ID: "A", Duration: 10, FadeIn: 1, FadeOut: 1,
		Curves: []ParameterCurve{{Parameter: 0, Curve: Curve{Start: Point{0, 0}, Segments: []Segment{{Kind: SegmentLinear, End: Point{10, 100}}}}}}})
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	base := []float32{0, 0, 1, 0}
	clipFrame(p, base, 0.25)
	clipFrame(p, base, 0.25) // local 0.25, fade-in ease(0.25)
	p.seek(0, 5)
	v, _ := clipFrame(p, base, 0.25) // local 5.25, fade-in continues: ease(0.5)
	if want := 52.5 * easeSine(0.5); !near(float64(v[0]), want, 1e-4) {
		t.Errorf("after seek: %v, want %v", v[0], want)
	}
}

func TestClipEffectsAndOpacity(t *testing.T) {
	blink := TargetCurve{Target: TargetBlink, Part: -1, Curve: Curve{Start: Point{0, 0.5}}}
	lip := TargetCurve{Target: TargetLipSync, Part: -1, Curve: Curve{Start: Point{0, 0.25}}}
	partOp := TargetCurve{Target: TargetPartOpacity, Part: 1, Curve: Curve{Start: Point{0, 0.3}}}
	modelOp := TargetCurve{Target: TargetModelOpacity, Part: -1, Curve: Curve{Start: Point{0, 0.6}}}
	m := clipModel(
		// Own curves for eye and mouth: the effects act on the curve values.
		Clip{ID: "own", Duration: 1, Loop: true, FadeIn: 1, FadeOut: 1,
			Curves:       []ParameterCurve{constCurve(2, 0.8), constCurve(3, 0.5)},
			TargetCurves: []TargetCurve{blink, lip, partOp, modelOp}},
		// No own curves: the effects act on the current value by the weight.
		Clip{ID: "none", Duration: 1, Loop: true, FadeIn: 1, FadeOut: 1,
			TargetCurves: []TargetCurve{blink, lip}},
	)
	base := []float32{0, 0, 1, 0.1}
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	clipFrame(p, base, 0.25)
	v, out := clipFrame(p, base, 0.25) // weight w = ease(0.25)
	w := easeSine(0.25)
	if want := 1 + (0.8*0.5-1)*w; !near(float64(v[2]), want, 1e-6) {
		t.Errorf("eye with own curve = %v, want %v", v[2], want)
	}
	if want := 0.1 + (0.5+0.25-0.1)*w; !near(float64(v[3]), want, 1e-6) {
		t.Errorf("mouth with own curve = %v, want %v", v[3], want)
	}
	// Opacity curves are set directly, whatever the fade weight.
	if !near(float64(out.partOpacity[1]), 0.3, 1e-7) || out.partOpacity[0] != 1 || !near(float64(out.modelOpacity), 0.6, 1e-7) {
		t.Errorf("opacities %v, %v", out.partOpacity, out.modelOpacity)
	}

	p = newTestPlayer(m)
	p.play(0, 1, 1)
	clipFrame(p, base, 0.25)
	v, _ = clipFrame(p, base, 0.25)
	if want := 1 * (1 + (0.5-1)*w); !near(float64(v[2]), want, 1e-6) {
		t.Errorf("eye without curve = %v, want %v", v[2], want)
	}
	if want := 0.1 + 0.25*w; !near(float64(v[3]), want, 1e-6) {
		t.Errorf("mouth without curve = %v, want %v", v[3], want)
	}
}

func TestClipCurveFades(t *testing.T) {
	m := clipModel(Clip{ID: "A", Duration: 10, FadeIn: 1, FadeOut: 1,
		Curves:     []ParameterCurve{constCurve(0, 10), constCurve(1, 10)},
		CurveFades: []CurveFade{{Curve: 1, FadeIn: 0.5, FadeOut: -1}}})
	p := newTestPlayer(m)
	p.play(0, 0, 1)
	base := []float32{0, 0, 1, 0}
	clipFrame(p, base, 0.25)
	v, _ := clipFrame(p, base, 0.25)
	if !near(float64(v[0]), 10*easeSine(0.25), 1e-5) || !near(float64(v[1]), 10*easeSine(0.5), 1e-5) {
		t.Errorf("curve fades: a = %v, b = %v, want %v, %v", v[0], v[1], 10*easeSine(0.25), 10*easeSine(0.5))
	}
	_ = math.Pi
}
