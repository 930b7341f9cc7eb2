package p2lrt

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/psd2live/p2l-ebiten/p2l/internal/half"
	"github.com/psd2live/p2l-ebiten/p2l/internal/nonfinite"
)

// coder reads or writes one chunk (or the whole v1 stream). Every chunk
// layout is written once, as a sequence of coder calls on the model's
// fields; the same description then decodes v2, encodes v2, decodes v1 and
// encodes v1, so reader and writer cannot disagree. Local rules (finite
// floats, 0/1 booleans, ascending keys, keyform sizes, bounded counts) are
// checked in both directions; cross-references are checked by checkRefs.
//
// After the first error every call is a no-op, so chunk code needs no error
// plumbing; loops stop via seq.
type coder struct {
	read    bool
	v1      bool
	tag     string
	version uint16 // chunk version being coded
	err     error

	// Reading.
	b            []byte
	pos          int
	base         int64 // file offset of b[0]
	decompressed bool
	strs         []string

	// Writing.
	out      []byte
	strIndex map[string]uint32
	strList  *[]string
	codec    FloatCodec

	// Names stripped: reading requires empty names, writing writes none.
	stripped bool
	// checkOnly: writing to check the model (Validate), whose bytes are
	// discarded: the elements of arrays (floats, uints, bytes) are checked
	// and not copied, and array headers, scalars, counts and string
	// references are not written either.
	checkOnly bool

	path []pathElem
	cext *[]cextRecord
}

type pathElem struct {
	name string
	idx  int // −1: not an element
}

var le = binary.LittleEndian

func (c *coder) ok() bool { return c.err == nil }

func (c *coder) push(name string) { c.path = append(c.path, pathElem{name, -1}) }
func (c *coder) at(i int)         { c.path[len(c.path)-1].idx = i }
func (c *coder) pop()             { c.path = c.path[:len(c.path)-1] }

func (c *coder) fieldPath(f string) string {
	var sb strings.Builder
	for _, p := range c.path {
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(p.name)
		if p.idx >= 0 {
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(p.idx))
			sb.WriteByte(']')
		}
	}
	if f != "" {
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(f)
	}
	return sb.String()
}

// failAt records the first error, at content position pos (reading).
func (c *coder) failAt(pos int, f, format string, args ...any) {
	if c.err != nil {
		return
	}
	e := &FormatError{Tag: c.tag, Offset: -1, Field: c.fieldPath(f), Msg: fmt.Sprintf(format, args...)}
	if c.read {
		e.Offset = c.base + int64(pos)
		e.Decompressed = c.decompressed
	}
	c.err = e
}

func (c *coder) fail(f, format string, args ...any) { c.failAt(c.pos, f, format, args...) }

// need checks that n more bytes remain (reading).
func (c *coder) need(n int, f string) bool {
	if c.err != nil {
		return false
	}
	if n < 0 || len(c.b)-c.pos < n {
		c.fail(f, "truncated: need %d bytes, %d remain", n, len(c.b)-c.pos)
		return false
	}
	return true
}

func (c *coder) remaining() int { return len(c.b) - c.pos }

// ---- scalars ----

func (c *coder) u8(p *uint8, f string) {
	if c.read {
		if c.need(1, f) {
			*p = c.b[c.pos]
			c.pos++
		}
		return
	}
	if !c.checkOnly {
		c.out = append(c.out, *p)
	}
}

// max8 codes a u8 that must be ≤ max.
func (c *coder) max8(p *uint8, max uint8, f string) {
	pos := c.pos
	c.u8(p, f)
	if c.ok() && *p > max {
		c.failAt(pos, f, "value %d out of range (max %d)", *p, max)
	}
}

func (c *coder) bool8(p *bool, f string) {
	var v uint8
	if *p {
		v = 1
	}
	c.max8(&v, 1, f)
	if c.read {
		*p = v == 1
	}
}

func (c *coder) u16(p *uint16, f string) {
	if c.read {
		if c.need(2, f) {
			*p = le.Uint16(c.b[c.pos:])
			c.pos += 2
		}
		return
	}
	if !c.checkOnly {
		c.out = le.AppendUint16(c.out, *p)
	}
}

