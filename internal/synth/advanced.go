package synth

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file (owned by the advanced-mode work) generates models carrying the
// four extension chunks BONE, SKIN, SIMS and COLL, with every baked keyform
// computed here from the rig's geometry by hand-written formulas, so tests
// can compare the runtime against values it did not produce.

// Parameters of the Advanced model.
const (
	AdvParamElbow = 0 // elbow bend, degrees 0..90
	AdvParamSwing = 1 // the baked swing the simulation replaces, −1..1
	AdvParamBody  = 2 // body sway, −10..10: moves the ribbon's root in x by 2·value
)

// Deformers and meshes of the Advanced model.
const (
	AdvUpper   = 0 // rotation deformer: the upper arm at (100, 100), the arm mesh's home
	AdvHand    = 1 // rotation deformer: the hand, pivot keyed on the elbow on a circle (an arc)
	AdvForearm = 2 // virtual bone 0: the forearm, elbow at (60, 0) in the upper arm's space

	AdvArmMesh    = 0 // skinned strip along the arm
	AdvRibbonMesh = 1 // simulated ribbon
)

// Geometry of the Advanced model.
const (
	AdvElbowX     = 60  // elbow, in the upper arm's space (y 0)
	AdvHandRadius = 40  // hand pivot's distance from the elbow
	AdvRibbonX    = 300 // ribbon's left column, canvas x
	AdvRibbonTop  = 100 // ribbon's top row, canvas y
	AdvRibbonStep = 20  // ribbon row spacing
	AdvRibbonRows = 7
)

// AdvArmColumns are the x positions (upper-arm space) of the arm strip's
// vertex columns; each column has a vertex at y −8 and y +8.
var AdvArmColumns = []float64{0, 20, 40, 50, 60, 70, 80, 100}

// AdvArmWeight is the true forearm weight of a column's vertices: rigid on
// the upper arm up to x 40, rigid on the forearm from x 80, linear between.
func AdvArmWeight(x float64) float64 {
	return math.Max(0, math.Min(1, (x-40)/40))
}

// AdvancedOptions chooses variants of the Advanced model.
type AdvancedOptions struct {
	// SkinWeights writes the true per-vertex weights into SKIN; without it
	// the runtime fits them.
	SkinWeights bool
}

// ForearmCarry is the forearm's carry at elbow angle deg (degrees), in the
// upper arm's space: A = H⁻¹·B·B_rest⁻¹·H_rest = T(elbow)·R(deg)·T(−elbow),
// R turning +x towards +y (the canvas is y down).
func ForearmCarry(deg float64) p2l.Affine {
	s, c := math.Sincos(deg * math.Pi / 180)
	return p2l.Affine{A: c, B: -s, C: s, D: c, TX: AdvElbowX - c*AdvElbowX, TY: -s * AdvElbowX}
}

// AdvArmAt is where the two-bone blend puts arm vertex v at elbow angle
// deg, in the upper arm's space: the exact skinned position.
func AdvArmAt(v int, deg float64) (x, y float64) {
	px, py := advArmRest(v)
	w := AdvArmWeight(px)
	fx, fy := ForearmCarry(deg).Apply(px, py)
	return (1-w)*px + w*fx, (1-w)*py + w*fy
}

func advArmRest(v int) (float64, float64) {
	y := -8.0
	if v%2 == 1 {
		y = 8
	}
	return AdvArmColumns[v/2], y
}

