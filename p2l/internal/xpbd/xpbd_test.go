package xpbd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// base returns a spec of n free unit-mass particles with every optional
// constraint absent (negative compliance).
func base(n int) Spec {
	s := Spec{Particles: n, Fps: 60, Substeps: 8, PinCompliance: -1}
	s.InvMass = fill(n, 1)
	s.Damping = fill(n, 0)
	s.WindFactor = fill(n, 0)
	s.PinWeight = fill(n, 0)
	s.GoalCompliance = fill(n, -1)
	s.GoalOffsetX = fill(n, 0)
	s.GoalOffsetY = fill(n, 0)
	return s
}

func fill(n int, v float64) []float64 {
	a := make([]float64, n)
	for i := range a {
		a[i] = v
	}
	return a
}

func mustScene(t *testing.T, s Spec) *Scene {
	t.Helper()
	sc, err := NewScene(s)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// strand is a horizontal chain of n particles 10 px apart starting at the
// origin; particle 0 is kinematic (invMass 0) and follows its target.
func strand(n int) (Spec, []float64) {
	s := base(n)
	s.InvMass[0] = 0
	s.GravityY = -980
	s.Damping = fill(n, 1.5)
	for i := 0; i+1 < n; i++ {
		s.StretchA = append(s.StretchA, uint32(i))
		s.StretchB = append(s.StretchB, uint32(i+1))
		s.Rest = append(s.Rest, 10)
		s.Compliance = append(s.Compliance, 0)
		s.CompressionCompliance = append(s.CompressionCompliance, 0)
	}
	tg := make([]float64, 2*n)
	for i := 0; i < n; i++ {
		tg[2*i] = float64(10 * i)
	}
	return s, tg
}

func TestHangingStrandSettles(t *testing.T) {
	const n = 10
	spec, tg := strand(n)
	sc := mustScene(t, spec)
	sc.SetInputs(tg, tg, nil)
	for f := 0; f < 60*15; f++ {
		sc.SetInputs(tg, tg, nil)
		sc.Advance(1.0 / 60)
	}
	out := make([]float64, 2*n)
	sc.Last(out)
	// At rest the strand hangs straight down from the fixed particle with
	// every segment at its rest length; the tolerance is the solver's
	// residual sag of a hard chain under gravity at 480 substeps/s.
	for i := 0; i+1 < n; i++ {
		l := math.Hypot(out[2*i+2]-out[2*i], out[2*i+3]-out[2*i+1])
		if math.Abs(l-10) > 0.05 {
			t.Errorf("segment %d length %v, want 10±0.05", i, l)
		}
		if math.Abs(out[2*i+2]) > 0.5 {
			t.Errorf("particle %d x = %v, want hanging below x=0", i+1, out[2*i+2])
		}
	}
	if y := out[2*n-1]; math.Abs(y-(-90)) > 0.5 {
		t.Errorf("tip y = %v, want ≈ −90", y)
	}
}

func TestFreeFallWhenConstraintsAbsent(t *testing.T) {
	// Two particles joined by a stretch constraint whose both compliances
	// are negative (absent), pinned with weight 1 but pin compliance
	// negative (pins absent), with a goal of negative compliance: nothing
	// holds them, so each falls as symplectic Euler does:
	// after k substeps y = h²·g·k(k+1)/2.
	s := base(2)
	s.GravityY = -1000
	s.PinWeight = fill(2, 1)
	s.StretchA, s.StretchB = []uint32{0}, []uint32{1}
	s.Rest, s.Compliance, s.CompressionCompliance = []float64{5}, []float64{-1}, []float64{-1}
	sc := mustScene(t, s)
	tg := []float64{0, 0, 100, 0}
	sc.SetInputs(tg, tg, nil)
	if got := sc.Advance(1.0 / 60); got != 1 {
		t.Fatalf("Advance ran %d steps, want 1", got)
	}
	h := 1.0 / 60 / 8
	want := h * h * -1000 * 8 * 9 / 2
	out := make([]float64, 4)
	sc.Last(out)
	for i := 0; i < 2; i++ {
		if math.Abs(out[2*i+1]-want) > 1e-9 || out[2*i] != tg[2*i] {
			t.Errorf("particle %d at (%v, %v), want (%v, %v)", i, out[2*i], out[2*i+1], tg[2*i], want)
		}
	}
}

func TestGoalFirstSubstepAndPullBack(t *testing.T) {
	// One particle, no gravity, a goal of compliance α towards its target
	// plus an offset. The target jumps by (30, 0) after the start; the
	// inputs are interpolated over the frame, and with a single step per
	// frame and one substep the step sees the new target. One XPBD
	// projection from rest moves the particle k = w/(w + α/h²) of the way.
	s := base(1)
	s.Substeps = 1
	s.GoalCompliance = []float64{1e-4}
	s.GoalOffsetX = []float64{2}
	s.GoalOffsetY = []float64{-3}
	sc := mustScene(t, s)
	sc.SetInputs([]float64{0, 0}, []float64{0, 0}, nil)
	sc.SetInputs([]float64{30, 0}, []float64{0, 0}, nil)
	sc.Advance(1.0 / 60)
	h := 1.0 / 60
	k := 1 / (1 + 1e-4/(h*h))
	out := make([]float64, 2)
	sc.Last(out)
	if math.Abs(out[0]-32*k) > 1e-12 || math.Abs(out[1]-(-3*k)) > 1e-12 {
		t.Fatalf("after one step at (%v, %v), want (%v, %v)", out[0], out[1], 32*k, -3*k)
	}
	for f := 0; f < 600; f++ {
		sc.SetInputs([]float64{30, 0}, []float64{0, 0}, nil)
		sc.Advance(1.0 / 60)
	}
	sc.Last(out)
	if math.Abs(out[0]-32) > 1e-3 || math.Abs(out[1]+3) > 1e-3 {
		t.Fatalf("goal did not pull back: at (%v, %v), want (32, −3)", out[0], out[1])
	}
}

func TestCapsuleNeverPenetrated(t *testing.T) {
	// A strand swinging down across a tapered capsule below it, with and
	// without friction: after every step no particle lies inside the
	// capsule by more than the solver's tolerance.
	for _, friction := range []float64{0, 0.5, 1} {
		const n = 12
		spec, tg := strand(n)
		spec.Colliders = 1
		sc := mustScene(t, spec)
		cap := []Shape{{Capsule: true, AX: 20, AY: -30, BX: 90, BY: -45, RadiusA: 6, RadiusB: 14, Friction: friction}}
		sc.SetInputs(tg, tg, cap)
		out := make([]float64, 2*n)
		worst := 0.0
		touched := false
		for f := 0; f < 300; f++ {
			sc.SetInputs(tg, tg, cap)
			sc.Advance(1.0 / 60)
			sc.Last(out)
			for i := 1; i < n; i++ {
				p := cap[0].Penetration(out[2*i], out[2*i+1])
				worst = math.Max(worst, p)
				cx, cy, r := cap[0].closest(out[2*i], out[2*i+1])
				if math.Hypot(out[2*i]-cx, out[2*i+1]-cy) < r+0.5 {
					touched = true
				}
			}
		}
		if worst > 1e-9 {
			t.Errorf("friction %v: penetration %v > 1e-9", friction, worst)
		}
		if !touched {
			t.Errorf("friction %v: strand never reached the capsule; the test proves nothing", friction)
		}
	}
}

func TestBitIdenticalTrajectories(t *testing.T) {
	run := func() []uint64 {
		spec, tg := strand(8)
		spec.WindX, spec.WindFactor = 50, fill(8, 1)
		spec.Colliders = 1
		sc := mustScene(t, spec)
		col := []Shape{{AX: 30, AY: -25, RadiusA: 8, Friction: 0.3}}
		var bits []uint64
		out := make([]float64, 16)
		for f := 0; f < 120; f++ {
			tg[0] = 5 * math.Sin(float64(f)*0.1)
			sc.SetInputs(tg, tg, col)
			sc.Advance(0.013 + 0.004*float64(f%3))
			sc.Interpolated(out)
			for _, v := range out {
				bits = append(bits, math.Float64bits(v))
			}
		}
		return bits
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("trajectories differ at value %d", i)
		}
	}
}

