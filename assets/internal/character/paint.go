package character

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// This file is a tiny vector-painting toolkit on top of
// golang.org/x/image/vector: paths flattened to polygons, anti-aliased
// coverage masks, mask algebra (union, intersection, difference), gradient
// sources and tapered strokes. Everything is drawn in canvas pixels and is
// deterministic: the same calls give the same bytes.

// pt is a point in canvas pixels.
type pt struct{ X, Y float64 }

func (a pt) add(b pt) pt            { return pt{a.X + b.X, a.Y + b.Y} }
func (a pt) sub(b pt) pt            { return pt{a.X - b.X, a.Y - b.Y} }
func (a pt) mul(s float64) pt       { return pt{a.X * s, a.Y * s} }
func (a pt) len() float64           { return math.Hypot(a.X, a.Y) }
func lerp(a, b pt, t float64) pt    { return pt{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t} }
func lerpf(a, b, t float64) float64 { return a + (b-a)*t }

// path is a set of closed polygons (curves are flattened when added).
type path struct {
	subs [][]pt
	cur  []pt
}

const curveSteps = 24

func (p *path) moveTo(x, y float64) *path {
	p.flush()
	p.cur = []pt{{x, y}}
	return p
}

func (p *path) lineTo(x, y float64) *path {
	p.cur = append(p.cur, pt{x, y})
	return p
}

func (p *path) cubicTo(c1x, c1y, c2x, c2y, x, y float64) *path {
	a := p.cur[len(p.cur)-1]
	for i := 1; i <= curveSteps; i++ {
		t := float64(i) / curveSteps
		u := 1 - t
		b0, b1, b2, b3 := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
		p.cur = append(p.cur, pt{b0*a.X + b1*c1x + b2*c2x + b3*x, b0*a.Y + b1*c1y + b2*c2y + b3*y})
	}
	return p
}

func (p *path) flush() {
	if len(p.cur) > 2 {
		p.subs = append(p.subs, p.cur)
	}
	p.cur = nil
}

// Close ends the current polygon.
func (p *path) Close() *path { p.flush(); return p }

// poly adds a closed polygon.
func (p *path) poly(pts []pt) *path {
	p.flush()
	if len(pts) > 2 {
		p.subs = append(p.subs, append([]pt(nil), pts...))
	}
	return p
}

// ellipse adds an ellipse centred at (cx, cy), rotated by rot radians.
func (p *path) ellipse(cx, cy, rx, ry, rot float64) *path {
	const n = 96
	pts := make([]pt, n)
	s, c := math.Sincos(rot)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / n
		x, y := rx*math.Cos(a), ry*math.Sin(a)
		pts[i] = pt{cx + x*c - y*s, cy + x*s + y*c}
	}
	return p.poly(pts)
}

// painter owns the canvas size and a reusable rasterizer.
type painter struct {
	w, h int
	z    *vector.Rasterizer
}

func newPainter(w, h int) *painter {
	return &painter{w: w, h: h, z: vector.NewRasterizer(w, h)}
}

// mask rasterizes p into a new coverage mask of the canvas size.
func (pa *painter) mask(p *path) *image.Alpha {
	p.flush()
	m := image.NewAlpha(image.Rect(0, 0, pa.w, pa.h))
	pa.z.Reset(pa.w, pa.h)
	for _, s := range p.subs {
		pa.z.MoveTo(float32(s[0].X), float32(s[0].Y))
		for _, q := range s[1:] {
			pa.z.LineTo(float32(q.X), float32(q.Y))
		}
		pa.z.ClosePath()
	}
	pa.z.DrawOp = draw.Src
	pa.z.Draw(m, m.Bounds(), image.Opaque, image.Point{})
	return m
}

// shape is a shorthand for mask of a fresh path built by f.
func (pa *painter) shape(f func(p *path)) *image.Alpha {
	p := &path{}
	f(p)
	return pa.mask(p)
}

// union returns max(a, b) per pixel.
func union(ms ...*image.Alpha) *image.Alpha {
	out := image.NewAlpha(ms[0].Rect)
	for _, m := range ms {
		for i, v := range m.Pix {
			if v > out.Pix[i] {
				out.Pix[i] = v
			}
		}
	}
	return out
}

// intersect returns a·b per pixel.
func intersect(a, b *image.Alpha) *image.Alpha {
	out := image.NewAlpha(a.Rect)
	for i := range a.Pix {
		out.Pix[i] = uint8((uint32(a.Pix[i])*uint32(b.Pix[i]) + 127) / 255)
	}
	return out
}

