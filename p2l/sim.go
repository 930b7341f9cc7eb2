package p2l

import (
	"fmt"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/internal/xpbd"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file runs the SIMS and COLL chunks (P2LRT_V2.md) at hooks H1, H4 and
// H6: one xpbd.Scene per simulation, fed every evaluation with the target
// meshes as evaluated (the unbaked rig, H4 having removed the static
// corrections) and writing the simulated vertices back over them.

// noAnchor is the SIMS anchorMesh value "follows itself" (0xFFFFFFFF).
const noAnchor = math.MaxUint32

// simRun is the runtime state of one simulation.
type simRun struct {
	sim   *p2lrt.Simulation
	scene *xpbd.Scene
	// Particle p is vertex vert[p] of mesh mesh[p].
	mesh, vert []int32
	// Pins: anchor mesh (−1: own target) and vertex per particle.
	anchorMesh, anchorVertex []int32
	colliders                []int // COLL indices, empty when collision is off

	goals, anchors, out []float32
	shapes              []xpbd.Shape
}

// newSimRun checks a simulation against the model and prepares its scene.
// withCollision adds the simulation's colliders.
func newSimRun(m *Model, si int, withCollision bool) (*simRun, error) {
	sim := &m.file.Simulations.Sims[si]
	fail := func(format string, a ...any) (*simRun, error) {
		return nil, fmt.Errorf("SIMS simulation %d (%q): %s", si, sim.ID, fmt.Sprintf(format, a...))
	}
	r := &simRun{sim: sim}
	n := 0
	for ti, t := range sim.Targets {
		if t.Mesh < 0 || t.Mesh >= len(m.file.Meshes) {
			return fail("target %d: mesh %d out of range", ti, t.Mesh)
		}
		nv := len(m.file.Meshes[t.Mesh].Positions) / 2
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
		Fps:       sim.Fps,
		Substeps:  int(sim.Substeps),
		GravityX:  sim.GravityX, GravityY: sim.GravityY,
		WindX: sim.WindX, WindY: sim.WindY,
		PinCompliance: sim.PinCompliance,
	}
	if !(spec.Fps > 0) {
		spec.Fps = 60 // like PHYS, 0 asks for the runtime's default
	}
	if spec.Substeps < 1 {
		spec.Substeps = 1
	}
	// Per-particle arrays: n entries, or none for the neutral default.
	var err error
	per := func(name string, a []float32, def float32) []float32 {
		if err != nil {
			return nil
		}
		if len(a) == 0 {
			out := make([]float32, n)
			for i := range out {
				out[i] = def
			}
			return out
		}
		if len(a) != n {
			err = fmt.Errorf("%s has %d entries for %d particles", name, len(a), n)
			return nil
		}
		return a
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
		if int64(am) >= int64(len(m.file.Meshes)) {
			return fail("particle %d: anchor mesh %d out of range", p, am)
		}
		if int64(av) >= int64(len(m.file.Meshes[am].Positions)/2) {
			return fail("particle %d: anchor vertex %d out of range of mesh %d", p, av, am)
		}
		r.anchorMesh[p], r.anchorVertex[p] = int32(am), int32(av)
	}
	spec.StretchA, spec.StretchB = sim.StretchA, sim.StretchB
	spec.Rest, spec.Compliance, spec.CompressionCompliance = sim.Rest, sim.Compliance, sim.CompressionCompliance
	spec.TriA, spec.TriB, spec.TriC = sim.TriA, sim.TriB, sim.TriC
	spec.AreaCompliance = sim.AreaCompliance
	spec.BendT1, spec.BendT2 = sim.BendT1, sim.BendT2
	spec.BendCompliance = sim.BendCompliance
	spec.WeldA, spec.WeldB = sim.WeldA, sim.WeldB
	spec.WeightA, spec.WeightB, spec.WeldCompliance = sim.WeightA, sim.WeightB, sim.WeldCompliance
	spec.LongParticle, spec.LongRoot = sim.LongParticle, sim.LongRoot
	spec.MaxDistance = sim.MaxDistance
	if withCollision {
		for _, c := range sim.Colliders {
			if c < 0 || m.file.Collision == nil || c >= len(m.file.Collision.Colliders) {
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
	r.goals = make([]float32, 2*n)
	r.anchors = make([]float32, 2*n)
	r.out = make([]float32, 2*n)
	r.shapes = make([]xpbd.Shape, len(r.colliders))
	return r, nil
}

// checkCollider checks the references of COLL collider c.
func checkCollider(m *Model, c int) error {
	col := &m.file.Collision.Colliders[c]
	if col.Mesh >= 0 {
		if col.Mesh >= len(m.file.Meshes) {
			return fmt.Errorf("collider %q: mesh %d out of range", col.ID, col.Mesh)
		}
		nv := int64(len(m.file.Meshes[col.Mesh].Positions) / 2)
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
	n := len(m.file.Deformers)
	if m.file.Bones != nil {
		n += len(m.file.Bones.Virtual)
	}
	return n
}

// simInputs is what a simulation reads from the evaluation: a mesh's
// canvas vertices as they are now (evaluated, and drawn over by the
// simulations before this one) and a point of a deformer's local space
// mapped to the canvas.
type simInputs interface {
	vertices(mesh int) []float32
	deformerPoint(d int, x, y float64) (float64, float64)
}

// place reads this update's goals, anchors and collider shapes from the
// pose into the scene, converting canvas (y down) to the y-up world.
func (r *simRun) place(in simInputs, coll *p2lrt.Collision) {
	for p := range r.mesh {
		v := in.vertices(int(r.mesh[p]))
		x, y := v[2*r.vert[p]], -v[2*r.vert[p]+1]
		r.goals[2*p], r.goals[2*p+1] = x, y
		if am := r.anchorMesh[p]; am >= 0 {
			av := in.vertices(int(am))
			x, y = av[2*r.anchorVertex[p]], -av[2*r.anchorVertex[p]+1]
		}
		r.anchors[2*p], r.anchors[2*p+1] = x, y
	}
	for i, c := range r.colliders {
		col := &coll.Colliders[c]
		ax, ay, bx, by := col.AX, col.AY, col.BX, col.BY
		switch {
		case col.Mesh >= 0:
			v := in.vertices(col.Mesh)
			ax, ay = v[2*col.VertexA], v[2*col.VertexA+1]
			if col.Capsule {
				bx, by = v[2*col.VertexB], v[2*col.VertexB+1]
			}
		case col.Deformer >= 0:
			x, y := in.deformerPoint(col.Deformer, float64(ax), float64(ay))
			ax, ay = float32(x), float32(y)
			x, y = in.deformerPoint(col.Deformer, float64(bx), float64(by))
			bx, by = float32(x), float32(y)
		}
		if !col.Capsule {
			bx, by = ax, ay // a circle: both ends at a
		}
		r.shapes[i] = xpbd.Shape{
			AX: ax, AY: -ay, BX: bx, BY: -by,
			RadiusA: col.RadiusA, RadiusB: col.RadiusB,
			Friction: col.Friction,
		}
	}
	r.scene.Place(r.goals, r.anchors, r.shapes)
}

// update is one update of the simulation (hook H6 of Rig.Update with the
// simulation stage): place it in this pose, start it at rest there on its
// first update, else step it by dt, and draw it over its target meshes.
func (r *simRun) update(in simInputs, coll *p2lrt.Collision, dt float32) {
	r.place(in, coll)
	if !r.scene.Started() {
		r.scene.Start()
	} else {
		r.scene.Advance(dt)
	}
	r.draw(in)
}

// draw puts the simulated positions, between the last two steps by the
// time not yet stepped, over the target meshes' vertices; before the
// first update nothing is drawn (the target shows).
func (r *simRun) draw(in simInputs) {
	if !r.scene.Started() {
		return
	}
	r.scene.Output(r.out)
	for p := range r.mesh {
		v := in.vertices(int(r.mesh[p]))
		v[2*r.vert[p]] = r.out[2*p]
		v[2*r.vert[p]+1] = -r.out[2*p+1]
	}
}

// reset makes the next update start again at rest in the then current pose.
func (r *simRun) reset() { r.scene.Reset() }

// correctionOffsets adds −(static correction) of simulation sim for mesh
// to verts (x,y pairs in the mesh's parent space): the H4 removal of what
// the baking added, linear between keys and clamped at the end keys, as the
// baking wrote it into keyforms.
func correctionOffsets(sim *p2lrt.Simulation, mesh int, value func(param int) float32, verts []float64) {
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
