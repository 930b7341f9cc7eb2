package moc3

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// hostile is a damaged variant of minimal(version) and where the error
// must point.
type hostile struct {
	name    string
	version Version
	file    func(a map[string]any)          // edits the arrays before encoding
	bytes   func(b []byte, l layout) []byte // edits the encoded file
	section string
	index   int
	id      string
	field   string // substring of Field
	offset  func(l layout) int64
	msg     string // substring of Msg
}

func at(name string, i, size int) func(layout) int64 {
	return func(l layout) int64 { return int64(l.arrayAt[name] + i*size) }
}

func slot(name string) func(layout) int64 {
	return func(l layout) int64 { return int64(l.slotAt[name]) }
}

func put32(b []byte, off int, v uint32) { binary.LittleEndian.PutUint32(b[off:], v) }

var hostileCases = []hostile{
	{name: "bad magic", bytes: func(b []byte, _ layout) []byte { b[0] = 'm'; return b },
		section: "header", index: -1, field: "magic", offset: func(layout) int64 { return 0 }},
	{name: "version 7", bytes: func(b []byte, _ layout) []byte { b[4] = 7; return b },
		section: "header", index: -1, field: "version", offset: func(layout) int64 { return 4 }, msg: "version byte 7"},
	{name: "version 0", bytes: func(b []byte, _ layout) []byte { b[4] = 0; return b },
		section: "header", index: -1, field: "version", offset: func(layout) int64 { return 4 }},
	{name: "endian flag 2", bytes: func(b []byte, _ layout) []byte { b[5] = 2; return b },
		section: "header", index: -1, field: "endian", offset: func(layout) int64 { return 5 }},
	{name: "shorter than the header", bytes: func(b []byte, _ layout) []byte { return b[:40] },
		section: "header", index: -1, offset: func(layout) int64 { return 0 }},
	{name: "truncated in the offset table", bytes: func(b []byte, _ layout) []byte { return b[:0x80] },
		section: "section offset table", index: -1, offset: func(layout) int64 { return 0x40 }},
	{name: "truncated in the last array", version: V53, bytes: func(b []byte, l layout) []byte { return b[:l.arrayAt["offKF.scrIndex"]+2] },
		section: "section offset table", index: -1, field: "offscreen keyform screen color indices", offset: slot("offKF.scrIndex"), msg: "past the end"},
	{name: "count table past the end", bytes: func(b []byte, _ layout) []byte { put32(b, 0x40, uint32(len(b)-8)); return b },
		section: "count table", index: -1, offset: func(layout) int64 { return 0x40 }},
	{name: "canvas past the end", bytes: func(b []byte, _ layout) []byte { put32(b, 0x44, uint32(len(b)-4)); return b },
		section: "canvas", index: -1, offset: func(layout) int64 { return 0x44 }},
	{name: "huge count", bytes: func(b []byte, l layout) []byte { put32(b, l.countAt["parts"], 0xfffffff0); return b },
		section: "count table", index: -1, field: "parts", offset: func(l layout) int64 { return int64(l.countAt["parts"]) }, msg: "exceeds the file size"},
	{name: "count larger than its arrays", bytes: func(b []byte, l layout) []byte { put32(b, l.countAt["artMeshes"], uint32(len(b)/64)); return b },
		section: "section offset table", index: -1},
	{name: "offset past the end", bytes: func(b []byte, l layout) []byte { put32(b, l.slotAt["artMesh.vertexCount"], uint32(len(b))); return b },
		section: "section offset table", index: -1, field: "art mesh vertex counts", offset: slot("artMesh.vertexCount"), msg: "past the end"},
	{name: "overlapping arrays", bytes: func(b []byte, l layout) []byte {
		put32(b, l.slotAt["artMesh.visible"], uint32(l.arrayAt["artMesh.enabled"]))
		return b
	}, section: "section offset table", index: -1, msg: "overlaps"},
	{name: "texture number beyond MaxTexture", file: func(a map[string]any) { a["artMesh.texture"] = i32s(0, MaxTexture+1) },
		section: "art mesh", index: 1, id: "Clip", field: "art mesh texture", offset: at("artMesh.texture", 1, 4), msg: "texture number 4096 is more than 4095"},
	{name: "parent part out of range", file: func(a map[string]any) { a["artMesh.parentPart"] = i32s(5, 0) },
		section: "art mesh", index: 0, id: "Face", field: "art mesh parent part indices", offset: at("artMesh.parentPart", 0, 4), msg: "parent part 5"},
	{name: "parent deformer out of range, second mesh", file: func(a map[string]any) { a["artMesh.parentDeformer"] = i32s(1, 7) },
		section: "art mesh", index: 1, id: "Clip", field: "art mesh parent deformer indices", offset: at("artMesh.parentDeformer", 1, 4)},
	{name: "keyform count mismatch", file: func(a map[string]any) { a["artMesh.kfCount"] = i32s(1, 1) },
		section: "art mesh", index: 0, id: "Face", field: "art mesh keyform counts", offset: at("artMesh.kfCount", 0, 4), msg: "needs 2"},
	{name: "keyforms past the table", file: func(a map[string]any) { a["part.kfBegin"] = i32s(1) },
		section: "part", index: 0, id: "PartRoot", field: "part keyform begin indices", offset: at("part.kfBegin", 0, 4)},
	{name: "keyform shared by two meshes", file: func(a map[string]any) {
		a["artMesh.kfBegin"] = i32s(0, 1)
	}, section: "art mesh", index: 1, id: "Clip", msg: "already used"},
	{name: "triangle index out of range", file: func(a map[string]any) { a["indices.index"] = []int16{0, 3, 2, 2, 1, 0} },
		section: "art mesh", index: 0, id: "Face", field: "position indices[1]", offset: at("indices.index", 1, 2), msg: "3 out of range (3 vertices)"},
	// Face holds position indices 0–2, Clip 3–5 (handbuilt_test.go); Clip
	// starting at 0 takes index 0 a second time.
	{name: "triangle indices shared by two meshes", file: func(a map[string]any) { a["artMesh.indexBegin"] = i32s(0, 0) },
		section: "art mesh", index: 1, id: "Clip", field: "position indices[0]", offset: at("indices.index", 0, 2), msg: "already used by another art mesh"},
	{name: "triangles not a multiple of 3", file: func(a map[string]any) { a["artMesh.indexCount"] = i32s(2, 3) },
		section: "art mesh", index: 0, id: "Face", field: "position index begin"},
	{name: "odd position start", file: func(a map[string]any) { a["artKF.posBegin"] = i32s(17, 22, 28) },
		section: "art mesh", index: 0, id: "Face", field: "art mesh keyform position begin indices", offset: at("artKF.posBegin", 0, 4)},
	{name: "uvs past the table", file: func(a map[string]any) { a["artMesh.uvBegin"] = i32s(0, 8) },
		section: "art mesh", index: 1, id: "Clip", field: "art mesh uv begin indices", offset: at("artMesh.uvBegin", 1, 4)},
	{name: "mask out of range", file: func(a map[string]any) { a["masks.artMesh"] = i32s(2) },
		section: "drawable masks", index: -1, offset: at("masks.artMesh", 0, 4), msg: "art mesh 2"},
	{name: "part is its own parent", file: func(a map[string]any) { a["part.parent"] = i32s(0) },
		section: "part", index: 0, id: "PartRoot", msg: "loops"},
	{name: "deformer cycle", file: func(a map[string]any) { a["deformer.parentDeformer"] = i32s(1, 0) },
		section: "deformer", index: 0, id: "Warp", msg: "loops"},
	{name: "deformer type 2", file: func(a map[string]any) { a["deformer.type"] = i32s(0, 2) },
		section: "deformer", index: 1, id: "Rotation", field: "deformer types", offset: at("deformer.type", 1, 4)},
	{name: "warp named twice", file: func(a map[string]any) { a["deformer.type"] = i32s(0, 0) },
		section: "deformer", index: 1, id: "Rotation", field: "deformer specific indices", msg: "already used"},
	{name: "warp grid mismatch", file: func(a map[string]any) { a["warp.vertexCount"] = i32s(5) },
		section: "warp deformer", index: 0, id: "Warp", field: "warp deformer vertex counts", offset: at("warp.vertexCount", 0, 4)},
	{name: "keys not ascending", file: func(a map[string]any) { a["keys.value"] = f32s(1, -1) },
		section: "parameter binding", index: 0, msg: "strictly ascending"},
	{name: "parameter binding of no parameter", file: func(a map[string]any) { a["parameter.bindingCount"] = i32s(0) },
		section: "parameter binding", index: 0, msg: "belongs to no parameter"},
	{name: "parameter binding index out of range", file: func(a map[string]any) { a["pbi.index"] = i32s(1) },
		section: "parameter binding indices", index: -1, offset: at("pbi.index", 0, 4)},
	{name: "too many axes", file: func(a map[string]any) {
		a["pbi.index"] = make([]int32, 17)
		a["kb.count"] = i32s(0, 17)
	}, section: "keyform binding", index: 1, field: "keyform binding counts", msg: "17 parameters, more than 16"},
	{name: "keyform binding out of range", file: func(a map[string]any) { a["glue.binding"] = i32s(2) },
		section: "glue", index: 0, id: "Glue", field: "glue keyform binding indices", offset: at("glue.binding", 0, 4)},
	{name: "glue vertex out of range", file: func(a map[string]any) { a["glueInfo.position"] = []int16{0, 3} },
		section: "glue", index: 0, id: "Glue", field: "glue info position indices[1]", offset: at("glueInfo.position", 1, 2)},
	{name: "draw order object type 2", file: func(a map[string]any) { a["dogo.type"] = i32s(0, 0, 2) },
		section: "draw order group object", index: 2, field: "draw order group object types", offset: at("dogo.type", 2, 4)},
	{name: "draw order group past its objects", file: func(a map[string]any) { a["dog.count"] = i32s(4) },
		section: "draw order group", index: 0, offset: at("dog.begin", 0, 4)},
	{name: "parameters share a binding", version: V42, file: func(a map[string]any) {
		a["parameter.bindingCount"] = i32s(1, 1)
		a["parameter.bindingBegin"] = i32s(0, 0)
	},
		section: "parameter", index: 1, id: "ParamShape", msg: "also belongs to parameter 0"},
	{name: "parameter type 2", version: V42, file: func(a map[string]any) { a["parameter.type"] = i32s(0, 2) },
		section: "parameter", index: 1, id: "ParamShape", field: "parameter types", offset: at("parameter.type", 1, 4)},
	{name: "blend shape keyform count", version: V42, file: func(a map[string]any) { a["bskb.kfCount"] = i32s(1) },
		section: "blend shape keyform binding", index: 0, msg: "needs 2"},
	{name: "blend shape target out of range", version: V50, file: func(a map[string]any) { a["bsArt.target"] = i32s(2) },
		section: "blend shape (art mesh)", index: 0, field: "targets", offset: at("bsArt.target", 0, 4)},
	{name: "blend shape base key", version: V42, file: func(a map[string]any) { a["bspb.baseKey"] = i32s(2) },
		section: "blend shape parameter binding", index: 0, msg: "base key 2"},
	{name: "constraint out of range", version: V42, file: func(a map[string]any) { a["bsci.index"] = i32s(1) },
		section: "blend shape constraint indices", index: -1, offset: at("bsci.index", 0, 4)},
	{name: "color out of range", version: V50, file: func(a map[string]any) { a["artKF.mulBegin"] = i32s(3, 4, 5, 6, 9) },
		section: "art mesh keyform", index: 4, field: "art mesh keyform multiply color begin indices", offset: at("artKF.mulBegin", 4, 4), msg: "color 9"},
	{name: "4.2 colors past the table", version: V42, file: func(a map[string]any) { a["artMesh.colorBegin"] = i32s(3, 9) },
		section: "art mesh", index: 1, id: "Clip", field: "art mesh color begin indices"},
	{name: "offscreen of a part that does not name it", version: V53, file: func(a map[string]any) { a["part.offscreen"] = i32s(-1) },
		section: "offscreen", index: 0, field: "offscreen owner part indices", offset: at("offscreen.owner", 0, 4)},
	{name: "part names a missing offscreen", version: V53, file: func(a map[string]any) { a["part.offscreen"] = i32s(1) },
		section: "part", index: 0, id: "PartRoot", field: "part offscreen indices"},
	{name: "offscreen keyform out of range", version: V53, file: func(a map[string]any) { a["partKF.offscreenKF"] = i32s(1) },
		section: "part keyform", index: 0, field: "part keyform offscreen keyform indices", offset: at("partKF.offscreenKF", 0, 4)},
}

