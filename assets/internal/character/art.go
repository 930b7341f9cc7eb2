package character

import (
	"image"
	"math"
)

// This file paints every layer of the character in canvas pixels
// (W×H, x right, y down). Each function returns a full-canvas image; the
// builder crops it to its opaque bounds and packs it into the atlas.

// Canvas size and the anchor points the rig shares with the art.
const (
	W  = 1000
	H  = 1200
	cx = 500.0

	eyeY      = 428.0 // eye centres
	eyeDX     = 86.0  // horizontal distance of each eye from the centre
	mouthY    = 548.0 // top edge of the mouth
	browY     = 346.0
	chinY     = 598.0
	neckBaseY = 690.0
)

// Palette.
var (
	skinLight  = hex(0xfff3ea, 255)
	skinBase   = hex(0xffe4d4, 255)
	skinShade  = hex(0xf5c1ad, 255)
	skinLine   = hex(0xc07c6c, 255)
	hairLight  = hex(0xb57a58, 255)
	hairBase   = hex(0x8c5640, 255)
	hairDark   = hex(0x5e3426, 255)
	hairLine   = hex(0x3f2018, 255)
	irisTop    = hex(0x173a6a, 255)
	irisBottom = hex(0x3fb8d8, 255)
	lashColor  = hex(0x2a1618, 255)
	cloth      = hex(0xf8f9fd, 255)
	clothShade = hex(0xd5dbeb, 255)
	clothLine  = hex(0x6f7896, 255)
	navy       = hex(0x263565, 255)
	navyLight  = hex(0x3a4f8c, 255)
	ribbon     = hex(0xdc3e52, 255)
	ribbonDark = hex(0x9e2538, 255)
)

func newLayer() *image.RGBA { return image.NewRGBA(image.Rect(0, 0, W, H)) }

// fadeBottom fades a layer out towards the bottom of the canvas, where the
// bust ends.
func fadeBottom(l *image.RGBA) {
	const from, to = 1060.0, H
	for y := int(from); y < H; y++ {
		a := clamp((to-float64(y)-0.5)/(to-from), 0, 1)
		a = a * a * (3 - 2*a)
		row := l.Pix[y*l.Stride : y*l.Stride+4*W]
		for i := range row {
			row[i] = uint8(math.Round(float64(row[i]) * a))
		}
	}
}

// mirror returns x reflected about the vertical centre line.
func mirror(x float64) float64 { return 2*cx - x }

// side is −1 for the eye, brow or arm on the viewer's left, +1 on the right.
type side float64

func (s side) x(dx float64) float64 { return cx + float64(s)*dx }

// ---------------------------------------------------------------- face

func facePath(p *path) {
	p.moveTo(316, 330).
		cubicTo(314, 410, 326, 468, 352, 508).
		cubicTo(392, 566, 452, 596, cx, chinY).
		cubicTo(548, 596, 608, 566, 648, 508).
		cubicTo(674, 468, 686, 410, 684, 330).
		cubicTo(684, 210, 600, 146, cx, 146).
		cubicTo(400, 146, 316, 210, 316, 330)
}

func paintFace(pa *painter) *image.RGBA {
	l := newLayer()
	face := pa.shape(facePath)
	fill(l, face, linear(pt{cx, 200}, pt{cx, chinY}, stop{0, skinLight}, stop{0.55, skinBase}, stop{1, hex(0xffdccb, 255)}))
	// Soft shade along the sides of the jaw.
	rim := subtract(face, pa.shape(func(p *path) { p.ellipse(cx, 400, 168, 215, 0) }))
	fill(l, scaleMask(rim, 0.55), solid(skinShade))
	// Shadow the bangs cast on the forehead: their shapes moved down.
	var locks []*image.Alpha
	for _, b := range bangs {
		locks = append(locks, pa.shape(strandPath(b)))
	}
	shadow := shift(union(locks...), 3, 14)
	fill(l, scaleMask(intersect(face, shadow), 0.75), solid(skinShade))
	// Jaw line.
	fill(l, intersect(outline(face, 3), pa.shape(func(p *path) { p.moveTo(0, 400).lineTo(W, 400).lineTo(W, H).lineTo(0, H) })), solid(skinLine))
	// Nose: a small shade stroke and a highlight dot.
	fill(l, pa.stroke(curve(pt{506, 496}, pt{507, 501}, pt{505, 506}, pt{500, 509}, 12), taper(1.8)), solid(hex(0xdc9e8c, 255)))
	return l
}

