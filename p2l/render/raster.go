package render

import "math"

// Rasterization follows the usual GPU rules, so that the CPU reference and
// a GPU renderer cover exactly the same pixels:
//
//   - vertices snap to 1/256 pixel (subBits), and edge functions are
//     evaluated exactly in int64, so two triangles sharing an edge compute
//     exactly opposite edge values;
//   - a pixel is covered when its centre (x + 0.5, y + 0.5) lies inside the
//     triangle; a centre exactly on an edge is covered only when that edge is
//     a top edge (horizontal, interior below) or a left edge (interior to its
//     right) — the top-left rule: pixels on a shared edge belong to exactly
//     one of the two triangles, with no gaps and no double coverage.

const (
	subBits = 8
	subOne  = 1 << subBits
	// maxCoord bounds image-space vertex coordinates (pixels) so that edge
	// functions fit in int64; farther vertices are clamped.
	maxCoord = 1 << 22
)

// fixedPoint converts an image coordinate to fixed point; ok is false for
// NaN.
func fixedPoint(v float64) (int64, bool) {
	if v != v {
		return 0, false
	}
	v = math.Max(-maxCoord, math.Min(maxCoord, v))
	return int64(math.Round(v * subOne)), true
}

// rect is a half-open pixel rectangle [x0, x1) × [y0, y1).
type rect struct{ x0, y0, x1, y1 int }

func (r rect) empty() bool { return r.x0 >= r.x1 || r.y0 >= r.y1 }

// pixels is the rectangle's area, 0 when empty.
func (r rect) pixels() int {
	if r.empty() {
		return 0
	}
	return (r.x1 - r.x0) * (r.y1 - r.y0)
}

func (r rect) intersect(s rect) rect {
	return rect{max(r.x0, s.x0), max(r.y0, s.y0), min(r.x1, s.x1), min(r.y1, s.y1)}
}

func (r rect) union(s rect) rect {
	if r.empty() {
		return s
	}
	if s.empty() {
		return r
	}
	return rect{min(r.x0, s.x0), min(r.y0, s.y0), max(r.x1, s.x1), max(r.y1, s.y1)}
}

// triangle is one triangle ready to rasterize: fixed-point vertices with a
// positive doubled area (the raster orientation), and per-vertex u, v.
type triangle struct {
	x, y [3]int64
	u, v [3]float64
}

// spanFunc receives the covered pixels [x0, x1] of row y; u, v are the
// texture coordinates at the centre of pixel x0, and du, dv their change per
// pixel to the right.
type spanFunc func(y, x0, x1 int, u, v, du, dv float64)

// cross2 is the doubled signed area (b − a) × (c − a) in fixed point.
func cross2(t *triangle) int64 {
	return (t.x[1]-t.x[0])*(t.y[2]-t.y[0]) - (t.y[1]-t.y[0])*(t.x[2]-t.x[0])
}

// bounds returns the pixels whose centres may lie in t, clipped to clip.
func (t *triangle) bounds(clip rect) rect {
	minX := min(t.x[0], t.x[1], t.x[2])
	maxX := max(t.x[0], t.x[1], t.x[2])
	minY := min(t.y[0], t.y[1], t.y[2])
	maxY := max(t.y[0], t.y[1], t.y[2])
	// Pixel i has its centre at i·subOne + subOne/2: the first centre ≥
	// minX is ceil((minX − half)/subOne), the last ≤ maxX is
	// floor((maxX − half)/subOne).
	r := rect{
		x0: int(ceilDiv(minX-subOne/2, subOne)),
		y0: int(ceilDiv(minY-subOne/2, subOne)),
		x1: int(floorDiv(maxX-subOne/2, subOne)) + 1,
		y1: int(floorDiv(maxY-subOne/2, subOne)) + 1,
	}
	return r.intersect(clip)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// topLeft reports whether the edge with direction (dx, dy), of a triangle
// with positive cross2 in y-down coordinates, is a top or a left edge.
func topLeft(dx, dy int64) bool { return dy < 0 || dy == 0 && dx > 0 }

// raster calls span for every covered row of t inside clip. t must have a
// positive cross2 (the caller orients it).
func raster(t *triangle, clip rect, span spanFunc) {
	area := cross2(t)
	if area <= 0 {
		return
	}
	b := t.bounds(clip)
	if b.empty() {
		return
	}
	// Edge i runs from vertex i to vertex i+1 and is opposite vertex i+2;
	// its edge function at p is (v[i+1] − v[i]) × (p − v[i]), positive
	// inside. The barycentric weight of vertex i+2 is E_i / area.
	var e0, stepX, stepY [3]int64
	var bias [3]int64
	px := int64(b.x0)*subOne + subOne/2
	py := int64(b.y0)*subOne + subOne/2
	for i := 0; i < 3; i++ {
		j := (i + 1) % 3
		dx := t.x[j] - t.x[i]
		dy := t.y[j] - t.y[i]
		e0[i] = dx*(py-t.y[i]) - dy*(px-t.x[i])
		stepX[i] = -dy * subOne
		stepY[i] = dx * subOne
		if !topLeft(dx, dy) {
			bias[i] = 1
		}
	}
	// Texture coordinates are affine in the pixel position: from the edge
	// functions, u(p) = Σ E_i(p)·u[i+2] / area.
	inv := 1 / float64(area)
	uAt := func(e *[3]int64, w *[3]float64) float64 {
		return (float64(e[0])*w[2] + float64(e[1])*w[0] + float64(e[2])*w[1]) * inv
	}
	du := (float64(stepX[0])*t.u[2] + float64(stepX[1])*t.u[0] + float64(stepX[2])*t.u[1]) * inv
	dv := (float64(stepX[0])*t.v[2] + float64(stepX[1])*t.v[0] + float64(stepX[2])*t.v[1]) * inv
	row := e0
	for y := b.y0; y < b.y1; y++ {
		e := row
		first := -1
		x := b.x0
		for ; x < b.x1; x++ {
			if e[0] >= bias[0] && e[1] >= bias[1] && e[2] >= bias[2] {
				first = x
				break
			}
			e[0] += stepX[0]
			e[1] += stepX[1]
			e[2] += stepX[2]
		}
		if first >= 0 {
			start := e
			last := x
			for x++; x < b.x1; x++ {
				e[0] += stepX[0]
				e[1] += stepX[1]
				e[2] += stepX[2]
				if e[0] < bias[0] || e[1] < bias[1] || e[2] < bias[2] {
					break
				}
				last = x
			}
			span(y, first, last, uAt(&start, &t.u), uAt(&start, &t.v), du, dv)
		}
		row[0] += stepY[0]
		row[1] += stepY[1]
		row[2] += stepY[2]
	}
}
