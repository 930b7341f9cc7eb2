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

func fill(n int, v float32) []float32 {
	a := make([]float32, n)
	for i := range a {
		a[i] = v
	}
	return a
}

func mustScene(t testing.TB, s Spec) *Scene {
	t.Helper()
	sc, err := NewScene(s)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// start places the scene on goals (anchors at the goals) and starts it.
func start(sc *Scene, goals []float32, col []Shape) {
	sc.Place(goals, goals, col)
	sc.Start()
}

// step places the scene on goals and advances it by dt.
func step(sc *Scene, goals []float32, col []Shape, dt float32) int {
	sc.Place(goals, goals, col)
	return sc.Advance(dt)
}

// strand is a horizontal chain of n particles 10 px apart starting at the
// origin; particle 0 is kinematic (invMass 0) and follows its anchor.
func strand(n int) (Spec, []float32) {
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
	tg := make([]float32, 2*n)
	for i := 0; i < n; i++ {
		tg[2*i] = float32(10 * i)
	}
	return s, tg
}

func hypot(x, y float32) float64 { return math.Hypot(float64(x), float64(y)) }

func TestHangingStrandSettles(t *testing.T) {
	// A hard chain hanging from a kinematic end settles straight down with
	// every segment at its rest length. The goals lie along the start pose
	// (horizontal), whose segment lengths equal the file's, so the rest
	// lengths stay 10.
	const n = 10
	spec, tg := strand(n)
	sc := mustScene(t, spec)
	start(sc, tg, nil)
	for f := 0; f < 60*15; f++ {
		step(sc, tg, nil, 1.0/60)
	}
	out := make([]float32, 2*n)
	sc.Output(out)
	for i := 0; i+1 < n; i++ {
		l := hypot(out[2*i+2]-out[2*i], out[2*i+3]-out[2*i+1])
		if math.Abs(l-10) > 0.05 {
			t.Errorf("segment %d length %v, want 10±0.05", i, l)
		}
		if math.Abs(float64(out[2*i+2])) > 0.5 {
			t.Errorf("particle %d x = %v, want hanging below x=0", i+1, out[2*i+2])
		}
	}
	if y := out[2*n-1]; math.Abs(float64(y)-(-90)) > 0.5 {
		t.Errorf("tip y = %v, want ≈ −90", y)
	}
}

func TestFreeFallWithExponentialDamping(t *testing.T) {
	// Two particles joined by a stretch constraint whose compliances are
	// both negative (absent), softly pinned with a negative pin compliance
	// (absent) and a goal of negative compliance: nothing holds them, so
	// each falls as damped symplectic Euler: per substep
	// v ← (v + g·h)·e^(−d·h), y ← y + v·h (the recurrence by hand, float64).
	// With whole steps and no time left over the output is the step before
	// the last (interpolation weight 0 between the last two steps).
	s := base(2)
	s.GravityY = -1000
	s.Damping = fill(2, 3)
	s.PinWeight = fill(2, 0.5)
	s.StretchA, s.StretchB = []uint32{0}, []uint32{1}
	s.Rest, s.Compliance, s.CompressionCompliance = []float32{5}, []float32{-1}, []float32{-1}
	sc := mustScene(t, s)
	tg := []float32{0, 0, 100, 0}
	start(sc, tg, nil)
	var v, y, prev float64
	h := 1.0 / 60 / 8
	for f := 0; f < 3; f++ {
		if got := step(sc, tg, nil, 1.0/60); got != 1 {
			t.Fatalf("Advance ran %d steps, want 1", got)
		}
		prev = y
		for k := 0; k < 8; k++ {
			v = (v - 1000*h) * math.Exp(-3*h)
			y += v * h
		}
		if got := sc.current[3]; math.Abs(float64(got)-y) > 1e-4 {
			t.Fatalf("step %d: y = %v, want %v", f+1, got, y)
		}
	}
	y = prev
	out := make([]float32, 4)
	sc.Output(out)
	for i := 0; i < 2; i++ {
		if math.Abs(float64(out[2*i+1])-y) > 1e-4 || out[2*i] != tg[2*i] {
			t.Errorf("particle %d at (%v, %v), want (%v, %v)", i, out[2*i], out[2*i+1], tg[2*i], y)
		}
	}
}

func TestGoalFirstStepAndPullBack(t *testing.T) {
	// One particle, no gravity, one substep, a goal of compliance α towards
	// its goal plus an offset. The goal jumps by (30, 0) after the start;
	// the step's single substep sees it at its end (t = 1), and one XPBD
	// projection from rest moves the particle k = w/(w + α/h²) of the way.
	s := base(1)
	s.Substeps = 1
	s.GoalCompliance = []float32{1e-4}
	s.GoalOffsetX = []float32{2}
	s.GoalOffsetY = []float32{-3}
	sc := mustScene(t, s)
	start(sc, []float32{0, 0}, nil)
	step(sc, []float32{30, 0}, nil, 1.0/60)
	h := 1.0 / 60
	k := 1 / (1 + 1e-4/(h*h))
	if c := sc.current; math.Abs(float64(c[0])-32*k) > 1e-4 || math.Abs(float64(c[1])-(-3*k)) > 1e-4 {
		t.Fatalf("after one step at (%v, %v), want (%v, %v)", c[0], c[1], 32*k, -3*k)
	}
	out := make([]float32, 2)
	for f := 0; f < 600; f++ {
		step(sc, []float32{30, 0}, nil, 1.0/60)
	}
	sc.Output(out)
	if math.Abs(float64(out[0])-32) > 1e-3 || math.Abs(float64(out[1])+3) > 1e-3 {
		t.Fatalf("goal did not pull back: at (%v, %v), want (32, −3)", out[0], out[1])
	}
}

func TestGoalOffsetsTurnWithTheBody(t *testing.T) {
	// Two firmly pinned particles (weight 1: kinematic) span the body; a
	// third has a hard goal (compliance 0) on its own position plus the
	// offset (10, 0). When the pinned pair turns by 90° about its centre,
	// the offset turns with it: the particle ends at its goal + (0, 10).
	s := base(3)
	s.Substeps = 2
	s.PinWeight = []float32{1, 1, 0}
	s.GoalCompliance = []float32{-1, -1, 0}
	s.GoalOffsetX = []float32{0, 0, 10}
	sc := mustScene(t, s)
	start(sc, []float32{-10, 0, 10, 0, 0, -20}, nil)
	turned := []float32{0, -10, 0, 10, 0, -20}
	for f := 0; f < 30; f++ {
		step(sc, turned, nil, 1.0/60)
	}
	out := make([]float32, 6)
	sc.Output(out)
	if math.Abs(float64(out[4])) > 1e-3 || math.Abs(float64(out[5])-(-10)) > 1e-3 {
		t.Fatalf("particle at (%v, %v), want (0, −10)", out[4], out[5])
	}
}

func TestRestLengthFollowsLongerGoals(t *testing.T) {
	// A hard stretch constraint with rest 10 between a kinematic particle
	// and a free one whose goals lie 20 apart: the rest length is the
	// larger, 20, so the free particle hangs 20 below (gravity down).
	s := base(2)
	s.InvMass[0] = 0
	s.GravityY = -500
	s.Damping = fill(2, 4)
	s.StretchA, s.StretchB = []uint32{0}, []uint32{1}
	s.Rest, s.Compliance, s.CompressionCompliance = []float32{10}, []float32{0}, []float32{0}
	sc := mustScene(t, s)
	tg := []float32{0, 0, 0, -20}
	start(sc, tg, nil)
	for f := 0; f < 300; f++ {
		step(sc, tg, nil, 1.0/60)
	}
	out := make([]float32, 4)
	sc.Output(out)
	if d := hypot(out[2]-out[0], out[3]-out[1]); math.Abs(d-20) > 1e-3 {
		t.Fatalf("distance %v, want 20 (the goals' distance, above the file's rest 10)", d)
	}
}

func TestCollidersPushOut(t *testing.T) {
	// A strand swinging down across a tapered capsule below it, with and
	// without friction: the strand reaches the capsule, and after every
	// step it lies outside it but for the last stretch pass, which runs
	// after the collisions (the editor's order) and may pull a particle
	// back in by a fraction of a pixel.
	for _, friction := range []float32{0, 0.5, 1} {
		const n = 12
		spec, tg := strand(n)
		spec.Colliders = 1
		sc := mustScene(t, spec)
		cap := []Shape{{AX: 20, AY: -30, BX: 90, BY: -45, RadiusA: 6, RadiusB: 14, Friction: friction}}
		start(sc, tg, cap)
		out := make([]float32, 2*n)
		var worst float32
		touched := false
		for f := 0; f < 300; f++ {
			step(sc, tg, cap, 1.0/60)
			sc.Output(out)
			for i := 1; i < n; i++ {
				worst = max(worst, cap[0].Penetration(out[2*i], out[2*i+1]))
				cx, cy, r := cap[0].closest(out[2*i], out[2*i+1])
				if hypot(out[2*i]-cx, out[2*i+1]-cy) < float64(r)+0.5 {
					touched = true
				}
			}
		}
		if worst > 0.5 {
			t.Errorf("friction %v: penetration %v > 0.5 px", friction, worst)
		}
		if !touched {
			t.Errorf("friction %v: strand never reached the capsule; the test proves nothing", friction)
		}
	}
}

func TestBitIdenticalTrajectories(t *testing.T) {
	run := func() []uint32 {
		spec, tg := strand(8)
		spec.WindX, spec.WindFactor = 50, fill(8, 1)
		spec.Colliders = 1
		sc := mustScene(t, spec)
		col := []Shape{{AX: 30, AY: -25, BX: 30, BY: -25, RadiusA: 8, RadiusB: 8, Friction: 0.3}}
		start(sc, tg, col)
		var bits []uint32
		out := make([]float32, 16)
		for f := 0; f < 120; f++ {
			tg[0] = float32(5 * math.Sin(float64(f)*0.1))
			step(sc, tg, col, float32(0.013+0.004*float64(f%3)))
			sc.Output(out)
			for _, v := range out {
				bits = append(bits, math.Float32bits(v))
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
	p := []float32{0, 0}
	start(sc, p, nil)
	if n := step(sc, p, nil, 1); n != MaxStepsPerUpdate {
		t.Fatalf("Advance(1s) at 60 fps ran %d steps, want %d", n, MaxStepsPerUpdate)
	}
	if a := sc.Alpha(); a < 0 || a > 1e-4 {
		t.Fatalf("after dropping time, alpha = %v, want ≈ 0 (the time beyond 4 steps is dropped)", a)
	}
	sc.Reset()
	start(sc, p, nil)
	if n := step(sc, p, nil, 0.5/60); n != 0 {
		t.Fatalf("half a step ran %d steps", n)
	}
	if n := step(sc, p, nil, 1.0/60); n != 1 {
		t.Fatalf("another step ran %d steps, want 1", n)
	}
	// Half a step is left over: the output is halfway between the last
	// two steps.
	if a := sc.Alpha(); math.Abs(float64(a)-0.5) > 1e-5 {
		t.Fatalf("alpha %v, want 0.5", a)
	}
	out := make([]float32, 2)
	sc.Output(out)
	prev, cur := sc.previous, sc.current
	a := sc.Alpha()
	if want := prev[1] + (cur[1]-prev[1])*a; out[1] != want || cur[1] >= prev[1] {
		t.Fatalf("output %v between %v and %v, want %v", out[1], prev[1], cur[1], want)
	}
}

func TestHitchKeepsFourSteps(t *testing.T) {
	// A kinematic particle whose anchor moves from 0 to 100 during a
	// one-second frame at 60 fps: four steps run (the rest of the time is
	// dropped), the first of them moving the particle over its substeps to
	// the new anchor, and the output ends there.
	s := base(1)
	s.InvMass[0] = 0
	sc := mustScene(t, s)
	start(sc, []float32{0, 0}, nil)
	if n := step(sc, []float32{100, 0}, nil, 1); n != MaxStepsPerUpdate {
		t.Fatalf("%d steps, want %d", n, MaxStepsPerUpdate)
	}
	out := make([]float32, 2)
	sc.Output(out)
	if out[0] != 100 {
		t.Fatalf("after the hitch the particle is at x = %v, want 100", out[0])
	}
	step(sc, []float32{100, 0}, nil, math.MaxFloat32) // absurd dt: no hang, no NaN
	if a := sc.Alpha(); !(a >= 0 && a <= 1) {
		t.Fatalf("alpha %v after an absurd dt", a)
	}
}

func TestAreaFlipGuardBendLongRange(t *testing.T) {
	// Triangles (0,1,2) and (1,3,2) share edge 1–2. Particles 0 and 1 are
	// kinematic; 2 and 3 fall under gravity, held by a hard area constraint
	// on the first triangle, a hard bending constraint across the edge and
	// a long-range attachment of 3 to 0. The second triangle keeps no area
	// but its flip guard keeps it from shrinking below a fifth of its rest
	// area or turning over.
	s := base(4)
	s.InvMass[0], s.InvMass[1] = 0, 0
	s.GravityY = -500
	s.Damping = fill(4, 2)
	s.TriA, s.TriB, s.TriC = []uint32{0, 1}, []uint32{1, 3}, []uint32{2, 2}
	s.AreaCompliance = []float32{0, -1}
	s.BendT1, s.BendT2, s.BendCompliance = []uint32{0}, []uint32{1}, []float32{0}
	s.LongParticle, s.LongRoot, s.MaxDistance = []uint32{3}, []uint32{0}, []float32{25}
	sc := mustScene(t, s)
	tg := []float32{0, 0, 20, 0, 10, 10, 30, 10}
	start(sc, tg, nil)
	area := func(o []float32, a, b, c int) float64 {
		return 0.5 * float64((o[2*b]-o[2*a])*(o[2*c+1]-o[2*a+1])-(o[2*b+1]-o[2*a+1])*(o[2*c]-o[2*a]))
	}
	rest0 := area(tg, 0, 1, 2) // 100
	rest1 := area(tg, 1, 3, 2) // −100: clockwise in the y-up world
	for f := 0; f < 120; f++ {
		step(sc, tg, nil, 1.0/60)
		out := sc.current // the last step
		if a := area(out, 0, 1, 2); math.Abs(a-rest0) > 0.01*rest0 {
			t.Fatalf("frame %d: area %v, want %v ±1%%", f, a, rest0)
		}
		if a := area(out, 1, 3, 2); !(a*rest1 > 0) || math.Abs(a) < 0.2*math.Abs(rest1)-0.5 {
			t.Fatalf("frame %d: second triangle's area %v turned over or below a fifth of %v", f, a, rest1)
		}
		if d := hypot(out[6]-out[0], out[7]-out[1]); d > 25+1e-3 {
			t.Fatalf("frame %d: long-range distance %v > 25", f, d)
		}
	}
}

func TestBadSpecRejected(t *testing.T) {
	s := base(2)
	s.StretchA, s.StretchB = []uint32{0}, []uint32{2}
	s.Rest, s.Compliance, s.CompressionCompliance = []float32{1}, []float32{0}, []float32{0}
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
	s = base(2)
	s.InvMass[1] = float32(math.NaN())
	if _, err := NewScene(s); err == nil {
		t.Error("NaN inverse mass accepted")
	}
	s = base(2)
	s.GoalCompliance[0] = float32(math.Inf(1)) // the editor's infinity: no goal
	if _, err := NewScene(s); err != nil {
		t.Errorf("+Inf compliance refused: %v", err)
	}
}

func BenchmarkStepPerParticle(b *testing.B) {
	// A 16×16 cloth: stretch on grid edges, area on both triangles of each
	// cell, bending across each cell's diagonal, top row kinematic, one
	// capsule; b.N counts steps, reported per particle.
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
	tg := make([]float32, 2*n)
	for y := 0; y < hgt; y++ {
		for x := 0; x < w; x++ {
			tg[2*id(x, y)] = float32(10 * x)
			tg[2*id(x, y)+1] = float32(-10 * y)
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
				t := uint32(len(s.TriA) - 2)
				s.BendT1, s.BendT2 = append(s.BendT1, t), append(s.BendT2, t+1)
				s.BendCompliance = append(s.BendCompliance, 1e-3)
			}
		}
	}
	sc, err := NewScene(s)
	if err != nil {
		b.Fatal(err)
	}
	col := []Shape{{AX: 40, AY: -200, BX: 120, BY: -180, RadiusA: 20, RadiusB: 30}}
	start(sc, tg, col)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc.Place(tg, tg, col)
		sc.step(sc.h)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/step/particle")
}

func TestRandomScenesStayFinite(t *testing.T) {
	// Random cloths with random (also negative, also zero) compliances,
	// coincident particles, pins, goals, welds and colliders (one of zero
	// radius): positions stay finite.
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() float32 {
		switch rng.IntN(4) {
		case 0:
			return -1
		case 1:
			return 0
		}
		return float32(math.Pow(10, -8+6*rng.Float64()))
	}
	for trial := 0; trial < 40; trial++ {
		n := 2 + rng.IntN(20)
		s := base(n)
		s.Substeps = 1 + rng.IntN(6)
		s.GravityX, s.GravityY = float32(rng.NormFloat64()*300), float32(-980*rng.Float64())
		s.PinCompliance = pick()
		tg := make([]float32, 2*n)
		for i := 0; i < n; i++ {
			tg[2*i], tg[2*i+1] = float32(rng.IntN(5)*7), float32(rng.IntN(5)*7) // coincident points likely
			s.InvMass[i] = float32(rng.IntN(3)) * 0.5
			s.PinWeight[i] = float32(rng.IntN(3)) * 0.5
			s.GoalCompliance[i] = pick()
			s.Damping[i] = rng.Float32() * 5
			s.WindFactor[i] = rng.Float32()
		}
		u := func() uint32 { return uint32(rng.IntN(n)) }
		for c := 0; c < 3*n; c++ {
			s.StretchA, s.StretchB = append(s.StretchA, u()), append(s.StretchB, u())
			s.Rest = append(s.Rest, rng.Float32()*20)
			s.Compliance, s.CompressionCompliance = append(s.Compliance, pick()), append(s.CompressionCompliance, pick())
			s.TriA, s.TriB, s.TriC = append(s.TriA, u()), append(s.TriB, u()), append(s.TriC, u())
			s.AreaCompliance = append(s.AreaCompliance, pick())
			s.WeldA, s.WeldB = append(s.WeldA, u()), append(s.WeldB, u())
			s.WeightA, s.WeightB, s.WeldCompliance = append(s.WeightA, rng.Float32()), append(s.WeightB, rng.Float32()), append(s.WeldCompliance, pick())
			s.LongParticle, s.LongRoot = append(s.LongParticle, u()), append(s.LongRoot, u())
			s.MaxDistance = append(s.MaxDistance, rng.Float32()*30)
		}
		for c := 0; c+1 < len(s.TriA); c += 2 {
			s.BendT1, s.BendT2 = append(s.BendT1, uint32(c)), append(s.BendT2, uint32(c+1))
			s.BendCompliance = append(s.BendCompliance, pick())
		}
		s.Colliders = 2
		col := []Shape{
			{AX: 0, AY: -10, BX: 30, BY: -12, RadiusA: 3, RadiusB: 6, Friction: rng.Float32()},
			{AX: 14, AY: 14, BX: 14, BY: 14, RadiusA: 0, Friction: 1}, // a zero-radius circle
		}
		sc := mustScene(t, s)
		start(sc, tg, col)
		out := make([]float32, 2*n)
		for f := 0; f < 60; f++ {
			step(sc, tg, col, rng.Float32()/20)
			sc.Output(out)
			for i, v := range out {
				if !finite(v) {
					t.Fatalf("trial %d frame %d: value %d is %v", trial, f, i, v)
				}
			}
		}
	}
}