func paintNeck(pa *painter) *image.RGBA {
	l := newLayer()
	neck := pa.shape(func(p *path) {
		p.moveTo(456, 500).lineTo(544, 500).cubicTo(544, 600, 548, 660, 566, 700).
			lineTo(500, 790).lineTo(434, 700).cubicTo(452, 660, 456, 600, 456, 500)
	})
	fill(l, neck, linear(pt{cx, 560}, pt{cx, 760}, stop{0, skinBase}, stop{1, skinLight}))
	// Shadow under the chin (the chin shape moved down).
	chin := pa.shape(func(p *path) {
		p.moveTo(300, 400).lineTo(700, 400).lineTo(700, 520).
			cubicTo(620, 580, 560, 630, cx, 636).cubicTo(440, 630, 380, 580, 300, 520)
	})
	fill(l, intersect(neck, chin), solid(skinShade))
	fill(l, outline(neck, 2), solid(skinLine))
	return l
}

// ---------------------------------------------------------------- body

func torsoPath(p *path) {
	p.moveTo(440, 688).
		cubicTo(400, 710, 340, 722, 304, 750).
		cubicTo(276, 772, 268, 820, 266, 880).
		lineTo(258, H+10).lineTo(742, H+10).lineTo(734, 880).
		cubicTo(732, 820, 724, 772, 696, 750).
		cubicTo(660, 722, 600, 710, 560, 688).Close()
}

func paintBody(pa *painter) *image.RGBA {
	l := newLayer()
	torso := pa.shape(torsoPath)
	fill(l, torso, linear(pt{cx, 700}, pt{cx, H}, stop{0, cloth}, stop{1, hex(0xeef0f8, 255)}))
	// Side shading gives the chest volume.
	sides := subtract(torso, pa.shape(func(p *path) { p.ellipse(cx, 1010, 190, 330, 0) }))
	fill(l, scaleMask(sides, 0.7), solid(clothShade))
	// Skin V between the collar flaps.
	v := pa.shape(func(p *path) { p.moveTo(446, 686).lineTo(554, 686).lineTo(cx, 812) })
	fill(l, v, linear(pt{cx, 690}, pt{cx, 800}, stop{0, skinShade}, stop{1, skinBase}))
	// Sailor collar: navy flaps along the V and over the shoulders.
	collar := pa.shape(func(p *path) {
		p.moveTo(436, 684).cubicTo(400, 700, 350, 712, 318, 742).
			cubicTo(340, 800, 380, 850, 420, 870).lineTo(cx, 920).lineTo(580, 870).
			cubicTo(620, 850, 660, 800, 682, 742).
			cubicTo(650, 712, 600, 700, 564, 684).lineTo(cx, 812).Close()
	})
	fill(l, collar, linear(pt{cx, 690}, pt{cx, 920}, stop{0, navyLight}, stop{1, navy}))
	// White stripe along the collar edge.
	stripeL := curve(pt{336, 752}, pt{360, 800}, pt{392, 838}, pt{cx - 6, 896}, 32)
	stripeR := make([]pt, len(stripeL))
	for i, q := range stripeL {
		stripeR[i] = pt{mirror(q.X), q.Y}
	}
	fill(l, union(pa.stroke(stripeL, constant(3)), pa.stroke(stripeR, constant(3))), solid(hex(0xffffff, 235)))
	fill(l, outline(collar, 2), solid(hex(0x141c3a, 255)))
	// No outline where the torso meets the neck.
	fill(l, subtract(outline(torso, 2), pa.shape(func(p *path) { p.moveTo(420, 600).lineTo(580, 600).lineTo(580, 700).lineTo(420, 700) })), solid(clothLine))
	fadeBottom(l)
	return l
}

// paintRibbonTails paints the sailor ribbon's two tails: a layer of their own
// over the body, so that advanced mode can simulate them as cloth.
func paintRibbonTails(pa *painter) *image.RGBA {
	l := newLayer()
	tails := pa.shape(func(p *path) {
		p.moveTo(492, 850).cubicTo(470, 900, 452, 950, 446, 1004).lineTo(472, 990).lineTo(488, 1012).
			cubicTo(492, 950, 500, 900, 504, 860).Close()
		p.moveTo(508, 850).cubicTo(530, 900, 548, 950, 554, 1004).lineTo(528, 990).lineTo(512, 1012).
			cubicTo(508, 950, 500, 900, 496, 860).Close()
	})
	fill(l, tails, linear(pt{cx, 850}, pt{cx, 1010}, stop{0, ribbon}, stop{1, ribbonDark}))
	fill(l, outline(tails, 2), solid(hex(0x6e1624, 255)))
	return l
}

