package render

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Premul is a premultiplied RGBA colour with float32 channels, normally in
// [0, 1]. After an AddCompatible blend the colour channels may exceed alpha
// (Cubism's additive blending keeps the destination alpha), which is why the
// type does not enforce rgb ≤ a.
type Premul struct {
	R, G, B, A float32 // colour channels already multiplied by A
}

// Shade computes a fragment's premultiplied colour from a premultiplied
// texel, per the drawing rules: multiply the colour by the multiply colour,
// then screen it as c + s·a − c·s (the premultiplied form of Cubism's
// c + s − c·s on straight colours), then scale everything by opacity × mask
// coverage (scale).
func Shade(t Premul, multiply, screen p2lrt.Color, scale float32) Premul {
	r := t.R * multiply[0]
	g := t.G * multiply[1]
	b := t.B * multiply[2]
	r = r + screen[0]*t.A - r*screen[0]
	g = g + screen[1]*t.A - g*screen[1]
	b = b + screen[2]*t.A - b*screen[2]
	return Premul{r * scale, g * scale, b * scale, t.A * scale}
}

// FixedFunction reports whether a combination's formula is a
// fixed-function blend: linear in the destination with factors a GPU blend
// unit has, so that a GPU draws it without reading the destination
// (ebitenp2l does; its table is checked against Composite). These are
// Cubism's legacy three (Normal with Over, the two Compatible modes with
// any alpha mode) and, by the formulas of Composite, every mode with Out,
// Normal, Multiply and AddGlow with Atop, and AddGlow and Screen with Over.
// Such meshes blend triangle after triangle, as the reference runtime
// blends every mode; every other combination reads the destination as it
// was before the mesh (Cubism's offscreen copy), so that a mesh
// overlapping itself lets its last triangle win.
func FixedFunction(blend p2lrt.BlendMode, alpha p2lrt.AlphaMode) bool {
	switch {
	case blend == p2lrt.BlendAddCompatible || blend == p2lrt.BlendMultiplyCompatible || alpha == p2lrt.AlphaOut:
		return true
	case alpha == p2lrt.AlphaOver:
		return blend == p2lrt.BlendNormal || blend == p2lrt.BlendAddGlow || blend == p2lrt.BlendScreen
	case alpha == p2lrt.AlphaAtop:
		return blend == p2lrt.BlendNormal || blend == p2lrt.BlendMultiply || blend == p2lrt.BlendAddGlow
	}
	return false
}

// straightEpsilon is Cubism's threshold below which a premultiplied colour
// un-premultiplies to black (FragShaderSrcColorBlend.frag,
// ConvertPremultipliedToStraight).
const straightEpsilon = 0.00001

// Composite composites the premultiplied source fragment src onto the
// premultiplied destination dst with the given colour blend and alpha
// modes, and returns the new destination, clamped to [0, 1] per channel as
// an 8-bit render target clamps it. This is the per-pixel rule of every
// renderer of the project; docs/RENDERING.md lists the formulas and their
// sources.
//
//   - Normal+Over: dst' = src + dst·(1 − as)            (Cubism "Normal")
//   - AddCompatible, any alpha: rgb' = src + dst, a' = ad  ("Add")
//   - MultiplyCompatible, any alpha: rgb' = src·dst + dst·(1 − as), a' = ad
//   - otherwise, with straight Cs = src/as and Cd = dst/ad:
//     rgb' = B(Cs, Cd)·p0 + Cs·p1 + Cd·p2, a' = p0 + p1 + p2,
//     B the W3C (or Cubism) blend function and p0, p1, p2 the
//     KHR_blend_equation_advanced overlap weights of the alpha mode.
//
// A blend or alpha mode out of range is treated as Normal or Over.
func Composite(src, dst Premul, blend p2lrt.BlendMode, alpha p2lrt.AlphaMode) Premul {
	if blend >= p2lrt.NumBlendModes {
		blend = p2lrt.BlendNormal
	}
	if alpha >= p2lrt.NumAlphaModes {
		alpha = p2lrt.AlphaOver
	}
	var o Premul
	switch {
	case blend == p2lrt.BlendNormal && alpha == p2lrt.AlphaOver:
		k := 1 - src.A
		o = Premul{src.R + dst.R*k, src.G + dst.G*k, src.B + dst.B*k, src.A + dst.A*k}
	case blend == p2lrt.BlendAddCompatible:
		o = Premul{src.R + dst.R, src.G + dst.G, src.B + dst.B, dst.A}
	case blend == p2lrt.BlendMultiplyCompatible:
		k := 1 - src.A
		o = Premul{src.R*dst.R + dst.R*k, src.G*dst.G + dst.G*k, src.B*dst.B + dst.B*k, dst.A}
	case FixedFunction(blend, alpha):
		o = fixedComposite(src, dst, blend, alpha)
	default:
		as, ad := src.A, dst.A
		var cs, cd [3]float32
		if as >= straightEpsilon {
			cs = [3]float32{src.R / as, src.G / as, src.B / as}
		}
		if ad >= straightEpsilon {
			cd = [3]float32{dst.R / ad, dst.G / ad, dst.B / ad}
		}
		p0, p1, p2 := Overlap(alpha, as, ad)
		var b [3]float32
		if p0 != 0 {
			b = Blend(blend, cs, cd)
		}
		o = Premul{
			b[0]*p0 + cs[0]*p1 + cd[0]*p2,
			b[1]*p0 + cs[1]*p1 + cd[1]*p2,
			b[2]*p0 + cs[2]*p1 + cd[2]*p2,
			p0 + p1 + p2,
		}
	}
	return Premul{clamp01(o.R), clamp01(o.G), clamp01(o.B), clamp01(o.A)}
}

