package p2l

// Model is the content of a .p2lrt file.
//
// A Model returned by Load is validated and ready to play. Its exported
// fields may be read freely; they must not be modified once the model has
// been shared or a Rig has been created from it. Tools that build models in
// code (generators, importers) fill the fields, then call Validate, Write or
// NewRig.
type Model struct {
	// NamesStripped is the header's "names stripped" flag: Name fields are
	// empty, IDs are kept.
	NamesStripped bool

	Canvas      Canvas
	Parameters  []Parameter
	Deformers   []Deformer
	Parts       []Part
	Meshes      []Mesh
	Glues       []Glue
	Draw        DrawGroup
	Textures    []TexturePage
	Physics     Physics
	Clips       []Clip
	Roles       []Role
	GUI         *GUI // nil without PGUI
	Meta        []MetaEntry
	Expressions []Expression
	HitAreas    []HitArea
	UserData    []UserData
	Pose        *Pose // nil without POSE

	// Extension chunks; nil when absent.
	Bones       *Bones
	Skins       *Skins
	Collision   *Collision
	Simulations *Simulations
}
