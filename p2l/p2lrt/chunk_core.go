package p2lrt

import (
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l/internal/largest"
)

// Core chunk layouts (P2LRT_V2.md, "核心块"; decisions in docs/FORMAT.md).

func codeCANV(c *coder, m *File) {
	cv := &m.Canvas
	c.f32(&cv.Width, "width")
	c.f32(&cv.Height, "height")
	c.f32(&cv.OriginX, "originX")
	c.f32(&cv.OriginY, "originY")
	c.f32(&cv.PixelsPerUnit, "pixelsPerUnit")
}

func codePARM(c *coder, m *File) {
	seq(c, &m.Parameters, 4, 21, "parameters", func(c *coder, p *Parameter) {
		c.sref(&p.ID, "id")
		c.name(&p.Name, "name")
		c.f32(&p.Min, "min")
		c.f32(&p.Max, "max")
		c.f32(&p.Default, "default")
		var fl uint8
		if p.Blend {
			fl |= 1
		}
		if p.Repeat {
			fl |= 2
		}
		c.flags8(&fl, 3, "flags")
		if c.read {
			p.Blend, p.Repeat = fl&1 != 0, fl&2 != 0
		}
		// No order is required of min, max and default (rig.rs reads them
		// as they are): evaluation clamps or wraps (clampParam).
	})
}

const minDeformer = 1 + 4 + 4 + 4 + 1 + 4 + 24

func codeDEFM(c *coder, m *File) {
	seq(c, &m.Deformers, 4, minDeformer, "deformers", func(c *coder, d *Deformer) { c.deformer(d) })
}

// deformer codes one DEFM record (also used by BONE's virtual bones).
func (c *coder) deformer(d *Deformer) {
	c.max8((*uint8)(&d.Kind), uint8(RotationDeformer), "kind")
	c.sref(&d.ID, "id")
	c.nref(&d.Parent, "parent")
	c.nref(&d.Part, "part")
	c.flags8((*uint8)(&d.Flags), 31, "flags")
	c.f32(&d.Opacity, "opacity")
	c.rgb(&d.Multiply, "multiply")
	c.rgb(&d.Screen, "screen")
	if !c.ok() {
		return
	}
	switch d.Kind {
	case WarpDeformer:
		if c.read {
			d.Warp = new(Warp)
		} else if d.Warp == nil || d.Rotation != nil {
			c.fail("warp", "a warp deformer needs Warp set and Rotation nil")
			return
		}
		w := d.Warp
		cols, rows := uint32(w.Columns), uint32(w.Rows)
		if !c.read && (w.Columns < 1 || w.Rows < 1 || w.Columns > maxWarpCells || w.Rows > maxWarpCells) {
			c.fail("columns", "columns and rows must be in 1..%d, got %d×%d", maxWarpCells, w.Columns, w.Rows)
			return
		}
		pos := c.pos
		c.u32(&cols, "columns")
		c.u32(&rows, "rows")
		if !c.ok() {
			return
		}
		if cols < 1 || rows < 1 || cols > maxWarpCells || rows > maxWarpCells {
			c.failAt(pos, "columns", "columns and rows must be in 1..%d, got %d×%d", maxWarpCells, cols, rows)
			return
		}
		if c.read {
			w.Columns, w.Rows = int(cols), int(rows)
		}
		np := (w.Columns + 1) * (w.Rows + 1) * 2
		// No grid (0xFFFF) is a warp whose points all sit at the origin
		// (eval.rs lattice_points).
		grid(c, &w.Keyforms, minArray, "keyforms", func(c *coder, v *[]float32) {
			c.sizedFloats(v, hintPosition, np, false, "points")
		})
		if zeroCells(c, w.Keyforms) {
			// Every cell missing: every point at the origin, which is the
			// warp without keyforms (eval.rs lattice_points), and which
			// allocates no lattice the file's bytes do not back.
			w.Keyforms = nil
		}
		c.channels(&d.Channels, false, "channels")
		bindings(c, &w.Shapes, "shapes", func(c *coder, s *WarpShape) {
			c.sizedFloats(&s.Points, hintPosition, np, false, "points")
			c.f32(&s.Opacity, "opacity")
			c.rgb(&s.Multiply, "multiply")
			c.rgb(&s.Screen, "screen")
		})
	case RotationDeformer:
		if c.read {
			d.Rotation = new(Rotation)
		} else if d.Rotation == nil || d.Warp != nil {
			c.fail("rotation", "a rotation deformer needs Rotation set and Warp nil")
			return
		}
		r := d.Rotation
		c.f32(&r.BaseAngle, "baseAngle")
		// No grid is the identity at the origin (eval.rs pivot_at).
		grid(c, &r.Keyforms, 16, "keyforms", func(c *coder, k *RotationKey) {
			c.f32(&k.X, "x")
			c.f32(&k.Y, "y")
			c.f32(&k.Angle, "angle")
			c.f32(&k.Scale, "scale")
		})
		if zeroCells(c, r.Keyforms) {
			// Every cell missing: the all-zero keyform (blendRotation), not
			// the identity of no grid.
			r.Keyforms = zeroCellGrid[RotationKey]()
		}
		c.channels(&d.Channels, false, "channels")
		bindings(c, &r.Shapes, "shapes", func(c *coder, s *RotationShape) {
			c.f32(&s.X, "x")
			c.f32(&s.Y, "y")
			c.f32(&s.Angle, "angle")
			c.f32(&s.Scale, "scale")
			c.u8(&s.FlipX, "flipX")
			c.u8(&s.FlipY, "flipY")
			c.f32(&s.Opacity, "opacity")
			c.rgb(&s.Multiply, "multiply")
			c.rgb(&s.Screen, "screen")
		})
	}
}