// paintRibbonBow paints the ribbon's bow and knot, over the tails.
func paintRibbonBow(pa *painter) *image.RGBA {
	l := newLayer()
	bow := pa.shape(func(p *path) {
		p.moveTo(cx, 846).cubicTo(470, 818, 430, 812, 428, 840).cubicTo(426, 868, 470, 868, cx, 852).Close()
		p.moveTo(cx, 846).cubicTo(530, 818, 570, 812, 572, 840).cubicTo(574, 868, 530, 868, cx, 852).Close()
	})
	fill(l, bow, radial(pt{cx, 846}, 80, 40, stop{0, ribbonDark}, stop{0.5, ribbon}, stop{1, hex(0xe85a6c, 255)}))
	fill(l, outline(bow, 2), solid(hex(0x6e1624, 255)))
	knot := pa.shape(func(p *path) { p.ellipse(cx, 848, 13, 15, 0) })
	fill(l, knot, linear(pt{cx, 834}, pt{cx, 864}, stop{0, ribbon}, stop{1, ribbonDark}))
	fill(l, outline(knot, 2), solid(hex(0x6e1624, 255)))
	return l
}

// paintArmDown paints a hanging arm (sleeve) on side s.
func paintArmDown(pa *painter, s side) *image.RGBA {
	l := newLayer()
	arm := pa.shape(func(p *path) {
		p.moveTo(s.x(196), 742).
			cubicTo(s.x(236), 754, s.x(252), 800, s.x(256), 860).
			lineTo(s.x(270), H+10).lineTo(s.x(196), H+10).
			cubicTo(s.x(190), 1000, s.x(184), 900, s.x(176), 820).
			cubicTo(s.x(172), 780, s.x(180), 750, s.x(196), 742)
	})
	fill(l, arm, linear(pt{s.x(256), 0}, pt{s.x(180), 0}, stop{0, clothShade}, stop{0.45, cloth}, stop{1, cloth}))
	fill(l, outline(arm, 2), solid(clothLine))
	// A fold line.
	fill(l, pa.stroke(curve(pt{s.x(226), 900}, pt{s.x(232), 960}, pt{s.x(236), 1020}, pt{s.x(240), 1080}, 16), taper(1.6)), solid(clothShade))
	fadeBottom(l)
	return l
}

// Shoulder and elbow of the waving arm (viewer's left).
var (
	shoulderR = pt{300, 770}
	elbowR    = pt{264, 985}
)

// paintUpperArmWave is the raised arm's upper sleeve: a rounded shoulder
// cap starting under the collar's tip and following the torso's shoulder
// line, so the sleeve joins the shoulder however the arm turns, down to the
// elbow. Its inner edge runs into the torso above the armpit; the outline
// stops there so no seam shows on the blouse.
func paintUpperArmWave(pa *painter) *image.RGBA {
	l := newLayer()
	arm := pa.shape(func(p *path) {
		p.moveTo(324, 736).
			cubicTo(298, 742, 272, 762, 262, 800).
			cubicTo(252, 840, 244, 900, 240, 940).
			cubicTo(237, 970, 238, 992, 248, 1004).
			cubicTo(264, 1018, 292, 1006, 294, 980).
			cubicTo(298, 930, 308, 880, 326, 836).
			cubicTo(340, 806, 350, 740, 324, 736).Close()
	})
	fill(l, arm, linear(pt{236, 0}, pt{330, 0}, stop{0, clothShade}, stop{0.5, cloth}, stop{1, cloth}))
	join := pa.shape(func(p *path) { p.moveTo(314, 746).lineTo(356, 730).lineTo(356, 832).lineTo(322, 832) })
	fill(l, subtract(outline(arm, 2), join), solid(clothLine))
	fadeBottom(l)
	return l
}

func paintForearmWave(pa *painter) *image.RGBA {
	l := newLayer()
	sleeve := pa.shape(func(p *path) {
		p.moveTo(242, 1000).
			cubicTo(232, 900, 220, 800, 212, 716).
			lineTo(262, 708).
			cubicTo(270, 800, 282, 900, 290, 990).
			cubicTo(284, 1012, 250, 1016, 242, 1000)
	})
	fill(l, sleeve, linear(pt{212, 0}, pt{290, 0}, stop{0, clothShade}, stop{0.55, cloth}, stop{1, cloth}))
	// The cuff is the top band of the sleeve itself, never wider than it.
	band := pa.shape(func(p *path) { p.moveTo(200, 690).lineTo(280, 690).lineTo(280, 731).lineTo(200, 743) })
	fill(l, intersect(sleeve, band), solid(navy))
	fill(l, intersect(sleeve, pa.stroke([]pt{{205, 735}, {275, 725}}, constant(1.6))), solid(hex(0xffffff, 230)))
	fill(l, outline(sleeve, 2), solid(clothLine))
	return l
}

