package moc3

// The file layout: a 64-byte header, then at 0x40 the section offset table,
// one u32 file offset per slot. Slot 0 points at the count table, slot 1 at
// the canvas block, the others at one array each, in the order of the field
// constants below; a field added by a later version takes the next slot
// after every field of the versions before it. An array of field f holds
// counts[fields[f].count] elements of fields[f].kind.

// countID indexes the count table.
type countID uint8

const (
	cParts countID = iota
	cDeformers
	cWarpDeformers
	cRotationDeformers
	cArtMeshes
	cParameters
	cPartKeyforms
	cWarpKeyforms
	cRotationKeyforms
	cArtMeshKeyforms
	cKeyformPositions // floats (two per point)
	cParameterBindingIndices
	cKeyformBindings
	cParameterBindings
	cKeys
	cUVs // floats (two per vertex)
	cPositionIndices
	cDrawableMasks
	cDrawOrderGroups
	cDrawOrderGroupObjects
	cGlues
	cGlueInfos
	cGlueKeyforms
	// 4.2
	cMultiplyColors
	cScreenColors
	cBlendShapeParameterBindings
	cBlendShapeKeyformBindings
	cBlendShapesWarp
	cBlendShapesArtMesh
	cBlendShapeConstraintIndices
	cBlendShapeConstraints
	cBlendShapeConstraintValues
	// 5.0
	cBlendShapesPart
	cBlendShapesRotation
	cBlendShapesGlue
	// 5.3
	cOffscreens
	cOffscreenKeyforms

	numCounts
)

// countTableLen is the number of counts a version's table holds.
func countTableLen(v Version) int {
	switch {
	case v >= V53:
		return int(numCounts)
	case v >= V50:
		return int(cOffscreens)
	case v >= V42:
		return int(cBlendShapesPart)
	}
	return int(cMultiplyColors)
}

// countNames name the counts in errors.
var countNames = [numCounts]string{
	"parts", "deformers", "warp deformers", "rotation deformers", "art meshes", "parameters",
	"part keyforms", "warp deformer keyforms", "rotation deformer keyforms", "art mesh keyforms",
	"keyform positions", "parameter binding indices", "keyform bindings", "parameter bindings",
	"keys", "uvs", "position indices", "drawable masks", "draw order groups",
	"draw order group objects", "glues", "glue infos", "glue keyforms",
	"multiply colors", "screen colors", "blend shape parameter bindings",
	"blend shape keyform bindings", "blend shapes (warp deformers)", "blend shapes (art meshes)",
	"blend shape constraint indices", "blend shape constraints", "blend shape constraint values",
	"blend shapes (parts)", "blend shapes (rotation deformers)", "blend shapes (glues)",
	"offscreens", "offscreen keyforms",
}

// elemKind is the type of an array's elements.
type elemKind uint8

const (
	kRuntime elemKind = iota // space the Core fills at load time: never read
	kID                      // 64 bytes, NUL-padded
	kI32                     // also u32 and bool32
	kF32
	kU8
	kI16
	kUnknown // a slot whose content is unknown: never read
)

var elemSize = [...]int{kRuntime: 0, kID: 64, kI32: 4, kF32: 4, kU8: 1, kI16: 2, kUnknown: 0}

type fieldID uint8