// maxWarpCells bounds a warp's columns and rows, as rig.rs deformer.
const maxWarpCells = 4096

func codePART(c *coder, m *File) {
	seq(c, &m.Parts, 4, 4+4+1+1+4+4+minChannels+minComposite+minBindings, "parts", func(c *coder, p *Part) {
		c.sref(&p.ID, "id")
		c.name(&p.Name, "name")
		c.flags8((*uint8)(&p.Flags), 3, "flags")
		c.max8((*uint8)(&p.GroupMode), uint8(GroupIsolated), "groupMode")
		c.i32(&p.DrawOrder, "drawOrder")
		seq(c, &p.Children, 4, 5, "children", func(c *coder, ch *PartChild) {
			c.max8((*uint8)(&ch.Kind), uint8(ChildMesh), "kind")
			c.ref(&ch.Index, "target")
		})
		c.channels(&p.Channels, false, "channels")
		c.composite(&p.Composite, "composite")
		bindings(c, &p.Shapes, "shapes", func(c *coder, s *PartShape) {
			c.f32(&s.DrawOrder, "drawOrder")
			c.f32(&s.Opacity, "opacity")
			c.rgb(&s.Multiply, "multiply")
			c.rgb(&s.Screen, "screen")
		})
	})
}

func codeMESH(c *coder, m *File) {
	// The smallest record (60 bytes) has no geometry (flags bit 3 clear),
	// no keyform grid, channels or bindings: id, name, parent, blend,
	// alphaBlend, masks count, flags, texturePage, u16 0xFFFF, u8 0,
	// drawOrder, opacity, multiply, screen, u16 0.
	seq(c, &m.Meshes, 4, 4+4+4+1+1+4+1+4+minGrid+minChannels+4+4+12+12+minBindings, "meshes", func(c *coder, me *Mesh) {
		c.sref(&me.ID, "id")
		c.name(&me.Name, "name")
		c.nref(&me.Parent, "parent")
		c.max8((*uint8)(&me.Blend), NumBlendModes-1, "blend")
		c.max8((*uint8)(&me.AlphaBlend), NumAlphaModes-1, "alphaBlend")
		c.refs(&me.Masks, "masks")
		c.flags8((*uint8)(&me.Flags), 15, "flags")
		// Any i32: rig.rs does not check the page, and a mesh whose page
		// is not in TEXR draws nothing (render.rs).
		c.anyI32(&me.TexturePage, "texturePage")
		if !c.ok() {
			return
		}
		if me.Flags&MeshGeometry != 0 {
			c.floats(&me.Positions, hintPosition, "positions")
			pos := c.pos
			c.floats(&me.UVs, hintUV, "uvs")
			if c.ok() && len(me.UVs) != len(me.Positions) {
				c.failAt(pos, "uvs", "%d UV values for %d position values", len(me.UVs), len(me.Positions))
			}
			pos = c.pos
			c.uints(&me.Indices, false, "indices")
			if c.ok() {
				c.checkGeometry(me, pos)
			}
		} else if !c.read && (len(me.Positions) != 0 || len(me.UVs) != 0 || len(me.Indices) != 0) {
			c.fail("flags", "geometry set without the geometry flag")
		}
		vc2 := len(me.Positions)
		geom := me.Flags&MeshGeometry != 0
		grid(c, &me.Keyforms, minArray, "keyforms", func(c *coder, v *[]float32) {
			if !geom {
				c.floats(v, hintPosition, "deltas") // unchecked and unused without geometry (rig.rs validate)
				return
			}
			// Empty: the keyform moves no vertex (rig.rs validate, eval.rs mesh_local).
			c.sizedFloats(v, hintPosition, vc2, true, "deltas")
		})
		if zeroCells(c, me.Keyforms) {
			me.Keyforms = nil // every cell missing: no offset, as no keyforms
		}
		c.channels(&me.Channels, false, "channels")
		c.f32(&me.DrawOrder, "drawOrder")
		c.f32(&me.Opacity, "opacity")
		c.rgb(&me.Multiply, "multiply")
		c.rgb(&me.Screen, "screen")
		bindings(c, &me.Shapes, "shapes", func(c *coder, s *MeshShape) {
			// Empty deltas: the shape moves no vertex (rig.rs mesh, eval.rs mesh_local).
			c.sizedFloats(&s.Deltas, hintPosition, vc2, true, "deltas")
			c.f32(&s.DrawOrder, "drawOrder")
			c.f32(&s.Opacity, "opacity")
			c.rgb(&s.Multiply, "multiply")
			c.rgb(&s.Screen, "screen")
		})
	})
}

