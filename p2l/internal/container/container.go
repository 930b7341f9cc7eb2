// Package container reads and writes the .p2lrt 2.0 container: the 32-byte
// header, the chunk table (TOC), chunk placement (16-byte alignment, no
// overlap, no trailing data), chunk compression and CRC32. It knows nothing
// about chunk contents.
package container

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strconv"
)

// Sizes and constants of the container (P2LRT_V2.md, "容器").
const (
	HeaderSize = 32
	EntrySize  = 40
	Align      = 16

	// FlagNamesStripped is header flag bit0.
	FlagNamesStripped = 1

	// Chunk flag bits.
	ChunkRequired = 1
	ChunkCRC      = 2
	compressShift = 2
	compressMask  = 3 << compressShift
)

// Magic is the 5 magic bytes v1 and v2 share; bytes 5–7 are zero.
const Magic = "P2LRT"

// Compression is a chunk compression method (chunk flags bits 2–3).
type Compression uint8

// Compression methods.
const (
	None     Compression = 0
	Deflate  Compression = 1
	Zstd     Compression = 2
	reserved Compression = 3
)

// String returns "none", "deflate" or "zstd".
func (c Compression) String() string {
	switch c {
	case None:
		return "none"
	case Deflate:
		return "deflate"
	case Zstd:
		return "zstd"
	}
	return "reserved(" + strconv.Itoa(int(c)) + ")"
}

// Error is a container-level format error. Offset is a file offset, Tag the
// chunk concerned (empty for the header).
type Error struct {
	Tag    string
	Offset int64
	Field  string
	Msg    string
}

// Error formats the error with its tag, offset and field.
func (e *Error) Error() string {
	s := "p2lrt"
	if e.Tag != "" {
		s += " chunk " + e.Tag
	}
	s += " at offset " + strconv.FormatInt(e.Offset, 10)
	if e.Field != "" {
		s += ": " + e.Field
	}
	return s + ": " + e.Msg
}

