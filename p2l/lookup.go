package p2l

import (
	"fmt"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Lookups by id or name and derived relations of a Model. They are computed
// once per model (see prepare.go) and safe for concurrent use. Every lookup
// answers −1 (or false) for an unknown id or an out-of-range index.
//
// The lookup rule, the same for every XxxIndex and clip-group lookup: the
// first record whose id is s; else the first whose name is s; else the
// first whose id, then whose name, equals s ignoring case (Unicode case
// folding). Exact ids always win, so machine-written ids resolve as
// before; "idle" finds the clip "Idle". An empty s matches only an empty
// id (names are never matched empty). On a nil *Model every lookup
// answers as for an empty model.

// findIndex applies the lookup rule to recs.
func findIndex[T any](byID map[string]int, recs []T, id, name func(*T) string, s string) int {
	if i, ok := byID[s]; ok {
		return i
	}
	if s == "" {
		return -1
	}
	if name != nil {
		for i := range recs {
			if name(&recs[i]) == s {
				return i
			}
		}
	}
	for i := range recs {
		if strings.EqualFold(id(&recs[i]), s) {
			return i
		}
	}
	if name != nil {
		for i := range recs {
			if strings.EqualFold(name(&recs[i]), s) {
				return i
			}
		}
	}
	return -1
}

// ParameterIndex returns the index of the parameter with the given id or
// name (the lookup rule above), or −1.
func (m *Model) ParameterIndex(s string) int {
	if m == nil {
		return -1
	}
	return findIndex(m.ids().param, m.file.Parameters, func(x *p2lrt.Parameter) string { return x.ID }, func(x *p2lrt.Parameter) string { return x.Name }, s)
}

// DeformerIndex returns the index of the deformer with the given id
// (deformers have no names; the rule's case-insensitive step applies), or
// −1.
func (m *Model) DeformerIndex(s string) int {
	if m == nil {
		return -1
	}
	return findIndex(m.ids().deformer, m.file.Deformers, func(x *p2lrt.Deformer) string { return x.ID }, nil, s)
}

// PartIndex returns the index of the part with the given id or name, or −1.
func (m *Model) PartIndex(s string) int {
	if m == nil {
		return -1
	}
	return findIndex(m.ids().part, m.file.Parts, func(x *p2lrt.Part) string { return x.ID }, func(x *p2lrt.Part) string { return x.Name }, s)
}

// MeshIndex returns the index of the mesh with the given id or name, or −1.
func (m *Model) MeshIndex(s string) int {
	if m == nil {
		return -1
	}
	return findIndex(m.ids().mesh, m.file.Meshes, func(x *p2lrt.Mesh) string { return x.ID }, func(x *p2lrt.Mesh) string { return x.Name }, s)
}

// GlueIndex returns the index of the glue with the given id (glues have no
// names), or −1.
func (m *Model) GlueIndex(s string) int {
	if m == nil {
		return -1
	}
	return findIndex(m.ids().glue, m.file.Glues, func(x *p2lrt.Glue) string { return x.ID }, nil, s)
}

// ClipIndex returns the index of the clip with the given id or name, or −1.
func (m *Model) ClipIndex(s string) int {
	if m == nil {
		return -1
	}
	return findIndex(m.ids().clip, m.file.Clips, func(x *p2lrt.Clip) string { return x.ID }, func(x *p2lrt.Clip) string { return x.Name }, s)
}

// ExpressionIndex returns the index of the expression with the given id or
// name, or −1.
func (m *Model) ExpressionIndex(s string) int {
	if m == nil {
		return -1
	}
	return findIndex(m.ids().expr, m.file.Expressions, func(x *p2lrt.Expression) string { return x.ID }, func(x *p2lrt.Expression) string { return x.Name }, s)
}

// HitAreaIndex returns the index of the hit area with the given id or name,
// or −1.
func (m *Model) HitAreaIndex(s string) int {
	if m == nil {
		return -1
	}
	return findIndex(m.ids().hit, m.file.HitAreas, func(x *p2lrt.HitArea) string { return x.ID }, func(x *p2lrt.HitArea) string { return x.Name }, s)
}

// NotFoundError is the error of LayerState.PlayGroup and SetIdleGroup for
// a clip group that none matches by the lookup rule. It lists the model's
// groups.
type NotFoundError struct {
	Kind       string   // "clip group"
	Name       string   // what was asked for
	Candidates []string // the model's groups
}

// maxCandidates bounds the candidates an error message lists.
const maxCandidates = 24

func (e *NotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "p2l: no %s %q", e.Kind, e.Name)
	if len(e.Candidates) == 0 {
		fmt.Fprintf(&b, " (the model has none)")
		return b.String()
	}
	b.WriteString("; the model has: ")
	for i, c := range e.Candidates {
		if i == maxCandidates {
			fmt.Fprintf(&b, ", … (%d more)", len(e.Candidates)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c)
	}
	return b.String()
}

// RoleParameters returns the parameters that the behaviors drive for the
// role with the given name (such as "EyeBlink" or "LipSync"): those of
// every ROLE record with that name, in file order, or, for a role with a
// fallback id (MouthForm and the vowels, docs/ANIMATION.md) that no record
// names, the parameter with that id. It returns nil when there is none.
// The slice is new on each call.
func (m *Model) RoleParameters(role string) []int {
	if m == nil {
		return nil
	}
	return roleParameters(m, role)
}

// ParameterSnaps returns the snap values of parameter i from the PGUI
// chunk (ascending), nil when it has none. The slice belongs to the Model.
func (m *Model) ParameterSnaps(i int) []float32 {
	if m == nil {
		return nil
	}
	if m.file.GUI == nil {
		return nil
	}
	for _, s := range m.file.GUI.Snaps {
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
	for _, e := range m.file.Meta {
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
	return m.file.UserData[p.meshUserData[i]].Value, true
}

// GroupInfo returns the static composite of part's group for custom
// renderers: blend and alpha modes, invert flag, static opacity and colors,
// and MaskMeshes with the mask parts expanded to their meshes (depth first,
// no duplicates). It is the draw-tree group's composite when the group has
// one, else the part's. ok is false for an out-of-range part or a model that
// cannot be evaluated. The slices belong to the Model.
func (m *Model) GroupInfo(part int) (c p2lrt.Composite, ok bool) {
	p := m.prep()
	if p.err != nil || part < 0 || part >= len(p.gsrc) {
		return p2lrt.Composite{}, false
	}
	c = *p.gsrc[part].comp
	c.MaskMeshes = p.gsrc[part].masks
	return c, true
}

// TextureInfo describes a texture page without decoding it.
type TextureInfo struct {
	Kind          p2lrt.TextureKind
	Width, Height uint32 // the size the TEXR record declares
	// URI is the path of an external page relative to the model file.
	URI string
}

// TextureInfo returns the kind, size and URI of texture page i; ok is false
// when i is out of range.
func (m *Model) TextureInfo(i int) (info TextureInfo, ok bool) {
	if m == nil || i < 0 || i >= len(m.file.Textures) {
		return TextureInfo{}, false
	}
	t := &m.file.Textures[i]
	return TextureInfo{Kind: t.Kind, Width: t.Width, Height: t.Height, URI: t.URI}, true
}
