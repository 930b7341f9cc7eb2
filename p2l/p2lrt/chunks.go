package p2lrt

import "github.com/psd2live/p2l-ebiten/p2l/internal/container"

// chunkDef describes a chunk this library knows.
type chunkDef struct {
	tag     string
	version uint16 // highest version understood
	// core chunks are flagged required and take part in core evaluation.
	core bool
	// mustExist: a file without the chunk is rejected.
	mustExist bool
	code      func(c *coder, m *File)
	// has reports whether the writer writes the chunk for m.
	has func(m *File) bool
}

func always(*File) bool { return true }

// chunkDefs lists every known chunk in writing order, which is P2lrt.kt's
// (v2()): the core chunks with CEXT after CLIP, then the extensions BONE SKIN
// COLL SIMS, then EXPR HITA POSE UDAT PGUI, and META last. The reader decodes
// in this order too (CEXT needs CLIP, SKIN and COLL need BONE's virtual
// bones).
var chunkDefs = []chunkDef{
	{"STRS", 1, true, true, nil, always},
	{"CANV", 1, true, true, codeCANV, always},
	{"PARM", 1, true, true, codePARM, always},
	{"DEFM", 1, true, true, codeDEFM, always},
	{"PART", 1, true, true, codePART, always},
	{"MESH", 1, true, true, codeMESH, always},
	{"GLUE", 1, true, false, codeGLUE, func(m *File) bool { return len(m.Glues) > 0 }},
	{"DRAW", 1, true, true, codeDRAW, always},
	{"TEXR", 1, true, false, codeTEXR, func(m *File) bool { return len(m.Textures) > 0 }},
	{"PHYS", 2, true, false, codePHYS, func(m *File) bool { return len(m.Physics.Groups) > 0 || m.Physics.Fps != 0 }},
	{"CLIP", 1, true, false, codeCLIP, func(m *File) bool { return len(m.Clips) > 0 }},
	{"CEXT", 1, false, false, codeCEXT, func(m *File) bool { return len(cextRecords(m)) > 0 }},
	{"ROLE", 1, true, false, codeROLE, func(m *File) bool { return len(m.Roles) > 0 }},
	{"BONE", 1, false, false, codeBONE, func(m *File) bool { return m.Bones != nil }},
	{"SKIN", 1, false, false, codeSKIN, func(m *File) bool { return m.Skins != nil }},
	{"COLL", 1, false, false, codeCOLL, func(m *File) bool { return m.Collision != nil }},
	{"SIMS", 1, false, false, codeSIMS, func(m *File) bool { return m.Simulations != nil }},
	{"EXPR", 1, false, false, codeEXPR, func(m *File) bool { return len(m.Expressions) > 0 }},
	{"HITA", 1, false, false, codeHITA, func(m *File) bool { return len(m.HitAreas) > 0 }},
	{"POSE", 1, false, false, codePOSE, func(m *File) bool { return m.Pose != nil }},
	{"UDAT", 1, false, false, codeUDAT, func(m *File) bool { return len(m.UserData) > 0 }},
	{"PGUI", 1, false, false, codePGUI, func(m *File) bool { return m.GUI != nil }},
	{"META", 1, false, false, codeMETA, always}, // P2lrt.kt always writes META
}

func findDef(tag string) *chunkDef {
	for i := range chunkDefs {
		if chunkDefs[i].tag == tag {
			return &chunkDefs[i]
		}
	}
	return nil
}

// formatMinor is the highest minor version of the format this library
// knows; written into headers for diagnostics only.
const formatMinor = 0

// ChunkSupport is one chunk tag and the highest version a reader of this
// library understands.
type ChunkSupport struct {
	Tag     string // four-character chunk tag, such as "MESH"
	Version uint16 // highest version read
}

// Support lists what this library reads and writes.
type Support struct {
	// Majors are the supported major versions (1 and 2).
	Majors []int
	// Chunks lists every known chunk tag with its highest version, in
	// canonical order.
	Chunks []ChunkSupport
	// Compression lists the supported chunk compression methods.
	Compression []string
}

// FormatSupport reports the major versions, chunk tags and versions and
// compression methods this library supports (the spec's
// p2l_format_support).
func FormatSupport() Support {
	s := Support{Majors: []int{1, 2}, Compression: []string{"deflate", "zstd"}}
	for _, d := range chunkDefs {
		s.Chunks = append(s.Chunks, ChunkSupport{d.tag, d.version})
	}
	return s
}

// ChunkInfo is one row of a file's chunk table.
type ChunkInfo struct {
	Tag         string // four-character chunk tag
	Version     uint16 // the chunk's version
	Required    bool   // the required flag: a reader that does not know the chunk must reject the file
	HasCRC      bool   // CRC holds the chunk's CRC32
	Compression string // "none", "deflate" or "zstd"
	Offset      uint64 // file offset of the chunk's data
	Length      uint64 // stored bytes
	RawLength   uint64 // decompressed bytes
	CRC         uint32 // CRC32 of the stored bytes, when HasCRC
	// Known tells whether this library understands the chunk (tag known,
	// version not newer).
	Known bool
}

// FileInfo is what Inspect learns from a file without decoding it all.
type FileInfo struct {
	Major, Minor  int    // format version from the header
	Flags         uint32 // header flag bits
	NamesStripped bool   // header flag bit 0: display names were stripped
	// Chunks is the chunk table in file order (empty for v1 files).
	Chunks []ChunkInfo
	// Meta is the META chunk (nil when absent, always nil for v1).
	Meta []MetaEntry
}

// Inspect reads the header, the chunk table and META of a file, checking
// the container but decoding no other chunk (STRS is decoded when META is
// present, since META's strings live there). CRCs are not checked.
func Inspect(data []byte) (*FileInfo, error) {
	v, err := container.SniffVersion(data)
	if err != nil {
		return nil, asFormatError(err)
	}
	if v == 1 {
		return &FileInfo{Major: 1}, nil // v1 has no flags word
	}
	h, entries, err := container.Parse(data)
	if err != nil {
		return nil, withLayout(asFormatError(err), 2)
	}
	fi := &FileInfo{Major: int(h.Major), Minor: int(h.Minor), Flags: h.Flags, NamesStripped: h.Flags&container.FlagNamesStripped != 0}
	var strs, meta *container.Entry
	for i := range entries {
		e := &entries[i]
		d := findDef(e.Tag)
		known := d != nil && e.Version <= d.version
		fi.Chunks = append(fi.Chunks, ChunkInfo{e.Tag, e.Version, e.Required(), e.HasCRC(), e.Compression().String(),
			e.Offset, e.Length, e.RawLength, e.CRC, known})
		if known && e.Tag == "STRS" {
			strs = e
		}
		if known && e.Tag == "META" {
			meta = e
		}
	}
	if meta != nil && strs != nil {
		l := &loader{data: data, cfg: defaultConfig(), m: new(File)}
		if err := l.strings(strs); err != nil {
			return nil, withLayout(err, 2)
		}
		if err := l.chunk(meta, findDef("META")); err != nil {
			return nil, withLayout(err, 2)
		}
		fi.Meta = l.m.Meta
	}
	return fi, nil
}
