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
func loadModel(data []byte) (*p2l.Model, error) { return p2l.Load(data) }

// Companion is what the game keeps with a rig: its drawable. The core
// disposes it when the model is replaced.
type Companion interface{ Dispose() }

// RigMaker makes the rig of a freshly loaded model and, optionally, its
// companion. The game installs one that makes an ebitenp2l.Character and
// uses the character's rig; the default is Model.NewRig.
type RigMaker func(m *p2l.Model) (*p2l.Rig, Companion, error)

// SetRigMaker sets how rigs are made for models loaded from now on.
func (c *Core) SetRigMaker(f RigMaker) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.newRig = func(m *p2l.Model) (Rig, error) {
		r, comp, err := f(m)
		if err != nil {
			return nil, err
		}
		return adapt(r, comp)
	}
}

// p2lRig adapts *p2l.Rig to Rig.
type p2lRig struct {
	r    *p2l.Rig
	comp Companion
}

// newP2LRig is the default rig maker. The rig is evaluated once so that hit
// tests work before the first tick.
func newP2LRig(m *p2l.Model) (Rig, error) {
	r := m.NewRig()
	r.Evaluate()
	return adapt(r, nil)
}

func adapt(r *p2l.Rig, comp Companion) (Rig, error) {
	if err := r.Err(); err != nil {
		if comp != nil {
			comp.Dispose()
		}
		return nil, err
	}
	return &p2lRig{r: r, comp: comp}, nil
}

// CompanionOf returns the companion made with r, or nil.
func CompanionOf(r Rig) Companion {
	if pr, ok := r.(*p2lRig); ok {
		return pr.comp
	}
	return nil
}

// dispose releases r's companion, if any.
func dispose(r Rig) {
	if c := CompanionOf(r); c != nil {
		c.Dispose()
	}
}

func (a *p2lRig) HitTest(x, y float32) int      { return a.r.HitTest(x, y) }
func (a *p2lRig) SetParameter(i int, v float32) { a.r.SetParameter(i, v) }
func (a *p2lRig) Parameter(i int) float32       { return a.r.Parameter(i) }
func (a *p2lRig) Current(i int) float32         { return a.r.ParameterCurrent(i) }
func (a *p2lRig) Err() error                    { return a.r.Err() }

// PENDING: p2l's Update pipeline, clips, expressions, behaviours and
// advanced mode have not landed on main yet. Until they do, Update only
// evaluates the host pose and the calls below do nothing (Play reports the
// clip as not started, SetAdvanced fails).

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
func (a *p2lRig) SetAdvanced(bits int) error          { return errPending }
func (a *p2lRig) Advanced() int                       { return 0 }
func (a *p2lRig) Events(fn func(int, string))         {}
