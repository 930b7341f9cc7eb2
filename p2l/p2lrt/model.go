package p2lrt

// This file holds the in-memory form of a .p2lrt file: one Go type per record
// of P2LRT_V2.md. Version 1 and version 2 files load into the same values.
//
// References between objects are plain int indices into the slices of File
// (−1 where the file allows "none"). The reader checks every reference; the
// writer checks them again before writing.

// Canvas is the CANV chunk.
//
// Vertex positions of meshes and deformers at the root of the deformer tree
// are canvas pixels, x to the right and y down. OriginX/OriginY and
// PixelsPerUnit are informational (a host that wants Cubism-style model units
// uses them); PixelsPerUnit is −1 when the file has none.
type Canvas struct {
	Width, Height    float32
	OriginX, OriginY float32
	PixelsPerUnit    float32
}

// Parameter is one PARM record.
type Parameter struct {
	ID, Name          string
	Min, Max, Default float32
	// Blend marks a blend-shape parameter (flag bit 1).
	Blend bool
	// Repeat marks a parameter that wraps around its range (flag bit 2).
	Repeat bool
}

// Color is a linear RGB triple (the spec's rgb, three f32).
type Color [3]float32

// White and Black are the neutral multiply and screen colors.
var (
	White = Color{1, 1, 1}
	Black = Color{0, 0, 0}
)

// DeformerKind tells a warp deformer from a rotation deformer.
type DeformerKind uint8

// Deformer kinds.
const (
	WarpDeformer     DeformerKind = 0
	RotationDeformer DeformerKind = 1
)

// DeformerFlags are the DEFM flag bits.
type DeformerFlags uint8

// Deformer flag bits.
const (
	DeformerVisible  DeformerFlags = 1
	DeformerEnabled  DeformerFlags = 2
	DeformerFlipX    DeformerFlags = 4
	DeformerFlipY    DeformerFlags = 8
	DeformerBilinear DeformerFlags = 16
)

// Deformer is one DEFM record. Exactly one of Warp and Rotation is set,
// matching Kind. Parents come before children in File.Deformers.
type Deformer struct {
	Kind     DeformerKind
	ID       string
	Parent   int // deformer index, −1 for the root
	Part     int // part index, −1 for none
	Flags    DeformerFlags
	Opacity  float32
	Multiply Color
	Screen   Color
	Channels []Channel

	Warp     *Warp
	Rotation *Rotation
}

// Warp is the warp-specific part of a deformer record.
type Warp struct {
	// Columns and Rows count grid cells; a keyform holds
	// (Columns+1)*(Rows+1) points as x,y pairs, row by row.
	Columns, Rows int
	Keyforms      *Grid[[]float32]
	Shapes        []Binding[WarpShape]
}

// WarpShape is the per-key blend-shape target of a warp deformer.
type WarpShape struct {
	Points   []float32
	Opacity  float32
	Multiply Color
	Screen   Color
}

// Rotation is the rotation-specific part of a deformer record.
type Rotation struct {
	BaseAngle float32 // degrees
	Keyforms  *Grid[RotationKey]
	Shapes    []Binding[RotationShape]
}

// RotationKey is one keyform of a rotation deformer: the origin in the
// parent's space, the angle in degrees and the scale.
type RotationKey struct {
	X, Y, Angle, Scale float32
}

// RotationShape is the per-key blend-shape target of a rotation deformer.
type RotationShape struct {
	X, Y, Angle, Scale float32
	FlipX, FlipY       uint8
	Opacity            float32
	Multiply           Color
	Screen             Color
}

// Grid is the spec's grid<F>: keyforms placed on a multi-dimensional grid of
// parameter keys. A nil *Grid is the "no grid" marker (axes = 0xFFFF); a grid
// with no axes has at most one cell, the static keyform. Cells may be sparse:
// a missing cell contributes a zero shape.
type Grid[T any] struct {
	Axes  []Axis
	Cells []Cell[T]
}

// Axis is one grid axis: a parameter and its keys in ascending order.
type Axis struct {
	Parameter int
	Keys      []float32
}

// Cell is one keyform of a grid: its key index on every axis and its value.
type Cell[T any] struct {
	Coord []uint16
	Value T
}

// ChannelID names what a channel drives.
type ChannelID uint8

