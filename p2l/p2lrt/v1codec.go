package p2lrt

import (
	"errors"
	"fmt"

	"github.com/psd2live/p2l-ebiten/p2l/internal/container"
)

// The version 1 codec: one little-endian stream of the core sections, as
// P2lrt.kt's doc comment and v1() write it and rig.rs Reader::rig reads it:
//
//	"P2LRT\0\0\0" u32 version = 1
//	CANV PARM DEFM PART MESH GLUE DRAW TEXR PHYS CLIP ROLE
//
// Each section is its v2 chunk's record list with inline strings (u32 byte
// length + UTF-8), plain arrays (u32 count + f32 / u32 / u8 elements) and
// kind-less PNG texture pages; the chunk codecs in chunk_core.go describe
// both versions (coder.v1).

// v1Header is the size of the v1 header: magic[8], u32 version = 1. The
// canvas follows at byte 12 (P2lrt.kt v1(), rig.rs Reader::rig); v1 has no
// flags word.
const v1Header = 12

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

// encodeV1 writes the v1 stream. v1 cannot say that names were stripped:
// with StripNames (or a model with NamesStripped) the display names are
// written empty, and the file reads back with NamesStripped false.
func encodeV1(m *File, opts *WriteOptions) ([]byte, error) {
	strip := opts.StripNames || m.NamesStripped
	out := make([]byte, v1Header, 1<<12)
	copy(out, container.Magic)
	le.PutUint32(out[8:], 1)
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
func V1Losses(m *File) []string {
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

// decodeV1 parses a v1 file: the 12-byte header, then the core sections in
// order, ending exactly at the end of the file.
func decodeV1(data []byte) (*File, error) {
	if len(data) < v1Header {
		return nil, &FormatError{Offset: 0, Field: "header", Msg: "v1 file too short"}
	}
	m := &File{}
	c := &coder{read: true, v1: true, version: 1, b: data, pos: v1Header}
	for _, d := range v1Sections() {
		c.tag = d.tag
		d.code(c, m)
		if c.err != nil {
			return nil, oldV1Hint(data, c.err)
		}
	}
	if c.pos != len(data) {
		c.tag = ""
		c.fail("", "%d bytes after the v1 stream", len(data)-c.pos)
		return nil, oldV1Hint(data, c.err)
	}
	if err := checkRefs(m); err != nil {
		return nil, err
	}
	return m, nil
}

// oldV1Hint adds a hint to a v1 read error when bytes 12–15 hold 0 or 1:
// a canvas width of 0 or 1.4e-45 px, but the flags word of the layout
// p2l-ebiten wrote before it followed P2lrt.kt. Such a file fails a few
// fields later, and the error alone would not say why.
func oldV1Hint(data []byte, err error) error {
	var fe *FormatError
	if len(data) < 16 {
		return err
	}
	if w := le.Uint32(data[12:]); (w == 0 || w == 1) && errors.As(err, &fe) {
		fe.Msg += fmt.Sprintf(" (bytes 12-15 hold %d, read as the canvas width: this looks like a v1 file of p2l-ebiten's "+
			"pre-reference layout, with a flags word before the canvas; the reference layout has the canvas at byte 12)", w)
	}
	return err
}