func TestAtMostFourStepsAndInterpolation(t *testing.T) {
	s := base(1)
	s.GravityY = -100
	sc := mustScene(t, s)
	sc.SetInputs([]float64{0, 0}, []float64{0, 0}, nil)
	if n := sc.Advance(1); n != MaxStepsPerUpdate {
		t.Fatalf("Advance(1s) at 60 fps ran %d steps, want %d", n, MaxStepsPerUpdate)
	}
	if a := sc.Alpha(); a < 0 || a >= 1 {
		t.Fatalf("after dropping time, alpha = %v, want in [0,1)", a)
	}
	sc.Reset()
	sc.SetInputs([]float64{0, 0}, []float64{0, 0}, nil)
	if n := sc.Advance(0.5 / 60); n != 0 {
		t.Fatalf("half a step ran %d steps", n)
	}
	if n := sc.Advance(1.0 / 60); n != 1 {
		t.Fatalf("another step ran %d steps, want 1", n)
	}
	// Half a step is left over: the output is halfway between the last
	// two steps.
	before := append([]float64(nil), sc.before...)
	last := make([]float64, 2)
	sc.Last(last)
	out := make([]float64, 2)
	sc.Interpolated(out)
	a := sc.Alpha()
	if math.Abs(a-0.5) > 1e-9 {
		t.Fatalf("alpha %v, want 0.5", a)
	}
	for i := range out {
		if want := before[i] + (last[i]-before[i])*a; out[i] != want {
			t.Fatalf("interpolated %v, want %v", out, want)
		}
	}
}

