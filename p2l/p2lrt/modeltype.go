package p2lrt

// File is the content of a .p2lrt file.
//
// A File returned by Load is validated and ready to play. Its exported
// fields may be read freely; they must not be modified once the model has
// been shared or a Rig has been created from it. Tools that build models in
// code (generators, importers) fill the fields, then call Validate, Write or
// NewRig.
type File struct {
	// NamesStripped is the header's "names stripped" flag: Name fields are
	// empty, IDs are kept.
	NamesStripped bool

	// Core chunks.
	Canvas     Canvas        // CANV
	Parameters []Parameter   // PARM
	Deformers  []Deformer    // DEFM
	Parts      []Part        // PART
	Meshes     []Mesh        // MESH
	Glues      []Glue        // GLUE
	Draw       DrawGroup     // DRAW: the root group of the draw tree
	Textures   []TexturePage // TEXR
	Physics    Physics       // PHYS
	Clips      []Clip        // CLIP
	Roles      []Role        // ROLE

	// Side chunks.
	GUI         *GUI         // PGUI; nil without it
	Meta        []MetaEntry  // META
	Expressions []Expression // EXPR
	HitAreas    []HitArea    // HITA
	UserData    []UserData   // UDAT
	Pose        *Pose        // POSE; nil without it

	// Extension chunks; nil when absent.
	Bones       *Bones       // BONE
	Skins       *Skins       // SKIN
	Collision   *Collision   // COLL
	Simulations *Simulations // SIMS
}
