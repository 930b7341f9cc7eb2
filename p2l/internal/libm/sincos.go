package libm

import "math"

// poly holds the constants of one quadrant pair: sign of the reduced
// argument per quadrant, 2/π scaled by 2^24 and π/2 for the reduction, and
// the cosine (c0…c4) and sine (s1…s3) polynomials. glibc's second table
// negates the cosine polynomial, which gives −cos for free in quadrants 2
// and 3.
type poly struct {
	sign           [4]float64
	hpiInv, hpi    float64
	c0, c1, c2, c3 float64
	c4             float64
	s1, s2, s3     float64
}

var polys = [2]poly{
	{
		sign:   [4]float64{1, -1, -1, 1},
		hpiInv: 0x1.45F306DC9C883p+23,
		hpi:    0x1.921FB54442D18p0,
		c0:     0x1p0, c1: -0x1.ffffffd0c621cp-2, c2: 0x1.55553e1068f19p-5,
		c3: -0x1.6c087e89a359dp-10, c4: 0x1.99343027bf8c3p-16,
		s1: -0x1.555545995a603p-3, s2: 0x1.1107605230bc4p-7, s3: -0x1.994eb3774cf24p-13,
	},
	{
		sign:   [4]float64{1, -1, -1, 1},
		hpiInv: 0x1.45F306DC9C883p+23,
		hpi:    0x1.921FB54442D18p0,
		c0:     -0x1p0, c1: 0x1.ffffffd0c621cp-2, c2: -0x1.55553e1068f19p-5,
		c3: 0x1.6c087e89a359dp-10, c4: -0x1.99343027bf8c3p-16,
		s1: -0x1.555545995a603p-3, s2: 0x1.1107605230bc4p-7, s3: -0x1.994eb3774cf24p-13,
	},
}

// invPiO4 is 4/π in 8-bit steps: entry i holds the 32 bits ending at byte
// i of its binary expansion, so that reduceLarge can read a window at any
// byte without unaligned loads.
var invPiO4 = [24]uint32{
	0xa2, 0xa2f9, 0xa2f983, 0xa2f9836e,
	0xf9836e4e, 0x836e4e44, 0x6e4e4415, 0x4e441529,
	0x441529fc, 0x1529fc27, 0x29fc2757, 0xfc2757d1,
	0x2757d1f5, 0x57d1f534, 0xd1f534dd, 0xf534ddc0,
	0x34ddc0db, 0xddc0db62, 0xc0db6295, 0xdb629599,
	0x6295993c, 0x95993c43, 0x993c4390, 0x3c439041,
}

const (
	pio4Top12 = 0x3f4            // abstop12(π/4 as float32)
	tinyTop12 = 0x39800000 >> 20 // abstop12(0x1p-12)
	bigTop12  = 0x42f00000 >> 20 // abstop12(120)
	infTop12  = 0x7f800000 >> 20
	pi63      = 0x1.921FB54442D18p-62 // 2π·2^-64
)

// abstop12 is the top 12 bits of x without the sign: exponent and the
// first three mantissa bits, which is all the range tests look at.
func abstop12(x float32) uint32 { return math.Float32bits(x) >> 20 & 0x7ff }

// reduceFast returns x − n·π/2 in [−π/4, π/4] and the quadrant n, for
// |x| < 120: n is rounded through the 2^24-scaled product's truncation,
// and the subtraction is one fused multiply-add.
func reduceFast(x float64, p *poly) (float64, int) {
	r := x * p.hpiInv
	n := (int32(r) + 0x800000) >> 24
	return math.FMA(-float64(n), p.hpi, x), int(n)
}

// reduceLarge reduces a float32 of magnitude ≥ 120 (given as its bits;
// the sign is ignored) by π/2 exactly in fixed point: a 32×96-bit product
// with 4/π gives the quadrant and a 62-bit fraction.
func reduceLarge(xi uint32) (float64, int) {
	arr := invPiO4[xi>>26&15:]
	shift := xi >> 23 & 7
	xi = (xi&0xffffff | 0x800000) << shift
	res0 := uint64(xi * arr[0]) // a 32-bit product: only its low bits matter
	res1 := uint64(xi) * uint64(arr[4])
	res2 := uint64(xi) * uint64(arr[8])
	res0 = res2>>32 | res0<<32
	res0 += res1
	n := (res0 + 1<<61) >> 62
	res0 -= n << 62
	return float64(float64(int64(res0)) * pi63), int(n)
}

