package p2lrt

import "github.com/psd2live/p2l-ebiten/p2l/internal/container"

// Extension chunks BONE, SKIN, COLL, SIMS and their common header.

const allHooks = HookParameters | HookFrames | HookBones | HookMesh | HookSimulation

// extHeader codes the common extension header. feature is the bit the
// chunk must declare.
func (c *coder) extHeader(h *ExtensionHeader, feature uint16) {
	c.push("header")
	defer c.pop()
	pos := c.pos
	c.u16(&h.Feature, "feature_bit")
	if c.ok() && h.Feature != feature {
		c.failAt(pos, "feature_bit", "chunk %s has feature bit %d, got %d", c.tag, feature, h.Feature)
	}
	pos = c.pos
	c.u16(&h.Hooks, "hooks")
	if c.ok() && h.Hooks&^allHooks != 0 {
		c.failAt(pos, "hooks", "unknown hook bits 0x%x", h.Hooks)
	}
	c.refs(&h.Parameters, "parameters")
	c.refs(&h.PhysicsGroups, "physicsGroups")
	c.refs(&h.Deformers, "deformers")
	seq(c, &h.Replaced, 4, 12, "replaced", func(c *coder, r *ReplacedContribution) {
		c.ref(&r.Mesh, "mesh")
		c.refs(&r.AxisParameters, "axisParameters")
		seq(c, &r.Bindings, 4, 4, "bindings", func(c *coder, b *uint32) { c.u32(b, "") })
	})
	seq(c, &h.DependsOn, 4, 4, "dependsOn", func(c *coder, t *string) {
		if !c.read && len(*t) != 4 {
			c.fail("", "tag %q is not four bytes", *t)
			return
		}
		if c.read && c.need(4, "") {
			*t = string(c.b[c.pos : c.pos+4])
			c.pos += 4
		} else if !c.read {
			c.out = append(c.out, *t...)
		}
		if c.ok() && !container.ValidTag(*t) {
			c.fail("", "malformed tag %q", *t)
		}
	})
}

func codeBONE(c *coder, m *File) {
	if c.read {
		m.Bones = new(Bones)
	}
	b := m.Bones
	c.extHeader(&b.Header, FeatureExactLinks)
	seq(c, &b.Virtual, 4, minDeformer, "virtual", func(c *coder, d *Deformer) {
		pos := c.pos
		c.deformer(d)
		if c.ok() && d.Kind != RotationDeformer {
			c.failAt(pos, "kind", "a virtual bone must be a rotation deformer")
		}
	})
	seq(c, &b.Attachable, 4, 8, "attachable", func(c *coder, a *AttachableBone) {
		c.ref(&a.Deformer, "deformer")
		c.sref(&a.ID, "id")
	})
	seq(c, &b.Arcs, 4, 16, "arcs", func(c *coder, a *Arc) {
		c.ref(&a.Deformer, "deformer")
		c.ref(&a.Parameter, "parameter")
		c.f32(&a.CX, "cx")
		c.f32(&a.CY, "cy")
	})
}

func codeSKIN(c *coder, m *File) {
	if c.read {
		m.Skins = new(Skins)
	}
	s := m.Skins
	c.extHeader(&s.Header, FeatureSkin)
	seq(c, &s.Meshes, 4, 4+4+4+3*minArray, "meshes", func(c *coder, sk *Skin) {
		c.ref(&sk.Mesh, "mesh")
		seq(c, &sk.Axes, 4, 4+minArray, "axes", func(c *coder, a *Axis) {
			c.ref(&a.Parameter, "parameter")
			c.keys(&a.Keys, true, "keys")
		})
		c.refs(&sk.Bones, "bones")
		c.uints(&sk.From, false, "from")
		c.uints(&sk.To, false, "to")
		pos := c.pos
		c.floats(&sk.Weight, hintPlain, "weight")
		if c.ok() && (len(sk.From) != len(sk.Weight) || len(sk.To) != len(sk.Weight)) {
			c.failAt(pos, "weight", "from, to and weight differ in length (%d, %d, %d)", len(sk.From), len(sk.To), len(sk.Weight))
		}
		for i := 0; c.ok() && i < len(sk.From); i++ {
			if int(sk.From[i]) >= len(sk.Bones) || int(sk.To[i]) >= len(sk.Bones) {
				c.failAt(pos, "from", "vertex %d names bone %d/%d of %d", i, sk.From[i], sk.To[i], len(sk.Bones))
			}
		}
	})
}