// Channels, in the order the file numbers them.
const (
	ChannelDrawOrder ChannelID = iota
	ChannelOpacity
	ChannelMultiply
	ChannelScreen
	ChannelFlipX
	ChannelFlipY
	ChannelGlueIntensity
)

// ChannelKind is the value encoding of a channel.
type ChannelKind uint8

const (
	ChannelScalar ChannelKind = 0 // one f32
	ChannelColor  ChannelKind = 1 // rgb
	ChannelFlag   ChannelKind = 2 // u8
)

// ChannelValue holds a channel keyform: a scalar or flag in [0], a color in
// all three.
type ChannelValue [3]float32

// Channel is one entry of the spec's channels list.
type Channel struct {
	ID   ChannelID
	Kind ChannelKind
	Grid *Grid[ChannelValue]
}

// Binding is the spec's bindings<S>: a blend shape driven by one parameter.
type Binding[S any] struct {
	Parameter int
	// Keys are non-decreasing, at least one.
	Keys []float32
	// Neutral is the index of the neutral key, which contributes nothing;
	// it must be below len(Keys).
	Neutral int
	// Present[i] tells whether key i carries a shape; Shapes[i] is its
	// value, the zero value when absent (the file stores no shape for an
	// absent key). Both have len(Keys) entries.
	Present []bool
	Shapes  []S
	Limits  []Limit
}

// Limit scales a binding by a piecewise-linear function of another parameter.
type Limit struct {
	Parameter int
	Points    []LimitPoint
}

// LimitPoint is one (value, weight) point of a Limit.
type LimitPoint struct {
	Value, Weight float32
}

// PartFlags are the PART flag bits.
type PartFlags uint8

// Part flag bits.
const (
	PartVisible PartFlags = 1
	PartSketch  PartFlags = 2
)

// GroupMode says how a part's contents are ordered and composited.
type GroupMode uint8

const (
	// GroupPassThrough: the part's children sort into the enclosing group.
	GroupPassThrough GroupMode = 0
	// GroupSorted: the part sorts as one unit in its parent group.
	GroupSorted GroupMode = 1
	// GroupIsolated: the part is drawn into its own layer and composited.
	GroupIsolated GroupMode = 2
)

// ChildKind tells a part child from a mesh child.
type ChildKind uint8

// Child kinds.
const (
	ChildPart ChildKind = 0
	ChildMesh ChildKind = 1
)

// PartChild is one entry of a part's children list.
type PartChild struct {
	Kind  ChildKind
	Index int
}

// Part is one PART record.
type Part struct {
	ID, Name  string
	Flags     PartFlags
	GroupMode GroupMode
	DrawOrder int32
	Children  []PartChild
	Channels  []Channel
	Composite Composite
	Shapes    []Binding[PartShape]
}

// PartShape is the per-key blend-shape target of a part.
type PartShape struct {
	DrawOrder float32
	Opacity   float32
	Multiply  Color
	Screen    Color
}

// Composite says how a group (an isolated part or a draw-tree group) is
// composited onto what lies below it.
type Composite struct {
	Blend      BlendMode
	AlphaBlend AlphaMode
	MaskMeshes []int
	MaskParts  []int
	InvertMask bool
	Opacity    float32
	Multiply   Color
	Screen     Color
}

// MeshFlags are the MESH flag bits.
type MeshFlags uint8

// Mesh flag bits.
const (
	MeshInvertMask MeshFlags = 1
	MeshCulling    MeshFlags = 2
	MeshVisible    MeshFlags = 4
	// MeshGeometry marks a mesh that carries positions, UVs and indices.
	MeshGeometry MeshFlags = 8
)

// Mesh is one MESH record.
type Mesh struct {
	ID, Name    string
	Parent      int // deformer index, −1 for the root
	Blend       BlendMode
	AlphaBlend  AlphaMode
	Masks       []int // mesh indices
	Flags       MeshFlags
	TexturePage int // −1 for none

	// Geometry, present when Flags has MeshGeometry: rest positions in the
	// parent's space (x,y pairs), texture coordinates (u,v pairs, v down)
	// and triangle indices.
	Positions []float32
	UVs       []float32
	Indices   []uint32

	// Keyforms holds per-key vertex offsets (x,y pairs) added to Positions.
	Keyforms  *Grid[[]float32]
	Channels  []Channel
	DrawOrder float32
	Opacity   float32
	Multiply  Color
	Screen    Color
	Shapes    []Binding[MeshShape]
}

