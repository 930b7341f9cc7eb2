package moc3

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"unsafe"
)

// The hand-built files of these tests are written field by field from the
// public descriptions (OpenL2D moc3ingbird src/moc3.hexpat 2.1b: the
// SectionOffsetTable and CountInfoTable structs, field order and element
// types; 5.3 from the structure of the Ren sample, see doc.go). The slot
// list below is this test's own transcription of those structs, not the
// reader's table, so a slot-order mistake in either shows up as a failure.

// slotSpec is one slot of the section offset table: the array's name, the
// count that sizes it and its element type.
type slotSpec struct {
	since Version
	name  string // "section.field"
	count string
	typ   string // rt (8 zero bytes per element), id (64 bytes), i32, f32, u8, i16, unk (never written)
}

// hexpatSlots transcribes moc3.hexpat's SectionOffsetTable after its first
// two slots (count info, canvas info).
var hexpatSlots = func() []slotSpec {
	var out []slotSpec
	add := func(since Version, count, prefix, fieldsList string) {
		for _, f := range strings.Fields(fieldsList) {
			name, typ, _ := strings.Cut(f, ":")
			out = append(out, slotSpec{since, prefix + "." + name, count, typ})
		}
	}
	// PartOffsets
	add(V30, "parts", "part", "runtime:rt ids:id binding:i32 kfBegin:i32 kfCount:i32 visible:i32 enabled:i32 parent:i32")
	// DeformerOffsets
	add(V30, "deformers", "deformer", "runtime:rt ids:id binding:i32 visible:i32 enabled:i32 parentPart:i32 parentDeformer:i32 type:i32 specific:i32")
	// WarpDeformerOffsets
	add(V30, "warps", "warp", "binding:i32 kfBegin:i32 kfCount:i32 vertexCount:i32 rows:i32 columns:i32")
	// RotationDeformerOffsets
	add(V30, "rotations", "rotation", "binding:i32 kfBegin:i32 kfCount:i32 baseAngle:f32")
	// ArtMeshOffsets
	add(V30, "artMeshes", "artMesh", "rt0:rt rt1:rt rt2:rt rt3:rt ids:id binding:i32 kfBegin:i32 kfCount:i32 visible:i32 enabled:i32 parentPart:i32 parentDeformer:i32 texture:i32 flags:u8 vertexCount:i32 uvBegin:i32 indexBegin:i32 indexCount:i32 maskBegin:i32 maskCount:i32")
	// ParameterOffsets
	add(V30, "parameters", "parameter", "runtime:rt ids:id max:f32 min:f32 default:f32 repeat:i32 decimals:i32 bindingBegin:i32 bindingCount:i32")
	add(V30, "partKeyforms", "partKF", "drawOrder:f32")
	add(V30, "warpKeyforms", "warpKF", "opacity:f32 posBegin:i32")
	add(V30, "rotationKeyforms", "rotKF", "opacity:f32 angle:f32 originX:f32 originY:f32 scale:f32 reflectX:i32 reflectY:i32")
	add(V30, "artMeshKeyforms", "artKF", "opacity:f32 drawOrder:f32 posBegin:i32")
	add(V30, "positions", "positions", "xy:f32")
	add(V30, "pbi", "pbi", "index:i32")
	add(V30, "keyformBindings", "kb", "begin:i32 count:i32")
	add(V30, "parameterBindings", "pb", "keysBegin:i32 keysCount:i32")
	add(V30, "keys", "keys", "value:f32")
	add(V30, "uvs", "uvs", "uv:f32")
	add(V30, "indices", "indices", "index:i16")
	add(V30, "masks", "masks", "artMesh:i32")
	add(V30, "dogs", "dog", "begin:i32 count:i32 total:i32 maxOrder:i32 minOrder:i32")
	add(V30, "dogObjects", "dogo", "type:i32 index:i32 self:i32")
	add(V30, "glues", "glue", "runtime:rt ids:id binding:i32 kfBegin:i32 kfCount:i32 meshA:i32 meshB:i32 infoBegin:i32 infoCount:i32")
	add(V30, "glueInfos", "glueInfo", "weight:f32 position:i16")
	add(V30, "glueKeyforms", "glueKF", "intensity:f32")
	// WarpDeformerKeyformOffsetsV3_3 (sized by the warp deformers)
	add(V33, "warps", "warp", "quad:i32")
	// 4.2: ParameterExtensionOffsets, colour begins, KeyformColorOffsets ×2,
	// ParameterOffsetsV4_2, the blend-shape tables.
	add(V42, "parameters", "paramExt", "runtime:rt keysBegin:i32 keysCount:i32")
	add(V42, "warps", "warp", "colorBegin:i32")
	add(V42, "rotations", "rotation", "colorBegin:i32")
	add(V42, "artMeshes", "artMesh", "colorBegin:i32")
	add(V42, "multiply", "multiply", "r:f32 g:f32 b:f32")
	add(V42, "screen", "screen", "r:f32 g:f32 b:f32")
	add(V42, "parameters", "parameter", "type:i32 bsBegin:i32 bsCount:i32")
	add(V42, "bspb", "bspb", "keysBegin:i32 keysCount:i32 baseKey:i32")
	add(V42, "bskb", "bskb", "pb:i32 kfBegin:i32 kfCount:i32 cBegin:i32 cCount:i32")
	add(V42, "bsWarps", "bsWarp", "target:i32 begin:i32 count:i32")
	add(V42, "bsArtMeshes", "bsArt", "target:i32 begin:i32 count:i32")
	add(V42, "bsci", "bsci", "index:i32")
	add(V42, "bsc", "bsc", "parameter:i32 vBegin:i32 vCount:i32")
	add(V42, "bscv", "bscv", "key:f32 weight:f32")
	// 5.0: per-keyform colour indices, blend shapes of parts, rotations, glue.
	add(V50, "warpKeyforms", "warpKF", "mulBegin:i32 scrBegin:i32")
	add(V50, "rotationKeyforms", "rotKF", "mulBegin:i32 scrBegin:i32")
	add(V50, "artMeshKeyforms", "artKF", "mulBegin:i32 scrBegin:i32")
	add(V50, "bsParts", "bsPart", "target:i32 begin:i32 count:i32")
	add(V50, "bsRotations", "bsRot", "target:i32 begin:i32 count:i32")
	add(V50, "bsGlues", "bsGlue", "target:i32 begin:i32 count:i32")
	// 5.3, as laid out in the Ren sample.
	add(V53, "parts", "part", "offscreen:i32")
	add(V53, "artMeshes", "artMesh", "blendMode:i32")
	add(V53, "offscreens", "offscreen", "runtime:rt owner:i32 flags:u8 blendMode:i32 maskBegin:i32 maskCount:i32")
	add(V53, "partKeyforms", "partKF", "offscreenKF:i32")
	add(V53, "offscreenKeyforms", "offKF", "opacity:f32 mulIndex:i32 scrIndex:i32")
	add(V53, "", "unknown", "a:unk b:unk c:unk")
	return out
}()

