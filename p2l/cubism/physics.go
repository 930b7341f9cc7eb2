package cubism

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// physics converts a physics3 file (CubismPhysics.parse, CubismPhysicsJson).
// Meta.EffectiveForces is not imported: the framework parses it but never
// uses it (wind comes from the host, Rig.SetPhysicsWind).
func (r *reader) physics(ids *ids, root value) (p2lrt.Physics, error) {
	var ph p2lrt.Physics
	meta := root.get("Meta")
	if f := meta.get("Fps"); !f.missing() {
		fps := r.number(f, 0, true)
		switch {
		case fps > p2l.MaxPhysicsFps:
			return ph, r.errf(f.path, "fps %v is above the maximum %d", fps, p2l.MaxPhysicsFps)
		case fps < 0:
			r.warn(f.path, "negative fps %v: 0 (one step per update), as the framework treats any fps ≤ 0", fps)
		default:
			ph.Fps = float32(fps)
		}
	}
	names := map[string]string{}
	for _, d := range r.list(meta.get("PhysicsDictionary")) {
		names[r.string(d.get("Id"))] = r.string(d.get("Name"))
	}
	settings := r.counted(r.list(root.get("PhysicsSettings")), r.count(meta.get("PhysicsSettingCount")), "Meta.PhysicsSettingCount", "settings")
	nIn, nOut, nVert := 0, 0, 0
	for _, st := range settings {
		f := st.path
		g := p2lrt.PhysicsGroup{ID: r.string(st.get("Id"))}
		g.Name = names[g.ID]
		verts := r.list(st.get("Vertices"))
		nVert += len(verts)
		if len(verts) == 0 {
			r.warn(f+".Vertices", "no vertices (the framework would move another setting's particles): setting skipped")
			continue
		}
		// Vertex 0 is the root, which the inputs move; its own values are
		// not used. Vertex k hangs Radius_k below vertex k−1.
		for _, v := range verts[1:] {
			g.Segments = append(g.Segments, p2lrt.PhysicsSegment{
				Length:       r.float32(v.get("Radius"), 0, false),
				Mobility:     r.float32(v.get("Mobility"), 0, false),
				Delay:        r.float32(v.get("Delay"), 0, false),
				Acceleration: r.float32(v.get("Acceleration"), 0, false),
			})
		}
		ins := r.list(st.get("Input"))
		nIn += len(ins)
		for _, in := range ins {
			id := r.string(in.get("Source").get("Id"))
			p, ok := ids.parameter(id)
			if !ok {
				// The framework would read past its parameter arrays.
				r.warn(in.path+".Source.Id", "the model has no parameter %q: input skipped", id)
				continue
			}
			src, ok := r.source(in.get("Type"))
			if !ok {
				continue
			}
			g.Inputs = append(g.Inputs, p2lrt.PhysicsInput{Parameter: p, Source: src,
				Weight: r.float32(in.get("Weight"), 0, false), Reflect: r.boolean(in.get("Reflect"))})
		}
		outs := r.list(st.get("Output"))
		nOut += len(outs)
		for _, o := range outs {
			id := r.string(o.get("Destination").get("Id"))
			p, ok := ids.parameter(id)
			if !ok {
				r.warn(o.path+".Destination.Id", "the model has no parameter %q: output skipped", id)
				continue
			}
			src, ok := r.source(o.get("Type"))
			if !ok {
				continue
			}
			out := p2lrt.PhysicsOutput{Parameter: p, Source: src,
				Scale: r.float32(o.get("Scale"), 0, false), Weight: r.float32(o.get("Weight"), 0, false),
				Reflect: r.boolean(o.get("Reflect"))}
			vi := o.get("VertexIndex")
			k := r.number(vi, 0, false)
			if k = math.Trunc(k); k >= 1 && k <= float64(len(g.Segments)) {
				out.Vertex = int(k)
			} else {
				// The framework skips the output's step but still writes
				// its interpolated value, which stays 0 before scaling: the
				// parameter is pulled to 0 clamped to its range by the
				// output's weight. Vertex 1 with scale 0 writes exactly that.
				if len(g.Segments) == 0 {
					r.warn(vi.path, "vertex %v: the strand has no vertex below its root; output skipped", k)
					continue
				}
				r.warn(vi.path, "vertex %v is not one of 1..%d: the framework writes 0 there every frame; imported as vertex 1 with scale 0, which writes the same", k, len(g.Segments))
				out.Vertex, out.Scale = 1, 0
			}
			g.Outputs = append(g.Outputs, out)
		}
		norm := st.get("Normalization")
		pos, ang := norm.get("Position"), norm.get("Angle")
		n := &g.Normalization
		n.PositionMin = r.float32(pos.get("Minimum"), 0, false)
		n.PositionDefault = r.float32(pos.get("Default"), 0, false)
		n.PositionMax = r.float32(pos.get("Maximum"), 0, false)
		n.AngleMin = r.float32(ang.get("Minimum"), 0, false)
		n.AngleDefault = r.float32(ang.get("Default"), 0, false)
		n.AngleMax = r.float32(ang.get("Maximum"), 0, false)
		ph.Groups = append(ph.Groups, g)
	}
	for _, c := range [...]struct {
		key string
		n   int
	}{{"TotalInputCount", nIn}, {"TotalOutputCount", nOut}, {"VertexCount", nVert}} {
		if k := r.count(meta.get(c.key)); k >= 0 && k != c.n {
			r.warn("Meta."+c.key, "%d, but the settings read have %d (the framework sizes its arrays by it)", k, c.n)
		}
	}
	return ph, nil
}

// source reads an input or output Type; an unknown one skips the entry.
func (r *reader) source(v value) (p2lrt.PhysicsSource, bool) {
	switch t := r.string(v); t {
	case "X":
		return p2lrt.PhysicsX, true
	case "Y":
		return p2lrt.PhysicsY, true
	case "Angle":
		return p2lrt.PhysicsAngle, true
	default:
		r.warn(v.path, "unknown type %q (X, Y or Angle): the framework cannot evaluate it, entry skipped", t)
		return 0, false
	}
}
