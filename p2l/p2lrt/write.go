package p2lrt

import (
	"errors"
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
// uncompressed v2 file with f32 arrays, names and CRCs, laid out as the
// reference writer (P2lrt.kt) lays out its files: the same chunk order,
// flags, alignment and string numbering.
type WriteOptions struct {
	// V1 writes the version 1 layout (docs/FORMAT.md, v1codec.go): core
	// content only.
	// V1Losses lists what it cannot keep.
	V1 bool
	// Compression compresses chunks that get smaller; TEXR never.
	Compression Compression
	// StripNames writes every display name empty and sets the header's
	// names-stripped flag; ids are kept. v1 has no such flag: the names are
	// written empty and the file does not say so.
	StripNames bool
	// Codec selects the float array encoding (v2 only).
	Codec FloatCodec
	// NoCRC leaves the chunk CRCs out (v2 only; P2lrt.kt always writes
	// them).
	NoCRC bool
}

// Write validates f and writes it to w. The same file and options always
// give the same bytes.
func (f *File) Write(w io.Writer, opts *WriteOptions) error {
	b, err := encode(f, opts)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Encode validates f and returns its encoding (Write).
func (f *File) Encode(opts *WriteOptions) ([]byte, error) { return encode(f, opts) }

// Validate checks f against every rule the reader applies (finite numbers,
// references, sizes, ordering, ...). Load returns only valid models.
//
// It runs the writer's checks, as Write does, without assembling a file:
// the chunks' bytes are discarded as they are made, and texture payloads,
// which no rule looks into, are not copied.
func (f *File) Validate() error {
	_, err := encodeChunks(f, &WriteOptions{}, true)
	return err
}

func encode(m *File, opts *WriteOptions) ([]byte, error) {
	if opts == nil {
		opts = &WriteOptions{}
	}
	if !opts.V1 {
		chunks, err := encodeChunks(m, opts, false)
		if err != nil {
			return nil, err
		}
		var flags uint32
		if opts.StripNames || m.NamesStripped {
			flags |= container.FlagNamesStripped
		}
		return container.Write(flags, formatMinor, chunks, !opts.NoCRC)
	}
	if m == nil {
		return nil, errNilFile
	}
	if err := checkRefs(m); err != nil {
		return nil, err
	}
	return encodeV1(m, opts)
}

// encodeChunks checks m and encodes its v2 chunks, STRS first. With
// checkOnly (Validate) the chunks are checked alone: none is returned,
// and byte arrays are not copied (coder.checkOnly).
func encodeChunks(m *File, opts *WriteOptions, checkOnly bool) ([]container.ChunkData, error) {
	if m == nil {
		return nil, errNilFile
	}
	if err := checkRefs(m); err != nil {
		return nil, err
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
			codec: opts.Codec, stripped: strip, cext: &cext, checkOnly: checkOnly}
		d.code(c, m)
		if c.err != nil {
			return nil, c.err
		}
		if checkOnly {
			continue
		}
		comp := container.Compression(opts.Compression)
		if d.tag == "TEXR" {
			comp = container.None
		}
		chunks = append(chunks, container.ChunkData{Tag: d.tag, Version: version, Required: d.core, Data: c.out, Compress: comp})
	}
	if checkOnly {
		return nil, nil
	}
	strs := encodeStrings(strList)
	return append([]container.ChunkData{{Tag: "STRS", Version: 1, Required: true, Data: strs,
		Compress: container.Compression(opts.Compression)}}, chunks...), nil
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

// errNilFile is the error of Write and Validate of a nil *File.
var errNilFile = errors.New("p2l: nil *File")