// hexpatCounts is CountInfoTable's order; 4.2 adds nine counts, 5.0 three,
// 5.3 (from Ren) two.
var hexpatCounts = []struct {
	since Version
	name  string
}{
	{V30, "parts"}, {V30, "deformers"}, {V30, "warps"}, {V30, "rotations"}, {V30, "artMeshes"},
	{V30, "parameters"}, {V30, "partKeyforms"}, {V30, "warpKeyforms"}, {V30, "rotationKeyforms"},
	{V30, "artMeshKeyforms"}, {V30, "positions"}, {V30, "pbi"}, {V30, "keyformBindings"},
	{V30, "parameterBindings"}, {V30, "keys"}, {V30, "uvs"}, {V30, "indices"}, {V30, "masks"},
	{V30, "dogs"}, {V30, "dogObjects"}, {V30, "glues"}, {V30, "glueInfos"}, {V30, "glueKeyforms"},
	{V42, "multiply"}, {V42, "screen"}, {V42, "bspb"}, {V42, "bskb"}, {V42, "bsWarps"},
	{V42, "bsArtMeshes"}, {V42, "bsci"}, {V42, "bsc"}, {V42, "bscv"},
	{V50, "bsParts"}, {V50, "bsRotations"}, {V50, "bsGlues"},
	{V53, "offscreens"}, {V53, "offscreenKeyforms"},
}

