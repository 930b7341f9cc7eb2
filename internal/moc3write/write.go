package moc3write

import (
	"encoding/binary"
	"math"
)

// Layout constants (see the package comment for their sources).
const (
	headerSize   = 64   // magic, version, endianness, padding
	tableOffset  = 0x40 // the section offset table follows the header
	align        = 64   // every array starts on a 64-byte boundary…
	runtimeEntry = 8    // …runtime-space arrays hold 8 bytes per object
	canvasSize   = 64
)

// firstSection returns where the count table starts: after the header, the
// offset table and the space the Core's runtime uses.
func firstSection(v uint8) int {
	if v >= V53 {
		return 0x16c0
	}
	return 0x7c0
}

// countTableSize is 128 bytes (32 counts) before 5.0 and 256 from 5.0 on.
func countTableSize(v uint8) int {
	if v >= V50 {
		return 256
	}
	return 128
}

// Write lays m out as a little-endian .moc3 file of the given version byte
// (V30…V53). Sections the version lacks are omitted; model fields it lacks
// are refused with an error when set. The output depends only on m and
// version.
func Write(m *Model, version uint8) ([]byte, error) {
	return write(m, version, binary.LittleEndian)
}

// WriteBigEndian is Write with every multi-byte value big-endian and the
// header's endianness byte set (moc3.hexpat: "isBigEndian").
func WriteBigEndian(m *Model, version uint8) ([]byte, error) {
	return write(m, version, binary.BigEndian)
}

func write(m *Model, v uint8, order binary.ByteOrder) ([]byte, error) {
	f, err := flatten(m, v)
	if err != nil {
		return nil, err
	}
	return layout(f, m.Canvas, order), nil
}

// layout places a flattened model's arrays and fills the offset table.
func layout(f *file, canvas Canvas, order binary.ByteOrder) []byte {
	v := f.version
	e := &emitter{order: order, pos: firstSection(v)}
	e.buf = make([]byte, e.pos)
	copy(e.buf, "MOC3")
	e.buf[4] = v
	if order == binary.BigEndian {
		e.buf[5] = 1
	}
	e.sections(f, canvas)
	// The file ends on the alignment, as every sample does; empty arrays at
	// the end point at this end.
	e.grow(alignUp(e.pos))
	for i, off := range e.slots {
		order.PutUint32(e.buf[tableOffset+4*i:], off)
	}
	return e.buf
}

func alignUp(n int) int { return (n + align - 1) &^ (align - 1) }

// emitter appends arrays in slot order and records each one's offset.
type emitter struct {
	order binary.ByteOrder
	buf   []byte
	pos   int
	slots []uint32
}

func (e *emitter) grow(n int) {
	if n > len(e.buf) {
		e.buf = append(e.buf, make([]byte, n-len(e.buf))...)
	}
}

// place starts the next array: on the alignment unless it directly follows
// its object's runtime space (the id arrays), records its offset in the
// next slot and returns where to write size bytes.
func (e *emitter) place(size int, adjacent bool) []byte {
	if !adjacent {
		e.pos = alignUp(e.pos)
	}
	e.slots = append(e.slots, uint32(e.pos))
	e.grow(e.pos + size)
	b := e.buf[e.pos : e.pos+size]
	e.pos += size
	return b
}

func (e *emitter) u32(v []uint32) {
	b := e.place(4*len(v), false)
	for i, x := range v {
		e.order.PutUint32(b[4*i:], x)
	}
}

func (e *emitter) i32(v []int32) {
	b := e.place(4*len(v), false)
	for i, x := range v {
		e.order.PutUint32(b[4*i:], uint32(x))
	}
}

func (e *emitter) f32(v []float32) {
	b := e.place(4*len(v), false)
	for i, x := range v {
		e.order.PutUint32(b[4*i:], math.Float32bits(x))
	}
}

func (e *emitter) u16(v []uint16) {
	b := e.place(2*len(v), false)
	for i, x := range v {
		e.order.PutUint16(b[2*i:], x)
	}
}

func (e *emitter) u8(v []uint8) { copy(e.place(len(v), false), v) }

// runtime reserves n zeroed 8-byte entries the Core fills at load time.
func (e *emitter) runtime(n int) { e.place(runtimeEntry*n, false) }

// ids writes 64-byte NUL-padded ids right after the runtime space.
func (e *emitter) ids(v []string) {
	b := e.place(64*len(v), true)
	for i, s := range v {
		copy(b[64*i:64*i+64], s)
	}
}

