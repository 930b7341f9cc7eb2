package p2lrt

// Non-required side chunks: PGUI, META, EXPR, HITA, UDAT, POSE, CEXT.

func codePGUI(c *coder, m *File) {
	if c.read {
		m.GUI = new(GUI)
	}
	g := m.GUI
	seq(c, &g.Snaps, 4, 4+minArray, "snaps", func(c *coder, s *Snap) {
		c.ref(&s.Parameter, "parameter")
		c.keys(&s.Keys, false, "keys")
	})
	seq(c, &g.Joysticks, 4, 8, "joysticks", func(c *coder, j *Joystick) {
		c.ref(&j.Horizontal, "horizontal")
		c.ref(&j.Vertical, "vertical")
	})
	// u32 n (all nodes), then the forest in preorder, each node followed by
	// its children.
	total := 0
	if !c.read {
		total = countGUINodes(g.Tree)
	}
	left := c.count(total, 4, guiNodeSize, "tree")
	if !c.ok() {
		return
	}
	c.push("tree")
	tree := c.guiNodes(g.Tree, &left, -1, 0)
	if c.read {
		g.Tree = tree
	}
	c.pop()
}

const guiNodeSize = 4 + 4 + 12 + 4 + 4

func countGUINodes(ns []GUINode) int {
	n := len(ns)
	for _, x := range ns {
		n += countGUINodes(x.Children)
	}
	return n
}

// guiNodes codes a list of sibling nodes. Reading, n < 0 means "roots:
// until the node budget is spent"; otherwise exactly n children.
func (c *coder) guiNodes(ns []GUINode, left *int, n, depth int) []GUINode {
	if depth > maxDepth {
		c.fail("", "PGUI tree deeper than %d levels", maxDepth)
		return nil
	}
	if c.read {
		ns = nil
		if n > 0 {
			ns = make([]GUINode, 0, n)
		}
		for c.ok() && (n < 0 && *left > 0 || len(ns) < n) {
			if *left == 0 {
				c.fail("children", "more children announced than nodes in the tree")
				return nil
			}
			*left--
			ns = append(ns, GUINode{})
			c.at(len(ns) - 1)
			c.guiNode(&ns[len(ns)-1], left, depth)
		}
		if len(ns) == 0 {
			return nil
		}
		return ns
	}
	for i := range ns {
		c.at(i)
		c.guiNode(&ns[i], left, depth)
	}
	return ns
}

func (c *coder) guiNode(x *GUINode, left *int, depth int) {
	c.max8((*uint8)(&x.Kind), uint8(GUIGroup), "kind")
	c.bool8(&x.Open, "open")
	c.max8((*uint8)(&x.Label), uint8(GUILabelCustom), "label")
	var r uint8
	c.max8(&r, 0, "reserved")
	pos := c.pos
	c.nref(&x.Parameter, "parameter")
	c.sref(&x.ID, "id")
	c.name(&x.Name, "name")
	c.sref(&x.Preset, "preset")
	c.u32(&x.ARGB, "argb")
	nc := uint32(len(x.Children))
	c.u32(&nc, "children")
	if !c.ok() {
		return
	}
	switch {
	case x.Kind == GUIParameter && (x.Parameter < 0 || x.ID != "" || x.Name != "" || x.Preset != "" || nc != 0):
		c.failAt(pos, "parameter", "a parameter node needs a parameter and no id, name, preset or children")
	case x.Kind == GUIGroup && x.Parameter != -1:
		c.failAt(pos, "parameter", "a group node has parameter -1")
	case x.Label != GUILabelPreset && x.Preset != "":
		c.failAt(pos, "preset", "preset set without the preset label")
	case x.Label != GUILabelCustom && x.ARGB != 0:
		c.failAt(pos, "argb", "color set without the custom label")
	}
	if !c.ok() {
		return
	}
	if c.read && uint64(nc) > uint64(*left) {
		c.failAt(pos, "children", "%d children but only %d nodes remain", nc, *left)
		return
	}
	c.push("children")
	ch := c.guiNodes(x.Children, left, int(nc), depth+1)
	if c.read {
		x.Children = ch
	}
	c.pop()
}

func codeMETA(c *coder, m *File) {
	seq(c, &m.Meta, 4, 8, "entries", func(c *coder, e *MetaEntry) {
		c.sref(&e.Key, "key")
		c.sref(&e.Value, "value")
	})
}

