package p2l

// Lookups by id and derived relations of a Model. They are computed once per
// model (see prepare.go) and safe for concurrent use. Every lookup answers
// −1 (or false) for an unknown id or an out-of-range index; with duplicate
// ids the first record wins. On a nil *Model every lookup answers as for an
// empty model.

func lookupID(m map[string]int, id string) int {
	if i, ok := m[id]; ok {
		return i
	}
	return -1
}

// ParameterIndex returns the index of the parameter with the given id, or −1.
func (m *Model) ParameterIndex(id string) int { return lookupID(m.prep().paramByID, id) }

// DeformerIndex returns the index of the deformer with the given id, or −1.
func (m *Model) DeformerIndex(id string) int { return lookupID(m.prep().deformerByID, id) }

// PartIndex returns the index of the part with the given id, or −1.
func (m *Model) PartIndex(id string) int { return lookupID(m.prep().partByID, id) }

// MeshIndex returns the index of the mesh with the given id, or −1.
func (m *Model) MeshIndex(id string) int { return lookupID(m.prep().meshByID, id) }

// GlueIndex returns the index of the glue with the given id, or −1.
func (m *Model) GlueIndex(id string) int { return lookupID(m.prep().glueByID, id) }

// ClipIndex returns the index of the clip with the given id, or −1.
func (m *Model) ClipIndex(id string) int { return lookupID(m.prep().clipByID, id) }

// ExpressionIndex returns the index of the expression with the given id, or −1.
func (m *Model) ExpressionIndex(id string) int { return lookupID(m.prep().exprByID, id) }

// HitAreaIndex returns the index of the hit area with the given id, or −1.
func (m *Model) HitAreaIndex(id string) int { return lookupID(m.prep().hitByID, id) }

// RoleParameters returns the parameters of the role with the given name
// (such as "EyeBlink" or "LipSync"), nil when the model has no such role.
// The slice belongs to the Model.
func (m *Model) RoleParameters(role string) []int {
	if m == nil {
		return nil
	}
	for i := range m.Roles {
		if m.Roles[i].Name == role {
			return m.Roles[i].Parameters
		}
	}
	return nil
}

// ParameterSnaps returns the snap values of parameter i from the PGUI
// chunk (ascending), nil when it has none. The slice belongs to the Model.
func (m *Model) ParameterSnaps(i int) []float32 {
	if m == nil {
		return nil
	}
	if m.GUI == nil {
		return nil
	}
	for _, s := range m.GUI.Snaps {
		if s.Parameter == i {
			return s.Keys
		}
	}
	return nil
}

// MetaValue returns the META value stored under key (such as "generator"
// or "capabilities") and whether the key is present.
func (m *Model) MetaValue(key string) (string, bool) {
	if m == nil {
		return "", false
	}
	for _, e := range m.Meta {
		if e.Key == key {
			return e.Value, true
		}
	}
	return "", false
}

// PartParent returns the part whose children list holds part i, −1 for a
// top-level part or an out-of-range index.
func (m *Model) PartParent(i int) int {
	p := m.prep()
	if i < 0 || i >= len(p.partParent) {
		return -1
	}
	return int(p.partParent[i])
}

// MeshPart returns the part whose children list holds mesh i, −1 for none
// or an out-of-range index.
func (m *Model) MeshPart(i int) int {
	p := m.prep()
	if i < 0 || i >= len(p.meshPart) {
		return -1
	}
	return int(p.meshPart[i])
}

// MeshUserData returns the user data (UDAT) of mesh i and whether it has
// any.
func (m *Model) MeshUserData(i int) (string, bool) {
	p := m.prep()
	if i < 0 || i >= len(p.meshUserData) || p.meshUserData[i] < 0 {
		return "", false
	}
	return m.UserData[p.meshUserData[i]].Value, true
}

// GroupInfo returns the static composite of part's group for custom
// renderers: blend and alpha modes, invert flag, static opacity and colors,
// and MaskMeshes with the mask parts expanded to their meshes (depth first,
// no duplicates). It is the draw-tree group's composite when the group has
// one, else the part's. ok is false for an out-of-range part or a model that
// cannot be evaluated. The slices belong to the Model.
func (m *Model) GroupInfo(part int) (c Composite, ok bool) {
	p := m.prep()
	if p.err != nil || part < 0 || part >= len(p.gsrc) {
		return Composite{}, false
	}
	c = *p.gsrc[part].comp
	c.MaskMeshes = p.gsrc[part].masks
	return c, true
}

// TextureInfo describes a texture page without decoding it.
type TextureInfo struct {
	Kind          TextureKind
	Width, Height uint32 // the size the TEXR record declares
	// URI is the path of an external page relative to the model file.
	URI string
}

// TextureInfo returns the kind, size and URI of texture page i; ok is false
// when i is out of range.
func (m *Model) TextureInfo(i int) (info TextureInfo, ok bool) {
	if m == nil || i < 0 || i >= len(m.Textures) {
		return TextureInfo{}, false
	}
	t := &m.Textures[i]
	return TextureInfo{Kind: t.Kind, Width: t.Width, Height: t.Height, URI: t.URI}, true
}
