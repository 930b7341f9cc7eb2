package character

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// parameters are the standard Cubism parameters the character uses, plus a
// few of its own (brow angles, arm angles, the wave).
var parameters = []p2lrt.Parameter{
	{ID: "ParamAngleX", Name: "Angle X", Min: -30, Max: 30},
	{ID: "ParamAngleY", Name: "Angle Y", Min: -30, Max: 30},
	{ID: "ParamAngleZ", Name: "Angle Z", Min: -30, Max: 30},
	{ID: "ParamEyeLOpen", Name: "Eye L Open", Min: 0, Max: 1, Default: 1},
	{ID: "ParamEyeROpen", Name: "Eye R Open", Min: 0, Max: 1, Default: 1},
	{ID: "ParamEyeBallX", Name: "Eyeball X", Min: -1, Max: 1},
	{ID: "ParamEyeBallY", Name: "Eyeball Y", Min: -1, Max: 1},
	{ID: "ParamBrowLY", Name: "Brow L Y", Min: -1, Max: 1},
	{ID: "ParamBrowRY", Name: "Brow R Y", Min: -1, Max: 1},
	{ID: "ParamBrowLAngle", Name: "Brow L Angle", Min: -1, Max: 1},
	{ID: "ParamBrowRAngle", Name: "Brow R Angle", Min: -1, Max: 1},
	{ID: "ParamMouthForm", Name: "Mouth Form", Min: -1, Max: 1},
	{ID: "ParamMouthOpenY", Name: "Mouth Open", Min: 0, Max: 1},
	{ID: "ParamCheek", Name: "Cheek", Min: 0, Max: 1},
	{ID: "ParamBodyAngleX", Name: "Body Angle X", Min: -10, Max: 10},
	{ID: "ParamBreath", Name: "Breath", Min: 0, Max: 1},
	{ID: "ParamHairFront", Name: "Hair Front", Min: -1, Max: 1},
	{ID: "ParamHairSide", Name: "Hair Side", Min: -1, Max: 1},
	{ID: "ParamHairBack", Name: "Hair Back", Min: -1, Max: 1},
	{ID: "ParamArmLA", Name: "Arm L", Min: -10, Max: 10},
	{ID: "ParamArmRA", Name: "Arm R", Min: -10, Max: 10},
	{ID: "ParamHandWave", Name: "Hand Wave", Min: -1, Max: 1},
	{ID: "ParamArmRWave", Name: "Raise Right Arm", Min: 0, Max: 1},
	{ID: "ParamArmRElbow", Name: "Right Elbow", Min: 0, Max: 1},
}

type partSpec struct {
	id, name string
	mode     p2lrt.GroupMode
	order    int32
	// opacity, when set, drives the isolated group's opacity from the
	// parameter fader (0 → hidden, 1 → shown).
	fader string
}

// partList: the two left-arm parts form the pose group (hanging, or a V sign
// by the face). The right arm is raised to wave by ParamArmRWave, which
// fades the hanging arm out and the waving arm in; the waving arm is an
// isolated group whose group opacity follows the parameter, so its sleeve,
// forearm and hand fade as one layer instead of showing through each other.
var partList = []partSpec{
	{"PartHairBack", "Back hair", p2lrt.GroupPassThrough, 500, ""},
	{"PartBody", "Body", p2lrt.GroupPassThrough, 500, ""},
	{"PartArmL", "Left arm (down)", p2lrt.GroupPassThrough, 500, ""},
	{"PartArmLV", "Left arm (V sign)", p2lrt.GroupPassThrough, 500, ""},
	{"PartArmRDown", "Right arm (down)", p2lrt.GroupPassThrough, 500, ""},
	{"PartArmRWave", "Right arm (waving)", p2lrt.GroupIsolated, 500, "ParamArmRWave"},
	{"PartFace", "Face", p2lrt.GroupPassThrough, 500, ""},
	{"PartCheek", "Cheek", p2lrt.GroupPassThrough, 500, ""},
	{"PartEyes", "Eyes", p2lrt.GroupPassThrough, 500, ""},
	{"PartBrows", "Brows", p2lrt.GroupPassThrough, 500, ""},
	{"PartMouth", "Mouth", p2lrt.GroupPassThrough, 500, ""},
	{"PartHairSide", "Side hair", p2lrt.GroupPassThrough, 500, ""},
	{"PartHairFront", "Front hair", p2lrt.GroupPassThrough, 500, ""},
}