// file is a hand-built .moc3 under construction: array contents by slot
// name ([]int32, []float32, []uint8, []int16 or []string).
type file struct {
	version   Version
	bigEndian bool
	canvas    [5]float32
	flags     uint8
	arrays    map[string]any
}

// layout is where encode put things, for the hostile tests.
type layout struct {
	countTable int            // offset of the count table
	countAt    map[string]int // offset of each count
	slotAt     map[string]int // offset of each slot of the offset table
	arrayAt    map[string]int // offset of each non-empty array
}

func length(v any) int {
	switch a := v.(type) {
	case []int32:
		return len(a)
	case []float32:
		return len(a)
	case []uint8:
		return len(a)
	case []int16:
		return len(a)
	case []string:
		return len(a)
	}
	panic("unknown array type")
}

// encode writes the file: header, offset table at 0x40, count table at
// 0x7c0 (as the 1.0–5.0 samples; anywhere is legal), the canvas, then every
// array 64-byte aligned in slot order.
func (f *file) encode(t testing.TB) ([]byte, layout) {
	t.Helper()
	type byteOrder interface {
		binary.ByteOrder
		binary.AppendByteOrder
	}
	var order byteOrder = binary.LittleEndian
	if f.bigEndian {
		order = binary.BigEndian
	}
	var slots []slotSpec
	for _, s := range hexpatSlots {
		if s.since <= f.version {
			slots = append(slots, s)
		}
	}
	// Counts from the arrays' lengths; every array of one count must agree.
	counts := map[string]int{}
	for _, s := range slots {
		if s.typ == "rt" || s.typ == "unk" {
			continue
		}
		n := 0
		if a, ok := f.arrays[s.name]; ok {
			n = length(a)
		}
		if c, ok := counts[s.count]; ok && c != n {
			t.Fatalf("test file: %s has %d elements, count %s is %d", s.name, n, s.count, c)
		}
		counts[s.count] = n
	}
	for name := range f.arrays {
		found := false
		for _, s := range slots {
			found = found || s.name == name
		}
		if !found {
			t.Fatalf("test file: array %s is not a slot of version %s", name, f.version)
		}
	}
	lay := layout{countAt: map[string]int{}, slotAt: map[string]int{}, arrayAt: map[string]int{}}
	tableEnd := 0x40 + 4*(2+len(slots))
	pos := max(0x7c0, (tableEnd+63)&^63)
	lay.countTable = pos
	var nCounts int
	for _, c := range hexpatCounts {
		if c.since <= f.version {
			nCounts++
		}
	}
	countSize := 128
	if f.version >= V50 {
		countSize = 256
	}
	canvasAt := pos + countSize
	pos = canvasAt + 64
	buf := make([]byte, pos)
	copy(buf, "MOC3")
	buf[4] = byte(f.version)
	if f.bigEndian {
		buf[5] = 1
	}
	order.PutUint32(buf[0x40:], uint32(lay.countTable))
	order.PutUint32(buf[0x44:], uint32(canvasAt))
	for i, c := range hexpatCounts[:nCounts] {
		lay.countAt[c.name] = lay.countTable + 4*i
		order.PutUint32(buf[lay.countTable+4*i:], uint32(counts[c.name]))
	}
	for i, v := range f.canvas {
		order.PutUint32(buf[canvasAt+4*i:], math.Float32bits(v))
	}
	buf[canvasAt+20] = f.flags
	for i, s := range slots {
		slotAt := 0x40 + 4*(2+i)
		lay.slotAt[s.name] = slotAt
		var b []byte
		switch a := f.arrays[s.name].(type) {
		case nil:
			if s.typ == "rt" {
				b = make([]byte, 8*counts[s.count])
			}
		case []int32:
			for _, v := range a {
				b = order.AppendUint32(b, uint32(v))
			}
		case []float32:
			for _, v := range a {
				b = order.AppendUint32(b, math.Float32bits(v))
			}
		case []uint8:
			b = append(b, a...)
		case []int16:
			for _, v := range a {
				b = order.AppendUint16(b, uint16(v))
			}
		case []string:
			for _, v := range a {
				id := make([]byte, 64)
				copy(id, v)
				b = append(b, id...)
			}
		}
		if len(b) == 0 {
			order.PutUint32(buf[slotAt:], uint32(len(buf))) // empty: points at the current end
			continue
		}
		for len(buf)%64 != 0 {
			buf = append(buf, 0)
		}
		lay.arrayAt[s.name] = len(buf)
		order.PutUint32(buf[slotAt:], uint32(len(buf)))
		buf = append(buf, b...)
	}
	for len(buf)%64 != 0 {
		buf = append(buf, 0)
	}
	return buf, lay
}

