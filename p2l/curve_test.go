package p2l

import (
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestCurveSegments: the values follow the reference's rule (PSD2Live
// runtime/src/clip.rs value_at): at or before the start the start value;
// else the first segment whose end is at least t (inclusive end), so at a
// key time the value is that key's.
func TestCurveSegments(t *testing.T) {
	c := p2lrt.Curve{
		Start: p2lrt.Point{T: 0, V: 0},
		Segments: []p2lrt.Segment{
			{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 10}},
			// Bezier from (1,10) to (2,0): restricted control times 4/3, 5/3.
			{Kind: p2lrt.SegmentBezier, C1: p2lrt.Point{T: 4.0 / 3, V: 20}, C2: p2lrt.Point{T: 5.0 / 3, V: -10}, End: p2lrt.Point{T: 2, V: 0}},
			{Kind: p2lrt.SegmentStepped, End: p2lrt.Point{T: 3, V: 5}},
			{Kind: p2lrt.SegmentInverseStepped, End: p2lrt.Point{T: 4, V: 7}},
		},
	}
	cases := []struct{ t, want float64 }{
		{-1, 0}, // before the start: the start value
		{0, 0},  // start point
		{0.25, 2.5},
		{0.5, 5},
		{1, 10}, // a key time: the segment ending there (linear at u = 1)
		// Bezier at u = 0.5: (v0 + 3c1 + 3c2 + v3)/8 = (10 + 60 − 30 + 0)/8.
		{1.5, 5},
		// u = 0.25: Bernstein weights 27/64, 27/64, 9/64, 1/64.
		{1.25, 10*27.0/64 + 20*27.0/64 + -10*9.0/64 + 0},
		{2, 0},   // Bezier at u = 1
		{2.5, 0}, // stepped: its start value inside the segment
		{2.9, 0},
		// At its end time a stepped segment gives its end value; Cubism takes
		// the next segment there, inverse stepped, and gives 7.
		{3, 5},
		{3.0001, 7}, // inverse stepped: the end value for the whole segment
		{3.5, 7},
		{4, 7}, // after the last point the last value holds
		{100, 7},
		{math.NaN(), 7},
	}
	for _, cs := range cases {
		if got := CurveValue(&c, cs.t); !near(float64(got), cs.want, 1e-5) {
			t.Errorf("Value(%v) = %v, want %v", cs.t, got, cs.want)
		}
	}
	empty := p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 3}}
	if got := CurveValue(&empty, 5); got != 3 {
		t.Errorf("curve without segments = %v, want its start value 3", got)
	}
	// An inverse-stepped first segment: its end value after the start, the
	// start value at and before it (Cubism gives the end value there too).
	inv := p2lrt.Curve{Start: p2lrt.Point{T: 1, V: 2}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentInverseStepped, End: p2lrt.Point{T: 2, V: 9}}}}
	for _, cs := range []struct{ t, want float64 }{{0, 2}, {1, 2}, {1.5, 9}, {2, 9}, {3, 9}} {
		if got := CurveValue(&inv, cs.t); float64(got) != cs.want {
			t.Errorf("inverse first: Value(%v) = %v, want %v", cs.t, got, cs.want)
		}
	}
}

// TestCurveSearch: the binary search finds the same segment as a scan, on
// a long curve with repeated key times (zero-length segments).
func TestCurveSearch(t *testing.T) {
	var c p2lrt.Curve
	tm := float32(0)
	for i := range 1000 {
		if i%7 != 3 {
			tm += 0.01
		}
		c.Segments = append(c.Segments, p2lrt.Segment{Kind: p2lrt.SegmentKind(i % 4), End: p2lrt.Point{T: tm, V: float32(i % 13)},
			C1: p2lrt.Point{T: tm, V: 3}, C2: p2lrt.Point{T: tm, V: -3}})
	}
	scan := func(t float64) float32 {
		if t <= float64(c.Start.T) {
			return c.Start.V
		}
		p0 := c.Start
		for i := range c.Segments {
			if t <= float64(c.Segments[i].End.T) {
				return float32(segmentValue(&c.Segments[i], p0, t, arith{}))
			}
			p0 = c.Segments[i].End
		}
		return p0.V
	}
	for k := -10; k <= 10000; k++ {
		x := float64(k) * 0.001
		if got, want := CurveValue(&c, x), scan(x); got != want {
			t.Fatalf("Value(%v) = %v, a scan gives %v", x, got, want)
		}
	}
}

// TestCurveValueDecreasing: on a curve whose end times go back (2, then 1,
// then 3), Value takes the first segment ending at or after t, as the
// players' scan does, not the one a binary search would land on. At
// t = 1.5 that is the first, linear from (0, 0) to (2, 10): 7.5 (a binary
// search probes segment 1, ending at 1 < 1.5, and goes right to segment 2,
// which would give 20 + 10·(1.5−1)/(3−1) = 22.5). At 2.5 the scan, too,
// reaches segment 2, from (1, 20): 20 + 10·(2.5−1)/2 = 27.5.
func TestCurveValueDecreasing(t *testing.T) {
	c := p2lrt.Curve{Segments: []p2lrt.Segment{
		{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 2, V: 10}},
		{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 20}},
		{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 3, V: 30}},
	}}
	for _, cs := range []struct{ t, want float64 }{{1.5, 7.5}, {2, 10}, {2.5, 27.5}, {4, 30}} {
		if got := CurveValue(&c, cs.t); float64(got) != cs.want {
			t.Errorf("Value(%v) = %v, want %v", cs.t, got, cs.want)
		}
	}
}

func TestEaseSine(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{-1, 0}, {0, 0}, {0.25, 0.5 - 0.5*math.Sqrt2/2}, {0.5, 0.5}, {1, 1}, {2, 1},
	} {
		if got := easeSine(c.x); !near(got, c.want, 1e-12) {
			t.Errorf("easeSine(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