// sinPoly is sinf_poly: the sine polynomial of x for even n, the cosine
// polynomial for odd n; x2 = x².
func sinPoly(x, x2 float64, p *poly, n int) float32 {
	if n&1 == 0 {
		x3 := float64(x * x2)
		s1 := math.FMA(x2, p.s3, p.s2)
		x7 := float64(x3 * x2)
		s := math.FMA(x3, p.s1, x)
		return float32(math.FMA(x7, s1, s))
	}
	x4 := float64(x2 * x2)
	c2 := math.FMA(x2, p.c4, p.c3)
	c1 := math.FMA(x2, p.c1, p.c0)
	x6 := float64(x4 * x2)
	c := math.FMA(x4, p.c2, c1)
	return float32(math.FMA(x6, c2, c))
}

// sincosPoly is sincosf_poly: both polynomials at once, swapped in odd
// quadrants. The products x4, x3, x5, x6 are rounded on their own.
func sincosPoly(x, x2 float64, p *poly, n int) (sin, cos float32) {
	x4 := float64(x2 * x2)
	x3 := float64(x2 * x)
	c2 := math.FMA(x2, p.c4, p.c3)
	s1 := math.FMA(x2, p.s3, p.s2)
	c1 := math.FMA(x2, p.c1, p.c0)
	x5 := float64(x3 * x2)
	x6 := float64(x4 * x2)
	s := math.FMA(x3, p.s1, x)
	c := math.FMA(x4, p.c2, c1)
	sv := float32(math.FMA(x5, s1, s))
	cv := float32(math.FMA(x6, c2, c))
	if n&1 != 0 {
		return cv, sv
	}
	return sv, cv
}

// operand classes of reduce.
const (
	reduced   = iota // reduced: evaluate the polynomials
	tinyArg          // |y| < 2^-12: sin y = y, cos y = 1 in float32
	notFinite        // ±Inf or NaN: NaN
)

// reduce is the range reduction the three functions share: the reduced
// argument x, its square, the polynomials to use and the quadrant n
// (sinf.c/cosf.c/sincosf.c take the same steps, and their polynomials
// round alike, so sharing it keeps their results).
func reduce(y float32) (x, x2 float64, p *poly, n, class int) {
	x, p = float64(y), &polys[0]
	switch t := abstop12(y); {
	case t < pio4Top12:
		if t < tinyTop12 {
			return x, 0, p, 0, tinyArg
		}
		return x, float64(x * x), p, 0, reduced
	case t < bigTop12:
		x, n = reduceFast(x, p)
		s := p.sign[n&3]
		if n&2 != 0 {
			p = &polys[1]
		}
		return float64(x * s), float64(x * x), p, n, reduced
	case t < infTop12:
		xi := math.Float32bits(y)
		x, n = reduceLarge(xi)
		q := n + int(xi>>31) // the sign picks the table, not the polynomial
		s := p.sign[q&3]
		if q&2 != 0 {
			p = &polys[1]
		}
		return float64(x * s), float64(x * x), p, n, reduced
	}
	return 0, 0, p, 0, notFinite
}

// Sinf is glibc's sinf.
func Sinf(y float32) float32 {
	x, x2, p, n, class := reduce(y)
	switch class {
	case tinyArg:
		return y
	case notFinite:
		return float32(math.NaN())
	}
	return sinPoly(x, x2, p, n)
}

// Cosf is glibc's cosf.
func Cosf(y float32) float32 {
	x, x2, p, n, class := reduce(y)
	switch class {
	case tinyArg:
		return 1
	case notFinite:
		return float32(math.NaN())
	}
	return sinPoly(x, x2, p, n^1)
}

// Sincosf is glibc's sincosf, which is what Rust's f32::sin_cos calls
// once LLVM has merged its sinf and cosf calls. Its polynomials round
// exactly as Sinf's and Cosf's, so it always returns their results.
func Sincosf(y float32) (sin, cos float32) {
	x, x2, p, n, class := reduce(y)
	switch class {
	case tinyArg:
		return y, 1
	case notFinite:
		nan := float32(math.NaN())
		return nan, nan
	}
	return sincosPoly(x, x2, p, n)
}
