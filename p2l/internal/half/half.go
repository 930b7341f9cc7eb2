// Package half converts between float32 and IEEE 754 binary16 ("f16") and
// the unorm16 encoding of [0, 1], the optional array codecs of .p2lrt.
package half

import "math"

// ToFloat32 decodes an IEEE binary16 value exactly (every f16 is an f32).
func ToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf/NaN
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		// Subnormal: mant·2^-24, exact in f32.
		f := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// MaxFinite is the largest finite binary16 magnitude.
const MaxFinite = 65504

// FromFloat32 encodes f as binary16, rounding to nearest even. The caller
// keeps |f| ≤ MaxFinite (values beyond round to infinity).
func FromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	if b&0x7fffffff >= 0x7f800000 { // Inf/NaN
		h := sign | 0x7c00
		if mant != 0 {
			h |= 0x200
		}
		return h
	}
	if exp >= 0x1f {
		return sign | 0x7c00
	}
	if exp <= 0 {
		// Subnormal or zero: shift the implicit-1 mantissa into place and
		// round to nearest even.
		if exp < -10 {
			return sign
		}
		m := mant | 0x800000
		shift := uint32(14 - exp)
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 != 0 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && h&1 != 0 {
		h++ // may carry into the exponent, which is the correct rounding
	}
	return sign | uint16(h)
}

// Unorm16ToFloat32 decodes a unorm16 value: u/65535.
func Unorm16ToFloat32(u uint16) float32 { return float32(u) / 65535 }

// Unorm16FromFloat32 encodes f ∈ [0, 1] as round(f·65535).
func Unorm16FromFloat32(f float32) uint16 {
	return uint16(math.Round(float64(f) * 65535))
}
