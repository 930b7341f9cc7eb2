package p2l

import (
	"io/fs"
	"log/slog"
	"sync"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Model is a prepared model: the content of a .p2lrt file (a p2lrt.File)
// and the tables its rigs share, built once.
//
// A Model returned by Load or NewModel is validated and ready to play, and
// never changes: it is shared by its rigs and goroutines. Its records are
// read through methods, one per chunk: the lists (Parameters, Meshes,
// Clips, ...) as a List, the singletons (Canvas, Draw, Physics) by value,
// the optional chunks (Pose, Bones, ...) by value with whether the file
// has them. Records are returned by value, but their large arrays
// (positions, UVs, indices, keyform values, texture bytes) are shared with
// the model and must not be modified, as with bytes.Buffer.Bytes. Tools
// that edit a model work on a copy of its file (File) and make a new model
// of it (NewModel).
type Model struct {
	// file is the validated file the model was made from, never written
	// after NewModel (or Load) returned; nothing outside the package
	// reaches it but through the read API and File's copy.
	file *p2lrt.File
	// validated: file passed p2lrt.File.Validate (or Decode), so prepare
	// need not repeat the checks that walk whole arrays. False for models
	// made inside the package from files nobody validated
	// (ClothSimulation's) and for clones.
	validated bool

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
	return m.file.Clone()
}
