package moc3

import "strconv"

// Version is the .moc3 header's version byte: the oldest Cubism Editor
// release whose format the file needs.
type Version uint8

// The versions this package reads.
const (
	V30 Version = 1 // Cubism 3.0
	V33 Version = 2 // Cubism 3.3: warp deformers gain the quad interpolation flag
	V40 Version = 3 // Cubism 4.0: same layout as 3.3
	V42 Version = 4 // Cubism 4.2: multiply/screen colours, blend shapes, parameter types and keys
	V50 Version = 5 // Cubism 5.0: per-keyform colours, blend shapes of parts, rotation deformers and glue
	V53 Version = 6 // Cubism 5.3: blend modes and offscreen drawing
)

// String returns the Cubism release, "3.0" … "5.3", or "unknown(N)".
func (v Version) String() string {
	switch v {
	case V30:
		return "3.0"
	case V33:
		return "3.3"
	case V40:
		return "4.0"
	case V42:
		return "4.2"
	case V50:
		return "5.0"
	case V53:
		return "5.3"
	}
	return "unknown(" + strconv.Itoa(int(v)) + ")"
}

// Moc is the content of a .moc3 file, every table resolved: references are
// indices into the Moc's slices (−1 for none), each object's keyforms are a
// slice in keyform-grid order together with the axes of its binding.
//
// Slices of one Moc may share backing arrays (keys, positions, UVs), and
// the bytes of the file Parse read: treat a Moc as read-only.
type Moc struct {
	Version Version
	// BigEndian tells that the file was stored big-endian (header byte 5).
	BigEndian bool
	Canvas    Canvas

	Parameters []Parameter
	Parts      []Part
	// Deformers is the file's deformer list: the order of the file, which
	// parent references use. Each entry points at its WarpDeformers or
	// RotationDeformers entry.
	Deformers         []Deformer
	WarpDeformers     []WarpDeformer
	RotationDeformers []RotationDeformer
	ArtMeshes         []ArtMesh
	Glues             []Glue
	DrawOrderGroups   []DrawOrderGroup
	// Offscreens (5.3): parts drawn into their own render target, then
	// composited as a whole (Cubism Editor "offscreen drawing").
	Offscreens []Offscreen
	// KeyformBindings are the file's keyform bindings, shared by the
	// objects whose Binding names them.
	KeyformBindings []KeyformBinding
}

// Canvas is the model's canvas.
type Canvas struct {
	PixelsPerUnit float32
	// OriginX, OriginY: the model origin, in canvas pixels from the
	// canvas's top-left corner.
	OriginX, OriginY float32
	// Width and Height in pixels.
	Width, Height float32
	// Flags: bit 0 = reversed Y coordinate (ReverseY); the other bits have
	// no known meaning and are kept as read.
	Flags uint8
}

// ReverseY reports flag bit 0 ("reverse Y coordinate" in the format
// descriptions).
func (c Canvas) ReverseY() bool { return c.Flags&1 != 0 }

// RGB is a multiply or screen colour, components nominally in [0, 1].
type RGB struct{ R, G, B float32 }

// White and Black are the neutral multiply and screen colours: what objects
// of files older than 4.2 (which store no colours) report.
var (
	White = RGB{1, 1, 1}
	Black = RGB{0, 0, 0}
)

// Axis is one dimension of a keyform grid: a parameter and the sorted keys
// (parameter values) at which the object has keyforms.
type Axis struct {
	Parameter int
	Keys      []float32
}

// KeyformBinding is a keyform grid: an object bound to it has exactly
// ∏ len(Axes[i].Keys) keyforms (1 when there is no axis), stored with the
// first axis varying fastest: the keyform at key indices (k0, k1, …) is
// number k0 + len(Keys0)·(k1 + len(Keys1)·(k2 + …)).
type KeyformBinding struct {
	Axes []Axis
}

// ParameterType is the kind of a parameter (4.2+).
type ParameterType uint8

const (
	// ParameterNormal drives keyform grids.
	ParameterNormal ParameterType = 0
	// ParameterBlendShape drives blend shapes.
	ParameterBlendShape ParameterType = 1
)