var (
	keys3   = []float32{-1, 0, 1}
	keys01  = []float32{0, 1}
	angle3  = []float32{-30, 0, 30}
	body3   = []float32{-10, 0, 10}
	turnXY  = []axisSpec{{"ParamAngleX", angle3}, {"ParamAngleY", angle3}}
	headTop = pt{cx, 380} // centre of the head sphere used for the turn
)

// Head-turn geometry: the head is treated as an ellipsoid with these radii;
// AngleX = ±30 turns it by ±turnYaw radians, AngleY by ±turnPitch.
const (
	headRX    = 200.0
	headRY    = 240.0
	turnYaw   = 0.22
	turnPitch = 0.16
)

// headTurn returns the canvas displacement of p when the head turns by the
// normalized angles ax, ay (−1..1, positive: towards the viewer's right and
// upwards). Points are rotated on the front of the ellipsoid, so features near
// the centre move most and the silhouette barely moves: a pseudo-3D turn.
func headTurn(ax, ay float64, p pt) pt {
	u := (p.X - headTop.X) / headRX
	v := (p.Y - headTop.Y) / headRY
	z := math.Sqrt(math.Max(0, 1-u*u-v*v))
	th, ph := ax*turnYaw, ay*turnPitch
	dx := headRX * (u*(math.Cos(th)-1) + z*math.Sin(th))
	dy := headRY * (v*(math.Cos(ph)-1) - z*math.Sin(ph))
	return pt{dx + 6*ax, dy - 4*ay}
}

// shoulderWeight falls from 1 above the shoulders to 0 at the bottom edge:
// how much of the body's lean and breath a point follows.
func shoulderWeight(y float64) float64 { return clamp((1180-y)/480, 0, 1) }

func deformers() []*defSpec {
	return []*defSpec{
		{
			id: "BodyWarp", part: "PartBody",
			x0: 80, y0: 30, x1: 920, y1: 1200, cols: 4, rows: 6,
			axes: []axisSpec{{"ParamBodyAngleX", body3}, {"ParamBreath", keys01}},
			warp: func(k []float32, p pt) pt {
				bx, br := float64(k[0])/10, float64(k[1])
				w := shoulderWeight(p.Y)
				// Lean: the upper body slides sideways and the far
				// side narrows a little.
				dx := 16*bx*w + 0.04*bx*(p.X-cx)*w*(-math.Copysign(1, bx*(p.X-cx)))
				// Breath: shoulders and everything above rise.
				dy := -7 * br * w
				return pt{dx, dy}
			},
		},
		{
			id: "HeadTilt", parent: "BodyWarp", part: "PartFace", rot: true,
			origin: pt{cx, 640},
			axes:   []axisSpec{{"ParamAngleZ", angle3}},
			rotate: func(k []float32) (pt, float64) { return pt{}, float64(k[0]) / 3 },
		},
		{
			id: "HeadTurn", parent: "HeadTilt", part: "PartFace",
			x0: 220, y0: 40, x1: 780, y1: 980, cols: 6, rows: 8,
			axes: turnXY,
			warp: func(k []float32, p pt) pt {
				d := headTurn(float64(k[0])/30, float64(k[1])/30, p)
				// The long hair below the chin follows the head less.
				f := clamp((900-p.Y)/300, 0.35, 1)
				return d.mul(f)
			},
		},
		parallax("FaceParallax", "PartFace", 330, 300, 670, 610, 10, 7),
		parallax("FrontHairParallax", "PartHairFront", 270, 30, 730, 500, 10, 7),
		parallax("BackHairParallax", "PartHairBack", 230, 100, 770, 940, -16, -6),
		armRotation("ArmLRot", "PartArmL", pt{mirror(shoulderR.X), shoulderR.Y}, "ParamArmLA", 1),
		armRotation("ArmLVRot", "PartArmLV", pt{mirror(shoulderR.X), shoulderR.Y}, "ParamArmLA", 1),
		armRotation("ArmRDownRot", "PartArmRDown", shoulderR, "ParamArmRA", -1),
		armRotation("ArmRWaveRot", "PartArmRWave", shoulderR, "ParamArmRA", -1),
		{
			id: "ForearmRWaveRot", parent: "ArmRWaveRot", part: "PartArmRWave", rot: true,
			origin: elbowR,
			axes:   forearmAxes,
			rotate: func(k []float32) (pt, float64) { return pt{}, forearmAngle(k) },
		},
	}
}