func i32s(v ...int32) []int32     { return v }
func f32s(v ...float32) []float32 { return v }
func strs(v ...string) []string   { return v }
func bools(v ...bool) []int32 {
	out := make([]int32, len(v))
	for i, b := range v {
		if b {
			out[i] = 1
		}
	}
	return out
}

// minimal is a small model using every table of its version:
//
//   - parameter 0 "ParamA" in [-1, 1], default 0, one parameter binding
//     (keys -1, 1); from 4.2 parameter 1 "ParamShape", a blend-shape
//     parameter with one blend-shape parameter binding (keys 0, 1, base 0).
//   - keyform binding 0: no axes (1 keyform); keyform binding 1: ParamA
//     (2 keyforms).
//   - part 0 "PartRoot" (binding 0, draw order 500).
//   - deformer 0 "Warp": warp 0, 1×1 cells (4 points), binding 1; deformer 1
//     "Rotation": rotation 0 under deformer 0, binding 0.
//   - art mesh 0 "Face": 3 vertices, one triangle, binding 1, masked by art
//     mesh 1; art mesh 1 "Clip": 3 vertices, binding 0.
//   - one draw order group of the two meshes and the part.
//   - glue 0 "Glue" pairing vertex 0 of Face and vertex 2 of Clip.
//   - 4.2+: a blend shape on Face (2 keyforms) with one constraint by ParamA.
//   - 5.3: part 0 drawn offscreen (opacity keyform 0.75), Face in blend mode
//     Multiply/Over.
func minimal(v Version) *file {
	f := &file{version: v, canvas: [5]float32{1000, 500, 600, 1000, 1200}, flags: 1, arrays: map[string]any{}}
	a := f.arrays
	a["parameter.ids"] = strs("ParamA")
	a["parameter.max"] = f32s(1)
	a["parameter.min"] = f32s(-1)
	a["parameter.default"] = f32s(0)
	a["parameter.repeat"] = bools(false)
	a["parameter.decimals"] = i32s(1)
	a["parameter.bindingBegin"] = i32s(0)
	a["parameter.bindingCount"] = i32s(1)
	a["pb.keysBegin"] = i32s(0) // keys[0:2] = -1, 1
	a["pb.keysCount"] = i32s(2)
	a["keys.value"] = f32s(-1, 1)
	a["pbi.index"] = i32s(0)
	a["kb.begin"] = i32s(0, 0) // binding 0: no axes; binding 1: pbi[0:1]
	a["kb.count"] = i32s(0, 1)

	a["part.ids"] = strs("PartRoot")
	a["part.binding"] = i32s(0)
	a["part.kfBegin"] = i32s(0)
	a["part.kfCount"] = i32s(1)
	a["part.visible"] = bools(true)
	a["part.enabled"] = bools(true)
	a["part.parent"] = i32s(-1)
	a["partKF.drawOrder"] = f32s(500)

	a["deformer.ids"] = strs("Warp", "Rotation")
	a["deformer.binding"] = i32s(1, 0)
	a["deformer.visible"] = bools(true, true)
	a["deformer.enabled"] = bools(true, false)
	a["deformer.parentPart"] = i32s(0, 0)
	a["deformer.parentDeformer"] = i32s(-1, 0)
	a["deformer.type"] = i32s(0, 1) // warp, rotation
	a["deformer.specific"] = i32s(0, 0)
	a["warp.binding"] = i32s(1)
	a["warp.kfBegin"] = i32s(0)
	a["warp.kfCount"] = i32s(2)
	a["warp.vertexCount"] = i32s(4) // (1+1)·(1+1)
	a["warp.rows"] = i32s(1)
	a["warp.columns"] = i32s(1)
	a["warpKF.opacity"] = f32s(1, 0.5)
	a["warpKF.posBegin"] = i32s(0, 8) // floats 0–7 and 8–15
	a["rotation.binding"] = i32s(0)
	a["rotation.kfBegin"] = i32s(0)
	a["rotation.kfCount"] = i32s(1)
	a["rotation.baseAngle"] = f32s(90)
	a["rotKF.opacity"] = f32s(1)
	a["rotKF.angle"] = f32s(30)
	a["rotKF.originX"] = f32s(0.5)
	a["rotKF.originY"] = f32s(0.25)
	a["rotKF.scale"] = f32s(2)
	a["rotKF.reflectX"] = bools(true)
	a["rotKF.reflectY"] = bools(false)

	a["artMesh.ids"] = strs("Face", "Clip")
	a["artMesh.binding"] = i32s(1, 0)
	a["artMesh.kfBegin"] = i32s(0, 2)
	a["artMesh.kfCount"] = i32s(2, 1)
	a["artMesh.visible"] = bools(true, false)
	a["artMesh.enabled"] = bools(true, true)
	a["artMesh.parentPart"] = i32s(0, 0)
	a["artMesh.parentDeformer"] = i32s(1, -1)
	a["artMesh.texture"] = i32s(0, 1)
	a["artMesh.flags"] = []uint8{4, 1} // Face double-sided; Clip additive
	a["artMesh.vertexCount"] = i32s(3, 3)
	a["artMesh.uvBegin"] = i32s(0, 6) // floats 0–5, 6–11
	a["artMesh.indexBegin"] = i32s(0, 3)
	a["artMesh.indexCount"] = i32s(3, 3)
	a["artMesh.maskBegin"] = i32s(0, 0)
	a["artMesh.maskCount"] = i32s(1, 0)
	a["artKF.opacity"] = f32s(1, 0.5, 1)
	a["artKF.drawOrder"] = f32s(500, 500, 400)
	a["artKF.posBegin"] = i32s(16, 22, 28)
	pos := make([]float32, 34) // warp 2×4 points, Face 2×3, Clip 1×3
	for i := range pos {
		pos[i] = float32(i) / 4
	}
	a["positions.xy"] = pos
	a["uvs.uv"] = f32s(0, 0, 1, 0, 0, 1, 0.5, 0.5, 1, 1, 0.5, 1)
	a["indices.index"] = []int16{0, 1, 2, 2, 1, 0}
	a["masks.artMesh"] = i32s(1)

	a["dog.begin"] = i32s(0)
	a["dog.count"] = i32s(3)
	a["dog.total"] = i32s(3)
	a["dog.maxOrder"] = i32s(1000)
	a["dog.minOrder"] = i32s(0)
	a["dogo.type"] = i32s(0, 0, 1) // Face, Clip, PartRoot
	a["dogo.index"] = i32s(0, 1, 0)
	a["dogo.self"] = i32s(-1, -1, -1)

	a["glue.ids"] = strs("Glue")
	a["glue.binding"] = i32s(0)
	a["glue.kfBegin"] = i32s(0)
	a["glue.kfCount"] = i32s(1)
	a["glue.meshA"] = i32s(0)
	a["glue.meshB"] = i32s(1)
	a["glue.infoBegin"] = i32s(0)
	a["glue.infoCount"] = i32s(2)
	a["glueInfo.weight"] = f32s(0.25, 0.75)
	a["glueInfo.position"] = []int16{0, 2} // Face vertex 0, Clip vertex 2
	a["glueKF.intensity"] = f32s(1)

	if v >= V33 {
		a["warp.quad"] = bools(true)
	}
	if v >= V42 {
		a["parameter.ids"] = strs("ParamA", "ParamShape")
		a["parameter.max"] = f32s(1, 1)
		a["parameter.min"] = f32s(-1, 0)
		a["parameter.default"] = f32s(0, 0)
		a["parameter.repeat"] = bools(false, true)
		a["parameter.decimals"] = i32s(1, 2)
		a["parameter.bindingBegin"] = i32s(0, 1)
		a["parameter.bindingCount"] = i32s(1, 0)
		a["paramExt.keysBegin"] = i32s(0, 2) // ParamA: -1, 1; ParamShape: 0, 1
		a["paramExt.keysCount"] = i32s(2, 2)
		a["parameter.type"] = i32s(0, 1)
		a["parameter.bsBegin"] = i32s(0, 0)
		a["parameter.bsCount"] = i32s(0, 1)
		a["keys.value"] = f32s(-1, 1, 0, 1)
		a["bspb.keysBegin"] = i32s(2)
		a["bspb.keysCount"] = i32s(2)
		a["bspb.baseKey"] = i32s(0)
		a["bskb.pb"] = i32s(0)
		a["bskb.kfBegin"] = i32s(3) // art mesh keyforms 3, 4
		a["bskb.kfCount"] = i32s(2)
		a["bskb.cBegin"] = i32s(0)
		a["bskb.cCount"] = i32s(1)
		a["bsArt.target"] = i32s(0)
		a["bsArt.begin"] = i32s(0)
		a["bsArt.count"] = i32s(1)
		a["bsci.index"] = i32s(0)
		a["bsc.parameter"] = i32s(0)
		a["bsc.vBegin"] = i32s(0)
		a["bsc.vCount"] = i32s(2)
		a["bscv.key"] = f32s(-1, 1)
		a["bscv.weight"] = f32s(0, 1)
		a["artKF.opacity"] = f32s(1, 0.5, 1, 1, 1)
		a["artKF.drawOrder"] = f32s(500, 500, 400, 500, 500)
		a["artKF.posBegin"] = i32s(16, 22, 28, 34, 40)
		pos := make([]float32, 46)
		for i := range pos {
			pos[i] = float32(i) / 4
		}
		a["positions.xy"] = pos
		// Colours: warp keyforms 0–1, rotation 2, Face 3–4, Clip 5, shape 6–7.
		a["warp.colorBegin"] = i32s(0)
		a["rotation.colorBegin"] = i32s(2)
		a["artMesh.colorBegin"] = i32s(3, 5)
		var r, g, b, sr, sg, sb []float32
		for i := range 9 {
			r, g, b = append(r, 1-float32(i)/16), append(g, 1), append(b, 0.5)
			sr, sg, sb = append(sr, float32(i)/16), append(sg, 0), append(sb, 0.25)
		}
		a["multiply.r"], a["multiply.g"], a["multiply.b"] = r, g, b
		a["screen.r"], a["screen.g"], a["screen.b"] = sr, sg, sb
	}
	if v >= V50 {
		a["warpKF.mulBegin"] = i32s(0, 1)
		a["warpKF.scrBegin"] = i32s(0, 1)
		a["rotKF.mulBegin"] = i32s(2)
		a["rotKF.scrBegin"] = i32s(2)
		a["artKF.mulBegin"] = i32s(3, 4, 5, 6, 7)
		a["artKF.scrBegin"] = i32s(3, 4, 5, 6, 7)
	}
	if v >= V53 {
		a["part.offscreen"] = i32s(0)
		a["artMesh.blendMode"] = i32s(6, 0) // Face: Multiply (6), alpha Over (0)
		a["offscreen.owner"] = i32s(0)
		a["offscreen.flags"] = []uint8{0x0c}   // double-sided, inverted mask
		a["offscreen.blendMode"] = i32s(0x103) // Add (3), alpha Atop (1)
		a["offscreen.maskBegin"] = i32s(1)
		a["offscreen.maskCount"] = i32s(1)
		a["masks.artMesh"] = i32s(1, 1) // Face's mask, the offscreen's mask
		a["partKF.offscreenKF"] = i32s(0)
		a["offKF.opacity"] = f32s(0.75)
		a["offKF.mulIndex"] = i32s(8)
		a["offKF.scrIndex"] = i32s(8)
	}
	return f
}