// MeshShape is the per-key blend-shape target of a mesh.
type MeshShape struct {
	// Deltas are target vertex offsets (x,y pairs, 2·vertex count), or
	// empty: the shape then moves no vertex (its other targets still
	// apply).
	Deltas    []float32
	DrawOrder float32
	Opacity   float32
	Multiply  Color
	Screen    Color
}

// Glue is one GLUE record: pairs of vertices of two meshes pulled together.
type Glue struct {
	ID           string
	MeshA, MeshB int
	Intensity    float32
	Pairs        []GluePair
	Channels     []Channel
}

// GluePair is one glued vertex pair.
type GluePair struct {
	A, B             uint32
	WeightA, WeightB float32
}

// DrawGroup is one group of the DRAW tree.
type DrawGroup struct {
	Part      int // −1 for none
	DrawOrder int32
	Channels  []Channel
	// Composite is nil when the record has hasComposite = 0.
	Composite *Composite
	Children  []DrawNode
}

// DrawNode is a draw-tree child: a group when Group is non-nil, else the
// mesh Mesh.
type DrawNode struct {
	Group *DrawGroup
	Mesh  int
}

// TextureKind is the payload type of a texture page.
type TextureKind uint8

// Texture page kinds.
const (
	TexturePNG      TextureKind = 0
	TextureKTX2     TextureKind = 1
	TextureExternal TextureKind = 2
)

// TexturePage is one TEXR record. Data holds the PNG or KTX2 bytes; URI the
// path of an external page, relative to the model file.
type TexturePage struct {
	Kind          TextureKind
	Width, Height uint32
	Data          []byte
	URI           string
}

// Physics is the PHYS chunk.
type Physics struct {
	Fps    float32 // 0: the runtime's default
	Groups []PhysicsGroup
}

// PhysicsSource is what a physics input reads or an output writes.
type PhysicsSource uint8

// Physics sources.
const (
	PhysicsX     PhysicsSource = 0
	PhysicsAngle PhysicsSource = 1
	PhysicsY     PhysicsSource = 2 // PHYS version 2 only
)

// PhysicsGroup is one pendulum setting (a physics3 PhysicsSetting). The
// pendulum is a strand of len(Segments)+1 vertices: vertex 0 is the root,
// driven by the inputs, and vertex k hangs Segments[k−1].Length below vertex
// k−1 at rest (the reference runtime's physics.rs Strand::new).
type PhysicsGroup struct {
	ID, Name      string
	Inputs        []PhysicsInput
	Outputs       []PhysicsOutput
	Segments      []PhysicsSegment
	Normalization PhysicsNormalization
}

// PhysicsInput is one input of a physics group.
type PhysicsInput struct {
	Parameter int
	Weight    float32 // percent, 0..100 as in physics3
	Source    PhysicsSource
	Reflect   bool
}

// PhysicsOutput is one output of a physics group.
type PhysicsOutput struct {
	Parameter int
	// Vertex is the strand vertex the output reads, 1-based: vertex k is
	// the end of Segments[k−1] (physics3's VertexIndex). 0 names the root,
	// which has no direction: such an output writes nothing.
	Vertex  int
	Scale   float32
	Weight  float32 // percent
	Source  PhysicsSource
	Reflect bool
}

// PhysicsSegment is one link of a pendulum strand, from the vertex before
// it to its own vertex.
type PhysicsSegment struct {
	Length       float32 // physics3's Radius
	Mobility     float32
	Delay        float32
	Acceleration float32
}

// PhysicsNormalization is the input normalization range of a group.
type PhysicsNormalization struct {
	PositionMin, PositionDefault, PositionMax float32
	AngleMin, AngleDefault, AngleMax          float32
}

// SegmentKind is the type of a curve segment (Cubism's numbering).
type SegmentKind uint8

// Curve segment kinds.
const (
	SegmentLinear         SegmentKind = 0
	SegmentBezier         SegmentKind = 1
	SegmentStepped        SegmentKind = 2
	SegmentInverseStepped SegmentKind = 3
)

