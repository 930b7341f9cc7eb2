package p2l

import (
	"fmt"
	"io"

	"github.com/psd2live/p2l-ebiten/p2l/internal/container"
)

// Compression selects chunk compression for Write.
type Compression uint8

// Compression methods.
const (
	CompressNone    Compression = 0
	CompressDeflate Compression = 1 // zlib stream (RFC 1950)
	CompressZstd    Compression = 2 // one zstd frame (RFC 8878)
)

// FloatCodec selects the encoding of float arrays for Write.
type FloatCodec uint8

const (
	// CodecF32 writes every float array as f32 (the default; all
	// conformance comparisons use it).
	CodecF32 FloatCodec = 0
	// CodecF16 is the spec's "publishing size optimisation": positions and
	// offsets (mesh positions, mesh keyform and blend-shape deltas, warp
	// points) as f16, UVs as unorm16. An array falls back to f32 when a
	// value does not fit (|x| > 65504, or a UV outside [0, 1]).
	CodecF16 FloatCodec = 1
)

// WriteOptions configures Write. The zero value (or nil) writes an
// uncompressed v2 file with f32 arrays, names and no CRCs.
type WriteOptions struct {
	// V1 writes the version 1 layout (docs/FORMAT.md): core content only.
	// V1Losses lists what it cannot keep.
	V1 bool
	// Compression compresses chunks that get smaller; TEXR never.
	Compression Compression
	// StripNames writes every display name empty and sets the header's
	// names-stripped flag; ids are kept.
	StripNames bool
	// Codec selects the float array encoding (v2 only).
	Codec FloatCodec
	// CRC stores a CRC32 for every chunk (v2 only).
	CRC bool
}