// The fields, in slot order.
const (
	fPartRuntime fieldID = iota
	fPartIDs
	fPartBinding
	fPartKeyformBegin
	fPartKeyformCount
	fPartVisible
	fPartEnabled
	fPartParent

	fDeformerRuntime
	fDeformerIDs
	fDeformerBinding
	fDeformerVisible
	fDeformerEnabled
	fDeformerParentPart
	fDeformerParentDeformer
	fDeformerType
	fDeformerSpecific

	fWarpBinding
	fWarpKeyformBegin
	fWarpKeyformCount
	fWarpVertexCount
	fWarpRows
	fWarpColumns

	fRotationBinding
	fRotationKeyformBegin
	fRotationKeyformCount
	fRotationBaseAngle

	fArtMeshRuntime0
	fArtMeshRuntime1
	fArtMeshRuntime2
	fArtMeshRuntime3
	fArtMeshIDs
	fArtMeshBinding
	fArtMeshKeyformBegin
	fArtMeshKeyformCount
	fArtMeshVisible
	fArtMeshEnabled
	fArtMeshParentPart
	fArtMeshParentDeformer
	fArtMeshTexture
	fArtMeshFlags
	fArtMeshVertexCount
	fArtMeshUVBegin
	fArtMeshIndexBegin
	fArtMeshIndexCount
	fArtMeshMaskBegin
	fArtMeshMaskCount

	fParameterRuntime
	fParameterIDs
	fParameterMax
	fParameterMin
	fParameterDefault
	fParameterRepeat
	fParameterDecimals
	fParameterBindingBegin
	fParameterBindingCount

	fPartKeyformDrawOrder

	fWarpKeyformOpacity
	fWarpKeyformPositionBegin

	fRotationKeyformOpacity
	fRotationKeyformAngle
	fRotationKeyformOriginX
	fRotationKeyformOriginY
	fRotationKeyformScale
	fRotationKeyformReflectX
	fRotationKeyformReflectY

	fArtMeshKeyformOpacity
	fArtMeshKeyformDrawOrder
	fArtMeshKeyformPositionBegin

	fKeyformPositions
	fParameterBindingIndices
	fKeyformBindingBegin
	fKeyformBindingCount
	fParameterBindingKeysBegin
	fParameterBindingKeysCount
	fKeys
	fUVs
	fPositionIndices
	fDrawableMasks

	fDrawOrderGroupObjectBegin
	fDrawOrderGroupObjectCount
	fDrawOrderGroupObjectTotal
	fDrawOrderGroupMaxDrawOrder
	fDrawOrderGroupMinDrawOrder

	fDrawOrderObjectType
	fDrawOrderObjectIndex
	fDrawOrderObjectSelf

	fGlueRuntime
	fGlueIDs
	fGlueBinding
	fGlueKeyformBegin
	fGlueKeyformCount
	fGlueMeshA
	fGlueMeshB
	fGlueInfoBegin
	fGlueInfoCount

	fGlueInfoWeight
	fGlueInfoPositionIndex

	fGlueKeyformIntensity

	// 3.3
	fWarpQuad

	// 4.2
	fParameterExtRuntime
	fParameterKeysBegin
	fParameterKeysCount
	fWarpColorBegin
	fRotationColorBegin
	fArtMeshColorBegin
	fMultiplyR
	fMultiplyG
	fMultiplyB
	fScreenR
	fScreenG
	fScreenB
	fParameterType
	fParameterBlendShapeBegin
	fParameterBlendShapeCount
	fBSParameterBindingKeysBegin
	fBSParameterBindingKeysCount
	fBSParameterBindingBaseKey
	fBSKeyformBindingParameterBinding
	fBSKeyformBindingKeyformBegin
	fBSKeyformBindingKeyformCount
	fBSKeyformBindingConstraintBegin
	fBSKeyformBindingConstraintCount
	fBSWarpTarget
	fBSWarpBindingBegin
	fBSWarpBindingCount
	fBSArtMeshTarget
	fBSArtMeshBindingBegin
	fBSArtMeshBindingCount
	fBSConstraintIndices
	fBSConstraintParameter
	fBSConstraintValueBegin
	fBSConstraintValueCount
	fBSConstraintValueKey
	fBSConstraintValueWeight

	// 5.0
	fWarpKeyformMultiplyBegin
	fWarpKeyformScreenBegin
	fRotationKeyformMultiplyBegin
	fRotationKeyformScreenBegin
	fArtMeshKeyformMultiplyBegin
	fArtMeshKeyformScreenBegin
	fBSPartTarget
	fBSPartBindingBegin
	fBSPartBindingCount
	fBSRotationTarget
	fBSRotationBindingBegin
	fBSRotationBindingCount
	fBSGlueTarget
	fBSGlueBindingBegin
	fBSGlueBindingCount

	// 5.3 (read from the official sample Ren; see doc.go)
	fPartOffscreen
	fArtMeshBlendMode
	fOffscreenRuntime
	fOffscreenOwner
	fOffscreenFlags
	fOffscreenBlendMode
	fOffscreenMaskBegin
	fOffscreenMaskCount
	fPartKeyformOffscreenKeyform
	fOffscreenKeyformOpacity
	fOffscreenKeyformMultiplyBegin
	fOffscreenKeyformScreenBegin
	fUnknown53a
	fUnknown53b
	fUnknown53c

	numFields
)

type fieldDesc struct {
	name  string
	count countID
	kind  elemKind
	since Version
}

