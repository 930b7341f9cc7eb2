package p2l

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// The views of a rig's per-object state: Rig.Mesh and Rig.Part return a
// small value (the rig and an index checked once) whose methods read the
// last evaluation's results and set the host's overrides. They allocate
// nothing and inline, so a renderer reads every mesh every frame through
// them at the cost of the index check alone.

// MeshState is mesh i of a rig: its evaluated results and the host's color
// override. Get one with Rig.Mesh; it stays valid as long as the rig.
type MeshState struct {
	r *Rig
	i int
}

// Mesh returns the state of mesh i (Model.MeshIndex finds it by id or
// name). It panics when i is out of range.
func (r *Rig) Mesh(i int) MeshState {
	r.checkMesh(i)
	return MeshState{r, i}
}

// Index returns the mesh's index in the model.
func (s MeshState) Index() int { return s.i }

// Vertices returns the mesh's evaluated vertices, x,y pairs in canvas
// pixels (y down); nil before the first evaluation and for a mesh without
// geometry.
func (s MeshState) Vertices() []float32 {
	r := s.r
	if !r.evaluated {
		return nil
	}
	c := &r.p.meshes[s.i]
	if c.nv == 0 {
		return nil
	}
	return r.verts[r.vcur][c.vOff : c.vOff+2*c.nv : c.vOff+2*c.nv]
}

// UVs returns the mesh's texture coordinates, u,v pairs (v down). The
// slice belongs to the Model.
func (s MeshState) UVs() []float32 {
	u := s.r.model.file.Meshes[s.i].UVs
	return u[:len(u):len(u)]
}

// Indices returns the mesh's triangle indices. The slice belongs to the
// Model.
func (s MeshState) Indices() []uint32 {
	x := s.r.model.file.Meshes[s.i].Indices
	return x[:len(x):len(x)]
}

// Opacity returns the mesh's evaluated opacity in [0, 1]: the mesh and
// deformer chain (each level clamped, then multiplied), times the opacity
// multipliers of its ancestor parts (PartState.OpacityMultiplier) and the
// model opacity (pose, clip and host opacities; 1 under Evaluate alone).
func (s MeshState) Opacity() float32 {
	if !s.r.evaluated {
		return 0
	}
	return s.r.meshOpacity[s.i]
}

// Colors returns the mesh's evaluated multiply and screen colors (the
// deformer chain composed in, host overrides applied).
func (s MeshState) Colors() (multiply, screen p2lrt.Color) {
	if !s.r.evaluated {
		return p2lrt.Color{}, p2lrt.Color{}
	}
	return s.r.meshMul[s.i], s.r.meshScr[s.i]
}

// DrawOrder returns the mesh's evaluated draw-order value (before the
// +0.001 and floor of the sort key).
func (s MeshState) DrawOrder() float32 {
	if !s.r.evaluated {
		return 0
	}
	return s.r.meshDraw[s.i]
}

// Visible reports whether the mesh is visible: it has geometry, its
// visible flag is set and no part above it is hidden or a sketch. Visible
// meshes of the draw tree are drawn (see Rig.RenderOrder) even at opacity
// 0.
func (s MeshState) Visible() bool {
	return s.r.evaluated && s.r.meshVisible[s.i]
}

// Changes returns the mesh's change flags from the last evaluation.
func (s MeshState) Changes() MeshChange {
	if !s.r.evaluated {
		return 0
	}
	return s.r.changes[s.i]
}

// Revision returns a counter of the mesh's vertex changes: it grows with
// every evaluation whose Vertices differ from the previous one
// (MeshVerticesChanged), and only then. A renderer that keeps a mesh's
// vertices between frames (in a vertex buffer, on the GPU) tells by one
// comparison whether they are still current, however many evaluations ran
// since it built them. It is 0 before the first evaluation.
func (s MeshState) Revision() uint64 {
	if !s.r.evaluated {
		return 0
	}
	return s.r.meshRev[s.i]
}

// RenderPosition returns the mesh's position in Rig.RenderOrder, −1 when
// it is not drawn.
func (s MeshState) RenderPosition() int {
	if !s.r.evaluated {
		return -1
	}
	return int(s.r.orderPos[s.i])
}