// wantMinimal is what minimal(v) holds, written from its construction.
func wantMinimal(v Version, bigEndian bool) *Moc {
	// pts(start, n) is n points (x,y pairs) from float start of the
	// positions, which minimal fills with float(i)/4.
	pts := func(start, n int) []float32 {
		out := make([]float32, 2*n)
		for k := range out {
			out[k] = float32(start+k) / 4
		}
		return out
	}
	// Colour i: multiply (1 − i/16, 1, 0.5), screen (i/16, 0, 0.25); files
	// before 4.2 have none (white, black).
	col := func(i int) (RGB, RGB) {
		if v < V42 || i < 0 {
			return White, Black
		}
		return RGB{1 - float32(i)/16, 1, 0.5}, RGB{float32(i) / 16, 0, 0.25}
	}
	axisA := Axis{Parameter: 0, Keys: []float32{-1, 1}}
	m := &Moc{
		Version:   v,
		BigEndian: bigEndian,
		Canvas:    Canvas{PixelsPerUnit: 1000, OriginX: 500, OriginY: 600, Width: 1000, Height: 1200, Flags: 1},
		Parameters: []Parameter{
			{ID: "ParamA", Min: -1, Max: 1, Default: 0, DecimalPlaces: 1},
		},
		KeyformBindings: []KeyformBinding{{}, {Axes: []Axis{axisA}}},
	}
	if v >= V42 {
		m.Parameters[0].Keys = []float32{-1, 1}
		m.Parameters = append(m.Parameters, Parameter{ID: "ParamShape", Min: 0, Max: 1, Repeat: true, DecimalPlaces: 2, Type: ParameterBlendShape, Keys: []float32{0, 1}})
	}
	part := Part{ID: "PartRoot", Parent: -1, Visible: true, Enabled: true, Offscreen: -1,
		Keyforms: []PartKeyform{{DrawOrder: 500, Opacity: 1, Multiply: White, Screen: Black}}}
	if v >= V53 {
		part.Offscreen = 0
		part.Keyforms[0].Opacity = 0.75
		part.Keyforms[0].Multiply, part.Keyforms[0].Screen = col(8)
	}
	m.Parts = []Part{part}
	m.Deformers = []Deformer{
		{ID: "Warp", Kind: Warp, Visible: true, Enabled: true, ParentPart: 0, ParentDeformer: -1, Index: 0, ListBinding: 1},
		{ID: "Rotation", Kind: Rotation, Visible: true, Enabled: false, ParentPart: 0, ParentDeformer: 0, Index: 0, ListBinding: 0},
	}
	w0m, w0s := col(0)
	w1m, w1s := col(1)
	m.WarpDeformers = []WarpDeformer{{Deformer: 0, Columns: 1, Rows: 1, Quad: v >= V33, Binding: 1, Axes: []Axis{axisA},
		Keyforms: []WarpKeyform{
			{Opacity: 1, Points: pts(0, 4), Multiply: w0m, Screen: w0s},
			{Opacity: 0.5, Points: pts(8, 4), Multiply: w1m, Screen: w1s},
		}}}
	rm, rs := col(2)
	m.RotationDeformers = []RotationDeformer{{Deformer: 1, BaseAngle: 90, Binding: 0,
		Keyforms: []RotationKeyform{{Opacity: 1, Angle: 30, OriginX: 0.5, OriginY: 0.25, Scale: 2, ReflectX: true, Multiply: rm, Screen: rs}}}}
	f0m, f0s := col(3)
	f1m, f1s := col(4)
	face := ArtMesh{ID: "Face", Visible: true, Enabled: true, ParentPart: 0, ParentDeformer: 1, Texture: 0,
		Flags: FlagDoubleSided, BlendMode: BlendNormal, VertexCount: 3,
		UVs: []float32{0, 0, 1, 0, 0, 1}, Indices: []uint16{0, 1, 2}, Masks: []int{1},
		Binding: 1, Axes: []Axis{axisA},
		Keyforms: []ArtMeshKeyform{
			{Opacity: 1, DrawOrder: 500, Positions: pts(16, 3), Multiply: f0m, Screen: f0s},
			{Opacity: 0.5, DrawOrder: 500, Positions: pts(22, 3), Multiply: f1m, Screen: f1s},
		}}
	cm, cs := col(5)
	clip := ArtMesh{ID: "Clip", Visible: false, Enabled: true, ParentPart: 0, ParentDeformer: -1, Texture: 1,
		Flags: FlagBlendAdditive, BlendMode: BlendAddCompatible, VertexCount: 3,
		UVs: []float32{0.5, 0.5, 1, 1, 0.5, 1}, Indices: []uint16{2, 1, 0}, Binding: 0,
		Keyforms: []ArtMeshKeyform{{Opacity: 1, DrawOrder: 400, Positions: pts(28, 3), Multiply: cm, Screen: cs}}}
	if v >= V42 {
		// Blend-shape keyforms have per-keyform colours from 5.0 only.
		s0, s1 := -1, -1
		if v >= V50 {
			s0, s1 = 6, 7
		}
		s0m, s0s := col(s0)
		s1m, s1s := col(s1)
		face.BlendShapes = []BlendShape[ArtMeshKeyform]{{Parameter: 1, Keys: []float32{0, 1}, BaseKey: 0,
			Keyforms: []ArtMeshKeyform{
				{Opacity: 1, DrawOrder: 500, Positions: pts(34, 3), Multiply: s0m, Screen: s0s},
				{Opacity: 1, DrawOrder: 500, Positions: pts(40, 3), Multiply: s1m, Screen: s1s},
			},
			Constraints: []BlendShapeConstraint{{Parameter: 0, Keys: []float32{-1, 1}, Weights: []float32{0, 1}}}}}
	}
	if v >= V53 {
		face.BlendMode = 6 // Multiply, Over
		clip.BlendMode = 0 // 5.3 files carry the mode; the flag bits are not consulted
	}
	m.ArtMeshes = []ArtMesh{face, clip}
	m.Glues = []Glue{{ID: "Glue", MeshA: 0, MeshB: 1, Pairs: []GluePair{{A: 0, B: 2, WeightA: 0.25, WeightB: 0.75}}, Binding: 0, Intensities: []float32{1}}}
	m.DrawOrderGroups = []DrawOrderGroup{{
		Objects:      []DrawOrderObject{{DrawArtMesh, 0, -1}, {DrawArtMesh, 1, -1}, {DrawPart, 0, -1}},
		TotalObjects: 3, MinDrawOrder: 0, MaxDrawOrder: 1000,
	}}
	if v >= V53 {
		m.Offscreens = []Offscreen{{Owner: 0, Flags: FlagDoubleSided | FlagInvertedMask, BlendMode: 0x103, Masks: []int{1}}}
	}
	return m
}

