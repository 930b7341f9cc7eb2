package moc3

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"
	"unsafe"
)

// Bounds of what Parse accepts (docs/LIMITS.md, "moc3").
const (
	// MaxFileSize is the largest file Parse reads.
	MaxFileSize = 256 << 20
	// MaxAxes is the most parameters one keyform binding may span (the
	// same bound as a .p2lrt grid's axes).
	MaxAxes = 16
	// MaxTexture is the largest texture number an art mesh may name. A
	// model's textures are its model3.json's list (the official samples
	// use one or two), and readers make a page for every number up to the
	// largest (ReadMoc's placeholders): a number near 2^31 in a damaged
	// file would have them make two billion.
	MaxTexture = 4095
)

const (
	headerSize  = 64
	tableOffset = 0x40
	canvasSize  = 21 // five f32 and the flags byte
)

// section is one array of the file, validated to lie inside it.
type section struct {
	off int // file offset of element 0
	n   int // elements
}

type reader struct {
	data  []byte
	big   bool // big-endian file
	v     Version
	count [numCounts]int
	sec   [numFields]section
	slot  [numFields]int // slot number of each field present, for errors

	// ids holds the bytes of the id array idsField (id).
	ids      string
	idsField fieldID
	idsOK    bool
}

// Parse reads a .moc3 file held in memory. A file it cannot read gives a
// *FormatError naming the section, object, field and byte offset at fault.
// The returned Moc is internally consistent: every index is in range, every
// keyform count matches its binding's grid, parent chains end.
//
// The Moc keeps data: the float and u16 arrays of a file in the machine's
// own byte order (keys, keyform positions, UVs, triangle indices…) are
// views of data's bytes, not copies. Do not modify data while the Moc, or
// anything sharing its arrays, is in use.
func Parse(data []byte) (*Moc, error) {
	r := &reader{data: data}
	if err := r.header(); err != nil {
		return nil, err
	}
	if err := r.table(); err != nil {
		return nil, err
	}
	b := &builder{r: r, m: &Moc{Version: r.v, BigEndian: r.big}}
	if err := b.build(); err != nil {
		return nil, err
	}
	return b.m, nil
}

