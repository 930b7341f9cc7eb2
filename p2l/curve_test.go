package p2l

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestCurveSegments(t *testing.T) {
	c := Curve{
		Start: Point{0, 0},
		Segments: []Segment{
			{Kind: SegmentLinear, End: Point{1, 10}},
			// Bezier from (1,10) to (2,0): restricted control times 4/3, 5/3.
			{Kind: SegmentBezier, C1: Point{4.0 / 3, 20}, C2: Point{5.0 / 3, -10}, End: Point{2, 0}},
			{Kind: SegmentStepped, End: Point{3, 5}},
			{Kind: SegmentInverseStepped, End: Point{4, 7}},
		},
	}
	cases := []struct{ t, want float64 }{
		{-1, 0}, // before the start: first segment, parameter clamped at 0
		{0, 0},  // start point
		{0.25, 2.5},
		{0.5, 5},
		{1, 10}, // exactly at an end time the next segment (Bezier at u=0) applies
		// Bezier at u = 0.5: (v0 + 3c1 + 3c2 + v3)/8 = (10 + 60 − 30 + 0)/8.
		{1.5, 5},
		// u = 0.25: Bernstein weights 27/64, 27/64, 9/64, 1/64.
		{1.25, 10*27.0/64 + 20*27.0/64 + -10*9.0/64 + 0},
		{2, 0},   // stepped segment starts: holds its start value (0)
		{2.9, 0}, // still the start value
		{3, 7},   // inverse stepped: the end value for the whole segment
		{3.5, 7},
		{4, 7}, // after the last point the last value holds
		{100, 7},
	}
	for _, cs := range cases {
		if got := c.Value(cs.t); !near(float64(got), cs.want, 1e-5) {
			t.Errorf("Value(%v) = %v, want %v", cs.t, got, cs.want)
		}
	}
	empty := Curve{Start: Point{0, 3}}
	if got := empty.Value(5); got != 3 {
		t.Errorf("curve without segments = %v, want its start value 3", got)
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
