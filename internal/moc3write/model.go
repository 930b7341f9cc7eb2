package moc3write

// Version bytes of the moc3 header (offset 4).
const (
	V30 uint8 = 1 // Cubism 3.0
	V33 uint8 = 2 // Cubism 3.3: warp deformers' quad-source flag
	V40 uint8 = 3 // Cubism 4.0: no layout change
	V42 uint8 = 4 // Cubism 4.2: keyform colours, parameter types and keys, blend shapes of warps and meshes
	V50 uint8 = 5 // Cubism 5.0: per-keyform colours, blend shapes of parts, rotations and glue
	V53 uint8 = 6 // Cubism 5.3: blend modes and offscreen parts
)

// Versions lists every version Write accepts, oldest first.
var Versions = []uint8{V30, V33, V40, V42, V50, V53}

// Model is what Write lays out: every object in file order. Indices
// (parents, masks, glue meshes, draw-order objects, axes' parameters) refer
// to positions in these slices; -1 means none where the file allows it.
// Index fields are written as given, so a test can also build a file whose
// indices are out of range; only what the layout itself needs is checked.
type Model struct {
	Canvas          Canvas
	Parameters      []Parameter
	Parts           []Part
	Deformers       []Deformer // warp and rotation deformers, in deformer order
	ArtMeshes       []ArtMesh
	Glues           []Glue
	DrawOrderGroups []DrawOrderGroup
	Offscreens      []Offscreen // 5.3+
}

// Canvas is the canvas info block.
type Canvas struct {
	PixelsPerUnit    float32
	OriginX, OriginY float32
	Width, Height    float32
	Flags            uint8 // bit 0: reverse the Y coordinate
}

// Parameter is one parameter.
type Parameter struct {
	ID                string // at most 64 bytes; NUL-padded to 64
	Min, Max, Default float32
	Repeat            bool
	DecimalPlaces     uint32
	// BlendShape sets the parameter's type to 1 (blend shape) instead of 0
	// (normal). 4.2+.
	BlendShape bool
	// Keys is the parameter's own key list (the "parameter extension" arrays).
	// 4.2+.
	Keys []float32
}

// Axis is one dimension of an object's keyform grid: a parameter and its
// keys. In the file it is a parameter binding; an object's axes are its
// keyform binding.
type Axis struct {
	Parameter int
	Keys      []float32
}

// An object with axes A0..An-1 has prod(len(Ai.Keys)) keyforms (1 without
// axes) in grid order: the first axis varies fastest, i.e. keyform
// k0 + len(A0.Keys)·(k1 + len(A1.Keys)·(k2 + …)). (moc3-rs
// puppet/applicator.rs, do_interpolate, indexes keyforms this way.)

// Colors are a keyform's multiply and screen colours (RGB). A nil *Colors
// writes the neutral colours (multiply 1,1,1, screen 0,0,0) from 4.2 on and
// nothing before; a non-nil one is refused before 4.2.
type Colors struct {
	Multiply [3]float32
	Screen   [3]float32
}

// BlendShape is one blend shape of an object (4.2+ for warp deformers and
// art meshes, 5.0+ for parts, rotation deformers and glue): a blend-shape
// parameter binding (parameter, keys, base key), the keyforms it blends
// and the constraints of its keyform binding. The file stores the number
// of keyforms independently of the keys, so any length is written.
type BlendShape[K any] struct {
	Parameter   int
	Keys        []float32
	BaseKey     int32 // index into Keys
	Keyforms    []K
	Constraints []Constraint
}

// Constraint is one blend-shape constraint: a parameter and (key, weight)
// pairs.
type Constraint struct {
	Parameter int
	Keys      []float32
	Weights   []float32 // same length as Keys
}

// Part is one part.
type Part struct {
	ID          string
	Parent      int // parent part, -1 for none
	Visible     bool
	Enabled     bool
	Axes        []Axis
	Keyforms    []PartKeyform
	BlendShapes []BlendShape[PartKeyform] // 5.0+
}

// PartKeyform is one keyform of a part.
type PartKeyform struct {
	DrawOrder float32
}

// Deformer is a warp or a rotation deformer: exactly one of Warp and
// Rotation is set.
type Deformer struct {
	ID             string
	Visible        bool
	Enabled        bool
	ParentPart     int // -1 for none
	ParentDeformer int // -1 for none
	Axes           []Axis
	Warp           *WarpDeformer
	Rotation       *RotationDeformer
}