func (c *coder) u32(p *uint32, f string) {
	if c.read {
		if c.need(4, f) {
			*p = le.Uint32(c.b[c.pos:])
			c.pos += 4
		}
		return
	}
	if !c.checkOnly {
		c.out = le.AppendUint32(c.out, *p)
	}
}

func (c *coder) i32(p *int32, f string) {
	u := uint32(*p)
	c.u32(&u, f)
	if c.read {
		*p = int32(u)
	}
}

func (c *coder) f32(p *float32, f string) { c.f32Field(p, f, "") }

// f32Field codes an f32 whose field name is f+suffix (joined only for an
// error).
func (c *coder) f32Field(p *float32, f, suffix string) {
	if c.read {
		if c.need(4, f) {
			bits := le.Uint32(c.b[c.pos:])
			if bits&0x7f800000 == 0x7f800000 {
				c.fail(f+suffix, "not a finite number")
				return
			}
			*p = math.Float32frombits(bits)
			c.pos += 4
		}
		return
	}
	if !finite(*p) {
		c.fail(f+suffix, "not a finite number (%v)", *p)
		return
	}
	if !c.checkOnly {
		c.out = le.AppendUint32(c.out, math.Float32bits(*p))
	}
}

func finite(f float32) bool { return nonfinite.Finite(f) }

func (c *coder) rgb(p *Color, f string) {
	c.f32Field(&p[0], f, ".r")
	c.f32Field(&p[1], f, ".g")
	c.f32Field(&p[2], f, ".b")
}

// ref codes a u32 index into an int. Its target is checked by checkRefs.
func (c *coder) ref(p *int, f string) {
	if !c.read && (*p < 0 || int64(*p) > math.MaxUint32-1) {
		c.fail(f, "index %d out of range", *p)
		return
	}
	u := uint32(*p)
	pos := c.pos
	c.u32(&u, f)
	if c.read && c.ok() {
		if uint64(u) > math.MaxInt32 {
			c.failAt(pos, f, "index %d out of range", u)
			return
		}
		*p = int(u)
	}
}

// nref codes a nullable i32 index: −1 is none. The reader takes any
// negative value as none (rig.rs optional; the spec names −1 only) and
// keeps it as −1, which the writer writes.
func (c *coder) nref(p *int, f string) {
	if !c.read && (*p < -1 || *p > math.MaxInt32) {
		c.fail(f, "index %d out of range", *p)
		return
	}
	v := int32(*p)
	c.i32(&v, f)
	if c.read && c.ok() {
		*p = int(max(v, -1))
	}
}

// anyI32 codes an i32 into an int, any value allowed.
func (c *coder) anyI32(p *int, f string) {
	if !c.read && (*p < math.MinInt32 || *p > math.MaxInt32) {
		c.fail(f, "value %d does not fit in an i32", *p)
		return
	}
	v := int32(*p)
	c.i32(&v, f)
	if c.read && c.ok() {
		*p = int(v)
	}
}

// sref codes a string: an STRS index in v2 (0xFFFFFFFF for ""), an inline
// u32 length + UTF-8 bytes in v1.
func (c *coder) sref(p *string, f string) {
	if c.v1 {
		c.inlineStr(p, f)
		return
	}
	if c.read {
		var u uint32
		pos := c.pos
		c.u32(&u, f)
		if !c.ok() {
			return
		}
		switch {
		case u == 0xFFFFFFFF:
			*p = ""
		case uint64(u) < uint64(len(c.strs)):
			*p = c.strs[u]
		default:
			c.failAt(pos, f, "string index %d out of range (STRS has %d)", u, len(c.strs))
		}
		return
	}
	if *p == "" {
		if !c.checkOnly {
			c.out = le.AppendUint32(c.out, 0xFFFFFFFF)
		}
		return
	}
	if !utf8.ValidString(*p) {
		c.fail(f, "string is not valid UTF-8")
		return
	}
	if c.checkOnly {
		return
	}
	i, ok := c.strIndex[*p]
	if !ok {
		i = uint32(len(*c.strList))
		c.strIndex[*p] = i
		*c.strList = append(*c.strList, *p)
	}
	c.out = le.AppendUint32(c.out, i)
}

