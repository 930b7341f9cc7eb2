package moc3

import (
	"fmt"
	"reflect"
	"testing"
)

// checkConsistent fails t unless every reference of m is in range and every
// keyform slice matches its object's grid: what Parse promises for any
// file it accepts. It is written apart from the reader's checks, so that a
// gap in validation fails the fuzz target.
func checkConsistent(t testing.TB, m *Moc) {
	t.Helper()
	if err := consistency(m); err != nil {
		t.Fatal(err)
	}
}

func consistency(m *Moc) error {
	in := func(i, n int, none bool) bool { return (none && i == -1) || (i >= 0 && i < n) }
	grid := func(axes []Axis) int {
		n := 1
		for _, a := range axes {
			n *= len(a.Keys)
		}
		return n
	}
	checkAxes := func(what string, axes []Axis) error {
		if len(axes) > MaxAxes {
			return fmt.Errorf("%s: %d axes", what, len(axes))
		}
		for _, a := range axes {
			if !in(a.Parameter, len(m.Parameters), false) || len(a.Keys) == 0 {
				return fmt.Errorf("%s: axis %+v", what, a)
			}
			for k := 1; k < len(a.Keys); k++ {
				if !(a.Keys[k-1] < a.Keys[k]) {
					return fmt.Errorf("%s: keys %v not ascending", what, a.Keys)
				}
			}
		}
		return nil
	}
	object := func(what string, binding int, axes []Axis, keyforms int) error {
		if !in(binding, len(m.KeyformBindings), false) {
			return fmt.Errorf("%s: binding %d", what, binding)
		}
		if !reflect.DeepEqual(axes, m.KeyformBindings[binding].Axes) {
			return fmt.Errorf("%s: axes differ from binding %d", what, binding)
		}
		if keyforms != grid(axes) {
			return fmt.Errorf("%s: %d keyforms for a grid of %d", what, keyforms, grid(axes))
		}
		return nil
	}
	constraints := func(what string, cs []BlendShapeConstraint) error {
		for _, c := range cs {
			if !in(c.Parameter, len(m.Parameters), false) || len(c.Keys) == 0 || len(c.Keys) != len(c.Weights) {
				return fmt.Errorf("%s: constraint %+v", what, c)
			}
		}
		return nil
	}
	shape := func(what string, param int, keys []float32, base, keyforms int, cs []BlendShapeConstraint) error {
		if !in(param, len(m.Parameters), false) || len(keys) == 0 || !in(base, len(keys), false) || keyforms != len(keys) {
			return fmt.Errorf("%s: blend shape parameter %d, %d keys, base %d, %d keyforms", what, param, len(keys), base, keyforms)
		}
		return constraints(what, cs)
	}
	for i, kb := range m.KeyformBindings {
		if err := checkAxes(fmt.Sprint("keyform binding ", i), kb.Axes); err != nil {
			return err
		}
	}
	for i, p := range m.Parameters {
		if p.Type != ParameterNormal && p.Type != ParameterBlendShape {
			return fmt.Errorf("parameter %d: type %d", i, p.Type)
		}
	}
	for i, p := range m.Parts {
		what := fmt.Sprint("part ", i)
		if !in(p.Parent, len(m.Parts), true) || !in(p.Offscreen, len(m.Offscreens), true) {
			return fmt.Errorf("%s: parent %d offscreen %d", what, p.Parent, p.Offscreen)
		}
		if p.Offscreen >= 0 && m.Offscreens[p.Offscreen].Owner != i {
			return fmt.Errorf("%s: offscreen %d owned by %d", what, p.Offscreen, m.Offscreens[p.Offscreen].Owner)
		}
		if err := object(what, p.Binding, p.Axes, len(p.Keyforms)); err != nil {
			return err
		}
		for _, s := range p.BlendShapes {
			if err := shape(what, s.Parameter, s.Keys, s.BaseKey, len(s.Keyforms), s.Constraints); err != nil {
				return err
			}
		}
	}
	if err := acyclic("part", len(m.Parts), func(i int) int { return m.Parts[i].Parent }); err != nil {
		return err
	}
	warps, rots := make([]int, len(m.WarpDeformers)), make([]int, len(m.RotationDeformers))
	for i, d := range m.Deformers {
		what := fmt.Sprint("deformer ", i)
		if !in(d.ParentPart, len(m.Parts), true) || !in(d.ParentDeformer, len(m.Deformers), true) || !in(d.ListBinding, len(m.KeyformBindings), false) {
			return fmt.Errorf("%s: %+v", what, d)
		}
		switch d.Kind {
		case Warp:
			if !in(d.Index, len(warps), false) || m.WarpDeformers[d.Index].Deformer != i {
				return fmt.Errorf("%s: warp %d", what, d.Index)
			}
			warps[d.Index]++
		case Rotation:
			if !in(d.Index, len(rots), false) || m.RotationDeformers[d.Index].Deformer != i {
				return fmt.Errorf("%s: rotation %d", what, d.Index)
			}
			rots[d.Index]++
		default:
			return fmt.Errorf("%s: kind %d", what, d.Kind)
		}
	}
	for i, n := range warps {
		if n != 1 {
			return fmt.Errorf("warp deformer %d named by %d deformers", i, n)
		}
	}
	for i, n := range rots {
		if n != 1 {
			return fmt.Errorf("rotation deformer %d named by %d deformers", i, n)
		}
	}
	if err := acyclic("deformer", len(m.Deformers), func(i int) int { return m.Deformers[i].ParentDeformer }); err != nil {
		return err
	}
	for i, w := range m.WarpDeformers {
		what := fmt.Sprint("warp deformer ", i)
		if w.Rows < 0 || w.Columns < 0 {
			return fmt.Errorf("%s: %d×%d", what, w.Rows, w.Columns)
		}
		points := (w.Rows + 1) * (w.Columns + 1)
		if err := object(what, w.Binding, w.Axes, len(w.Keyforms)); err != nil {
			return err
		}
		all := w.Keyforms
		for _, s := range w.BlendShapes {
			if err := shape(what, s.Parameter, s.Keys, s.BaseKey, len(s.Keyforms), s.Constraints); err != nil {
				return err
			}
			all = append(all[:len(all):len(all)], s.Keyforms...)
		}
		for k, kf := range all {
			if len(kf.Points) != 2*points {
				return fmt.Errorf("%s: keyform %d has %d point floats, want %d", what, k, len(kf.Points), 2*points)
			}
		}
	}
	for i, r := range m.RotationDeformers {
		what := fmt.Sprint("rotation deformer ", i)
		if err := object(what, r.Binding, r.Axes, len(r.Keyforms)); err != nil {
			return err
		}
		for _, s := range r.BlendShapes {
			if err := shape(what, s.Parameter, s.Keys, s.BaseKey, len(s.Keyforms), s.Constraints); err != nil {
				return err
			}
		}
	}
	for i, a := range m.ArtMeshes {
		what := fmt.Sprint("art mesh ", i)
		if !in(a.ParentPart, len(m.Parts), true) || !in(a.ParentDeformer, len(m.Deformers), true) || a.Texture < 0 {
			return fmt.Errorf("%s: parent part %d deformer %d texture %d", what, a.ParentPart, a.ParentDeformer, a.Texture)
		}
		if len(a.UVs) != 2*a.VertexCount || len(a.Indices)%3 != 0 {
			return fmt.Errorf("%s: %d uv floats, %d indices for %d vertices", what, len(a.UVs), len(a.Indices), a.VertexCount)
		}
		for _, x := range a.Indices {
			if int(x) >= a.VertexCount {
				return fmt.Errorf("%s: index %d", what, x)
			}
		}
		for _, x := range a.Masks {
			if !in(x, len(m.ArtMeshes), false) {
				return fmt.Errorf("%s: mask %d", what, x)
			}
		}
		if err := object(what, a.Binding, a.Axes, len(a.Keyforms)); err != nil {
			return err
		}
		all := a.Keyforms
		for _, s := range a.BlendShapes {
			if err := shape(what, s.Parameter, s.Keys, s.BaseKey, len(s.Keyforms), s.Constraints); err != nil {
				return err
			}
			all = append(all[:len(all):len(all)], s.Keyforms...)
		}
		for k, kf := range all {
			if len(kf.Positions) != 2*a.VertexCount {
				return fmt.Errorf("%s: keyform %d has %d position floats", what, k, len(kf.Positions))
			}
		}
	}
	for i, g := range m.Glues {
		what := fmt.Sprint("glue ", i)
		if !in(g.MeshA, len(m.ArtMeshes), false) || !in(g.MeshB, len(m.ArtMeshes), false) {
			return fmt.Errorf("%s: meshes %d %d", what, g.MeshA, g.MeshB)
		}
		for _, p := range g.Pairs {
			if int(p.A) >= m.ArtMeshes[g.MeshA].VertexCount || int(p.B) >= m.ArtMeshes[g.MeshB].VertexCount {
				return fmt.Errorf("%s: pair %+v", what, p)
			}
		}
		if err := object(what, g.Binding, g.Axes, len(g.Intensities)); err != nil {
			return err
		}
		for _, s := range g.BlendShapes {
			if err := shape(what, s.Parameter, s.Keys, s.BaseKey, len(s.Keyforms), s.Constraints); err != nil {
				return err
			}
		}
	}
	for i, g := range m.DrawOrderGroups {
		for _, o := range g.Objects {
			ok := in(o.Group, len(m.DrawOrderGroups), true)
			switch o.Kind {
			case DrawArtMesh:
				ok = ok && in(o.Index, len(m.ArtMeshes), false)
			case DrawPart:
				ok = ok && in(o.Index, len(m.Parts), false)
			default:
				ok = false
			}
			if !ok {
				return fmt.Errorf("draw order group %d: object %+v", i, o)
			}
		}
	}
	for i, o := range m.Offscreens {
		if !in(o.Owner, len(m.Parts), false) || m.Parts[o.Owner].Offscreen != i {
			return fmt.Errorf("offscreen %d: owner %d", i, o.Owner)
		}
		for _, x := range o.Masks {
			if !in(x, len(m.ArtMeshes), false) {
				return fmt.Errorf("offscreen %d: mask %d", i, x)
			}
		}
	}
	return nil
}

// acyclic fails when following parent from some node never reaches −1.
func acyclic(what string, n int, parent func(int) int) error {
	for i := range n {
		j := i
		for steps := 0; j >= 0; steps++ {
			if steps > n {
				return fmt.Errorf("%s %d: parent chain loops", what, i)
			}
			j = parent(j)
		}
	}
	return nil
}

// diff describes the first difference between two values, with its path,
// or returns "".
func diff(want, got any) string {
	return diffValue("", reflect.ValueOf(want), reflect.ValueOf(got))
}

func diffValue(path string, a, b reflect.Value) string {
	if a.Kind() != b.Kind() {
		return fmt.Sprintf("%s: kind %v, got %v", path, a.Kind(), b.Kind())
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil mismatch"
			}
			return ""
		}
		return diffValue(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if d := diffValue(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: want %d elements, got %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Sprintf("%s: want %v, got %v", path, a.Interface(), b.Interface())
	}
	return ""
}
