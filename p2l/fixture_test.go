package p2l

import (
	"encoding/binary"
	"reflect"

	"github.com/psd2live/p2l-ebiten/p2l/internal/testfile"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// fullModel is testfile.Full as a Model (not prepared until used).
func fullModel() *Model { return &Model{file: testfile.Full()} }

// coreModel is testfile.Core as a Model.
func coreModel() *Model { return &Model{file: testfile.Core()} }

// diffModels describes the first differing field of two models' files
// (or of two files).
func diffModels(a, b any) string { return testfile.Diff(fileOf(a), fileOf(b)) }

// diffLenient is diffModels treating nil and empty slices as equal.
func diffLenient(a, b any) string { return testfile.DiffLenient(fileOf(a), fileOf(b)) }

// fileOf is the file of a *Model, anything else as it is.
func fileOf(v any) any {
	if m, ok := v.(*Model); ok {
		if m == nil {
			return (*p2lrt.File)(nil)
		}
		return m.file
	}
	return v
}

var le = binary.LittleEndian

// coreChunks are the chunks P2LRT_V2.md calls core: a writer flags them
// required.
var coreChunks = map[string]bool{"STRS": true, "CANV": true, "PARM": true, "DEFM": true, "PART": true, "MESH": true,
	"GLUE": true, "DRAW": true, "TEXR": true, "PHYS": true, "CLIP": true, "ROLE": true}

// maxDepth is the reader's bound on the nesting of the draw tree and the
// PGUI tree (docs/LIMITS.md).
const maxDepth = 256

// sameFile reports whether two models (or files) have deeply equal files.
func sameFile(a, b any) bool { return reflect.DeepEqual(fileOf(a), fileOf(b)) }
