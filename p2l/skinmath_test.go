package p2l

import (
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// rot returns the frame rotating by deg degrees about (ox, oy) after moving
// the origin there: the canvas frame of a rotation deformer at (ox, oy).
func rot(ox, oy, deg float64) Affine {
	s, c := math.Sincos(deg * math.Pi / 180)
	return Affine{A: c, B: -s, C: s, D: c, TX: ox, TY: oy}
}

func TestArcPivotAtMidAngle(t *testing.T) {
	// Keys at angles 0° and 90° on the circle of radius 10 around (5, 5):
	// halfway the exact link is at 45° on the circle, the chord's midpoint
	// only 10·cos 45° from the centre.
	x, y := arcPoint(15, 5, 5, 15, 5, 5, 0.5)
	wx, wy := 5+10*math.Sqrt2/2, 5+10*math.Sqrt2/2
	if math.Abs(x-wx) > 1e-12 || math.Abs(y-wy) > 1e-12 {
		t.Fatalf("mid pivot (%v, %v), want (%v, %v)", x, y, wx, wy)
	}
	// Different radii: the radius interpolates linearly with the angle.
	x, y = arcPoint(15, 5, 5, 25, 5, 5, 0.5) // radius 10 → 20
	if r := math.Hypot(x-5, y-5); math.Abs(r-15) > 1e-12 {
		t.Fatalf("mid radius %v, want 15", r)
	}
	// Crossing ±180° takes the short way.
	x, y = arcPoint(-10, 1e-9, -10, -1e-9, 0, 0, 0.5)
	if math.Abs(x+10) > 1e-9 || math.Abs(y) > 1e-9 {
		t.Fatalf("short way round gave (%v, %v)", x, y)
	}
}

func TestTwoSegmentArmElbowOnArc(t *testing.T) {
	// Upper arm: the home frame, fixed at the origin. Forearm bone: the
	// elbow at (10, 0), its angle keyed at 0° and 90° on one axis. A wrist
	// vertex at rest (20, 0), rigidly on the forearm (w = 1).
	//
	// By hand: the bone carries the wrist to (10 + 10 cos θ, 10 sin θ),
	// (20, 0) at 0° and (10, 10) at 90°. The baking interpolates keyforms,
	// so at the mid value the baked wrist is the chord midpoint (15, 5).
	// The correction is LBS(45°) − ½LBS(0°) − ½LBS(90°)
	//   = (10 + 5√2, 5√2) − (15, 5),
	// which moves the wrist to (10 + 5√2, 5√2): on the arc, 10 from the
	// elbow, while the chord midpoint is only 5√2 ≈ 7.07 from it.
	home := Identity
	homeInv, _ := home.Invert()
	elbowAt := func(deg float64) Affine { return rot(10, 0, deg) }
	restInv, _ := elbowAt(0).Invert()
	restCarry := restInv.Mul(home)
	carry := func(deg float64) Affine { return boneCarry(homeInv, elbowAt(deg), restCarry) }

	axes := []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 90}}}
	var cs comboSet
	combos := cs.compute(axes, func(int) float32 { return 45 })
	blend := Affine{}
	for _, c := range combos {
		blend = affineAddScaled(blend, c.weight, carry(float64(axes[0].Keys[c.keys[0]])))
	}
	d := []Affine{affineSub(carry(45), blend)}
	dx, dy := skinDelta(d, 0, 0, 0, 20, 0)
	x, y := 15+dx, 5+dy
	wx, wy := 10+5*math.Sqrt2, 5*math.Sqrt2
	if math.Abs(x-wx) > 1e-12 || math.Abs(y-wy) > 1e-12 {
		t.Fatalf("skinned wrist (%v, %v), want (%v, %v)", x, y, wx, wy)
	}
	if r := math.Hypot(x-10, y); math.Abs(r-10) > 1e-12 {
		t.Fatalf("skinned wrist %v from the elbow, want 10 (on the arc)", r)
	}
}