func (c *coder) inlineStr(p *string, f string) {
	if c.read {
		var n uint32
		c.u32(&n, f)
		if !c.need(int(min(uint64(n), math.MaxInt32)), f) {
			return
		}
		s := c.b[c.pos : c.pos+int(n)]
		if !utf8.Valid(s) {
			c.fail(f, "string is not valid UTF-8")
			return
		}
		*p = string(s)
		c.pos += int(n)
		return
	}
	if !utf8.ValidString(*p) {
		c.fail(f, "string is not valid UTF-8")
		return
	}
	c.out = le.AppendUint32(c.out, uint32(len(*p)))
	c.out = append(c.out, *p...)
}

// name codes a display name: empty when names are stripped.
func (c *coder) name(p *string, f string) {
	if !c.read && c.stripped {
		var empty string
		c.sref(&empty, f)
		return
	}
	pos := c.pos
	c.sref(p, f)
	if c.read && c.stripped && *p != "" {
		c.failAt(pos, f, "names are stripped (header flag) but this name is set")
	}
}

// count codes a record count of the given byte width (1, 2 or 4). Reading,
// it checks that n records of at least minSize bytes fit in what remains,
// before anything is allocated.
func (c *coder) count(n int, width, minSize int, f string) int {
	if c.read {
		var v uint32
		pos := c.pos
		switch width {
		case 1:
			var b uint8
			c.u8(&b, f)
			v = uint32(b)
		case 2:
			var h uint16
			c.u16(&h, f)
			v = uint32(h)
		default:
			c.u32(&v, f)
		}
		if !c.ok() {
			return 0
		}
		if uint64(v)*uint64(minSize) > uint64(c.remaining()) {
			c.failAt(pos, f, "count %d does not fit in the %d bytes that remain", v, c.remaining())
			return 0
		}
		return int(v)
	}
	max := uint64(1)<<(8*width) - 1
	if uint64(n) > max {
		c.fail(f, "%d entries exceed the count width (max %d)", n, max)
		return 0
	}
	if c.checkOnly {
		return n
	}
	switch width {
	case 1:
		c.out = append(c.out, uint8(n))
	case 2:
		c.out = le.AppendUint16(c.out, uint16(n))
	default:
		c.out = le.AppendUint32(c.out, uint32(n))
	}
	return n
}

// seq codes a counted list of records.
func seq[T any](c *coder, s *[]T, width, minSize int, f string, each func(c *coder, e *T)) {
	n := c.count(len(*s), width, minSize, f)
	if !c.ok() {
		return
	}
	if c.read {
		*s = nil
		if n > 0 {
			*s = make([]T, n)
		}
	}
	c.push(f)
	for i := range *s {
		c.at(i)
		each(c, &(*s)[i])
		if !c.ok() {
			break
		}
	}
	c.pop()
}

// refs codes u32 n × ref.
func (c *coder) refs(s *[]int, f string) {
	seq(c, s, 4, 4, f, func(c *coder, p *int) { c.ref(p, "") })
}

// ---- arrays ----

// Array codecs (P2LRT_V2.md, "数组编码").
const (
	codecF32     = 0
	codecF16     = 1
	codecUnorm16 = 2
	codecU16     = 16
	codecU32     = 17
	codecU8      = 32
)

// arrayHint says which optional codec the writer may use for an array.
type arrayHint uint8

const (
	hintPlain    arrayHint = iota
	hintPosition           // f16 with CodecF16
	hintUV                 // unorm16 with CodecF16
)

