package ebitenp2l

import (
	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// Hardware blends for the three combinations the drawing rules define with
// Cubism's fixed-function formulas on premultiplied colors (RUNTIME.md,
// drawing rules; cubism-semantics §6.3). The Compatible two keep the
// destination alpha and ignore the alpha mode.
var (
	// blendNormal: D' = P + D·(1 − Pa).
	blendNormal = ebiten.BlendSourceOver
	// blendAddCompatible: D'.rgb = P.rgb + D.rgb, D'.a = D.a.
	blendAddCompatible = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorOne,
		BlendFactorSourceAlpha:      ebiten.BlendFactorZero,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOne,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOne,
		BlendOperationRGB:           ebiten.BlendOperationAdd,
		BlendOperationAlpha:         ebiten.BlendOperationAdd,
	}
	// blendMultiplyCompatible: D'.rgb = P.rgb·D.rgb + D.rgb·(1 − Pa),
	// D'.a = D.a.
	blendMultiplyCompatible = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorDestinationColor,
		BlendFactorSourceAlpha:      ebiten.BlendFactorZero,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOneMinusSourceAlpha,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOne,
		BlendOperationRGB:           ebiten.BlendOperationAdd,
		BlendOperationAlpha:         ebiten.BlendOperationAdd,
	}
	// blendMax renders mask coverage: the maximum of the mask meshes'
	// texture alpha at each pixel.
	blendMax = ebiten.Blend{
		BlendFactorSourceRGB:        ebiten.BlendFactorOne,
		BlendFactorSourceAlpha:      ebiten.BlendFactorOne,
		BlendFactorDestinationRGB:   ebiten.BlendFactorOne,
		BlendFactorDestinationAlpha: ebiten.BlendFactorOne,
		BlendOperationRGB:           ebiten.BlendOperationMax,
		BlendOperationAlpha:         ebiten.BlendOperationMax,
	}
	// blendReplace writes the shader's result as it is: the backdrop-reading
	// draws composite in the shader.
	blendReplace = ebiten.BlendCopy
)

// hardwareBlend returns the fixed-function blend of a mode combination, or
// ok = false when the combination must read the backdrop.
func hardwareBlend(b p2l.BlendMode, a p2l.AlphaMode) (blend ebiten.Blend, ok bool) {
	switch {
	case b == p2l.BlendNormal && a == p2l.AlphaOver:
		return blendNormal, true
	case b == p2l.BlendAddCompatible:
		return blendAddCompatible, true
	case b == p2l.BlendMultiplyCompatible:
		return blendMultiplyCompatible, true
	}
	return blendReplace, false
}
