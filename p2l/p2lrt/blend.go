package p2lrt

import "strconv"

// BlendMode is a color blend mode, numbered as Cubism 5.3 numbers them
// (Core 06.00 ColorBlendType). The file format stores these numbers.
type BlendMode uint8

// Color blend modes.
const (
	BlendNormal             BlendMode = 0
	BlendAddCompatible      BlendMode = 1
	BlendMultiplyCompatible BlendMode = 2
	BlendAdd                BlendMode = 3
	BlendAddGlow            BlendMode = 4
	BlendDarken             BlendMode = 5
	BlendMultiply           BlendMode = 6
	BlendColorBurn          BlendMode = 7
	BlendLinearBurn         BlendMode = 8
	BlendLighten            BlendMode = 9
	BlendScreen             BlendMode = 10
	BlendColorDodge         BlendMode = 11
	BlendOverlay            BlendMode = 12
	BlendSoftLight          BlendMode = 13
	BlendHardLight          BlendMode = 14
	BlendLinearLight        BlendMode = 15
	BlendHue                BlendMode = 16
	BlendColor              BlendMode = 17

	// NumBlendModes is the number of color blend modes.
	NumBlendModes = 18
)

var blendNames = [NumBlendModes]string{
	"Normal", "AddCompatible", "MultiplyCompatible", "Add", "AddGlow", "Darken",
	"Multiply", "ColorBurn", "LinearBurn", "Lighten", "Screen", "ColorDodge",
	"Overlay", "SoftLight", "HardLight", "LinearLight", "Hue", "Color",
}

// String returns the Cubism name of b, such as "Multiply".
func (b BlendMode) String() string {
	if int(b) < len(blendNames) {
		return blendNames[b]
	}
	return "BlendMode(" + strconv.Itoa(int(b)) + ")"
}

// AlphaMode is an alpha compositing mode (Cubism 5.3 AlphaBlendType).
type AlphaMode uint8

// Alpha compositing modes.
const (
	AlphaOver         AlphaMode = 0
	AlphaAtop         AlphaMode = 1
	AlphaOut          AlphaMode = 2
	AlphaConjointOver AlphaMode = 3
	AlphaDisjointOver AlphaMode = 4

	// NumAlphaModes is the number of alpha modes.
	NumAlphaModes = 5
)

var alphaNames = [NumAlphaModes]string{"Over", "Atop", "Out", "ConjointOver", "DisjointOver"}

// String returns the Cubism name of a, such as "Atop".
func (a AlphaMode) String() string {
	if int(a) < len(alphaNames) {
		return alphaNames[a]
	}
	return "AlphaMode(" + strconv.Itoa(int(a)) + ")"
}