func TestAreaBendLongRange(t *testing.T) {
	// Triangles (0,1,2) and (1,3,2) share edge 1–2. Particles 0 and 1 are
	// kinematic; 2 and 3 fall under gravity, held by a hard area constraint
	// on the first triangle, a hard bending constraint across the edge and
	// a long-range attachment of 3 to 0.
	s := base(4)
	s.InvMass[0], s.InvMass[1] = 0, 0
	s.GravityY = -500
	s.Damping = fill(4, 2)
	s.TriA, s.TriB, s.TriC = []uint32{0, 1}, []uint32{1, 3}, []uint32{2, 2}
	s.AreaCompliance = []float64{0, -1}
	s.BendT1, s.BendT2, s.BendCompliance = []uint32{0}, []uint32{1}, []float64{0}
	s.LongParticle, s.LongRoot, s.MaxDistance = []uint32{3}, []uint32{0}, []float64{25}
	sc := mustScene(t, s)
	tg := []float64{0, 0, 20, 0, 10, 10, 30, 10}
	sc.SetInputs(tg, tg, nil)
	rest := 0.5 * (20*10 - 0*10)   // area of (0,0),(20,0),(10,10)
	bend := math.Hypot(30-0, 10-0) // distance 0–3
	out := make([]float64, 8)
	for f := 0; f < 120; f++ {
		sc.SetInputs(tg, tg, nil)
		sc.Advance(1.0 / 60)
		sc.Last(out)
		area := 0.5 * ((out[2]-out[0])*(out[5]-out[1]) - (out[3]-out[1])*(out[4]-out[0]))
		if math.Abs(area-rest) > 0.01*rest {
			t.Fatalf("frame %d: area %v, want %v ±1%%", f, area, rest)
		}
		if d := math.Hypot(out[6]-out[0], out[7]-out[1]); d > 25+1e-9 {
			t.Fatalf("frame %d: long-range distance %v > 25", f, d)
		}
	}
	// The bending pair is 0 and 3 (the unshared vertices); the long-range
	// limit (25) is shorter than its rest (√1000), and as the later
	// constraint it wins: the distance ends at 25.
	if d := math.Hypot(out[6]-out[0], out[7]-out[1]); math.Abs(d-25) > 1e-9 || bend < 25 {
		t.Fatalf("distance 0–3 = %v, want 25", d)
	}
	if p, q := sc.bendP[0], sc.bendQ[0]; p != 0 || q != 3 {
		t.Fatalf("bending pair %d–%d, want 0–3", p, q)
	}
}