func paintHand(pa *painter) *image.RGBA {
	l := newLayer()
	hand := pa.shape(func(p *path) {
		p.ellipse(236, 676, 29, 34, 0.05)
		// Fingers, spread a little, and the thumb towards the face.
		for i, f := range []struct{ x, y, a float64 }{{210, 628, -0.3}, {228, 618, -0.1}, {248, 618, 0.1}, {265, 630, 0.3}} {
			l := 28.0 - math.Abs(float64(i)-1.5)*4
			p.ellipse(f.x, f.y, 9, l, f.a)
		}
		p.ellipse(270, 680, 9, 19, 0.8)
		// The wrist, reaching into the cuff (the hand is drawn under the
		// forearm sleeve, so the cuff covers its end).
		p.moveTo(221, 690).lineTo(253, 688).lineTo(257, 734).lineTo(223, 738).Close()
	})
	fill(l, hand, radial(pt{236, 660}, 60, 70, stop{0, skinLight}, stop{0.7, skinBase}, stop{1, skinShade}))
	fill(l, outline(hand, 2), solid(skinLine))
	return l
}

// mirrorLayer flips a layer about the vertical centre line.
func mirrorLayer(l *image.RGBA) *image.RGBA {
	out := newLayer()
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			copy(out.Pix[out.PixOffset(W-1-x, y):][:4], l.Pix[l.PixOffset(x, y):][:4])
		}
	}
	return out
}

// paintVSignHand is the left hand (viewer's right) making a V sign beside
// the face: index and middle finger up, the others folded under the thumb.
func paintVSignHand(pa *painter) *image.RGBA {
	l := newLayer()
	const hx, hy = 764.0, 680.0
	hand := pa.shape(func(p *path) {
		p.ellipse(hx, hy, 28, 31, -0.05)
		p.ellipse(hx-13, hy-56, 9, 30, -0.28)
		p.ellipse(hx+12, hy-58, 9, 31, 0.22)
		p.ellipse(hx+22, hy-18, 10, 9, 0)
		p.ellipse(hx+24, hy-2, 9, 8, 0)
		// The wrist, reaching into the cuff (drawn under the sleeve).
		p.moveTo(hx-16, hy+10).lineTo(hx+16, hy+10).lineTo(hx+14, hy+54).lineTo(hx-18, hy+54).Close()
	})
	skin := radial(pt{hx, hy - 20}, 60, 70, stop{0, skinLight}, stop{0.7, skinBase}, stop{1, skinShade})
	fill(l, hand, skin)
	fill(l, outline(hand, 2), solid(skinLine))
	// The thumb folds across the palm.
	thumb := pa.shape(func(p *path) { p.ellipse(hx-2, hy-6, 20, 8.5, 0.35) })
	fill(l, thumb, skin)
	fill(l, outline(thumb, 2), solid(skinLine))
	return l
}

// ---------------------------------------------------------------- hair

// strand is a bang: a pointed lock from its root (left, right x at rootY)
// to its tip, bending by bend pixels.
type strand struct {
	id                string
	left, right       float64
	tipX, tipY, bend  float64
	rootY             float64
	swayGain, parallx float64
}

var bangs = []strand{
	{"HairFrontL3", 300, 372, 312, 470, -10, 206, 1.3, 0.8},
	{"HairFrontL2", 344, 432, 372, 352, -6, 200, 1.0, 1},
	{"HairFrontL1", 404, 488, 438, 366, -4, 196, 0.9, 1},
	{"HairFrontC", 468, 540, 500, 338, 2, 196, 0.7, 1},
	{"HairFrontR1", 516, 600, 560, 368, 4, 196, 0.9, 1},
	{"HairFrontR2", 572, 656, 626, 354, 6, 200, 1.0, 1},
	{"HairFrontR3", 628, 700, 688, 470, 10, 206, 1.3, 0.8},
}

