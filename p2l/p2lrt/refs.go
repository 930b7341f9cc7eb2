package p2lrt

import (
	"fmt"
	"slices"
	"strconv"
)

// refChecker checks references between records (docs/FORMAT.md,
// "References"). Errors carry the chunk tag and a field path; the offset is
// −1 because the check runs on the decoded model.
type refChecker struct {
	m   *File
	err error
	// Derived counts.
	nPar, nDef, nPart, nMesh, nGroups int
	nAllDef                           int // DEFM + virtual bones
}

func (r *refChecker) fail(tag, field string, format string, args ...any) {
	if r.err == nil {
		r.err = &FormatError{Tag: tag, Offset: -1, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
}

// bad reports whether v lies outside [0, n) while no error is recorded.
// Callers format the field path only when it does, so the checks allocate
// nothing on a valid model.
func (r *refChecker) bad(v, n int) bool { return r.err == nil && (v < 0 || v >= n) }

// badOpt is bad for nullable references (−1 allowed).
func (r *refChecker) badOpt(v, n int) bool { return v != -1 && r.bad(v, n) }

// outOfRange records a reference error; path is a format for the field.
func (r *refChecker) outOfRange(tag, what string, v, n int, path string, args ...any) {
	r.fail(tag, fmt.Sprintf(path, args...), "%s %d out of range (%d)", what, v, n)
}

// indexed is the field path name[i], without fmt.
func indexed(name string, i int) string { return name + "[" + strconv.Itoa(i) + "]" }

// recPath is the field path of a record, list[at] (or a whole path when
// at < 0) followed by sub, formatted (String, fmt's %s) only for an
// error: the checks visit every record of every valid file.
type recPath struct {
	list string
	at   int
	sub  string
}

// pathOf is the recPath of a path already built.
func pathOf(s string) recPath { return recPath{list: s, at: -1} }

// field is p followed by sub (".composite").
func (p recPath) field(sub string) recPath {
	p.sub += sub
	return p
}

func (p recPath) String() string {
	if p.at < 0 {
		return p.list + p.sub
	}
	return indexed(p.list, p.at) + p.sub
}

func vertexCount(me *Mesh) int { return len(me.Positions) / 2 }

func checkRefs(m *File) error {
	r := &refChecker{m: m, nPar: len(m.Parameters), nDef: len(m.Deformers), nPart: len(m.Parts),
		nMesh: len(m.Meshes), nGroups: len(m.Physics.Groups)}
	r.nAllDef = r.nDef
	if m.Bones != nil {
		r.nAllDef += len(m.Bones.Virtual)
	}
	r.deformers("DEFM", m.Deformers, 0)
	r.parts()
	r.meshes()
	r.glues()
	r.draw()
	r.physics()
	r.clips()
	r.side()
	r.extensions()
	return r.err
}

func (r *refChecker) axes(tag string, path recPath, axes []Axis) {
	r.axesAt(tag, "%s", path, -1, axes)
}

// axesAt checks grid axes; the field path is fmt.Sprintf(pathFmt, path, i)
// (i omitted when negative), built only on error.
func (r *refChecker) axesAt(tag, pathFmt string, path recPath, idx int, axes []Axis) {
	for i, a := range axes {
		if r.bad(a.Parameter, r.nPar) {
			var p string
			if idx >= 0 {
				p = fmt.Sprintf(pathFmt, path, idx)
			} else {
				p = fmt.Sprintf(pathFmt, path)
			}
			r.outOfRange(tag, "parameter", a.Parameter, r.nPar, "%s.axes[%d].parameter", p, i)
		}
	}
}

func (r *refChecker) channels(tag string, path recPath, chs []Channel) {
	for i, ch := range chs {
		if ch.Grid != nil {
			r.axesAt(tag, "%s.channels[%d].grid", path, i, ch.Grid.Axes)
		}
	}
}

func bindingRefs[S any](r *refChecker, tag string, path recPath, bs []Binding[S]) {
	for i, b := range bs {
		if r.bad(b.Parameter, r.nPar) {
			r.outOfRange(tag, "parameter", b.Parameter, r.nPar, "%s.shapes[%d].parameter", path, i)
		}
		for j, l := range b.Limits {
			if r.bad(l.Parameter, r.nPar) {
				r.outOfRange(tag, "parameter", l.Parameter, r.nPar, "%s.shapes[%d].limits[%d].parameter", path, i, j)
			}
		}
	}
}

// deformers checks DEFM records (first = index of ds[0]): parents before
// children, part and parameter references.
func (r *refChecker) deformers(tag string, ds []Deformer, first int) {
	for k := range ds {
		d := &ds[k]
		i := first + k
		path := recPath{list: "deformers", at: i}
		if tag == "BONE" {
			path = recPath{list: "virtual", at: k}
		}
		if d.Parent != -1 && (d.Parent < 0 || d.Parent >= i) {
			r.fail(tag, path.String()+".parent", "parent %d must be an earlier deformer (index < %d)", d.Parent, i)
		}
		if r.badOpt(d.Part, r.nPart) {
			r.outOfRange(tag, "part", d.Part, r.nPart, "%s.part", path)
		}
		r.channels(tag, path, d.Channels)
		if d.Warp != nil {
			if d.Warp.Keyforms != nil {
				r.axesAt(tag, "%s.keyforms", path, -1, d.Warp.Keyforms.Axes)
			}
			bindingRefs(r, tag, path, d.Warp.Shapes)
		}
		if d.Rotation != nil {
			if d.Rotation.Keyforms != nil {
				r.axesAt(tag, "%s.keyforms", path, -1, d.Rotation.Keyforms.Axes)
			}
			bindingRefs(r, tag, path, d.Rotation.Shapes)
		}
	}
}

func (r *refChecker) composite(tag string, path recPath, c *Composite) {
	for j, mm := range c.MaskMeshes {
		if r.bad(mm, r.nMesh) {
			r.outOfRange(tag, "mask mesh", mm, r.nMesh, "%s.maskMeshes[%d]", path, j)
		}
	}
	for j, mp := range c.MaskParts {
		if r.bad(mp, r.nPart) {
			r.outOfRange(tag, "mask part", mp, r.nPart, "%s.maskParts[%d]", path, j)
		}
	}
}

// parts checks part children's references. The children need not form a
// forest (rig.rs checks only the indices): a part or mesh listed by several
// parts belongs to the last of them, and ancestor walks stop at a repeat
// (prepare.go, as pose.rs and ffi.rs).
func (r *refChecker) parts() {
	for i := range r.m.Parts {
		p := &r.m.Parts[i]
		path := recPath{list: "parts", at: i}
		for j, ch := range p.Children {
			const cp = "%s.children[%d]"
			if ch.Kind == ChildPart {
				if r.bad(ch.Index, r.nPart) {
					r.outOfRange("PART", "part", ch.Index, r.nPart, cp, path, j)
				}
			} else if r.bad(ch.Index, r.nMesh) {
				r.outOfRange("PART", "mesh", ch.Index, r.nMesh, cp, path, j)
			}
		}
		r.channels("PART", path, p.Channels)
		r.composite("PART", path.field(".composite"), &p.Composite)
		bindingRefs(r, "PART", path, p.Shapes)
	}
}

func (r *refChecker) meshes() {
	for i := range r.m.Meshes {
		me := &r.m.Meshes[i]
		path := recPath{list: "meshes", at: i}
		if r.badOpt(me.Parent, r.nDef) {
			r.outOfRange("MESH", "parent deformer", me.Parent, r.nDef, "%s.parent", path)
		}
		for j, k := range me.Masks {
			if r.bad(k, r.nMesh) {
				r.outOfRange("MESH", "mask mesh", k, r.nMesh, "%s.masks[%d]", path, j)
			}
		}
		if me.Keyforms != nil {
			r.axesAt("MESH", "%s.keyforms", path, -1, me.Keyforms.Axes)
		}
		r.channels("MESH", path, me.Channels)
		bindingRefs(r, "MESH", path, me.Shapes)
	}
}

// badVertex reports whether vertex v is not below mesh's vertex count
// (mesh itself already checked) while no error is recorded.
func (r *refChecker) badVertex(v uint32, mesh int) bool {
	return r.err == nil && mesh >= 0 && mesh < r.nMesh && uint64(v) >= uint64(vertexCount(&r.m.Meshes[mesh]))
}

func (r *refChecker) vertexError(v uint32, mesh int, tag string, path string, args ...any) {
	r.fail(tag, fmt.Sprintf(path, args...), "vertex %d not below mesh %d's vertex count %d", v, mesh, vertexCount(&r.m.Meshes[mesh]))
}

func (r *refChecker) glues() {
	for i := range r.m.Glues {
		g := &r.m.Glues[i]
		path := recPath{list: "glues", at: i}
		if r.bad(g.MeshA, r.nMesh) {
			r.outOfRange("GLUE", "mesh", g.MeshA, r.nMesh, "%s.meshA", path)
		}
		if r.bad(g.MeshB, r.nMesh) {
			r.outOfRange("GLUE", "mesh", g.MeshB, r.nMesh, "%s.meshB", path)
		}
		if r.err != nil {
			return
		}
		for j, p := range g.Pairs {
			if r.badVertex(p.A, g.MeshA) {
				r.vertexError(p.A, g.MeshA, "GLUE", "%s.pairs[%d].a", path, j)
			}
			if r.badVertex(p.B, g.MeshB) {
				r.vertexError(p.B, g.MeshB, "GLUE", "%s.pairs[%d].b", path, j)
			}
		}
		r.channels("GLUE", path, g.Channels)
	}
}

// draw checks the draw tree's part and mesh references. A mesh may appear
// more than once (it is then drawn at each place, as eval.rs render_order).
func (r *refChecker) draw() {
	var walk func(g *DrawGroup, path string, depth int)
	walk = func(g *DrawGroup, path string, depth int) {
		if depth > maxDepth {
			r.fail("DRAW", path, "draw tree deeper than %d levels", maxDepth)
			return
		}
		if r.badOpt(g.Part, r.nPart) {
			r.outOfRange("DRAW", "part", g.Part, r.nPart, "%s.part", path)
		}
		r.channels("DRAW", pathOf(path), g.Channels)
		if g.Composite != nil {
			r.composite("DRAW", pathOf(path).field(".composite"), g.Composite)
		}
		for j, n := range g.Children {
			if r.err != nil {
				return
			}
			if n.Group != nil {
				walk(n.Group, indexed(path+".children", j), depth+1)
				continue
			}
			if r.bad(n.Mesh, r.nMesh) {
				r.outOfRange("DRAW", "mesh", n.Mesh, r.nMesh, "%s.children[%d].mesh", path, j)
			}
		}
	}
	walk(&r.m.Draw, "root", 0)
}

func (r *refChecker) physics() {
	for i, g := range r.m.Physics.Groups {
		for j, in := range g.Inputs {
			if r.bad(in.Parameter, r.nPar) {
				r.outOfRange("PHYS", "parameter", in.Parameter, r.nPar, "groups[%d].inputs[%d].parameter", i, j)
			}
			if in.Source > PhysicsY {
				r.fail("PHYS", fmt.Sprintf("groups[%d].inputs[%d].source", i, j), "unknown source %d", in.Source)
			}
		}
		for j, o := range g.Outputs {
			if r.bad(o.Parameter, r.nPar) {
				r.outOfRange("PHYS", "parameter", o.Parameter, r.nPar, "groups[%d].outputs[%d].parameter", i, j)
			}
			// Vertex 0 (the root) is accepted and writes nothing, as in
			// the reference (rig.rs rejects only vertex > segment count).
			if r.err == nil && (o.Vertex < 0 || o.Vertex > len(g.Segments)) {
				r.fail("PHYS", fmt.Sprintf("groups[%d].outputs[%d].vertex", i, j), "vertex %d out of range (the strand has %d segments)", o.Vertex, len(g.Segments))
			}
			if o.Source > PhysicsY {
				r.fail("PHYS", fmt.Sprintf("groups[%d].outputs[%d].source", i, j), "unknown source %d", o.Source)
			}
		}
	}
}

func (r *refChecker) clips() {
	for i := range r.m.Clips {
		cl := &r.m.Clips[i]
		for j, cv := range cl.Curves {
			if r.bad(cv.Parameter, r.nPar) {
				r.outOfRange("CLIP", "parameter", cv.Parameter, r.nPar, "clips[%d].curves[%d].parameter", i, j)
			}
		}
		for j, t := range cl.TargetCurves {
			if t.Target == TargetPartOpacity {
				if r.bad(t.Part, r.nPart) {
					r.outOfRange("CEXT", "part", t.Part, r.nPart, "clip %d targetCurves[%d].part", i, j)
				}
			}
		}
		seen := make(map[int]bool, len(cl.CurveFades))
		for j, f := range cl.CurveFades {
			if r.bad(f.Curve, len(cl.Curves)) {
				r.outOfRange("CEXT", "curve", f.Curve, len(cl.Curves), "clip %d curveFades[%d].curve", i, j)
			}
			if r.err == nil && seen[f.Curve] {
				r.fail("CEXT", fmt.Sprintf("clip %d curveFades[%d].curve", i, j), "curve %d has two fade entries", f.Curve)
			}
			seen[f.Curve] = true
		}
	}
}

func (r *refChecker) side() {
	m := r.m
	for i, ro := range m.Roles {
		for j, p := range ro.Parameters {
			if r.bad(p, r.nPar) {
				r.outOfRange("ROLE", "parameter", p, r.nPar, "roles[%d].parameters[%d]", i, j)
			}
		}
	}
	if g := m.GUI; g != nil {
		for i, s := range g.Snaps {
			if r.bad(s.Parameter, r.nPar) {
				r.outOfRange("PGUI", "parameter", s.Parameter, r.nPar, "snaps[%d].parameter", i)
			}
		}
		for i, j := range g.Joysticks {
			if r.bad(j.Horizontal, r.nPar) {
				r.outOfRange("PGUI", "parameter", j.Horizontal, r.nPar, "joysticks[%d].horizontal", i)
			}
			if r.bad(j.Vertical, r.nPar) {
				r.outOfRange("PGUI", "parameter", j.Vertical, r.nPar, "joysticks[%d].vertical", i)
			}
		}
		var walk func(ns []GUINode, depth int)
		walk = func(ns []GUINode, depth int) {
			if depth > maxDepth {
				r.fail("PGUI", "tree", "PGUI tree deeper than %d levels", maxDepth)
				return
			}
			for _, n := range ns {
				if n.Kind == GUIParameter {
					if r.bad(n.Parameter, r.nPar) {
						r.outOfRange("PGUI", "parameter", n.Parameter, r.nPar, "tree node parameter")
					}
				}
				walk(n.Children, depth+1)
			}
		}
		walk(g.Tree, 0)
	}
	for i, e := range m.Expressions {
		for j, x := range e.Entries {
			if r.bad(x.Parameter, r.nPar) {
				r.outOfRange("EXPR", "parameter", x.Parameter, r.nPar, "expressions[%d].entries[%d].parameter", i, j)
			}
		}
	}
	for i, h := range m.HitAreas {
		for j, k := range h.Meshes {
			if r.bad(k, r.nMesh) {
				r.outOfRange("HITA", "mesh", k, r.nMesh, "hitAreas[%d].meshes[%d]", i, j)
			}
		}
	}
	for i, u := range m.UserData {
		if u.Kind != 0 {
			r.fail("UDAT", fmt.Sprintf("userData[%d].kind", i), "unknown kind %d", u.Kind)
		}
		if r.bad(u.Target, r.nMesh) {
			r.outOfRange("UDAT", "mesh", u.Target, r.nMesh, "userData[%d].target", i)
		}
	}
	if p := m.Pose; p != nil {
		for i, g := range p.Groups {
			for j, e := range g.Entries {
				if r.bad(e.Part, r.nPart) {
					r.outOfRange("POSE", "part", e.Part, r.nPart, "groups[%d].entries[%d].part", i, j)
				}
				for k, l := range e.Linked {
					if r.bad(l, r.nPart) {
						r.outOfRange("POSE", "part", l, r.nPart, "groups[%d].entries[%d].linked[%d]", i, j, k)
					}
				}
			}
		}
	}
}

func (r *refChecker) header(tag string, h *ExtensionHeader) {
	for i, p := range h.Parameters {
		if r.bad(p, r.nPar) {
			r.outOfRange(tag, "parameter", p, r.nPar, "header.parameters[%d]", i)
		}
	}
	for i, g := range h.PhysicsGroups {
		if r.bad(g, r.nGroups) {
			r.outOfRange(tag, "physics group", g, r.nGroups, "header.physicsGroups[%d]", i)
		}
	}
	for i, d := range h.Deformers {
		if r.bad(d, r.nAllDef) {
			r.outOfRange(tag, "deformer", d, r.nAllDef, "header.deformers[%d]", i)
		}
	}
	for i, rc := range h.Replaced {
		if r.bad(rc.Mesh, r.nMesh) {
			r.outOfRange(tag, "mesh", rc.Mesh, r.nMesh, "header.replaced[%d].mesh", i)
		}
		for j, p := range rc.AxisParameters {
			if r.bad(p, r.nPar) {
				r.outOfRange(tag, "parameter", p, r.nPar, "header.replaced[%d].axisParameters[%d]", i, j)
			}
		}
		if r.err != nil {
			return
		}
		for j, b := range rc.Bindings {
			if r.bad(int(b), len(r.m.Meshes[rc.Mesh].Shapes)) {
				r.outOfRange(tag, "binding", int(b), len(r.m.Meshes[rc.Mesh].Shapes), "header.replaced[%d].bindings[%d]", i, j)
			}
		}
	}
}

// rotation reports whether deformer index d (DEFM or virtual) is a
// rotation deformer.
func (r *refChecker) rotation(d int) bool {
	if d < r.nDef {
		return r.m.Deformers[d].Kind == RotationDeformer
	}
	return true // virtual bones are rotation deformers
}

func (r *refChecker) extensions() {
	m := r.m
	if b := m.Bones; b != nil {
		r.header("BONE", &b.Header)
		r.deformers("BONE", b.Virtual, r.nDef)
		for i, a := range b.Attachable {
			if r.bad(a.Deformer, r.nAllDef) {
				r.outOfRange("BONE", "deformer", a.Deformer, r.nAllDef, "attachable[%d].deformer", i)
			}
		}
		for i, a := range b.Arcs {
			if r.bad(a.Deformer, r.nAllDef) {
				r.outOfRange("BONE", "deformer", a.Deformer, r.nAllDef, "arcs[%d].deformer", i)
			}
			if r.bad(a.Parameter, r.nPar) {
				r.outOfRange("BONE", "parameter", a.Parameter, r.nPar, "arcs[%d].parameter", i)
			}
		}
	}
	if s := m.Skins; s != nil {
		r.header("SKIN", &s.Header)
		for i, sk := range s.Meshes {
			if r.bad(sk.Mesh, r.nMesh) {
				r.outOfRange("SKIN", "mesh", sk.Mesh, r.nMesh, "meshes[%d].mesh", i)
			}
			r.axes("SKIN", recPath{list: "meshes", at: i}, sk.Axes)
			for j, d := range sk.Bones {
				if r.bad(d, r.nAllDef) {
					r.outOfRange("SKIN", "deformer", d, r.nAllDef, "meshes[%d].bones[%d]", i, j)
				}
				if r.err == nil && !r.rotation(d) {
					r.fail("SKIN", fmt.Sprintf("meshes[%d].bones[%d]", i, j), "bone %d is not a rotation deformer", d)
				}
			}
			r.skinLists(i, &sk)
			if r.err == nil && len(sk.Weight) != 0 && len(sk.Weight) != vertexCount(&m.Meshes[sk.Mesh]) {
				r.fail("SKIN", fmt.Sprintf("meshes[%d].weight", i), "%d weights for %d vertices", len(sk.Weight), vertexCount(&m.Meshes[sk.Mesh]))
			}
		}
	}
	nColl := 0
	if k := m.Collision; k != nil {
		nColl = len(k.Colliders)
		r.header("COLL", &k.Header)
		for i, o := range k.Colliders {
			if r.badOpt(o.Deformer, r.nAllDef) {
				r.outOfRange("COLL", "deformer", o.Deformer, r.nAllDef, "colliders[%d].deformer", i)
			}
			if r.badOpt(o.Mesh, r.nMesh) {
				r.outOfRange("COLL", "mesh", o.Mesh, r.nMesh, "colliders[%d].mesh", i)
			}
			if o.Mesh >= 0 {
				if r.badVertex(o.VertexA, o.Mesh) {
					r.vertexError(o.VertexA, o.Mesh, "COLL", "colliders[%d].vertexA", i)
				}
				if r.badVertex(o.VertexB, o.Mesh) {
					r.vertexError(o.VertexB, o.Mesh, "COLL", "colliders[%d].vertexB", i)
				}
			}
		}
	}
	if s := m.Simulations; s != nil {
		r.header("SIMS", &s.Header)
		for i := range s.Sims {
			x := &s.Sims[i]
			path := indexed("sims", i)
			for j, t := range x.Targets {
				if r.bad(t.Mesh, r.nMesh) {
					r.outOfRange("SIMS", "mesh", t.Mesh, r.nMesh, "%s.targets[%d].mesh", path, j)
				}
				if r.err == nil && int(t.VertexCount) != vertexCount(&m.Meshes[t.Mesh]) {
					r.fail("SIMS", fmt.Sprintf("%s.targets[%d].vertexCount", path, j), "%d ≠ mesh %d's vertex count %d", t.VertexCount, t.Mesh, vertexCount(&m.Meshes[t.Mesh]))
				}
			}
			for j, am := range x.AnchorMesh {
				if am == 0xFFFFFFFF || r.err != nil {
					continue
				}
				if r.bad(int(am), r.nMesh) {
					r.outOfRange("SIMS", "mesh", int(am), r.nMesh, "%s.anchorMesh[%d]", path, j)
				}
				if r.badVertex(x.AnchorVertex[j], int(am)) {
					r.vertexError(x.AnchorVertex[j], int(am), "SIMS", "%s.anchorVertex[%d]", path, j)
				}
			}
			for j, p := range x.Parameters {
				if r.bad(p, r.nPar) {
					r.outOfRange("SIMS", "parameter", p, r.nPar, "%s.parameters[%d]", path, j)
				}
			}
			for j, g := range x.PhysicsGroups {
				if r.bad(g, r.nGroups) {
					r.outOfRange("SIMS", "physics group", g, r.nGroups, "%s.physicsGroups[%d]", path, j)
				}
			}
			for j, k := range x.Corrections {
				if r.bad(k.Parameter, r.nPar) {
					r.outOfRange("SIMS", "parameter", k.Parameter, r.nPar, "%s.corrections[%d].parameter", path, j)
				}
				for q, cm := range k.Meshes {
					if r.bad(cm.Mesh, r.nMesh) {
						r.outOfRange("SIMS", "mesh", cm.Mesh, r.nMesh, "%s.corrections[%d].meshes[%d].mesh", path, j, q)
					}
					if r.err != nil {
						return
					}
					vc2 := 2 * vertexCount(&m.Meshes[cm.Mesh])
					for _, off := range cm.Offsets {
						if len(off) != vc2 {
							r.fail("SIMS", fmt.Sprintf("%s.corrections[%d].meshes[%d].offsets", path, j, q), "%d values, want %d", len(off), vc2)
							return
						}
					}
				}
			}
			for j, k := range x.Colliders {
				if r.bad(k, nColl) {
					r.outOfRange("SIMS", "collider", k, nColl, "%s.colliders[%d]", path, j)
				}
			}
		}
	}
}

// MaxSkinBones and MaxSkinAxes bound one SKIN entry's lists (docs/
// LIMITS.md). The editor writes at most 16 bones and 8 axes per skinned
// mesh, so real files stay far inside them.
const (
	MaxSkinBones = 64
	MaxSkinAxes  = 16
)

// skinLists is the load-time check of SKIN entry i's lists: at most
// MaxSkinBones bones and MaxSkinAxes axes, no bone and no axis parameter
// twice (a repeated bone only multiplies the fit's work; the editor never
// writes one).
func (r *refChecker) skinLists(i int, sk *Skin) {
	if r.err != nil {
		return
	}
	if len(sk.Bones) > MaxSkinBones {
		r.fail("SKIN", fmt.Sprintf("meshes[%d].bones", i), "%d bones, at most %d", len(sk.Bones), MaxSkinBones)
		return
	}
	if len(sk.Axes) > MaxSkinAxes {
		r.fail("SKIN", fmt.Sprintf("meshes[%d].axes", i), "%d axes, at most %d", len(sk.Axes), MaxSkinAxes)
		return
	}
	for j, b := range sk.Bones {
		if k := slices.Index(sk.Bones[:j], b); k >= 0 {
			r.fail("SKIN", fmt.Sprintf("meshes[%d].bones[%d]", i, j), "deformer %d is listed twice (also bones[%d])", b, k)
			return
		}
	}
	for j, ax := range sk.Axes {
		for k := range j {
			if sk.Axes[k].Parameter == ax.Parameter {
				r.fail("SKIN", fmt.Sprintf("meshes[%d].axes[%d]", i, j), "parameter %d is listed twice (also axes[%d])", ax.Parameter, k)
				return
			}
		}
	}
}

// MaxPhysicsFps is the largest physics step rate (PHYS fps, physics3
// Meta.Fps) a file may ask for. Cubism Editor exports 30 or 60; 1000 leaves
// room while keeping an update's work bounded (p2l.MaxPhysicsSteps).
const MaxPhysicsFps = 1000