// sections emits every array of version f.version in the order of the
// offset table (moc3.hexpat SectionOffsetTable, 5.3 from the Ren sample).
func (e *emitter) sections(f *file, canvas Canvas) {
	v := f.version
	counts := f.counts()
	ct := e.place(countTableSize(v), false)
	for i, c := range counts {
		e.order.PutUint32(ct[4*i:], c)
	}
	cv := e.place(canvasSize, false)
	for i, x := range []float32{canvas.PixelsPerUnit, canvas.OriginX, canvas.OriginY, canvas.Width, canvas.Height} {
		e.order.PutUint32(cv[4*i:], math.Float32bits(x))
	}
	cv[20] = canvas.Flags

	// Parts.
	e.runtime(len(f.partIDs))
	e.ids(f.partIDs)
	e.i32(f.partKB)
	e.i32(f.partKFBegin)
	e.i32(f.partKFCount)
	e.u32(f.partVisible)
	e.u32(f.partEnabled)
	e.i32(f.partParent)
	// Deformers.
	e.runtime(len(f.defIDs))
	e.ids(f.defIDs)
	e.i32(f.defKB)
	e.u32(f.defVisible)
	e.u32(f.defEnabled)
	e.i32(f.defParentPart)
	e.i32(f.defParentDef)
	e.u32(f.defType)
	e.i32(f.defSpecific)
	// Warp deformers.
	e.i32(f.warpKB)
	e.i32(f.warpKFBegin)
	e.i32(f.warpKFCount)
	e.i32(f.warpVertices)
	e.u32(f.warpRows)
	e.u32(f.warpCols)
	// Rotation deformers.
	e.i32(f.rotKB)
	e.i32(f.rotKFBegin)
	e.i32(f.rotKFCount)
	e.f32(f.rotBaseAngle)
	// Art meshes: four runtime spaces, then the ids right after the last.
	for range 4 {
		e.runtime(len(f.artIDs))
	}
	e.ids(f.artIDs)
	e.i32(f.artKB)
	e.i32(f.artKFBegin)
	e.i32(f.artKFCount)
	e.u32(f.artVisible)
	e.u32(f.artEnabled)
	e.i32(f.artParentPart)
	e.i32(f.artParentDef)
	e.u32(f.artTexture)
	e.u8(f.artFlags)
	e.i32(f.artVertices)
	e.i32(f.artUVBegin)
	e.i32(f.artIndexBegin)
	e.i32(f.artIndexCount)
	e.i32(f.artMaskBegin)
	e.i32(f.artMaskCount)
	// Parameters.
	e.runtime(len(f.paramIDs))
	e.ids(f.paramIDs)
	e.f32(f.paramMax)
	e.f32(f.paramMin)
	e.f32(f.paramDefault)
	e.u32(f.paramRepeat)
	e.u32(f.paramDecimals)
	e.i32(f.paramPBBegin)
	e.i32(f.paramPBCount)
	// Keyforms.
	e.f32(f.partKFDrawOrder)
	e.f32(f.warpKFOpacity)
	e.i32(f.warpKFPosBegin)
	e.f32(f.rotKFOpacity)
	e.f32(f.rotKFAngle)
	e.f32(f.rotKFOriginX)
	e.f32(f.rotKFOriginY)
	e.f32(f.rotKFScale)
	e.u32(f.rotKFReflectX)
	e.u32(f.rotKFReflectY)
	e.f32(f.artKFOpacity)
	e.f32(f.artKFDrawOrder)
	e.i32(f.artKFPosBegin)
	e.f32(f.positions)
	e.i32(f.pbIndices)
	e.i32(f.kbBegin)
	e.i32(f.kbCount)
	e.i32(f.pbKeysBegin)
	e.i32(f.pbKeysCount)
	e.f32(f.keys)
	e.f32(f.uvs)
	e.u16(f.vertexIndices)
	e.i32(f.masks)
	e.i32(f.dogBegin)
	e.i32(f.dogCount)
	e.i32(f.dogTotal)
	e.u32(f.dogMax)
	e.u32(f.dogMin)
	e.u32(f.dogoType)
	e.i32(f.dogoIndex)
	e.i32(f.dogoSelf)
	// Glue.
	e.runtime(len(f.glueIDs))
	e.ids(f.glueIDs)
	e.i32(f.glueKB)
	e.i32(f.glueKFBegin)
	e.i32(f.glueKFCount)
	e.i32(f.glueA)
	e.i32(f.glueB)
	e.i32(f.glueInfoBegin)
	e.i32(f.glueInfoCount)
	e.f32(f.glueInfoWeight)
	e.u16(f.glueInfoVertex)
	e.f32(f.glueKFIntensity)
	if v >= V33 {
		e.u32(f.warpQuad)
	}
	if v >= V42 {
		e.runtime(len(f.paramIDs))
		e.i32(f.paramKeysBegin)
		e.i32(f.paramKeysCount)
		e.i32(f.warpColorBegin)
		e.i32(f.rotColorBegin)
		e.i32(f.artColorBegin)
		e.f32(f.mulR)
		e.f32(f.mulG)
		e.f32(f.mulB)
		e.f32(f.scrR)
		e.f32(f.scrG)
		e.f32(f.scrB)
		e.u32(f.paramType)
		e.i32(f.paramBSPBBegin)
		e.i32(f.paramBSPBCount)
		e.i32(f.bspbKeysBegin)
		e.i32(f.bspbKeysCount)
		e.i32(f.bspbBase)
		e.i32(f.bskbPB)
		e.i32(f.bskbKFBegin)
		e.i32(f.bskbKFCount)
		e.i32(f.bskbCIBegin)
		e.i32(f.bskbCICount)
		e.targets(f.bsWarp)
		e.targets(f.bsArt)
		e.i32(f.bsConstraintIndices)
		e.i32(f.bscParam)
		e.i32(f.bscValBegin)
		e.i32(f.bscValCount)
		e.f32(f.bscvKey)
		e.f32(f.bscvWeight)
	}
	if v >= V50 {
		e.i32(f.warpKFMul)
		e.i32(f.warpKFScr)
		e.i32(f.rotKFMul)
		e.i32(f.rotKFScr)
		e.i32(f.artKFMul)
		e.i32(f.artKFScr)
		e.targets(f.bsPart)
		e.targets(f.bsRot)
		e.targets(f.bsGlue)
	}
	if v >= V53 {
		e.i32(f.partOffscreen)
		e.u32(f.artBlend)
		e.runtime(len(f.offOwner))
		e.i32(f.offOwner)
		e.u8(f.offFlags)
		e.u32(f.offBlend)
		e.i32(f.offMaskBegin)
		e.i32(f.offMaskCount)
		e.i32(f.partKFOffscreenKF)
		e.f32(f.offKFOpacity)
		e.i32(f.offKFMul)
		e.i32(f.offKFScr)
		// Three more slots, empty in the only 5.3 sample: written empty.
		for range unknown53Slots {
			e.place(0, false)
		}
	}
}

