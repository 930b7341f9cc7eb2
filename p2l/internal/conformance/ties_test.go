package conformance

import (
	"fmt"
	"image/color"
	"math/big"
	"testing"
)

// backdropTies returns the sample positions (scale, texel coordinate,
// channel) where bilinear sampling of the page texel(i, j) (Cell×Cell,
// clamp to edge, texel centres at i + 1/2), or that sample times opacity,
// is an exact 8-bit tie (k + 1/2 in 0..255 units). The positions are those
// of the models: the page is drawn at one texel per canvas pixel, each
// quad starting on a whole canvas pixel (the group backdrop's u 0..0.5
// over half a cell maps the same way), and an output pixel centre at scale
// s is canvas (p + 1/2)/s. Arithmetic is exact (big.Rat).
func backdropTies(texel func(i, j int) color.NRGBA, opacity *big.Rat) []string {
	half := big.NewRat(1, 2)
	isTie := func(v *big.Rat) bool {
		// v − 1/2 is an integer.
		return new(big.Rat).Sub(v, half).IsInt()
	}
	clamp := func(i int) int { return max(0, min(i, Cell-1)) }
	var ties []string
	for _, s := range []int64{1, 2} {
		n := Cell * int(s)
		// coordinate returns, for output pixel p on one axis, the texel
		// index left of the sample (floor, −1 before the first centre)
		// and the weight of the texel after it.
		coordinate := func(p int) (int, *big.Rat) {
			t := new(big.Rat).Sub(big.NewRat(2*int64(p)+1, 2*s), half) // centre − 1/2
			i := new(big.Int).Quo(t.Num(), t.Denom())                  // truncates toward 0
			if t.Sign() < 0 {
				i.Sub(i, big.NewInt(1))
			}
			return int(i.Int64()), new(big.Rat).Sub(t, new(big.Rat).SetInt(i))
		}
		for py := range n {
			j, fy := coordinate(py)
			for px := range n {
				i, fx := coordinate(px)
				gx := new(big.Rat).Sub(big.NewRat(1, 1), fx)
				gy := new(big.Rat).Sub(big.NewRat(1, 1), fy)
				taps := []struct {
					c color.NRGBA
					w *big.Rat
				}{
					{texel(clamp(i), clamp(j)), new(big.Rat).Mul(gx, gy)},
					{texel(clamp(i+1), clamp(j)), new(big.Rat).Mul(fx, gy)},
					{texel(clamp(i), clamp(j+1)), new(big.Rat).Mul(gx, fy)},
					{texel(clamp(i+1), clamp(j+1)), new(big.Rat).Mul(fx, fy)},
				}
				for k, name := range []string{"R", "G", "B", "A"} {
					v := new(big.Rat)
					for _, tp := range taps {
						ch := [4]uint8{tp.c.R, tp.c.G, tp.c.B, tp.c.A}[k]
						v.Add(v, new(big.Rat).Mul(tp.w, big.NewRat(int64(ch), 1)))
					}
					if isTie(v) {
						ties = append(ties, fmt.Sprintf("scale %d pixel (%d,%d) %s = %s", s, px, py, name, v.RatString()))
					}
					if o := new(big.Rat).Mul(v, opacity); isTie(o) {
						ties = append(ties, fmt.Sprintf("scale %d pixel (%d,%d) %s × %s = %s", s, px, py, name, opacity.RatString(), o.RatString()))
					}
				}
			}
		}
	}
	return ties
}

// TestBackdropHasNoTies proves that the backdrop page, sampled where the
// conformance models sample it (scales 1 and 2) and drawn opaque or at
// GroupBackdropOpacity, never lands on an exact 8-bit tie, so parity with
// any RGBA8 GPU target is specified behaviour. The former page (17·i,
// 17·j, 85·k at opacity 1/2) must be caught by the same check.
func TestBackdropHasNoTies(t *testing.T) {
	// The model stores float32(0.6); its error (≈2.4e-8) moves a product of
	// at most 255 by < 1e-5 step, far from the ≥ 1/10 step margin of 3/5.
	if ties := backdropTies(BackdropTexel, big.NewRat(3, 5)); len(ties) != 0 {
		t.Errorf("%d exact ties, e.g. %s", len(ties), ties[0])
	}
	old := func(i, j int) color.NRGBA {
		return color.NRGBA{R: uint8(17 * i), G: uint8(17 * j), B: uint8(85 * ((i + j) % 4)), A: 255}
	}
	if ties := backdropTies(old, big.NewRat(1, 2)); len(ties) == 0 {
		t.Error("the check finds no tie on the former page, which has them (e.g. bilinear blue 212.5 at scale 2)")
	} else {
		t.Logf("former page: %d exact ties, e.g. %s", len(ties), ties[0])
	}
	if float32(GroupBackdropOpacity) != float32(0.6) {
		t.Errorf("GroupBackdropOpacity = %v, the check assumes 3/5", GroupBackdropOpacity)
	}
	// The page is still a pattern: several distinct colours with contrast.
	seen := map[color.NRGBA]bool{}
	for j := range Cell {
		for i := range Cell {
			seen[BackdropTexel(i, j)] = true
		}
	}
	if len(seen) < 64 {
		t.Errorf("backdrop page has only %d colours", len(seen))
	}
}
