package p2l

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// ClothOptions configures ClothSimulation. Zero values take the defaults
// given with each field; a negative compliance leaves that constraint kind
// out, as in the file.
type ClothOptions struct {
	ID       string
	Fps      float32 // default 60
	Substeps uint32  // default 4
	// Gravity in canvas pixels per second², y down like the canvas
	// (default 0, 980: down). Stored y-up in the simulation.
	GravityX, GravityY float32
	// Pinned reports whether vertex v is pinned to its evaluated position
	// (kinematic); nil pins nothing.
	Pinned func(v int) bool

	StretchCompliance     float32 // default 0 (inextensible)
	CompressionCompliance float32 // default 1e-4
	AreaCompliance        float32 // default 1e-4
	BendCompliance        float32 // default 1e-3
	GoalCompliance        float32 // default −1 (no goals)
	Damping               float32 // per second, default 1
	WindFactor            float32 // default 1
	// LongRangeSlack lets each free vertex go this factor beyond its rest
	// distance to the nearest pinned vertex (default 1.05; ≤ 0 or no pins:
	// no long-range attachments).
	LongRangeSlack float32
	// Colliders are COLL indices the simulation avoids.
	Colliders []int
	// Parameters and PhysicsGroups are what the simulation replaces (hook
	// H1): the baked mode parameters and pendulum groups.
	Parameters    []int
	PhysicsGroups []int
}

// ClothSimulation builds a SIMS simulation for mesh of f, as a generator or
// importer would write it: every triangle edge a stretch constraint at its
// rest length, every triangle an area constraint, every pair of triangles
// sharing an edge a bending constraint, pinned vertices kinematic on their
// evaluated position, long-range attachments from every free vertex to the
// nearest pinned one. Rest lengths are measured on the mesh as evaluated at
// the default pose (canvas pixels), by a model of f made for the call
// (f is only read). Add the result to f.Simulations.Sims and its
// parameters and groups to the chunk header.
func ClothSimulation(f *p2lrt.File, mesh int, opt ClothOptions) (p2lrt.Simulation, error) {
	m := &Model{file: f}
	var s p2lrt.Simulation
	if mesh < 0 || mesh >= len(m.file.Meshes) {
		return s, fmt.Errorf("p2l: cloth: mesh %d out of range", mesh)
	}
	me := &m.file.Meshes[mesh]
	n := len(me.Positions) / 2
	if n == 0 || len(me.Indices)%3 != 0 {
		return s, fmt.Errorf("p2l: cloth: mesh %d has no geometry or a partial triangle", mesh)
	}
	for _, i := range me.Indices {
		if int(i) >= n {
			return s, fmt.Errorf("p2l: cloth: mesh %d index %d out of range", mesh, i)
		}
	}
	r := m.NewRig()
	r.Evaluate()
	if r.Err() != nil {
		return s, r.Err()
	}
	pos := slices.Clone(r.Mesh(mesh).Vertices())
	def := func(v, d float32) float32 {
		if v == 0 {
			return d
		}
		return v
	}
	gy := opt.GravityY
	if opt.GravityX == 0 && gy == 0 {
		gy = 980
	}
	s = p2lrt.Simulation{
		ID: opt.ID, Fps: def(opt.Fps, 60), Substeps: opt.Substeps,
		GravityX: opt.GravityX, GravityY: -gy, PinCompliance: 0,
		Targets:    []p2lrt.SimTarget{{Mesh: mesh, VertexCount: uint32(n)}},
		Parameters: slices.Clone(opt.Parameters), PhysicsGroups: slices.Clone(opt.PhysicsGroups),
		Colliders: slices.Clone(opt.Colliders),
	}
	if s.Substeps == 0 {
		s.Substeps = 4
	}
	comp := def(opt.CompressionCompliance, 1e-4)
	area := def(opt.AreaCompliance, 1e-4)
	bend := def(opt.BendCompliance, 1e-3)
	goal := def(opt.GoalCompliance, -1)
	damp := def(opt.Damping, 1)
	wind := def(opt.WindFactor, 1)
	slack := def(opt.LongRangeSlack, 1.05)
	pinned := make([]bool, n)
	anyPin := false
	for v := 0; v < n; v++ {
		pinned[v] = opt.Pinned != nil && opt.Pinned(v)
		anyPin = anyPin || pinned[v]
		s.InvMass = append(s.InvMass, b01(!pinned[v]))
		s.PinWeight = append(s.PinWeight, b01(pinned[v]))
		s.Damping = append(s.Damping, damp)
		s.WindFactor = append(s.WindFactor, wind)
		s.GoalCompliance = append(s.GoalCompliance, goal)
		s.GoalOffsetX = append(s.GoalOffsetX, 0)
		s.GoalOffsetY = append(s.GoalOffsetY, 0)
		s.AnchorMesh = append(s.AnchorMesh, noAnchor)
		s.AnchorVertex = append(s.AnchorVertex, 0)
	}
	dist := func(a, b int) float32 {
		return float32(math.Hypot(float64(pos[2*a]-pos[2*b]), float64(pos[2*a+1]-pos[2*b+1])))
	}
	type edge struct{ a, b uint32 }
	edgeTri := map[edge]int{}
	var edges []edge
	nt := len(me.Indices) / 3
	for t := 0; t < nt; t++ {
		tri := me.Indices[3*t : 3*t+3]
		if tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] {
			return p2lrt.Simulation{}, fmt.Errorf("p2l: cloth: mesh %d triangle %d is degenerate", mesh, t)
		}
		s.TriA = append(s.TriA, tri[0])
		s.TriB = append(s.TriB, tri[1])
		s.TriC = append(s.TriC, tri[2])
		s.AreaCompliance = append(s.AreaCompliance, area)
		for k := 0; k < 3; k++ {
			a, b := tri[k], tri[(k+1)%3]
			if a > b {
				a, b = b, a
			}
			e := edge{a, b}
			if t0, ok := edgeTri[e]; ok {
				if t0 >= 0 {
					s.BendT1 = append(s.BendT1, uint32(t0))
					s.BendT2 = append(s.BendT2, uint32(t))
					s.BendCompliance = append(s.BendCompliance, bend)
					edgeTri[e] = -1 // an edge bends once, between its first two triangles
				}
				continue
			}
			edgeTri[e] = t
			edges = append(edges, e)
		}
	}
	for _, e := range edges {
		s.StretchA = append(s.StretchA, e.a)
		s.StretchB = append(s.StretchB, e.b)
		s.Rest = append(s.Rest, dist(int(e.a), int(e.b)))
		s.Compliance = append(s.Compliance, opt.StretchCompliance)
		s.CompressionCompliance = append(s.CompressionCompliance, comp)
	}
	if anyPin && slack > 0 {
		for v := 0; v < n; v++ {
			if pinned[v] {
				continue
			}
			best, bd := -1, float32(math.Inf(1))
			for p := 0; p < n; p++ {
				if d := dist(v, p); pinned[p] && d < bd {
					best, bd = p, d
				}
			}
			s.LongParticle = append(s.LongParticle, uint32(v))
			s.LongRoot = append(s.LongRoot, uint32(best))
			s.MaxDistance = append(s.MaxDistance, bd*slack)
		}
	}
	if len(s.StretchA) == 0 {
		return p2lrt.Simulation{}, errors.New("p2l: cloth: the mesh has no edges")
	}
	return s, nil
}

func b01(b bool) float32 {
	if b {
		return 1
	}
	return 0
}