// unknown53Slots is the number of trailing 5.3 offset-table slots whose
// meaning no public description gives (all three point at the file's end in
// the Ren sample, i.e. empty arrays).
const unknown53Slots = 3

func (e *emitter) targets(t bsTargets) {
	e.i32(t.target)
	e.i32(t.kbBegin)
	e.i32(t.kbCount)
}

// Count-table indices (moc3.hexpat CountInfoTable; 35 and 36 from the Ren
// sample).
const (
	CountParts = iota
	CountDeformers
	CountWarpDeformers
	CountRotationDeformers
	CountArtMeshes
	CountParameters
	CountPartKeyforms
	CountWarpDeformerKeyforms
	CountRotationDeformerKeyforms
	CountArtMeshKeyforms
	CountKeyformPositions // floats, two per position
	CountParameterBindingIndices
	CountKeyformBindings
	CountParameterBindings
	CountKeys
	CountUVs // floats, two per vertex
	CountPositionIndices
	CountDrawableMasks
	CountDrawOrderGroups
	CountDrawOrderGroupObjects
	CountGlue
	CountGlueInfo
	CountGlueKeyforms
	CountKeyformMultiplyColors // 4.2+
	CountKeyformScreenColors
	CountBlendShapeParameterBindings
	CountBlendShapeKeyformBindings
	CountBlendShapesWarpDeformers
	CountBlendShapesArtMeshes
	CountBlendShapeConstraintIndices
	CountBlendShapeConstraints
	CountBlendShapeConstraintValues
	CountBlendShapesParts // 5.0+
	CountBlendShapesRotationDeformers
	CountBlendShapesGlue
	CountOffscreens        // 5.3+
	CountOffscreenKeyforms // 5.3+
)

// NumCounts returns how many count-table entries version v defines.
func NumCounts(v uint8) int {
	switch {
	case v >= V53:
		return CountOffscreenKeyforms + 1
	case v >= V50:
		return CountBlendShapesGlue + 1
	case v >= V42:
		return CountBlendShapeConstraintValues + 1
	}
	return CountGlueKeyforms + 1
}

func (f *file) counts() []uint32 {
	all := []int{
		len(f.partIDs), len(f.defIDs), len(f.warpKB), len(f.rotKB), len(f.artIDs), len(f.paramIDs),
		len(f.partKFDrawOrder), len(f.warpKFOpacity), len(f.rotKFOpacity), len(f.artKFOpacity),
		len(f.positions), len(f.pbIndices), len(f.kbBegin), len(f.pbKeysBegin), len(f.keys),
		len(f.uvs), len(f.vertexIndices), len(f.masks), len(f.dogBegin), len(f.dogoType),
		len(f.glueIDs), len(f.glueInfoWeight), len(f.glueKFIntensity),
		len(f.mulR), len(f.scrR), len(f.bspbKeysBegin), len(f.bskbPB),
		len(f.bsWarp.target), len(f.bsArt.target), len(f.bsConstraintIndices), len(f.bscParam), len(f.bscvKey),
		len(f.bsPart.target), len(f.bsRot.target), len(f.bsGlue.target),
		len(f.offOwner), len(f.offKFOpacity),
	}
	c := make([]uint32, NumCounts(f.version))
	for i := range c {
		c[i] = uint32(all[i])
	}
	return c
}