func fd(name string, c countID, k elemKind) fieldDesc { return fieldDesc{name, c, k, V30} }

// fields describes every slot after the first two.
var fields = [numFields]fieldDesc{
	fPartRuntime:      fd("part runtime space", cParts, kRuntime),
	fPartIDs:          fd("part ids", cParts, kID),
	fPartBinding:      fd("part keyform binding indices", cParts, kI32),
	fPartKeyformBegin: fd("part keyform begin indices", cParts, kI32),
	fPartKeyformCount: fd("part keyform counts", cParts, kI32),
	fPartVisible:      fd("part visible flags", cParts, kI32),
	fPartEnabled:      fd("part enabled flags", cParts, kI32),
	fPartParent:       fd("part parent indices", cParts, kI32),

	fDeformerRuntime:        fd("deformer runtime space", cDeformers, kRuntime),
	fDeformerIDs:            fd("deformer ids", cDeformers, kID),
	fDeformerBinding:        fd("deformer keyform binding indices", cDeformers, kI32),
	fDeformerVisible:        fd("deformer visible flags", cDeformers, kI32),
	fDeformerEnabled:        fd("deformer enabled flags", cDeformers, kI32),
	fDeformerParentPart:     fd("deformer parent part indices", cDeformers, kI32),
	fDeformerParentDeformer: fd("deformer parent deformer indices", cDeformers, kI32),
	fDeformerType:           fd("deformer types", cDeformers, kI32),
	fDeformerSpecific:       fd("deformer specific indices", cDeformers, kI32),

	fWarpBinding:      fd("warp deformer keyform binding indices", cWarpDeformers, kI32),
	fWarpKeyformBegin: fd("warp deformer keyform begin indices", cWarpDeformers, kI32),
	fWarpKeyformCount: fd("warp deformer keyform counts", cWarpDeformers, kI32),
	fWarpVertexCount:  fd("warp deformer vertex counts", cWarpDeformers, kI32),
	fWarpRows:         fd("warp deformer rows", cWarpDeformers, kI32),
	fWarpColumns:      fd("warp deformer columns", cWarpDeformers, kI32),

	fRotationBinding:      fd("rotation deformer keyform binding indices", cRotationDeformers, kI32),
	fRotationKeyformBegin: fd("rotation deformer keyform begin indices", cRotationDeformers, kI32),
	fRotationKeyformCount: fd("rotation deformer keyform counts", cRotationDeformers, kI32),
	fRotationBaseAngle:    fd("rotation deformer base angles", cRotationDeformers, kF32),

	fArtMeshRuntime0:       fd("art mesh runtime space 0", cArtMeshes, kRuntime),
	fArtMeshRuntime1:       fd("art mesh runtime space 1", cArtMeshes, kRuntime),
	fArtMeshRuntime2:       fd("art mesh runtime space 2", cArtMeshes, kRuntime),
	fArtMeshRuntime3:       fd("art mesh runtime space 3", cArtMeshes, kRuntime),
	fArtMeshIDs:            fd("art mesh ids", cArtMeshes, kID),
	fArtMeshBinding:        fd("art mesh keyform binding indices", cArtMeshes, kI32),
	fArtMeshKeyformBegin:   fd("art mesh keyform begin indices", cArtMeshes, kI32),
	fArtMeshKeyformCount:   fd("art mesh keyform counts", cArtMeshes, kI32),
	fArtMeshVisible:        fd("art mesh visible flags", cArtMeshes, kI32),
	fArtMeshEnabled:        fd("art mesh enabled flags", cArtMeshes, kI32),
	fArtMeshParentPart:     fd("art mesh parent part indices", cArtMeshes, kI32),
	fArtMeshParentDeformer: fd("art mesh parent deformer indices", cArtMeshes, kI32),
	fArtMeshTexture:        fd("art mesh texture numbers", cArtMeshes, kI32),
	fArtMeshFlags:          fd("art mesh drawable flags", cArtMeshes, kU8),
	fArtMeshVertexCount:    fd("art mesh vertex counts", cArtMeshes, kI32),
	fArtMeshUVBegin:        fd("art mesh uv begin indices", cArtMeshes, kI32),
	fArtMeshIndexBegin:     fd("art mesh position index begin indices", cArtMeshes, kI32),
	fArtMeshIndexCount:     fd("art mesh position index counts", cArtMeshes, kI32),
	fArtMeshMaskBegin:      fd("art mesh mask begin indices", cArtMeshes, kI32),
	fArtMeshMaskCount:      fd("art mesh mask counts", cArtMeshes, kI32),

	fParameterRuntime:      fd("parameter runtime space", cParameters, kRuntime),
	fParameterIDs:          fd("parameter ids", cParameters, kID),
	fParameterMax:          fd("parameter maximum values", cParameters, kF32),
	fParameterMin:          fd("parameter minimum values", cParameters, kF32),
	fParameterDefault:      fd("parameter default values", cParameters, kF32),
	fParameterRepeat:       fd("parameter repeat flags", cParameters, kI32),
	fParameterDecimals:     fd("parameter decimal places", cParameters, kI32),
	fParameterBindingBegin: fd("parameter binding begin indices", cParameters, kI32),
	fParameterBindingCount: fd("parameter binding counts", cParameters, kI32),

	fPartKeyformDrawOrder: fd("part keyform draw orders", cPartKeyforms, kF32),

	fWarpKeyformOpacity:       fd("warp keyform opacities", cWarpKeyforms, kF32),
	fWarpKeyformPositionBegin: fd("warp keyform position begin indices", cWarpKeyforms, kI32),

	fRotationKeyformOpacity:  fd("rotation keyform opacities", cRotationKeyforms, kF32),
	fRotationKeyformAngle:    fd("rotation keyform angles", cRotationKeyforms, kF32),
	fRotationKeyformOriginX:  fd("rotation keyform x origins", cRotationKeyforms, kF32),
	fRotationKeyformOriginY:  fd("rotation keyform y origins", cRotationKeyforms, kF32),
	fRotationKeyformScale:    fd("rotation keyform scales", cRotationKeyforms, kF32),
	fRotationKeyformReflectX: fd("rotation keyform reflect-x flags", cRotationKeyforms, kI32),
	fRotationKeyformReflectY: fd("rotation keyform reflect-y flags", cRotationKeyforms, kI32),

	fArtMeshKeyformOpacity:       fd("art mesh keyform opacities", cArtMeshKeyforms, kF32),
	fArtMeshKeyformDrawOrder:     fd("art mesh keyform draw orders", cArtMeshKeyforms, kF32),
	fArtMeshKeyformPositionBegin: fd("art mesh keyform position begin indices", cArtMeshKeyforms, kI32),

	fKeyformPositions:          fd("keyform positions", cKeyformPositions, kF32),
	fParameterBindingIndices:   fd("parameter binding indices", cParameterBindingIndices, kI32),
	fKeyformBindingBegin:       fd("keyform binding begin indices", cKeyformBindings, kI32),
	fKeyformBindingCount:       fd("keyform binding counts", cKeyformBindings, kI32),
	fParameterBindingKeysBegin: fd("parameter binding key begin indices", cParameterBindings, kI32),
	fParameterBindingKeysCount: fd("parameter binding key counts", cParameterBindings, kI32),
	fKeys:                      fd("keys", cKeys, kF32),
	fUVs:                       fd("uvs", cUVs, kF32),
	fPositionIndices:           fd("position indices", cPositionIndices, kI16),
	fDrawableMasks:             fd("drawable masks", cDrawableMasks, kI32),

	fDrawOrderGroupObjectBegin:  fd("draw order group object begin indices", cDrawOrderGroups, kI32),
	fDrawOrderGroupObjectCount:  fd("draw order group object counts", cDrawOrderGroups, kI32),
	fDrawOrderGroupObjectTotal:  fd("draw order group object total counts", cDrawOrderGroups, kI32),
	fDrawOrderGroupMaxDrawOrder: fd("draw order group maximum draw orders", cDrawOrderGroups, kI32),
	fDrawOrderGroupMinDrawOrder: fd("draw order group minimum draw orders", cDrawOrderGroups, kI32),

	fDrawOrderObjectType:  fd("draw order group object types", cDrawOrderGroupObjects, kI32),
	fDrawOrderObjectIndex: fd("draw order group object indices", cDrawOrderGroupObjects, kI32),
	fDrawOrderObjectSelf:  fd("draw order group object self indices", cDrawOrderGroupObjects, kI32),

	fGlueRuntime:      fd("glue runtime space", cGlues, kRuntime),
	fGlueIDs:          fd("glue ids", cGlues, kID),
	fGlueBinding:      fd("glue keyform binding indices", cGlues, kI32),
	fGlueKeyformBegin: fd("glue keyform begin indices", cGlues, kI32),
	fGlueKeyformCount: fd("glue keyform counts", cGlues, kI32),
	fGlueMeshA:        fd("glue art mesh indices (a)", cGlues, kI32),
	fGlueMeshB:        fd("glue art mesh indices (b)", cGlues, kI32),
	fGlueInfoBegin:    fd("glue info begin indices", cGlues, kI32),
	fGlueInfoCount:    fd("glue info counts", cGlues, kI32),

	fGlueInfoWeight:        fd("glue info weights", cGlueInfos, kF32),
	fGlueInfoPositionIndex: fd("glue info position indices", cGlueInfos, kI16),

	fGlueKeyformIntensity: fd("glue keyform intensities", cGlueKeyforms, kF32),

	fWarpQuad: {"warp deformer quad flags", cWarpDeformers, kI32, V33},

	fParameterExtRuntime:              {"parameter extension runtime space", cParameters, kRuntime, V42},
	fParameterKeysBegin:               {"parameter key begin indices", cParameters, kI32, V42},
	fParameterKeysCount:               {"parameter key counts", cParameters, kI32, V42},
	fWarpColorBegin:                   {"warp deformer color begin indices", cWarpDeformers, kI32, V42},
	fRotationColorBegin:               {"rotation deformer color begin indices", cRotationDeformers, kI32, V42},
	fArtMeshColorBegin:                {"art mesh color begin indices", cArtMeshes, kI32, V42},
	fMultiplyR:                        {"multiply colors (red)", cMultiplyColors, kF32, V42},
	fMultiplyG:                        {"multiply colors (green)", cMultiplyColors, kF32, V42},
	fMultiplyB:                        {"multiply colors (blue)", cMultiplyColors, kF32, V42},
	fScreenR:                          {"screen colors (red)", cScreenColors, kF32, V42},
	fScreenG:                          {"screen colors (green)", cScreenColors, kF32, V42},
	fScreenB:                          {"screen colors (blue)", cScreenColors, kF32, V42},
	fParameterType:                    {"parameter types", cParameters, kI32, V42},
	fParameterBlendShapeBegin:         {"parameter blend shape binding begin indices", cParameters, kI32, V42},
	fParameterBlendShapeCount:         {"parameter blend shape binding counts", cParameters, kI32, V42},
	fBSParameterBindingKeysBegin:      {"blend shape parameter binding key begin indices", cBlendShapeParameterBindings, kI32, V42},
	fBSParameterBindingKeysCount:      {"blend shape parameter binding key counts", cBlendShapeParameterBindings, kI32, V42},
	fBSParameterBindingBaseKey:        {"blend shape parameter binding base key indices", cBlendShapeParameterBindings, kI32, V42},
	fBSKeyformBindingParameterBinding: {"blend shape keyform binding parameter binding indices", cBlendShapeKeyformBindings, kI32, V42},
	fBSKeyformBindingKeyformBegin:     {"blend shape keyform binding keyform begin indices", cBlendShapeKeyformBindings, kI32, V42},
	fBSKeyformBindingKeyformCount:     {"blend shape keyform binding keyform counts", cBlendShapeKeyformBindings, kI32, V42},
	fBSKeyformBindingConstraintBegin:  {"blend shape keyform binding constraint begin indices", cBlendShapeKeyformBindings, kI32, V42},
	fBSKeyformBindingConstraintCount:  {"blend shape keyform binding constraint counts", cBlendShapeKeyformBindings, kI32, V42},
	fBSWarpTarget:                     {"blend shape (warp deformer) targets", cBlendShapesWarp, kI32, V42},
	fBSWarpBindingBegin:               {"blend shape (warp deformer) binding begin indices", cBlendShapesWarp, kI32, V42},
	fBSWarpBindingCount:               {"blend shape (warp deformer) binding counts", cBlendShapesWarp, kI32, V42},
	fBSArtMeshTarget:                  {"blend shape (art mesh) targets", cBlendShapesArtMesh, kI32, V42},
	fBSArtMeshBindingBegin:            {"blend shape (art mesh) binding begin indices", cBlendShapesArtMesh, kI32, V42},
	fBSArtMeshBindingCount:            {"blend shape (art mesh) binding counts", cBlendShapesArtMesh, kI32, V42},
	fBSConstraintIndices:              {"blend shape constraint indices", cBlendShapeConstraintIndices, kI32, V42},
	fBSConstraintParameter:            {"blend shape constraint parameter indices", cBlendShapeConstraints, kI32, V42},
	fBSConstraintValueBegin:           {"blend shape constraint value begin indices", cBlendShapeConstraints, kI32, V42},
	fBSConstraintValueCount:           {"blend shape constraint value counts", cBlendShapeConstraints, kI32, V42},
	fBSConstraintValueKey:             {"blend shape constraint value keys", cBlendShapeConstraintValues, kF32, V42},
	fBSConstraintValueWeight:          {"blend shape constraint value weights", cBlendShapeConstraintValues, kF32, V42},

	fWarpKeyformMultiplyBegin:     {"warp keyform multiply color begin indices", cWarpKeyforms, kI32, V50},
	fWarpKeyformScreenBegin:       {"warp keyform screen color begin indices", cWarpKeyforms, kI32, V50},
	fRotationKeyformMultiplyBegin: {"rotation keyform multiply color begin indices", cRotationKeyforms, kI32, V50},
	fRotationKeyformScreenBegin:   {"rotation keyform screen color begin indices", cRotationKeyforms, kI32, V50},
	fArtMeshKeyformMultiplyBegin:  {"art mesh keyform multiply color begin indices", cArtMeshKeyforms, kI32, V50},
	fArtMeshKeyformScreenBegin:    {"art mesh keyform screen color begin indices", cArtMeshKeyforms, kI32, V50},
	fBSPartTarget:                 {"blend shape (part) targets", cBlendShapesPart, kI32, V50},
	fBSPartBindingBegin:           {"blend shape (part) binding begin indices", cBlendShapesPart, kI32, V50},
	fBSPartBindingCount:           {"blend shape (part) binding counts", cBlendShapesPart, kI32, V50},
	fBSRotationTarget:             {"blend shape (rotation deformer) targets", cBlendShapesRotation, kI32, V50},
	fBSRotationBindingBegin:       {"blend shape (rotation deformer) binding begin indices", cBlendShapesRotation, kI32, V50},
	fBSRotationBindingCount:       {"blend shape (rotation deformer) binding counts", cBlendShapesRotation, kI32, V50},
	fBSGlueTarget:                 {"blend shape (glue) targets", cBlendShapesGlue, kI32, V50},
	fBSGlueBindingBegin:           {"blend shape (glue) binding begin indices", cBlendShapesGlue, kI32, V50},
	fBSGlueBindingCount:           {"blend shape (glue) binding counts", cBlendShapesGlue, kI32, V50},

	fPartOffscreen:                 {"part offscreen indices", cParts, kI32, V53},
	fArtMeshBlendMode:              {"art mesh blend modes", cArtMeshes, kI32, V53},
	fOffscreenRuntime:              {"offscreen runtime space", cOffscreens, kRuntime, V53},
	fOffscreenOwner:                {"offscreen owner part indices", cOffscreens, kI32, V53},
	fOffscreenFlags:                {"offscreen flags", cOffscreens, kU8, V53},
	fOffscreenBlendMode:            {"offscreen blend modes", cOffscreens, kI32, V53},
	fOffscreenMaskBegin:            {"offscreen mask begin indices", cOffscreens, kI32, V53},
	fOffscreenMaskCount:            {"offscreen mask counts", cOffscreens, kI32, V53},
	fPartKeyformOffscreenKeyform:   {"part keyform offscreen keyform indices", cPartKeyforms, kI32, V53},
	fOffscreenKeyformOpacity:       {"offscreen keyform opacities", cOffscreenKeyforms, kF32, V53},
	fOffscreenKeyformMultiplyBegin: {"offscreen keyform multiply color indices", cOffscreenKeyforms, kI32, V53},
	fOffscreenKeyformScreenBegin:   {"offscreen keyform screen color indices", cOffscreenKeyforms, kI32, V53},
	fUnknown53a:                    {"unknown 5.3 slot 164", 0, kUnknown, V53},
	fUnknown53b:                    {"unknown 5.3 slot 165", 0, kUnknown, V53},
	fUnknown53c:                    {"unknown 5.3 slot 166", 0, kUnknown, V53},
}

// slotCount is the number of slots of a version's section offset table:
// the count table, the canvas and one per field.
func slotCount(v Version) int {
	n := 2
	for f := range numFields {
		if fields[f].since <= v {
			n++
		}
	}
	return n
}
