package p2l

import (
	"io/fs"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// clone returns a new Model with the same records as m, the same Dir and
// Logger, and prepared tables (lookups included) of its own, built from
// its records on first use. A nil Model clones as an empty one (no
// records, Draw.Part −1).
//
// The records are shared, not copied: the clone's file is a shallow copy
// of m's. A clone may be changed before it is shared, only by assigning
// new slices or pointers to its file's fields, never by writing into
// slices it shares with m (WithPlayback and WithEvaluation do this).
func (m *Model) clone() *Model {
	if m == nil {
		return &Model{file: &p2lrt.File{Draw: p2lrt.DrawGroup{Part: -1}}}
	}
	f := *m.file
	return &Model{file: &f, log: m.log, dir: m.dir}
}

// WithDir returns a model with m's records and prepared tables whose Dir
// is dir: where its external texture pages and clip sounds (ClipSound)
// resolve. Loaders of models that are not read by LoadFile or LoadFS
// (p2l/cubism.Load) use it; m is not changed.
func (m *Model) WithDir(dir fs.FS) *Model {
	c := m.clone()
	c.dir = dir
	if m != nil {
		// The same records: the same tables (and the trial evaluation's
		// rig, kept for the first NewRig), not a second preparation.
		p := m.prep()
		c.prepOnce.Do(func() { c.prepared = p })
	}
	return c
}
