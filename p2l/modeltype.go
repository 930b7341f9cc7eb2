package p2l

import (
	"io/fs"
	"log/slog"
	"sync"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// file is the file a Model is made from: p2lrt.File's fields without its
// methods (Model promotes the fields, not Write or Encode).
type file p2lrt.File

// Model is a prepared model: the content of a .p2lrt file (a p2lrt.File)
// and the tables its rigs share, built once.
//
// A Model returned by Load or NewModel is validated and ready to play. Its
// file's fields are promoted for reading; they must not be modified: a
// model is shared by its rigs and goroutines. Tools that edit a model
// work on a copy of its file (File) and make a new model of it (NewModel).
type Model struct {
	*file

	// prepOnce builds prepared on first use (prep).
	prepOnce sync.Once
	prepared *prepared
	// log receives the failures of the model's rigs (WithLogger); nil:
	// none.
	log *slog.Logger
	// dir is the directory the model was loaded from (LoadFile, LoadFS,
	// WithDir).
	dir fs.FS
}

// File returns a copy of the file m was made from, for tools that edit or
// convert it (p2lrt.File.Clone: nothing of it is shared with m).
func (m *Model) File() *p2lrt.File {
	if m == nil {
		return &p2lrt.File{Draw: p2lrt.DrawGroup{Part: -1}} // the file of an empty model
	}
	return m.f().Clone()
}

// f is m's file as a p2lrt.File.
func (m *Model) f() *p2lrt.File { return (*p2lrt.File)(m.file) }
