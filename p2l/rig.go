package p2l

// Rig is one playing instance of a Model: its parameter values, animation
// state and the result of the last evaluation. A Rig must be used by one
// goroutine at a time; any number of rigs may share one Model.
//
// Slices returned by a Rig's accessors are owned by the rig and stay valid
// until the next call that evaluates (Evaluate, Update, UpdateStages,
// SetAdvanced, PhysicsStabilize). Copy them to keep them longer.
//
// Accessors taking an index return the zero value (NaN for float results that
// are not colors, nil for slices, false, or −1 for indices) when the index is
// out of range; they never panic.
//
// THIS FILE IS THE API CONTRACT STUB written before the evaluator: the bodies
// are placeholders to be replaced by the real implementation.
type Rig struct {
	model *Model
	err   error
}

// NewRig returns a new instance of m with every parameter at its default.
func (m *Model) NewRig() *Rig { return &Rig{model: m} }

// Model returns the model r plays.
func (r *Rig) Model() *Model { return r.model }

// Err reports the internal failure that made the rig inert, or nil.
func (r *Rig) Err() error { return r.err }

// SetParameter sets host-pose parameter i.
func (r *Rig) SetParameter(i int, v float32) {}

// SetParameterByID sets the host-pose parameter with the given id and
// reports whether it exists.
func (r *Rig) SetParameterByID(id string, v float32) bool { return false }

// Evaluate poses the rig from the host pose alone.
func (r *Rig) Evaluate() {}

// MeshVertices returns mesh i's evaluated vertices, x,y pairs in canvas
// pixels (y down).
func (r *Rig) MeshVertices(i int) []float32 { return nil }

// MeshUVs returns mesh i's texture coordinates, u,v pairs (v down).
func (r *Rig) MeshUVs(i int) []float32 { return nil }

// MeshIndices returns mesh i's triangle indices.
func (r *Rig) MeshIndices(i int) []uint32 { return nil }

// MeshOpacity returns mesh i's evaluated opacity in [0, 1], including part
// pose, clip and host opacities.
func (r *Rig) MeshOpacity(i int) float32 { return 0 }

// MeshColors returns mesh i's evaluated multiply and screen colors.
func (r *Rig) MeshColors(i int) (multiply, screen Color) { return White, Black }

// RenderOrder returns the meshes to draw, back to front.
func (r *Rig) RenderOrder() []int { return nil }

// RenderCommands returns the drawing order keeping isolated-group
// boundaries.
func (r *Rig) RenderCommands() []RenderCommand { return nil }

// GroupComposite returns how the isolated group of part is composited this
// frame: blend and alpha modes, masks (part masks expanded to meshes), and
// the evaluated opacity and colors.
func (r *Rig) GroupComposite(part int) Composite { return Composite{} }

// RenderCommand is one step of Rig.RenderCommands, in the spec's encoding:
// a mesh index (≥ 0), OpenGroup (−2 − part) or CloseGroup (−1).
type RenderCommand int32

// CloseGroup ends the innermost open isolated group.
const CloseGroup RenderCommand = -1

// OpenGroup returns the command that opens the isolated group of part.
func OpenGroup(part int) RenderCommand { return RenderCommand(-2 - part) }

// Mesh reports the mesh index of a draw command.
func (c RenderCommand) Mesh() (int, bool) { return int(c), c >= 0 }

// Group reports the part of a group-opening command.
func (c RenderCommand) Group() (part int, ok bool) { return int(-2 - c), c <= -2 }