// checkGeometry checks positions pairs and triangle indices.
func (c *coder) checkGeometry(me *Mesh, pos int) {
	if len(me.Positions)%2 != 0 {
		c.failAt(pos, "positions", "odd number of values (%d)", len(me.Positions))
		return
	}
	if len(me.Indices)%3 != 0 {
		c.failAt(pos, "indices", "%d indices are not whole triangles", len(me.Indices))
		return
	}
	vc := uint32(len(me.Positions) / 2)
	if len(me.Indices) > 0 && largest.Of(me.Indices) >= vc {
		for i, ix := range me.Indices {
			if ix >= vc {
				c.failAt(pos, "indices", "index %d at %d is not below the vertex count %d", ix, i, vc)
				return
			}
		}
	}
}

func codeGLUE(c *coder, m *File) {
	seq(c, &m.Glues, 4, 4+4+4+4+4+minChannels, "glues", func(c *coder, g *Glue) {
		c.sref(&g.ID, "id")
		c.ref(&g.MeshA, "meshA")
		c.ref(&g.MeshB, "meshB")
		c.f32(&g.Intensity, "intensity")
		seq(c, &g.Pairs, 4, 16, "pairs", func(c *coder, p *GluePair) {
			c.u32(&p.A, "a")
			c.u32(&p.B, "b")
			c.f32(&p.WeightA, "weightA")
			c.f32(&p.WeightB, "weightB")
		})
		c.channels(&g.Channels, true, "channels")
	})
}

func codeDRAW(c *coder, m *File) { c.drawGroup(&m.Draw, 0) }

func (c *coder) drawGroup(g *DrawGroup, depth int) {
	if depth > maxDepth {
		c.fail("", "draw tree deeper than %d levels", maxDepth)
		return
	}
	c.nref(&g.Part, "part")
	c.i32(&g.DrawOrder, "drawOrder")
	c.channels(&g.Channels, false, "channels")
	has := g.Composite != nil
	c.bool8(&has, "hasComposite")
	if has {
		if c.read {
			g.Composite = new(Composite)
		}
		c.composite(g.Composite, "composite")
	}
	seq(c, &g.Children, 4, 5, "children", func(c *coder, n *DrawNode) {
		isMesh := n.Group == nil // kind 0 group, 1 mesh
		if !c.read && !isMesh && n.Mesh != 0 {
			c.fail("mesh", "a group node must have Mesh 0")
			return
		}
		c.bool8(&isMesh, "kind")
		if !isMesh {
			if c.read {
				n.Group = new(DrawGroup)
			}
			c.drawGroup(n.Group, depth+1)
		} else {
			c.ref(&n.Mesh, "mesh")
		}
	})
}

func codeTEXR(c *coder, m *File) {
	seq(c, &m.Textures, 4, 9+minArray-1, "textures", func(c *coder, t *TexturePage) {
		if c.v1 {
			if !c.read && t.Kind != TexturePNG {
				c.fail("kind", "v1 stores only PNG pages")
				return
			}
			if c.read {
				t.Kind = TexturePNG
			}
		} else {
			c.max8((*uint8)(&t.Kind), uint8(TextureExternal), "kind")
		}
		c.u32(&t.Width, "width")
		c.u32(&t.Height, "height")
		switch t.Kind {
		case TexturePNG, TextureKTX2:
			// An empty payload is read (rig.rs textures); it decodes to no
			// page, so its meshes draw nothing.
			c.bytes(&t.Data, "data")
			if !c.read && t.URI != "" {
				c.fail("uri", "an embedded page has no URI")
			}
		case TextureExternal:
			c.sref(&t.URI, "uri")
			if !c.read && len(t.Data) != 0 {
				c.fail("data", "an external page carries no data (its pixels come from the URI)")
			}
		}
	})
}

