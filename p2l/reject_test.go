package p2l

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// replaceChunk returns minimalChunks with the chunk tag's content (or the
// whole chunk) replaced.
func withChunk(tag string, f func(c *tchunk)) []tchunk {
	cs := minimalChunks()
	for i := range cs {
		if cs[i].tag == tag {
			f(&cs[i])
		}
	}
	return cs
}

func without(tag string) []tchunk {
	var out []tchunk
	for _, c := range minimalChunks() {
		if c.tag != tag {
			out = append(out, c)
		}
	}
	return out
}

// tocRow returns the offset of TOC row i.
func tocRow(i int) int { return 32 + 40*i }

func patch(data []byte, off int, v any) []byte {
	d := append([]byte(nil), data...)
	switch x := v.(type) {
	case uint8:
		d[off] = x
	case uint16:
		binary.LittleEndian.PutUint16(d[off:], x)
	case uint32:
		binary.LittleEndian.PutUint32(d[off:], x)
	case uint64:
		binary.LittleEndian.PutUint64(d[off:], x)
	}
	return d
}

func zlibBytes(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func zstdBytes(b []byte) []byte {
	e, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	return e.EncodeAll(b, nil)
}

// compressed replaces the tag's content with its compressed form
// (method 1 deflate, 2 zstd) and sets raw_length.
func compressed(tag string, method uint16, z func([]byte) []byte, rawDelta int) []byte {
	var raw []byte
	cs := withChunk(tag, func(c *tchunk) {
		raw = c.data
		c.data = z(c.data)
		c.flags |= method << 2
	})
	data := buildV2(cs...)
	for i, c := range cs {
		if c.tag == tag {
			data = patch(data, tocRow(i)+24, uint64(len(raw)+rawDelta))
		}
	}
	return data
}

func TestContainerRules(t *testing.T) {
	good := buildV2(minimalChunks()...)
	canvRow := tocRow(1)
	twoFrames := func(b []byte) []byte { return append(zstdBytes(b[:10]), zstdBytes(b[10:])...) }
	cases := []struct {
		name string
		data []byte
		want string // substring of the error; "" = must load
		opts []LoadOption
	}{
		{"good", good, "", nil},
		{"major 3", patch(good, 8, uint16(3)), "unsupported major version 3", nil},
		{"major 1 with minor", patch(good, 8, uint32(0x00050001)), "unsupported major version 1", nil},
		{"magic", patch(good, 0, uint8('X')), "not a .p2lrt file", nil},
		{"magic bytes 5-7", patch(good, 6, uint8(1)), "magic bytes 5-7 must be zero", nil},
		{"header flags reserved", patch(good, 12, uint32(2)), "reserved header flag bits", nil},
		{"toc offset", patch(good, 20, uint32(48)), "toc_offset", nil},
		{"header reserved", patch(good, 28, uint32(1)), "reserved header fields", nil},
		{"chunk count too big", patch(good, 16, uint32(0xFFFFFFFF)), "do not fit", nil},
		{"chunk version 0", patch(good, canvRow+4, uint16(0)), "toc[1].version: 0 is not allowed", nil},
		{"chunk flags reserved", patch(good, canvRow+6, uint16(1|16)), "toc[1].flags: reserved bits set", nil},
		{"reserved compression", patch(good, canvRow+6, uint16(1|12)), "reserved compression method", nil},
		{"crc without flag", patch(patch(good, canvRow+6, uint16(1)), canvRow+32, uint32(5)), "must be zero when the CRC flag is clear", nil},
		{"toc reserved", patch(good, canvRow+36, uint32(5)), "toc[1].reserved: must be zero", nil},
		{"misaligned", patch(good, canvRow+8, binary.LittleEndian.Uint64(good[canvRow+8:])+4), "not 16-byte aligned", nil},
		{"out of file", patch(good, canvRow+8, uint64((len(good)+15)&^15+16)), "outside the data area", nil},
		{"length past end", patch(good, canvRow+16, uint64(len(good))), "outside the data area", nil},
		{"overlap", patch(good, canvRow+8, binary.LittleEndian.Uint64(good[tocRow(0)+8:])), "overlaps", nil},
		{"raw_length uncompressed", patch(good, canvRow+24, uint64(21)), "raw_length = length", nil},
		{"trailing data", append(append([]byte(nil), good...), make([]byte, 16)...), "unused bytes", nil},
		{"trailing padding ok", append(append([]byte(nil), good...), make([]byte, 15-(len(good)+15)%16)...), "", nil},
		{"nonzero padding", append(append([]byte(nil), good...), 1), "padding byte is not zero", nil},
		{"duplicate canonical", buildV2(append(minimalChunks(), req("CANV", minimalChunks()[1].data))...), "appears more than once", nil},
		{"duplicate vendor ok", buildV2(append(minimalChunks(), tchunk{"zzzz", 1, 0, []byte{1}}, tchunk{"zzzz", 1, 0, nil})...), "", nil},
		{"vendor required", buildV2(append(minimalChunks(), tchunk{"zzzz", 1, 1, nil})...), "must not be flagged required", nil},
		{"bad tag", buildV2(append(minimalChunks(), tchunk{"Z z!", 1, 0, nil})...), "malformed chunk tag", nil},
		{"unknown optional skipped", buildV2(append(minimalChunks(), tchunk{"ZZZZ", 1, 0, []byte("anything")})...), "", nil},
		{"unknown required", buildV2(append(minimalChunks(), tchunk{"ZZZZ", 1, 1, nil})...), "requires feature ZZZZ", nil},
		{"newer version optional", buildV2(append(minimalChunks(), tchunk{"PHYS", 3, 0, []byte("future")})...), "", nil},
		{"newer version required", buildV2(append(minimalChunks(), tchunk{"PHYS", 3, 1, []byte("future")})...), "requires feature PHYS version 3", nil},
		// The required flag matters for unknown chunks only (issue 35;
		// TestCoreChunkNotFlaggedRequired).
		{"core not required", buildV2(withChunk("CANV", func(c *tchunk) { c.flags = 0 })...), "", nil},
		{"missing MESH", buildV2(without("MESH")...), "required core chunk MESH is missing", nil},
		{"missing STRS", buildV2(without("STRS")...), "required core chunk STRS is missing", nil},
		{"chunk too long", buildV2(withChunk("CANV", func(c *tchunk) { c.data = append(c.data, 0) })...), "1 bytes left over", nil},
		{"chunk too short", buildV2(withChunk("CANV", func(c *tchunk) { c.data = c.data[:19] })...), "truncated", nil},
		{"zero-length core chunk", buildV2(withChunk("CANV", func(c *tchunk) { c.data = nil })...), "truncated", nil},
		{"crc ok", buildV2(withChunk("CANV", func(c *tchunk) { c.flags |= 2 })...), "", []LoadOption{WithCRC()}},
		{"crc bad ignored", patch(buildV2(withChunk("CANV", func(c *tchunk) { c.flags |= 2 })...), canvRow+32, uint32(1)), "", nil},
		{"crc bad checked", patch(buildV2(withChunk("CANV", func(c *tchunk) { c.flags |= 2 })...), canvRow+32, uint32(1)), "CRC mismatch", []LoadOption{WithCRC()}},
		{"crc of skipped chunk checked", patch(buildV2(append(minimalChunks(), tchunk{"ZZZZ", 1, 2, []byte("x")})...), tocRow(7)+32, uint32(1)), "CRC mismatch", []LoadOption{WithCRC()}},
		{"deflate", compressed("PART", 1, zlibBytes, 0), "", nil},
		{"zstd", compressed("PART", 2, zstdBytes, 0), "", nil},
		{"deflate raw_length short", compressed("PART", 1, zlibBytes, -1), "raw_length", nil},
		{"deflate raw_length long", compressed("PART", 1, zlibBytes, 1), "raw_length", nil},
		{"zstd raw_length", compressed("PART", 2, zstdBytes, 1), "raw_length", nil},
		{"deflate truncated", compressed("PART", 1, func(b []byte) []byte { z := zlibBytes(b); return z[:len(z)-3] }, 0), "deflate", nil},
		{"deflate trailing", compressed("PART", 1, func(b []byte) []byte { return append(zlibBytes(b), 0) }, 0), "trailing bytes after the zlib stream", nil},
		{"deflate corrupt", compressed("PART", 1, func(b []byte) []byte { z := zlibBytes(b); z[len(z)-1] ^= 1; return z }, 0), "deflate", nil},
		{"zstd two frames", compressed("PART", 2, twoFrames, 0), "only one frame", nil},
		{"zstd dictionary", compressed("PART", 2, func(b []byte) []byte {
			// Frame header with a 1-byte dictionary id (FHD bits 0-1 = 1).
			z := zstdBytes(b)
			h := append([]byte(nil), z[:5]...)
			h[4] |= 1
			h = append(h, z[5:6]...) // window descriptor or first FCS byte
			return append(append(h, 7), z[6:]...)
		}, 0), "dictionary", nil},
		{"zstd truncated", compressed("PART", 2, func(b []byte) []byte { z := zstdBytes(b); return z[:len(z)-2] }, 0), "zstd", nil},
		{"raw_length over limit", compressed("PART", 1, zlibBytes, 0), "exceeds the limit", []LoadOption{WithMaxDecompressed(8)}},
		{"compressed skipped chunk not decoded", buildV2(append(minimalChunks(), tchunk{"ZZZZ", 1, 1 << 2, []byte("not zlib")})...), "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(c.data, c.opts...)
			checkErr(t, err, c.want)
		})
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("accepted; want error containing %q", want)
	}
	var fe *p2lrt.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %T is not a *FormatError: %v", err, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not contain %q", err, want)
	}
}

