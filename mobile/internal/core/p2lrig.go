package core

import (
	"errors"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// This file is the only place that knows the p2l API: the mapping of the
// core's Rig vocabulary onto *p2l.Rig, and the reader.

// errPending marks a capability whose p2l implementation has not landed.
var errPending = errors.New("not available in this build of p2l")

// loadModel parses a .p2lrt file.
func loadModel(data []byte) (*p2l.Model, error) {
	return nil, errPending
}

// p2lRig adapts *p2l.Rig to Rig.
type p2lRig struct {
	r *p2l.Rig
}

func newP2LRig(m *p2l.Model) (Rig, error) {
	r := m.NewRig()
	if err := r.Err(); err != nil {
		return nil, err
	}
	return &p2lRig{r: r}, nil
}

// P2L returns the underlying rig of a Rig made by the core, or nil (the
// game draws it).
func P2L(r Rig) *p2l.Rig {
	if pr, ok := r.(*p2lRig); ok {
		return pr.r
	}
	return nil
}

func (a *p2lRig) Update(dt float32)                   { a.r.Evaluate() }
func (a *p2lRig) Play(layer, clip, priority int) bool { return false }
func (a *p2lRig) Stop()                               {}
func (a *p2lRig) Busy() bool                          { return false }
func (a *p2lRig) SetExpression(i int)                 {}
func (a *p2lRig) AddExpression(i int)                 {}
func (a *p2lRig) RemoveExpression(i int)              {}
func (a *p2lRig) LookAt(x, y float32)                 {}
func (a *p2lRig) LipSync(level float32)               {}
func (a *p2lRig) LipSyncSamples(s []float32)          {}
func (a *p2lRig) HitTest(x, y float32) int            { return -1 }
func (a *p2lRig) SetParameter(i int, v float32)       { a.r.SetParameter(i, v) }
func (a *p2lRig) Parameter(i int) float32             { return 0 }
func (a *p2lRig) Current(i int) float32               { return 0 }
func (a *p2lRig) SetAdvanced(bits int) error          { return errPending }
func (a *p2lRig) Advanced() int                       { return 0 }
func (a *p2lRig) Events(fn func(int, string))         {}
func (a *p2lRig) Err() error                          { return a.r.Err() }
