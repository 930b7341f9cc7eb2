package libm

import (
	"math"
	"testing"
)

// The expected values below are glibc 2.36's results on this project's
// development machine (Debian 12, x86-64 with FMA and AVX2), recorded by a
// throwaway C program linking the system libm (outside this repository):
// float32 bit patterns of the input(s) and of glibc's output. Rows marked
// "correctly rounded" are inputs where glibc's result differs from the
// correctly rounded one, float32(math.F(float64(x))), in the last bit: they
// fail if an implementation falls back to the standard library.

type pair struct{ in, want uint32 }

var sinfGlibc = []pair{
	{0x00000000, 0x00000000},
	{0x80000000, 0x80000000},
	{0x00000001, 0x00000001},
	{0x39000000, 0x39000000},
	{0x3f490fdb, 0x3f3504f3},
	{0x3f490fda, 0x3f3504f3},
	{0x3fc90fdb, 0x3f800000},
	{0x40490fdb, 0xb3bbbd2e},
	{0x42f00000, 0x3f14a2ef},
	{0x42effffe, 0x3f14a21f},
	{0x7f7fffff, 0xbf0599b3},
	{0xff7fffff, 0x3f0599b3},
	{0x4a5ac2ac, 0xbe4994b3},
	{0x5d000000, 0x3f61dc5c},
	{0x3f000019, 0x3ef5776f}, // correctly rounded: 0x3ef57770
	{0x3f00001d, 0x3ef57776}, // correctly rounded: 0x3ef57777
	{0x400001b7, 0x3f68c4dc}, // correctly rounded: 0x3f68c4dd
	{0x40000371, 0x3f68c1fc}, // correctly rounded: 0x3f68c1fd
	{0x40c9807f, 0x3c6146eb}, // correctly rounded: 0x3c6146ea
	{0x40c98ddc, 0x3c7c0031}, // correctly rounded: 0x3c7c0030
	{0xc1200009, 0x3f0b4570}, // correctly rounded: 0x3f0b4571
	{0xc1200031, 0x3f0b4789}, // correctly rounded: 0x3f0b478a
	{0x43000522, 0x3f34fe06}, // correctly rounded: 0x3f34fe07
	{0x43000531, 0x3f34f36a}, // correctly rounded: 0x3f34f36b
	{0x4b000059, 0xbf0e17a8}, // correctly rounded: 0xbf0e17a9
	{0x4b000088, 0x3ee560c6}, // correctly rounded: 0x3ee560c7
	{0x3d0003de, 0x3cfffd11}, // correctly rounded: 0x3cfffd10
	{0x3d0003df, 0x3cfffd13}, // correctly rounded: 0x3cfffd12
}

var cosfGlibc = []pair{
	{0x00000000, 0x3f800000},
	{0x80000000, 0x3f800000},
	{0x00000001, 0x3f800000},
	{0x39000000, 0x3f800000},
	{0x3f490fdb, 0x3f3504f3},
	{0x3f490fda, 0x3f3504f4},
	{0x3fc90fdb, 0xb33bbd2e},
	{0x40490fdb, 0xbf800000},
	{0x42f00000, 0x3f506e2a},
	{0x42effffe, 0x3f506ebf},
	{0x7f7fffff, 0x3f5a5f96},
	{0xff7fffff, 0x3f5a5f96},
	{0x4a5ac2ac, 0xbf7afd9d},
	{0x5d000000, 0xbef105a4},
	{0x3f000562, 0x3f60a6ab}, // correctly rounded: 0x3f60a6ac
	{0x3f0007f5, 0x3f60a56f}, // correctly rounded: 0x3f60a570
	{0x40000091, 0xbed51551}, // correctly rounded: 0xbed51552
	{0x4000014b, 0xbed51a9a}, // correctly rounded: 0xbed51a9b
	{0x40c9ee79, 0x3f7fe7ce}, // correctly rounded: 0x3f7fe7cd
	{0xc120081c, 0xbf5686b3}, // correctly rounded: 0xbf5686b2
	{0xc1200dbb, 0xbf565592}, // correctly rounded: 0xbf565591
	{0x43000227, 0xbf32ed4d}, // correctly rounded: 0xbf32ed4e
	{0x430002b8, 0xbf3354e4}, // correctly rounded: 0xbf3354e5
	{0x4b000021, 0xbed72966}, // correctly rounded: 0xbed72967
	{0x4b000027, 0xbf283420}, // correctly rounded: 0xbf28341f
	{0x3d001e53, 0x3f7fdff2}, // correctly rounded: 0x3f7fdff1
	{0x3d007822, 0x3f7fdfc5}, // correctly rounded: 0x3f7fdfc4
}