func strandPath(s strand) func(p *path) {
	return func(p *path) {
		midY := (s.rootY + s.tipY) / 2
		p.moveTo(s.left, s.rootY).
			cubicTo(s.left-4+s.bend, midY, s.tipX-18+s.bend, s.tipY-50, s.tipX, s.tipY).
			cubicTo(s.tipX+22+s.bend, s.tipY-70, s.right+4+s.bend, midY, s.right, s.rootY).
			lineTo(s.right, s.rootY-60).lineTo(s.left, s.rootY-60)
	}
}

// paintHairMass fills a hair shape with the shared hair shading: gradient,
// inner shade band, strand lines and an outline.
func paintHairMass(pa *painter, l *image.RGBA, m *image.Alpha, top, bottom float64, dark bool) {
	base, light := hairBase, hairLight
	if dark {
		base, light = hairDark, hairBase
	}
	fill(l, m, linear(pt{cx, top}, pt{cx, bottom}, stop{0, base}, stop{0.6, light}, stop{1, base}))
	fill(l, scaleMask(edge(m, 6, 0), 0.5), solid(hairDark))
	fill(l, outline(m, 2), solid(hairLine))
}

func paintBang(pa *painter, s strand) *image.RGBA {
	l := newLayer()
	m := pa.shape(strandPath(s))
	paintHairMass(pa, l, m, s.rootY-40, s.tipY, false)
	// A light streak down the middle of the lock.
	mid := curve(pt{(s.left + s.right) / 2, s.rootY + 10}, pt{(s.left+s.right)/2 + s.bend, (s.rootY + s.tipY) / 2},
		pt{s.tipX + s.bend/2, s.tipY - 40}, pt{s.tipX, s.tipY - 12}, 24)
	fill(l, intersect(m, pa.stroke(mid, taper(2.2))), solid(hex(0xd9a07a, 200)))
	// Fade the root out well inside the crown, so that when the bangs
	// move with the head turn no edge shows against the cap.
	clipLayer(l, softEllipse(cx, 352, 200, 210, 0.08))
	return l
}

// clipLayer multiplies the premultiplied layer l by mask m.
func clipLayer(l *image.RGBA, m *image.Alpha) {
	for i, a := range m.Pix {
		for c := 0; c < 4; c++ {
			l.Pix[4*i+c] = uint8((uint32(l.Pix[4*i+c])*uint32(a) + 127) / 255)
		}
	}
}

// softEllipse is a coverage mask of an ellipse whose edge fades over the
// fraction feather of its radius.
func softEllipse(ex, ey, rx, ry, feather float64) *image.Alpha {
	m := image.NewAlpha(image.Rect(0, 0, W, H))
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			r := math.Hypot((float64(x)+0.5-ex)/rx, (float64(y)+0.5-ey)/ry)
			m.Pix[y*m.Stride+x] = uint8(math.Round(255 * clamp((1-r)/feather, 0, 1)))
		}
	}
	return m
}

// skullPath is the outer silhouette of the hair on the crown.
func skullPath(p *path) { p.ellipse(cx, 336, 214, 224, 0) }

func capPath(p *path) {
	p.moveTo(292, 350).
		cubicTo(284, 210, 380, 112, cx, 112).
		cubicTo(620, 112, 716, 210, 708, 350).
		cubicTo(690, 280, 640, 236, cx, 226).
		cubicTo(360, 236, 310, 280, 292, 350)
}

func paintHairCap(pa *painter) *image.RGBA {
	l := newLayer()
	m := pa.shape(capPath)
	paintHairMass(pa, l, m, 112, 300, false)
	return l
}

// paintHairShine is the "angel ring": light petals along the crown, drawn
// with the Add blend.
func paintHairShine(pa *painter) *image.RGBA {
	l := newLayer()
	var hair []*image.Alpha
	for _, b := range bangs {
		hair = append(hair, pa.shape(strandPath(b)))
	}
	hair = append(hair, pa.shape(capPath))
	inside := intersect(union(hair...), pa.shape(skullPath))
	for i := 0; i < 13; i++ {
		a := math.Pi * (0.22 + 0.56*float64(i)/12)
		x := cx - 186*math.Cos(a)
		y := 362 - 112*math.Sin(a) + 3*math.Sin(float64(i)*2.1)
		rx, ry := 19.0, 4+1.5*math.Abs(math.Sin(float64(i)*1.3))
		petal := pa.shape(func(p *path) { p.ellipse(x, y, rx, ry, -math.Cos(a)*0.6) })
		fill(l, intersect(petal, inside), radial(pt{x, y}, rx, rx, stop{0, hex(0x3c302a, 255)}, stop{1, hex(0x3c302a, 0)}))
	}
	return l
}

