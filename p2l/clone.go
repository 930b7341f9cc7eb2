package p2l

import "io/fs"

// Clone returns a new Model with the same records as m, the same Dir and
// Logger, and lookups (ClipIndex, ExpressionIndex, ...) of its own, built
// from its own records on first use.
//
// The records are shared, not copied: a Model is immutable once any rig or
// lookup has used it, so change the clone only by assigning new slices or
// pointers to its fields (clone.Clips = append(slices.Clone(m.Clips), c)),
// never by writing into slices it shares with m. This is how
// p2l/cubism.Import adds motions to a loaded model without touching it.
// A nil Model clones as an empty one (no records, Draw.Part −1).
func (m *Model) Clone() *Model {
	if m == nil {
		return &Model{Draw: DrawGroup{Part: -1}}
	}
	c := *m
	if l := m.logger(); l != nil {
		setLogger(&c, l)
	}
	if d := m.Dir(); d != nil {
		setDir(&c, d)
	}
	return &c
}

// WithDir returns a clone of m (Clone) whose Dir is dir: where its
// external texture pages and clip sounds (ClipSound) resolve. Loaders of
// models that are not read by LoadFile or LoadFS (p2l/cubism.Load) use it;
// m is not changed.
func (m *Model) WithDir(dir fs.FS) *Model {
	c := m.Clone()
	setDir(c, dir)
	return c
}