// Write validates m and writes it to w. The same model and options always
// give the same bytes.
func Write(w io.Writer, m *Model, opts *WriteOptions) error {
	b, err := encode(m, opts)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Validate checks m against every rule the reader applies (finite numbers,
// references, sizes, ordering, ...). Load returns only valid models.
func (m *Model) Validate() error {
	_, err := encode(m, nil)
	return err
}

func encode(m *Model, opts *WriteOptions) ([]byte, error) {
	if m == nil {
		return nil, errNilModel
	}
	if opts == nil {
		opts = &WriteOptions{}
	}
	if err := checkRefs(m); err != nil {
		return nil, err
	}
	if opts.V1 {
		return encodeV1(m, opts)
	}
	strip := opts.StripNames || m.NamesStripped
	var strList []string
	strIndex := map[string]uint32{}
	var chunks []container.ChunkData
	cext := cextRecords(m)
	for i := 1; i < len(chunkDefs); i++ {
		d := &chunkDefs[i]
		if !d.has(m) {
			continue
		}
		version := d.version
		if d.tag == "PHYS" {
			version = physicsVersion(&m.Physics)
		}
		c := &coder{tag: d.tag, version: version, strIndex: strIndex, strList: &strList,
			codec: opts.Codec, stripped: strip, cext: &cext}
		d.code(c, m)
		if c.err != nil {
			return nil, c.err
		}
		comp := container.Compression(opts.Compression)
		if d.tag == "TEXR" {
			comp = container.None
		}
		chunks = append(chunks, container.ChunkData{Tag: d.tag, Version: version, Required: d.core, Data: c.out, Compress: comp})
	}
	strs := encodeStrings(strList)
	chunks = append([]container.ChunkData{{Tag: "STRS", Version: 1, Required: true, Data: strs,
		Compress: container.Compression(opts.Compression)}}, chunks...)
	var flags uint32
	if strip {
		flags |= container.FlagNamesStripped
	}
	return container.Write(flags, formatMinor, chunks, opts.CRC)
}

func encodeStrings(strs []string) []byte {
	size := 4 + 4*(len(strs)+1)
	for _, s := range strs {
		size += len(s)
	}
	b := make([]byte, 0, size)
	b = le.AppendUint32(b, uint32(len(strs)))
	off := uint32(0)
	b = le.AppendUint32(b, 0)
	for _, s := range strs {
		off += uint32(len(s))
		b = le.AppendUint32(b, off)
	}
	for _, s := range strs {
		b = append(b, s...)
	}
	return b
}

// v1Header is the size of the v1 header: magic[8], u32 version = 1,
// u32 flags.
const v1Header = 16

// v1Sections are the core chunks in v1 stream order.
func v1Sections() []*chunkDef {
	var ds []*chunkDef
	for i := 1; i < len(chunkDefs); i++ {
		if chunkDefs[i].core {
			ds = append(ds, &chunkDefs[i])
		}
	}
	return ds
}

func encodeV1(m *Model, opts *WriteOptions) ([]byte, error) {
	strip := opts.StripNames || m.NamesStripped
	out := make([]byte, v1Header, 1<<12)
	copy(out, container.Magic)
	le.PutUint32(out[8:], 1)
	if strip {
		le.PutUint32(out[12:], 1)
	}
	// v1 has no Y physics source: drop those inputs and outputs.
	mm := *m
	mm.Physics = physicsWithoutY(&m.Physics)
	for _, d := range v1Sections() {
		c := &coder{v1: true, tag: d.tag, version: 1, out: out, stripped: strip}
		d.code(c, &mm)
		if c.err != nil {
			return nil, c.err
		}
		out = c.out
	}
	return out, nil
}

func physicsWithoutY(p *Physics) Physics {
	if physicsVersion(p) == 1 {
		return *p
	}
	q := Physics{Fps: p.Fps, Groups: make([]PhysicsGroup, len(p.Groups))}
	for i, g := range p.Groups {
		h := g
		h.Inputs, h.Outputs = nil, nil
		for _, in := range g.Inputs {
			if in.Source != PhysicsY {
				h.Inputs = append(h.Inputs, in)
			}
		}
		for _, o := range g.Outputs {
			if o.Source != PhysicsY {
				h.Outputs = append(h.Outputs, o)
			}
		}
		q.Groups[i] = h
	}
	return q
}

// V1Losses reports what writing m with WriteOptions.V1 cannot keep (the
// spec's loss report), one line per item; nil when v1 keeps everything.
// Writing v1 still fails for texture pages other than PNG, which v1 cannot
// store at all.
func V1Losses(m *Model) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, x := range []struct {
		tag string
		on  bool
	}{{"BONE", m.Bones != nil}, {"SKIN", m.Skins != nil}, {"COLL", m.Collision != nil}, {"SIMS", m.Simulations != nil}} {
		if x.on {
			add("%s: extension dropped; its effect stays baked in the core chunks (Cubism mode only)", x.tag)
		}
	}
	nY := 0
	for _, g := range m.Physics.Groups {
		for _, in := range g.Inputs {
			if in.Source == PhysicsY {
				nY++
			}
		}
		for _, o := range g.Outputs {
			if o.Source == PhysicsY {
				nY++
			}
		}
	}
	if nY > 0 {
		add("PHYS: %d vertical (Y) physics inputs/outputs dropped (PHYS version 2 only)", nY)
	}
	side := []struct {
		tag string
		n   int
	}{{"PGUI", boolInt(m.GUI != nil)}, {"META", len(m.Meta)}, {"EXPR", len(m.Expressions)},
		{"HITA", len(m.HitAreas)}, {"UDAT", len(m.UserData)}, {"POSE", boolInt(m.Pose != nil)}, {"CEXT", len(cextRecords(m))}}
	for _, s := range side {
		if s.n > 0 {
			add("%s: dropped (v1 has no side chunks)", s.tag)
		}
	}
	for i, t := range m.Textures {
		if t.Kind != TexturePNG {
			add("TEXR: page %d is not PNG; v1 cannot store it (writing fails)", i)
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// decodeV1 parses a v1 file: the 16-byte header, then the core sections in
// order, ending exactly at the end of the file.
func decodeV1(data []byte) (*Model, error) {
	if len(data) < v1Header {
		return nil, &FormatError{Offset: 0, Field: "header", Msg: "v1 file too short"}
	}
	flags := le.Uint32(data[12:])
	if flags&^1 != 0 {
		return nil, &FormatError{Offset: 12, Field: "flags", Msg: fmt.Sprintf("reserved v1 flag bits set (0x%x)", flags)}
	}
	m := &Model{NamesStripped: flags&1 != 0}
	c := &coder{read: true, v1: true, version: 1, b: data, pos: v1Header, stripped: m.NamesStripped}
	for _, d := range v1Sections() {
		c.tag = d.tag
		d.code(c, m)
		if c.err != nil {
			return nil, c.err
		}
	}
	if c.pos != len(data) {
		c.tag = ""
		c.fail("", "%d bytes after the v1 stream", len(data)-c.pos)
		return nil, c.err
	}
	if err := checkRefs(m); err != nil {
		return nil, err
	}
	return m, nil
}
