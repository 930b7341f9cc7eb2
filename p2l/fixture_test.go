package p2l

import (
	"encoding/binary"

	"github.com/psd2live/p2l-ebiten/p2l/internal/testfile"
)

// fullModel is testfile.Full as a Model (not prepared until used).
func fullModel() *Model { return (*Model)(testfile.Full()) }

// coreModel is testfile.Core as a Model.
func coreModel() *Model { return (*Model)(testfile.Core()) }

// diffModels describes the first differing field of two models.
func diffModels(a, b any) string { return testfile.Diff(a, b) }

// diffLenient is diffModels treating nil and empty slices as equal.
func diffLenient(a, b any) string { return testfile.DiffLenient(a, b) }

var le = binary.LittleEndian

// coreChunks are the chunks P2LRT_V2.md calls core: a writer flags them
// required.
var coreChunks = map[string]bool{"STRS": true, "CANV": true, "PARM": true, "DEFM": true, "PART": true, "MESH": true,
	"GLUE": true, "DRAW": true, "TEXR": true, "PHYS": true, "CLIP": true, "ROLE": true}

// maxDepth is the reader's bound on the nesting of the draw tree and the
// PGUI tree (docs/LIMITS.md).
const maxDepth = 256