func codePHYS(c *coder, m *File) {
	ph := &m.Physics
	// Y (2) is read in any chunk version and in v1, as rig.rs source() does;
	// the writer uses chunk version 2 when Y appears and drops Y in v1, as
	// P2lrt.kt does.
	maxSrc := uint8(PhysicsY)
	c.f32(&ph.Fps, "fps")                 // ≤ 0: one step per frame (physics.rs)
	if c.ok() && ph.Fps > MaxPhysicsFps { // issue 14's bound on physics steps; rig.rs has none
		c.fail("fps", "fps %v is above the maximum %d", ph.Fps, MaxPhysicsFps)
	}
	seq(c, &ph.Groups, 4, 8+12+24, "groups", func(c *coder, g *PhysicsGroup) {
		c.sref(&g.ID, "id")
		c.name(&g.Name, "name")
		seq(c, &g.Inputs, 4, 10, "inputs", func(c *coder, in *PhysicsInput) {
			c.ref(&in.Parameter, "parameter")
			c.f32(&in.Weight, "weight")
			c.max8((*uint8)(&in.Source), maxSrc, "source")
			c.oldPhysicsHint(uint8(in.Source))
			c.bool8(&in.Reflect, "reflect")
		})
		seq(c, &g.Outputs, 4, 18, "outputs", func(c *coder, o *PhysicsOutput) {
			c.ref(&o.Parameter, "parameter")
			c.ref(&o.Vertex, "vertex")
			c.f32(&o.Scale, "scale")
			c.f32(&o.Weight, "weight")
			c.max8((*uint8)(&o.Source), maxSrc, "source")
			c.oldPhysicsHint(uint8(o.Source))
			c.bool8(&o.Reflect, "reflect")
		})
		seq(c, &g.Segments, 4, 16, "segments", func(c *coder, s *PhysicsSegment) {
			c.f32(&s.Length, "length")
			c.f32(&s.Mobility, "mobility")
			c.f32(&s.Delay, "delay")
			c.f32(&s.Acceleration, "acceleration")
		})
		n := &g.Normalization
		c.push("normalization")
		c.f32(&n.PositionMin, "positionMin")
		c.f32(&n.PositionDefault, "positionDefault")
		c.f32(&n.PositionMax, "positionMax")
		c.f32(&n.AngleMin, "angleMin")
		c.f32(&n.AngleDefault, "angleDefault")
		c.f32(&n.AngleMax, "angleMax")
		c.pop()
	})
}

// oldPhysicsHint explains a PHYS source byte that is out of range and
// looks like the high byte of an f32 (a weight or scale of 1..1000 has one
// in 0x3f..0x44): p2l-ebiten's pre-reference PHYS layout wrote the source
// before the weight, so its files fail here.
func (c *coder) oldPhysicsHint(src uint8) {
	if fe, ok := c.err.(*FormatError); ok && c.read && src >= 0x3f && src <= 0x44 && strings.HasSuffix(fe.Field, "source") {
		fe.Msg += " (the reference layout has {parameter, f32 weight, u8 source, u8 reflect} for an input and {parameter, vertex, " +
			"f32 scale, f32 weight, u8 source, u8 reflect} for an output; this byte looks like the top of an f32 weight: a PHYS " +
			"chunk of p2l-ebiten's pre-reference layout?)"
	}
}

// physicsVersion is the PHYS chunk version a model needs: 2 only when a Y
// source is used.
func physicsVersion(p *Physics) uint16 {
	for _, g := range p.Groups {
		for _, in := range g.Inputs {
			if in.Source == PhysicsY {
				return 2
			}
		}
		for _, o := range g.Outputs {
			if o.Source == PhysicsY {
				return 2
			}
		}
	}
	return 1
}

func codeCLIP(c *coder, m *File) {
	seq(c, &m.Clips, 4, 12+8+1+8+4, "clips", func(c *coder, cl *Clip) {
		c.sref(&cl.ID, "id")
		c.name(&cl.Name, "name")
		c.sref(&cl.Group, "group")
		c.f32(&cl.Duration, "duration")
		c.f32(&cl.Fps, "fps")
		c.bool8(&cl.Loop, "loop")
		c.f32(&cl.FadeIn, "fadeIn")
		c.f32(&cl.FadeOut, "fadeOut")
		seq(c, &cl.Curves, 4, 16, "curves", func(c *coder, pc *ParameterCurve) {
			c.ref(&pc.Parameter, "parameter")
			c.curve(&pc.Curve)
		})
	})
}

func codeROLE(c *coder, m *File) {
	seq(c, &m.Roles, 4, 8, "roles", func(c *coder, r *Role) {
		c.sref(&r.Name, "role")
		c.refs(&r.Parameters, "parameters")
	})
}