func codeCOLL(c *coder, m *File) {
	if c.read {
		m.Collision = new(Collision)
	}
	k := m.Collision
	c.extHeader(&k.Header, FeatureCollision)
	seq(c, &k.Colliders, 4, 4+1+16+28, "colliders", func(c *coder, o *Collider) {
		c.sref(&o.ID, "id")
		c.bool8(&o.Capsule, "capsule")
		c.nref(&o.Deformer, "deformer")
		c.nref(&o.Mesh, "mesh")
		c.u32(&o.VertexA, "vertexA")
		c.u32(&o.VertexB, "vertexB")
		c.f32(&o.AX, "ax")
		c.f32(&o.AY, "ay")
		c.f32(&o.BX, "bx")
		c.f32(&o.BY, "by")
		c.f32(&o.RadiusA, "radiusA")
		c.f32(&o.RadiusB, "radiusB")
		c.f32(&o.Friction, "friction")
		// rig.rs colliders: radii > 0 and friction in 0..1. A collider
		// naming both a mesh and a deformer follows the mesh
		// (advanced.rs place_colliders, sim.go).
		if c.ok() && !(o.RadiusA > 0 && o.RadiusB > 0 && o.Friction >= 0 && o.Friction <= 1) {
			c.fail("radiusA", "a collider needs radii > 0 and friction in 0..1 (got %v, %v, %v)", o.RadiusA, o.RadiusB, o.Friction)
		}
	})
}

func codeSIMS(c *coder, m *File) {
	if c.read {
		m.Simulations = new(Simulations)
	}
	s := m.Simulations
	c.extHeader(&s.Header, FeatureSim)
	seq(c, &s.Sims, 4, 36+4+28*minArray+16, "sims", func(c *coder, x *Simulation) {
		c.sref(&x.ID, "id")
		c.f32(&x.Fps, "fps")
		c.u32(&x.Substeps, "substeps")
		c.f32(&x.GravityX, "gravityX")
		c.f32(&x.GravityY, "gravityY")
		c.f32(&x.WindX, "windX")
		c.f32(&x.WindY, "windY")
		c.f32(&x.PinCompliance, "pinCompliance")
		if c.ok() && (x.Fps <= 0 || x.Substeps == 0 || x.Substeps > 128) {
			c.fail("fps", "a simulation needs fps > 0 and substeps in 1..128 (rig.rs simulations)")
		}
		seq(c, &x.Targets, 4, 8, "targets", func(c *coder, t *SimTarget) {
			c.ref(&t.Mesh, "mesh")
			c.u32(&t.VertexCount, "vertexCount")
		})
		for _, a := range []struct {
			p *[]float32
			n string
		}{{&x.InvMass, "invMass"}, {&x.Damping, "damping"}, {&x.WindFactor, "windFactor"},
			{&x.PinWeight, "pinWeight"}, {&x.GoalCompliance, "goalCompliance"},
			{&x.GoalOffsetX, "goalOffsetX"}, {&x.GoalOffsetY, "goalOffsetY"}} {
			c.floats(a.p, hintPlain, a.n)
		}
		c.uints(&x.AnchorMesh, true, "anchorMesh")
		c.uints(&x.AnchorVertex, true, "anchorVertex")
		c.uints(&x.StretchA, true, "stretchA")
		c.uints(&x.StretchB, true, "stretchB")
		c.floats(&x.Rest, hintPlain, "rest")
		c.floats(&x.Compliance, hintPlain, "compliance")
		c.floats(&x.CompressionCompliance, hintPlain, "compressionCompliance")
		c.uints(&x.TriA, true, "triA")
		c.uints(&x.TriB, true, "triB")
		c.uints(&x.TriC, true, "triC")
		c.floats(&x.AreaCompliance, hintPlain, "areaCompliance")
		c.uints(&x.BendT1, true, "bendT1")
		c.uints(&x.BendT2, true, "bendT2")
		c.floats(&x.BendCompliance, hintPlain, "bendCompliance")
		c.uints(&x.WeldA, true, "weldA")
		c.uints(&x.WeldB, true, "weldB")
		c.floats(&x.WeightA, hintPlain, "weightA")
		c.floats(&x.WeightB, hintPlain, "weightB")
		c.floats(&x.WeldCompliance, hintPlain, "weldCompliance")
		c.uints(&x.LongParticle, true, "longParticle")
		c.uints(&x.LongRoot, true, "longRoot")
		c.floats(&x.MaxDistance, hintPlain, "maxDistance")
		c.refs(&x.Parameters, "parameters")
		c.refs(&x.PhysicsGroups, "physicsGroups")
		seq(c, &x.Corrections, 4, 4+minArray+4, "corrections", func(c *coder, k *SimCorrection) {
			c.ref(&k.Parameter, "parameter")
			c.keys(&k.Keys, true, "keys")
			nk := len(k.Keys)
			seq(c, &k.Meshes, 4, 4+nk*minArray, "meshes", func(c *coder, cm *SimCorrectionMesh) {
				c.ref(&cm.Mesh, "mesh")
				if c.read {
					cm.Offsets = make([][]float32, nk)
				} else if len(cm.Offsets) != nk {
					c.fail("offsets", "%d offset arrays for %d keys", len(cm.Offsets), nk)
					return
				}
				for i := range cm.Offsets {
					c.floats(&cm.Offsets[i], hintPlain, "offsets")
				}
			})
		})
		c.refs(&x.Colliders, "colliders")
		if c.ok() {
			c.checkSim(x)
		}
	})
}