// WarpDeformer holds what only warp deformers have.
type WarpDeformer struct {
	Rows, Columns int  // the grid has (Rows+1)·(Columns+1) points
	QuadSource    bool // 3.3+ ("is quad source" / "is new deformer")
	Keyforms      []WarpKeyform
	BlendShapes   []BlendShape[WarpKeyform] // 4.2+
}

// WarpKeyform is one keyform of a warp deformer.
type WarpKeyform struct {
	Opacity   float32
	Positions [][2]float32 // (Rows+1)·(Columns+1) grid points
	Colors    *Colors      // 4.2+
}

// RotationDeformer holds what only rotation deformers have.
type RotationDeformer struct {
	BaseAngle   float32
	Keyforms    []RotationKeyform
	BlendShapes []BlendShape[RotationKeyform] // 5.0+
}

// RotationKeyform is one keyform of a rotation deformer.
type RotationKeyform struct {
	Opacity            float32
	Angle              float32
	OriginX, OriginY   float32
	Scale              float32
	ReflectX, ReflectY bool
	Colors             *Colors // 4.2+
}

// Legacy blend modes of the art mesh flags byte (bits 0-1).
const (
	BlendNormal         uint8 = 0
	BlendAdditive       uint8 = 1
	BlendMultiplicative uint8 = 2
)

// Blend is a 5.3 blend mode, stored as Color | Alpha<<8 (a
// csmGetDrawableBlendModes value: colour blend type in the low byte, alpha
// blend type in the next).
type Blend struct {
	Color, Alpha uint8
}

// ArtMesh is one art mesh (drawable).
type ArtMesh struct {
	ID             string
	Visible        bool
	Enabled        bool
	ParentPart     int // -1 for none
	ParentDeformer int // -1 for none
	Texture        uint32
	// Flags byte: BlendMode in bits 0-1, DoubleSided bit 2, InvertedMask
	// bit 3.
	BlendMode    uint8
	DoubleSided  bool
	InvertedMask bool
	Blend        Blend        // 5.3+
	UVs          [][2]float32 // one per vertex
	Indices      []uint16     // triangle list into the vertices
	Masks        []int32      // art meshes that mask this one
	Axes         []Axis
	Keyforms     []ArtMeshKeyform
	BlendShapes  []BlendShape[ArtMeshKeyform] // 4.2+
}

// ArtMeshKeyform is one keyform of an art mesh.
type ArtMeshKeyform struct {
	Opacity   float32
	DrawOrder float32
	Positions [][2]float32 // one per vertex
	Colors    *Colors      // 4.2+
}

// Glue binds vertices of two art meshes.
type Glue struct {
	ID           string
	MeshA, MeshB int32
	Points       []GluePoint
	Axes         []Axis
	Keyforms     []GlueKeyform
	BlendShapes  []BlendShape[GlueKeyform] // 5.0+
}

// GluePoint is one glue info entry: a weight and a vertex index.
type GluePoint struct {
	Weight float32
	Vertex uint16
}

// GlueKeyform is one keyform of a glue.
type GlueKeyform struct {
	Intensity float32
}

// DrawOrderGroup is one draw-order group. Its total object count (the art
// meshes it draws, nested groups included) is computed by Write.
type DrawOrderGroup struct {
	Objects      []DrawOrderObject
	MaxDrawOrder uint32
	MinDrawOrder uint32
}

// DrawOrderObject is one object of a draw-order group: an art mesh, or a
// part whose own children form the draw-order group Self.
type DrawOrderObject struct {
	Part  bool  // type 1 (part) instead of 0 (art mesh)
	Index int32 // art mesh or part index
	Self  int32 // for a part, its own group; -1 for an art mesh
}

// Offscreen is a part drawn offscreen (5.3+). Its keyforms follow its owner
// part's keyforms one to one.
type Offscreen struct {
	OwnerPart    int
	Blend        Blend
	DoubleSided  bool
	InvertedMask bool
	Masks        []int32 // art meshes that mask the offscreen
	Keyforms     []OffscreenKeyform
}

// OffscreenKeyform is one keyform of an offscreen.
type OffscreenKeyform struct {
	Opacity float32
	Colors  *Colors
}
