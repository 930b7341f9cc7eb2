package ebitenp2l

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// The blend × alpha combinations drawn with fixed-function blending, with
// no copy of the backdrop. Each entry is the CPU reference renderer's
// formula (render.Composite, docs/RENDERING.md) rewritten for premultiplied
// colours, S = (Cs·as, as) the shaded source and D = (Cd·ad, ad) the
// destination; TestFixedFunctionTable checks every entry against
// render.Composite. A combination missing from the table reads the
// backdrop (shaders/composite.kage).
//
//	Normal + Over           D' = S + D·(1 − as)                  blendNormal
//	AddCompatible + any     D'.rgb = S + D, D'.a = ad           blendNormal, shader alpha 0
//	MultiplyCompatible + any, Multiply + Atop
//	                        D'.rgb = S·D + D·(1 − as), D'.a = ad blendMultiply
//	any + Out               D' = D·(1 − as)                      blendOut
//	Normal + Atop           D'.rgb = S·ad + D·(1 − as), D'.a = ad blendAtop
//	AddGlow + Over          D'.rgb = S + D, D'.a = as + ad·(1 − as) blendGlowOver
//	AddGlow + Atop          D'.rgb = S·ad + D, D'.a = ad          blendGlowAtop
//	Screen + Over           D'.rgb = S + D − S·D, D'.a = as + ad·(1 − as) blendScreenOver
//
// (Out: p0 = p1 = 0 leaves Cd·ad·(1 − as). Atop: p1 = 0, and for Normal
// Cs·as·ad + Cd·ad·(1 − as); for Multiply Cs·Cd·as·ad = S·D; for AddGlow
// (Cs + Cd)·as·ad + Cd·ad·(1 − as) = S·ad + D. Over: for AddGlow
// (Cs + Cd)·as·ad + Cs·as·(1 − ad) + Cd·ad·(1 − as) = S + D; for Screen
// the same with − Cs·Cd·as·ad = − S·D.) Add (min(Cs + Cd, 1)), Multiply
// with Over (S·D + S·(1 − ad) + D·(1 − as)), Darken, Lighten and the other
// W3C modes are not linear in D with factors a blend unit has; the
// conjoint and disjoint weights are not either.
//
// Two things differ from the backdrop path, by design: a mesh that
// overlaps itself blends triangle after triangle (the backdrop path, like
// Cubism's offscreen copy, lets its last triangle win), and a destination
// with colour but zero alpha (left by AddCompatible over transparency)
// keeps that colour, as Normal + Over always has (the backdrop path reads
// it as black).
var (
	blendNormal = ebiten.BlendSourceOver

	blendMultiply = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorDestinationColor,
		BlendFactorSourceAlpha:      ebiten.BlendFactorZero,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOneMinusSourceAlpha,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOne,
		BlendOperationRGB:           ebiten.BlendOperationAdd,
		BlendOperationAlpha:         ebiten.BlendOperationAdd,
	}
	blendOut = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorZero,
		BlendFactorSourceAlpha:      ebiten.BlendFactorZero,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOneMinusSourceAlpha,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOneMinusSourceAlpha,
		BlendOperationRGB:           ebiten.BlendOperationAdd,
		BlendOperationAlpha:         ebiten.BlendOperationAdd,
	}
	blendAtop = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorDestinationAlpha,
		BlendFactorSourceAlpha:      ebiten.BlendFactorZero,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOneMinusSourceAlpha,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOne,
		BlendOperationRGB:           ebiten.BlendOperationAdd,
		BlendOperationAlpha:         ebiten.BlendOperationAdd,
	}
	blendGlowOver = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorOne,
		BlendFactorSourceAlpha:      ebiten.BlendFactorOne,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOne,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOneMinusSourceAlpha,
		BlendOperationRGB:           ebiten.BlendOperationAdd,
		BlendOperationAlpha:         ebiten.BlendOperationAdd,
	}
	blendGlowAtop = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorDestinationAlpha,
		BlendFactorSourceAlpha:      ebiten.BlendFactorZero,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOne,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOne,
		BlendOperationRGB:           ebiten.BlendOperationAdd,
		BlendOperationAlpha:         ebiten.BlendOperationAdd,
	}
	blendScreenOver = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorOneMinusDestinationColor,
		BlendFactorSourceAlpha:      ebiten.BlendFactorOne,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOne,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOneMinusSourceAlpha,
		BlendOperationRGB:           ebiten.BlendOperationAdd,
		BlendOperationAlpha:         ebiten.BlendOperationAdd,
	}

	// blendMax renders mask coverage: the maximum of the mask meshes'
	// texture alpha at each pixel (the .p2lrt rule; blendUnion for Cubism
	// models).
	blendMax = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorOne,
		BlendFactorSourceAlpha:      ebiten.BlendFactorOne,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOne,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOne,
		BlendOperationRGB:           ebiten.BlendOperationMax,
		BlendOperationAlpha:         ebiten.BlendOperationMax,
	}
	// blendUnion renders the mask coverage of a model that unites masks
	// (p2l.Model.UnitesMasks): each channel becomes src + dst·(1 − src),
	// that is 1 − (1 − dst)(1 − src), the union of the alphas drawn into
	// it; the coverage shader writes its alpha into one channel and 0 into
	// the others, which this leaves as they are.
	blendUnion = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorOne,
		BlendFactorSourceAlpha:      ebiten.BlendFactorOne,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOneMinusSourceColor,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOneMinusSourceAlpha,
		BlendOperationRGB:           ebiten.BlendOperationAdd,
		BlendOperationAlpha:         ebiten.BlendOperationAdd,
	}
	// blendReplace writes the shader's result as it is: the backdrop-reading
	// draws composite in the shader; clears and backdrop copies.
	blendReplace = ebiten.BlendCopy
)