// Point is a (time, value) point of a curve.
type Point struct {
	T, V float32
}

// Segment is one curve segment; C1 and C2 are the Bezier control points and
// are stored only for SegmentBezier.
type Segment struct {
	Kind   SegmentKind
	C1, C2 Point
	End    Point
}

// Curve is a motion curve: a start point and the segments that follow.
type Curve struct {
	Start    Point
	Segments []Segment
}

// ParameterCurve is a CLIP curve driving one parameter.
type ParameterCurve struct {
	Parameter int
	Curve
}

// Clip is one CLIP record, with its CEXT record merged in (Events,
// TargetCurves and CurveFades).
type Clip struct {
	ID, Name, Group string
	Duration, Fps   float32
	Loop            bool
	FadeIn, FadeOut float32
	Curves          []ParameterCurve

	Events       []Event
	TargetCurves []TargetCurve
	CurveFades   []CurveFade
}

// Event is a motion event (motion3 UserData).
type Event struct {
	Time  float32
	Value string
}

// CurveTarget is what a non-parameter curve drives.
type CurveTarget uint8

// Curve targets.
const (
	TargetPartOpacity  CurveTarget = 1
	TargetModelOpacity CurveTarget = 2
	TargetBlink        CurveTarget = 3
	TargetLipSync      CurveTarget = 4
)

// TargetCurve is a CEXT non-parameter curve.
type TargetCurve struct {
	Target          CurveTarget
	Part            int // part index for TargetPartOpacity, else −1
	FadeIn, FadeOut float32
	Curve
}

// CurveFade gives one CLIP curve its own fades (negative: use the clip's).
type CurveFade struct {
	Curve           int // index into Clip.Curves
	FadeIn, FadeOut float32
}

// Role is one ROLE record, such as "EyeBlink" or "LipSync".
type Role struct {
	Name       string
	Parameters []int
}

// GUI is the PGUI chunk: parameter-panel metadata that does not affect
// evaluation.
type GUI struct {
	Snaps     []Snap
	Joysticks []Joystick
	Tree      []GUINode
}

// Snap lists the snap values of one parameter.
type Snap struct {
	Parameter int
	Keys      []float32
}

// Joystick pairs two parameters into one 2D control.
type Joystick struct {
	Horizontal, Vertical int
}

// GUINodeKind tells a parameter node from a group node.
type GUINodeKind uint8

// GUI node kinds.
const (
	GUIParameter GUINodeKind = 0
	GUIGroup     GUINodeKind = 1
)

// GUILabel says which label a node shows.
type GUILabel uint8

// GUI labels.
const (
	GUILabelNone   GUILabel = 0
	GUILabelPreset GUILabel = 1
	GUILabelCustom GUILabel = 2
)

// GUINode is one node of the parameter group tree.
type GUINode struct {
	Kind      GUINodeKind
	Open      bool
	Label     GUILabel
	Parameter int // −1 for groups
	ID, Name  string
	Preset    string
	ARGB      uint32
	Children  []GUINode
}

// MetaEntry is one META key/value pair.
type MetaEntry struct {
	Key, Value string
}

// ExpressionBlend is how an expression entry combines with the value.
type ExpressionBlend uint8

// Expression blends.
const (
	ExpressionAdd       ExpressionBlend = 0
	ExpressionMultiply  ExpressionBlend = 1
	ExpressionOverwrite ExpressionBlend = 2
)

// Expression is one EXPR record (a Cubism exp3).
type Expression struct {
	ID, Name        string
	FadeIn, FadeOut float32
	Entries         []ExpressionEntry
}

// ExpressionEntry is one parameter of an expression.
type ExpressionEntry struct {
	Parameter int
	Blend     ExpressionBlend
	Value     float32
}

// HitArea is one HITA record.
type HitArea struct {
	ID, Name string
	Meshes   []int
}

// UserData is one UDAT record.
type UserData struct {
	Kind   uint8 // 0: Target is a mesh
	Target int
	Value  string
}

// Pose is the POSE chunk (Cubism pose3).
type Pose struct {
	FadeIn float32
	Groups []PoseGroup
}

// PoseGroup is one mutually exclusive set of parts.
type PoseGroup struct {
	Entries []PoseEntry
}

