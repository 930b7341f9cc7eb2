// Package nonfinite finds NaN and ±Inf among float32 values, for the
// reader's checks (p2l/p2lrt) and the runtime's (p2l): one implementation
// of the check every evaluation ends with.
package nonfinite

import "math"

// Finite reports whether f is neither NaN nor ±Inf.
func Finite(f float32) bool { return math.Float32bits(f)&0x7f800000 != 0x7f800000 }

// Probe returns 0 when every value of s is finite and NaN otherwise:
// v − v is 0 for a finite v and NaN for NaN and ±Inf, and NaN survives
// the sums. Four independent sums, eight values a step taken as one array
// (one bounds check), keep the loop at about one value per cycle, so the
// check every evaluation ends with costs a few percent of it
// (BenchmarkOutputCheck against BenchmarkEvaluate).
func Probe(s []float32) float32 {
	var a, b, c, d float32
	for len(s) >= 8 {
		x := (*[8]float32)(s)
		a += (x[0] - x[0]) + (x[4] - x[4])
		b += (x[1] - x[1]) + (x[5] - x[5])
		c += (x[2] - x[2]) + (x[6] - x[6])
		d += (x[3] - x[3]) + (x[7] - x[7])
		s = s[8:]
	}
	for _, v := range s {
		a += v - v
	}
	return a + b + c + d
}

// Index returns the index of the first value of s that is NaN or ±Inf,
// or −1.
func Index(s []float32) int {
	if Probe(s) == 0 {
		return -1
	}
	for i, v := range s {
		if !Finite(v) {
			return i
		}
	}
	return -1
}