// arrayHeader codes the v2 array header (zero padding to 4-byte alignment,
// u8 codec, u8 reserved[3], u32 count) and returns codec and count.
// elemSize returns the element size of an accepted codec, 0 for a codec
// this array does not accept.
func (c *coder) arrayHeader(codec uint8, n int, f string, elemSize func(uint8) int) (uint8, int) {
	if c.read {
		if c.err != nil {
			return 0, 0
		}
		for c.pos%4 != 0 {
			if !c.need(1, f) {
				return 0, 0
			}
			if c.b[c.pos] != 0 {
				c.fail(f, "array padding byte is not zero")
				return 0, 0
			}
			c.pos++
		}
		if !c.need(8, f) {
			return 0, 0
		}
		codec = c.b[c.pos]
		pos := c.pos
		if c.b[c.pos+1]|c.b[c.pos+2]|c.b[c.pos+3] != 0 {
			c.failAt(pos+1, f, "array reserved bytes are not zero")
			return 0, 0
		}
		cnt := le.Uint32(c.b[c.pos+4:])
		c.pos += 8
		size := elemSize(codec)
		if size == 0 {
			c.failAt(pos, f, "array codec %d not allowed here", codec)
			return 0, 0
		}
		if uint64(cnt)*uint64(size) > uint64(c.remaining()) {
			c.failAt(pos+4, f, "array of %d elements does not fit in the %d bytes that remain", cnt, c.remaining())
			return 0, 0
		}
		return codec, int(cnt)
	}
	if uint64(n) > math.MaxUint32 {
		c.fail(f, "array too long")
		return 0, 0
	}
	if c.checkOnly {
		return codec, n
	}
	for len(c.out)%4 != 0 {
		c.out = append(c.out, 0)
	}
	c.out = append(c.out, codec, 0, 0, 0)
	c.out = le.AppendUint32(c.out, uint32(n))
	return codec, n
}

func floatSize(codec uint8) int {
	switch codec {
	case codecF32:
		return 4
	case codecF16, codecUnorm16:
		return 2
	}
	return 0
}

func intSize(codec uint8) int {
	switch codec {
	case codecU16:
		return 2
	case codecU32:
		return 4
	}
	return 0
}

func byteSize(codec uint8) int {
	if codec == codecU8 {
		return 1
	}
	return 0
}

// v1count codes the u32 count of a v1 plain array of elemSize elements.
func (c *coder) v1count(n, elemSize int, f string) int {
	return c.count(n, 4, elemSize, f)
}

// readArrayStart reads the start of an array that floats or uints decode:
// its header (in v1, a bare u32 count of v1codec elements). On success it
// resets *p, and for a non-empty array returns the codec, the slice to fill
// and the bytes its elements start at (the header checked that they are all
// there); out is nil when there is nothing to decode (an error or an empty
// array).
func readArrayStart[T any](c *coder, p *[]T, v1codec uint8, elemSize func(uint8) int, f string) (codec uint8, out []T, b []byte) {
	var n int
	if c.v1 {
		codec, n = v1codec, c.v1count(0, 4, f)
	} else {
		codec, n = c.arrayHeader(0, 0, f, elemSize)
	}
	if !c.ok() {
		return 0, nil, nil
	}
	*p = nil
	if n == 0 {
		return 0, nil, nil
	}
	return codec, make([]T, n), c.b[c.pos:]
}

// floats codes array<f32>: reading accepts any float codec; writing uses
// f32, or the codec the hint allows under CodecF16.
func (c *coder) floats(p *[]float32, hint arrayHint, f string) {
	if c.err != nil {
		return
	}
	if c.read {
		codec, out, b := readArrayStart(c, p, codecF32, floatSize, f)
		if out == nil {
			return
		}
		n := len(out)
		switch codec {
		case codecF32:
			for i := range out {
				bits := le.Uint32(b[4*i:])
				if bits&0x7f800000 == 0x7f800000 {
					c.failAt(c.pos+4*i, f, "element %d is not a finite number", i)
					return
				}
				out[i] = math.Float32frombits(bits)
			}
			c.pos += 4 * n
		case codecF16:
			for i := range out {
				h := le.Uint16(b[2*i:])
				if h&0x7c00 == 0x7c00 {
					c.failAt(c.pos+2*i, f, "element %d is not a finite number", i)
					return
				}
				out[i] = half.ToFloat32(h)
			}
			c.pos += 2 * n
		case codecUnorm16:
			for i := range out {
				out[i] = half.Unorm16ToFloat32(le.Uint16(b[2*i:]))
			}
			c.pos += 2 * n
		}
		*p = out
		return
	}
	s := *p
	if i := nonfinite.Index(s); i >= 0 {
		c.fail(f, "element %d is not a finite number (%v)", i, s[i])
		return
	}
	if c.v1 {
		c.v1count(len(s), 4, f)
		for _, v := range s {
			c.out = le.AppendUint32(c.out, math.Float32bits(v))
		}
		return
	}
	codec := uint8(codecF32)
	if c.codec == CodecF16 && len(s) > 0 {
		switch hint {
		case hintPosition:
			if allIn(s, -half.MaxFinite, half.MaxFinite) {
				codec = codecF16
			}
		case hintUV:
			if allIn(s, 0, 1) {
				codec = codecUnorm16
			}
		}
	}
	c.arrayHeader(codec, len(s), f, nil)
	if c.checkOnly {
		return
	}
	switch codec {
	case codecF32:
		for _, v := range s {
			c.out = le.AppendUint32(c.out, math.Float32bits(v))
		}
	case codecF16:
		for _, v := range s {
			c.out = le.AppendUint16(c.out, half.FromFloat32(v))
		}
	case codecUnorm16:
		for _, v := range s {
			c.out = le.AppendUint16(c.out, half.Unorm16FromFloat32(v))
		}
	}
}