// fixedComposite is Composite for the FixedFunction combinations beyond
// Cubism's legacy three, in the premultiplied form a GPU blend unit
// computes (each is the general formula below, expanded: see
// FixedFunction). It differs from the general formula only over a
// destination with colour but zero alpha (left by AddCompatible over
// transparency), whose colour it keeps, as Normal with Over does, where
// the general formula reads black.
func fixedComposite(src, dst Premul, blend p2lrt.BlendMode, alpha p2lrt.AlphaMode) Premul {
	s := [3]float32{src.R, src.G, src.B}
	d := [3]float32{dst.R, dst.G, dst.B}
	as, ad := src.A, dst.A
	var o [3]float32
	a := ad
	for i := range 3 {
		switch {
		case alpha == p2lrt.AlphaOut: // D·(1 − as)
			o[i] = d[i] * (1 - as)
		case alpha == p2lrt.AlphaAtop && blend == p2lrt.BlendNormal: // S·ad + D·(1 − as)
			o[i] = s[i]*ad + d[i]*(1-as)
		case alpha == p2lrt.AlphaAtop && blend == p2lrt.BlendMultiply: // S·D + D·(1 − as)
			o[i] = s[i]*d[i] + d[i]*(1-as)
		case alpha == p2lrt.AlphaAtop && blend == p2lrt.BlendAddGlow: // S·ad + D
			o[i] = s[i]*ad + d[i]
		case blend == p2lrt.BlendAddGlow: // Over: S + D
			o[i] = s[i] + d[i]
		default: // Screen with Over: S + D − S·D
			o[i] = s[i] + d[i] - s[i]*d[i]
		}
	}
	switch alpha {
	case p2lrt.AlphaOut:
		a = ad * (1 - as)
	case p2lrt.AlphaOver:
		a = as + ad*(1-as)
	}
	return Premul{o[0], o[1], o[2], a}
}

func clamp01(v float32) float32 {
	if v > 0 {
		if v < 1 {
			return v
		}
		return 1
	}
	return 0 // also NaN
}

// Overlap returns the overlap weights p0 (both), p1 (source only) and p2
// (destination only) of an alpha mode, for source alpha as and destination
// alpha ad. They are the weights of KHR_blend_equation_advanced (Over:
// uncorrelated) and of its NV/Vulkan extensions (conjoint, disjoint), with
// Cubism's Atop and Out. Cubism's Out keeps the destination outside the
// source (Porter-Duff destination-out), not the source outside the
// destination.
func Overlap(alpha p2lrt.AlphaMode, as, ad float32) (p0, p1, p2 float32) {
	switch alpha {
	case p2lrt.AlphaAtop:
		return as * ad, 0, ad * (1 - as)
	case p2lrt.AlphaOut:
		return 0, 0, ad * (1 - as)
	case p2lrt.AlphaConjointOver:
		return min(as, ad), max(as-ad, 0), max(ad-as, 0)
	case p2lrt.AlphaDisjointOver:
		return max(as+ad-1, 0), min(as, 1-ad), min(ad, 1-as)
	default: // Over
		return as * ad, as * (1 - ad), ad * (1 - as)
	}
}

// Blend returns the blend function B(Cs, Cd) of a colour blend mode on
// straight colours. The separable modes are applied per channel; Hue and
// Color are the W3C non-separable modes with luminosity weights 0.30, 0.59,
// 0.11. The Compatible modes, drawn by Composite with their own formulas,
// use Add and Multiply here.
func Blend(mode p2lrt.BlendMode, s, d [3]float32) [3]float32 {
	switch mode {
	case p2lrt.BlendHue:
		return setLum(setSat(s, sat(d)), lum(d))
	case p2lrt.BlendColor:
		return setLum(s, lum(d))
	}
	var o [3]float32
	for i := range 3 {
		o[i] = blendChannel(mode, s[i], d[i])
	}
	return o
}

