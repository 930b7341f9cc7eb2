package p2l

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file holds the arithmetic of runtime skinning (the SKIN chunk,
// P2LRT_V2.md): bracketing a value between keys, the multilinear weights of
// the surrounding key combinations, two-bone linear blending, the blended
// bone transforms the correction subtracts, and the least-squares fit of
// per-vertex weights. It knows nothing of rigs; skin.go feeds it frames.

// combo is one key combination around the current values: its key index on
// every axis and its multilinear weight.
type combo struct {
	keys   []int
	weight float64
}

// comboSet enumerates the key combinations surrounding values on axes with
// their multilinear weights (keys located as grids locate them: snapped
// within 0.001, clamped at the ends) (the products of (1−t) or t per axis, as the
// baking interpolates keyforms). Combinations of weight zero are left out,
// so on a key exactly one combination of weight 1 remains. It reuses its
// storage, so steady-state use allocates nothing.
type comboSet struct {
	list  []combo
	store []int
	k     []int
	t     []float64
}

func (s *comboSet) compute(axes []p2lrt.Axis, value func(param int) float32) []combo {
	n := len(axes)
	if cap(s.k) < n {
		s.k = make([]int, n)
		s.t = make([]float64, n)
	}
	s.k, s.t = s.k[:n], s.t[:n]
	live := 0 // axes with 0 < t
	for i, ax := range axes {
		s.k[i], s.t[i] = locate(ax.Keys, value(ax.Parameter))
		if s.t[i] != 0 {
			live++
		}
	}
	total := 1 << live
	if cap(s.store) < total*n {
		s.store = make([]int, total*n)
	}
	if cap(s.list) < total {
		s.list = make([]combo, total)
	}
	s.list = s.list[:0]
	for m := 0; m < total; m++ {
		keys := s.store[m*n : (m+1)*n]
		w := 1.0
		bit := 0
		for i := range axes {
			keys[i] = s.k[i]
			if s.t[i] == 0 {
				continue
			}
			if m&(1<<bit) != 0 {
				keys[i]++
				w *= s.t[i]
			} else {
				w *= 1 - s.t[i]
			}
			bit++
		}
		s.list = append(s.list, combo{keys: keys, weight: w})
	}
	return s.list
}

// affineSub returns a − b element-wise (a difference of affine maps, linear
// in the point).
func affineSub(a, b Affine) Affine {
	return Affine{a.A - b.A, a.B - b.B, a.C - b.C, a.D - b.D, a.TX - b.TX, a.TY - b.TY}
}

// affineAddScaled returns a + w·b element-wise.
func affineAddScaled(a Affine, w float64, b Affine) Affine {
	return Affine{a.A + w*b.A, a.B + w*b.B, a.C + w*b.C, a.D + w*b.D, a.TX + w*b.TX, a.TY + w*b.TY}
}

// boneCarry returns A_b = H⁻¹ · B · B_rest⁻¹ · H_rest for a bone: the
// transform that carries a rest point of the mesh (in its home's space)
// along with bone b. restCarry is B_rest⁻¹ · H_rest, constant per bone.
func boneCarry(homeInv, bone, restCarry Affine) Affine {
	return homeInv.Mul(bone).Mul(restCarry)
}

// skinDelta returns the correction of one vertex at rest position (px, py)
// weighted w from bone `from` to bone `to`, given per bone the difference
// D_b = A_b(current) − Σ_c w_c A_b(c). Since the two-bone blend is linear in
// the transforms, LBS(current) − Σ_c w_c LBS(c) = ((1−w)·D_from + w·D_to)·p.
func skinDelta(d []Affine, from, to int, w, px, py float64) (float64, float64) {
	a, b := d[from], d[to]
	ax, ay := a.Apply(px, py)
	if w == 0 {
		return ax, ay
	}
	bx, by := b.Apply(px, py)
	return (1-w)*ax + w*bx, (1-w)*ay + w*by
}

// skinFit is the weight fit of one vertex: for every sample (key
// combination) c the position the baking stored and, per bone, where the
// bone's carry transform puts the rest point.
type skinFit struct {
	samples int
	bones   int
	target  []float64 // x,y per sample
	moved   []float64 // x,y per sample per bone: moved[(c*bones+b)*2]
}

// best returns the bone pair and weight that reproduce the samples best in
// the least-squares sense. For a pair (i, j) the error is quadratic in w:
// with d_c = m_j − m_i and r_c = P_c − m_i, w* = Σ r·d / Σ d·d, clamped to
// [0, 1]. A single bone (from = to, w = 0) wins ties: a pair must beat the
// best single bone by more than a relative 1e-9 (rounding) to be chosen,
// and among equal pairs the first in (i, j) order wins, for determinism.
func (f *skinFit) best() (from, to int, w float64) {
	errAt := func(i, j int, w float64) float64 {
		e := 0.0
		for c := 0; c < f.samples; c++ {
			mi := f.moved[(c*f.bones+i)*2:]
			mj := f.moved[(c*f.bones+j)*2:]
			x := (1-w)*mi[0] + w*mj[0] - f.target[2*c]
			y := (1-w)*mi[1] + w*mj[1] - f.target[2*c+1]
			e += x*x + y*y
		}
		return e
	}
	bestE := math.Inf(1)
	for b := 0; b < f.bones; b++ {
		if e := errAt(b, b, 0); e < bestE {
			bestE, from, to, w = e, b, b, 0
		}
	}
	single := bestE
	for i := 0; i < f.bones; i++ {
		for j := i + 1; j < f.bones; j++ {
			num, den := 0.0, 0.0
			for c := 0; c < f.samples; c++ {
				mi := f.moved[(c*f.bones+i)*2:]
				mj := f.moved[(c*f.bones+j)*2:]
				dx, dy := mj[0]-mi[0], mj[1]-mi[1]
				rx, ry := f.target[2*c]-mi[0], f.target[2*c+1]-mi[1]
				num += rx*dx + ry*dy
				den += dx*dx + dy*dy
			}
			if den == 0 {
				continue // the two bones move the point alike
			}
			ww := math.Max(0, math.Min(1, num/den))
			if ww == 0 || ww == 1 {
				continue // a single bone, already considered
			}
			e := errAt(i, j, ww)
			if e < bestE && e < single-1e-9*(1+single) {
				bestE, from, to, w = e, i, j, ww
			}
		}
	}
	return from, to, w
}

// arcPoint interpolates between two points on a circle around (cx, cy) by
// angle and radius: the exact-link pivot of the BONE chunk's arcs. The
// angle goes the short way round (the writer only writes arcs whose steps
// are under half a turn), t = 0 gives the first point, t = 1 the second.
func arcPoint(x0, y0, x1, y1, cx, cy, t float64) (float64, float64) {
	a0 := math.Atan2(y0-cy, x0-cx)
	a1 := math.Atan2(y1-cy, x1-cx)
	da := a1 - a0
	if da > math.Pi {
		da -= 2 * math.Pi
	} else if da < -math.Pi {
		da += 2 * math.Pi
	}
	r0 := math.Hypot(x0-cx, y0-cy)
	r1 := math.Hypot(x1-cx, y1-cy)
	a := a0 + da*t
	r := r0 + (r1-r0)*t
	s, c := math.Sincos(a)
	return cx + r*c, cy + r*s
}
