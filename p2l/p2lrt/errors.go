package p2lrt

import (
	"errors"
	"strconv"

	"github.com/psd2live/p2l-ebiten/p2l/internal/container"
)

// FormatError reports a file (or model) that breaks P2LRT_V2.md or a rule of
// docs/FORMAT.md. Use errors.As to get it from the errors of Load, Inspect,
// Write and File.Validate. Every refusal of a file by Load is one, the
// trial evaluation's included (an overflow names the field of the largest
// value the failing mesh takes in).
type FormatError struct {
	// Tag is the chunk (or v1 section) concerned, such as "MESH"; empty for
	// the file header.
	Tag string
	// Offset is the byte offset of the offending field: a file offset, or,
	// when Decompressed is true, an offset inside the chunk's decompressed
	// content. For a reference error found after decoding (an index out of
	// range, a cycle) and for a failure of Load's trial evaluation it is
	// the file offset where the chunk's data starts (−1 in a v1 file). It
	// is −1 for errors found in a model (Write, Validate).
	Offset int64
	// Decompressed tells that Offset is relative to the decompressed chunk.
	Decompressed bool
	// Field is the path of the field, such as "meshes[3].indices".
	Field string
	// Msg says what is wrong.
	Msg string
	// Layout is the file's layout, 1 or 2, when the error comes from
	// reading a file; 0 for errors found in a model (Write, Validate) and
	// for a file that is not a .p2lrt of a known version.
	Layout int
}

// Error formats the error as "p2l: v2 chunk TAG: offset N: field: message"
// ("v1 section TAG" for a v1 file, "v2 file" or "v1 stream" for an error
// outside any chunk; no layout for a model).
func (e *FormatError) Error() string {
	s := "p2l: "
	switch {
	case e.Layout == 1 && e.Tag != "":
		s += "v1 section " + e.Tag + ": "
	case e.Layout == 1:
		s += "v1 stream: "
	case e.Layout > 1 && e.Tag != "":
		s += "v" + strconv.Itoa(e.Layout) + " chunk " + e.Tag + ": "
	case e.Layout > 1:
		s += "v" + strconv.Itoa(e.Layout) + " file: "
	case e.Tag != "":
		s += "chunk " + e.Tag + ": "
	}
	if e.Offset >= 0 {
		if e.Decompressed {
			s += "offset " + strconv.FormatInt(e.Offset, 10) + " (decompressed): "
		} else {
			s += "offset " + strconv.FormatInt(e.Offset, 10) + ": "
		}
	}
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Msg
}

// withLayout records the layout of the file an error was found in.
func withLayout(err error, layout int) error {
	var fe *FormatError
	if errors.As(err, &fe) && fe.Layout == 0 {
		fe.Layout = layout
	}
	return err
}

// asFormatError converts container errors into FormatErrors.
func asFormatError(err error) error {
	var ce *container.Error
	if errors.As(err, &ce) {
		return &FormatError{Tag: ce.Tag, Offset: ce.Offset, Field: ce.Field, Msg: ce.Msg}
	}
	return err
}