// parallax is a 2×2 warp under HeadTurn that moves its content a further
// (sx, sy) pixels at full AngleX/AngleY: layers in front of the face move
// more, the back hair moves the other way.
func parallax(id, part string, x0, y0, x1, y1, sx, sy float64) *defSpec {
	return &defSpec{
		id: id, parent: "HeadTurn", part: part,
		x0: x0, y0: y0, x1: x1, y1: y1, cols: 2, rows: 2,
		axes: turnXY,
		warp: func(k []float32, p pt) pt {
			return pt{sx * float64(k[0]) / 30, -sy * float64(k[1]) / 30}
		},
	}
}

// armRotation hangs an arm from its shoulder; the parameter swings it by up
// to 7 degrees, outwards for positive values.
func armRotation(id, part string, shoulder pt, param string, dir float64) *defSpec {
	return &defSpec{
		id: id, parent: "BodyWarp", part: part, rot: true,
		origin: shoulder,
		axes:   []axisSpec{{param, body3}},
		rotate: func(k []float32) (pt, float64) { return pt{}, -dir * 0.7 * float64(k[0]) },
	}
}

// upperRimY returns the y of the upper eye rim at x, and closedY the line
// the lids meet on when the eye is shut (a gentle downward arc).
func upperRimY(s side, x float64) float64 {
	u, _ := eyeCurves(s)
	if float64(s) > 0 { // rim points run outer→inner; make x ascending
		u = reversed(u)
	}
	if x <= u[0].X {
		return u[0].Y
	}
	for i := 1; i < len(u); i++ {
		if x <= u[i].X {
			t := (x - u[i-1].X) / (u[i].X - u[i-1].X)
			return lerpf(u[i-1].Y, u[i].Y, t)
		}
	}
	return u[len(u)-1].Y
}

func reversed(p []pt) []pt {
	out := make([]pt, len(p))
	for i := range p {
		out[len(p)-1-i] = p[i]
	}
	return out
}

func closedY(s side, x float64) float64 {
	t := (x - s.x(eyeDX)) / 52
	return eyeY + 16 + 9*(1-t*t)
}

// sway bends a hanging lock: displacement grows with the square of the
// distance down the lock (t from 0 at the root to 1 at the tip).
func sway(h, amount, t float64) pt {
	t = clamp(t, 0, 1)
	return pt{h * amount * t * t, -math.Abs(h) * 0.12 * amount * t * t * t}
}

