package p2l_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestPlaybackMark: a model plays as the reference unless its META says
// "cubism"; WithPlayback returns a marked clone and leaves the model alone;
// the mark survives Write and Load, and unmarking removes the entry.
func TestPlaybackMark(t *testing.T) {
	m := edited(refPlayModel(), func(f *p2lrt.File) { f.Meta = []p2lrt.MetaEntry{{Key: "generator", Value: "test"}} })
	if got := m.Playback(); got != p2l.PlaybackReference {
		t.Fatalf("unmarked model: %v", got)
	}
	c := m.WithPlayback(p2l.PlaybackCubism)
	if got := c.Playback(); got != p2l.PlaybackCubism {
		t.Fatalf("marked clone: %v", got)
	}
	if m.Playback() != p2l.PlaybackReference || m.Meta().Len() != 1 {
		t.Fatalf("WithPlayback changed the model: %v", m.File().Meta)
	}
	if v, _ := c.MetaValue(p2l.MetaPlayback); v != "cubism" || c.Meta().Len() != 2 {
		t.Fatalf("META of the clone: %v", c.File().Meta)
	}
	var b bytes.Buffer
	if err := p2l.Write(&b, c, nil); err != nil {
		t.Fatal(err)
	}
	l, err := p2l.Load(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if l.Playback() != p2l.PlaybackCubism {
		t.Fatalf("after Write and Load: %v (META %v)", l.Playback(), l.File().Meta)
	}
	u := l.WithPlayback(p2l.PlaybackReference)
	if _, ok := u.MetaValue(p2l.MetaPlayback); ok || u.Playback() != p2l.PlaybackReference || u.Meta().Len() != 1 {
		t.Fatalf("unmarked again: %v", u.File().Meta)
	}
	if (p2l.ModelForTest(&p2lrt.File{Meta: []p2lrt.MetaEntry{{Key: p2l.MetaPlayback, Value: "Cubism"}}})).Playback() != p2l.PlaybackReference {
		t.Error("only the value \"cubism\" marks a model")
	}
}

// oneCurveModel has one parameter X in [−100, 100] and one clip of the given
// duration, without fades, whose one curve on X starts at (0, 0).
func oneCurveModel(duration float32, segs ...p2lrt.Segment) *p2l.Model {
	return p2l.ModelForTest(&p2lrt.File{
		Canvas:     p2lrt.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1},
		Draw:       p2lrt.DrawGroup{Part: -1},
		Parameters: []p2lrt.Parameter{{ID: "X", Min: -100, Max: 100}},
		Clips: []p2lrt.Clip{{ID: "C", Duration: duration, Fps: 30,
			Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Segments: segs}}}}},
	})
}

func linear(t, v float32) p2lrt.Segment {
	return p2lrt.Segment{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: t, V: v}}
}

// TestPlaybackClock: the clip clock of a PlaybackReference rig is the
// reference's float32 sum of float32 dt (clip.rs update_layer: time += dt
// in f32, the host's dt as a C float), that of a PlaybackCubism rig the
// framework's: the float64 sum of dt (the queue's userTime) minus that sum
// at the clip's first update (its start, cubismmotion.ts
// doUpdateParameters: timeOffset = userTime − startTime), and the curve
// value follows: a linear curve 0 → 10 over 10 s sampled at the float32
// clock in float32 arithmetic (value_at: from + (to − from)·((t − t0)/(t1
// − t0))).
func TestPlaybackClock(t *testing.T) {
	m := oneCurveModel(20, linear(10, 10))
	const dt = 1.0 / 60
	ref := m.NewRig()
	cub := m.WithPlayback(p2l.PlaybackCubism).NewRig()
	for _, r := range []*p2l.Rig{ref, cub} {
		r.SetBehaviors(0)
		r.Layer(0).Start(0)
	}
	var t32 float32
	var t64, now, start float64
	apart := 0
	for k := 1; k <= 590; k++ { // to 9.83 s, inside the segment
		ref.UpdateStages(dt, p2l.StageClips)
		cub.UpdateStages(dt, p2l.StageClips)
		t32 += float32(dt)
		now += dt
		if k == 1 {
			start = now
		}
		t64 = now - start
		if got := ref.Layer(0).Time(); got != float64(t32) {
			t.Fatalf("update %d: reference clock %v, want the float32 sum %v", k, got, t32)
		}
		if got := cub.Layer(0).Time(); got != t64 {
			t.Fatalf("update %d: Cubism clock %v, want the float64 sum less the start %v", k, got, t64)
		}
		u := t32 / 10
		if want, got := 0+(10-0)*u, ref.ParameterCurrent(0); got != want {
			t.Fatalf("update %d: reference value %v, want %v", k, got, want)
		}
		if want, got := float32(t64/10*10), cub.ParameterCurrent(0); math.Abs(float64(got-want)) > 1e-6 {
			t.Fatalf("update %d: Cubism value %v, want %v", k, got, want)
		}
		if float64(t32) != t64 {
			apart++
		}
	}
	// At 1/60 the two clocks part within a few updates and stay apart: the test sees
	// the difference.
	if apart < 580 {
		t.Errorf("the clocks agree on %d of 590 updates: the test cannot tell them apart", 590-apart)
	}
	if d := math.Abs(ref.Layer(0).Time() - cub.Layer(0).Time()); !(d > 1e-7) {
		t.Errorf("after 9.8 s the clocks are %v apart", d)
	}
}

// TestDecreasingSegmentTimes: a file may hold a curve whose segment end
// times go back (the reference loads it); value_at takes the first segment
// whose end is at or after t, scanning from the start (the framework's
// evaluateCurve the first whose end is after t: the same here). Ends 1, 0.5, 2
// (values 10, 20, 30) at t = 0.75: the first segment, 0 → 10 over [0, 1],
// gives 7.5 (a binary search would land on the third: 20 → 30 over
// [0.5, 2], 21.67).
func TestDecreasingSegmentTimes(t *testing.T) {
	m := oneCurveModel(3, linear(1, 10), linear(0.5, 20), linear(2, 30))
	for _, mm := range []*p2l.Model{m, m.WithPlayback(p2l.PlaybackCubism)} {
		r := mm.NewRig()
		r.SetBehaviors(0)
		r.Layer(0).Start(0)
		if mm.Playback() == p2l.PlaybackCubism {
			r.UpdateStages(0, p2l.StageClips) // its first update: clip time 0
		}
		r.UpdateStages(0.75, p2l.StageClips)
		if got := r.ParameterCurrent(0); got != 7.5 {
			t.Errorf("%v: X at 0.75 s = %v, want 7.5 (the first segment ending at or after t)", mm.Playback(), got)
		}
		r.UpdateStages(0.75, p2l.StageClips) // 1.5 s: only the third segment ends after it
		if got, want := r.ParameterCurrent(0), float32(20+(30-20)*((1.5-0.5)/(2-0.5))); math.Abs(float64(got-want)) > 1e-5 {
			t.Errorf("%v: X at 1.5 s = %v, want %v", mm.Playback(), got, want)
		}
	}
}
