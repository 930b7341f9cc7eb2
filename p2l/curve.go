package p2l

import (
	"math"
	"sort"
)

// This file evaluates motion curves as the reference runtime does
// (PSD2Live runtime/src/clip.rs value_at), which is Cubism's EvaluateCurve
// for restricted Bezier files except at two kinds of times (docs/
// ANIMATION.md): the spec keeps Bezier time control points inside their
// segment and advances the curve parameter linearly in time instead of
// solving the cubic for t.

// Value returns the curve's value at time t (seconds of clip time).
//
// At or before the start point the start value holds; otherwise the
// segment used is the first whose end time is at least t (an inclusive
// end: at exactly a key time the segment ending there applies, so the value
// is that key's); after the last point the last value holds. Arithmetic is
// float64, rounded once. The segment is found by binary search (segment
// end times never decrease), so long curves cost O(log n) per sample.
func (c *Curve) Value(t float64) float32 {
	n := len(c.Segments)
	if n == 0 || t <= float64(c.Start.T) {
		return c.Start.V
	}
	i := sort.Search(n, func(i int) bool { return float64(c.Segments[i].End.T) >= t })
	if i == n {
		return c.Segments[n-1].End.V
	}
	p0 := c.Start
	if i > 0 {
		p0 = c.Segments[i-1].End
	}
	return float32(c.Segments[i].eval(p0, t))
}

// eval evaluates segment s, which starts at p0, at a time t with
// p0.T < t ≤ s.End.T.
func (s *Segment) eval(p0 Point, t float64) float64 {
	t0, t1 := float64(p0.T), float64(s.End.T)
	u := 1.0
	if t1 > t0 {
		u = (t - t0) / (t1 - t0)
	}
	switch s.Kind {
	case SegmentStepped:
		if t >= t1 {
			return float64(s.End.V)
		}
		return float64(p0.V)
	case SegmentInverseStepped:
		return float64(s.End.V)
	case SegmentBezier:
		// de Casteljau on the values with the time-linear parameter u.
		a := lerp64(float64(p0.V), float64(s.C1.V), u)
		b := lerp64(float64(s.C1.V), float64(s.C2.V), u)
		c := lerp64(float64(s.C2.V), float64(s.End.V), u)
		return lerp64(lerp64(a, b, u), lerp64(b, c, u), u)
	default: // SegmentLinear
		return float64(p0.V) + (float64(s.End.V)-float64(p0.V))*u
	}
}

func lerp64(a, b, u float64) float64 { return a + (b-a)*u }

// easeSine is the fades' easing (Cubism's GetEasingSine, the reference's
// ease): 0 before 0, 1 after 1, else 0.5 − 0.5·cos(πx).
func easeSine(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return 0.5 - 0.5*math.Cos(x*math.Pi)
}