func TestFormatErrorFields(t *testing.T) {
	_, err := Load(buildV2(append(minimalChunks(), tchunk{"ZZZZ", 1, 1, nil})...))
	var fe *p2lrt.FormatError
	if !errors.As(err, &fe) || fe.Tag != "ZZZZ" || fe.Offset != int64(tocRow(8)) {
		t.Fatalf("%#v", fe)
	}
	// A field error names chunk, offset and field: MESH index 3 of a
	// triangle. The indices array is the last u16 array of the record.
	bad := withChunk("MESH", func(c *tchunk) {
		i := bytes.Index(c.data, []byte{16, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1, 0, 2, 0})
		c.data[i+12] = 3
	})
	data := buildV2(bad...)
	_, err = Load(data)
	if !errors.As(err, &fe) || fe.Tag != "MESH" || fe.Field != "meshes[0].indices" || !strings.Contains(fe.Msg, "index 3") {
		t.Fatalf("%v", err)
	}
	meshOff := binary.LittleEndian.Uint64(data[tocRow(5)+8:])
	if fe.Offset <= int64(meshOff) || fe.Offset >= int64(meshOff)+int64(len(bad[5].data)) {
		t.Fatalf("offset %d not inside MESH [%d, +%d)", fe.Offset, meshOff, len(bad[5].data))
	}
}

// TestReferenceErrorOffset: a reference error found after decoding names
// the chunk and points at the chunk's data.
func TestReferenceErrorOffset(t *testing.T) {
	cs := withChunk("DRAW", func(c *tchunk) { c.data[len(c.data)-4] = 5 }) // mesh 5 of 1
	data := buildV2(cs...)
	_, err := Load(data)
	var fe *p2lrt.FormatError
	if !errors.As(err, &fe) || fe.Tag != "DRAW" || !strings.Contains(fe.Msg, "mesh 5 out of range (1)") {
		t.Fatalf("%v", err)
	}
	if want := int64(binary.LittleEndian.Uint64(data[tocRow(6)+8:])); fe.Offset != want {
		t.Fatalf("offset %d, want DRAW's %d", fe.Offset, want)
	}
}
