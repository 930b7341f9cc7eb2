package p2l

import (
	"fmt"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/internal/xpbd"
)

// This file runs the SIMS and COLL chunks (P2LRT_V2.md) at hooks H1, H4 and
// H6: one xpbd.Scene per simulation, fed every evaluation with the target
// meshes as evaluated (the unbaked rig, H4 having removed the static
// corrections) and writing the simulated vertices back over them.

// noAnchor is the SIMS anchorMesh value "follows itself" (0xFFFFFFFF).
const noAnchor = math.MaxUint32

// simRun is the runtime state of one simulation.
type simRun struct {
	sim   *Simulation
	scene *xpbd.Scene
	// Particle p is vertex vert[p] of mesh mesh[p].
	mesh, vert []int32
	// Pins: anchor mesh (−1: own target) and vertex per particle.
	anchorMesh, anchorVertex []int32
	colliders                []int // COLL indices, empty when collision is off

	targets, anchors, out []float64
	shapes                []xpbd.Shape
	// shown tells whether the scene's output replaces the targets: false
	// until the first step, so Evaluate before any simulated update shows
	// the target.
	shown bool
}

// newSimRun checks a simulation against the model and prepares its scene.
// withCollision adds the simulation's colliders.
func newSimRun(m *Model, si int, withCollision bool) (*simRun, error) {
	sim := &m.Simulations.Sims[si]
	fail := func(format string, a ...any) (*simRun, error) {
		return nil, fmt.Errorf("SIMS simulation %d (%q): %s", si, sim.ID, fmt.Sprintf(format, a...))
	}
	r := &simRun{sim: sim}
	n := 0
	for ti, t := range sim.Targets {
		if t.Mesh < 0 || t.Mesh >= len(m.Meshes) {
			return fail("target %d: mesh %d out of range", ti, t.Mesh)
		}
		nv := len(m.Meshes[t.Mesh].Positions) / 2
		if int(t.VertexCount) != nv {
			return fail("target %d: vertexCount %d but mesh %d has %d vertices", ti, t.VertexCount, t.Mesh, nv)
		}
		for v := 0; v < nv; v++ {
			r.mesh = append(r.mesh, int32(t.Mesh))
			r.vert = append(r.vert, int32(v))
		}
		n += nv
	}
	spec := xpbd.Spec{
		Particles: n,
		Fps:       float64(sim.Fps),
		Substeps:  int(sim.Substeps),
		GravityX:  float64(sim.GravityX), GravityY: float64(sim.GravityY),
		WindX: float64(sim.WindX), WindY: float64(sim.WindY),
		PinCompliance: float64(sim.PinCompliance),
	}
	if !(spec.Fps > 0) {
		spec.Fps = 60 // like PHYS, 0 asks for the runtime's default
	}
	if spec.Substeps < 1 {
		spec.Substeps = 1
	}
	// Per-particle arrays: n entries, or none for the neutral default.
	var err error
	per := func(name string, a []float32, def float64) []float64 {
		if err != nil {
			return nil
		}
		out := make([]float64, n)
		if len(a) == 0 {
			for i := range out {
				out[i] = def
			}
			return out
		}
		if len(a) != n {
			err = fmt.Errorf("%s has %d entries for %d particles", name, len(a), n)
			return nil
		}
		for i, v := range a {
			out[i] = float64(v)
		}
		return out
	}
	spec.InvMass = per("invMass", sim.InvMass, 1)
	spec.Damping = per("damping", sim.Damping, 0)
	spec.WindFactor = per("windFactor", sim.WindFactor, 0)
	spec.PinWeight = per("pinWeight", sim.PinWeight, 0)
	spec.GoalCompliance = per("goalCompliance", sim.GoalCompliance, -1)
	spec.GoalOffsetX = per("goalOffsetX", sim.GoalOffsetX, 0)
	spec.GoalOffsetY = per("goalOffsetY", sim.GoalOffsetY, 0)
	if err != nil {
		return fail("%v", err)
	}
	if len(sim.AnchorMesh) != len(sim.AnchorVertex) || (len(sim.AnchorMesh) != 0 && len(sim.AnchorMesh) != n) {
		return fail("anchorMesh/anchorVertex have %d/%d entries for %d particles", len(sim.AnchorMesh), len(sim.AnchorVertex), n)
	}
	r.anchorMesh = make([]int32, n)
	r.anchorVertex = make([]int32, n)
	for p := 0; p < n; p++ {
		r.anchorMesh[p] = -1
		if len(sim.AnchorMesh) == 0 || sim.AnchorMesh[p] == noAnchor {
			continue
		}
		am, av := sim.AnchorMesh[p], sim.AnchorVertex[p]
		if int64(am) >= int64(len(m.Meshes)) {
			return fail("particle %d: anchor mesh %d out of range", p, am)
		}
		if int64(av) >= int64(len(m.Meshes[am].Positions)/2) {
			return fail("particle %d: anchor vertex %d out of range of mesh %d", p, av, am)
		}
		r.anchorMesh[p], r.anchorVertex[p] = int32(am), int32(av)
	}
	f64 := func(a []float32) []float64 {
		out := make([]float64, len(a))
		for i, v := range a {
			out[i] = float64(v)
		}
		return out
	}
	spec.StretchA, spec.StretchB = sim.StretchA, sim.StretchB
	spec.Rest, spec.Compliance, spec.CompressionCompliance = f64(sim.Rest), f64(sim.Compliance), f64(sim.CompressionCompliance)
	spec.TriA, spec.TriB, spec.TriC = sim.TriA, sim.TriB, sim.TriC
	spec.AreaCompliance = f64(sim.AreaCompliance)
	spec.BendT1, spec.BendT2 = sim.BendT1, sim.BendT2
	spec.BendCompliance = f64(sim.BendCompliance)
	spec.WeldA, spec.WeldB = sim.WeldA, sim.WeldB
	spec.WeightA, spec.WeightB, spec.WeldCompliance = f64(sim.WeightA), f64(sim.WeightB), f64(sim.WeldCompliance)
	spec.LongParticle, spec.LongRoot = sim.LongParticle, sim.LongRoot
	spec.MaxDistance = f64(sim.MaxDistance)
	if withCollision {
		for _, c := range sim.Colliders {
			if c < 0 || m.Collision == nil || c >= len(m.Collision.Colliders) {
				return fail("collider %d out of range", c)
			}
			if err := checkCollider(m, c); err != nil {
				return fail("%v", err)
			}
			r.colliders = append(r.colliders, c)
		}
	}
	spec.Colliders = len(r.colliders)
	sc, err := xpbd.NewScene(spec)
	if err != nil {
		return fail("%v", err)
	}
	r.scene = sc
	r.targets = make([]float64, 2*n)
	r.anchors = make([]float64, 2*n)
	r.out = make([]float64, 2*n)
	r.shapes = make([]xpbd.Shape, len(r.colliders))
	return r, nil
}

