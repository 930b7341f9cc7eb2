package render

import (
	"fmt"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file checks Composite against an independent float64 implementation
// written from the published formulas, not from composite.go:
//   - W3C Compositing and Blending Level 1, §10 (separable and
//     non-separable blend modes) and §9.1 (simple alpha compositing);
//   - KHR_blend_equation_advanced / VK_EXT_blend_operation_advanced
//     (overlap weights: uncorrelated, conjoint, disjoint; PLUS, PLUS_CLAMPED,
//     LINEARBURN, LINEARLIGHT from NV_blend_equation_advanced);
//   - Cubism's fixed-function glBlendFuncSeparate factors for Normal,
//     Add(Compatible) and Mult(Compatible), and its Atop/Out weights.

type rgb64 [3]float64

func w3cLum(c rgb64) float64 { return 0.3*c[0] + 0.59*c[1] + 0.11*c[2] }

func w3cClip(c rgb64) rgb64 {
	l := w3cLum(c)
	n := math.Min(c[0], math.Min(c[1], c[2]))
	x := math.Max(c[0], math.Max(c[1], c[2]))
	if n < 0 {
		for i := range c {
			c[i] = l + (c[i]-l)*l/(l-n)
		}
	}
	if x > 1 {
		for i := range c {
			c[i] = l + (c[i]-l)*(1-l)/(x-l)
		}
	}
	return c
}

func w3cSetLum(c rgb64, l float64) rgb64 {
	d := l - w3cLum(c)
	return w3cClip(rgb64{c[0] + d, c[1] + d, c[2] + d})
}

func w3cSat(c rgb64) float64 {
	return math.Max(c[0], math.Max(c[1], c[2])) - math.Min(c[0], math.Min(c[1], c[2]))
}

// w3cSetSat follows the W3C pseudo-code: sort the channels into min, mid,
// max (any order among equal values gives the same result).
func w3cSetSat(c rgb64, s float64) rgb64 {
	idx := [3]int{0, 1, 2}
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if c[idx[j]] < c[idx[i]] {
				idx[i], idx[j] = idx[j], idx[i]
			}
		}
	}
	mn, md, mx := idx[0], idx[1], idx[2]
	var o rgb64
	if c[mx] > c[mn] {
		o[md] = (c[md] - c[mn]) * s / (c[mx] - c[mn])
		o[mx] = s
	}
	return o
}

func w3cBlend(mode p2lrt.BlendMode, cs, cb rgb64) rgb64 {
	switch mode {
	case p2lrt.BlendHue:
		return w3cSetLum(w3cSetSat(cs, w3cSat(cb)), w3cLum(cb))
	case p2lrt.BlendColor:
		return w3cSetLum(cs, w3cLum(cb))
	}
	var o rgb64
	for i := range o {
		s, b := cs[i], cb[i]
		multiply := func(b, s float64) float64 { return b * s }
		screen := func(b, s float64) float64 { return b + s - b*s }
		hard := func(b, s float64) float64 {
			if s <= 0.5 {
				return multiply(b, 2*s)
			}
			return screen(b, 2*s-1)
		}
		switch mode {
		case p2lrt.BlendNormal:
			o[i] = s
		case p2lrt.BlendMultiply:
			o[i] = multiply(b, s)
		case p2lrt.BlendScreen:
			o[i] = screen(b, s)
		case p2lrt.BlendOverlay:
			o[i] = hard(s, b)
		case p2lrt.BlendDarken:
			o[i] = math.Min(b, s)
		case p2lrt.BlendLighten:
			o[i] = math.Max(b, s)
		case p2lrt.BlendColorDodge:
			switch {
			case b == 0:
				o[i] = 0
			case s == 1:
				o[i] = 1
			default:
				o[i] = math.Min(1, b/(1-s))
			}
		case p2lrt.BlendColorBurn:
			switch {
			case b == 1:
				o[i] = 1
			case s == 0:
				o[i] = 0
			default:
				o[i] = 1 - math.Min(1, (1-b)/s)
			}
		case p2lrt.BlendHardLight:
			o[i] = hard(b, s)
		case p2lrt.BlendSoftLight:
			if s <= 0.5 {
				o[i] = b - (1-2*s)*b*(1-b)
			} else {
				var d float64
				if b <= 0.25 {
					d = ((16*b-12)*b + 4) * b
				} else {
					d = math.Sqrt(b)
				}
				o[i] = b + (2*s-1)*(d-b)
			}
		// Modes outside W3C, from NV_blend_equation_advanced:
		case p2lrt.BlendAdd: // PLUS_CLAMPED_NV
			o[i] = math.Min(1, s+b)
		case p2lrt.BlendAddGlow: // PLUS_NV
			o[i] = s + b
		case p2lrt.BlendLinearBurn: // LINEARBURN_NV
			o[i] = math.Max(0, s+b-1)
		case p2lrt.BlendLinearLight: // LINEARLIGHT_NV: clamp(Cd + 2Cs − 1)
			o[i] = math.Max(0, math.Min(1, b+2*s-1))
		default:
			panic(fmt.Sprint("no W3C formula for ", mode))
		}
	}
	return o
}