// checkSim checks the internal consistency of a simulation: per-particle
// arrays have one entry per particle, parallel constraint arrays agree,
// and particle and triangle indices are in range.
func (c *coder) checkSim(x *Simulation) {
	var p uint64
	for _, t := range x.Targets {
		p += uint64(t.VertexCount)
	}
	same := func(name string, want uint64, lens ...int) bool {
		for _, n := range lens {
			if uint64(n) != want {
				c.fail(name, "parallel arrays need %d entries, one has %d", want, n)
				return false
			}
		}
		return true
	}
	if !same("invMass", p, len(x.InvMass), len(x.Damping), len(x.WindFactor), len(x.PinWeight),
		len(x.GoalCompliance), len(x.GoalOffsetX), len(x.GoalOffsetY), len(x.AnchorMesh), len(x.AnchorVertex)) ||
		!same("stretchA", uint64(len(x.StretchA)), len(x.StretchB), len(x.Rest), len(x.Compliance), len(x.CompressionCompliance)) ||
		!same("triA", uint64(len(x.TriA)), len(x.TriB), len(x.TriC), len(x.AreaCompliance)) ||
		!same("bendT1", uint64(len(x.BendT1)), len(x.BendT2), len(x.BendCompliance)) ||
		!same("weldA", uint64(len(x.WeldA)), len(x.WeldB), len(x.WeightA), len(x.WeightB), len(x.WeldCompliance)) ||
		!same("longParticle", uint64(len(x.LongParticle)), len(x.LongRoot), len(x.MaxDistance)) {
		return
	}
	below := func(name string, s []uint32, n uint64) bool {
		for i, v := range s {
			if uint64(v) >= n {
				c.fail(name, "entry %d is %d, not below %d", i, v, n)
				return false
			}
		}
		return true
	}
	_ = below("stretchA", x.StretchA, p) && below("stretchB", x.StretchB, p) &&
		below("triA", x.TriA, p) && below("triB", x.TriB, p) && below("triC", x.TriC, p) &&
		below("bendT1", x.BendT1, uint64(len(x.TriA))) && below("bendT2", x.BendT2, uint64(len(x.TriA))) &&
		below("weldA", x.WeldA, p) && below("weldB", x.WeldB, p) &&
		below("longParticle", x.LongParticle, p) && below("longRoot", x.LongRoot, p)
}
