package half

import (
	"math"
	"testing"
)

func TestKnownValues(t *testing.T) {
	// Hand-computed binary16 encodings.
	cases := []struct {
		h uint16
		f float32
	}{
		{0x0000, 0}, {0x3c00, 1}, {0xc000, -2}, {0x3800, 0.5}, {0x7bff, 65504},
		{0x0001, 1.0 / (1 << 24)}, {0x0400, 1.0 / (1 << 14)}, {0x3555, 0.333251953125},
	}
	for _, c := range cases {
		if got := ToFloat32(c.h); got != c.f {
			t.Errorf("ToFloat32(%#04x) = %v, want %v", c.h, got, c.f)
		}
		if got := FromFloat32(c.f); got != c.h {
			t.Errorf("FromFloat32(%v) = %#04x, want %#04x", c.f, got, c.h)
		}
	}
	// Ties round to even: 1 + 2^-11 lies halfway between 1 and 1+2^-10.
	if got := FromFloat32(1 + 1.0/2048); got != 0x3c00 {
		t.Errorf("tie rounding: %#04x", got)
	}
	if got := FromFloat32(1 + 3.0/2048); got != 0x3c02 {
		t.Errorf("tie rounding up to even: %#04x", got)
	}
	if !math.IsInf(float64(ToFloat32(0x7c00)), 1) || !math.IsNaN(float64(ToFloat32(0x7e00))) {
		t.Error("inf/nan decoding")
	}
}

func TestAllHalvesRoundTrip(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := ToFloat32(uint16(h))
		if math.IsNaN(float64(f)) {
			continue
		}
		if got := FromFloat32(f); got != uint16(h) {
			t.Fatalf("%#04x -> %v -> %#04x", h, f, got)
		}
	}
	for u := 0; u < 1<<16; u++ {
		if got := Unorm16FromFloat32(Unorm16ToFloat32(uint16(u))); got != uint16(u) {
			t.Fatalf("unorm %d -> %d", u, got)
		}
	}
}

func TestRoundingError(t *testing.T) {
	// Relative error of nearest rounding is at most 2^-11 for normal values.
	for _, f := range []float32{1.2345, 123.456, -987.654, 0.001234, 31234.5} {
		g := ToFloat32(FromFloat32(f))
		if rel := math.Abs(float64(g-f) / float64(f)); rel > 1.0/2048 {
			t.Errorf("%v -> %v: relative error %g", f, g, rel)
		}
	}
}