func TestBadSpecRejected(t *testing.T) {
	s := base(2)
	s.StretchA, s.StretchB = []uint32{0}, []uint32{2}
	s.Rest, s.Compliance, s.CompressionCompliance = []float64{1}, []float64{0}, []float64{0}
	if _, err := NewScene(s); err == nil {
		t.Error("out-of-range stretch index accepted")
	}
	s = base(2)
	s.Fps = 0
	if _, err := NewScene(s); err == nil {
		t.Error("fps 0 accepted")
	}
	s = base(2)
	s.Damping = s.Damping[:1]
	if _, err := NewScene(s); err == nil {
		t.Error("short damping array accepted")
	}
}

func BenchmarkStepPerParticle(b *testing.B) {
	// A 16×16 cloth: stretch on grid edges, area on both triangles of each
	// cell, top row kinematic; b.N counts steps, reported per particle.
	const w, hgt = 16, 16
	n := w * hgt
	s := base(n)
	s.GravityY = -980
	s.Damping = fill(n, 1)
	s.Colliders = 1
	id := func(x, y int) uint32 { return uint32(y*w + x) }
	edge := func(a, c uint32) {
		s.StretchA = append(s.StretchA, a)
		s.StretchB = append(s.StretchB, c)
		s.Rest = append(s.Rest, 10)
		s.Compliance = append(s.Compliance, 1e-6)
		s.CompressionCompliance = append(s.CompressionCompliance, 1e-4)
	}
	tg := make([]float64, 2*n)
	for y := 0; y < hgt; y++ {
		for x := 0; x < w; x++ {
			tg[2*id(x, y)] = float64(10 * x)
			tg[2*id(x, y)+1] = float64(-10 * y)
			if y == 0 {
				s.InvMass[id(x, y)] = 0
			}
			if x+1 < w {
				edge(id(x, y), id(x+1, y))
			}
			if y+1 < hgt {
				edge(id(x, y), id(x, y+1))
			}
			if x+1 < w && y+1 < hgt {
				s.TriA = append(s.TriA, id(x, y), id(x+1, y))
				s.TriB = append(s.TriB, id(x, y+1), id(x, y+1))
				s.TriC = append(s.TriC, id(x+1, y), id(x+1, y+1))
				s.AreaCompliance = append(s.AreaCompliance, 1e-6, 1e-6)
			}
		}
	}
	sc, err := NewScene(s)
	if err != nil {
		b.Fatal(err)
	}
	col := []Shape{{Capsule: true, AX: 40, AY: -200, BX: 120, BY: -180, RadiusA: 20, RadiusB: 30}}
	sc.SetInputs(tg, tg, col)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc.SetInputs(tg, tg, col)
		sc.stepOnce(1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/step/particle")
}

func TestHitchDropsTheOldestTime(t *testing.T) {
	// A kinematic particle whose target moves from 0 to 100 during a
	// one-second frame at 60 fps: 60 steps are due, the last 4 run, and the
	// last of them ends with the frame, so the particle ends on the new
	// target rather than 4/60 of the way there.
	s := base(1)
	s.InvMass[0] = 0
	sc := mustScene(t, s)
	sc.SetInputs([]float64{0, 0}, []float64{0, 0}, nil)
	sc.SetInputs([]float64{100, 0}, []float64{0, 0}, nil)
	if n := sc.Advance(1); n != MaxStepsPerUpdate {
		t.Fatalf("%d steps, want %d", n, MaxStepsPerUpdate)
	}
	out := make([]float64, 2)
	sc.Last(out)
	if math.Abs(out[0]-100) > 1e-9 {
		t.Fatalf("after the hitch the particle is at x = %v, want 100", out[0])
	}
	sc.Advance(1e300) // absurd dt: no hang, no NaN
	if a := sc.Alpha(); !(a >= 0 && a < 1) {
		t.Fatalf("alpha %v after an absurd dt", a)
	}
}

func TestRandomScenesStayFinite(t *testing.T) {
	// Random cloths with random (also negative, also zero) compliances,
	// coincident particles, pins, goals, welds and colliders (one of zero
	// radius): positions stay finite.
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() float64 {
		switch rng.IntN(4) {
		case 0:
			return -1
		case 1:
			return 0
		}
		return math.Pow(10, -8+6*rng.Float64())
	}
	for trial := 0; trial < 40; trial++ {
		n := 2 + rng.IntN(20)
		s := base(n)
		s.Substeps = 1 + rng.IntN(6)
		s.GravityX, s.GravityY = rng.NormFloat64()*300, -980*rng.Float64()
		s.PinCompliance = pick()
		tg := make([]float64, 2*n)
		for i := 0; i < n; i++ {
			tg[2*i], tg[2*i+1] = float64(rng.IntN(5)*7), float64(rng.IntN(5)*7) // coincident points likely
			s.InvMass[i] = float64(rng.IntN(3)) * 0.5
			s.PinWeight[i] = float64(rng.IntN(2))
			s.GoalCompliance[i] = pick()
			s.Damping[i] = rng.Float64() * 5
			s.WindFactor[i] = rng.Float64()
		}
		u := func() uint32 { return uint32(rng.IntN(n)) }
		for c := 0; c < 3*n; c++ {
			s.StretchA, s.StretchB = append(s.StretchA, u()), append(s.StretchB, u())
			s.Rest = append(s.Rest, rng.Float64()*20)
			s.Compliance, s.CompressionCompliance = append(s.Compliance, pick()), append(s.CompressionCompliance, pick())
			s.TriA, s.TriB, s.TriC = append(s.TriA, u()), append(s.TriB, u()), append(s.TriC, u())
			s.AreaCompliance = append(s.AreaCompliance, pick())
			s.WeldA, s.WeldB = append(s.WeldA, u()), append(s.WeldB, u())
			s.WeightA, s.WeightB, s.WeldCompliance = append(s.WeightA, rng.Float64()), append(s.WeightB, rng.Float64()), append(s.WeldCompliance, pick())
			s.LongParticle, s.LongRoot = append(s.LongParticle, u()), append(s.LongRoot, u())
			s.MaxDistance = append(s.MaxDistance, rng.Float64()*30)
		}
		for c := 0; c+1 < len(s.TriA); c += 2 {
			s.BendT1, s.BendT2 = append(s.BendT1, uint32(c)), append(s.BendT2, uint32(c+1))
			s.BendCompliance = append(s.BendCompliance, pick())
		}
		s.Colliders = 2
		col := []Shape{
			{Capsule: true, AX: 0, AY: -10, BX: 30, BY: -12, RadiusA: 3, RadiusB: 6, Friction: rng.Float64()},
			{AX: 14, AY: 14, RadiusA: 0, Friction: 1}, // a zero-radius circle
		}
		sc := mustScene(t, s)
		out := make([]float64, 2*n)
		for f := 0; f < 60; f++ {
			sc.SetInputs(tg, tg, col)
			sc.Advance(rng.Float64() / 20)
			sc.Interpolated(out)
			for i, v := range out {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("trial %d frame %d: value %d is %v", trial, f, i, v)
				}
			}
		}
	}
}