func TestSkinCorrectionZeroAtEveryKey(t *testing.T) {
	// Two axes with three and two keys; three bones whose frames depend on
	// both parameters in an arbitrary nonlinear way. At every key
	// combination the correction must be exactly zero for every vertex:
	// the current frames are the key combination's frames.
	axes := []p2lrt.Axis{{Parameter: 0, Keys: []float32{-30, 0, 30}}, {Parameter: 1, Keys: []float32{-1, 1}}}
	frames := func(p0, p1 float32, b int) Affine {
		a, c := float64(p0), float64(p1)
		return rot(3*float64(b)+c*c, 2*a/7+float64(b), a*float64(b+1)+17*c).Mul(Affine{A: 1 + 0.1*c, D: 1, TX: 0.3 * a})
	}
	homeAt := func(p0, p1 float32) Affine { return rot(1, 2, float64(p0)/3) }
	restCarry := make([]Affine, 3)
	for b := range restCarry {
		inv, _ := frames(0, 0, b).Invert()
		restCarry[b] = inv.Mul(homeAt(0, 0))
	}
	carry := func(p0, p1 float32, b int) Affine {
		hi, _ := homeAt(p0, p1).Invert()
		return boneCarry(hi, frames(p0, p1, b), restCarry[b])
	}
	var cs comboSet
	worst := 0.0
	for _, k0 := range axes[0].Keys {
		for _, k1 := range axes[1].Keys {
			vals := []float32{k0, k1}
			combos := cs.compute(axes, func(p int) float32 { return vals[p] })
			if len(combos) != 1 || combos[0].weight != 1 {
				t.Fatalf("at a key: %d combinations, first weight %v", len(combos), combos[0].weight)
			}
			d := make([]Affine, 3)
			for b := range d {
				blend := Affine{}
				for _, c := range combos {
					blend = affineAddScaled(blend, c.weight, carry(axes[0].Keys[c.keys[0]], axes[1].Keys[c.keys[1]], b))
				}
				d[b] = affineSub(carry(k0, k1, b), blend)
			}
			for v := 0; v < 50; v++ {
				px, py := float64(v)*1.7-40, math.Sin(float64(v))*25
				x, y := skinDelta(d, v%3, (v+1)%3, float64(v%7)/6, px, py)
				worst = math.Max(worst, math.Max(math.Abs(x), math.Abs(y)))
			}
		}
	}
	if worst != 0 {
		t.Fatalf("max correction at keys %v, want exactly 0", worst)
	}
}

func TestComboWeights(t *testing.T) {
	axes := []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 10, 20}}, {Parameter: 1, Keys: []float32{-1, 1}}}
	vals := []float32{12.5, 0.5}
	var cs comboSet
	combos := cs.compute(axes, func(p int) float32 { return vals[p] })
	// t0 = 0.25 between keys 1 and 2, t1 = 0.75 between keys 0 and 1.
	want := map[[2]int]float64{{1, 0}: 0.75 * 0.25, {2, 0}: 0.25 * 0.25, {1, 1}: 0.75 * 0.75, {2, 1}: 0.25 * 0.75}
	if len(combos) != 4 {
		t.Fatalf("%d combinations, want 4", len(combos))
	}
	for _, c := range combos {
		k := [2]int{c.keys[0], c.keys[1]}
		if math.Abs(c.weight-want[k]) > 1e-15 {
			t.Errorf("combination %v weight %v, want %v", k, c.weight, want[k])
		}
	}
	// Snapping and clamping.
	if k, tt := locate(axes[0].Keys, 10.0009); k != 1 || tt != 0 {
		t.Errorf("10.0009 bracket (%d, %v), want on key 1", k, tt)
	}
	if k, tt := locate(axes[0].Keys, 99); k != 2 || tt != 0 {
		t.Errorf("99 bracket (%d, %v), want clamped to key 2", k, tt)
	}
}

func TestFitRecoversWeightsAndPrefersSingleBone(t *testing.T) {
	// Samples made by a known blend of bones 1 and 2 at weight 0.3 are fitted
	// back exactly; samples that bone 0 and bone 2 reproduce equally (their
	// carries are identical) fit to the single bone 0.
	carries := func(c int) []Affine {
		a := float64(c) * 20
		return []Affine{rot(0, 0, a), rot(5, 0, -a), rot(0, 5, 2*a)}
	}
	const samples = 5
	f := skinFit{samples: samples, bones: 3, target: make([]float64, 2*samples), moved: make([]float64, 2*samples*3)}
	px, py := 7.0, -3.0
	for c := 0; c < samples; c++ {
		for b, m := range carries(c) {
			f.moved[(c*3+b)*2], f.moved[(c*3+b)*2+1] = m.Apply(px, py)
		}
		m1, m2 := f.moved[(c*3+1)*2:], f.moved[(c*3+2)*2:]
		f.target[2*c] = 0.7*m1[0] + 0.3*m2[0]
		f.target[2*c+1] = 0.7*m1[1] + 0.3*m2[1]
	}
	from, to, w := f.best()
	if from != 1 || to != 2 || math.Abs(w-0.3) > 1e-9 {
		t.Fatalf("fit (%d, %d, %v), want (1, 2, 0.3)", from, to, w)
	}
	// Tie: every bone carries the point the same way and the samples are
	// exactly that: the fit is rigid on bone 0.
	for c := 0; c < samples; c++ {
		for b := 0; b < 3; b++ {
			f.moved[(c*3+b)*2], f.moved[(c*3+b)*2+1] = float64(c), 1
		}
		f.target[2*c], f.target[2*c+1] = float64(c), 1
	}
	if from, to, w := f.best(); from != 0 || to != 0 || w != 0 {
		t.Fatalf("tie fit (%d, %d, %v), want rigid on bone 0", from, to, w)
	}
}