// Parameter is a model parameter.
type Parameter struct {
	ID                string
	Min, Max, Default float32
	// Repeat: the parameter wraps around (e.g. a full turn).
	Repeat bool
	// DecimalPlaces is the Editor's display precision.
	DecimalPlaces uint32
	// Type is ParameterNormal in files older than 4.2.
	Type ParameterType
	// Keys (4.2+) are the parameter's own keys (the "parameter extension"
	// section); nil in older files.
	Keys []float32
}

// DrawableFlags are an art mesh's or an offscreen's constant flags.
type DrawableFlags uint8

// Flag bits. The two blend bits are the pre-5.3 blend mode (both clear =
// normal); from 5.3 the BlendMode fields carry the mode.
const (
	FlagBlendAdditive       DrawableFlags = 1 << 0
	FlagBlendMultiplicative DrawableFlags = 1 << 1
	FlagDoubleSided         DrawableFlags = 1 << 2
	FlagInvertedMask        DrawableFlags = 1 << 3
)

// BlendMode is a 5.3 blend mode: colour blend type in the low byte, alpha
// blend type in the next (the Core API's csmColorBlendType_* and
// csmAlphaBlendType_* numbering: colour 0 Normal, 1 AddCompatible,
// 2 MultiplyCompatible, 3 Add … 17 Color; alpha 0 Over, 1 Atop, 2 Out,
// 3 ConjointOver, 4 DisjointOver).
type BlendMode uint32

// Color returns the colour blend type (low byte).
func (b BlendMode) Color() uint8 { return uint8(b) }

// Alpha returns the alpha blend type (second byte).
func (b BlendMode) Alpha() uint8 { return uint8(b >> 8) }

// Colour blend types used by the reader for files older than 5.3.
const (
	BlendNormal             BlendMode = 0
	BlendAddCompatible      BlendMode = 1
	BlendMultiplyCompatible BlendMode = 2
)

// Part is a part (a node of the part tree that groups art meshes and
// deformers and carries draw order).
type Part struct {
	ID               string
	Parent           int // parent part, −1 for a root
	Visible, Enabled bool
	Binding          int    // index into Moc.KeyformBindings
	Axes             []Axis // Moc.KeyformBindings[Binding].Axes
	Keyforms         []PartKeyform
	// Offscreen (5.3) is the index of the part's offscreen in
	// Moc.Offscreens, −1 when the part is drawn in place.
	Offscreen   int
	BlendShapes []BlendShape[PartKeyform]
}

// PartKeyform is a part's keyform. Opacity, Multiply and Screen come from
// the part's offscreen keyform (5.3); parts without one report 1, White and
// Black.
type PartKeyform struct {
	DrawOrder        float32
	Opacity          float32
	Multiply, Screen RGB
}

// DeformerKind tells a warp from a rotation deformer.
type DeformerKind uint8

const (
	Warp     DeformerKind = 0
	Rotation DeformerKind = 1
)

// Deformer is an entry of the file's deformer list.
type Deformer struct {
	ID               string
	Kind             DeformerKind
	Visible, Enabled bool
	ParentPart       int // −1 for none
	ParentDeformer   int // index into Moc.Deformers, −1 for none
	// Index is the position in Moc.WarpDeformers or Moc.RotationDeformers
	// according to Kind.
	Index int
	// ListBinding is the keyform binding index stored in the deformer list
	// itself. Its use is not documented; the keyform grid is the warp or
	// rotation deformer's Binding (the two agree in the official samples).
	ListBinding int
}

// WarpDeformer is a warp (lattice) deformer.
type WarpDeformer struct {
	Deformer int // back reference into Moc.Deformers
	// Columns and Rows count grid cells; a keyform has
	// (Columns+1)·(Rows+1) points, row by row.
	Columns, Rows int
	// Quad (3.3+): interpolate each cell bilinearly; false = the 3.0
	// triangle interpolation (split cells).
	Quad        bool
	Binding     int
	Axes        []Axis
	Keyforms    []WarpKeyform
	BlendShapes []BlendShape[WarpKeyform]
}

// WarpKeyform is a warp deformer's keyform.
type WarpKeyform struct {
	Opacity          float32
	Points           []float32 // x,y pairs, (Columns+1)×(Rows+1) points
	Multiply, Screen RGB
}