// checkCollider checks the references of COLL collider c.
func checkCollider(m *Model, c int) error {
	col := &m.Collision.Colliders[c]
	if col.Mesh >= 0 {
		if col.Mesh >= len(m.Meshes) {
			return fmt.Errorf("collider %q: mesh %d out of range", col.ID, col.Mesh)
		}
		nv := int64(len(m.Meshes[col.Mesh].Positions) / 2)
		if int64(col.VertexA) >= nv || (col.Capsule && int64(col.VertexB) >= nv) {
			return fmt.Errorf("collider %q: vertex out of range of mesh %d", col.ID, col.Mesh)
		}
		return nil
	}
	if col.Deformer >= 0 && col.Deformer >= deformerCount(m) {
		return fmt.Errorf("collider %q: deformer %d out of range", col.ID, col.Deformer)
	}
	return nil
}

// deformerCount is the number of deformer indices: DEFM records, then the
// virtual bones of BONE.
func deformerCount(m *Model) int {
	n := len(m.Deformers)
	if m.Bones != nil {
		n += len(m.Bones.Virtual)
	}
	return n
}

// simInputs is what a simulation reads from the evaluation: a mesh's
// evaluated canvas vertices (before any simulation overwrote them) and a
// point of a deformer's local space mapped to the canvas.
type simInputs interface {
	targetVertices(mesh int) []float32
	deformerPoint(d int, x, y float64) (float64, float64)
}

