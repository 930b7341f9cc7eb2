package libm

import "math"

// atan(0.5), atan(1), atan(1.5) and atan(∞) split into a float32 head and
// tail.
var (
	atanHi = [4]float32{4.6364760399e-01, 7.8539812565e-01, 9.8279368877e-01, 1.5707962513e+00}
	atanLo = [4]float32{5.0121582440e-09, 3.7748947079e-08, 3.4473217170e-08, 7.5497894159e-08}
)

// The odd polynomial of atanf on the reduced argument, split into the
// coefficients of z·w^k (even) and w^k (odd), z = x², w = z².
const (
	at0  float32 = 3.3333334327e-01
	at1  float32 = -2.0000000298e-01
	at2  float32 = 1.4285714924e-01
	at3  float32 = -1.1111110449e-01
	at4  float32 = 9.0908870101e-02
	at5  float32 = -7.6918758452e-02
	at6  float32 = 6.6610731184e-02
	at7  float32 = -5.8335702866e-02
	at8  float32 = 4.9768779427e-02
	at9  float32 = -3.6531571299e-02
	at10 float32 = 1.6285819933e-02
)

// Atanf is glibc's atanf (fdlibm's): the argument is brought below 7/16
// by atan(x) = atan(c) + atan((x−c)/(1+c·x)) for c = 0.5, 1, 1.5 or ∞,
// then an 11-term polynomial, all in float32.
func Atanf(x float32) float32 {
	hx := int32(math.Float32bits(x))
	ix := hx & 0x7fffffff
	id := -1
	switch {
	case ix >= 0x4c000000: // |x| ≥ 2^25
		if ix > 0x7f800000 {
			return x + x // NaN
		}
		if hx > 0 {
			return atanHi[3] + atanLo[3]
		}
		return -atanHi[3] - atanLo[3]
	case ix < 0x3ee00000: // |x| < 0.4375
		if ix < 0x31000000 { // |x| < 2^-29
			return x
		}
	default:
		x = abs32(x)
		switch {
		case ix < 0x3f300000: // 7/16 ≤ |x| < 11/16
			id, x = 0, (float32(2*x)-1)/(2+x)
		case ix < 0x3f980000: // 11/16 ≤ |x| < 19/16
			id, x = 1, (x-1)/(x+1)
		case ix < 0x401c0000: // 19/16 ≤ |x| < 2.4375
			id, x = 2, (x-1.5)/(1+float32(1.5*x))
		default: // 2.4375 ≤ |x| < 2^25
			id, x = 3, -1/x
		}
	}
	z := float32(x * x)
	w := float32(z * z)
	// Horner in w, each product rounded on its own (no fused multiply-add).
	s1 := at8 + float32(w*at10)
	s1 = at6 + float32(w*s1)
	s1 = at4 + float32(w*s1)
	s1 = at2 + float32(w*s1)
	s1 = float32(z * (at0 + float32(w*s1)))
	s2 := at7 + float32(w*at9)
	s2 = at5 + float32(w*s2)
	s2 = at3 + float32(w*s2)
	s2 = float32(w * (at1 + float32(w*s2)))
	if id < 0 {
		return x - float32(x*(s1+s2))
	}
	r := atanHi[id] - ((float32(x*(s1+s2)) - atanLo[id]) - x)
	if hx < 0 {
		return -r
	}
	return r
}

const (
	piO4 float32 = 7.8539818525e-01
	piO2 float32 = 1.5707963705e+00
	pi   float32 = 3.1415927410e+00
	piLo float32 = -8.7422776573e-08
	tiny float32 = 1.0e-30
)

// Atan2f is glibc's atan2f (fdlibm's): the quadrant from the signs, the
// angle from Atanf(|y/x|) with π's float32 tail folded in for x < 0.
func Atan2f(y, x float32) float32 {
	hx := int32(math.Float32bits(x))
	ix := hx & 0x7fffffff
	hy := int32(math.Float32bits(y))
	iy := hy & 0x7fffffff
	if ix > 0x7f800000 || iy > 0x7f800000 {
		return x + y // NaN
	}
	if hx == 0x3f800000 { // x = 1
		return Atanf(y)
	}
	m := (hy>>31)&1 | (hx>>30)&2 // 2·sign(x) + sign(y)
	if iy == 0 {
		switch m {
		case 0, 1:
			return y // atan(±0, +anything) = ±0
		case 2:
			return pi + tiny
		default:
			return -pi - tiny
		}
	}
	if ix == 0 {
		if hy < 0 {
			return -piO2 - tiny
		}
		return piO2 + tiny
	}
	if ix == 0x7f800000 {
		if iy == 0x7f800000 {
			switch m {
			case 0:
				return piO4 + tiny
			case 1:
				return -piO4 - tiny
			case 2:
				return float32(3*piO4) + tiny
			default:
				return float32(-3*piO4) - tiny
			}
		}
		switch m {
		case 0:
			return 0
		case 1:
			return float32(math.Copysign(0, -1))
		case 2:
			return pi + tiny
		default:
			return -pi - tiny
		}
	}
	if iy == 0x7f800000 {
		if hy < 0 {
			return -piO2 - tiny
		}
		return piO2 + tiny
	}
	var z float32
	switch k := (iy - ix) >> 23; {
	case k > 60: // |y/x| > 2^60
		z = piO2 + 0.5*piLo
	case hx < 0 && k < -60: // |y|/x < −2^60
		z = 0
	default:
		z = Atanf(abs32(y / x))
	}
	switch m {
	case 0:
		return z
	case 1:
		return -z
	case 2:
		return pi - (z - piLo)
	default:
		return (z - piLo) - pi
	}
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// Hypotf is glibc's hypotf: the sum of squares in float64 (exact squares,
// one rounding for the sum), its square root rounded to float32.
func Hypotf(x, y float32) float32 {
	if math.IsInf(float64(x), 0) || math.IsInf(float64(y), 0) {
		return float32(math.Inf(1))
	}
	if x != x || y != y {
		return float32(math.NaN())
	}
	dx, dy := float64(x), float64(y)
	return float32(math.Sqrt(float64(dx*dx) + float64(dy*dy)))
}
