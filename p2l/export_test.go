package p2l

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// DiffModels is diffModels for the external test package.
var DiffModels = diffModels

// DiffLenient is diffLenient for the external test package.
var DiffLenient = diffLenient

// DecodeForBench decodes and validates without the trial evaluation.
func DecodeForBench(data []byte) error {
	_, err := p2lrt.Decode(data, nil)
	return err
}

// CheckOutputsForTest runs the per-evaluation finite check alone, for its
// benchmark.
func (r *Rig) CheckOutputsForTest() { r.checkOutputs() }

// EvalWorkForTest is the model's evaluation work bound (evalwork.go).
func (m *Model) EvalWorkForTest() int64 { return evalWork(m) }