var atanfGlibc = []pair{
	{0x3e0006c5, 0x3dfebb2a}, // correctly rounded: 0x3dfebb29
	{0x3f000daf, 0x3eed791c}, // correctly rounded: 0x3eed791d
	{0x3f40000a, 0x3f24bc84}, // correctly rounded: 0x3f24bc83
	{0x3fa00018, 0x3f6563f6}, // correctly rounded: 0x3f6563f5
	{0x4040001a, 0x3f9fe0c0}, // correctly rounded: 0x3f9fe0c1
	{0xc040001a, 0xbf9fe0c0}, // correctly rounded: 0xbf9fe0c1
}

type triple struct{ y, x, want uint32 }

var atan2fGlibc = []triple{
	{0x00000000, 0xbf800000, 0x40490fdb},
	{0x80000000, 0xbf800000, 0xc0490fdb},
	{0x00000000, 0x3f800000, 0x00000000},
	{0x80000000, 0x3f800000, 0x80000000},
	{0x3f800000, 0x00000000, 0x3fc90fdb},
	{0xbf800000, 0x00000000, 0xbfc90fdb},
	{0x7f800000, 0x7f800000, 0x3f490fdb},
	{0xff800000, 0x7f800000, 0xbf490fdb},
	{0x7f800000, 0xff800000, 0x4016cbe4},
	{0xff800000, 0xff800000, 0xc016cbe4},
	{0x3f800000, 0x7f800000, 0x00000000},
	{0xbf800000, 0x7f800000, 0x80000000},
	{0x3f800000, 0xff800000, 0x40490fdb},
	{0xbf800000, 0xff800000, 0xc0490fdb},
	{0x7f800000, 0x40000000, 0x3fc90fdb},
	{0x7f000000, 0x3f800000, 0x3fc90fdb},
	{0x3f800000, 0xff000000, 0x40490fdb},
	{0xbf800000, 0xff000000, 0xc0490fdb},
	{0x3f800000, 0x3f800001, 0x3f490fda},
	{0x3dcccccd, 0x3f800000, 0x3dcc1f14},
	{0x3f000000, 0x3f800000, 0x3eed6338},
	{0xc0490fdb, 0x3f800000, 0xbfa19dc5},
	{0x00000001, 0x3f800000, 0x00000001},
	{0x4b800000, 0x3f800000, 0x3fc90fda},
	{0x4061dcfe, 0xbf45b3db, 0x3fe4a331}, // correctly rounded: 0x3fe4a332
	{0x408c0b34, 0x3fdb2f5e, 0x3f995280}, // correctly rounded: 0x3f99527f
	{0xc1dbd49a, 0x442b28a0, 0xbd244f8a}, // correctly rounded: 0xbd244f8b
	{0xc152687a, 0x4362484d, 0xbd6dc603}, // correctly rounded: 0xbd6dc602
	{0x3da7c8c7, 0xbc9f07f6, 0x3fe6d7dd}, // correctly rounded: 0x3fe6d7de
	{0x3d73ae7a, 0x3c9c6294, 0x3fa1515c}, // correctly rounded: 0x3fa1515b
	{0x40867143, 0x41028c9e, 0x3ef3755f}, // correctly rounded: 0x3ef3755e
	{0x3e22f4db, 0xbc4a5ac2, 0x3fd2f9e9}, // correctly rounded: 0x3fd2f9ea
}

var hypotfGlibc = []triple{
	{0x40400000, 0x40800000, 0x40a00000},
	{0x3f800000, 0x3f800000, 0x3fb504f3},
	{0x7f7fffff, 0x7f7fffff, 0x7f800000},
	{0x00000001, 0x00000001, 0x00000001},
	{0x7f800000, 0x7fc00000, 0x7f800000},
	{0xc2c80000, 0x3dcccccd, 0x42c80007},
	{0x3f8ccccd, 0xbf99999a, 0x3fd05e71},
	{0x00000000, 0xc0a00000, 0x40a00000},
}

func f32(b uint32) float32 { return math.Float32frombits(b) }

// same compares bit patterns; any NaN equals any NaN.
func same(got float32, want uint32) bool {
	return math.Float32bits(got) == want || (got != got && f32(want) != f32(want))
}

