package core

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
)

// This file is the only place that knows the p2l API: the mapping of the
// core's Rig vocabulary onto *p2l.Rig, and the reader.

// loadModel reads the model in data, told by its first bytes: a zip is a
// Cubism model's folder (cubism.Load on the one NAME.model3.json in it,
// whose warnings are returned as text), anything else a .p2lrt file. A bare
// .moc3 is refused with what to pass instead: it has no textures, motions
// or physics, so it would show as grey placeholders.
func loadModel(data []byte) (*p2l.Model, []string, error) {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return loadCubismZip(data)
	case bytes.HasPrefix(data, []byte("MOC3")):
		return nil, nil, errors.New("a bare .moc3 has no textures, motions or physics: " +
			"load a zip of the Cubism model's folder (its NAME.model3.json and the files it names)")
	}
	m, err := p2l.Load(data)
	return m, nil, err
}

// loadCubismZip reads a zip holding one Cubism model: its NAME.model3.json
// anywhere inside and the files it names beside it. cubism.Load reads each
// file within its bound and all of them within cubism.MaxBundleSize, so a
// zip that claims more (a zip bomb) costs no more than a folder would.
func loadCubismZip(data []byte) (*p2l.Model, []string, error) {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		// An insecure name (absolute, "..") is left out of z's files.
		return nil, nil, fmt.Errorf("zip: %w", err)
	}
	name, err := cubism.FindModel3(z)
	if err != nil {
		return nil, nil, fmt.Errorf("zip: %w", err)
	}
	m, warnings, err := cubism.Load(z, name)
	if err != nil {
		return nil, nil, err
	}
	notes := make([]string, len(warnings))
	for i, w := range warnings {
		notes[i] = w.String()
	}
	return m, notes, nil
}

// Companion is what the game keeps with a rig: its drawable. The core
// keeps it as long as the rig and then drops it, without a call: the core
// runs on the host's threads, where GPU resources must not be released,
// and an ebitenp2l.Character releases its own when it becomes unreachable
// (on the game goroutine, at the next Draw).
type Companion any

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

// newP2LRig is the default rig maker.
func newP2LRig(m *p2l.Model) (Rig, error) { return adapt(m.NewRig(), nil) }

// adapt wraps r with every behaviour on (blink, breath, look-at, lip sync:
// what a character view wants by default) and evaluates it once, so that
// hit tests work before the first tick.
func adapt(r *p2l.Rig, comp Companion) (Rig, error) {
	r.SetBehaviors(p2l.AllBehaviors)
	r.Evaluate()
	if err := r.Err(); err != nil {
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

// The core range-checks every index before calling (rig.go): *p2l.Rig
// panics on an index out of range, and this layer must never panic into
// Java or Objective-C.
func (a *p2lRig) Update(dt float64)  { a.r.Update(dt) }
func (a *p2lRig) Play(clip int) bool { a.r.Layer(0).Start(clip); return true }
func (a *p2lRig) PlayLayer(layer, clip, prio int) bool {
	return a.r.Layer(layer).Play(clip, prio)
}
func (a *p2lRig) SetExpression(i int) {
	if i < 0 {
		a.r.Expressions().Clear()
		return
	}
	a.r.Expressions().Set(i)
}
func (a *p2lRig) AddExpression(i int)                   { a.r.Expressions().Add(i) }
func (a *p2lRig) RemoveExpression(i int)                { a.r.Expressions().Remove(i) }
func (a *p2lRig) LookAt(x, y float32)                   { a.r.LookAt(x, y) }
func (a *p2lRig) LipSync(level float32)                 { a.r.LipSync(level, [5]float32{}) }
func (a *p2lRig) LipSyncVowels(l float32, v [5]float32) { a.r.LipSync(l, v) }
func (a *p2lRig) SetBehaviors(bits int)                 { a.r.SetBehaviors(p2l.Behavior(bits)) }
func (a *p2lRig) HitTest(x, y float32) int              { return a.r.HitTest(x, y) }
func (a *p2lRig) SetParameter(i int, v float32)         { a.r.SetParameter(i, v) }
func (a *p2lRig) Parameter(i int) float32               { return a.r.Parameter(i) }
func (a *p2lRig) Current(i int) float32                 { return a.r.ParameterCurrent(i) }
func (a *p2lRig) SetAdvanced(bits int) int {
	return int(a.r.SetAdvanced(p2l.Features(bits) & p2l.AllFeatures))
}
func (a *p2lRig) Advanced() int { return int(a.r.Advanced()) }
func (a *p2lRig) Err() error    { return a.r.Err() }

func (a *p2lRig) Stop() {
	for l := range p2l.MaxLayers {
		a.r.Layer(l).Stop()
	}
}

// Busy: a layer plays a looping clip, or a one-shot clip that has not
// reached its end (an ended one-shot clip holds its last frame: still
// applied, no longer moving). Expression fades are covered by the core's
// wake time.
func (a *p2lRig) Busy() bool {
	clips := a.r.Model().Clips()
	for l := range p2l.MaxLayers {
		layer := a.r.Layer(l)
		c := layer.Clip()
		if c < 0 || c >= clips.Len() {
			continue
		}
		if clip := clips.At(c); clip.Loop || layer.Time() < float64(clip.Duration) {
			return true
		}
	}
	return false
}

func (a *p2lRig) Events(fn func(clip int, value string)) {
	for _, e := range a.r.Events() {
		if e.Finished {
			continue // the end of a one-shot clip, not a clip event
		}
		fn(e.Clip, e.Value)
	}
}