// paintHairBow is a small red bow clipped to the hair on the viewer's
// right, matching the sailor ribbon.
func paintHairBow(pa *painter) *image.RGBA {
	l := newLayer()
	const bx, by, rot, k = 640.0, 222.0, -0.45, 1.25
	sn, cs := math.Sincos(rot)
	tr := func(x, y float64) (float64, float64) { return bx + k*(x*cs-y*sn), by + k*(x*sn+y*cs) }
	loop := func(p *path, f float64) {
		x0, y0 := tr(0, 0)
		p.moveTo(x0, y0)
		c1x, c1y := tr(f*16, -22)
		c2x, c2y := tr(f*40, -24)
		ex, ey := tr(f*40, -2)
		p.cubicTo(c1x, c1y, c2x, c2y, ex, ey)
		c1x, c1y = tr(f*40, 18)
		c2x, c2y = tr(f*16, 16)
		p.cubicTo(c1x, c1y, c2x, c2y, x0, y0).Close()
	}
	bow := pa.shape(func(p *path) { loop(p, -1); loop(p, 1) })
	tails := pa.shape(func(p *path) {
		for _, f := range []float64{-1, 1} {
			x0, y0 := tr(f*2, 4)
			x1, y1 := tr(f*18, 34)
			x2, y2 := tr(f*10, 38)
			x3, y3 := tr(f*-2, 8)
			p.poly([]pt{{x0, y0}, {x1, y1}, {x2, y2}, {x3, y3}})
		}
	})
	fill(l, tails, solid(ribbonDark))
	fill(l, outline(tails, 2), solid(hex(0x6e1624, 255)))
	kx, ky := tr(0, 0)
	fill(l, bow, radial(pt{kx, ky}, 44, 30, stop{0, ribbonDark}, stop{0.55, ribbon}, stop{1, hex(0xf07080, 255)}))
	fill(l, outline(bow, 2), solid(hex(0x6e1624, 255)))
	knot := pa.shape(func(p *path) { p.ellipse(kx, ky, 8, 9, rot) })
	fill(l, knot, solid(ribbon))
	fill(l, outline(knot, 2), solid(hex(0x6e1624, 255)))
	// A glint on each loop.
	for _, f := range []float64{-1, 1} {
		x, y := tr(f*26, -10)
		fill(l, pa.shape(func(p *path) { p.ellipse(x, y, 5, 2.5, rot+f*0.4) }), solid(hex(0xffffff, 170)))
	}
	return l
}

func paintAhoge(pa *painter) *image.RGBA {
	l := newLayer()
	m := pa.stroke(curve(pt{496, 134}, pt{500, 80}, pt{540, 54}, pt{566, 84}, 32), func(t float64) float64 {
		return 7 * math.Pow(1-t, 0.7)
	})
	// It grows out of the crown: cut it where the hair begins.
	m = subtract(m, shift(pa.shape(skullPath), 0, 5))
	fill(l, m, linear(pt{0, 130}, pt{0, 60}, stop{0, hairBase}, stop{1, hairLight}))
	fill(l, outline(m, 2), solid(hairLine))
	return l
}

func paintBackHair(pa *painter) *image.RGBA {
	l := newLayer()
	m := pa.shape(func(p *path) {
		p.moveTo(cx, 118).
			cubicTo(640, 118, 742, 220, 738, 420).
			cubicTo(736, 560, 756, 700, 748, 860).
			// Jagged tips along the bottom.
			lineTo(716, 812).lineTo(690, 900).lineTo(660, 820).lineTo(620, 880).lineTo(590, 800).
			lineTo(cx, 760).
			lineTo(410, 800).lineTo(380, 880).lineTo(340, 820).lineTo(310, 900).lineTo(284, 812).
			lineTo(252, 860).
			cubicTo(244, 700, 264, 560, 262, 420).
			cubicTo(258, 220, 360, 118, cx, 118)
	})
	paintHairMass(pa, l, m, 118, 900, true)
	// Strand lines.
	for _, x := range []float64{300, 360, 640, 700} {
		q := curve(pt{x + (cx-x)*0.3, 300}, pt{x, 500}, pt{x, 650}, pt{x + (x-cx)*0.05, 820}, 24)
		fill(l, intersect(m, pa.stroke(q, taper(1.6))), solid(hairLine))
	}
	return l
}

