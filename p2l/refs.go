package p2l

import "fmt"

// refChecker checks references between records (docs/FORMAT.md,
// "References"). Errors carry the chunk tag and a field path; the offset is
// −1 because the check runs on the decoded model.
type refChecker struct {
	m   *Model
	err error
	// Derived counts.
	nPar, nDef, nPart, nMesh, nTex, nGroups int
	nAllDef                                 int // DEFM + virtual bones
}

func (r *refChecker) fail(tag, field string, format string, args ...any) {
	if r.err == nil {
		r.err = &FormatError{Tag: tag, Offset: -1, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
}

// in checks 0 ≤ v < n.
func (r *refChecker) in(v, n int, tag, what string, path func() string) {
	if r.err == nil && (v < 0 || v >= n) {
		r.fail(tag, path(), "%s %d out of range (%d)", what, v, n)
	}
}

// opt checks v == −1 or 0 ≤ v < n.
func (r *refChecker) opt(v, n int, tag, what string, path func() string) {
	if v != -1 {
		r.in(v, n, tag, what, path)
	}
}

func pf(format string, args ...any) func() string {
	return func() string { return fmt.Sprintf(format, args...) }
}

func vertexCount(me *Mesh) int { return len(me.Positions) / 2 }

func checkRefs(m *Model) error {
	r := &refChecker{m: m, nPar: len(m.Parameters), nDef: len(m.Deformers), nPart: len(m.Parts),
		nMesh: len(m.Meshes), nTex: len(m.Textures), nGroups: len(m.Physics.Groups)}
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

func (r *refChecker) axes(tag, path string, axes []Axis) {
	for i, a := range axes {
		r.in(a.Parameter, r.nPar, tag, "parameter", pf("%s.axes[%d].parameter", path, i))
	}
}

func (r *refChecker) channels(tag, path string, chs []Channel) {
	for i, ch := range chs {
		if ch.Grid != nil {
			r.axes(tag, fmt.Sprintf("%s.channels[%d].grid", path, i), ch.Grid.Axes)
		}
	}
}

func bindingRefs[S any](r *refChecker, tag, path string, bs []Binding[S]) {
	for i, b := range bs {
		r.in(b.Parameter, r.nPar, tag, "parameter", pf("%s.shapes[%d].parameter", path, i))
		for j, l := range b.Limits {
			r.in(l.Parameter, r.nPar, tag, "parameter", pf("%s.shapes[%d].limits[%d].parameter", path, i, j))
		}
	}
}

// deformers checks DEFM records (first = index of ds[0]): parents before
// children, part and parameter references.
func (r *refChecker) deformers(tag string, ds []Deformer, first int) {
	for k := range ds {
		d := &ds[k]
		i := first + k
		path := fmt.Sprintf("deformers[%d]", i)
		if tag == "BONE" {
			path = fmt.Sprintf("virtual[%d]", k)
		}
		if d.Parent != -1 && (d.Parent < 0 || d.Parent >= i) {
			r.fail(tag, path+".parent", "parent %d must be an earlier deformer (index < %d)", d.Parent, i)
		}
		r.opt(d.Part, r.nPart, tag, "part", pf("%s.part", path))
		r.channels(tag, path, d.Channels)
		if d.Warp != nil {
			if d.Warp.Keyforms != nil {
				r.axes(tag, path+".keyforms", d.Warp.Keyforms.Axes)
			}
			bindingRefs(r, tag, path, d.Warp.Shapes)
		}
		if d.Rotation != nil {
			if d.Rotation.Keyforms != nil {
				r.axes(tag, path+".keyforms", d.Rotation.Keyforms.Axes)
			}
			bindingRefs(r, tag, path, d.Rotation.Shapes)
		}
	}
}

func (r *refChecker) composite(tag, path string, c *Composite) {
	for j, mm := range c.MaskMeshes {
		r.in(mm, r.nMesh, tag, "mask mesh", pf("%s.maskMeshes[%d]", path, j))
	}
	for j, mp := range c.MaskParts {
		r.in(mp, r.nPart, tag, "mask part", pf("%s.maskParts[%d]", path, j))
	}
}

// parts checks part children (a forest: every part and mesh has at most
// one parent part, and no part contains itself) and references.
func (r *refChecker) parts() {
	partParent := make([]int, r.nPart)
	meshParent := make([]int, r.nMesh)
	for i := range partParent {
		partParent[i] = -1
	}
	for i := range meshParent {
		meshParent[i] = -1
	}
	for i := range r.m.Parts {
		p := &r.m.Parts[i]
		path := fmt.Sprintf("parts[%d]", i)
		for j, ch := range p.Children {
			cp := pf("%s.children[%d]", path, j)
			if ch.Kind == ChildPart {
				r.in(ch.Index, r.nPart, "PART", "part", cp)
				if r.err == nil {
					if ch.Index == i || partParent[ch.Index] != -1 {
						r.fail("PART", cp(), "part %d is its own child or has two parents", ch.Index)
					}
					partParent[ch.Index] = i
				}
			} else {
				r.in(ch.Index, r.nMesh, "PART", "mesh", cp)
				if r.err == nil {
					if meshParent[ch.Index] != -1 {
						r.fail("PART", cp(), "mesh %d has two parent parts", ch.Index)
					}
					meshParent[ch.Index] = i
				}
			}
		}
		r.channels("PART", path, p.Channels)
		r.composite("PART", path+".composite", &p.Composite)
		bindingRefs(r, "PART", path, p.Shapes)
	}
	// Cycles: follow parents; a walk longer than the part count loops.
	for i := 0; r.err == nil && i < r.nPart; i++ {
		n := 0
		for p := partParent[i]; p != -1; p = partParent[p] {
			if n++; n > r.nPart {
				r.fail("PART", fmt.Sprintf("parts[%d]", i), "part hierarchy has a cycle")
				break
			}
		}
	}
}

func (r *refChecker) meshes() {
	for i := range r.m.Meshes {
		me := &r.m.Meshes[i]
		path := fmt.Sprintf("meshes[%d]", i)
		r.opt(me.Parent, r.nDef, "MESH", "parent deformer", pf("%s.parent", path))
		for j, k := range me.Masks {
			r.in(k, r.nMesh, "MESH", "mask mesh", pf("%s.masks[%d]", path, j))
			if k == i {
				r.fail("MESH", fmt.Sprintf("%s.masks[%d]", path, j), "a mesh cannot mask itself")
			}
		}
		r.opt(me.TexturePage, r.nTex, "MESH", "texture page", pf("%s.texturePage", path))
		if me.Keyforms != nil {
			r.axes("MESH", path+".keyforms", me.Keyforms.Axes)
		}
		r.channels("MESH", path, me.Channels)
		bindingRefs(r, "MESH", path, me.Shapes)
	}
}

func (r *refChecker) meshVertices(v uint32, mesh int, tag string, path func() string) {
	if r.err == nil && mesh >= 0 && mesh < r.nMesh && uint64(v) >= uint64(vertexCount(&r.m.Meshes[mesh])) {
		r.fail(tag, path(), "vertex %d not below mesh %d's vertex count %d", v, mesh, vertexCount(&r.m.Meshes[mesh]))
	}
}

func (r *refChecker) glues() {
	for i := range r.m.Glues {
		g := &r.m.Glues[i]
		path := fmt.Sprintf("glues[%d]", i)
		r.in(g.MeshA, r.nMesh, "GLUE", "mesh", pf("%s.meshA", path))
		r.in(g.MeshB, r.nMesh, "GLUE", "mesh", pf("%s.meshB", path))
		if r.err != nil {
			return
		}
		for j, p := range g.Pairs {
			r.meshVertices(p.A, g.MeshA, "GLUE", pf("%s.pairs[%d].a", path, j))
			r.meshVertices(p.B, g.MeshB, "GLUE", pf("%s.pairs[%d].b", path, j))
		}
		r.channels("GLUE", path, g.Channels)
	}
}

// draw checks the draw tree: part and mesh references, each mesh at most
// once in the tree.
func (r *refChecker) draw() {
	seen := make([]bool, r.nMesh)
	var walk func(g *DrawGroup, path string, depth int)
	walk = func(g *DrawGroup, path string, depth int) {
		if depth > maxDepth {
			r.fail("DRAW", path, "draw tree deeper than %d levels", maxDepth)
			return
		}
		r.opt(g.Part, r.nPart, "DRAW", "part", pf("%s.part", path))
		r.channels("DRAW", path, g.Channels)
		if g.Composite != nil {
			r.composite("DRAW", path+".composite", g.Composite)
		}
		for j, n := range g.Children {
			if r.err != nil {
				return
			}
			if n.Group != nil {
				walk(n.Group, fmt.Sprintf("%s.children[%d]", path, j), depth+1)
				continue
			}
			r.in(n.Mesh, r.nMesh, "DRAW", "mesh", pf("%s.children[%d].mesh", path, j))
			if r.err == nil {
				if seen[n.Mesh] {
					r.fail("DRAW", fmt.Sprintf("%s.children[%d].mesh", path, j), "mesh %d appears twice in the draw tree", n.Mesh)
				}
				seen[n.Mesh] = true
			}
		}
	}
	walk(&r.m.Draw, "root", 0)
}

func (r *refChecker) physics() {
	for i, g := range r.m.Physics.Groups {
		for j, in := range g.Inputs {
			r.in(in.Parameter, r.nPar, "PHYS", "parameter", pf("groups[%d].inputs[%d].parameter", i, j))
			if in.Source > PhysicsY {
				r.fail("PHYS", fmt.Sprintf("groups[%d].inputs[%d].source", i, j), "unknown source %d", in.Source)
			}
		}
		for j, o := range g.Outputs {
			r.in(o.Parameter, r.nPar, "PHYS", "parameter", pf("groups[%d].outputs[%d].parameter", i, j))
			r.in(o.Particle, len(g.Particles), "PHYS", "particle", pf("groups[%d].outputs[%d].particle", i, j))
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
			r.in(cv.Parameter, r.nPar, "CLIP", "parameter", pf("clips[%d].curves[%d].parameter", i, j))
		}
		for j, t := range cl.TargetCurves {
			if t.Target == TargetPartOpacity {
				r.in(t.Part, r.nPart, "CEXT", "part", pf("clip %d targetCurves[%d].part", i, j))
			}
		}
		seen := make(map[int]bool, len(cl.CurveFades))
		for j, f := range cl.CurveFades {
			r.in(f.Curve, len(cl.Curves), "CEXT", "curve", pf("clip %d curveFades[%d].curve", i, j))
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
			r.in(p, r.nPar, "ROLE", "parameter", pf("roles[%d].parameters[%d]", i, j))
		}
	}
	if g := m.GUI; g != nil {
		for i, s := range g.Snaps {
			r.in(s.Parameter, r.nPar, "PGUI", "parameter", pf("snaps[%d].parameter", i))
		}
		for i, j := range g.Joysticks {
			r.in(j.Horizontal, r.nPar, "PGUI", "parameter", pf("joysticks[%d].horizontal", i))
			r.in(j.Vertical, r.nPar, "PGUI", "parameter", pf("joysticks[%d].vertical", i))
		}
		var walk func(ns []GUINode, depth int)
		walk = func(ns []GUINode, depth int) {
			if depth > maxDepth {
				r.fail("PGUI", "tree", "PGUI tree deeper than %d levels", maxDepth)
				return
			}
			for _, n := range ns {
				if n.Kind == GUIParameter {
					r.in(n.Parameter, r.nPar, "PGUI", "parameter", pf("tree node parameter"))
				}
				walk(n.Children, depth+1)
			}
		}
		walk(g.Tree, 0)
	}
	for i, e := range m.Expressions {
		for j, x := range e.Entries {
			r.in(x.Parameter, r.nPar, "EXPR", "parameter", pf("expressions[%d].entries[%d].parameter", i, j))
		}
	}
	for i, h := range m.HitAreas {
		for j, k := range h.Meshes {
			r.in(k, r.nMesh, "HITA", "mesh", pf("hitAreas[%d].meshes[%d]", i, j))
		}
	}
	for i, u := range m.UserData {
		if u.Kind != 0 {
			r.fail("UDAT", fmt.Sprintf("userData[%d].kind", i), "unknown kind %d", u.Kind)
		}
		r.in(u.Target, r.nMesh, "UDAT", "mesh", pf("userData[%d].target", i))
	}
	if p := m.Pose; p != nil {
		for i, g := range p.Groups {
			for j, e := range g.Entries {
				r.in(e.Part, r.nPart, "POSE", "part", pf("groups[%d].entries[%d].part", i, j))
				for k, l := range e.Linked {
					r.in(l, r.nPart, "POSE", "part", pf("groups[%d].entries[%d].linked[%d]", i, j, k))
				}
			}
		}
	}
}

func (r *refChecker) header(tag string, h *ExtensionHeader) {
	for i, p := range h.Parameters {
		r.in(p, r.nPar, tag, "parameter", pf("header.parameters[%d]", i))
	}
	for i, g := range h.PhysicsGroups {
		r.in(g, r.nGroups, tag, "physics group", pf("header.physicsGroups[%d]", i))
	}
	for i, d := range h.Deformers {
		r.in(d, r.nAllDef, tag, "deformer", pf("header.deformers[%d]", i))
	}
	for i, rc := range h.Replaced {
		r.in(rc.Mesh, r.nMesh, tag, "mesh", pf("header.replaced[%d].mesh", i))
		for j, p := range rc.AxisParameters {
			r.in(p, r.nPar, tag, "parameter", pf("header.replaced[%d].axisParameters[%d]", i, j))
		}
		if r.err != nil {
			return
		}
		for j, b := range rc.Bindings {
			r.in(int(b), len(r.m.Meshes[rc.Mesh].Shapes), tag, "binding", pf("header.replaced[%d].bindings[%d]", i, j))
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
			r.in(a.Deformer, r.nAllDef, "BONE", "deformer", pf("attachable[%d].deformer", i))
		}
		for i, a := range b.Arcs {
			r.in(a.Deformer, r.nAllDef, "BONE", "deformer", pf("arcs[%d].deformer", i))
			r.in(a.Parameter, r.nPar, "BONE", "parameter", pf("arcs[%d].parameter", i))
		}
	}
	if s := m.Skins; s != nil {
		r.header("SKIN", &s.Header)
		for i, sk := range s.Meshes {
			r.in(sk.Mesh, r.nMesh, "SKIN", "mesh", pf("meshes[%d].mesh", i))
			r.axes("SKIN", fmt.Sprintf("meshes[%d]", i), sk.Axes)
			for j, d := range sk.Bones {
				r.in(d, r.nAllDef, "SKIN", "deformer", pf("meshes[%d].bones[%d]", i, j))
				if r.err == nil && !r.rotation(d) {
					r.fail("SKIN", fmt.Sprintf("meshes[%d].bones[%d]", i, j), "bone %d is not a rotation deformer", d)
				}
			}
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
			r.opt(o.Deformer, r.nAllDef, "COLL", "deformer", pf("colliders[%d].deformer", i))
			r.opt(o.Mesh, r.nMesh, "COLL", "mesh", pf("colliders[%d].mesh", i))
			if o.Mesh >= 0 {
				r.meshVertices(o.VertexA, o.Mesh, "COLL", pf("colliders[%d].vertexA", i))
				r.meshVertices(o.VertexB, o.Mesh, "COLL", pf("colliders[%d].vertexB", i))
			}
		}
	}
	if s := m.Simulations; s != nil {
		r.header("SIMS", &s.Header)
		for i := range s.Sims {
			x := &s.Sims[i]
			path := fmt.Sprintf("sims[%d]", i)
			for j, t := range x.Targets {
				r.in(t.Mesh, r.nMesh, "SIMS", "mesh", pf("%s.targets[%d].mesh", path, j))
				if r.err == nil && int(t.VertexCount) != vertexCount(&m.Meshes[t.Mesh]) {
					r.fail("SIMS", fmt.Sprintf("%s.targets[%d].vertexCount", path, j), "%d ≠ mesh %d's vertex count %d", t.VertexCount, t.Mesh, vertexCount(&m.Meshes[t.Mesh]))
				}
			}
			for j, am := range x.AnchorMesh {
				if am == 0xFFFFFFFF || r.err != nil {
					continue
				}
				r.in(int(am), r.nMesh, "SIMS", "mesh", pf("%s.anchorMesh[%d]", path, j))
				r.meshVertices(x.AnchorVertex[j], int(am), "SIMS", pf("%s.anchorVertex[%d]", path, j))
			}
			for j, p := range x.Parameters {
				r.in(p, r.nPar, "SIMS", "parameter", pf("%s.parameters[%d]", path, j))
			}
			for j, g := range x.PhysicsGroups {
				r.in(g, r.nGroups, "SIMS", "physics group", pf("%s.physicsGroups[%d]", path, j))
			}
			for j, k := range x.Corrections {
				r.in(k.Parameter, r.nPar, "SIMS", "parameter", pf("%s.corrections[%d].parameter", path, j))
				for q, cm := range k.Meshes {
					r.in(cm.Mesh, r.nMesh, "SIMS", "mesh", pf("%s.corrections[%d].meshes[%d].mesh", path, j, q))
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
				r.in(k, nColl, "SIMS", "collider", pf("%s.colliders[%d]", path, j))
			}
		}
	}
}
