package p2l

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// Model is a prepared model: the content of a .p2lrt file (p2lrt.File)
// with the tables its rigs share.
//
// A Model returned by Load or NewModel is validated and ready to play. Its
// exported fields may be read freely; they must not be modified once the
// model has been shared or a Rig has been created from it.
type Model p2lrt.File

// File returns a copy of the file m was made from, for tools that edit or
// convert it (p2lrt.File.Clone: nothing of it is shared with m).
func (m *Model) File() *p2lrt.File { return (*p2lrt.File)(m).Clone() }