// subtract returns a·(1−b) per pixel.
func subtract(a, b *image.Alpha) *image.Alpha {
	out := image.NewAlpha(a.Rect)
	for i := range a.Pix {
		out.Pix[i] = uint8((uint32(a.Pix[i])*uint32(255-b.Pix[i]) + 127) / 255)
	}
	return out
}

// scaleMask returns m·s per pixel.
func scaleMask(m *image.Alpha, s float64) *image.Alpha {
	out := image.NewAlpha(m.Rect)
	for i, v := range m.Pix {
		out.Pix[i] = uint8(math.Round(float64(v) * s))
	}
	return out
}

// bounds returns the bounding box of the non-zero pixels of m.
func bounds(m *image.Alpha) image.Rectangle {
	r := image.Rectangle{}
	w := m.Rect.Dx()
	for y := 0; y < m.Rect.Dy(); y++ {
		row := m.Pix[y*m.Stride : y*m.Stride+w]
		for x, v := range row {
			if v != 0 {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}

// fill composites src over dst through mask m.
func fill(dst *image.RGBA, m *image.Alpha, src image.Image) {
	r := bounds(m)
	if r.Empty() {
		return
	}
	draw.DrawMask(dst, r, src, r.Min, m, r.Min, draw.Over)
}

// solid is a uniform source.
func solid(c color.NRGBA) image.Image { return image.NewUniform(c) }

// hex parses 0xRRGGBB with alpha a (0..255).
func hex(v uint32, a uint8) color.NRGBA {
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), a}
}

// stop is one gradient color stop.
type stop struct {
	t float64
	c color.NRGBA
}

func sample(stops []stop, t float64) color.NRGBA {
	if t <= stops[0].t {
		return stops[0].c
	}
	for i := 1; i < len(stops); i++ {
		if t <= stops[i].t {
			a, b := stops[i-1], stops[i]
			f := (t - a.t) / (b.t - a.t)
			mix := func(x, y uint8) uint8 { return uint8(math.Round(lerpf(float64(x), float64(y), f))) }
			return color.NRGBA{mix(a.c.R, b.c.R), mix(a.c.G, b.c.G), mix(a.c.B, b.c.B), mix(a.c.A, b.c.A)}
		}
	}
	return stops[len(stops)-1].c
}

// gradient is an image.Image whose color depends on a scalar field.
type gradient struct {
	stops []stop
	f     func(x, y float64) float64
}

func (g gradient) ColorModel() color.Model { return color.NRGBAModel }
func (g gradient) Bounds() image.Rectangle { return image.Rect(-1e6, -1e6, 1e6, 1e6) }
func (g gradient) At(x, y int) color.Color {
	return sample(g.stops, g.f(float64(x)+0.5, float64(y)+0.5))
}

// linear is a gradient from a (t = 0) to b (t = 1).
func linear(a, b pt, stops ...stop) image.Image {
	d := b.sub(a)
	l2 := d.X*d.X + d.Y*d.Y
	return gradient{stops, func(x, y float64) float64 {
		return ((x-a.X)*d.X + (y-a.Y)*d.Y) / l2
	}}
}

// radial is an elliptical gradient: t = 0 at c, t = 1 on the ellipse (rx, ry).
func radial(c pt, rx, ry float64, stops ...stop) image.Image {
	return gradient{stops, func(x, y float64) float64 {
		return math.Hypot((x-c.X)/rx, (y-c.Y)/ry)
	}}
}

// stroke returns the mask of a tapered stroke along the polyline pts, whose
// half width at arc-length fraction t is hw(t).
func (pa *painter) stroke(pts []pt, hw func(t float64) float64) *image.Alpha {
	return pa.mask(strokePath(pts, hw))
}

// strokePath builds the outline polygon of a tapered stroke. The rasterizer
// takes |winding| clamped to 1, so self-overlaps at tight bends stay filled.
func strokePath(pts []pt, hw func(t float64) float64) *path {
	n := len(pts)
	cum := make([]float64, n)
	for i := 1; i < n; i++ {
		cum[i] = cum[i-1] + pts[i].sub(pts[i-1]).len()
	}
	total := cum[n-1]
	left := make([]pt, n)
	right := make([]pt, n)
	for i := range pts {
		var d pt
		switch {
		case i == 0:
			d = pts[1].sub(pts[0])
		case i == n-1:
			d = pts[n-1].sub(pts[n-2])
		default:
			d = pts[i+1].sub(pts[i-1])
		}
		l := d.len()
		if l == 0 {
			l = 1
		}
		nrm := pt{-d.Y / l, d.X / l}
		w := hw(cum[i] / total)
		left[i] = pts[i].add(nrm.mul(w))
		right[i] = pts[i].sub(nrm.mul(w))
	}
	poly := append([]pt(nil), left...)
	for i := n - 1; i >= 0; i-- {
		poly = append(poly, right[i])
	}
	// The caps below are ellipses of positive orientation (shoelace area >
	// 0 in y-down coordinates). The rasterizer adds signed windings before
	// taking |winding|, so a polygon of the other orientation would cancel
	// where a cap overlaps it and punch a hole (the white specks that once
	// showed at the lash corners and brow ends): orient the polygon the
	// same way.
	if signedArea(poly) < 0 {
		for i, j := 0, len(poly)-1; i < j; i, j = i+1, j-1 {
			poly[i], poly[j] = poly[j], poly[i]
		}
	}
	p := &path{}
	p.poly(poly)
	// Round caps where the stroke has width at its ends.
	if w := hw(0); w > 0.5 {
		p.ellipse(pts[0].X, pts[0].Y, w, w, 0)
	}
	if w := hw(1); w > 0.5 {
		p.ellipse(pts[n-1].X, pts[n-1].Y, w, w, 0)
	}
	return p
}

// signedArea is the shoelace area of a closed polygon: positive for the
// orientation of path.ellipse in y-down coordinates.
func signedArea(poly []pt) float64 {
	s := 0.0
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		s += a.X*b.Y - b.X*a.Y
	}
	return s / 2
}

