package libm

import (
	"math"
	"testing"
)

var sink float32

// BenchmarkSincosf and BenchmarkAtan2f against the standard library's
// float64 functions rounded to float32 (the floor: what the evaluator
// called before).
func BenchmarkSincosf(b *testing.B) {
	x := float32(0.3)
	for b.Loop() {
		s, c := Sincosf(x)
		x += s * c * 1e-3
	}
	sink = x
}

func BenchmarkSincosFloor(b *testing.B) {
	x := float32(0.3)
	for b.Loop() {
		s, c := math.Sincos(float64(x))
		x += float32(s) * float32(c) * 1e-3
	}
	sink = x
}

func BenchmarkAtan2f(b *testing.B) {
	x := float32(0.3)
	for b.Loop() {
		x += Atan2f(x, 1.7) * 1e-3
	}
	sink = x
}

func BenchmarkAtan2Floor(b *testing.B) {
	x := float32(0.3)
	for b.Loop() {
		x += float32(math.Atan2(float64(x), 1.7)) * 1e-3
	}
	sink = x
}