// SetColors replaces the mesh's evaluated multiply and screen colors.
// Components are clamped to [0, 1], like evaluated colors; colors with a
// component that is not finite are ignored.
func (s MeshState) SetColors(multiply, screen p2lrt.Color) {
	if !allFinite(multiply[:]) || !allFinite(screen[:]) {
		return
	}
	s.r.meshColorOverride[s.i] = colorOverride{set: true, mul: unitColor(multiply), scr: unitColor(screen)}
}

// ClearColors removes the mesh's color override.
func (s MeshState) ClearColors() { s.r.meshColorOverride[s.i] = colorOverride{} }

// PartState is part i of a rig: its evaluated properties, its opacity
// multipliers (host, clips, pose) and the host's color override. Get one
// with Rig.Part; it stays valid as long as the rig.
type PartState struct {
	r *Rig
	i int
}

// Part returns the state of part i (Model.PartIndex finds it by id or
// name). It panics when i is out of range.
func (r *Rig) Part(i int) PartState {
	r.checkPart(i)
	return PartState{r, i}
}

// Index returns the part's index in the model.
func (s PartState) Index() int { return s.i }

// Opacity returns the part's evaluated opacity (channels and blend shapes,
// clamped to [0, 1]). The core evaluation does not multiply it into mesh
// opacity; OpacityMultiplier is what multiplies the meshes below.
func (s PartState) Opacity() float32 {
	if !s.r.evaluated {
		return 0
	}
	return float32(s.r.partProps[s.i].opacity)
}

// Colors returns the part's evaluated multiply and screen colors.
func (s PartState) Colors() (multiply, screen p2lrt.Color) {
	if !s.r.evaluated {
		return p2lrt.Color{}, p2lrt.Color{}
	}
	p := &s.r.partProps[s.i]
	return toColor(p.mul), toColor(p.scr)
}

// DrawOrder returns the part's evaluated draw order, the key of its draw
// groups.
func (s PartState) DrawOrder() float32 {
	if !s.r.evaluated {
		return 0
	}
	return float32(s.r.partProps[s.i].drawOrder)
}

// Composite returns how the part's isolated group is composited this
// frame: blend and alpha modes, masks (MaskMeshes lists the mask meshes
// with the mask parts expanded to their meshes; MaskParts is the file's
// list), invert flag, and the evaluated opacity (clamped to [0, 1]) and
// colors (not clamped): the draw-tree group's channels override the
// composite's static values. The composite is that of the last draw-tree
// group (in tree order) that names the part and carries one, else the
// part's own. The slices belong to the Model.
func (s PartState) Composite() p2lrt.Composite {
	if !s.r.evaluated {
		return p2lrt.Composite{}
	}
	return s.r.comps[s.i]
}

// SetHostOpacity sets the host opacity of the part, multiplying every
// mesh below it (clamped to [0, 1]; default 1). A value that is not finite
// is ignored.
func (s PartState) SetHostOpacity(a float32) {
	if !finite(a) {
		return
	}
	r := s.r
	r.anim().hostPart[s.i] = unit32(a)
	r.restoreMultipliers()
}

// PoseOpacity returns the part's pose opacity (1 for parts in no pose
// group).
func (s PartState) PoseOpacity() float32 { return s.r.anim().pose.opacity[s.i] }

// OpacityMultiplier returns the part's opacity multiplier in the last
// update: host opacity × clip part-opacity curve × pose opacity (when the
// pose stage ran). Meshes are multiplied by the product over their
// ancestor parts.
func (s PartState) OpacityMultiplier() float32 { return s.r.anim().lastPart[s.i] }

// SetColors replaces the evaluated colors of every mesh below the part
// that has no override of its own or of a nearer part (clamped and checked
// as by MeshState.SetColors).
func (s PartState) SetColors(multiply, screen p2lrt.Color) {
	if !allFinite(multiply[:]) || !allFinite(screen[:]) {
		return
	}
	s.r.partColorOverride[s.i] = colorOverride{set: true, mul: unitColor(multiply), scr: unitColor(screen)}
}

// ClearColors removes the part's color override.
func (s PartState) ClearColors() { s.r.partColorOverride[s.i] = colorOverride{} }