// PoseEntry is one part of a pose group and the parts linked to it.
type PoseEntry struct {
	Part   int
	Linked []int
}

// Extension feature bits (P2LRT_V2.md, "特性位与模式开关").
const (
	FeatureSkin       = 1
	FeatureExactLinks = 2
	FeatureSim        = 4
	FeatureCollision  = 8
)

// Hook bits of the extension header.
const (
	HookParameters = 1  // H1
	HookFrames     = 2  // H2
	HookBones      = 4  // H3
	HookMesh       = 8  // H4
	HookSimulation = 32 // H6
)

// ExtensionHeader is the common header of every extension chunk.
type ExtensionHeader struct {
	Feature       uint16
	Hooks         uint16
	Parameters    []int
	PhysicsGroups []int
	Deformers     []int
	Replaced      []ReplacedContribution
	DependsOn     []string // four-character tags
}

// ReplacedContribution is one H4 entry of an extension header.
type ReplacedContribution struct {
	Mesh           int
	AxisParameters []int
	Bindings       []uint32
}

// Bones is the BONE chunk. Virtual bones are rotation deformers numbered
// after File.Deformers: virtual bone i has deformer index
// len(File.Deformers)+i.
type Bones struct {
	Header     ExtensionHeader
	Virtual    []Deformer
	Attachable []AttachableBone
	Arcs       []Arc
}

// AttachableBone names a deformer (or virtual bone) hosts may attach to.
type AttachableBone struct {
	Deformer int
	ID       string
}

// Arc says that a rotation deformer's pivot, keyed on Parameter, lies on the
// circle centred at (CX, CY) in the parent's space.
type Arc struct {
	Deformer  int
	Parameter int
	CX, CY    float32
}

// Skins is the SKIN chunk.
type Skins struct {
	Header ExtensionHeader
	Meshes []Skin
}

// Skin is the runtime-skinning data of one mesh.
type Skin struct {
	Mesh   int
	Axes   []Axis
	Bones  []int // deformer or virtual-bone indices
	From   []uint32
	To     []uint32
	Weight []float32 // empty: fitted at enable time
}

// Collision is the COLL chunk.
type Collision struct {
	Header    ExtensionHeader
	Colliders []Collider
}

// Collider is a circle or a tapered capsule, in canvas pixels.
type Collider struct {
	ID               string
	Capsule          bool
	Deformer         int // −1 for none
	Mesh             int // −1 for none
	VertexA, VertexB uint32
	AX, AY, BX, BY   float32
	RadiusA, RadiusB float32
	Friction         float32
}

// Simulations is the SIMS chunk.
type Simulations struct {
	Header ExtensionHeader
	Sims   []Simulation
}

// Simulation is one XPBD scene. Particle arrays are indexed by particle in
// target order; constraint arrays run in parallel.
type Simulation struct {
	ID                 string
	Fps                float32
	Substeps           uint32
	GravityX, GravityY float32
	WindX, WindY       float32
	PinCompliance      float32
	Targets            []SimTarget

	InvMass, Damping, WindFactor, PinWeight  []float32
	GoalCompliance, GoalOffsetX, GoalOffsetY []float32
	AnchorMesh, AnchorVertex                 []uint32

	StretchA, StretchB                      []uint32
	Rest, Compliance, CompressionCompliance []float32
	TriA, TriB, TriC                        []uint32
	AreaCompliance                          []float32
	BendT1, BendT2                          []uint32
	BendCompliance                          []float32
	WeldA, WeldB                            []uint32
	WeightA, WeightB, WeldCompliance        []float32
	LongParticle, LongRoot                  []uint32
	MaxDistance                             []float32

	Parameters    []int
	PhysicsGroups []int
	Corrections   []SimCorrection
	Colliders     []int
}

// SimTarget is one target mesh of a simulation.
type SimTarget struct {
	Mesh        int
	VertexCount uint32
}

// SimCorrection is a static correction the baking added, keyed on one
// parameter.
type SimCorrection struct {
	Parameter int
	Keys      []float32
	Meshes    []SimCorrectionMesh
}

// SimCorrectionMesh holds one mesh's offsets at each key of a correction.
type SimCorrectionMesh struct {
	Mesh    int
	Offsets [][]float32 // len(Keys) arrays of x,y pairs
}
