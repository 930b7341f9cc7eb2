package p2lrt

import (
	"bytes"

	"github.com/psd2live/p2l-ebiten/p2l/internal/container"
)

// Hooks for the external tests (fuzz_test.go), which build their seeds
// with package testfile (which imports p2lrt).

// ChunkTags lists the known chunks, STRS first.
func ChunkTags() []string {
	var tags []string
	for _, d := range chunkDefs {
		tags = append(tags, d.tag)
	}
	return tags
}

// DecodeChunk decodes content as the records of chunk tag alone, its
// strings resolving in strs; cext holds the CEXT records it read.
func DecodeChunk(tag string, b []byte, strs []string) (f *File, cext any, err error) {
	d := findDef(tag)
	f = new(File)
	var recs []cextRecord
	c := &coder{read: true, tag: tag, version: d.version, b: b, strs: strs, cext: &recs}
	d.code(c, f)
	if c.err == nil && c.pos != len(b) {
		c.fail("", "left over")
	}
	return f, recs, c.err
}

// EncodeChunk encodes chunk tag of f and the CEXT records cext alone: its
// content and string table.
func EncodeChunk(tag string, f *File, cext any) ([]byte, []string, error) {
	d := findDef(tag)
	recs := cext.([]cextRecord)
	var list []string
	w := &coder{tag: tag, version: d.version, strIndex: map[string]uint32{}, strList: &list, cext: &recs}
	d.code(w, f)
	return w.out, list, w.err
}

// Strings decodes the string table of the v2 file data, its first chunk.
func Strings(data []byte) ([]string, error) {
	h, es, err := container.Parse(data)
	if err != nil {
		return nil, err
	}
	l := &loader{data: data, cfg: defaultConfig(), m: &File{NamesStripped: h.Flags&1 != 0}}
	if err := l.strings(&es[0]); err != nil {
		return nil, err
	}
	return l.strs, nil
}

// STRSRoundTrip decodes content as a lone STRS chunk and reports whether
// it is valid and, if so, whether encoding its strings gives content back.
func STRSRoundTrip(content []byte) (valid, same bool) {
	data, err := container.Write(0, 0, []container.ChunkData{{Tag: "STRS", Version: 1, Required: true, Data: content}}, false)
	if err != nil {
		return false, false
	}
	_, es, err := container.Parse(data)
	if err != nil {
		return false, false
	}
	l := &loader{data: data, cfg: defaultConfig(), m: new(File)}
	if l.strings(&es[0]) != nil {
		return false, false
	}
	return true, bytes.Equal(encodeStrings(l.strs), content)
}
