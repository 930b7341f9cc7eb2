package moc3write

// Example returns a small model that uses every section version v can
// store: a one-parameter and a two-parameter keyform grid, nested
// deformers (warp → rotation → warp), masks and an inverted mask, glue, a
// nested draw-order group and, as the version allows, keyform colours,
// blend shapes with constraints, parameter keys and types, 5.3 blend modes
// and an offscreen part. Each call returns a new model.
func Example(v uint8) *Model {
	colors := func(r float32) *Colors {
		if v < V42 {
			return nil
		}
		return &Colors{Multiply: [3]float32{r, 0.5, 0.25}, Screen: [3]float32{0.125, r / 2, 0}}
	}
	quad := [][2]float32{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}
	shift := func(dx float32) [][2]float32 {
		p := make([][2]float32, len(quad))
		for i, q := range quad {
			p[i] = [2]float32{q[0] + dx, q[1]}
		}
		return p
	}
	grid := func(dx float32) [][2]float32 { // 1 row x 2 columns = 2x3 points
		var p [][2]float32
		for y := range 2 {
			for x := range 3 {
				p = append(p, [2]float32{float32(x) + dx, float32(y)})
			}
		}
		return p
	}
	m := &Model{
		Canvas: Canvas{PixelsPerUnit: 1000, OriginX: 500, OriginY: 600, Width: 1000, Height: 1200, Flags: 1},
		Parameters: []Parameter{
			{ID: "ParamAngleX", Min: -30, Max: 30, Default: 0, DecimalPlaces: 1},
			{ID: "ParamEyeLOpen", Min: 0, Max: 1, Default: 1, DecimalPlaces: 2},
			{ID: "ParamLoop", Min: -180, Max: 180, Default: 0, Repeat: true},
		},
		Parts: []Part{
			{ID: "PartRoot", Parent: -1, Visible: true, Enabled: true, Keyforms: []PartKeyform{{DrawOrder: 500}}},
			{ID: "PartFace", Parent: 0, Visible: true, Enabled: false,
				Axes:     []Axis{{Parameter: 1, Keys: []float32{0, 1}}},
				Keyforms: []PartKeyform{{DrawOrder: 400}, {DrawOrder: 600}}},
		},
		Deformers: []Deformer{
			{ID: "WarpBody", Visible: true, Enabled: true, ParentPart: 0, ParentDeformer: -1,
				Axes: []Axis{{Parameter: 0, Keys: []float32{-30, 0, 30}}, {Parameter: 1, Keys: []float32{0, 1}}},
				Warp: &WarpDeformer{Rows: 1, Columns: 2, QuadSource: v >= V33, Keyforms: []WarpKeyform{
					{Opacity: 1, Positions: grid(0), Colors: colors(1)}, {Opacity: 0.9, Positions: grid(1)},
					{Opacity: 0.8, Positions: grid(2)}, {Opacity: 0.7, Positions: grid(3)},
					{Opacity: 0.6, Positions: grid(4)}, {Opacity: 0.5, Positions: grid(5), Colors: colors(0.5)},
				}}},
			{ID: "RotHead", Visible: true, Enabled: true, ParentPart: 1, ParentDeformer: 0,
				Axes: []Axis{{Parameter: 0, Keys: []float32{-30, 30}}},
				Rotation: &RotationDeformer{BaseAngle: 15, Keyforms: []RotationKeyform{
					{Opacity: 1, Angle: -10, OriginX: 0.25, OriginY: 0.5, Scale: 1, ReflectX: true, Colors: colors(0.75)},
					{Opacity: 0.5, Angle: 10, OriginX: 0.5, OriginY: 0.75, Scale: 2, ReflectY: true},
				}}},
			{ID: "WarpInner", Visible: false, Enabled: true, ParentPart: 1, ParentDeformer: 1,
				Warp: &WarpDeformer{Rows: 1, Columns: 2, Keyforms: []WarpKeyform{{Opacity: 1, Positions: grid(-1)}}}},
		},
		ArtMeshes: []ArtMesh{
			{ID: "MeshFace", Visible: true, Enabled: true, ParentPart: 1, ParentDeformer: 2, Texture: 0,
				UVs: [][2]float32{{0, 0}, {0.5, 0}, {0, 0.5}, {0.5, 0.5}}, Indices: []uint16{0, 1, 2, 2, 1, 3},
				Axes: []Axis{{Parameter: 0, Keys: []float32{-30, 30}}},
				Keyforms: []ArtMeshKeyform{
					{Opacity: 1, DrawOrder: 500, Positions: shift(0), Colors: colors(0.25)},
					{Opacity: 0.75, DrawOrder: 510, Positions: shift(2)},
				}},
			{ID: "MeshEye", Visible: true, Enabled: true, ParentPart: 1, ParentDeformer: 1, Texture: 1,
				DoubleSided: true, InvertedMask: true, Masks: []int32{0},
				UVs: [][2]float32{{0.5, 0.5}, {1, 0.5}, {0.5, 1}, {1, 1}}, Indices: []uint16{0, 1, 3},
				Keyforms: []ArtMeshKeyform{{Opacity: 1, DrawOrder: 520, Positions: shift(-3)}}},
			{ID: "MeshGlow", Visible: false, Enabled: true, ParentPart: 0, ParentDeformer: -1, Texture: 0,
				BlendMode: BlendAdditive, Masks: []int32{0, 1},
				UVs: [][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, Indices: []uint16{0, 1, 2},
				Axes: []Axis{{Parameter: 2, Keys: []float32{-180, 0, 180}}},
				Keyforms: []ArtMeshKeyform{
					{Opacity: 0, DrawOrder: 300, Positions: shift(4)},
					{Opacity: 0.5, DrawOrder: 300, Positions: shift(5)},
					{Opacity: 1, DrawOrder: 300, Positions: shift(6), Colors: colors(0)},
				}},
		},
		Glues: []Glue{
			{ID: "GlueFaceEye", MeshA: 0, MeshB: 1,
				Points:   []GluePoint{{Weight: 0.5, Vertex: 1}, {Weight: 0.5, Vertex: 0}, {Weight: 0.25, Vertex: 3}, {Weight: 0.75, Vertex: 2}},
				Axes:     []Axis{{Parameter: 1, Keys: []float32{0, 1}}},
				Keyforms: []GlueKeyform{{Intensity: 0}, {Intensity: 1}}},
		},
		DrawOrderGroups: []DrawOrderGroup{
			{Objects: []DrawOrderObject{{Index: 2, Self: -1}, {Part: true, Index: 1, Self: 1}}, MaxDrawOrder: 1000, MinDrawOrder: 0},
			{Objects: []DrawOrderObject{{Index: 0, Self: -1}, {Index: 1, Self: -1}}, MaxDrawOrder: 900, MinDrawOrder: 100},
		},
	}
	if v >= V42 {
		m.Parameters = append(m.Parameters, Parameter{ID: "ParamSmile", Min: 0, Max: 1, Default: 0, BlendShape: true, Keys: []float32{0, 1}})
		m.Parameters[0].Keys = []float32{-30, 0, 30}
		smile := func(cons ...Constraint) (int, []float32, int32, []Constraint) { return 3, []float32{0, 1}, 0, cons }
		p, k, base, cons := smile(Constraint{Parameter: 0, Keys: []float32{-30, 30}, Weights: []float32{0, 1}})
		m.ArtMeshes[0].BlendShapes = []BlendShape[ArtMeshKeyform]{{Parameter: p, Keys: k, BaseKey: base, Constraints: cons,
			Keyforms: []ArtMeshKeyform{{Opacity: 0.25, DrawOrder: 505, Positions: shift(7), Colors: colors(0.125)}}}}
		p, k, base, cons = smile()
		m.Deformers[0].Warp.BlendShapes = []BlendShape[WarpKeyform]{{Parameter: p, Keys: k, BaseKey: base, Constraints: cons,
			Keyforms: []WarpKeyform{{Opacity: 0.4, Positions: grid(9)}}}}
	}
	if v >= V50 {
		twoCons := []Constraint{
			{Parameter: 1, Keys: []float32{0, 0.5, 1}, Weights: []float32{1, 0.5, 0}},
			{Parameter: 2, Keys: []float32{0}, Weights: []float32{1}},
		}
		m.Parts[1].BlendShapes = []BlendShape[PartKeyform]{{Parameter: 3, Keys: []float32{0, 1}, BaseKey: 0, Constraints: twoCons,
			Keyforms: []PartKeyform{{DrawOrder: 650}}}}
		m.Deformers[1].Rotation.BlendShapes = []BlendShape[RotationKeyform]{{Parameter: 3, Keys: []float32{0, 0.5, 1}, BaseKey: 1,
			Keyforms: []RotationKeyform{{Opacity: 1, Angle: 45, Scale: 1, Colors: colors(0.6)}, {Opacity: 1, Angle: -45, Scale: 1}}}}
		m.Glues[0].BlendShapes = []BlendShape[GlueKeyform]{{Parameter: 3, Keys: []float32{0, 1}, BaseKey: 0,
			Keyforms: []GlueKeyform{{Intensity: 0.5}}}}
	}
	if v >= V53 {
		m.ArtMeshes[0].Blend = Blend{Color: 6, Alpha: 1}  // Multiply, Atop
		m.ArtMeshes[2].Blend = Blend{Color: 17, Alpha: 4} // Color, DisjointOver
		m.Offscreens = []Offscreen{{OwnerPart: 1, Blend: Blend{Color: 4, Alpha: 2}, DoubleSided: true, InvertedMask: true,
			Masks:    []int32{2},
			Keyforms: []OffscreenKeyform{{Opacity: 0.85, Colors: colors(0.3)}, {Opacity: 0.5}}}}
	}
	return m
}

// Seeds returns small valid files of every version, for the reader's fuzz
// target: for each version an empty model and Example.
func Seeds() [][]byte {
	var out [][]byte
	for _, v := range Versions {
		for _, m := range []*Model{{}, Example(v)} {
			b, err := Write(m, v)
			if err != nil {
				panic("moc3write: seed of version " + string(rune('0'+v)) + ": " + err.Error())
			}
			out = append(out, b)
		}
	}
	return out
}
