// Package testfile builds the files the format's tests share (p2l/p2lrt's
// and p2l's): a file that sets every field of every chunk, its v1 core,
// and a field-by-field comparison of two files.
package testfile

import (
	"slices"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Full builds a file that sets every field of every chunk to a
// non-zero value where the format allows it, so a round trip that drops or
// swaps any field fails.
func Full() *p2lrt.File {
	sq := []float32{0, 0, 10, 0, 10, 10, 0, 10} // 4 vertices
	warpPts := func(d float32) []float32 {
		p := make([]float32, (1+1)*(2+1)*2) // 1 column × 2 rows
		for i := range p {
			p[i] = float32(i)*1.5 + d
		}
		return p
	}
	chans := []p2lrt.Channel{
		{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
			Axes:  []p2lrt.Axis{{Parameter: 0, Keys: []float32{-1, 0, 1}}},
			Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{0.25}}, {Coord: []uint16{2}, Value: p2lrt.ChannelValue{0.75}}}}},
		{ID: p2lrt.ChannelMultiply, Kind: p2lrt.ChannelColor, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
			Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Value: p2lrt.ChannelValue{0.5, 0.25, 0.125}}}}},
		{ID: p2lrt.ChannelFlipX, Kind: p2lrt.ChannelFlag, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
			Axes:  []p2lrt.Axis{{Parameter: 1, Keys: []float32{0, 1}}},
			Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{0}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{1}}}}},
		{ID: p2lrt.ChannelDrawOrder, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Value: p2lrt.ChannelValue{500}}}}},
	}
	limits := []p2lrt.Limit{{Parameter: 1, Points: []p2lrt.LimitPoint{{Value: 0, Weight: 0}, {Value: 0.5, Weight: 1}, {Value: 1, Weight: 0.5}}}}
	comp := p2lrt.Composite{Blend: p2lrt.BlendColor, AlphaBlend: p2lrt.AlphaDisjointOver, MaskMeshes: []int{1}, MaskParts: []int{0},
		InvertMask: true, Opacity: 0.5, Multiply: p2lrt.Color{0.9, 0.8, 0.7}, Screen: p2lrt.Color{0.1, 0.2, 0.3}}
	return &p2lrt.File{
		Canvas: p2lrt.Canvas{Width: 1024, Height: 768, OriginX: 512, OriginY: 700, PixelsPerUnit: -1},
		Parameters: []p2lrt.Parameter{
			{ID: "ParamA", Name: "Angle A", Min: -30, Max: 30, Default: 0, Blend: false, Repeat: true},
			{ID: "ParamB", Name: "B", Min: 0, Max: 1, Default: 0.5, Blend: true},
			{ID: "ParamY", Name: "Y", Min: -10, Max: 10, Default: 0},
		},
		Deformers: []p2lrt.Deformer{
			{Kind: p2lrt.WarpDeformer, ID: "W", Parent: -1, Part: 0, Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled | p2lrt.DeformerBilinear,
				Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Color{0.01, 0.02, 0.03}, Channels: chans[:2],
				Warp: &p2lrt.Warp{Columns: 1, Rows: 2,
					Keyforms: &p2lrt.Grid[[]float32]{
						Axes:  []p2lrt.Axis{{Parameter: 0, Keys: []float32{-30, 0, 30}}, {Parameter: 1, Keys: []float32{0, 1}}},
						Cells: []p2lrt.Cell[[]float32]{{Coord: []uint16{1, 0}, Value: warpPts(0)}, {Coord: []uint16{2, 1}, Value: warpPts(3)}}},
					Shapes: []p2lrt.Binding[p2lrt.WarpShape]{{Parameter: 1, Keys: []float32{0, 0.5, 1}, Neutral: 0,
						Present: []bool{false, true, true},
						Shapes: []p2lrt.WarpShape{{}, {Points: warpPts(1), Opacity: 0.5, Multiply: p2lrt.Color{1, 0.5, 1}, Screen: p2lrt.Color{0, 0.5, 0}},
							{Points: warpPts(2), Opacity: 1, Multiply: p2lrt.White}},
						Limits: limits}}}},
			{Kind: p2lrt.RotationDeformer, ID: "R", Parent: 0, Part: -1, Flags: p2lrt.DeformerFlipX | p2lrt.DeformerFlipY | p2lrt.DeformerEnabled,
				Opacity: 0.75, Multiply: p2lrt.Color{1, 1, 0.5}, Screen: p2lrt.Black, Channels: chans[2:3],
				Rotation: &p2lrt.Rotation{BaseAngle: 90,
					Keyforms: &p2lrt.Grid[p2lrt.RotationKey]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{-30, 30}}},
						Cells: []p2lrt.Cell[p2lrt.RotationKey]{{Coord: []uint16{0}, Value: p2lrt.RotationKey{X: 1, Y: 2, Angle: -15, Scale: 1}}, {Coord: []uint16{1}, Value: p2lrt.RotationKey{X: 3, Y: 4, Angle: 15, Scale: 1.25}}}},
					Shapes: []p2lrt.Binding[p2lrt.RotationShape]{{Parameter: 0, Keys: []float32{-30, 30}, Neutral: 1,
						Present: []bool{true, false},
						Shapes:  []p2lrt.RotationShape{{X: 1, Y: 2, Angle: 3, Scale: 4, FlipX: 1, FlipY: 0, Opacity: 0.5, Multiply: p2lrt.White, Screen: p2lrt.Black}, {}}}}}},
		},
		Parts: []p2lrt.Part{
			{ID: "Root", Name: "Root part", Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated, DrawOrder: 500,
				Children: []p2lrt.PartChild{{Kind: p2lrt.ChildPart, Index: 1}, {Kind: p2lrt.ChildMesh, Index: 0}}, Channels: chans[3:], Composite: comp,
				Shapes: []p2lrt.Binding[p2lrt.PartShape]{{Parameter: 1, Keys: []float32{0, 1}, Neutral: 0, Present: []bool{true, true},
					Shapes: []p2lrt.PartShape{{DrawOrder: 400, Opacity: 1, Multiply: p2lrt.White}, {DrawOrder: 600, Opacity: 0.5, Multiply: p2lrt.White, Screen: p2lrt.Color{0.5, 0, 0}}}}}},
			{ID: "Child", Name: "", Flags: p2lrt.PartVisible | p2lrt.PartSketch, GroupMode: p2lrt.GroupSorted, DrawOrder: -3,
				Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 1}}, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}},
		},
		Meshes: []p2lrt.Mesh{
			{ID: "M0", Name: "Face", Parent: 1, Blend: p2lrt.BlendMultiply, AlphaBlend: p2lrt.AlphaAtop, Masks: []int{1},
				Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible | p2lrt.MeshCulling | p2lrt.MeshInvertMask, TexturePage: 0,
				Positions: sq, UVs: []float32{0, 0, 1, 0, 1, 1, 0, 1}, Indices: []uint32{0, 1, 2, 0, 2, 3},
				Keyforms: &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0}}},
					Cells: []p2lrt.Cell[[]float32]{{Coord: []uint16{0}, Value: []float32{1, 1, 2, 2, 3, 3, 4, 4}}}},
				Channels: chans[:1], DrawOrder: 500, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
				Shapes: []p2lrt.Binding[p2lrt.MeshShape]{{Parameter: 1, Keys: []float32{0, 1}, Neutral: 0, Present: []bool{false, true},
					Shapes: []p2lrt.MeshShape{{}, {Deltas: []float32{0.5, 0, 0, 0.5, 0, 0, 0.25, 0.25}, DrawOrder: 10, Opacity: 0.5, Multiply: p2lrt.White, Screen: p2lrt.Black}},
					Limits: limits}}},
			{ID: "M1", Name: "Mask", Parent: -1, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible, TexturePage: 1,
				Positions: []float32{0, 0, 5, 0, 0, 5}, UVs: []float32{0.5, 0.5, 0.75, 0.5, 0.5, 0.75}, Indices: []uint32{0, 1, 2},
				Opacity: 1, Multiply: p2lrt.White},
			{ID: "Empty", Parent: -1, TexturePage: -1, Flags: p2lrt.MeshVisible, Opacity: 1},
		},
		Glues: []p2lrt.Glue{{ID: "G", MeshA: 0, MeshB: 1, Intensity: 0.5,
			Pairs: []p2lrt.GluePair{{A: 0, B: 1, WeightA: 0.25, WeightB: 0.75}, {A: 3, B: 2, WeightA: 0.5, WeightB: 0.5}},
			Channels: []p2lrt.Channel{{ID: p2lrt.ChannelGlueIntensity, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
				Axes: []p2lrt.Axis{{Parameter: 1, Keys: []float32{0, 1}}}, Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{1}, Value: p2lrt.ChannelValue{0.3}}}}}}}},
		Draw: p2lrt.DrawGroup{Part: -1, DrawOrder: 0, Children: []p2lrt.DrawNode{
			{Group: &p2lrt.DrawGroup{Part: 0, DrawOrder: 500, Channels: chans[3:], Composite: &comp,
				Children: []p2lrt.DrawNode{{Mesh: 0}, {Group: &p2lrt.DrawGroup{Part: 1, DrawOrder: 7, Children: []p2lrt.DrawNode{{Mesh: 1}}}}}}},
			{Mesh: 2},
		}},
		Textures: []p2lrt.TexturePage{
			{Kind: p2lrt.TexturePNG, Width: 2, Height: 2, Data: []byte("\x89PNG fake payload")},
			{Kind: p2lrt.TextureKTX2, Width: 4, Height: 4, Data: []byte("\xabKTX 20\xbb\r\n\x1a\n")},
			{Kind: p2lrt.TextureExternal, Width: 8, Height: 8, URI: "pages/body.png"},
		},
		Physics: p2lrt.Physics{Fps: 30, Groups: []p2lrt.PhysicsGroup{{ID: "Hair", Name: "Hair front",
			Inputs:        []p2lrt.PhysicsInput{{Parameter: 0, Source: p2lrt.PhysicsX, Weight: 60, Reflect: true}, {Parameter: 1, Source: p2lrt.PhysicsAngle, Weight: 40}, {Parameter: 2, Source: p2lrt.PhysicsY, Weight: 10}},
			Outputs:       []p2lrt.PhysicsOutput{{Parameter: 1, Vertex: 1, Source: p2lrt.PhysicsAngle, Scale: 1.5, Weight: 100, Reflect: true}, {Parameter: 2, Vertex: 1, Source: p2lrt.PhysicsY, Scale: 2, Weight: 50}},
			Segments:      []p2lrt.PhysicsSegment{{Length: 10, Mobility: 0.95, Delay: 0.9, Acceleration: 1.5}},
			Normalization: p2lrt.PhysicsNormalization{PositionMin: -10, PositionMax: 10, PositionDefault: 0.5, AngleMin: -10, AngleMax: 10, AngleDefault: 1},
		}}},
		Clips: []p2lrt.Clip{
			{ID: "Idle", Name: "Idle motion", Group: "Idle", Duration: 3, Fps: 30, Loop: true, FadeIn: 0.5, FadeOut: 0.25,
				Curves: []p2lrt.ParameterCurve{
					{Parameter: 0, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}, Segments: []p2lrt.Segment{
						{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 10}},
						{Kind: p2lrt.SegmentBezier, C1: p2lrt.Point{T: 1.3, V: 10}, C2: p2lrt.Point{T: 1.6, V: -5}, End: p2lrt.Point{T: 2, V: -10}},
						{Kind: p2lrt.SegmentStepped, End: p2lrt.Point{T: 2.5, V: 3}},
						{Kind: p2lrt.SegmentInverseStepped, End: p2lrt.Point{T: 3, V: 0}}}}},
					{Parameter: 1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 1}}},
				},
				Events:       []p2lrt.Event{{Time: 0.5, Value: "step"}, {Time: 0.5, Value: "step2"}, {Time: 2, Value: ""}},
				TargetCurves: []p2lrt.TargetCurve{{Target: p2lrt.TargetPartOpacity, Part: 1, FadeIn: -1, FadeOut: 0.5, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 1}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 0}}}}}, {Target: p2lrt.TargetLipSync, Part: -1, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0.5}}}},
				CurveFades:   []p2lrt.CurveFade{{Curve: 1, FadeIn: 0.2, FadeOut: -1}}},
			{ID: "Tap", Duration: 1, Curves: []p2lrt.ParameterCurve{{Parameter: 2, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 1}}}}}}},
		},
		Roles: []p2lrt.Role{{Name: "EyeBlink", Parameters: []int{1, 2}}, {Name: "LipSync", Parameters: []int{0}}},
		GUI: &p2lrt.GUI{
			Snaps:     []p2lrt.Snap{{Parameter: 0, Keys: []float32{-30, 0, 30}}},
			Joysticks: []p2lrt.Joystick{{Horizontal: 0, Vertical: 2}},
			Tree: []p2lrt.GUINode{
				{Kind: p2lrt.GUIGroup, Open: true, Label: p2lrt.GUILabelCustom, Parameter: -1, ID: "g1", Name: "Head", ARGB: 0xff102030,
					Children: []p2lrt.GUINode{{Kind: p2lrt.GUIParameter, Parameter: 0}, {Kind: p2lrt.GUIGroup, Label: p2lrt.GUILabelPreset, Parameter: -1, ID: "g2", Preset: "eyes",
						Children: []p2lrt.GUINode{{Kind: p2lrt.GUIParameter, Parameter: 1}}}}},
				{Kind: p2lrt.GUIParameter, Parameter: 2},
			},
		},
		Meta:        []p2lrt.MetaEntry{{Key: "generator", Value: "p2l test"}, {Key: "capabilities", Value: "BONE SKIN COLL SIMS"}},
		Expressions: []p2lrt.Expression{{ID: "smile", Name: "Smile", FadeIn: 0.5, FadeOut: 0.5, Entries: []p2lrt.ExpressionEntry{{Parameter: 0, Blend: p2lrt.ExpressionAdd, Value: 1}, {Parameter: 1, Blend: p2lrt.ExpressionMultiply, Value: 2}, {Parameter: 2, Blend: p2lrt.ExpressionOverwrite, Value: -3}}}},
		HitAreas:    []p2lrt.HitArea{{ID: "HitAreaHead", Name: "Head", Meshes: []int{0, 1}}},
		UserData:    []p2lrt.UserData{{Kind: 0, Target: 1, Value: "mask layer"}},
		Pose:        &p2lrt.Pose{FadeIn: 0.5, Groups: []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: 0, Linked: []int{1}}, {Part: 1}}}}},
		Bones: &p2lrt.Bones{
			Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureExactLinks, Hooks: p2lrt.HookFrames | p2lrt.HookBones, Deformers: []int{1}, DependsOn: []string{"DEFM"}},
			Virtual: []p2lrt.Deformer{{Kind: p2lrt.RotationDeformer, ID: "VB", Parent: 1, Part: -1, Flags: p2lrt.DeformerEnabled, Opacity: 1, Multiply: p2lrt.White,
				Rotation: &p2lrt.Rotation{BaseAngle: 0, Keyforms: &p2lrt.Grid[p2lrt.RotationKey]{Cells: []p2lrt.Cell[p2lrt.RotationKey]{{Value: p2lrt.RotationKey{X: 0, Y: 5, Angle: 0, Scale: 1}}}}}}},
			Attachable: []p2lrt.AttachableBone{{Deformer: 1, ID: "R"}, {Deformer: 2, ID: "VB"}},
			Arcs:       []p2lrt.Arc{{Deformer: 1, Parameter: 0, CX: 3, CY: -4}},
		},
		Skins: &p2lrt.Skins{
			Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureSkin, Hooks: p2lrt.HookMesh, Replaced: []p2lrt.ReplacedContribution{{Mesh: 0, AxisParameters: []int{0}, Bindings: []uint32{0}}}, DependsOn: []string{"BONE"}},
			Meshes: []p2lrt.Skin{{Mesh: 0, Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{-30, 0, 30}}}, Bones: []int{1, 2},
				From: []uint32{0, 0, 1, 1}, To: []uint32{1, 1, 0, 0}, Weight: []float32{0, 0.25, 0.5, 1}}},
		},
		Collision: &p2lrt.Collision{
			Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureCollision, Hooks: p2lrt.HookSimulation, DependsOn: []string{"SIMS"}},
			Colliders: []p2lrt.Collider{
				{ID: "c0", Capsule: true, Deformer: -1, Mesh: 0, VertexA: 1, VertexB: 3, RadiusA: 5, RadiusB: 2, Friction: 0.5},
				{ID: "c1", Deformer: 2, Mesh: -1, AX: 1, AY: 2, BX: 3, BY: 4, RadiusA: 1, RadiusB: 1, Friction: 0},
			},
		},
		Simulations: &p2lrt.Simulations{
			Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureSim, Hooks: p2lrt.HookParameters | p2lrt.HookMesh | p2lrt.HookSimulation, Parameters: []int{2}, PhysicsGroups: []int{0}},
			Sims: []p2lrt.Simulation{{ID: "skirt", Fps: 60, Substeps: 4, GravityX: 0, GravityY: -9.8, WindX: 1, WindY: 0, PinCompliance: 0.001,
				Targets: []p2lrt.SimTarget{{Mesh: 1, VertexCount: 3}},
				InvMass: []float32{0, 1, 1}, Damping: []float32{0.1, 0.1, 0.1}, WindFactor: []float32{1, 1, 1}, PinWeight: []float32{1, 0, 0},
				GoalCompliance: []float32{-1, 0.5, 0.5}, GoalOffsetX: []float32{0, 1, 2}, GoalOffsetY: []float32{0, -1, -2},
				AnchorMesh: []uint32{0xFFFFFFFF, 0, 0xFFFFFFFF}, AnchorVertex: []uint32{0, 3, 1},
				StretchA: []uint32{0, 1}, StretchB: []uint32{1, 2}, Rest: []float32{5, 5}, Compliance: []float32{0, 0}, CompressionCompliance: []float32{-1, 0.1},
				TriA: []uint32{0}, TriB: []uint32{1}, TriC: []uint32{2}, AreaCompliance: []float32{0.01},
				BendT1: []uint32{0}, BendT2: []uint32{0}, BendCompliance: []float32{0.5},
				WeldA: []uint32{1}, WeldB: []uint32{2}, WeightA: []float32{0.5}, WeightB: []float32{0.5}, WeldCompliance: []float32{0},
				LongParticle: []uint32{2}, LongRoot: []uint32{0}, MaxDistance: []float32{12},
				Parameters: []int{2}, PhysicsGroups: []int{0},
				Corrections: []p2lrt.SimCorrection{{Parameter: 2, Keys: []float32{-10, 10}, Meshes: []p2lrt.SimCorrectionMesh{{Mesh: 1, Offsets: [][]float32{{1, 2, 3, 4, 5, 6}, {0, 0, 0, 0, 0, 0.5}}}}}},
				Colliders:   []int{0, 1},
			}},
		},
	}
}

// Core is Full without anything v1 cannot keep.
func Core() *p2lrt.File {
	m := Full()
	m.GUI, m.Meta, m.Expressions, m.HitAreas, m.UserData, m.Pose = nil, nil, nil, nil, nil, nil
	m.Bones, m.Skins, m.Collision, m.Simulations = nil, nil, nil, nil
	m.Textures = m.Textures[:1]
	m.Meshes[1].TexturePage = 0
	// v1's PHYS has no Y source: drop the inputs and outputs with one.
	for i := range m.Physics.Groups {
		g := &m.Physics.Groups[i]
		g.Inputs = slices.DeleteFunc(g.Inputs, func(in p2lrt.PhysicsInput) bool { return in.Source == p2lrt.PhysicsY })
		g.Outputs = slices.DeleteFunc(g.Outputs, func(o p2lrt.PhysicsOutput) bool { return o.Source == p2lrt.PhysicsY })
	}
	for i := range m.Clips {
		m.Clips[i].Events, m.Clips[i].TargetCurves, m.Clips[i].CurveFades = nil, nil, nil
	}
	return m
}
