// Package libm computes float32 sine, cosine, arctangent and hypotenuse
// with the exact results of the GNU C Library (glibc 2.36) on x86-64, in
// pure Go.
//
// PSD2Live's reference runtime is Rust: its f32 sin, cos, sin_cos, atan2
// and hypot call the platform's libm, and on Linux that is glibc. glibc's
// float32 functions are not correctly rounded (sinf/cosf/sincosf are within
// 0.56 ulp, atan2f within about one ulp), so float32(math.Sin(float64(x)))
// differs from them in the last bit for a few inputs in every thousand —
// and a simulation with contacts amplifies one such bit into visible
// motion. This package repeats glibc's algorithms operation for operation,
// so that a file plays identically to the reference on Linux, and
// identically on every platform we run on (no cgo, no platform libm).
//
// What is reproduced (glibc 2.36 as Debian 12 ships it, x86-64 with FMA):
//
//   - Sinf, Cosf, Sincosf: glibc's sysdeps/ieee754/flt-32 sinf/cosf/sincosf
//     (from Arm's optimized-routines): a double-precision polynomial after
//     a range reduction by π/2 (a single multiply-subtract below 120, a
//     fixed-point product with 4/π above). On a CPU with FMA and AVX2 glibc
//     runs these files compiled with -mfma, where GCC contracts every
//     product that feeds an addition into a fused multiply-add; math.FMA
//     stands at exactly those places.
//   - Atan2f (with its atanf): fdlibm's float code (e_atan2f.c,
//     s_atanf.c), compiled without FMA: every float32 operation rounded on
//     its own.
//   - Hypotf: √(x² + y²) in float64, rounded to float32 (e_hypotf.c).
//
// Every product is written float32(a*b) or float64(a*b) where it must
// stay a separate rounding, because the Go compiler may otherwise fuse it
// into a multiply-add on arm64, ppc64 or s390x.
//
// The tests hold pairs (input, glibc's output) recorded from the real glibc
// by a throwaway C program, among them inputs where glibc differs from the
// correctly rounded result; docs/ADVANCED.md gives the exhaustive
// comparison's counts.
package libm
