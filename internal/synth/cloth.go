package synth

import (
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file (owned by the advanced-mode work) generates a cloth that plays
// a clip against colliders, the second scene (after the default
// character's ribbon) the simulation is compared with the reference
// runtime on.

// Parameters, deformers, meshes and colliders of the CollidingCloth model.
const (
	ClothParamSway = 0 // body sway, degrees −20..20: turns the cloth's pinned top
	ClothParamArm  = 1 // the pusher's position −1..1, left to right under the cloth

	ClothBody = 0 // rotation deformer at (200, 60), angle = ParamSway
	ClothArm  = 1 // rotation deformer, x 110..290 at y 250

	ClothMesh = 0 // the simulated cloth, 9 × 8 vertices under Body
	ClothBall = 1 // a small quad under Arm

	ClothCols, ClothRows = 9, 8
)

// CollidingCloth returns a 400×400 model of a cloth of 9 × 8 vertices
// hanging from its pinned top row, simulated (SIMS) with every constraint
// kind — stretch, area, bending, a weld, long-range attachments, goals with
// offsets, a soft pin — gravity, damping, wind and three colliders (COLL): a
// fixed tapered capsule, a circle following a mesh vertex and a capsule
// following a deformer. Its looping clip "Sway" (4 s) turns the pinned top
// ±20° and pushes the deformer-borne colliders through the cloth.
func CollidingCloth() *p2lrt.File {
	m := &p2lrt.File{
		Canvas: p2lrt.Canvas{Width: 400, Height: 400, PixelsPerUnit: -1},
		Parameters: []p2lrt.Parameter{
			{ID: "ParamSway", Name: "Sway", Min: -20, Max: 20},
			{ID: "ParamArm", Name: "Arm", Min: -1, Max: 1},
		},
	}
	rot := func(id string, p int, keys []float32, key func(v float32) p2lrt.RotationKey) p2lrt.Deformer {
		g := &p2lrt.Grid[p2lrt.RotationKey]{Axes: []p2lrt.Axis{{Parameter: p, Keys: keys}}}
		for k, v := range keys {
			g.Cells = append(g.Cells, p2lrt.Cell[p2lrt.RotationKey]{Coord: []uint16{uint16(k)}, Value: key(v)})
		}
		return p2lrt.Deformer{Kind: p2lrt.RotationDeformer, ID: id, Parent: -1, Part: -1,
			Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
			Rotation: &p2lrt.Rotation{Keyforms: g}}
	}
	m.Deformers = []p2lrt.Deformer{
		rot("Body", ClothParamSway, []float32{-20, 0, 20}, func(v float32) p2lrt.RotationKey {
			return p2lrt.RotationKey{X: 200, Y: 60, Angle: v, Scale: 1}
		}),
		rot("Arm", ClothParamArm, []float32{-1, 1}, func(v float32) p2lrt.RotationKey {
			return p2lrt.RotationKey{X: 200 + 90*v, Y: 250, Angle: 30 * v, Scale: 1}
		}),
	}
	cloth := advMesh("Cloth", ClothBody, ClothCols*ClothRows, func(v int) (float64, float64) {
		return float64(20*(v%ClothCols) - 80), float64(20 + 20*(v/ClothCols))
	}, ClothCols)
	ball := advMesh("Ball", ClothArm, 4, func(v int) (float64, float64) {
		return float64(-10 + 20*(v%2)), float64(-40 + 20*(v/2))
	}, 2)
	m.Meshes = []p2lrt.Mesh{cloth, ball}
	m.Parts = []p2lrt.Part{{ID: "Root", Name: "Root", Flags: p2lrt.PartVisible,
		Children:  []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: ClothMesh}, {Kind: p2lrt.ChildMesh, Index: ClothBall}},
		Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}}}
	m.Draw = p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{{Mesh: ClothMesh}, {Mesh: ClothBall}}}
	m.Clips = []p2lrt.Clip{{ID: "Sway", Name: "Sway", Duration: 4, Fps: 30, Loop: true, FadeIn: 0, FadeOut: 0,
		Curves: []p2lrt.ParameterCurve{
			{Parameter: ClothParamSway, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}, Segments: []p2lrt.Segment{
				{Kind: p2lrt.SegmentBezier, C1: p2lrt.Point{T: 0.4, V: 10}, C2: p2lrt.Point{T: 0.6, V: 20}, End: p2lrt.Point{T: 1, V: 20}},
				{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 3, V: -20}},
				{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 4, V: 0}},
			}}},
			{Parameter: ClothParamArm, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: -1}, Segments: []p2lrt.Segment{
				{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 2, V: 1}},
				{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 4, V: -1}},
			}}},
		},
	}}
	m.Collision = &p2lrt.Collision{
		Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureCollision, Hooks: p2lrt.HookSimulation, DependsOn: []string{"SIMS"}},
		Colliders: []p2lrt.Collider{
			{ID: "Rail", Capsule: true, Deformer: -1, Mesh: -1, AX: 140, AY: 170, BX: 260, BY: 190, RadiusA: 8, RadiusB: 12, Friction: 0.4},
			{ID: "Ball", Deformer: -1, Mesh: ClothBall, VertexA: 0, VertexB: 0, RadiusA: 14, RadiusB: 14, Friction: 1},
			{ID: "Pusher", Capsule: true, Deformer: ClothArm, Mesh: -1, AX: 0, AY: -60, BX: 0, BY: 0, RadiusA: 6, RadiusB: 9},
		},
	}
	sim, err := p2l.ClothSimulation(m, ClothMesh, p2l.ClothOptions{
		ID: "Cloth", Substeps: 6,
		Pinned:         func(v int) bool { return v < ClothCols },
		GoalCompliance: 2, Damping: 0.8, WindFactor: 1,
		Colliders: []int{0, 1, 2},
	})
	if err != nil {
		panic(err) // the model is fixed: a failure is a bug here
	}
	sim.WindX = 40
	n := ClothCols * ClothRows
	for v := 0; v < n; v++ {
		row, col := v/ClothCols, v%ClothCols
		sim.Damping[v] = 0.5 + 0.1*float32(col)
		sim.WindFactor[v] = float32(row) / float32(ClothRows-1)
		if row == ClothRows-1 {
			// The hem's goals hang a little to the right of the pose.
			sim.GoalOffsetX[v] = 6
			sim.GoalOffsetY[v] = -2
		}
	}
	// A soft pin in the second row, following the ball's vertex 3.
	soft := ClothCols + ClothCols/2
	sim.PinCompliance = 1e-4
	sim.PinWeight[soft] = 0.6
	sim.AnchorMesh[soft], sim.AnchorVertex[soft] = ClothBall, 3
	// The hem's corners welded together loosely (a bag's seam).
	sim.WeldA = []uint32{uint32(n - ClothCols)}
	sim.WeldB = []uint32{uint32(n - 1)}
	sim.WeightA, sim.WeightB = []float32{1}, []float32{0.5}
	sim.WeldCompliance = []float32{0.5}
	m.Simulations = &p2lrt.Simulations{
		Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureSim, Hooks: p2lrt.HookParameters | p2lrt.HookMesh | p2lrt.HookSimulation},
		Sims:   []p2lrt.Simulation{sim},
	}
	m.Meta = []p2lrt.MetaEntry{{Key: "generator", Value: "p2l synth.CollidingCloth"}, {Key: "capabilities", Value: "SIMS COLL"}}
	return m
}