// curve samples a cubic Bezier into n+1 points.
func curve(a, c1, c2, b pt, n int) []pt {
	out := make([]pt, n+1)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		u := 1 - t
		b0, b1, b2, b3 := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
		out[i] = pt{b0*a.X + b1*c1.X + b2*c2.X + b3*b.X, b0*a.Y + b1*c1.Y + b2*c2.Y + b3*b.Y}
	}
	return out
}

// taper is a half-width profile: zero at both ends, w in the middle.
func taper(w float64) func(float64) float64 {
	return func(t float64) float64 { return w * math.Pow(math.Sin(math.Pi*t), 0.6) }
}

// constant is a constant half-width profile.
func constant(w float64) func(float64) float64 { return func(float64) float64 { return w } }

// edge returns the inner rim of mask m: m minus m shifted by (dx, dy). Used to
// paint rim light and shade bands that follow a shape's own outline.
func edge(m *image.Alpha, dx, dy int) *image.Alpha {
	out := image.NewAlpha(m.Rect)
	w, h := m.Rect.Dx(), m.Rect.Dy()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := m.Pix[y*m.Stride+x]
			if v == 0 {
				continue
			}
			sx, sy := x-dx, y-dy
			var s uint8
			if sx >= 0 && sy >= 0 && sx < w && sy < h {
				s = m.Pix[sy*m.Stride+sx]
			}
			out.Pix[y*m.Stride+x] = uint8((uint32(v)*uint32(255-s) + 127) / 255)
		}
	}
	return out
}

// outline returns the band of m within about r pixels of its border: m minus
// m eroded (approximated by the intersection of shifted copies).
func outline(m *image.Alpha, r int) *image.Alpha {
	er := m
	for _, d := range [][2]int{{r, 0}, {-r, 0}, {0, r}, {0, -r}, {r * 7 / 10, r * 7 / 10}, {-r * 7 / 10, r * 7 / 10}, {r * 7 / 10, -r * 7 / 10}, {-r * 7 / 10, -r * 7 / 10}} {
		er = intersect(er, shift(m, d[0], d[1]))
	}
	return subtract(m, er)
}

// shift returns m moved by (dx, dy); pixels shifted in from outside the
// canvas repeat the edge, so shapes that run off the canvas get no outline
// along the canvas border.
func shift(m *image.Alpha, dx, dy int) *image.Alpha {
	out := image.NewAlpha(m.Rect)
	w, h := m.Rect.Dx(), m.Rect.Dy()
	for y := 0; y < h; y++ {
		sy := clampInt(y-dy, 0, h-1)
		for x := 0; x < w; x++ {
			sx := clampInt(x-dx, 0, w-1)
			out.Pix[y*m.Stride+x] = m.Pix[sy*m.Stride+sx]
		}
	}
	return out
}