func (b *builder) meshes() []*meshSpec {
	pa := newPainter(W, H)
	var ms []*meshSpec
	add := func(s *meshSpec) *meshSpec { ms = append(ms, s); return s }
	hairBack := func(k []float32, p pt) pt { return sway(float64(k[0]), 30, (p.Y-330)/580) }
	add(&meshSpec{id: "HairBack", name: "Back hair", part: "PartHairBack", parent: "BackHairParallax", img: paintBackHair(pa),
		axes: []axisSpec{{"ParamHairBack", keys3}}, deform: hairBack})
	add(&meshSpec{id: "Neck", name: "Neck", part: "PartBody", parent: "BodyWarp", img: paintNeck(pa)})
	add(&meshSpec{id: "Body", name: "Body", part: "PartBody", parent: "BodyWarp", img: paintBody(pa)})
	// The ribbon tails: a 4×6 strip, simulated as cloth in advanced mode.
	add(&meshSpec{id: ribbonTailsID, name: "Ribbon tails", part: "PartBody", parent: "BodyWarp", img: paintRibbonTails(pa),
		cols: ribbonCols, rows: ribbonRows})
	add(&meshSpec{id: "RibbonBow", name: "Ribbon bow", part: "PartBody", parent: "BodyWarp", img: paintRibbonBow(pa)})
	add(&meshSpec{id: "ArmL", name: "Left arm", part: "PartArmL", parent: "ArmLRot", img: paintArmDown(pa, 1)})
	add(&meshSpec{id: "ArmRDown", name: "Right arm", part: "PartArmRDown", parent: "ArmRDownRot", img: paintArmDown(pa, -1),
		opacityAxis: &axisSpec{"ParamArmRWave", keys01}, opacity: func(v float32) float32 { return 1 - v }})
	add(&meshSpec{id: "Face", name: "Face", part: "PartFace", parent: "HeadTurn", img: paintFace(pa)})
	add(&meshSpec{id: "Blush", name: "Blush", part: "PartCheek", parent: "FaceParallax", img: paintBlush(pa),
		blend: p2lrt.BlendMultiplyCompatible, opacityAxis: &axisSpec{"ParamCheek", keys01},
		opacity: func(v float32) float32 { return 0.45 + 0.55*v }})
	// The brows are drawn over the bangs (added after the hair), so that
	// expressions read through the hair.
	var brows []*meshSpec
	for _, s := range []side{-1, 1} {
		sfx := "L"
		open, bx, by, brow, browA := "ParamEyeLOpen", "ParamEyeBallX", "ParamEyeBallY", "ParamBrowLY", "ParamBrowLAngle"
		if s > 0 {
			sfx = "R"
			open, brow, browA = "ParamEyeROpen", "ParamBrowRY", "ParamBrowRAngle"
		}
		s := s
		white := add(&meshSpec{id: "EyeWhite" + sfx, name: "Eye white " + sfx, part: "PartEyes", parent: "FaceParallax",
			img: paintEyeWhite(pa, s), cols: 8, rows: 6,
			axes: []axisSpec{{open, keys01}},
			deform: func(k []float32, p pt) pt {
				c := 1 - float64(k[0])
				// Closing squashes the white onto the lid line.
				target := closedY(s, p.X) + (p.Y-eyeY)*0.04
				return pt{0, c * (target - p.Y)}
			}})
		add(&meshSpec{id: "Iris" + sfx, name: "Iris " + sfx, part: "PartEyes", parent: "FaceParallax",
			img: paintIris(pa, s), masks: []string{white.id},
			axes:   []axisSpec{{bx, keys3}, {by, keys3}},
			deform: func(k []float32, p pt) pt { return pt{15 * float64(k[0]), -9 * float64(k[1])} }})
		add(&meshSpec{id: "EyeHighlight" + sfx, name: "Eye highlight " + sfx, part: "PartEyes", parent: "FaceParallax",
			img: paintHighlight(pa, s), masks: []string{white.id}, blend: p2lrt.BlendAddCompatible,
			axes:   []axisSpec{{bx, keys3}, {by, keys3}},
			deform: func(k []float32, p pt) pt { return pt{10 * float64(k[0]), -6 * float64(k[1])} }})
		add(&meshSpec{id: "LowerLid" + sfx, name: "Lower lid " + sfx, part: "PartEyes", parent: "FaceParallax", img: paintLowerLid(pa, s)})
		add(&meshSpec{id: "Lash" + sfx, name: "Upper lid " + sfx, part: "PartEyes", parent: "FaceParallax",
			img: paintLash(pa, s), cols: 8, rows: 4,
			axes: []axisSpec{{open, keys01}},
			deform: func(k []float32, p pt) pt {
				c := 1 - float64(k[0])
				return pt{0, c * (closedY(s, p.X) - upperRimY(s, clamp(p.X, s.x(eyeDX)-50, s.x(eyeDX)+50)))}
			}})
		brows = append(brows, &meshSpec{id: "Brow" + sfx, name: "Brow " + sfx, part: "PartBrows", parent: "FaceParallax",
			img: paintBrow(pa, s), cols: 6, rows: 2,
			axes: []axisSpec{{brow, keys3}, {browA, keys3}},
			deform: func(k []float32, p pt) pt {
				// Angle +1 raises the inner end (worried), −1 lowers
				// it (angry); rotate about the brow's centre.
				a := float64(s) * float64(k[1]) * 20 * math.Pi / 180
				c := pt{s.x(eyeDX) + float64(s)*5, browY}
				r := p.sub(c)
				sn, cs := math.Sincos(a)
				q := pt{r.X*cs - r.Y*sn, r.X*sn + r.Y*cs}.add(c)
				return q.sub(p).add(pt{0, -11 * float64(k[0])})
			}})
	}
	mouthAxes := []axisSpec{{"ParamMouthOpenY", keys01}, {"ParamMouthForm", keys3}}
	corner := func(form float64, p pt) pt {
		t := (p.X - cx) / 26
		return pt{(p.X - cx) * 0.1 * form, -form * 8 * t * t}
	}
	add(&meshSpec{id: "MouthInner", name: "Mouth inside", part: "PartMouth", parent: "FaceParallax",
		img: paintMouthInner(pa), cols: 6, rows: 4, axes: mouthAxes,
		deform: func(k []float32, p pt) pt {
			open, form := float64(k[0]), float64(k[1])
			s := 0.05 + 0.95*open
			d := corner(form, p)
			d.Y += (p.Y - mouthY) * (s - 1)
			return d
		}})
	add(&meshSpec{id: "MouthLine", name: "Mouth line", part: "PartMouth", parent: "FaceParallax",
		img: paintMouthLine(pa), cols: 6, rows: 2, axes: mouthAxes,
		deform: func(k []float32, p pt) pt { return corner(float64(k[1]), p) }})
	for _, s := range []side{-1, 1} {
		id := "HairSideL"
		if s > 0 {
			id = "HairSideR"
		}
		add(&meshSpec{id: id, name: "Side lock", part: "PartHairSide", parent: "HeadTurn", img: paintSideLock(pa, s),
			axes:   []axisSpec{{"ParamHairSide", keys3}},
			deform: func(k []float32, p pt) pt { return sway(float64(k[0]), 26, (p.Y-300)/620) }})
	}
	add(&meshSpec{id: "HairCap", name: "Hair (top)", part: "PartHairFront", parent: "FrontHairParallax", img: paintHairCap(pa)})
	for _, st := range bangs {
		st := st
		add(&meshSpec{id: st.id, name: "Bang", part: "PartHairFront", parent: "FrontHairParallax", img: paintBang(pa, st),
			axes: []axisSpec{{"ParamHairFront", keys3}},
			deform: func(k []float32, p pt) pt {
				return sway(float64(k[0]), 16*st.swayGain, (p.Y-st.rootY)/(st.tipY-st.rootY))
			}})
	}
	add(&meshSpec{id: "HairBow", name: "Hair bow", part: "PartHairFront", parent: "FrontHairParallax", img: paintHairBow(pa)})
	add(&meshSpec{id: "HairShine", name: "Hair shine", part: "PartHairFront", parent: "FrontHairParallax", img: paintHairShine(pa), blend: p2lrt.BlendAddCompatible})
	add(&meshSpec{id: "Ahoge", name: "Ahoge", part: "PartHairFront", parent: "FrontHairParallax", img: paintAhoge(pa),
		axes: []axisSpec{{"ParamHairFront", keys3}},
		deform: func(k []float32, p pt) pt {
			t := clamp((130-p.Y)/76, 0, 1)
			return pt{-float64(k[0]) * 16 * t, 0}
		}})
	for _, b := range brows {
		add(b)
	}
	// The raised arms are in front of the hair.
	add(&meshSpec{id: "ArmLVUpper", name: "Left upper arm", part: "PartArmLV", parent: "ArmLVRot", img: mirrorLayer(paintUpperArmWave(pa))})
	add(&meshSpec{id: "HandLV", name: "Left hand (V sign)", part: "PartArmLV", parent: "ArmLVRot", img: paintVSignHand(pa)})
	add(&meshSpec{id: "ArmLVFore", name: "Left forearm", part: "PartArmLV", parent: "ArmLVRot", img: mirrorLayer(paintForearmWave(pa))})
	add(&meshSpec{id: "ArmRWaveUpper", name: "Right upper arm", part: "PartArmRWave", parent: "ArmRWaveRot", img: paintUpperArmWave(pa)})
	// The hand under the forearm sleeve: its wrist goes into the cuff.
	add(&meshSpec{id: "HandR", name: "Right hand", part: "PartArmRWave", parent: "ForearmRWaveRot", img: paintHand(pa)})
	// The forearm sleeve is skinned: its home is the upper arm and its
	// keyforms bake the forearm's rotation, blended into the upper arm
	// across the elbow (see advanced.go).
	add(&meshSpec{id: "ArmRWaveFore", name: "Right forearm", part: "PartArmRWave", parent: "ArmRWaveRot", img: paintForearmWave(pa),
		axes: forearmAxes, deform: sleeveDeform})
	return ms
}