func allIn(s []float32, lo, hi float32) bool {
	for _, v := range s {
		if v < lo || v > hi {
			return false
		}
	}
	return true
}

// sizedFloats codes array<f32> whose length must be want (or, when
// orEmpty, 0).
func (c *coder) sizedFloats(p *[]float32, hint arrayHint, want int, orEmpty bool, f string) {
	pos := c.pos
	c.floats(p, hint, f)
	if c.ok() && len(*p) != want && !(orEmpty && len(*p) == 0) {
		c.failAt(pos, f, "has %d values, want %d", len(*p), want)
	}
}

// keys codes an array of keys: non-decreasing (equal neighbours are
// allowed, as rig.rs does for every key list) and, when nonEmpty, at least
// one.
func (c *coder) keys(p *[]float32, nonEmpty bool, f string) {
	pos := c.pos
	c.floats(p, hintPlain, f)
	if !c.ok() {
		return
	}
	k := *p
	if nonEmpty && len(k) == 0 {
		c.failAt(pos, f, "needs at least one key")
	}
	for i := 1; i < len(k); i++ {
		if k[i] < k[i-1] {
			c.failAt(pos, f, "keys decrease at %d (%v after %v)", i, k[i], k[i-1])
			return
		}
	}
}

// uints codes array<u16|u32>; wide forces codec u32 when writing (the
// spec's array<u32>), otherwise u16 is used when every value fits.
func (c *coder) uints(p *[]uint32, wide bool, f string) {
	if c.err != nil {
		return
	}
	if c.read {
		codec, out, b := readArrayStart(c, p, codecU32, intSize, f)
		if out == nil {
			return
		}
		n := len(out)
		if codec == codecU16 {
			for i := range out {
				out[i] = uint32(le.Uint16(b[2*i:]))
			}
			c.pos += 2 * n
		} else {
			for i := range out {
				out[i] = le.Uint32(b[4*i:])
			}
			c.pos += 4 * n
		}
		*p = out
		return
	}
	s := *p
	if c.v1 {
		c.v1count(len(s), 4, f)
		for _, v := range s {
			c.out = le.AppendUint32(c.out, v)
		}
		return
	}
	codec := uint8(codecU32)
	if c.checkOnly {
		c.arrayHeader(codec, len(s), f, nil) // the codec of dropped bytes does not matter
		return
	}
	if !wide && len(s) > 0 && maxU32(s) <= math.MaxUint16 {
		codec = codecU16
	}
	c.arrayHeader(codec, len(s), f, nil)
	for _, v := range s {
		if codec == codecU16 {
			c.out = le.AppendUint16(c.out, uint16(v))
		} else {
			c.out = le.AppendUint32(c.out, v)
		}
	}
}

func maxU32(s []uint32) uint32 {
	var m uint32
	for _, v := range s {
		m = max(m, v)
	}
	return m
}

// bytes codes array<u8>.
func (c *coder) bytes(p *[]byte, f string) {
	if c.err != nil {
		return
	}
	if c.read {
		var n int
		if c.v1 {
			n = c.v1count(0, 1, f)
		} else {
			_, n = c.arrayHeader(0, 0, f, byteSize)
		}
		if !c.ok() {
			return
		}
		*p = nil
		if n > 0 {
			*p = append([]byte(nil), c.b[c.pos:c.pos+n]...)
			c.pos += n
		}
		return
	}
	if c.v1 {
		c.v1count(len(*p), 1, f)
	} else {
		c.arrayHeader(codecU8, len(*p), f, nil)
	}
	if !c.checkOnly {
		c.out = append(c.out, *p...)
	}
}