func TestSinCosMatchGlibc(t *testing.T) {
	hard := 0
	for _, c := range sinfGlibc {
		x := f32(c.in)
		if got := Sinf(x); !same(got, c.want) {
			t.Errorf("Sinf(%g [%#08x]) = %#08x, glibc %#08x", x, c.in, math.Float32bits(got), c.want)
		}
		if got, _ := Sincosf(x); !same(got, c.want) {
			t.Errorf("Sincosf(%g [%#08x]) sin = %#08x, glibc %#08x", x, c.in, math.Float32bits(got), c.want)
		}
		if !same(float32(math.Sin(float64(x))), c.want) {
			hard++
		}
	}
	for _, c := range cosfGlibc {
		x := f32(c.in)
		if got := Cosf(x); !same(got, c.want) {
			t.Errorf("Cosf(%g [%#08x]) = %#08x, glibc %#08x", x, c.in, math.Float32bits(got), c.want)
		}
		if _, got := Sincosf(x); !same(got, c.want) {
			t.Errorf("Sincosf(%g [%#08x]) cos = %#08x, glibc %#08x", x, c.in, math.Float32bits(got), c.want)
		}
		if !same(float32(math.Cos(float64(x))), c.want) {
			hard++
		}
	}
	// The table must keep its teeth: inputs where glibc is not correctly
	// rounded.
	if hard < 20 {
		t.Errorf("only %d table rows differ from the correctly rounded result", hard)
	}
}

func TestAtanMatchesGlibc(t *testing.T) {
	hard := 0
	for _, c := range atanfGlibc {
		x := f32(c.in)
		if got := Atanf(x); !same(got, c.want) {
			t.Errorf("Atanf(%g [%#08x]) = %#08x, glibc %#08x", x, c.in, math.Float32bits(got), c.want)
		}
		if got := Atan2f(x, 1); !same(got, c.want) {
			t.Errorf("Atan2f(%g, 1) = %#08x, glibc atanf %#08x", x, math.Float32bits(got), c.want)
		}
		if !same(float32(math.Atan(float64(x))), c.want) {
			hard++
		}
	}
	for _, c := range atan2fGlibc {
		y, x := f32(c.y), f32(c.x)
		if got := Atan2f(y, x); !same(got, c.want) {
			t.Errorf("Atan2f(%g [%#08x], %g [%#08x]) = %#08x, glibc %#08x", y, c.y, x, c.x, math.Float32bits(got), c.want)
		}
		if !same(float32(math.Atan2(float64(y), float64(x))), c.want) {
			hard++
		}
	}
	if hard < 10 {
		t.Errorf("only %d table rows differ from the correctly rounded result", hard)
	}
}

func TestHypotMatchesGlibc(t *testing.T) {
	for _, c := range hypotfGlibc {
		x, y := f32(c.y), f32(c.x)
		if got := Hypotf(x, y); !same(got, c.want) {
			t.Errorf("Hypotf(%g, %g) = %#08x, glibc %#08x", x, y, math.Float32bits(got), c.want)
		}
	}
}

// Sincosf runs the same operations as Sinf and Cosf (glibc's sincosf_poly
// and sinf_poly round identically), so Rust's sin_cos (sincosf after LLVM
// merges the calls) and separate sin and cos calls agree. Checked here on
// every float32 of a few binades on both sides of the reduction's
// thresholds.
func TestSincosfIsSinfCosf(t *testing.T) {
	for _, r := range [][2]uint32{{0x3f400000, 0x3f500000}, {0x42e00000, 0x42f80000}, {0xbfc00000, 0xbfc40000}} {
		for b := r[0]; b < r[1]; b += 7 {
			x := f32(b)
			s, c := Sincosf(x)
			if math.Float32bits(s) != math.Float32bits(Sinf(x)) || math.Float32bits(c) != math.Float32bits(Cosf(x)) {
				t.Fatalf("Sincosf(%g) = %g, %g; Sinf, Cosf = %g, %g", x, s, c, Sinf(x), Cosf(x))
			}
		}
	}
}