func TestHostileFiles(t *testing.T) {
	for _, c := range hostileCases {
		t.Run(c.name, func(t *testing.T) {
			v := c.version
			if v == 0 {
				v = V30
			}
			f := minimal(v)
			if c.file != nil {
				c.file(f.arrays)
			}
			data, lay := f.encode(t)
			if c.bytes != nil {
				data = c.bytes(data, lay)
			}
			m, err := Parse(data)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, %v; want a *FormatError", m, err)
			}
			if !strings.HasPrefix(err.Error(), "moc3: ") {
				t.Errorf("error %q does not start with \"moc3: \"", err)
			}
			if fe.Section != c.section || fe.Index != c.index ||
				fe.ID != c.id && c.id != "" || !strings.Contains(fe.Field, c.field) || !strings.Contains(fe.Msg, c.msg) {
				t.Errorf("got %s\n(%+v)\nwant section %q index %d id %q field ~%q msg ~%q", err, *fe, c.section, c.index, c.id, c.field, c.msg)
			}
			if c.offset != nil {
				if want := c.offset(lay); fe.Offset != want {
					t.Errorf("offset 0x%x, want 0x%x (%s)", fe.Offset, want, err)
				}
			}
		})
	}
}

// Every prefix of every version's file is refused, without a panic.
func TestTruncatedFiles(t *testing.T) {
	for v := V30; v <= V53; v++ {
		data, _ := minimal(v).encode(t)
		// The last array starts at a multiple of 64 at most 64 bytes before
		// the end (the padding), so every shorter prefix lacks part of it.
		for n := range len(data) - 63 {
			if _, err := Parse(data[:n]); err == nil {
				t.Fatalf("version %s: %d of %d bytes accepted", v, n, len(data))
			}
		}
	}
}

func TestFormatErrorText(t *testing.T) {
	for _, c := range []struct {
		e    FormatError
		want string
	}{
		{FormatError{Section: "art mesh", Index: 12, ID: "ArtMesh93", Field: "art mesh keyform position begin indices[3]", Offset: 0x1a2c, Msg: "odd"},
			"moc3: art mesh 12 (ArtMesh93): art mesh keyform position begin indices[3] at offset 0x1a2c: odd"},
		{FormatError{Section: "header", Index: -1, Offset: 0, Msg: "short"}, "moc3: header at offset 0x0: short"},
		{FormatError{Section: "part", Index: 0, ID: "a\nb", Offset: -1, Msg: "loops"}, `moc3: part 0 (a\nb): loops`},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