// RotationDeformer is a rotation deformer.
type RotationDeformer struct {
	Deformer    int // back reference into Moc.Deformers
	BaseAngle   float32
	Binding     int
	Axes        []Axis
	Keyforms    []RotationKeyform
	BlendShapes []BlendShape[RotationKeyform]
}

// RotationKeyform is a rotation deformer's keyform.
type RotationKeyform struct {
	Opacity            float32
	Angle              float32 // degrees
	OriginX, OriginY   float32
	Scale              float32
	ReflectX, ReflectY bool
	Multiply, Screen   RGB
}

// ArtMesh is a textured triangle mesh (a drawable).
type ArtMesh struct {
	ID               string
	Visible, Enabled bool
	ParentPart       int
	ParentDeformer   int // index into Moc.Deformers, −1 for none
	Texture          int
	Flags            DrawableFlags
	// BlendMode is the file's value in 5.3; for older files it is derived
	// from Flags (AddCompatible, MultiplyCompatible or Normal, alpha Over),
	// as the Core documents for old models.
	BlendMode   BlendMode
	VertexCount int
	UVs         []float32 // u,v pairs, VertexCount of them
	Indices     []uint16  // triangles, 3 per triangle, each < VertexCount
	// Masks are the art meshes whose union clips this one.
	Masks       []int
	Binding     int
	Axes        []Axis
	Keyforms    []ArtMeshKeyform
	BlendShapes []BlendShape[ArtMeshKeyform]
}

// ArtMeshKeyform is an art mesh's keyform.
type ArtMeshKeyform struct {
	Opacity          float32
	DrawOrder        float32
	Positions        []float32 // x,y pairs, VertexCount of them
	Multiply, Screen RGB
}

// Glue pulls pairs of vertices of two art meshes together.
type Glue struct {
	ID           string
	MeshA, MeshB int // art mesh indices
	Pairs        []GluePair
	Binding      int
	Axes         []Axis
	// Intensities are the keyforms (one intensity each).
	Intensities []float32
	BlendShapes []BlendShape[float32]
}

// GluePair binds vertex A of MeshA to vertex B of MeshB with a weight for
// each side.
type GluePair struct {
	A, B             uint16
	WeightA, WeightB float32
}

// DrawOrderGroup orders its objects by their draw order keyforms.
type DrawOrderGroup struct {
	Objects []DrawOrderObject
	// TotalObjects, MinDrawOrder and MaxDrawOrder are stored in the file
	// ("object sources total counts", "minimum/maximum draw orders");
	// kept as read.
	TotalObjects               int
	MinDrawOrder, MaxDrawOrder uint32
}

// DrawOrderObjectKind tells an art mesh from a part in a draw order group.
type DrawOrderObjectKind uint8

const (
	DrawArtMesh DrawOrderObjectKind = 0
	DrawPart    DrawOrderObjectKind = 1
)

// DrawOrderObject is a member of a draw order group.
type DrawOrderObject struct {
	Kind  DrawOrderObjectKind
	Index int // art mesh or part index
	// Group is the draw order group the part owns, −1 for none (always −1
	// for art meshes).
	Group int
}

// BlendShape (4.2+) is one blend-shape binding of an object: a blend-shape
// parameter, its keys, and the keyforms (same type as the object's) blended
// in as the parameter moves away from BaseKey.
type BlendShape[K any] struct {
	Parameter int
	Keys      []float32
	// BaseKey indexes Keys: the key at which the shape contributes nothing.
	BaseKey     int
	Keyforms    []K
	Constraints []BlendShapeConstraint
}

// BlendShapeConstraint scales a blend shape by a weight read from a
// piecewise-linear function of another parameter.
type BlendShapeConstraint struct {
	Parameter int
	Keys      []float32
	Weights   []float32 // same length as Keys
}

// Offscreen (5.3) is a part drawn into its own target and composited as a
// whole. Its opacity and colours are the owner part's keyforms.
type Offscreen struct {
	Owner     int // part index
	Flags     DrawableFlags
	BlendMode BlendMode
	Masks     []int // art mesh indices
}
