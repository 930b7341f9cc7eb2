package cubism

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file turns an unrestricted Bezier segment into restricted ones.
//
// Files without Meta.AreBeziersRestricted are evaluated by the framework
// with the curve parameter solved from time (CubismMotion.ts
// bezierEvaluateCardanoInterpretation, CubismMath.cardanoAlgorithmForBezier):
// u is the root of x(u) = t for the cubic through the four point times, and
// the value is the value cubic at u. p2l curves advance u linearly with
// time (the spec's restricted form). A segment whose time-linear
// evaluation already stays within the tolerance of the framework's is kept
// as it is; any other is split into restricted pieces, each the cubic in
// time through the framework's values at its ends and at a third and two
// thirds of it, halving a piece until the framework's curve is met within
// bezierTolerance of the target's range at bezierSamples points of it.

const (
	// bezierTolerance is the largest difference from the framework's curve
	// allowed, as a fraction of the range of the curve's target.
	bezierTolerance = 1e-5
	// bezierSamples is the number of points of a piece at which the
	// difference is measured (besides the four it passes through).
	bezierSamples = 32
	// maxBezierPieces bounds the pieces of one segment (a segment whose
	// slope is infinite at an end cannot meet the tolerance there with
	// float32 key times; it stops at this many).
	maxBezierPieces = 64
)

// cubicBezier evaluates the Bernstein cubic of c at u.
func cubicBezier(c [4]float64, u float64) float64 {
	v := 1 - u
	return v*v*v*c[0] + 3*v*v*u*c[1] + 3*v*u*u*c[2] + u*u*u*c[3]
}

// unrestricted is one unrestricted segment as the framework evaluates it.
type unrestricted struct {
	x, y [4]float64 // point times and values: start, control 1, control 2, end
	// time is the cubic x(u) − t whose root is u, prepared once: fitting a
	// segment evaluates it at hundreds of times.
	time cardanoCubic
}

func newUnrestricted(p0 p2lrt.Point, s p2lrt.Segment) unrestricted {
	b := unrestricted{
		x: [4]float64{float64(p0.T), float64(s.C1.T), float64(s.C2.T), float64(s.End.T)},
		y: [4]float64{float64(p0.V), float64(s.C1.V), float64(s.C2.V), float64(s.End.V)},
	}
	x := b.x
	b.time = newCardanoCubic(x[3]-3*x[2]+3*x[1]-x[0], 3*x[2]-6*x[1]+3*x[0], 3*x[1]-3*x[0])
	return b
}

// at is the framework's value at time t: u from Cardano's formula with the
// framework's choice among the roots, then the value cubic at u.
func (b *unrestricted) at(t float64) float64 {
	return cubicBezier(b.y, b.time.root(b.x[0]-t))
}