// gather reads this evaluation's targets, anchors and collider shapes into
// the scene, converting canvas (y down) to the y-up world.
func (r *simRun) gather(in simInputs, coll *Collision) {
	for p := range r.mesh {
		v := in.targetVertices(int(r.mesh[p]))
		x, y := float64(v[2*r.vert[p]]), -float64(v[2*r.vert[p]+1])
		r.targets[2*p], r.targets[2*p+1] = x, y
		if am := r.anchorMesh[p]; am >= 0 {
			av := in.targetVertices(int(am))
			x, y = float64(av[2*r.anchorVertex[p]]), -float64(av[2*r.anchorVertex[p]+1])
		}
		r.anchors[2*p], r.anchors[2*p+1] = x, y
	}
	for i, c := range r.colliders {
		col := &coll.Colliders[c]
		ax, ay, bx, by := float64(col.AX), float64(col.AY), float64(col.BX), float64(col.BY)
		switch {
		case col.Mesh >= 0:
			v := in.targetVertices(col.Mesh)
			ax, ay = float64(v[2*col.VertexA]), float64(v[2*col.VertexA+1])
			if col.Capsule {
				bx, by = float64(v[2*col.VertexB]), float64(v[2*col.VertexB+1])
			}
		case col.Deformer >= 0:
			ax, ay = in.deformerPoint(col.Deformer, ax, ay)
			bx, by = in.deformerPoint(col.Deformer, bx, by)
		}
		r.shapes[i] = xpbd.Shape{
			Capsule: col.Capsule,
			AX:      ax, AY: -ay, BX: bx, BY: -by,
			RadiusA: float64(col.RadiusA), RadiusB: float64(col.RadiusB),
			Friction: float64(col.Friction),
		}
		if !col.Capsule {
			r.shapes[i].BX, r.shapes[i].BY, r.shapes[i].RadiusB = r.shapes[i].AX, r.shapes[i].AY, r.shapes[i].RadiusA
		}
	}
	r.scene.SetInputs(r.targets, r.anchors, r.shapes)
}

// advance runs the steps dt makes up and returns how many ran.
func (r *simRun) advance(dt float64) int {
	n := r.scene.Advance(dt)
	if n > 0 {
		r.shown = true
	}
	return n
}

// write puts the simulated positions over the target meshes' vertices:
// interpolated between the last two steps after an update, the last step
// after Evaluate. Before any step nothing is written (the target shows).
func (r *simRun) write(in simInputs, interpolated bool) {
	if !r.shown {
		return
	}
	if interpolated {
		r.scene.Interpolated(r.out)
	} else {
		r.scene.Last(r.out)
	}
	for p := range r.mesh {
		v := in.targetVertices(int(r.mesh[p]))
		v[2*r.vert[p]] = float32(r.out[2*p])
		v[2*r.vert[p]+1] = float32(-r.out[2*p+1])
	}
}

// reset makes the next update start again at rest in the then current pose.
func (r *simRun) reset() {
	r.scene.Reset()
	r.shown = false
}

// correctionOffsets adds −(static correction) of simulation sim for mesh
// to verts (x,y pairs in the mesh's parent space): the H4 removal of what
// the baking added, linear between keys and clamped at the end keys, as the
// baking wrote it into keyforms.
func correctionOffsets(sim *Simulation, mesh int, value func(param int) float32, verts []float64) {
	for ci := range sim.Corrections {
		c := &sim.Corrections[ci]
		if len(c.Keys) == 0 {
			continue
		}
		k, t := locate(c.Keys, value(c.Parameter))
		for mi := range c.Meshes {
			cm := &c.Meshes[mi]
			if cm.Mesh != mesh || len(cm.Offsets) != len(c.Keys) {
				continue
			}
			o0 := cm.Offsets[k]
			var o1 []float32
			if t != 0 {
				o1 = cm.Offsets[k+1]
			}
			for i := range verts {
				if i >= len(o0) {
					break
				}
				d := float64(o0[i])
				if o1 != nil && i < len(o1) {
					d += (float64(o1[i]) - d) * t
				}
				verts[i] -= d
			}
		}
	}
}