func paintSideLock(pa *painter, s side) *image.RGBA {
	l := newLayer()
	m := pa.shape(func(p *path) {
		p.moveTo(s.x(196), 250).
			cubicTo(s.x(214), 420, s.x(202), 620, s.x(222), 880).
			lineTo(s.x(200), 930).
			cubicTo(s.x(170), 860, s.x(156), 760, s.x(154), 620).
			cubicTo(s.x(150), 480, s.x(146), 380, s.x(140), 280).Close()
	})
	paintHairMass(pa, l, m, 250, 930, false)
	q := curve(pt{s.x(170), 300}, pt{s.x(176), 500}, pt{s.x(180), 700}, pt{s.x(200), 890}, 32)
	fill(l, intersect(m, pa.stroke(q, taper(2))), solid(hex(0xd9a07a, 190)))
	// The root fades out under the cap, which moves a little more than the
	// lock when the head turns.
	clipLayer(l, pa.shape(func(p *path) { p.moveTo(0, 300).lineTo(W, 300).lineTo(W, H).lineTo(0, H) }))
	return l
}

// ---------------------------------------------------------------- eyes

// eyeCurves returns the upper and lower rims of the eye on side s, from the
// outer corner to the inner corner.
func eyeCurves(s side) (upper, lower []pt) {
	ex := s.x(eyeDX)
	f := float64(s)
	o := pt{ex + f*52, eyeY - 8}  // outer corner
	in := pt{ex - f*48, eyeY + 6} // inner corner
	upper = curve(o, pt{ex + f*42, eyeY - 52}, pt{ex - f*26, eyeY - 54}, in, 40)
	lower = curve(o, pt{ex + f*36, eyeY + 46}, pt{ex - f*32, eyeY + 48}, in, 40)
	return upper, lower
}

func eyeWhitePath(s side) func(p *path) {
	return func(p *path) {
		u, lo := eyeCurves(s)
		poly := append([]pt(nil), u...)
		for i := len(lo) - 1; i >= 0; i-- {
			poly = append(poly, lo[i])
		}
		p.poly(poly)
	}
}

func paintEyeWhite(pa *painter, s side) *image.RGBA {
	l := newLayer()
	m := pa.shape(eyeWhitePath(s))
	fill(l, m, linear(pt{0, eyeY - 50}, pt{0, eyeY + 40}, stop{0, hex(0xd6ddee, 255)}, stop{0.35, hex(0xfbfcff, 255)}, stop{1, hex(0xffffff, 255)}))
	return l
}

func paintIris(pa *painter, s side) *image.RGBA {
	l := newLayer()
	ix, iy := s.x(eyeDX)-float64(s)*2, eyeY+2
	iris := pa.shape(func(p *path) { p.ellipse(ix, iy, 33, 42, 0) })
	fill(l, iris, linear(pt{ix, iy - 42}, pt{ix, iy + 42}, stop{0, irisTop}, stop{0.55, hex(0x2a78a8, 255)}, stop{1, irisBottom}))
	// Lower glow.
	fill(l, intersect(iris, pa.shape(func(p *path) { p.ellipse(ix, iy+24, 24, 14, 0) })), radial(pt{ix, iy + 26}, 26, 16, stop{0, hex(0x9af0ff, 220)}, stop{1, hex(0x9af0ff, 0)}))
	// Pupil.
	fill(l, pa.shape(func(p *path) { p.ellipse(ix, iy-2, 14, 20, 0) }), solid(hex(0x0c1a36, 255)))
	// Dark upper band and ring.
	fill(l, intersect(iris, pa.shape(func(p *path) { p.ellipse(ix, iy-40, 40, 22, 0) })), solid(hex(0x0c1a36, 160)))
	fill(l, outline(iris, 3), solid(hex(0x0f2448, 255)))
	return l
}

func paintHighlight(pa *painter, s side) *image.RGBA {
	l := newLayer()
	ix := s.x(eyeDX) - float64(s)*2
	m := pa.shape(func(p *path) {
		p.ellipse(ix+float64(s)*12, eyeY-16, 11, 13, 0.3)
		p.ellipse(ix-float64(s)*13, eyeY+20, 5, 5, 0)
	})
	fill(l, m, solid(hex(0xffffff, 255)))
	return l
}