// Advanced returns a small model with every extension chunk:
//
//   - an arm: the upper-arm rotation deformer is the home of a strip mesh
//     skinned (SKIN) between the upper arm and a virtual forearm bone
//     (BONE), its keyforms at elbow 0°, 45°, 90° baked from the exact blend;
//   - a hand rotation deformer parented to the upper arm whose pivot is
//     keyed at 0°, 30°, 60°, 90° on the circle of radius 40 around the
//     elbow (a BONE arc);
//   - a ribbon simulated by SIMS (stretch, area, bending, long-range,
//     goals, pins, damping, wind, gravity, a static correction on the body
//     parameter, the baked swing parameter replaced) next to a fixed
//     tapered capsule and a circle following the arm's last vertex (COLL).
func Advanced(opt AdvancedOptions) *p2lrt.File {
	m := &p2lrt.File{
		Canvas: p2lrt.Canvas{Width: 400, Height: 300, PixelsPerUnit: -1},
		Parameters: []p2lrt.Parameter{
			{ID: "ParamElbow", Name: "Elbow", Min: 0, Max: 90},
			{ID: "ParamSimSwing", Name: "Swing (baked)", Min: -1, Max: 1},
			{ID: "ParamBody", Name: "Body", Min: -10, Max: 10},
		},
	}
	rotDef := func(id string, parent int, g *p2lrt.Grid[p2lrt.RotationKey]) p2lrt.Deformer {
		return p2lrt.Deformer{Kind: p2lrt.RotationDeformer, ID: id, Parent: parent, Part: -1,
			Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
			Rotation: &p2lrt.Rotation{Keyforms: g}}
	}
	upper := &p2lrt.Grid[p2lrt.RotationKey]{Cells: []p2lrt.Cell[p2lrt.RotationKey]{{Coord: []uint16{}, Value: p2lrt.RotationKey{X: 100, Y: 100, Scale: 1}}}}
	handKeys := []float32{0, 30, 60, 90}
	hand := &p2lrt.Grid[p2lrt.RotationKey]{Axes: []p2lrt.Axis{{Parameter: AdvParamElbow, Keys: handKeys}}}
	for k, deg := range handKeys {
		s, c := math.Sincos(float64(deg) * math.Pi / 180)
		hand.Cells = append(hand.Cells, p2lrt.Cell[p2lrt.RotationKey]{Coord: []uint16{uint16(k)},
			Value: p2lrt.RotationKey{X: float32(AdvElbowX + AdvHandRadius*c), Y: float32(AdvHandRadius * s), Angle: deg, Scale: 1}})
	}
	m.Deformers = []p2lrt.Deformer{rotDef("Upper", -1, upper), rotDef("Hand", AdvUpper, hand)}
	forearm := &p2lrt.Grid[p2lrt.RotationKey]{Axes: []p2lrt.Axis{{Parameter: AdvParamElbow, Keys: []float32{0, 90}}},
		Cells: []p2lrt.Cell[p2lrt.RotationKey]{
			{Coord: []uint16{0}, Value: p2lrt.RotationKey{X: AdvElbowX, Scale: 1}},
			{Coord: []uint16{1}, Value: p2lrt.RotationKey{X: AdvElbowX, Angle: 90, Scale: 1}},
		}}
	m.Bones = &p2lrt.Bones{
		Header:     p2lrt.ExtensionHeader{Feature: p2lrt.FeatureExactLinks, Hooks: p2lrt.HookFrames | p2lrt.HookBones, Deformers: []int{AdvHand}},
		Virtual:    []p2lrt.Deformer{rotDef("Forearm", AdvUpper, forearm)},
		Attachable: []p2lrt.AttachableBone{{Deformer: AdvForearm, ID: "Forearm"}, {Deformer: AdvHand, ID: "Hand"}},
		Arcs:       []p2lrt.Arc{{Deformer: AdvHand, Parameter: AdvParamElbow, CX: AdvElbowX, CY: 0}},
	}

	// The arm strip: keyforms at 0°, 45°, 90° hold the exact blend minus
	// the rest position.
	nv := 2 * len(AdvArmColumns)
	arm := advMesh("Arm", AdvUpper, nv, func(v int) (float64, float64) { return advArmRest(v) }, len(AdvArmColumns))
	armKeys := []float32{0, 45, 90}
	arm.Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: AdvParamElbow, Keys: armKeys}}}
	for k, deg := range armKeys {
		off := make([]float32, 2*nv)
		for v := 0; v < nv; v++ {
			x, y := AdvArmAt(v, float64(deg))
			px, py := advArmRest(v)
			off[2*v], off[2*v+1] = float32(x-px), float32(y-py)
		}
		arm.Keyforms.Cells = append(arm.Keyforms.Cells, p2lrt.Cell[[]float32]{Coord: []uint16{uint16(k)}, Value: off})
	}
	skin := p2lrt.Skin{Mesh: AdvArmMesh, Axes: []p2lrt.Axis{{Parameter: AdvParamElbow, Keys: armKeys}}, Bones: []int{AdvUpper, AdvForearm}}
	if opt.SkinWeights {
		for v := 0; v < nv; v++ {
			px, _ := advArmRest(v)
			skin.From = append(skin.From, 0)
			skin.To = append(skin.To, 1)
			skin.Weight = append(skin.Weight, float32(AdvArmWeight(px)))
		}
	}
	m.Skins = &p2lrt.Skins{
		Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureSkin, Hooks: p2lrt.HookMesh, DependsOn: []string{"BONE"}},
		Meshes: []p2lrt.Skin{skin},
	}

	// The ribbon: two columns 10 px apart, AdvRibbonRows rows. Keyforms on
	// body (the root follows: x + 2·body) × swing (the baked swing: row j
	// moves 15·swing·(j/6)²).
	rn := 2 * AdvRibbonRows
	ribbon := advMesh("Ribbon", -1, rn, func(v int) (float64, float64) {
		return float64(AdvRibbonX + 10*(v%2)), float64(AdvRibbonTop + AdvRibbonStep*(v/2))
	}, 2)
	bodyKeys, swingKeys := []float32{-10, 0, 10}, []float32{-1, 0, 1}
	ribbon.Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: AdvParamBody, Keys: bodyKeys}, {Parameter: AdvParamSwing, Keys: swingKeys}}}
	for bk, body := range bodyKeys {
		for sk, swing := range swingKeys {
			off := make([]float32, 2*rn)
			for v := 0; v < rn; v++ {
				j := float64(v / 2)
				off[2*v] = 2*body + float32(15*float64(swing)*(j/6)*(j/6))
				if v >= rn/2 {
					off[2*v] += 3 * body / 10 // the static correction, baked in
				}
			}
			ribbon.Keyforms.Cells = append(ribbon.Keyforms.Cells, p2lrt.Cell[[]float32]{Coord: []uint16{uint16(bk), uint16(sk)}, Value: off})
		}
	}
	m.Meshes = []p2lrt.Mesh{arm, ribbon}
	m.Parts = []p2lrt.Part{{ID: "Root", Name: "Root", Flags: p2lrt.PartVisible,
		Children:  []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: AdvArmMesh}, {Kind: p2lrt.ChildMesh, Index: AdvRibbonMesh}},
		Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}}}
	m.Draw = p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{{Mesh: AdvArmMesh}, {Mesh: AdvRibbonMesh}}}

	m.Simulations = &p2lrt.Simulations{
		Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureSim, Hooks: p2lrt.HookParameters | p2lrt.HookMesh | p2lrt.HookSimulation,
			Parameters: []int{AdvParamSwing}},
		Sims: []p2lrt.Simulation{advRibbonSim(rn)},
	}
	m.Collision = &p2lrt.Collision{
		Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureCollision, Hooks: p2lrt.HookSimulation, DependsOn: []string{"SIMS"}},
		Colliders: []p2lrt.Collider{
			{ID: "Post", Capsule: true, Deformer: -1, Mesh: -1, AX: AdvRibbonX + 22, AY: 150, BX: AdvRibbonX + 22, BY: 230, RadiusA: 4, RadiusB: 8, Friction: 0.2},
			{ID: "Fist", Deformer: -1, Mesh: AdvArmMesh, VertexA: uint32(nv - 1), VertexB: uint32(nv - 1), RadiusA: 10, RadiusB: 10},
		},
	}
	// The pendulum the baking used for the swing: body sway in, swing out.
	// The simulation replaces it (hook H1).
	m.Physics = p2lrt.Physics{Fps: 30, Groups: []p2lrt.PhysicsGroup{{ID: "Swing", Name: "Swing",
		Inputs:  []p2lrt.PhysicsInput{{Parameter: AdvParamBody, Source: p2lrt.PhysicsX, Weight: 100}},
		Outputs: []p2lrt.PhysicsOutput{{Parameter: AdvParamSwing, Vertex: 1, Source: p2lrt.PhysicsAngle, Scale: 0.05, Weight: 100}},
		Segments: []p2lrt.PhysicsSegment{
			{Length: 10, Mobility: 0.95, Delay: 0.9, Acceleration: 1.5},
		},
		Normalization: p2lrt.PhysicsNormalization{PositionMin: -10, PositionMax: 10, AngleMin: -10, AngleMax: 10},
	}}}
	m.Simulations.Header.PhysicsGroups = []int{0}
	m.Simulations.Sims[0].PhysicsGroups = []int{0}
	m.Meta = []p2lrt.MetaEntry{{Key: "generator", Value: "p2l synth.Advanced"}, {Key: "capabilities", Value: "BONE SKIN SIMS COLL"}}
	return m
}

