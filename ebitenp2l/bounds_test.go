package ebitenp2l

import (
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDestBounds: a canvas box through a GeoM covers the pixels from the
// floor of its corners' least coordinates to the ceiling of their
// greatest, clamped to ±2^24, and nothing when the box or a corner is not
// finite; computed here corner by corner with math.Floor and math.Ceil.
func TestDestBounds(t *testing.T) {
	// By hand: x 0.5·0 + 10.25 = 10.25 to 0.5·3 + 10.25 = 11.75, y 3 to
	// 5.5.
	geo := [6]float64{0.5, 0, 0, 0.5, 10.25, 3}
	if got, want := destBounds(&geo, [4]float32{0, 0, 3, 5}), image.Rect(10, 3, 12, 6); got != want {
		t.Errorf("by hand: %v, want %v", got, want)
	}
	want := func(geo *[6]float64, box [4]float32) image.Rectangle {
		var xs, ys []float64
		for _, p := range [4][2]float32{{box[0], box[1]}, {box[2], box[1]}, {box[0], box[3]}, {box[2], box[3]}} {
			x, y := float64(p[0]), float64(p[1])
			xs = append(xs, geo[0]*x+geo[1]*y+geo[4])
			ys = append(ys, geo[2]*x+geo[3]*y+geo[5])
		}
		for _, f := range append(append(xs, ys...), float64(box[0]), float64(box[1]), float64(box[2]), float64(box[3])) {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return image.Rectangle{}
			}
		}
		cl := func(f float64) int { return int(math.Max(math.Min(f, 1<<24), -(1 << 24))) }
		return image.Rectangle{
			Min: image.Pt(cl(math.Floor(slices.Min(xs))), cl(math.Floor(slices.Min(ys)))),
			Max: image.Pt(cl(math.Ceil(slices.Max(xs))), cl(math.Ceil(slices.Max(ys)))),
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	coord := func() float32 {
		switch rng.IntN(12) {
		case 0:
			return float32(math.NaN())
		case 1:
			return float32(math.Inf(1 - 2*rng.IntN(2)))
		case 2:
			return float32(rng.NormFloat64() * 1e9) // beyond the clamp
		case 3:
			return float32(rng.IntN(200) - 100) // on pixel edges
		}
		return float32(rng.NormFloat64() * 500)
	}
	scale := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return -rng.Float64() * 3
		}
		return rng.Float64() * 3
	}
	for i := range 200000 {
		var geo [6]float64
		geo[0], geo[3] = scale(), scale()
		if i%3 == 0 { // rotated or sheared
			geo[1], geo[2] = scale(), scale()
		}
		geo[4], geo[5] = rng.NormFloat64()*300, float64(rng.IntN(100))/4
		x0, y0 := coord(), coord()
		box := [4]float32{x0, y0, x0 + float32(rng.Float64()*100), y0 + float32(rng.Float64()*100)}
		if i%50 == 0 {
			box[2], box[3] = coord(), coord()
		}
		if got, w := destBounds(&geo, box), want(&geo, box); got != w {
			t.Fatalf("geo %v box %v: %v, want %v", geo, box, got, w)
		}
	}
}