func blendChannel(mode p2lrt.BlendMode, s, d float32) float32 {
	switch mode {
	case p2lrt.BlendAdd, p2lrt.BlendAddCompatible:
		return min(s+d, 1)
	case p2lrt.BlendAddGlow:
		return s + d // unclamped; the result is clamped after compositing
	case p2lrt.BlendDarken:
		return min(s, d)
	case p2lrt.BlendMultiply, p2lrt.BlendMultiplyCompatible:
		return s * d
	case p2lrt.BlendColorBurn:
		// Cubism's thresholds; W3C tests d == 1 and s == 0 exactly.
		if abs32(d-1) < 0.000001 {
			return 1
		}
		if abs32(s) < 0.000001 {
			return 0
		}
		return 1 - min(1, (1-d)/s)
	case p2lrt.BlendLinearBurn:
		return max(0, s+d-1)
	case p2lrt.BlendLighten:
		return max(s, d)
	case p2lrt.BlendScreen:
		return s + d - s*d
	case p2lrt.BlendColorDodge:
		if d <= 0 {
			return 0
		}
		// s ≥ 1 rather than W3C's s == 1: a straight colour a rounding step
		// above 1 must not divide by a negative (the shader tests the same).
		if s >= 1 {
			return 1
		}
		return min(1, d/(1-s))
	case p2lrt.BlendOverlay:
		if d < 0.5 {
			return 2 * s * d
		}
		return 1 - 2*(1-s)*(1-d)
	case p2lrt.BlendSoftLight:
		if s <= 0.5 {
			return d - (1-2*s)*d*(1-d)
		}
		if d <= 0.25 {
			return d + (2*s-1)*d*((16*d-12)*d+3)
		}
		return d + (2*s-1)*(float32(math.Sqrt(float64(d)))-d)
	case p2lrt.BlendHardLight:
		if s < 0.5 {
			return 2 * s * d
		}
		return 1 - 2*(1-s)*(1-d)
	case p2lrt.BlendLinearLight:
		if s < 0.5 {
			return max(0, 2*s+d-1)
		}
		return min(1, 2*(s-0.5)+d)
	default: // Normal
		return s
	}
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

func lum(c [3]float32) float32 { return 0.30*c[0] + 0.59*c[1] + 0.11*c[2] }

func sat(c [3]float32) float32 { return max(c[0], c[1], c[2]) - min(c[0], c[1], c[2]) }

// clipColor brings a colour back into [0, 1] keeping its luminosity. Like
// W3C and Cubism, both tests use the minimum and maximum of the input.
//
// W3C's formulas divide by l − n and x − l, which are positive only while
// the luminosity l lies inside [0, 1]. A grey one rounding step outside
// (a straight colour of 1 + 2⁻²³ from a float division, or a SetLum target
// of exactly 0 or 1 that lum rounds past) has n = l < 0 or x = l > 1:
// 0/0 made the colour NaN, which compositing then clamped to black, the
// whole pixel. The limits of the formulas as l reaches 0 or 1 are black
// and white (C = l + (C − l)·l/(l − n) → 0; C = l + (C − l)·(1 − l)/(x − l)
// → 1), so those are the answers at and beyond them; inside, l − n ≥ l > 0
// and x − l > 1 − l > 0, and the scale factors l/(l − n) and
// (1 − l)/(x − l) stay within [0, 1].
func clipColor(c [3]float32) [3]float32 {
	l := lum(c)
	n := min(c[0], c[1], c[2])
	x := max(c[0], c[1], c[2])
	switch {
	case n < 0 && l <= 0:
		return [3]float32{}
	case x > 1 && l >= 1:
		return [3]float32{1, 1, 1}
	}
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

func setLum(c [3]float32, l float32) [3]float32 {
	d := l - lum(c)
	return clipColor([3]float32{c[0] + d, c[1] + d, c[2] + d})
}

// setSat gives c the saturation s keeping its hue. The channel roles (max,
// mid, min) are chosen with Cubism's tie-breaking, which W3C leaves open.
func setSat(c [3]float32, s float32) [3]float32 {
	mx := max(c[0], c[1], c[2])
	mn := min(c[0], c[1], c[2])
	md := c[0] + c[1] + c[2] - mx - mn
	var oMax, oMid float32
	if mn < mx {
		oMax = s
		oMid = (md - mn) * s / (mx - mn)
	}
	r, g, b := c[0], c[1], c[2]
	switch {
	case r == mx:
		if b < g {
			return [3]float32{oMax, oMid, 0}
		}
		return [3]float32{oMax, 0, oMid}
	case g == mx:
		if r < b {
			return [3]float32{0, oMax, oMid}
		}
		return [3]float32{oMid, oMax, 0}
	default:
		if g < r {
			return [3]float32{oMid, 0, oMax}
		}
		return [3]float32{0, oMid, oMax}
	}
}