// fixedBlend is how a fixed-function combination is drawn.
type fixedBlend struct {
	blend ebiten.Blend
	// zeroAlpha: the shader writes alpha 0, so that blendNormal adds the
	// colour and keeps the destination alpha (AddCompatible).
	zeroAlpha bool
	// formula is blend as the compositing program computes it over its
	// backdrop copy (shaders/composite.kage, fixedBlend), for a mesh that
	// lies flat (flat.go) joining a backdrop-reading call.
	formula int
}

// The fixed-function blends computed by the compositing program (the
// numbering of shaders/composite.kage).
const (
	formulaNormal = 1 + iota
	formulaMultiply
	formulaOut
	formulaAtop
	formulaGlowOver
	formulaGlowAtop
	formulaScreenOver
)

// knownModes returns (b, a) with modes out of range read as Normal and
// Over, as render.Composite treats them.
func knownModes(b p2lrt.BlendMode, a p2lrt.AlphaMode) (p2lrt.BlendMode, p2lrt.AlphaMode) {
	if b >= p2lrt.NumBlendModes {
		b = p2lrt.BlendNormal
	}
	if a >= p2lrt.NumAlphaModes {
		a = p2lrt.AlphaOver
	}
	return b, a
}

// fixedFunction returns how combination (b, a) is drawn without reading
// the backdrop, or ok = false when it must read it. Modes out of range are
// Normal and Over, as render.Composite treats them.
func fixedFunction(b p2lrt.BlendMode, a p2lrt.AlphaMode) (f fixedBlend, ok bool) {
	b, a = knownModes(b, a)
	switch {
	case b == p2lrt.BlendAddCompatible:
		return fixedBlend{blendNormal, true, formulaNormal}, true
	case b == p2lrt.BlendMultiplyCompatible:
		return fixedBlend{blendMultiply, false, formulaMultiply}, true
	case a == p2lrt.AlphaOut:
		return fixedBlend{blendOut, false, formulaOut}, true
	case a == p2lrt.AlphaOver:
		switch b {
		case p2lrt.BlendNormal:
			return fixedBlend{blendNormal, false, formulaNormal}, true
		case p2lrt.BlendAddGlow:
			return fixedBlend{blendGlowOver, false, formulaGlowOver}, true
		case p2lrt.BlendScreen:
			return fixedBlend{blendScreenOver, false, formulaScreenOver}, true
		}
	case a == p2lrt.AlphaAtop:
		switch b {
		case p2lrt.BlendNormal:
			return fixedBlend{blendAtop, false, formulaAtop}, true
		case p2lrt.BlendMultiply:
			return fixedBlend{blendMultiply, false, formulaMultiply}, true
		case p2lrt.BlendAddGlow:
			return fixedBlend{blendGlowAtop, false, formulaGlowAtop}, true
		}
	}
	return fixedBlend{}, false
}

// overClear reports whether combination (b, a) changes a transparent
// destination (D = 0), as the first draw of a layer region does. Multiply
// and MultiplyCompatible, Atop and Out scale or keep D, which is 0, so
// they do not; every other combination then writes the shaded source S
// itself (with zeroAlpha for AddCompatible): Normal, AddGlow and Screen
// with Over add nothing to it, and the backdrop-reading combinations with
// Over, ConjointOver and DisjointOver have the weights (as·0, as, 0), so
// B(Cs, 0)·0 + Cs·as = S. Written with replace blending, such a draw needs
// no backdrop copy; a backdrop-reading mesh that overlaps itself lets its
// last triangle win either way, a fixed-function one must lie flat
// (flat.go).
func overClear(b p2lrt.BlendMode, a p2lrt.AlphaMode) bool {
	b, a = knownModes(b, a)
	switch {
	case b == p2lrt.BlendAddCompatible:
		return true // S + D, ad: colour over zero alpha, whatever the alpha mode
	case a == p2lrt.AlphaAtop || a == p2lrt.AlphaOut:
		// D'.a = ad·… = 0, and every colour term carries ad or D (AddGlow
		// + Atop: S·ad + D; the W3C weights as·ad and ad·(1 − as)).
		return false
	}
	return b != p2lrt.BlendMultiplyCompatible // S·D + D·(1 − as), ad
}
