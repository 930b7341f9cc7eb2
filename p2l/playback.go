package p2l

import (
	"math"
	"slices"

	"github.com/psd2live/p2l-ebiten/p2l/internal/libm"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Playback is the arithmetic a model's animation is played with: clip,
// expression and pose clocks, curves and fades, and the physics clock.
// It is a property of the Model, recorded in its META chunk under the key
// MetaPlayback, so that it survives Write and Load (docs/ANIMATION.md §2a).
type Playback uint8

const (
	// PlaybackReference plays as PSD2Live's reference runtime
	// (runtime/src/clip.rs, expression.rs, pose.rs, physics.rs): float32
	// clocks accumulating float32 dt, float32 curves and fades, operation
	// by operation in the reference's order. Files written by the PSD2Live
	// editor play this way, and so does every model without the META key
	// (loaded or built in code).
	PlaybackReference Playback = iota
	// PlaybackCubism plays as the Cubism Web framework: float64 time and
	// arithmetic end to end. p2l/cubism.Import marks the models it builds
	// with it (issue 15: Cubism-exact motions and physics).
	PlaybackCubism
)

// MetaPlayback is the META key recording a model's Playback: the value
// "cubism" means PlaybackCubism; absent (or any other value) means
// PlaybackReference. The reference runtime keeps META pairs as opaque
// strings (rig.rs meta, p2l_meta_key), so a file carrying it plays there
// as any other.
const MetaPlayback = "playback"

// String returns "reference" or "cubism", the value recorded under
// MetaPlayback.
func (p Playback) String() string {
	if p == PlaybackCubism {
		return "cubism"
	}
	return "reference"
}

// Playback returns the model's playback arithmetic (MetaPlayback).
func (m *Model) Playback() Playback {
	if v, ok := m.MetaValue(MetaPlayback); ok && v == PlaybackCubism.String() {
		return PlaybackCubism
	}
	return PlaybackReference
}

// WithPlayback returns a model with m's records whose META records p,
// replacing any earlier MetaPlayback entry; m is not changed. Rigs take the
// playback of their model when they are created.
func (m *Model) WithPlayback(p Playback) *Model {
	c := m.clone()
	meta := slices.DeleteFunc(slices.Clone(c.file.Meta), func(e p2lrt.MetaEntry) bool { return e.Key == MetaPlayback })
	if p == PlaybackCubism {
		meta = append(meta, p2lrt.MetaEntry{Key: MetaPlayback, Value: p.String()})
	}
	if len(meta) == 0 {
		meta = nil
	}
	c.file.Meta = meta
	return c
}

// arith rounds the results of playback arithmetic as a model's Playback
// asks. Playback code computes every operation in float64 and passes the
// result through r: for PlaybackCubism r is the identity (float64
// arithmetic), for PlaybackReference it rounds to float32. For float32
// operands, +, −, ×, ÷ and √ computed in float64 and then rounded to
// float32 give exactly the binary32 result (53 ≥ 2·24 + 2 bits, so the
// double rounding is innocuous), so one code path reproduces the
// reference's float32 arithmetic bit for bit, provided each operation is
// rounded on its own, in the reference's order. The explicit conversion
// also keeps the compiler from fusing a product into a following sum.
type arith struct{ f32 bool }

// arithOf returns the arithmetic of m's playback.
func arithOf(m *Model) arith { return arith{f32: m.Playback() == PlaybackReference} }

// r rounds x to float32 in reference arithmetic.
func (a arith) r(x float64) float64 {
	if a.f32 {
		return float64(float32(x))
	}
	return x
}

// cos is the cosine in the arithmetic a: math.Cos, or for float32 glibc's
// cosf (p2l/internal/libm), which the reference's f32 cos calls on Linux
// and which is not correctly rounded for every argument.
func (a arith) cos(x float64) float64 {
	if a.f32 {
		return float64(libm.Cosf(float32(x)))
	}
	return math.Cos(x)
}

// minNormalFloat32 is the smallest positive normal float32 (Rust's
// f32::MIN_POSITIVE).
const minNormalFloat32 = 0x1p-126

// sin is math.Sin, or for float32 glibc's sinf.
func (a arith) sin(x float64) float64 {
	if a.f32 {
		return float64(libm.Sinf(float32(x)))
	}
	return math.Sin(x)
}

// atan2 is math.Atan2, or for float32 glibc's atan2f.
func (a arith) atan2(y, x float64) float64 {
	if a.f32 {
		return float64(libm.Atan2f(float32(y), float32(x)))
	}
	return math.Atan2(y, x)
}

// radians converts degrees: deg/180·π in float64 (Cubism), deg·(π/180)
// with the constant in float32 for float32 (Rust's f32::to_radians).
func (a arith) radians(deg float64) float64 {
	if a.f32 {
		return a.r(deg * a.r(a.r(math.Pi)/180))
	}
	return deg / 180 * math.Pi
}