func khrWeights(mode p2lrt.AlphaMode, as, ad float64) (float64, float64, float64) {
	switch mode {
	case p2lrt.AlphaOver: // UNCORRELATED
		return as * ad, as * (1 - ad), ad * (1 - as)
	case p2lrt.AlphaAtop: // Cubism ATOP (= SRC_ATOP_NV: X=1, Y=0, Z=1)
		return as * ad, 0, ad * (1 - as)
	case p2lrt.AlphaOut: // Cubism OUT: destination outside the source
		return 0, 0, ad * (1 - as)
	case p2lrt.AlphaConjointOver:
		return math.Min(as, ad), math.Max(as-ad, 0), math.Max(ad-as, 0)
	case p2lrt.AlphaDisjointOver:
		return math.Max(as+ad-1, 0), math.Min(as, 1-ad), math.Min(ad, 1-as)
	}
	panic("alpha mode")
}

func clamp64(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// reference composites a straight source (cs, as) onto a straight
// destination (cd, ad) in float64 and returns premultiplied rgba.
func reference(blend p2lrt.BlendMode, alpha p2lrt.AlphaMode, cs rgb64, as float64, cd rgb64, ad float64) [4]float64 {
	var o [4]float64
	switch {
	case blend == p2lrt.BlendNormal && alpha == p2lrt.AlphaOver:
		// glBlendFuncSeparate(ONE, ONE_MINUS_SRC_ALPHA, ONE, ONE_MINUS_SRC_ALPHA)
		for i := 0; i < 3; i++ {
			o[i] = cs[i]*as + cd[i]*ad*(1-as)
		}
		o[3] = as + ad*(1-as)
	case blend == p2lrt.BlendAddCompatible:
		// (ONE, ONE, ZERO, ONE)
		for i := 0; i < 3; i++ {
			o[i] = cs[i]*as + cd[i]*ad
		}
		o[3] = ad
	case blend == p2lrt.BlendMultiplyCompatible:
		// (DST_COLOR, ONE_MINUS_SRC_ALPHA, ZERO, ONE)
		for i := 0; i < 3; i++ {
			o[i] = cs[i]*as*cd[i]*ad + cd[i]*ad*(1-as)
		}
		o[3] = ad
	default:
		b := w3cBlend(blend, cs, cd)
		p0, p1, p2 := khrWeights(alpha, as, ad)
		for i := 0; i < 3; i++ {
			o[i] = b[i]*p0 + cs[i]*p1 + cd[i]*p2
		}
		o[3] = p0 + p1 + p2
	}
	for i := range o {
		o[i] = clamp64(o[i])
	}
	return o
}

func premul(c rgb64, a float64) Premul {
	return Premul{float32(c[0] * a), float32(c[1] * a), float32(c[2] * a), float32(a)}
}

// compositeCases is the table of straight (colour, alpha) pairs used for
// both sources and backdrops: primaries, greys at the branch points of the
// piecewise modes (0, 0.25, 0.5, 1) and unremarkable values.
var compositeCases = []struct {
	c rgb64
	a float64
}{
	{rgb64{0, 0, 0}, 1},
	{rgb64{1, 1, 1}, 1},
	{rgb64{0.5, 0.5, 0.5}, 1},
	{rgb64{0.25, 0.25, 0.25}, 0.75},
	{rgb64{1, 0, 0}, 1},
	{rgb64{0.2, 0.6, 0.9}, 0.5},
	{rgb64{0.9, 0.3, 0.1}, 0.8},
	{rgb64{0.7, 0.7, 0.2}, 0.3},
	{rgb64{0.1, 0.8, 0.4}, 1},
	{rgb64{0.6, 0.2, 0.6}, 0.05},
	{rgb64{0.33, 0.5, 0.0}, 0},
	{rgb64{0, 0.999, 1}, 0.6},
}

func TestCompositeMatchesPublishedFormulas(t *testing.T) {
	for blend := p2lrt.BlendMode(0); blend < p2lrt.NumBlendModes; blend++ {
		for alpha := p2lrt.AlphaMode(0); alpha < p2lrt.NumAlphaModes; alpha++ {
			worst := 0.0
			for _, s := range compositeCases {
				for _, d := range compositeCases {
					want := reference(blend, alpha, s.c, s.a, d.c, d.a)
					got := Composite(premul(s.c, s.a), premul(d.c, d.a), blend, alpha)
					for i, g := range [4]float32{got.R, got.G, got.B, got.A} {
						if diff := math.Abs(float64(g) - want[i]); diff > worst {
							worst = diff
							if diff > 1.0/255 {
								t.Errorf("%v+%v src %v/%g dst %v/%g: channel %d = %g, want %g",
									blend, alpha, s.c, s.a, d.c, d.a, i, g, want[i])
							}
						}
					}
				}
			}
			if worst > 1.0/255 {
				t.Logf("%v+%v: max diff %g", blend, alpha, worst)
			}
		}
	}
}

// Worked by hand: Multiply+Over of straight (1, 0.5, 0) at alpha 0.5 over
// opaque (0.5, 0.5, 0.5): p0 = 0.5, p1 = 0, p2 = 0.5;
// rgb = (0.5, 0.25, 0)·0.5 + (0.5, 0.5, 0.5)·0.5 = (0.5, 0.375, 0.25).
func TestCompositeWorkedExample(t *testing.T) {
	got := Composite(Premul{0.5, 0.25, 0, 0.5}, Premul{0.5, 0.5, 0.5, 1}, p2lrt.BlendMultiply, p2lrt.AlphaOver)
	want := Premul{0.5, 0.375, 0.25, 1}
	if got != want {
		t.Errorf("got %v, want %v", got, want)
	}
	// Out keeps the destination outside the source: dst·(1 − as).
	got = Composite(Premul{0.5, 0.25, 0, 0.5}, Premul{0.5, 0.5, 0.5, 1}, p2lrt.BlendNormal, p2lrt.AlphaOut)
	if want := (Premul{0.25, 0.25, 0.25, 0.5}); got != want {
		t.Errorf("Out: got %v, want %v", got, want)
	}
}

// A transparent source leaves the destination as it is in every mode: group
// layers rely on it outside what they drew.
func TestCompositeTransparentSourceKeepsDestination(t *testing.T) {
	for blend := p2lrt.BlendMode(0); blend < p2lrt.NumBlendModes; blend++ {
		for alpha := p2lrt.AlphaMode(0); alpha < p2lrt.NumAlphaModes; alpha++ {
			for _, d := range compositeCases {
				dst := premul(d.c, d.a)
				got := Composite(Premul{}, dst, blend, alpha)
				if math.Abs(float64(got.R-dst.R))+math.Abs(float64(got.G-dst.G))+math.Abs(float64(got.B-dst.B))+math.Abs(float64(got.A-dst.A)) > 1e-6 {
					t.Fatalf("%v+%v: transparent source over %v gave %v", blend, alpha, dst, got)
				}
			}
		}
	}
}

func TestShade(t *testing.T) {
	// Straight texel (0.8, 0.4, 0.2) at alpha 0.5, multiply (0.5, 1, 1),
	// screen (0, 0, 0.5), opacity·coverage 0.5. Straight: multiply gives
	// (0.4, 0.4, 0.2); screen c + s − c·s gives (0.4, 0.4, 0.6); then
	// premultiplied by 0.5 and scaled by 0.5: (0.1, 0.1, 0.15, 0.25).
	got := Shade(Premul{0.4, 0.2, 0.1, 0.5}, p2lrt.Color{0.5, 1, 1}, p2lrt.Color{0, 0, 0.5}, 0.5)
	want := Premul{0.1, 0.1, 0.15, 0.25}
	if d := math.Abs(float64(got.R-want.R)) + math.Abs(float64(got.G-want.G)) + math.Abs(float64(got.B-want.B)) + math.Abs(float64(got.A-want.A)); d > 1e-6 {
		t.Errorf("Shade = %v, want %v", got, want)
	}
}

// TestColorDodgeSourceAboveOne: a source a rounding step above 1 dodges to
// 1, as a source of exactly 1 does (no division by a negative).
func TestColorDodgeSourceAboveOne(t *testing.T) {
	s := math.Nextafter32(1, 2)
	got := Blend(p2lrt.BlendColorDodge, [3]float32{s, 1, 0.5}, [3]float32{0.25, 0.25, 0.25})
	want := [3]float32{1, 1, 0.5} // 0.25/(1-0.5) = 0.5
	if got != want {
		t.Errorf("ColorDodge(%v) = %v, want %v", s, got, want)
	}
}
