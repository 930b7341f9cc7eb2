package p2l

import (
	"iter"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// List is a read-only view of one of a model's record lists (Model.Meshes,
// Model.Parameters, ...). It costs nothing to make or copy; its zero value
// is empty.
type List[T any] struct{ s []T }

// Len returns the number of records.
func (l List[T]) Len() int { return len(l.s) }

// At returns record i by value. It panics when i is out of range
// [0:Len()), as a slice index does. The record's own slices are shared
// with the model: see Model.
func (l List[T]) At(i int) T { return l.s[i] }

// All yields the index and (a copy of) each record in order.
func (l List[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i := range l.s {
			if !yield(i, l.s[i]) {
				return
			}
		}
	}
}

// list returns a List of m's records chosen by field; the empty list for a
// nil model.
func list[T any](m *Model, field func(*p2lrt.File) []T) List[T] {
	if m == nil {
		return List[T]{}
	}
	return List[T]{field(m.file)}
}

// optional returns *field(m's file) and whether the chunk is present.
func optional[T any](m *Model, field func(*p2lrt.File) *T) (T, bool) {
	var zero T
	if m == nil {
		return zero, false
	}
	if p := field(m.file); p != nil {
		return *p, true
	}
	return zero, false
}

// Parameters returns the model's parameters (PARM).
func (m *Model) Parameters() List[p2lrt.Parameter] {
	return list(m, func(f *p2lrt.File) []p2lrt.Parameter { return f.Parameters })
}

// Deformers returns the model's deformers (DEFM).
func (m *Model) Deformers() List[p2lrt.Deformer] {
	return list(m, func(f *p2lrt.File) []p2lrt.Deformer { return f.Deformers })
}

// Parts returns the model's parts (PART).
func (m *Model) Parts() List[p2lrt.Part] {
	return list(m, func(f *p2lrt.File) []p2lrt.Part { return f.Parts })
}

// Meshes returns the model's art meshes (MESH).
func (m *Model) Meshes() List[p2lrt.Mesh] {
	return list(m, func(f *p2lrt.File) []p2lrt.Mesh { return f.Meshes })
}

// Glues returns the model's glues (GLUE).
func (m *Model) Glues() List[p2lrt.Glue] {
	return list(m, func(f *p2lrt.File) []p2lrt.Glue { return f.Glues })
}

// Textures returns the model's texture pages (TEXR).
func (m *Model) Textures() List[p2lrt.TexturePage] {
	return list(m, func(f *p2lrt.File) []p2lrt.TexturePage { return f.Textures })
}

// Clips returns the model's animation clips (CLIP).
func (m *Model) Clips() List[p2lrt.Clip] {
	return list(m, func(f *p2lrt.File) []p2lrt.Clip { return f.Clips })
}

// Roles returns the model's parameter roles (ROLE).
func (m *Model) Roles() List[p2lrt.Role] {
	return list(m, func(f *p2lrt.File) []p2lrt.Role { return f.Roles })
}

// Meta returns the model's metadata entries (META).
func (m *Model) Meta() List[p2lrt.MetaEntry] {
	return list(m, func(f *p2lrt.File) []p2lrt.MetaEntry { return f.Meta })
}

// Expressions returns the model's expressions (EXPR).
func (m *Model) Expressions() List[p2lrt.Expression] {
	return list(m, func(f *p2lrt.File) []p2lrt.Expression { return f.Expressions })
}

// HitAreas returns the model's hit areas (HITA).
func (m *Model) HitAreas() List[p2lrt.HitArea] {
	return list(m, func(f *p2lrt.File) []p2lrt.HitArea { return f.HitAreas })
}

// UserData returns the model's user data entries (UDAT).
func (m *Model) UserData() List[p2lrt.UserData] {
	return list(m, func(f *p2lrt.File) []p2lrt.UserData { return f.UserData })
}

// Canvas returns the model's canvas (CANV); the zero Canvas for a nil
// model.
func (m *Model) Canvas() p2lrt.Canvas {
	if m == nil {
		return p2lrt.Canvas{}
	}
	return m.file.Canvas
}

// Draw returns the root group of the model's draw tree (DRAW); for a nil
// model, the empty root an empty file has (Part −1).
func (m *Model) Draw() p2lrt.DrawGroup {
	if m == nil {
		return p2lrt.DrawGroup{Part: -1}
	}
	return m.file.Draw
}

// Physics returns the model's pendulum physics (PHYS).
func (m *Model) Physics() p2lrt.Physics {
	if m == nil {
		return p2lrt.Physics{}
	}
	return m.file.Physics
}

// NamesStripped reports whether the file's display names were stripped
// (the header flag: Name fields are empty, IDs are kept).
func (m *Model) NamesStripped() bool { return m != nil && m.file.NamesStripped }

// GUI returns the model's editor GUI chunk (PGUI) and whether it has one.
func (m *Model) GUI() (p2lrt.GUI, bool) {
	return optional(m, func(f *p2lrt.File) *p2lrt.GUI { return f.GUI })
}

// Pose returns the model's pose groups (POSE) and whether it has them.
func (m *Model) Pose() (p2lrt.Pose, bool) {
	return optional(m, func(f *p2lrt.File) *p2lrt.Pose { return f.Pose })
}

// Bones returns the model's bone extension (BONE) and whether it has one.
func (m *Model) Bones() (p2lrt.Bones, bool) {
	return optional(m, func(f *p2lrt.File) *p2lrt.Bones { return f.Bones })
}

// Skins returns the model's skin extension (SKIN) and whether it has one.
func (m *Model) Skins() (p2lrt.Skins, bool) {
	return optional(m, func(f *p2lrt.File) *p2lrt.Skins { return f.Skins })
}

// Collision returns the model's collision extension (COLL) and whether it
// has one.
func (m *Model) Collision() (p2lrt.Collision, bool) {
	return optional(m, func(f *p2lrt.File) *p2lrt.Collision { return f.Collision })
}

// Simulations returns the model's simulation extension (SIMS) and whether
// it has one.
func (m *Model) Simulations() (p2lrt.Simulations, bool) {
	return optional(m, func(f *p2lrt.File) *p2lrt.Simulations { return f.Simulations })
}