func TestHandBuiltEveryVersion(t *testing.T) {
	for v := V30; v <= V53; v++ {
		for _, be := range []bool{false, true} {
			f := minimal(v)
			f.bigEndian = be
			data, _ := f.encode(t)
			got, err := Parse(data)
			if err != nil {
				t.Fatalf("version %s big-endian %v: %v", v, be, err)
			}
			if d := diff(wantMinimal(v, be), got); d != "" {
				t.Errorf("version %s big-endian %v: %s", v, be, d)
			}
			checkConsistent(t, got)
			// The same file one byte off its alignment: arrays that a
			// file in the machine's byte order lends as views are copied
			// instead, with the same values.
			shifted := make([]byte, len(data)+1)[1:]
			copy(shifted, data)
			got, err = Parse(shifted)
			if err != nil {
				t.Fatalf("version %s big-endian %v, unaligned: %v", v, be, err)
			}
			if d := diff(wantMinimal(v, be), got); d != "" {
				t.Errorf("version %s big-endian %v, unaligned: %s", v, be, d)
			}
		}
	}
}

// TestParseSharesFile: a file in the machine's byte order lends its
// aligned float arrays to the Moc (Parse's documented sharing), so that
// reading the keyform positions costs no copy.
func TestParseSharesFile(t *testing.T) {
	f := minimal(V50)
	f.bigEndian = hostBigEndian
	data, _ := f.encode(t)
	m, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	pos := m.ArtMeshes[0].Keyforms[0].Positions
	p := uintptr(unsafe.Pointer(unsafe.SliceData(pos)))
	start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	if p < start || p >= start+uintptr(len(data)) {
		t.Errorf("keyform positions at %#x are not inside the file's bytes [%#x, %#x)", p, start, start+uintptr(len(data)))
	}
}