func (r *reader) fail(section string, index int, id, field string, off int64, format string, args ...any) error {
	return &FormatError{Section: section, Index: index, ID: id, Field: field, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (r *reader) header() error {
	if len(r.data) > MaxFileSize {
		return r.fail("file", -1, "", "", -1, "%d bytes, more than the limit of %d", len(r.data), MaxFileSize)
	}
	if len(r.data) < headerSize {
		return r.fail("header", -1, "", "", 0, "file of %d bytes is shorter than the 64-byte header", len(r.data))
	}
	if string(r.data[:4]) != "MOC3" {
		return r.fail("header", -1, "", "magic", 0, "%q is not \"MOC3\"", r.data[:4])
	}
	r.v = Version(r.data[4])
	if r.v < V30 || r.v > V53 {
		return r.fail("header", -1, "", "version", 4, "version byte %d is not one of 1 (3.0) to 6 (5.3)", r.data[4])
	}
	switch r.data[5] {
	case 0:
	case 1:
		r.big = true
	default:
		return r.fail("header", -1, "", "endian flag", 5, "%d is neither 0 (little-endian) nor 1 (big-endian)", r.data[5])
	}
	return nil
}

// extent is a byte range of the file claimed by one table, for the overlap
// check.
type extent struct {
	start, end int
	name       string
	slot       int
}

// table reads the section offset table, the counts and checks that every
// array lies inside the file and that no two overlap.
func (r *reader) table() error {
	slots := slotCount(r.v)
	end := tableOffset + 4*slots
	if end > len(r.data) {
		return r.fail("section offset table", -1, "", "", tableOffset, "%d slots of version %s need %d bytes, the file has %d", slots, r.v, end, len(r.data))
	}
	ext := make([]extent, 0, slots+2)
	ext = append(ext, extent{0, end, "header and section offset table", -1})

	countAt := int(r.u32(tableOffset))
	ncounts := countTableLen(r.v)
	if uint64(countAt)+uint64(4*ncounts) > uint64(len(r.data)) {
		return r.fail("count table", -1, "", "", tableOffset, "%d counts at offset 0x%x run past the end of the file (%d bytes)", ncounts, countAt, len(r.data))
	}
	ext = append(ext, extent{countAt, countAt + 4*ncounts, "count table", 0})
	for c := range ncounts {
		v := r.u32(countAt + 4*c)
		if v > uint32(len(r.data)) {
			return r.fail("count table", -1, "", countNames[c], int64(countAt+4*c), "count %d exceeds the file size", v)
		}
		r.count[c] = int(v)
	}
	canvasAt := int(r.u32(tableOffset + 4))
	if uint64(canvasAt)+canvasSize > uint64(len(r.data)) {
		return r.fail("canvas", -1, "", "", tableOffset+4, "canvas block at offset 0x%x runs past the end of the file (%d bytes)", canvasAt, len(r.data))
	}
	ext = append(ext, extent{canvasAt, canvasAt + canvasSize, "canvas", 1})

	slot := 2
	for f := range numFields {
		d := &fields[f]
		if d.since > r.v {
			r.slot[f] = -1
			continue
		}
		r.slot[f] = slot
		slotAt := tableOffset + 4*slot
		slot++
		size := elemSize[d.kind]
		if size == 0 {
			continue // runtime space or unknown: never read
		}
		n := r.count[d.count]
		if n == 0 {
			continue // empty arrays may point anywhere, even at the end of the file
		}
		off := int(r.u32(slotAt))
		bytes := uint64(n) * uint64(size)
		if uint64(off)+bytes > uint64(len(r.data)) {
			return r.fail("section offset table", -1, "", d.name, int64(slotAt),
				"%d × %d bytes (%s) at offset 0x%x run past the end of the file (%d bytes)", n, size, countNames[d.count], off, len(r.data))
		}
		r.sec[f] = section{off: off, n: n}
		ext = append(ext, extent{off, off + int(bytes), d.name, slot - 1})
	}
	// Arrays of a file never share bytes; refusing overlaps keeps what Parse
	// allocates proportional to the file (docs/LIMITS.md).
	sort.Slice(ext, func(i, j int) bool {
		if ext[i].start != ext[j].start {
			return ext[i].start < ext[j].start
		}
		return ext[i].end < ext[j].end
	})
	for i := 1; i < len(ext); i++ {
		if ext[i].start < ext[i-1].end {
			return r.fail("section offset table", -1, "", ext[i].name, int64(ext[i].start),
				"overlaps %s (bytes 0x%x–0x%x)", ext[i-1].name, ext[i-1].start, ext[i-1].end)
		}
	}
	return nil
}

// u32 reads the file's byte order without an interface call: the decoding
// loops are the reader's hot path.
func (r *reader) u32(off int) uint32 {
	if r.big {
		return binary.BigEndian.Uint32(r.data[off:])
	}
	return binary.LittleEndian.Uint32(r.data[off:])
}

// at is the file offset of element i of field f.
func (r *reader) at(f fieldID, i int) int {
	return r.sec[f].off + i*elemSize[fields[f].kind]
}

func (r *reader) i32(f fieldID, i int) int32 { return int32(r.u32(r.at(f, i))) }

func (r *reader) f32(f fieldID, i int) float32 { return math.Float32frombits(r.u32(r.at(f, i))) }

func (r *reader) u8(f fieldID, i int) uint8 { return r.data[r.at(f, i)] }

func (r *reader) u16(f fieldID, i int) uint16 {
	if r.big {
		return binary.BigEndian.Uint16(r.data[r.at(f, i):])
	}
	return binary.LittleEndian.Uint16(r.data[r.at(f, i):])
}

// f32Array returns the n floats at file offset off (inside the file).
// A file in the machine's own byte order (every file the Editor writes, on
// every common machine) is not copied when the array is aligned: the
// result is a view of the file's memory (docs/CUBISM.md, "Reading a
// .moc3"), so the keyform positions, most of a file, cost nothing to read.
func (r *reader) f32Array(off, n int) []float32 {
	if n == 0 {
		return nil
	}
	if v := view[float32](r, off, n); v != nil {
		return v
	}
	out := make([]float32, n)
	r.f32s(out, off)
	return out
}

// i32Array returns the n i32 values at file offset off, as f32Array.
func (r *reader) i32Array(off, n int) []int32 {
	if n == 0 {
		return nil
	}
	if v := view[int32](r, off, n); v != nil {
		return v
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(r.u32(off + 4*i))
	}
	return out
}

// u16Array returns the n u16 values at file offset off, as f32Array.
func (r *reader) u16Array(off, n int) []uint16 {
	if n == 0 {
		return nil
	}
	if v := view[uint16](r, off, n); v != nil {
		return v
	}
	out := make([]uint16, n)
	r.u16s(out, off)
	return out
}

// view returns the n values at file offset off as a slice of the file's
// own memory, capped at its length, when the file is in the machine's byte
// order and the offset aligned for T; nil otherwise. The
// values hold no pointers, so any bytes make valid ones.
func view[T float32 | uint16 | int32](r *reader, off, n int) []T {
	if r.big != hostBigEndian {
		return nil
	}
	b := r.data[off : off+n*int(unsafe.Sizeof(T(0)))]
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%unsafe.Alignof(T(0)) != 0 {
		return nil
	}
	return unsafe.Slice((*T)(p), n)
}

// f32s decodes len(dst) floats starting at file offset off: a copy in the
// machine's byte order, else eight floats a step, each eight taken as
// arrays with one bounds check. (A generic function over binary.ByteOrder
// would call Uint32 through a dictionary, five times slower.)
func (r *reader) f32s(dst []float32, off int) {
	b := r.data[off : off+4*len(dst)]
	switch {
	case r.big == hostBigEndian:
		copy(bytesOf(dst), b)
	case r.big:
		for len(dst) >= 8 {
			x, y := (*[32]byte)(b), (*[8]float32)(dst)
			for k := range y {
				y[k] = math.Float32frombits(binary.BigEndian.Uint32(x[4*k:]))
			}
			b, dst = b[32:], dst[8:]
		}
		for i := range dst {
			dst[i] = math.Float32frombits(binary.BigEndian.Uint32(b[4*i:]))
		}
	default:
		for len(dst) >= 8 {
			x, y := (*[32]byte)(b), (*[8]float32)(dst)
			for k := range y {
				y[k] = math.Float32frombits(binary.LittleEndian.Uint32(x[4*k:]))
			}
			b, dst = b[32:], dst[8:]
		}
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
}

// u16s decodes len(dst) u16 values starting at file offset off, as f32s.
func (r *reader) u16s(dst []uint16, off int) {
	b := r.data[off : off+2*len(dst)]
	switch {
	case r.big == hostBigEndian:
		copy(bytesOf(dst), b)
	case r.big:
		for i := range dst {
			dst[i] = binary.BigEndian.Uint16(b[2*i:])
		}
	default:
		for i := range dst {
			dst[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
	}
}

// hostBigEndian tells the machine's byte order.
var hostBigEndian = binary.NativeEndian.Uint16([]byte{0, 1}) == 1

// bytesOf is the memory of s as bytes: s's elements hold no pointers, so
// writing them byte by byte is sound, and a file value copied in the
// machine's byte order reads back as the value.
func bytesOf[T float32 | uint16](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

func (r *reader) bool32(f fieldID, i int) bool { return r.u32(r.at(f, i)) != 0 }

// id returns element i of an id array: the bytes up to the first NUL.
// The ids of one array are substrings of one string of the array's bytes,
// made when the first of them is asked for: one allocation per array, not
// one per id (the objects of a section are read in order, so the last
// array's string is all that is kept).
func (r *reader) id(f fieldID, i int) string {
	if !r.idsOK || r.idsField != f {
		s := r.sec[f]
		r.ids, r.idsField, r.idsOK = string(r.data[s.off:s.off+64*s.n]), f, true
	}
	b := r.ids[64*i : 64*i+64]
	if k := strings.IndexByte(b, 0); k >= 0 {
		return b[:k]
	}
	return b
}

// has tells whether the version has field f.
func (r *reader) has(f fieldID) bool { return r.slot[f] >= 0 }
