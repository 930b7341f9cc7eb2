package p2l

// fullModel builds a model that sets every field of every chunk to a
// non-zero value where the format allows it, so a round trip that drops or
// swaps any field fails.
func fullModel() *Model {
	sq := []float32{0, 0, 10, 0, 10, 10, 0, 10} // 4 vertices
	warpPts := func(d float32) []float32 {
		p := make([]float32, (1+1)*(2+1)*2) // 1 column × 2 rows
		for i := range p {
			p[i] = float32(i)*1.5 + d
		}
		return p
	}
	chans := []Channel{
		{ID: ChannelOpacity, Kind: ChannelScalar, Grid: &Grid[ChannelValue]{
			Axes:  []Axis{{Parameter: 0, Keys: []float32{-1, 0, 1}}},
			Cells: []Cell[ChannelValue]{{Coord: []uint16{0}, Value: ChannelValue{0.25}}, {Coord: []uint16{2}, Value: ChannelValue{0.75}}}}},
		{ID: ChannelMultiply, Kind: ChannelColor, Grid: &Grid[ChannelValue]{
			Cells: []Cell[ChannelValue]{{Value: ChannelValue{0.5, 0.25, 0.125}}}}},
		{ID: ChannelFlipX, Kind: ChannelFlag, Grid: &Grid[ChannelValue]{
			Axes:  []Axis{{Parameter: 1, Keys: []float32{0, 1}}},
			Cells: []Cell[ChannelValue]{{Coord: []uint16{0}, Value: ChannelValue{0}}, {Coord: []uint16{1}, Value: ChannelValue{1}}}}},
		{ID: ChannelDrawOrder, Kind: ChannelScalar, Grid: &Grid[ChannelValue]{Cells: []Cell[ChannelValue]{{Value: ChannelValue{500}}}}},
	}
	limits := []Limit{{Parameter: 1, Points: []LimitPoint{{0, 0}, {0.5, 1}, {1, 0.5}}}}
	comp := Composite{Blend: BlendColor, AlphaBlend: AlphaDisjointOver, MaskMeshes: []int{1}, MaskParts: []int{0},
		InvertMask: true, Opacity: 0.5, Multiply: Color{0.9, 0.8, 0.7}, Screen: Color{0.1, 0.2, 0.3}}
	return &Model{
		Canvas: Canvas{Width: 1024, Height: 768, OriginX: 512, OriginY: 700, PixelsPerUnit: -1},
		Parameters: []Parameter{
			{ID: "ParamA", Name: "Angle A", Min: -30, Max: 30, Default: 0, Blend: false, Repeat: true},
			{ID: "ParamB", Name: "B", Min: 0, Max: 1, Default: 0.5, Blend: true},
			{ID: "ParamY", Name: "Y", Min: -10, Max: 10, Default: 0},
		},
		Deformers: []Deformer{
			{Kind: WarpDeformer, ID: "W", Parent: -1, Part: 0, Flags: DeformerVisible | DeformerEnabled | DeformerBilinear,
				Opacity: 1, Multiply: White, Screen: Color{0.01, 0.02, 0.03}, Channels: chans[:2],
				Warp: &Warp{Columns: 1, Rows: 2,
					Keyforms: &Grid[[]float32]{
						Axes:  []Axis{{Parameter: 0, Keys: []float32{-30, 0, 30}}, {Parameter: 1, Keys: []float32{0, 1}}},
						Cells: []Cell[[]float32]{{Coord: []uint16{1, 0}, Value: warpPts(0)}, {Coord: []uint16{2, 1}, Value: warpPts(3)}}},
					Shapes: []Binding[WarpShape]{{Parameter: 1, Keys: []float32{0, 0.5, 1}, Neutral: 0,
						Present: []bool{false, true, true},
						Shapes: []WarpShape{{}, {Points: warpPts(1), Opacity: 0.5, Multiply: Color{1, 0.5, 1}, Screen: Color{0, 0.5, 0}},
							{Points: warpPts(2), Opacity: 1, Multiply: White}},
						Limits: limits}}}},
			{Kind: RotationDeformer, ID: "R", Parent: 0, Part: -1, Flags: DeformerFlipX | DeformerFlipY | DeformerEnabled,
				Opacity: 0.75, Multiply: Color{1, 1, 0.5}, Screen: Black, Channels: chans[2:3],
				Rotation: &Rotation{BaseAngle: 90,
					Keyforms: &Grid[RotationKey]{Axes: []Axis{{Parameter: 0, Keys: []float32{-30, 30}}},
						Cells: []Cell[RotationKey]{{Coord: []uint16{0}, Value: RotationKey{1, 2, -15, 1}}, {Coord: []uint16{1}, Value: RotationKey{3, 4, 15, 1.25}}}},
					Shapes: []Binding[RotationShape]{{Parameter: 0, Keys: []float32{-30, 30}, Neutral: 1,
						Present: []bool{true, false},
						Shapes:  []RotationShape{{X: 1, Y: 2, Angle: 3, Scale: 4, FlipX: 1, FlipY: 0, Opacity: 0.5, Multiply: White, Screen: Black}, {}}}}}},
		},
		Parts: []Part{
			{ID: "Root", Name: "Root part", Flags: PartVisible, GroupMode: GroupIsolated, DrawOrder: 500,
				Children: []PartChild{{ChildPart, 1}, {ChildMesh, 0}}, Channels: chans[3:], Composite: comp,
				Shapes: []Binding[PartShape]{{Parameter: 1, Keys: []float32{0, 1}, Neutral: 0, Present: []bool{true, true},
					Shapes: []PartShape{{DrawOrder: 400, Opacity: 1, Multiply: White}, {DrawOrder: 600, Opacity: 0.5, Multiply: White, Screen: Color{0.5, 0, 0}}}}}},
			{ID: "Child", Name: "", Flags: PartVisible | PartSketch, GroupMode: GroupSorted, DrawOrder: -3,
				Children: []PartChild{{ChildMesh, 1}}, Composite: Composite{Opacity: 1, Multiply: White}},
		},
		Meshes: []Mesh{
			{ID: "M0", Name: "Face", Parent: 1, Blend: BlendMultiply, AlphaBlend: AlphaAtop, Masks: []int{1},
				Flags: MeshGeometry | MeshVisible | MeshCulling | MeshInvertMask, TexturePage: 0,
				Positions: sq, UVs: []float32{0, 0, 1, 0, 1, 1, 0, 1}, Indices: []uint32{0, 1, 2, 0, 2, 3},
				Keyforms: &Grid[[]float32]{Axes: []Axis{{Parameter: 0, Keys: []float32{0}}},
					Cells: []Cell[[]float32]{{Coord: []uint16{0}, Value: []float32{1, 1, 2, 2, 3, 3, 4, 4}}}},
				Channels: chans[:1], DrawOrder: 500, Opacity: 1, Multiply: White, Screen: Black,
				Shapes: []Binding[MeshShape]{{Parameter: 1, Keys: []float32{0, 1}, Neutral: 0, Present: []bool{false, true},
					Shapes: []MeshShape{{}, {Deltas: []float32{0.5, 0, 0, 0.5, 0, 0, 0.25, 0.25}, DrawOrder: 10, Opacity: 0.5, Multiply: White, Screen: Black}},
					Limits: limits}}},
			{ID: "M1", Name: "Mask", Parent: -1, Flags: MeshGeometry | MeshVisible, TexturePage: 1,
				Positions: []float32{0, 0, 5, 0, 0, 5}, UVs: []float32{0.5, 0.5, 0.75, 0.5, 0.5, 0.75}, Indices: []uint32{0, 1, 2},
				Opacity: 1, Multiply: White},
			{ID: "Empty", Parent: -1, TexturePage: -1, Flags: MeshVisible, Opacity: 1},
		},
		Glues: []Glue{{ID: "G", MeshA: 0, MeshB: 1, Intensity: 0.5,
			Pairs: []GluePair{{0, 1, 0.25, 0.75}, {3, 2, 0.5, 0.5}},
			Channels: []Channel{{ID: ChannelGlueIntensity, Kind: ChannelScalar, Grid: &Grid[ChannelValue]{
				Axes: []Axis{{Parameter: 1, Keys: []float32{0, 1}}}, Cells: []Cell[ChannelValue]{{Coord: []uint16{1}, Value: ChannelValue{0.3}}}}}}}},
		Draw: DrawGroup{Part: -1, DrawOrder: 0, Children: []DrawNode{
			{Group: &DrawGroup{Part: 0, DrawOrder: 500, Channels: chans[3:], Composite: &comp,
				Children: []DrawNode{{Mesh: 0}, {Group: &DrawGroup{Part: 1, DrawOrder: 7, Children: []DrawNode{{Mesh: 1}}}}}}},
			{Mesh: 2},
		}},
		Textures: []TexturePage{
			{Kind: TexturePNG, Width: 2, Height: 2, Data: []byte("\x89PNG fake payload")},
			{Kind: TextureKTX2, Width: 4, Height: 4, Data: []byte("\xabKTX 20\xbb\r\n\x1a\n")},
			{Kind: TextureExternal, Width: 8, Height: 8, URI: "pages/body.png"},
		},
		Physics: Physics{Fps: 30, Groups: []PhysicsGroup{{ID: "Hair", Name: "Hair front",
			Inputs:        []PhysicsInput{{Parameter: 0, Source: PhysicsX, Weight: 60, Reflect: true}, {Parameter: 1, Source: PhysicsAngle, Weight: 40}, {Parameter: 2, Source: PhysicsY, Weight: 10}},
			Outputs:       []PhysicsOutput{{Parameter: 1, Vertex: 1, Source: PhysicsAngle, Scale: 1.5, Weight: 100, Reflect: true}, {Parameter: 2, Vertex: 1, Source: PhysicsY, Scale: 2, Weight: 50}},
			Segments:      []PhysicsSegment{{Length: 10, Mobility: 0.95, Delay: 0.9, Acceleration: 1.5}},
			Normalization: PhysicsNormalization{PositionMin: -10, PositionMax: 10, PositionDefault: 0.5, AngleMin: -10, AngleMax: 10, AngleDefault: 1},
		}}},
		Clips: []Clip{
			{ID: "Idle", Name: "Idle motion", Group: "Idle", Duration: 3, Fps: 30, Loop: true, FadeIn: 0.5, FadeOut: 0.25,
				Curves: []ParameterCurve{
					{Parameter: 0, Curve: Curve{Start: Point{0, 0}, Segments: []Segment{
						{Kind: SegmentLinear, End: Point{1, 10}},
						{Kind: SegmentBezier, C1: Point{1.3, 10}, C2: Point{1.6, -5}, End: Point{2, -10}},
						{Kind: SegmentStepped, End: Point{2.5, 3}},
						{Kind: SegmentInverseStepped, End: Point{3, 0}}}}},
					{Parameter: 1, Curve: Curve{Start: Point{0, 1}}},
				},
				Events:       []Event{{0.5, "step"}, {0.5, "step2"}, {2, ""}},
				TargetCurves: []TargetCurve{{Target: TargetPartOpacity, Part: 1, FadeIn: -1, FadeOut: 0.5, Curve: Curve{Start: Point{0, 1}, Segments: []Segment{{Kind: SegmentLinear, End: Point{1, 0}}}}}, {Target: TargetLipSync, Part: -1, Curve: Curve{Start: Point{0, 0.5}}}},
				CurveFades:   []CurveFade{{Curve: 1, FadeIn: 0.2, FadeOut: -1}}},
			{ID: "Tap", Duration: 1, Curves: []ParameterCurve{{Parameter: 2, Curve: Curve{Start: Point{0, 0}, Segments: []Segment{{Kind: SegmentLinear, End: Point{1, 1}}}}}}},
		},
		Roles: []Role{{Name: "EyeBlink", Parameters: []int{1, 2}}, {Name: "LipSync", Parameters: []int{0}}},
		GUI: &GUI{
			Snaps:     []Snap{{Parameter: 0, Keys: []float32{-30, 0, 30}}},
			Joysticks: []Joystick{{Horizontal: 0, Vertical: 2}},
			Tree: []GUINode{
				{Kind: GUIGroup, Open: true, Label: GUILabelCustom, Parameter: -1, ID: "g1", Name: "Head", ARGB: 0xff102030,
					Children: []GUINode{{Kind: GUIParameter, Parameter: 0}, {Kind: GUIGroup, Label: GUILabelPreset, Parameter: -1, ID: "g2", Preset: "eyes",
						Children: []GUINode{{Kind: GUIParameter, Parameter: 1}}}}},
				{Kind: GUIParameter, Parameter: 2},
			},
		},
		Meta:        []MetaEntry{{"generator", "p2l test"}, {"capabilities", "BONE SKIN COLL SIMS"}},
		Expressions: []Expression{{ID: "smile", Name: "Smile", FadeIn: 0.5, FadeOut: 0.5, Entries: []ExpressionEntry{{0, ExpressionAdd, 1}, {1, ExpressionMultiply, 2}, {2, ExpressionOverwrite, -3}}}},
		HitAreas:    []HitArea{{ID: "HitAreaHead", Name: "Head", Meshes: []int{0, 1}}},
		UserData:    []UserData{{Kind: 0, Target: 1, Value: "mask layer"}},
		Pose:        &Pose{FadeIn: 0.5, Groups: []PoseGroup{{Entries: []PoseEntry{{Part: 0, Linked: []int{1}}, {Part: 1}}}}},
		Bones: &Bones{
			Header: ExtensionHeader{Feature: FeatureExactLinks, Hooks: HookFrames | HookBones, Deformers: []int{1}, DependsOn: []string{"DEFM"}},
			Virtual: []Deformer{{Kind: RotationDeformer, ID: "VB", Parent: 1, Part: -1, Flags: DeformerEnabled, Opacity: 1, Multiply: White,
				Rotation: &Rotation{BaseAngle: 0, Keyforms: &Grid[RotationKey]{Cells: []Cell[RotationKey]{{Value: RotationKey{0, 5, 0, 1}}}}}}},
			Attachable: []AttachableBone{{Deformer: 1, ID: "R"}, {Deformer: 2, ID: "VB"}},
			Arcs:       []Arc{{Deformer: 1, Parameter: 0, CX: 3, CY: -4}},
		},
		Skins: &Skins{
			Header: ExtensionHeader{Feature: FeatureSkin, Hooks: HookMesh, Replaced: []ReplacedContribution{{Mesh: 0, AxisParameters: []int{0}, Bindings: []uint32{0}}}, DependsOn: []string{"BONE"}},
			Meshes: []Skin{{Mesh: 0, Axes: []Axis{{Parameter: 0, Keys: []float32{-30, 0, 30}}}, Bones: []int{1, 2},
				From: []uint32{0, 0, 1, 1}, To: []uint32{1, 1, 0, 0}, Weight: []float32{0, 0.25, 0.5, 1}}},
		},
		Collision: &Collision{
			Header: ExtensionHeader{Feature: FeatureCollision, Hooks: HookSimulation, DependsOn: []string{"SIMS"}},
			Colliders: []Collider{
				{ID: "c0", Capsule: true, Deformer: -1, Mesh: 0, VertexA: 1, VertexB: 3, RadiusA: 5, RadiusB: 2, Friction: 0.5},
				{ID: "c1", Deformer: 2, Mesh: -1, AX: 1, AY: 2, BX: 3, BY: 4, RadiusA: 1, RadiusB: 1, Friction: 0},
			},
		},
		Simulations: &Simulations{
			Header: ExtensionHeader{Feature: FeatureSim, Hooks: HookParameters | HookMesh | HookSimulation, Parameters: []int{2}, PhysicsGroups: []int{0}},
			Sims: []Simulation{{ID: "skirt", Fps: 60, Substeps: 4, GravityX: 0, GravityY: -9.8, WindX: 1, WindY: 0, PinCompliance: 0.001,
				Targets: []SimTarget{{Mesh: 1, VertexCount: 3}},
				InvMass: []float32{0, 1, 1}, Damping: []float32{0.1, 0.1, 0.1}, WindFactor: []float32{1, 1, 1}, PinWeight: []float32{1, 0, 0},
				GoalCompliance: []float32{-1, 0.5, 0.5}, GoalOffsetX: []float32{0, 1, 2}, GoalOffsetY: []float32{0, -1, -2},
				AnchorMesh: []uint32{0xFFFFFFFF, 0, 0xFFFFFFFF}, AnchorVertex: []uint32{0, 3, 1},
				StretchA: []uint32{0, 1}, StretchB: []uint32{1, 2}, Rest: []float32{5, 5}, Compliance: []float32{0, 0}, CompressionCompliance: []float32{-1, 0.1},
				TriA: []uint32{0}, TriB: []uint32{1}, TriC: []uint32{2}, AreaCompliance: []float32{0.01},
				BendT1: []uint32{0}, BendT2: []uint32{0}, BendCompliance: []float32{0.5},
				WeldA: []uint32{1}, WeldB: []uint32{2}, WeightA: []float32{0.5}, WeightB: []float32{0.5}, WeldCompliance: []float32{0},
				LongParticle: []uint32{2}, LongRoot: []uint32{0}, MaxDistance: []float32{12},
				Parameters: []int{2}, PhysicsGroups: []int{0},
				Corrections: []SimCorrection{{Parameter: 2, Keys: []float32{-10, 10}, Meshes: []SimCorrectionMesh{{Mesh: 1, Offsets: [][]float32{{1, 2, 3, 4, 5, 6}, {0, 0, 0, 0, 0, 0.5}}}}}},
				Colliders:   []int{0, 1},
			}},
		},
	}
}

// coreModel is fullModel without anything v1 cannot keep.
func coreModel() *Model {
	m := fullModel()
	m.GUI, m.Meta, m.Expressions, m.HitAreas, m.UserData, m.Pose = nil, nil, nil, nil, nil, nil
	m.Bones, m.Skins, m.Collision, m.Simulations = nil, nil, nil, nil
	m.Textures = m.Textures[:1]
	m.Meshes[1].TexturePage = 0
	m.Physics = physicsWithoutY(&m.Physics)
	for i := range m.Clips {
		m.Clips[i].Events, m.Clips[i].TargetCurves, m.Clips[i].CurveFades = nil, nil, nil
	}
	return m
}