func errf(tag string, off int64, field, format string, args ...any) *Error {
	return &Error{Tag: tag, Offset: off, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Header is the decoded v2 file header.
type Header struct {
	Major, Minor uint16
	Flags        uint32
}

// Entry is one TOC row.
type Entry struct {
	Tag       string
	Version   uint16
	Flags     uint16
	Offset    uint64
	Length    uint64
	RawLength uint64
	CRC       uint32
	// TOCOffset is where this row sits in the file (for error messages).
	TOCOffset int64
}

// Required reports the chunk's required flag.
func (e *Entry) Required() bool { return e.Flags&ChunkRequired != 0 }

// HasCRC reports the chunk's CRC flag.
func (e *Entry) HasCRC() bool { return e.Flags&ChunkCRC != 0 }

// Compression returns the chunk's compression method.
func (e *Entry) Compression() Compression {
	return Compression(e.Flags&compressMask) >> compressShift
}

// Canonical reports whether tag is a canonical (upper-case) tag.
func Canonical(tag string) bool { return len(tag) == 4 && tag[0] >= 'A' && tag[0] <= 'Z' }

// validTag reports whether tag is a well-formed tag: canonical tags are
// A–Z followed by A–Z or 0–9; vendor tags start with a–z followed by
// printable ASCII.
func validTag(t string) bool {
	if len(t) != 4 {
		return false
	}
	switch {
	case t[0] >= 'A' && t[0] <= 'Z':
		for i := 1; i < 4; i++ {
			c := t[i]
			if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
	case t[0] >= 'a' && t[0] <= 'z':
		for i := 1; i < 4; i++ {
			if t[i] < 0x21 || t[i] > 0x7e {
				return false
			}
		}
	default:
		return false
	}
	return true
}

// ValidTag reports whether t is a well-formed chunk tag (see FORMAT.md).
func ValidTag(t string) bool { return validTag(t) }

// SniffVersion reads the magic and the u32 that follows it. It returns 1
// for a v1 file and 2 for a v2 file.
func SniffVersion(data []byte) (int, error) {
	if len(data) < 12 {
		return 0, errf("", 0, "header", "file too short (%d bytes)", len(data))
	}
	if string(data[:5]) != Magic {
		return 0, errf("", 0, "magic", "not a .p2lrt file (magic %q)", data[:5])
	}
	if data[5] != 0 || data[6] != 0 || data[7] != 0 {
		return 0, errf("", 5, "magic", "magic bytes 5-7 must be zero, got % x", data[5:8])
	}
	v := binary.LittleEndian.Uint32(data[8:])
	switch {
	case v == 1:
		return 1, nil
	case v&0xFFFF == 2:
		return 2, nil
	}
	return 0, errf("", 8, "major", "unsupported major version %d (this reader supports 1 and 2)", v&0xFFFF)
}

// maxInt is the largest offset this platform can address.
const maxInt = uint64(math.MaxInt)

// Parse decodes and checks the header and the TOC of a v2 file: every row's
// tag, flags, reserved fields, bounds, alignment, raw length, and that no
// two chunks overlap and only zero padding lies between and after them. It
// does not decompress or CRC-check anything.
func Parse(data []byte) (Header, []Entry, error) {
	return parse(data, maxInt)
}

func parse(data []byte, addrMax uint64) (Header, []Entry, error) {
	var h Header
	if v, err := SniffVersion(data); err != nil {
		return h, nil, err
	} else if v != 2 {
		return h, nil, errf("", 8, "major", "not a v2 file")
	}
	if len(data) < HeaderSize {
		return h, nil, errf("", 0, "header", "file too short for the header (%d bytes)", len(data))
	}
	le := binary.LittleEndian
	h.Major = le.Uint16(data[8:])
	h.Minor = le.Uint16(data[10:])
	h.Flags = le.Uint32(data[12:])
	count := le.Uint32(data[16:])
	toc := le.Uint32(data[20:])
	if h.Flags&^FlagNamesStripped != 0 {
		return h, nil, errf("", 12, "flags", "reserved header flag bits set (0x%x)", h.Flags)
	}
	if toc != HeaderSize {
		return h, nil, errf("", 20, "toc_offset", "must be %d, got %d", HeaderSize, toc)
	}
	if r := le.Uint64(data[24:]); r != 0 {
		return h, nil, errf("", 24, "reserved", "reserved header fields must be zero")
	}
	// Check the count against the file before allocating the table.
	if uint64(count) > (uint64(len(data))-HeaderSize)/EntrySize {
		return h, nil, errf("", 16, "chunk_count", "%d chunks do not fit in a %d-byte file", count, len(data))
	}
	entries := make([]Entry, count)
	fileLen := uint64(len(data))
	tocEnd := uint64(HeaderSize) + uint64(count)*EntrySize
	seen := make(map[string]bool, count)
	for i := range entries {
		p := HeaderSize + i*EntrySize
		row := data[p : p+EntrySize]
		e := &entries[i]
		row_ := func(f string) string { return fmt.Sprintf("toc[%d].%s", i, f) }
		e.TOCOffset = int64(p)
		e.Tag = string(row[:4])
		e.Version = le.Uint16(row[4:])
		e.Flags = le.Uint16(row[6:])
		e.Offset = le.Uint64(row[8:])
		e.Length = le.Uint64(row[16:])
		e.RawLength = le.Uint64(row[24:])
		e.CRC = le.Uint32(row[32:])
		tag := e.Tag
		if !validTag(tag) {
			return h, nil, errf(fmt.Sprintf("%q", tag), int64(p), row_("tag"), "malformed chunk tag")
		}
		if e.Version == 0 {
			return h, nil, errf(tag, int64(p+4), row_("version"), "0 is not allowed")
		}
		if e.Flags&^(ChunkRequired|ChunkCRC|compressMask) != 0 {
			return h, nil, errf(tag, int64(p+6), row_("flags"), "reserved bits set (0x%x)", e.Flags)
		}
		if e.Compression() == reserved {
			return h, nil, errf(tag, int64(p+6), row_("flags"), "reserved compression method 3")
		}
		if !e.HasCRC() && e.CRC != 0 {
			return h, nil, errf(tag, int64(p+32), row_("crc32"), "must be zero when the CRC flag is clear")
		}
		if r := le.Uint32(row[36:]); r != 0 {
			return h, nil, errf(tag, int64(p+36), row_("reserved"), "must be zero")
		}
		if !Canonical(tag) && e.Required() {
			return h, nil, errf(tag, int64(p+6), row_("flags"), "a vendor chunk must not be flagged required")
		}
		if Canonical(tag) {
			if seen[tag] {
				return h, nil, errf(tag, int64(p), row_("tag"), "canonical chunk %s appears more than once", tag)
			}
			seen[tag] = true
		}
		if e.Offset > addrMax || e.Length > addrMax || e.RawLength > addrMax {
			return h, nil, errf(tag, int64(p+8), row_("offset"), "offset or length beyond this platform's address width")
		}
		if e.Offset%Align != 0 {
			return h, nil, errf(tag, int64(p+8), row_("offset"), "%d is not 16-byte aligned", e.Offset)
		}
		if e.Offset < tocEnd || e.Offset > fileLen || e.Length > fileLen-e.Offset {
			return h, nil, errf(tag, int64(p+8), row_("offset"), "the chunk [%d, +%d) lies outside the data area [%d, %d)", e.Offset, e.Length, tocEnd, fileLen)
		}
		if e.Compression() == None && e.RawLength != e.Length {
			return h, nil, errf(tag, int64(p+24), row_("raw_length"), "an uncompressed chunk needs raw_length = length (%d ≠ %d)", e.RawLength, e.Length)
		}
	}
	// Placement: sort by offset, then every gap (after the TOC, between
	// chunks, at the end) must be zero padding shorter than 16 bytes.
	order := make([]int, count)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ea, eb := &entries[a], &entries[b]
		if ea.Offset != eb.Offset {
			if ea.Offset < eb.Offset {
				return -1
			}
			return 1
		}
		// Zero-length chunks first so they never "overlap" a chunk at the
		// same offset.
		if ea.Length < eb.Length {
			return -1
		} else if ea.Length > eb.Length {
			return 1
		}
		return 0
	})
	pos := tocEnd
	for _, i := range order {
		e := &entries[i]
		if e.Offset < pos {
			return h, nil, errf(e.Tag, int64(e.Offset), "data", "overlaps the table or the previous chunk (which ends at %d)", pos)
		}
		if err := checkPadding(data, pos, e.Offset); err != nil {
			return h, nil, err
		}
		pos = e.Offset + e.Length
	}
	if err := checkPadding(data, pos, fileLen); err != nil {
		return h, nil, err
	}
	return h, entries, nil
}

// checkPadding checks that data[from:to] is alignment padding: zero bytes,
// fewer than 16.
func checkPadding(data []byte, from, to uint64) error {
	if to-from >= Align {
		return errf("", int64(from), "padding", "%d unused bytes (only zero padding to the next 16-byte boundary is allowed)", to-from)
	}
	for p := from; p < to; p++ {
		if data[p] != 0 {
			return errf("", int64(p), "padding", "padding byte is not zero")
		}
	}
	return nil
}

// Stored returns the stored bytes of e (as on disk, compressed or not).
func Stored(data []byte, e *Entry) []byte { return data[e.Offset : e.Offset+e.Length] }

// CheckCRC verifies the CRC of e when its CRC flag is set.
func CheckCRC(data []byte, e *Entry) error {
	if !e.HasCRC() {
		return nil
	}
	if got := crc32.ChecksumIEEE(Stored(data, e)); got != e.CRC {
		return errf(e.Tag, e.TOCOffset+32, "crc32", "CRC mismatch: stored 0x%08x, computed 0x%08x", e.CRC, got)
	}
	return nil
}

// Content returns the chunk's content: the stored bytes when uncompressed,
// otherwise the decompressed bytes, which must be exactly raw_length long.
// limit bounds raw_length.
func Content(data []byte, e *Entry, limit int64) ([]byte, error) {
	stored := Stored(data, e)
	if e.Compression() == None {
		return stored, nil
	}
	if limit >= 0 && e.RawLength > uint64(limit) {
		return nil, errf(e.Tag, e.TOCOffset+24, "raw_length", "decompressed size %d exceeds the limit %d", e.RawLength, limit)
	}
	out, err := decompress(e.Compression(), stored, int64(e.RawLength))
	if err != nil {
		return nil, errf(e.Tag, int64(e.Offset), "compression", "%s: %v", e.Compression(), err)
	}
	return out, nil
}

// ChunkData is one chunk handed to Write.
type ChunkData struct {
	Tag      string
	Version  uint16
	Required bool
	Data     []byte // uncompressed content
	// Compress asks for compression; the chunk is stored compressed only
	// when that makes it smaller.
	Compress Compression
}

// Write lays out a v2 file: header, TOC, then the chunks in the given
// order, each 16-byte aligned with zero padding and no padding after the
// last one.
func Write(flags uint32, minor uint16, chunks []ChunkData, crc bool) ([]byte, error) {
	type placed struct {
		stored []byte
		flags  uint16
		raw    uint64
	}
	ps := make([]placed, len(chunks))
	size := uint64(HeaderSize + EntrySize*len(chunks))
	for i, c := range chunks {
		if !validTag(c.Tag) || c.Version == 0 {
			return nil, fmt.Errorf("p2lrt: bad chunk tag %q or version %d", c.Tag, c.Version)
		}
		p := placed{stored: c.Data, raw: uint64(len(c.Data))}
		if c.Required {
			p.flags |= ChunkRequired
		}
		if c.Compress != None && len(c.Data) > 0 {
			z, err := compress(c.Compress, c.Data)
			if err != nil {
				return nil, err
			}
			if len(z) < len(c.Data) {
				p.stored = z
				p.flags |= uint16(c.Compress) << compressShift
			}
		}
		if crc {
			p.flags |= ChunkCRC
		}
		ps[i] = p
		size = alignUp(size) + uint64(len(p.stored))
	}
	out := make([]byte, size)
	le := binary.LittleEndian
	copy(out, Magic)
	le.PutUint16(out[8:], 2)
	le.PutUint16(out[10:], minor)
	le.PutUint32(out[12:], flags)
	le.PutUint32(out[16:], uint32(len(chunks)))
	le.PutUint32(out[20:], HeaderSize)
	pos := uint64(HeaderSize + EntrySize*len(chunks))
	for i, c := range chunks {
		p := ps[i]
		pos = alignUp(pos)
		row := out[HeaderSize+i*EntrySize:]
		copy(row, c.Tag)
		le.PutUint16(row[4:], c.Version)
		le.PutUint16(row[6:], p.flags)
		le.PutUint64(row[8:], pos)
		le.PutUint64(row[16:], uint64(len(p.stored)))
		le.PutUint64(row[24:], p.raw)
		if crc {
			le.PutUint32(row[32:], crc32.ChecksumIEEE(p.stored))
		}
		copy(out[pos:], p.stored)
		pos += uint64(len(p.stored))
	}
	return out, nil
}

func alignUp(n uint64) uint64 { return (n + Align - 1) &^ (Align - 1) }
