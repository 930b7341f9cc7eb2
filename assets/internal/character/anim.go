package character

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// animation fills physics, clips, expressions, pose, roles, hit areas, the
// parameter panel and META.
func (b *builder) animation() {
	m := b.m
	m.Physics = p2lrt.Physics{Fps: 30}
	for _, h := range []struct {
		id, name, out                  string
		radius, mobility, delay, scale float32
	}{
		{"HairFront", "Front hair", "ParamHairFront", 3, 0.95, 0.9, 1.5},
		{"HairSide", "Side hair", "ParamHairSide", 4, 0.92, 0.8, 1.4},
		{"HairBack", "Back hair", "ParamHairBack", 5, 0.9, 0.7, 1.3},
	} {
		m.Physics.Groups = append(m.Physics.Groups, p2lrt.PhysicsGroup{
			ID: h.id, Name: h.name,
			// The usual Cubism hair inputs: head sway, head tilt and body
			// lean.
			Inputs: []p2lrt.PhysicsInput{
				{Parameter: b.param("ParamAngleX"), Source: p2lrt.PhysicsX, Weight: 60},
				{Parameter: b.param("ParamAngleZ"), Source: p2lrt.PhysicsAngle, Weight: 60},
				{Parameter: b.param("ParamBodyAngleX"), Source: p2lrt.PhysicsX, Weight: 40},
			},
			Outputs: []p2lrt.PhysicsOutput{
				{Parameter: b.param(h.out), Vertex: 1, Source: p2lrt.PhysicsAngle, Scale: h.scale, Weight: 100},
			},
			Segments: []p2lrt.PhysicsSegment{
				{Length: h.radius, Mobility: h.mobility, Delay: h.delay, Acceleration: 1.5},
			},
			Normalization: p2lrt.PhysicsNormalization{
				PositionMin: -10, PositionMax: 10, AngleMin: -10, AngleMax: 10,
			},
		})
	}

	m.Clips = []p2lrt.Clip{
		{
			ID: "Idle", Name: "Idle", Group: "Idle", Duration: 6, Fps: 30, Loop: true, FadeIn: 0.5, FadeOut: 0.5,
			Curves: []p2lrt.ParameterCurve{
				b.curve("ParamAngleX", k(0, 0), k(1.5, 5), k(3, 0), k(4.5, -5), k(6, 0)),
				b.curve("ParamAngleZ", k(0, 0), k(2, -4), k(4, 3), k(6, 0)),
				b.curve("ParamBodyAngleX", k(0, 0), k(1.5, 2), k(3, 0), k(4.5, -2), k(6, 0)),
				b.curve("ParamEyeBallX", k(0, 0), k(2.2, 0), k(2.4, 0.3), k(3.8, 0.3), k(4, 0), k(6, 0)),
			},
		},
		{
			ID: "Greeting", Name: "Greeting", Group: "Greeting", Duration: 3.4, Fps: 30, FadeIn: 0.4, FadeOut: 0.6,
			Curves: []p2lrt.ParameterCurve{
				// Raise the waving arm in place of the hanging one.
				b.curve("ParamArmRWave", k(0, 0), k(0.2, 1), k(2.9, 1), k(3.2, 0)),
				b.curve("ParamHandWave", k(0, 0), k(0.5, -1), k(0.9, 1), k(1.3, -1), k(1.7, 1), k(2.1, -1), k(2.5, 0.6), k(2.9, 0)),
				b.curve("ParamArmRA", k(0, 0), k(0.4, 4), k(2.8, 4), k(3.4, 0)),
				b.curve("ParamMouthForm", k(0, 0), k(0.3, 1), k(3, 1), k(3.4, 0)),
				b.curve("ParamMouthOpenY", k(0, 0), k(0.4, 0.7), k(0.7, 0.2), k(0.9, 0.6), k(1.2, 0), k(3.4, 0)),
				b.curve("ParamAngleZ", k(0, 0), k(0.5, 8), k(2.8, 8), k(3.4, 0)),
				b.curve("ParamBrowLY", k(0, 0), k(0.4, 0.5), k(3, 0.5), k(3.4, 0)),
				b.curve("ParamBrowRY", k(0, 0), k(0.4, 0.5), k(3, 0.5), k(3.4, 0)),
				b.curve("ParamCheek", k(0, 0), k(0.5, 1), k(3, 1), k(3.4, 0)),
			},
			Events: []p2lrt.Event{{Time: 0.5, Value: "hello"}, {Time: 2.9, Value: "wave_end"}},
		},
		{
			ID: "Nod", Name: "Nod", Group: "TapHead", Duration: 1.6, Fps: 30, FadeIn: 0.3, FadeOut: 0.4,
			Curves: []p2lrt.ParameterCurve{
				b.curve("ParamAngleY", k(0, 0), k(0.3, -18), k(0.6, 4), k(0.9, -14), k(1.3, 0), k(1.6, 0)),
				b.curve("ParamMouthForm", k(0, 0), k(0.3, 1), k(1.3, 1), k(1.6, 0)),
				b.curve("ParamEyeLOpen", k(0, 1), k(0.3, 0.6), k(1.2, 0.6), k(1.6, 1)),
				b.curve("ParamEyeROpen", k(0, 1), k(0.3, 0.6), k(1.2, 0.6), k(1.6, 1)),
			},
			Events: []p2lrt.Event{{Time: 0.3, Value: "nod"}},
		},
		{
			ID: "Surprise", Name: "Surprise", Group: "TapBody", Duration: 1.8, Fps: 30, FadeIn: 0.2, FadeOut: 0.5,
			Curves: []p2lrt.ParameterCurve{
				b.curve("ParamAngleY", k(0, 0), k(0.2, 12), k(1.2, 8), k(1.8, 0)),
				b.curve("ParamBodyAngleX", k(0, 0), k(0.2, -6), k(0.5, 5), k(0.8, -3), k(1.2, 0), k(1.8, 0)),
				b.curve("ParamBrowLY", k(0, 0), k(0.15, 1), k(1.4, 1), k(1.8, 0)),
				b.curve("ParamBrowRY", k(0, 0), k(0.15, 1), k(1.4, 1), k(1.8, 0)),
				b.curve("ParamMouthOpenY", k(0, 0), k(0.15, 0.8), k(1.2, 0.5), k(1.8, 0)),
				b.curve("ParamMouthForm", k(0, 0), k(0.15, -0.3), k(1.8, 0)),
			},
			Events: []p2lrt.Event{{Time: 0.15, Value: "boing"}},
		},
	}

	e := func(id string, blend p2lrt.ExpressionBlend, v float32) p2lrt.ExpressionEntry {
		return p2lrt.ExpressionEntry{Parameter: b.param(id), Blend: blend, Value: v}
	}
	add, mul := p2lrt.ExpressionAdd, p2lrt.ExpressionMultiply
	m.Expressions = []p2lrt.Expression{
		{ID: "Smile", Name: "Smile", FadeIn: 0.3, FadeOut: 0.3, Entries: []p2lrt.ExpressionEntry{
			e("ParamMouthForm", add, 1), e("ParamCheek", add, 1), e("ParamBrowLY", add, 0.3), e("ParamBrowRY", add, 0.3),
			e("ParamEyeLOpen", mul, 0.85), e("ParamEyeROpen", mul, 0.85),
		}},
		{ID: "Sad", Name: "Sad", FadeIn: 0.3, FadeOut: 0.3, Entries: []p2lrt.ExpressionEntry{
			e("ParamMouthForm", add, -1), e("ParamBrowLAngle", add, 1), e("ParamBrowRAngle", add, 1),
			e("ParamBrowLY", add, -0.2), e("ParamBrowRY", add, -0.2),
			e("ParamEyeLOpen", mul, 0.75), e("ParamEyeROpen", mul, 0.75), e("ParamEyeBallY", add, -0.4),
		}},
		{ID: "Angry", Name: "Angry", FadeIn: 0.3, FadeOut: 0.3, Entries: []p2lrt.ExpressionEntry{
			e("ParamBrowLAngle", add, -1), e("ParamBrowRAngle", add, -1), e("ParamBrowLY", add, -0.5), e("ParamBrowRY", add, -0.5),
			e("ParamMouthForm", add, -0.7), e("ParamEyeLOpen", mul, 0.85), e("ParamEyeROpen", mul, 0.85),
		}},
		{ID: "Surprised", Name: "Surprised", FadeIn: 0.2, FadeOut: 0.3, Entries: []p2lrt.ExpressionEntry{
			e("ParamBrowLY", add, 1), e("ParamBrowRY", add, 1), e("ParamMouthOpenY", add, 0.6), e("ParamMouthForm", add, -0.3),
		}},
	}

	m.Pose = &p2lrt.Pose{FadeIn: 0.3, Groups: []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: b.parts["PartArmL"]}, {Part: b.parts["PartArmLV"]}}}}}
	// Roles as the editor writes them: one for each standard parameter the
	// behaviors drive (RUNTIME.md: "角色由编辑器编译时按存在的标准参数写入").
	// The runtime (ours and the reference) moves nothing else: without
	// these the character would neither breathe nor look.
	role := func(name string, ids ...string) p2lrt.Role {
		r := p2lrt.Role{Name: name}
		for _, id := range ids {
			r.Parameters = append(r.Parameters, b.param(id))
		}
		return r
	}
	m.Roles = []p2lrt.Role{
		role("EyeBlink", "ParamEyeLOpen", "ParamEyeROpen"),
		role("LipSync", "ParamMouthOpenY"),
		role("Breath", "ParamBreath"),
		role("AngleX", "ParamAngleX"),
		role("AngleY", "ParamAngleY"),
		role("AngleZ", "ParamAngleZ"),
		role("BodyAngleX", "ParamBodyAngleX"),
		role("EyeBallX", "ParamEyeBallX"),
		role("EyeBallY", "ParamEyeBallY"),
	}
	m.HitAreas = []p2lrt.HitArea{
		{ID: "HitAreaHead", Name: "Head", Meshes: []int{b.meshIdx["Face"], b.meshIdx["HairCap"]}},
		{ID: "HitAreaBody", Name: "Body", Meshes: []int{b.meshIdx["Body"]}},
	}

	pn := func(id string) p2lrt.GUINode {
		return p2lrt.GUINode{Kind: p2lrt.GUIParameter, Parameter: b.param(id)}
	}
	group := func(id, name string, argb uint32, open bool, ids ...string) p2lrt.GUINode {
		g := p2lrt.GUINode{Kind: p2lrt.GUIGroup, Open: open, Label: p2lrt.GUILabelCustom, Parameter: -1, ID: id, Name: name, ARGB: argb}
		for _, p := range ids {
			g.Children = append(g.Children, pn(p))
		}
		return g
	}
	// ParamCheek is left out of the tree on purpose: panels list such
	// parameters last, in PARM order.
	m.GUI = &p2lrt.GUI{
		Snaps: []p2lrt.Snap{
			{Parameter: b.param("ParamMouthForm"), Keys: []float32{-1, 0, 1}},
			{Parameter: b.param("ParamBrowLAngle"), Keys: []float32{-1, 0, 1}},
			{Parameter: b.param("ParamBrowRAngle"), Keys: []float32{-1, 0, 1}},
		},
		Joysticks: []p2lrt.Joystick{
			{Horizontal: b.param("ParamAngleX"), Vertical: b.param("ParamAngleY")},
			{Horizontal: b.param("ParamEyeBallX"), Vertical: b.param("ParamEyeBallY")},
		},
		Tree: []p2lrt.GUINode{
			group("GroupHead", "Head", 0xFFE8A0A0, true, "ParamAngleX", "ParamAngleY", "ParamAngleZ"),
			group("GroupEyes", "Eyes", 0xFF8CC8F0, true, "ParamEyeLOpen", "ParamEyeROpen", "ParamEyeBallX", "ParamEyeBallY"),
			group("GroupBrows", "Brows", 0xFFC8A070, false, "ParamBrowLY", "ParamBrowRY", "ParamBrowLAngle", "ParamBrowRAngle"),
			group("GroupMouth", "Mouth", 0xFFF08CA0, true, "ParamMouthForm", "ParamMouthOpenY"),
			group("GroupBody", "Body", 0xFFA0D8A0, false, "ParamBodyAngleX", "ParamBreath", "ParamArmLA", "ParamArmRA", "ParamArmRWave", "ParamHandWave", "ParamArmRElbow"),
			group("GroupHair", "Hair", 0xFFB89070, false, "ParamHairFront", "ParamHairSide", "ParamHairBack"),
		},
	}
	m.Meta = []p2lrt.MetaEntry{
		{Key: "generator", Value: "p2l-ebiten assets/internal/gen"},
		{Key: "generator_version", Value: "1"},
	}
}

// key is one curve keyframe.
type key struct{ t, v float32 }

func k(t, v float32) key { return key{t, v} }

// curve builds an eased parameter curve through keys: Bezier segments with
// flat handles a third of the way in, so motion starts and stops softly.
func (b *builder) curve(id string, keys ...key) p2lrt.ParameterCurve {
	c := p2lrt.Curve{Start: p2lrt.Point{T: keys[0].t, V: keys[0].v}}
	for i := 1; i < len(keys); i++ {
		a, z := keys[i-1], keys[i]
		d := (z.t - a.t) / 3
		c.Segments = append(c.Segments, p2lrt.Segment{
			Kind: p2lrt.SegmentBezier,
			C1:   p2lrt.Point{T: a.t + d, V: a.v},
			C2:   p2lrt.Point{T: z.t - d, V: z.v},
			End:  p2lrt.Point{T: z.t, V: z.v},
		})
	}
	return p2lrt.ParameterCurve{Parameter: b.param(id), Curve: c}
}