func paintLash(pa *painter, s side) *image.RGBA {
	l := newLayer()
	u, _ := eyeCurves(s)
	// Thick at the outer corner, thin towards the inner corner.
	m := pa.stroke(u, func(t float64) float64 {
		return 1.2 + 5.5*math.Pow(1-t, 0.8)*math.Pow(math.Sin(math.Pi*(0.15+0.85*t)), 0.3)
	})
	// Two lashes flicking out of the outer corner.
	o := u[0]
	f := float64(s)
	m = union(m,
		pa.stroke(curve(o, pt{o.X + f*10, o.Y - 4}, pt{o.X + f*16, o.Y - 8}, pt{o.X + f*20, o.Y - 16}, 12), taper(2.6)),
		pa.stroke(curve(pt{o.X - f*6, o.Y - 10}, pt{o.X + f*4, o.Y - 18}, pt{o.X + f*8, o.Y - 22}, pt{o.X + f*10, o.Y - 30}, 12), taper(2.2)),
	)
	fill(l, m, linear(pt{0, eyeY - 60}, pt{0, eyeY}, stop{0, lashColor}, stop{1, hex(0x5a2e2a, 255)}))
	// Double-eyelid crease.
	crease := make([]pt, 0, len(u))
	for i, q := range u {
		if i > 6 && i < len(u)-8 {
			crease = append(crease, pt{q.X, q.Y - 12 - 3*math.Sin(math.Pi*float64(i)/float64(len(u)))})
		}
	}
	fill(l, pa.stroke(crease, taper(1.3)), solid(hex(0xb06f62, 220)))
	return l
}

func paintLowerLid(pa *painter, s side) *image.RGBA {
	l := newLayer()
	_, lo := eyeCurves(s)
	seg := lo[4:30]
	fill(l, pa.stroke(seg, taper(1.6)), solid(hex(0x8a4a44, 200)))
	return l
}

func paintBrow(pa *painter, s side) *image.RGBA {
	l := newLayer()
	ex := s.x(eyeDX)
	f := float64(s)
	q := curve(pt{ex + f*54, browY + 8}, pt{ex + f*34, browY - 12}, pt{ex - f*16, browY - 12}, pt{ex - f*44, browY - 2}, 24)
	fill(l, pa.stroke(q, func(t float64) float64 { return 1 + 3.5*math.Pow(math.Sin(math.Pi*(0.2+0.8*t)), 0.5) }), solid(hex(0x6b3d2e, 255)))
	return l
}

// ---------------------------------------------------------------- mouth

func paintMouthInner(pa *painter) *image.RGBA {
	l := newLayer()
	m := pa.shape(func(p *path) {
		p.moveTo(474, mouthY).cubicTo(490, mouthY+2, 510, mouthY+2, 526, mouthY).
			cubicTo(524, mouthY+20, 512, mouthY+32, cx, mouthY+32).
			cubicTo(488, mouthY+32, 476, mouthY+20, 474, mouthY)
	})
	fill(l, m, linear(pt{cx, mouthY}, pt{cx, mouthY + 32}, stop{0, hex(0x5a1522, 255)}, stop{1, hex(0x8e2e3c, 255)}))
	fill(l, intersect(m, pa.shape(func(p *path) { p.ellipse(cx, mouthY+31, 16, 10, 0) })), solid(hex(0xe7788a, 255)))
	fill(l, intersect(m, pa.shape(func(p *path) {
		p.moveTo(470, mouthY-2).lineTo(530, mouthY-2).lineTo(530, mouthY+5).lineTo(470, mouthY+5)
	})), solid(hex(0xffffff, 255)))
	fill(l, outline(m, 2), solid(hex(0x6a2a30, 255)))
	return l
}

func paintMouthLine(pa *painter) *image.RGBA {
	l := newLayer()
	q := curve(pt{476, mouthY}, pt{490, mouthY + 2}, pt{510, mouthY + 2}, pt{524, mouthY}, 16)
	fill(l, pa.stroke(q, taper(2)), solid(hex(0x8e4048, 255)))
	return l
}

// ---------------------------------------------------------------- blush

func paintBlush(pa *painter) *image.RGBA {
	l := newLayer()
	for _, s := range []side{-1, 1} {
		x := s.x(104)
		m := pa.shape(func(p *path) { p.ellipse(x, 496, 46, 20, 0) })
		fill(l, m, radial(pt{x, 496}, 46, 20, stop{0, hex(0xf27a8c, 170)}, stop{0.6, hex(0xf590a0, 110)}, stop{1, hex(0xf8a8b4, 0)}))
		for i := -1; i <= 1; i++ {
			x0 := x + float64(i)*14
			// A tapered stroke needs inner points to have any width.
			a, b := pt{x0 + 5, 486}, pt{x0 - 5, 504}
			fill(l, pa.stroke(curve(a, lerp(a, b, 1.0/3), lerp(a, b, 2.0/3), b, 8), taper(1.5)), solid(hex(0xe0607a, 170)))
		}
	}
	return l
}
