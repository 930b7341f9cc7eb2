package p2l

import "math"

// This file evaluates motion curves the way Cubism's CubismMotion does for
// restricted Bezier files (motion3 AreBeziersRestricted = true): the spec
// keeps Bezier time control points inside their segment and advances the
// curve parameter linearly in time instead of solving the cubic for t.

// Value returns the curve's value at time t (seconds of clip time).
//
// The segment used is the first one whose end time is greater than t, so at
// exactly a segment's end time the next segment applies; before the start
// point the first segment applies with its parameter clamped at 0; after the
// last point the last value holds. Arithmetic is float64, rounded once.
func (c *Curve) Value(t float64) float32 {
	if len(c.Segments) == 0 {
		return c.Start.V
	}
	tt := t
	p0 := c.Start
	for i := range c.Segments {
		s := &c.Segments[i]
		if float64(s.End.T) > tt {
			return float32(s.eval(p0, tt))
		}
		p0 = s.End
	}
	return p0.V
}

// eval evaluates segment s, which starts at p0, at time t.
func (s *Segment) eval(p0 Point, t float64) float64 {
	switch s.Kind {
	case SegmentStepped:
		return float64(p0.V)
	case SegmentInverseStepped:
		return float64(s.End.V)
	case SegmentBezier:
		u := math.Max(0, (t-float64(p0.T))/(float64(s.End.T)-float64(p0.T)))
		// de Casteljau on the values with the time-linear parameter u.
		a := lerp64(float64(p0.V), float64(s.C1.V), u)
		b := lerp64(float64(s.C1.V), float64(s.C2.V), u)
		c := lerp64(float64(s.C2.V), float64(s.End.V), u)
		return lerp64(lerp64(a, b, u), lerp64(b, c, u), u)
	default: // SegmentLinear
		u := math.Max(0, (t-float64(p0.T))/(float64(s.End.T)-float64(p0.T)))
		return float64(p0.V) + (float64(s.End.V)-float64(p0.V))*u
	}
}

func lerp64(a, b, u float64) float64 { return a + (b-a)*u }

// easeSine is Cubism's GetEasingSine: 0 before 0, 1 after 1, else
// 0.5 − 0.5·cos(πx).
func easeSine(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return 0.5 - 0.5*math.Cos(x*math.Pi)
}

// fade is the fade state of one queued clip or expression, as Cubism's
// CubismMotionQueueEntry: the entry starts on the first update after it was
// queued (its fade-in weight is 0 then), and a fade-out requested between
// updates takes effect after the entry's next update.
type fade struct {
	fadeIn, fadeOut float64 // seconds

	started     bool
	start       float64 // player time of local time 0
	fadeInStart float64
	end         float64 // fade-out end time, −1 while none
	pendingOut  bool    // fade-out requested, starts after the next update
	pendingSecs float64
}

func newFade(fadeIn, fadeOut float32) fade {
	return fade{fadeIn: float64(fadeIn), fadeOut: float64(fadeOut), end: -1}
}

// begin starts the entry at player time now if it has not started.
func (f *fade) begin(now float64) {
	if !f.started {
		f.started = true
		f.start = now
		f.fadeInStart = now
	}
}

// done reports whether the fade-out ended before now.
func (f *fade) done(now float64) bool { return f.end >= 0 && f.end < now }

// inFactor is the eased fade-in factor with fade-in time secs (Cubism's
// "≤ 0 means none").
func (f *fade) inFactor(now, secs float64) float64 {
	if secs <= 0 {
		return 1
	}
	return easeSine((now - f.fadeInStart) / secs)
}

// outFactor is the eased fade-out factor with fade-out time secs.
func (f *fade) outFactor(now, secs float64) float64 {
	if secs <= 0 || f.end < 0 {
		return 1
	}
	return easeSine((f.end - now) / secs)
}

// weight is fade-in × fade-out with the entry's own times.
func (f *fade) weight(now float64) float64 {
	return f.inFactor(now, f.fadeIn) * f.outFactor(now, f.fadeOut)
}

// requestOut asks for a fade-out of secs seconds; it starts after the
// entry's next update (Cubism's SetFadeout then StartFadeout).
func (f *fade) requestOut(secs float64) {
	f.pendingOut = true
	f.pendingSecs = secs
}

// afterUpdate starts a requested fade-out at player time now. A later
// request can shorten the fade-out but never extend it, so every replaced
// entry fades out completely.
func (f *fade) afterUpdate(now float64) {
	if !f.pendingOut {
		return
	}
	f.pendingOut = false
	e := now + f.pendingSecs
	if f.end < 0 || e < f.end {
		f.end = e
	}
}

// fadingOut reports whether a fade-out was requested or is running.
func (f *fade) fadingOut() bool { return f.pendingOut || f.end >= 0 }