// The float32 constants are the decimal literals of glibc's sources; C
// reads them as double and then rounds to float, Go rounds once. Both give
// the bit patterns the sources state in their comments, except aT[0]:
// 3.3333334327e-01 is 0x3eaaaaab, not the 0x3eaaaaaa its comment says (the
// exhaustive comparison with glibc's atanf agrees with the decimal).
func TestConstants(t *testing.T) {
	for _, c := range []struct {
		v    float32
		bits uint32
	}{
		{atanHi[0], 0x3eed6338}, {atanHi[1], 0x3f490fda}, {atanHi[2], 0x3f7b985e}, {atanHi[3], 0x3fc90fda},
		{atanLo[0], 0x31ac3769}, {atanLo[1], 0x33222168}, {atanLo[2], 0x33140fb4}, {atanLo[3], 0x33a22168},
		{at0, 0x3eaaaaab}, {at1, 0xbe4ccccd}, {at2, 0x3e124925}, {at3, 0xbde38e38}, {at4, 0x3dba2e6e},
		{at5, 0xbd9d8795}, {at6, 0x3d886b35}, {at7, 0xbd6ef16b}, {at8, 0x3d4bda59}, {at9, 0xbd15a221},
		{at10, 0x3c8569d7}, {piO4, 0x3f490fdb}, {piO2, 0x3fc90fdb}, {pi, 0x40490fdb}, {piLo, 0xb3bbbd2e},
	} {
		if got := math.Float32bits(c.v); got != c.bits {
			t.Errorf("constant %g is %#08x, want %#08x", c.v, got, c.bits)
		}
	}
}

func TestNoAllocations(t *testing.T) {
	var sink float32
	if n := testing.AllocsPerRun(100, func() {
		s, c := Sincosf(sink + 1)
		sink += s + c + Sinf(3) + Cosf(200) + Atan2f(sink, 2) + Hypotf(3, sink)
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// fusedGlibc lists every float32 in [+0, 128) where glibc's FMA build of
// sinf/cosf (the one it runs on CPUs with FMA) and the same code with each
// multiply-add rounded twice differ: input, glibc's sinf, glibc's cosf.
var fusedGlibc = []struct{ in, sin, cos uint32 }{
	{0x418a3adb, 0xbf800000, 0xb7b4f770}, // rounded twice: 0xbf800000, 0xb7b4f76f
	{0x418a3adc, 0xbf800000, 0xb7a4f770}, // rounded twice: 0xbf800000, 0xb7a4f76f
	{0x418a3add, 0xbf800000, 0xb794f770}, // rounded twice: 0xbf800000, 0xb794f76f
	{0x418a3ade, 0xbf800000, 0xb784f770}, // rounded twice: 0xbf800000, 0xb784f76f
	{0x41bc76d9, 0xbf7fff80, 0xbb803f6b}, // rounded twice: 0xbf7fff80, 0xbb803f6a
	{0x4202eb4b, 0x3f779884, 0x3e821ce2}, // rounded twice: 0x3f779884, 0x3e821ce3
	{0x4255b0a9, 0xbc7d08a9, 0xbf7ff82f}, // rounded twice: 0xbc7d08a8, 0xbf7ff82f
	{0x42687a55, 0x3f800000, 0xb552257c}, // rounded twice: 0x3f800000, 0xb552257b
	{0x4280ce28, 0x3f800000, 0x34fdd672}, // rounded twice: 0x3f800000, 0x34fdd671
	{0x42870e40, 0xbf7ff72d, 0xbc866cc4}, // rounded twice: 0xbf7ff72d, 0xbc866cc3
	{0x42a35c07, 0xbadaa3b4, 0x3f7fffe9}, // rounded twice: 0xbadaa3b5, 0x3f7fffe9
	{0x42a35d44, 0x3a44b889, 0x3f7ffffb}, // rounded twice: 0x3a44b888, 0x3f7ffffb
	{0x42a97360, 0x3dc7b08a, 0xbf7ec7ba}, // rounded twice: 0x3dc7b089, 0xbf7ec7ba
	{0x42c55faa, 0xbf767f39, 0xbe8a34d1}, // rounded twice: 0xbf767f39, 0xbe8a34d2
	{0x42cf5854, 0x382ee64e, 0xbf800000}, // rounded twice: 0x382ee64f, 0xbf800000
	{0x42d8d23e, 0x3f7fea63, 0xbcd25ea8}, // rounded twice: 0x3f7fea63, 0xbcd25ea7
	{0x42e87a55, 0xb5d2257c, 0xbf800000}, // rounded twice: 0xb5d2257b, 0xbf800000
}

func TestFusedMultiplyAddsMatchGlibc(t *testing.T) {
	for _, c := range fusedGlibc {
		x := f32(c.in)
		s, co := Sincosf(x)
		if !same(Sinf(x), c.sin) || !same(s, c.sin) || !same(Cosf(x), c.cos) || !same(co, c.cos) {
			t.Errorf("x = %g [%#08x]: Sinf %#08x, Cosf %#08x, Sincosf %#08x %#08x; glibc %#08x %#08x", x, c.in,
				math.Float32bits(Sinf(x)), math.Float32bits(Cosf(x)), math.Float32bits(s), math.Float32bits(co), c.sin, c.cos)
		}
	}
}