func clamp01(v float64) float64 {
	if v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// cardanoCubic is a·u³ + b·u² + c·u + d for a fixed a, b, c, with what
// does not depend on d computed once.
type cardanoCubic struct {
	a, b, c float64
	// With |a| ≥ cardanoEps: the depressed cubic's b/a, c/a, p/3, (p/3)³,
	// 27·q − 27·d/a, b/(3a); and, when p < 0 (the only case with three
	// real roots), √(−p/3)³ and 2·∛ of it.
	ba, ca, p3, p3cube, q27, ba3 float64
	r, t1                        float64
}

// cardanoEps is the framework's threshold below which a coefficient counts
// as 0 (CubismMath.cardanoAlgorithmForBezier).
const cardanoEps = 1e-5

func newCardanoCubic(a, b, c float64) cardanoCubic {
	k := cardanoCubic{a: a, b: b, c: c}
	if math.Abs(a) < cardanoEps {
		return k
	}
	// Each expression is the framework's, in its order, so that root gives
	// the same bits as computing everything for each d.
	k.ba, k.ca = b/a, c/a
	p := (3*k.ca - k.ba*k.ba) / 3
	k.p3 = p / 3
	k.p3cube = k.p3 * k.p3 * k.p3
	k.q27 = 2*k.ba*k.ba*k.ba - 9*k.ba*k.ca
	k.ba3 = k.ba / 3
	if k.p3 < 0 {
		mp3 := -k.p3
		k.r = math.Sqrt(mp3 * mp3 * mp3)
		k.t1 = 2 * math.Cbrt(k.r)
	}
	return k
}

// root is the root in [0, 1] of a·u³ + b·u² + c·u + d that the framework
// picks (CubismMath.cardanoAlgorithmForBezier): with |a| < 1e-5 the
// quadratic's root −(c + √(c² − 4bd))/(2b) (−d/c, −d when linear or
// constant); else by the sign of the discriminant, taking the first root
// within 0.51 of 0.5 when there are several; clamped to [0, 1].
func (k *cardanoCubic) root(d float64) float64 {
	a, b, c := k.a, k.b, k.c
	if math.Abs(a) < cardanoEps {
		switch {
		case math.Abs(b) >= cardanoEps:
			return clamp01(-(c + math.Sqrt(c*c-4*b*d)) / (2 * b))
		case math.Abs(c) >= cardanoEps:
			return clamp01(-d / c)
		}
		return clamp01(-d)
	}
	da := d / a
	q := (k.q27 + 27*da) / 27
	q2 := q / 2
	disc := q2*q2 + k.p3cube
	near := func(r float64) bool { return math.Abs(r-0.5) < 0.51 }
	switch {
	case disc < 0: // then p3 < 0: r and t1 are set
		phi := math.Acos(min(1, max(-1, -q/(2*k.r))))
		for i := 0.0; i < 2; i++ {
			if root := k.t1*math.Cos((phi+2*i*math.Pi)/3) - k.ba3; near(root) {
				return clamp01(root)
			}
		}
		return clamp01(k.t1*math.Cos((phi+4*math.Pi)/3) - k.ba3)
	case disc == 0:
		u1 := -math.Cbrt(q2)
		if root := 2*u1 - k.ba3; near(root) {
			return clamp01(root)
		}
		return clamp01(-u1 - k.ba3)
	}
	sd := math.Sqrt(disc)
	return clamp01(math.Cbrt(sd-q2) - math.Cbrt(sd+q2) - k.ba3)
}

// restrictedAt is a restricted piece from (t0, v0) evaluated at t exactly as
// p2l.CurveValue does (time-linear u, float64 arithmetic on the stored
// float32 points).
func restrictedAt(t0 float32, v0 float32, s p2lrt.Segment, t float64) float64 {
	u := (t - float64(t0)) / (float64(s.End.T) - float64(t0))
	return cubicBezier([4]float64{float64(v0), float64(s.C1.V), float64(s.C2.V), float64(s.End.V)}, u)
}

// pieceError is the largest difference between a restricted piece and the
// framework's curve over the piece, or the first one above stop.
func (b *unrestricted) pieceError(t0, v0 float32, s p2lrt.Segment, stop float64) float64 {
	worst := 0.0
	d := float64(s.End.T) - float64(t0)
	for k := 1; k <= bezierSamples; k++ {
		t := float64(t0) + d*float64(k)/(bezierSamples+1)
		if e := math.Abs(restrictedAt(t0, v0, s, t) - b.at(t)); e > worst {
			worst = e
			if worst > stop {
				break
			}
		}
	}
	return worst
}

// piece is the restricted cubic in time through the framework's values at
// t0, t0 + Δ/3, t0 + 2Δ/3 and t1; v0 and v1 are its end values.
func (b *unrestricted) piece(t0, t1 float32, v0, v1 float32) p2lrt.Segment {
	d := float64(t1) - float64(t0)
	va := b.at(float64(t0) + d/3)
	vb := b.at(float64(t0) + 2*d/3)
	// The Bernstein values of the cubic with p(0)=v0, p(⅓)=va, p(⅔)=vb,
	// p(1)=v1: 12c1 + 6c2 = 27va − 8v0 − v1 and 6c1 + 12c2 = 27vb − v0 − 8v1.
	A := 27*va - 8*float64(v0) - float64(v1)
	B := 27*vb - float64(v0) - 8*float64(v1)
	c1, c2 := (2*A-B)/18, (2*B-A)/18
	return p2lrt.Segment{
		Kind: p2lrt.SegmentBezier,
		C1:   p2lrt.Point{T: float32(float64(t0) + d/3), V: float32(c1)},
		C2:   p2lrt.Point{T: float32(float64(t0) + 2*d/3), V: float32(c2)},
		End:  p2lrt.Point{T: t1, V: v1},
	}
}

// appendFitted appends to segs the restricted pieces for the unrestricted
// Bezier s starting at p0; rng is the range of the curve's target.
//
// Pieces are made from the start, each nearly as long as the tolerance
// allows: tried as long as the rest of the segment, shortened while it
// misses by the factor the error's fourth-power law predicts (a cubic
// interpolant's error shrinks with the fourth power of its length), then
// lengthened by bisection between the longest length that fits and the
// shortest that does not, to 8 %.
func appendFitted(segs []p2lrt.Segment, p0 p2lrt.Point, s p2lrt.Segment, rng float64) []p2lrt.Segment {
	b := newUnrestricted(p0, s)
	// Aim below the bound: the difference is measured at bezierSamples
	// points, and between them it can be a little larger.
	tol := bezierTolerance * rng * 0.7
	if b.pieceError(p0.T, p0.V, s, tol) <= tol {
		return append(segs, s) // time-linear evaluation already agrees
	}
	t0, v0 := p0.T, p0.V
	end := s.End.T
	for n := 1; ; n++ {
		// try fits a piece to [t0, t1]: its error, or for stop < ∞ only
		// whether it exceeds stop.
		try := func(t1 float32, stop float64) (p2lrt.Segment, float64) {
			v1 := s.End.V
			if t1 < end {
				v1 = float32(b.at(float64(t1)))
			}
			seg := b.piece(t0, t1, v0, v1)
			return seg, b.pieceError(t0, v0, seg, stop)
		}
		shortest := math.Nextafter32(t0, end)
		seg, e := try(end, math.Inf(1))
		if e > tol && n < maxBezierPieces {
			hi, lo := end, shortest
			var fit p2lrt.Segment
			found := false
			h := float64(end) - float64(t0)
			for range 60 { // shrink until a length fits
				h *= min(0.95, max(0.05, 0.9*math.Pow(tol/e, 0.25)))
				t1 := max(float32(float64(t0)+h), shortest)
				sg, err := try(t1, math.Inf(1))
				if err <= tol || t1 == shortest {
					lo, fit, found = t1, sg, true
					break
				}
				hi, e = t1, err
			}
			if !found {
				lo = shortest
				fit, _ = try(shortest, tol)
			}
			for range 20 { // lengthen: lo fits, hi does not
				if float64(hi)-float64(t0) <= 1.08*(float64(lo)-float64(t0)) {
					break
				}
				mid := float32((float64(lo) + float64(hi)) / 2)
				if mid <= lo || mid >= hi {
					break
				}
				if sg, err := try(mid, tol); err <= tol {
					lo, fit = mid, sg
				} else {
					hi = mid
				}
			}
			seg = fit
		}
		segs = append(segs, seg)
		if seg.End.T >= end {
			return segs
		}
		t0, v0 = seg.End.T, seg.End.V
	}
}

// timeLinear reports whether a Bezier segment's control times sit at a third
// and two thirds of it, where the framework's evaluation and the
// time-linear one agree; appendFitted measures the general case.
func timeLinear(p0 p2lrt.Point, s p2lrt.Segment) bool {
	d := float64(s.End.T) - float64(p0.T)
	if d <= 0 {
		return true
	}
	return float64(s.C1.T)-float64(p0.T) == d/3 && float64(s.C2.T)-float64(p0.T) == 2*d/3
}
