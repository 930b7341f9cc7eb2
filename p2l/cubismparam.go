package p2l

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file is how PlaybackCubism models write parameter values: as the
// Cubism framework's CubismModel (cubismmodel.ts setParameterValueByIndex,
// addParameterValueByIndex, getParameterClampValue), every write is
// clamped to the parameter's range, then blended by its weight and stored
// as float32 (the Core's Float32Array). Models of the reference runtime
// clamp once, before evaluation (eval.go clampCurrent; docs/ANIMATION.md
// §1).
//
// The framework wraps a repeat parameter instead of clamping it only when
// its user asks (setOverrideFlagForModelParameterRepeat(false) or the
// per-parameter flags): every CubismModel starts with
// _isOverriddenParameterRepeat = true and every parameter's repeat flag
// false, so by default every write clamps, repeat parameters included, and
// so does this runtime.

// cubismLimit is the framework's stored value of parameter p for v
// (getParameterClampValue, in float64): v clamped to [Min, Max]. A NaN v
// (which the framework would store) gives the parameter's default.
func cubismLimit(p *p2lrt.Parameter, v float64) float64 {
	switch {
	case math.IsNaN(v):
		return float64(p.Default)
	case v < float64(p.Min):
		return float64(p.Min)
	case float64(p.Max) < v:
		return float64(p.Max)
	}
	return v
}

// cubismSet is SetParameterValue(i, v, w): v clamped (cubismLimit), then
// stored outright for w = 1, else blended into the current value as
// current·(1 − w) + v·w.
func cubismSet(params []p2lrt.Parameter, values []float32, i int, v, w float64) {
	v = cubismLimit(&params[i], v)
	if w != 1 {
		v = float64(values[i])*(1-w) + v*w
	}
	values[i] = float32(v)
}

// cubismAdd is AddParameterValue(i, v, w): SetParameterValue(i,
// current + v·w).
func cubismAdd(params []p2lrt.Parameter, values []float32, i int, v, w float64) {
	cubismSet(params, values, i, float64(values[i])+v*w, 1)
}