// advMesh makes a grid-strip mesh of n vertices, cols per row, positions
// from pos.
func advMesh(id string, parent, n int, pos func(v int) (float64, float64), cols int) p2lrt.Mesh {
	me := p2lrt.Mesh{ID: id, Name: id, Parent: parent, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible, TexturePage: -1,
		Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}
	for v := 0; v < n; v++ {
		x, y := pos(v)
		me.Positions = append(me.Positions, float32(x), float32(y))
		me.UVs = append(me.UVs, float32(v%cols)/float32(max(cols-1, 1)), float32(v/cols)/float32(max(n/cols-1, 1)))
	}
	rows := n / cols
	for r := 0; r+1 < rows; r++ {
		for c := 0; c+1 < cols; c++ {
			a := uint32(r*cols + c)
			b, d, e := a+1, a+uint32(cols), a+uint32(cols)+1
			me.Indices = append(me.Indices, a, b, d, b, e, d)
		}
	}
	return me
}

// advRibbonSim is the ribbon's simulation: the top row kinematic and pinned
// to its target, the rest free with weak goals; stretch on columns and
// rungs, area on every triangle, bending across each cell's diagonal,
// long-range attachments to the column roots.
func advRibbonSim(n int) p2lrt.Simulation {
	s := p2lrt.Simulation{ID: "Ribbon", Fps: 60, Substeps: 4, GravityY: -980, PinCompliance: 0,
		Targets:    []p2lrt.SimTarget{{Mesh: AdvRibbonMesh, VertexCount: uint32(n)}},
		Parameters: []int{AdvParamSwing}, Colliders: []int{0}}
	for v := 0; v < n; v++ {
		top := v < 2
		s.InvMass = append(s.InvMass, b2f(!top))
		s.Damping = append(s.Damping, 2)
		s.WindFactor = append(s.WindFactor, 1)
		s.PinWeight = append(s.PinWeight, b2f(top))
		s.GoalCompliance = append(s.GoalCompliance, 0.05)
		s.GoalOffsetX = append(s.GoalOffsetX, 0)
		s.GoalOffsetY = append(s.GoalOffsetY, 0)
		s.AnchorMesh = append(s.AnchorMesh, math.MaxUint32)
		s.AnchorVertex = append(s.AnchorVertex, 0)
	}
	stretch := func(a, b int, rest float32) {
		s.StretchA = append(s.StretchA, uint32(a))
		s.StretchB = append(s.StretchB, uint32(b))
		s.Rest = append(s.Rest, rest)
		s.Compliance = append(s.Compliance, 0)
		s.CompressionCompliance = append(s.CompressionCompliance, 1e-3)
	}
	rows := n / 2
	for r := 0; r < rows; r++ {
		stretch(2*r, 2*r+1, 10)
		if r+1 < rows {
			stretch(2*r, 2*r+2, AdvRibbonStep)
			stretch(2*r+1, 2*r+3, AdvRibbonStep)
			// Triangles as the mesh draws them: (a, a+1, a+2), (a+1, a+3, a+2).
			a := uint32(2 * r)
			s.TriA = append(s.TriA, a, a+1)
			s.TriB = append(s.TriB, a+1, a+3)
			s.TriC = append(s.TriC, a+2, a+2)
			s.AreaCompliance = append(s.AreaCompliance, 1e-4, 1e-4)
			s.BendT1 = append(s.BendT1, uint32(2*r))
			s.BendT2 = append(s.BendT2, uint32(2*r+1))
			s.BendCompliance = append(s.BendCompliance, 1e-3)
		}
		if r > 0 {
			for c := 0; c < 2; c++ {
				s.LongParticle = append(s.LongParticle, uint32(2*r+c))
				s.LongRoot = append(s.LongRoot, uint32(c))
				s.MaxDistance = append(s.MaxDistance, float32(AdvRibbonStep*r)*1.05)
			}
		}
	}
	// A static correction the baking added on the body parameter: the lower
	// half of the ribbon leans 3 px outwards at either end of the range.
	offs := make([][]float32, 3)
	for k, sign := range []float32{-1, 0, 1} {
		offs[k] = make([]float32, 2*n)
		for v := n / 2; v < n; v++ {
			offs[k][2*v] = 3 * sign
		}
	}
	s.Corrections = []p2lrt.SimCorrection{{Parameter: AdvParamBody, Keys: []float32{-10, 0, 10},
		Meshes: []p2lrt.SimCorrectionMesh{{Mesh: AdvRibbonMesh, Offsets: offs}}}}
	return s
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// WithoutExtensions returns a shallow copy of m without its extension
// chunks (BONE, SKIN, SIMS, COLL): the same file as a Cubism-only runtime
// sees it.
func WithoutExtensions(m *p2lrt.File) *p2lrt.File {
	c := *m
	c.Bones, c.Skins, c.Simulations, c.Collision = nil, nil, nil, nil
	return &c
}
