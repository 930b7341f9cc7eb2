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

// ModelForTest makes a model of f as a Model literal did before models
// were made by NewModel: without its checks and copy, prepared on first
// use, so that the external tests can build the models no file can give
// (a model that cannot evaluate) and finish a model before its first rig.
func ModelForTest(f *p2lrt.File) *Model { return &Model{file: f} }