func codeEXPR(c *coder, m *File) {
	seq(c, &m.Expressions, 4, 20, "expressions", func(c *coder, e *Expression) {
		c.sref(&e.ID, "id")
		c.name(&e.Name, "name")
		c.f32(&e.FadeIn, "fadeIn")
		c.f32(&e.FadeOut, "fadeOut")
		seq(c, &e.Entries, 4, 9, "entries", func(c *coder, x *ExpressionEntry) {
			c.ref(&x.Parameter, "parameter")
			c.max8((*uint8)(&x.Blend), uint8(ExpressionOverwrite), "blend")
			c.f32(&x.Value, "value")
		})
	})
}

func codeHITA(c *coder, m *File) {
	seq(c, &m.HitAreas, 4, 12, "hitAreas", func(c *coder, h *HitArea) {
		c.sref(&h.ID, "id")
		c.name(&h.Name, "name")
		c.refs(&h.Meshes, "meshes")
	})
}

func codeUDAT(c *coder, m *File) {
	seq(c, &m.UserData, 4, 9, "userData", func(c *coder, u *UserData) {
		c.max8(&u.Kind, 0, "kind")
		c.ref(&u.Target, "target")
		c.sref(&u.Value, "value")
	})
}

func codePOSE(c *coder, m *File) {
	if c.read {
		m.Pose = new(Pose)
	}
	p := m.Pose
	c.f32(&p.FadeIn, "fadeIn")
	seq(c, &p.Groups, 4, 4, "groups", func(c *coder, g *PoseGroup) {
		seq(c, &g.Entries, 4, 8, "entries", func(c *coder, e *PoseEntry) {
			c.ref(&e.Part, "part")
			c.refs(&e.Linked, "linked")
		})
	})
}

// cextRecord is one CEXT record before it is merged into its clip.
type cextRecord struct {
	Clip         int
	Events       []Event
	TargetCurves []TargetCurve
	CurveFades   []CurveFade
}

func codeCEXT(c *coder, m *File) {
	recs := c.cext
	seq(c, recs, 4, 16, "records", func(c *coder, r *cextRecord) {
		c.ref(&r.Clip, "clip")
		pos := c.pos
		seq(c, &r.Events, 4, 8, "events", func(c *coder, e *Event) {
			c.f32(&e.Time, "time")
			c.sref(&e.Value, "value")
		})
		for i := 1; c.ok() && i < len(r.Events); i++ {
			if r.Events[i].Time < r.Events[i-1].Time {
				c.failAt(pos, "events", "event times must not decrease (event %d)", i)
			}
		}
		seq(c, &r.TargetCurves, 4, 1+4+8+12, "targetCurves", func(c *coder, t *TargetCurve) {
			pos := c.pos
			c.u8((*uint8)(&t.Target), "target")
			c.nref(&t.Part, "part")
			if c.ok() {
				switch {
				case t.Target < TargetPartOpacity || t.Target > TargetLipSync:
					c.failAt(pos, "target", "unknown curve target %d", t.Target)
				case t.Target == TargetPartOpacity && t.Part < 0:
					c.failAt(pos, "part", "a part-opacity curve needs a part")
				case t.Target != TargetPartOpacity && t.Part != -1:
					c.failAt(pos, "part", "only part-opacity curves name a part")
				}
			}
			c.f32(&t.FadeIn, "fadeIn")
			c.f32(&t.FadeOut, "fadeOut")
			c.curve(&t.Curve)
		})
		seq(c, &r.CurveFades, 4, 12, "curveFades", func(c *coder, f *CurveFade) {
			c.ref(&f.Curve, "curve")
			c.f32(&f.FadeIn, "fadeIn")
			c.f32(&f.FadeOut, "fadeOut")
		})
	})
}

// cextRecords collects the CEXT records of m, one per clip that has any
// extension data, in clip order.
func cextRecords(m *File) []cextRecord {
	var rs []cextRecord
	for i := range m.Clips {
		cl := &m.Clips[i]
		if len(cl.Events)+len(cl.TargetCurves)+len(cl.CurveFades) > 0 {
			rs = append(rs, cextRecord{i, cl.Events, cl.TargetCurves, cl.CurveFades})
		}
	}
	return rs
}
