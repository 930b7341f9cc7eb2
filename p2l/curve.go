package p2l

import (
	"math"
	"sort"
	"strconv"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file evaluates motion curves as the reference runtime does
// (PSD2Live runtime/src/clip.rs value_at), which is Cubism's EvaluateCurve
// for restricted Bezier files except at two kinds of times (docs/
// ANIMATION.md): the spec keeps Bezier time control points inside their
// segment and advances the curve parameter linearly in time instead of
// solving the cubic for t.

// CurveValue returns the curve's value at time t (seconds of clip time).
//
// At or before the start point the start value holds; otherwise the
// segment used is the first whose end time is at least t (an inclusive
// end: at exactly a key time the segment ending there applies, so the value
// is that key's); after the last point the last value holds. Arithmetic is
// float64, rounded once (PlaybackCubism; a rig plays a PlaybackReference
// model's curves in float32, as clip.rs does). Files may hold curves whose
// end times decrease somewhere; the first segment ending at or after t is
// then the one a scan from the start meets, as the players use. Value
// checks the order on every call (O(n)) and finds the segment by binary
// search when end times never decrease (O(log n)), by a scan otherwise.
func CurveValue(c *p2lrt.Curve, t float64) float32 {
	return curveValueIn(c, t, arith{}, curveDecreasing(c))
}

// curveValueIn is curveValue in the arithmetic a; in float32 arithmetic t must hold a
// float32 value (a reference clip clock). scan finds the segment by a
// scan from the start, as value_at does, for curves whose end times
// decrease somewhere (files may hold them; the binary search assumes
// they do not).
func curveValueIn(c *p2lrt.Curve, t float64, a arith, scan bool) float32 {
	n := len(c.Segments)
	if n == 0 || t <= float64(c.Start.T) {
		return c.Start.V
	}
	var i int
	if scan {
		for i < n && !(float64(c.Segments[i].End.T) >= t) {
			i++
		}
	} else {
		i = sort.Search(n, func(i int) bool { return float64(c.Segments[i].End.T) >= t })
	}
	if i == n {
		return c.Segments[n-1].End.V
	}
	p0 := c.Start
	if i > 0 {
		p0 = c.Segments[i-1].End
	}
	return float32(segmentValue(&c.Segments[i], p0, t, a))
}

// curveDecreasing reports whether some segment of c ends before the one before
// it (or before the start).
func curveDecreasing(c *p2lrt.Curve) bool {
	prev := c.Start.T
	for i := range c.Segments {
		if c.Segments[i].End.T < prev {
			return true
		}
		prev = c.Segments[i].End.T
	}
	return false
}

// segmentValue evaluates segment s, which starts at p0, at a time t with
// p0.T < t ≤ s.End.T, in the order of operations of clip.rs value_at.
func segmentValue(s *p2lrt.Segment, p0 p2lrt.Point, t float64, a arith) float64 {
	t0, t1 := float64(p0.T), float64(s.End.T)
	v0, v1 := float64(p0.V), float64(s.End.V)
	u := 1.0
	if span := a.r(t1 - t0); !(span <= 0) {
		u = a.r(a.r(t-t0) / span)
	}
	switch s.Kind {
	case p2lrt.SegmentStepped:
		if t >= t1 {
			return v1
		}
		return v0
	case p2lrt.SegmentInverseStepped:
		return v1
	case p2lrt.SegmentBezier:
		c1, c2 := float64(s.C1.V), float64(s.C2.V)
		if a.f32 {
			// clip.rs cubic: the Bernstein form, left to right.
			w := a.r(1 - u)
			b0 := a.r(a.r(a.r(w*w)*w) * v0)
			b1 := a.r(a.r(a.r(a.r(3*w)*w)*u) * c1)
			b2 := a.r(a.r(a.r(a.r(3*w)*u)*u) * c2)
			b3 := a.r(a.r(a.r(u*u)*u) * v1)
			return a.r(a.r(a.r(b0+b1)+b2) + b3)
		}
		// de Casteljau on the values with the time-linear parameter u, as
		// the Cubism framework's BezierEvaluate.
		p := lerp64(v0, c1, u)
		q := lerp64(c1, c2, u)
		r := lerp64(c2, v1, u)
		return lerp64(lerp64(p, q, u), lerp64(q, r, u), u)
	default: // SegmentLinear
		return a.r(v0 + a.r(a.r(v1-v0)*u))
	}
}

func lerp64(a, b, u float64) float64 { return a + (b-a)*u }

// curveValueCubism evaluates the curve at t as the Cubism framework's
// evaluateCurve (cubismmotion.ts), in float64: times holds the curve's
// key times as the motion3.json's decimals (times[0] the start, times[s+1]
// the end of segment s; see clipDecimals). The segment used is the first
// whose end is after t (strictly: at a key time the next segment applies,
// so a key before an inverse-stepped segment shows that segment's end
// value, and so does a time at or before the start of an inverse-stepped
// first segment); within it u = (t − t0)/(t1 − t0), raised to 0 before
// the start; stepped shows its start value, inverse stepped its end
// value. After the last key the last value holds, except in a looping
// clip (loopEnd > 0, its duration + 1/Fps) before loopEnd: the
// end-correction segment from the last key to (loopEnd, first value),
// linear after a linear or Bezier segment, the last value after a stepped
// one, the first after an inverse-stepped one (correctEndPoint). scan
// finds the segment by a scan from the start (end times that go back).
func curveValueCubism(c *p2lrt.Curve, t float64, times []float64, scan bool, loopEnd float64) float64 {
	n := len(c.Segments)
	var i int
	if scan {
		for i < n && !(times[i+1] > t) {
			i++
		}
	} else {
		i = sort.Search(n, func(i int) bool { return times[i+1] > t })
	}
	if i == n {
		last, first := float64(c.Start.V), float64(c.Start.V)
		kind := p2lrt.SegmentLinear
		if n > 0 {
			last, kind = float64(c.Segments[n-1].End.V), c.Segments[n-1].Kind
		}
		if !(loopEnd > 0 && t < loopEnd) {
			return last
		}
		switch kind {
		case p2lrt.SegmentStepped:
			return last
		case p2lrt.SegmentInverseStepped:
			return first
		}
		return lerp64(last, first, max((t-times[n])/(loopEnd-times[n]), 0))
	}
	s := &c.Segments[i]
	v0, v1 := float64(c.Start.V), float64(s.End.V)
	if i > 0 {
		v0 = float64(c.Segments[i-1].End.V)
	}
	switch s.Kind {
	case p2lrt.SegmentStepped:
		return v0
	case p2lrt.SegmentInverseStepped:
		return v1
	}
	u := max((t-times[i])/(times[i+1]-times[i]), 0)
	if s.Kind == p2lrt.SegmentBezier {
		c1, c2 := float64(s.C1.V), float64(s.C2.V)
		p, q, r := lerp64(v0, c1, u), lerp64(c1, c2, u), lerp64(c2, v1, u)
		return lerp64(lerp64(p, q, u), lerp64(q, r, u), u)
	}
	return lerp64(v0, v1, u)
}

// decimal32 returns the float64 of the shortest decimal that rounds to the
// float32 f: the number a JSON file held when it was read into f, if that
// number had at most 6 significant digits (0.4 for the float32
// 0.4000000059604645).
func decimal32(f float32) float64 {
	v, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if err != nil {
		return float64(f)
	}
	return v
}

// ease is the fades' easing (Cubism's GetEasingSine, the reference's
// ease): 0 before 0, 1 after 1, else 0.5 − 0.5·cos(πx); in float32
// arithmetic x·π with π rounded to float32, then cosf, as clip.rs and
// expression.rs ease.
func (a arith) ease(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return a.r(0.5 - a.r(0.5*a.cos(a.r(x*a.r(math.Pi)))))
}
