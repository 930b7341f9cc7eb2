package p2l

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// pendulumModel has an input parameter "in" in [−10, 10], an output
// parameter "out" in [−30, 30] and one group: a root and one particle of
// radius 10, driven by the angle of "in", output the angle of particle 1 in
// degrees (scale 180/π).
func pendulumModel(fps float32, source p2lrt.PhysicsSource) *Model {
	return &Model{file: &p2lrt.File{
		Parameters: []p2lrt.Parameter{
			{ID: "in", Min: -10, Max: 10},
			{ID: "out", Min: -90, Max: 90},
			{ID: "x", Min: -30, Max: 30},
			{ID: "y", Min: -10, Max: 10},
		},
		Physics: p2lrt.Physics{Fps: fps, Groups: []p2lrt.PhysicsGroup{{
			ID:     "g",
			Inputs: []p2lrt.PhysicsInput{{Parameter: 0, Source: source, Weight: 100}},
			Outputs: []p2lrt.PhysicsOutput{
				{Parameter: 1, Vertex: 1, Source: p2lrt.PhysicsAngle, Scale: 180 / math.Pi, Weight: 100},
				{Parameter: 2, Vertex: 1, Source: p2lrt.PhysicsX, Scale: 5, Weight: 100},
			},
			Segments: []p2lrt.PhysicsSegment{
				{Length: 10, Mobility: 0.5, Delay: 0.8, Acceleration: 1.5},
			},
			Normalization: p2lrt.PhysicsNormalization{
				PositionMin: -10, PositionMax: 10, PositionDefault: 0,
				AngleMin: -10, AngleMax: 10, AngleDefault: 0,
			},
		}}},
	}}
}

func TestPhysicsNormalize(t *testing.T) {
	// Range [0, 20]: the midpoint 10 maps to the normalized default, the ends
	// to the normalized ends; the result is negated unless reflected.
	for _, c := range []struct{ v, want float64 }{
		{10, -1}, {20, -5}, {0, 3}, {15, -3}, {30, -5}, {-5, 3},
	} {
		got := arith{}.physicsNormalize(c.v, 0, 20, -3, 5, 1, false)
		if !near(got, c.want, 1e-12) {
			t.Errorf("normalize(%v) = %v, want %v", c.v, got, c.want)
		}
		if got := (arith{}).physicsNormalize(c.v, 0, 20, -3, 5, 1, true); !near(got, -c.want, 1e-12) {
			t.Errorf("reflected normalize(%v) = %v, want %v", c.v, got, -c.want)
		}
	}
}

func TestPhysicsPendulumAtRest(t *testing.T) {
	m := pendulumModel(0, p2lrt.PhysicsAngle)
	s := newPhysicsState(m)
	v := make([]float32, 4)
	for range 200 {
		v[0], v[1], v[2] = 0, 0, 0
		s.step(v, 1.0/60)
		if v[1] != 0 || v[2] != 0 {
			t.Fatalf("pendulum at rest moved: out %v, x %v", v[1], v[2])
		}
	}
}

// TestPhysicsSettlesAlongGravity tilts the input fully: the normalized angle
// is −10° (not reflected), gravity points at (sin −10°, cos −10°), and the
// pendulum comes to rest there; its angle from the reference (0, 1) is +10°.
// The X output stays 0 because translation outputs have scale 0.
func TestPhysicsSettlesAlongGravity(t *testing.T) {
	m := pendulumModel(0, p2lrt.PhysicsAngle)
	s := newPhysicsState(m)
	v := make([]float32, 4)
	for range 3000 {
		v[0], v[1], v[2] = 10, 0, 0
		s.step(v, 1.0/60)
		if v[2] != 0 {
			t.Fatalf("X output = %v, want 0 (translation scale is 0)", v[2])
		}
	}
	if !near(float64(v[1]), 10, 1e-3) {
		t.Errorf("settled angle = %v, want 10", v[1])
	}
	// Stabilization puts it there at once.
	s2 := newPhysicsState(m)
	v = []float32{10, 0, 0, 0}
	s2.stabilize(v)
	if !near(float64(v[1]), 10, 1e-4) || v[2] != 0 {
		t.Errorf("stabilized out = %v, x = %v, want 10, 0", v[1], v[2])
	}
	// and the next frames stay there (both output histories were set).
	v[0], v[1] = 10, 0
	s2.step(v, 1.0/60)
	if !near(float64(v[1]), 10, 1e-4) {
		t.Errorf("after stabilization the first step gives %v, want 10", v[1])
	}
}

// TestPhysicsOneFrameLag: without Fps the output is the previous step's.
// The expected first-step angle is computed here from Cubism's update rule.
func TestPhysicsOneFrameLag(t *testing.T) {
	m := pendulumModel(0, p2lrt.PhysicsAngle)
	s := newPhysicsState(m)
	dt := 1.0 / 30
	v := []float32{10, 0, 0, 0}
	s.step(v, dt)
	if v[1] != 0 {
		t.Fatalf("first frame output = %v, want 0 (one frame lag)", v[1])
	}
	// One step from rest: particle 1 at (0, 10), gravity turned to angle a.
	a := -10.0 * math.Pi / 180
	gx, gy := math.Sin(a), math.Cos(a)
	rho := (math.Atan2(gy, gx) - math.Pi/2) / 5
	dx := -10 * math.Sin(rho)
	dy := math.Sin(rho)*dx + 10*math.Cos(rho)
	delay := 0.8 * dt * 30
	dx += gx * 1.5 * delay * delay
	dy += gy * 1.5 * delay * delay
	l := math.Hypot(dx, dy)
	dx, dy = dx/l*10, dy/l*10
	want := (math.Atan2(dy, dx) - math.Pi/2) * 180 / math.Pi
	v = []float32{10, 0, 0, 0}
	s.step(v, dt)
	if !near(float64(v[1]), want, 1e-4) {
		t.Errorf("second frame output = %v, want first step's %v", v[1], want)
	}
}

func TestPhysicsDropsLongTime(t *testing.T) {
	m := pendulumModel(30, p2lrt.PhysicsAngle)
	s := newPhysicsState(m)
	v := []float32{10, 0, 0, 0}
	s.step(v, 6) // more than 5 s accumulated: dropped, no step runs
	if v[1] != 0 || s.particles[1].px != 0 || s.particles[1].py != 10 {
		t.Errorf("6 s step moved the pendulum: out %v, particle %+v", v[1], s.particles[1])
	}
	s.step(v, 0) // dt ≤ 0 writes nothing
	if v[1] != 0 {
		t.Errorf("dt 0 wrote %v", v[1])
	}
}

// TestPhysicsFixedStepInterpolation: with Fps 10 a 0.25 s frame runs two
// steps and leaves 0.05 s, so the output is halfway between the two steps.
func TestPhysicsFixedStepInterpolation(t *testing.T) {
	m := pendulumModel(10, p2lrt.PhysicsAngle)
	s := newPhysicsState(m)
	ref := newPhysicsState(m)
	v := []float32{0, 0, 0, 0}
	s.step(v, 0.1) // primes the input cache with 0 and runs one step at rest
	v[0] = 10
	s.step(v, 0.25)
	// The reference runs the same steps at 0.1 s without Fps: its outputs
	// after the last step are (prev, cur) = (step 2, step 3). Input
	// interpolation: step 2 sees 0 + (10 − 0)·0.1/0.25 = 4, step 3
	// 4 + (10 − 4)·0.1/0.15 = 8.
	for _, in := range []float32{0, 4, 8} {
		ref.step([]float32{in, 0, 0, 0}, 0.1)
	}
	want := (ref.prev[0]*0.5 + ref.cur[0]*0.5) * 180 / math.Pi
	if !near(float64(v[1]), want, 1e-4) {
		t.Errorf("interpolated output = %v, want %v", v[1], want)
	}
	if !near(s.remain, 0.05, 1e-6) {
		t.Errorf("remaining time %v, want 0.05", s.remain)
	}
}

// TestPhysicsWindAndY: stabilization places the particle along
// gravity + wind; a Y input moves the root by the rotated translation.
func TestPhysicsWindAndY(t *testing.T) {
	m := pendulumModel(0, p2lrt.PhysicsAngle)
	m.file.Physics.Groups[0].Segments[0].Acceleration = 1
	s := newPhysicsState(m)
	s.windX = 1
	v := []float32{0, 0, 0, 0}
	s.stabilize(v)
	// force (1, 1): angle from (0, 1) is −45°.
	if !near(float64(v[1]), -45, 1e-4) {
		t.Errorf("wind-stabilized angle = %v, want −45", v[1])
	}

	my := pendulumModel(0, p2lrt.PhysicsY)
	my.file.Physics.Groups[0].Inputs = append(my.file.Physics.Groups[0].Inputs,
		p2lrt.PhysicsInput{Parameter: 3, Source: p2lrt.PhysicsAngle, Weight: 100})
	s = newPhysicsState(my.WithPlayback(PlaybackCubism)) // Cubism's float64 rotation
	v = []float32{5, 0, 0, 5}
	s.stabilize(v)
	// Y input: −5 (not reflected); angle input −5°. Cubism's rotation:
	// x' = x·cos θ − y·sin θ, y' = x'·sin θ + y·cos θ with θ = 5°.
	th := 5 * math.Pi / 180
	x := 0*math.Cos(th) - (-5)*math.Sin(th)
	y := x*math.Sin(th) + (-5)*math.Cos(th)
	if p := s.particles[0]; !near(p.px, x, 1e-9) || !near(p.py, y, 1e-9) {
		t.Errorf("root at (%v, %v), want (%v, %v)", p.px, p.py, x, y)
	}
}

func TestPhysicsReplacedGroup(t *testing.T) {
	m := pendulumModel(0, p2lrt.PhysicsAngle)
	s := newPhysicsState(m)
	s.replaced[0] = true
	v := []float32{10, 7, 0, 0}
	for range 10 {
		s.step(v, 1.0/30)
	}
	s.stabilize(v)
	if v[1] != 7 {
		t.Errorf("replaced group wrote its output: %v", v[1])
	}
}

// TestPhysicsFirstFrame: Cubism leaves an output's parameter alone until the
// first pendulum step has run (CubismPhysics.ts evaluate: an output's
// destinationParameterIndex is resolved in the step loop, and interpolate
// skips outputs whose index is still −1). With Fps 30 and dt 1/60 the first
// update runs no step, so the host values stay; the second runs one step
// and writes the previous outputs (0) with α = 0.
//
// A model in the reference's precision (not a Cubism import) writes the
// outputs from the first update on, as physics.rs step_skipping
// interpolates the two zero outputs before any step: 0 on the first frame.
func TestPhysicsFirstFrame(t *testing.T) {
	ref := newPhysicsState(pendulumModel(30, p2lrt.PhysicsAngle))
	v := []float32{10, 7, 3, 0}
	if n := ref.step(v, 1.0/60); n != 0 || v[1] != 0 || v[2] != 0 {
		t.Errorf("reference precision, first frame: %d steps, outputs %v, %v; want 0 steps and 0, 0", n, v[1], v[2])
	}
	m := pendulumModel(30, p2lrt.PhysicsAngle).WithPlayback(PlaybackCubism)
	s := newPhysicsState(m)
	v = []float32{10, 7, 3, 0}
	if n := s.step(v, 1.0/60); n != 0 || v[1] != 7 || v[2] != 3 {
		t.Fatalf("first frame: %d steps, outputs %v, %v; want 0 steps and the host values 7, 3", n, v[1], v[2])
	}
	v = []float32{10, 7, 3, 0}
	if n := s.step(v, 1.0/60); n != 1 || v[1] != 0 || v[2] != 0 {
		t.Errorf("second frame: %d steps, outputs %v, %v; want 1 step and 0, 0", n, v[1], v[2])
	}
	// ResetPhysics returns to that state.
	s.reset()
	v = []float32{10, 7, 3, 0}
	if s.step(v, 1.0/60); v[1] != 7 {
		t.Errorf("after reset the first frame wrote %v", v[1])
	}
	// An output of the root (vertex 0) is never written.
	m.file.Physics.Groups[0].Outputs[0].Vertex = 0
	s = newPhysicsState(m)
	for range 3 {
		v = []float32{10, 7, 3, 0}
		s.step(v, 1.0/30)
	}
	if v[1] != 7 {
		t.Errorf("root output wrote %v", v[1])
	}
}

// TestPhysicsBoundedSteps: whatever the model's fps (issue 14: 1e30 hung
// Update, 1e9 took 9 s), an update runs at most MaxPhysicsFps steps per
// second of dt and never more than MaxPhysicsSteps; the 5 s rule still
// drops longer times. The fps values are generated: every power of ten from
// 1e3 to 1e38, random values above the maximum, the largest float32, +Inf
// and NaN (a Model built in code; Load and Validate refuse them).
func TestPhysicsBoundedSteps(t *testing.T) {
	fps := []float32{MaxPhysicsFps + 1, math.MaxFloat32, float32(math.Inf(1)), float32(math.NaN())}
	for e := 3; e <= 38; e++ {
		fps = append(fps, float32(math.Pow(10, float64(e))))
	}
	seed := uint32(7)
	for range 20 {
		seed = seed*1664525 + 1013904223
		fps = append(fps, MaxPhysicsFps*(1+float32(seed>>8)/(1<<20)))
	}
	for _, f := range fps {
		s := newPhysicsState(pendulumModel(f, p2lrt.PhysicsAngle))
		v := []float32{10, 0, 0, 0}
		n := s.step(v, 1.0/60)
		want := int(math.Ceil(MaxPhysicsFps / 60.0)) // at most
		if f != f {
			want = 1 // NaN: one step per update, as fps 0
		}
		if n > want || n == 0 || math.IsNaN(float64(v[1])) {
			t.Errorf("fps %v: %d steps for 1/60 s (want 1..%d), output %v", f, n, want, v[1])
		}
		if f == f {
			if n := s.step(v, 4.9); n > MaxPhysicsSteps || n < 4800 {
				t.Errorf("fps %v: %d steps for 4.9 s, want ≤ %d at %d Hz", f, n, MaxPhysicsSteps, MaxPhysicsFps)
			}
			if n := s.step(v, 5.1); n != 0 {
				t.Errorf("fps %v: %d steps for 5.1 s, want 0 (more than 5 s is dropped)", f, n)
			}
		}
	}
}

// TestPhysicsFpsValidated: Load (through Validate, which encodes) refuses a
// PHYS fps above MaxPhysicsFps with an error naming the field.
func TestPhysicsFpsValidated(t *testing.T) {
	for _, f := range []float32{MaxPhysicsFps + 1, 1e9, 1e30, math.MaxFloat32} {
		m := minimalModel()
		m.file.Physics = pendulumModel(f, p2lrt.PhysicsAngle).file.Physics
		m.file.Parameters = append(m.file.Parameters, pendulumModel(f, p2lrt.PhysicsAngle).file.Parameters...)
		err := m.file.Validate()
		if err == nil || !strings.Contains(err.Error(), "fps") || !strings.Contains(err.Error(), "PHYS") {
			t.Errorf("fps %v: Validate error %v, want a PHYS fps error", f, err)
		}
	}
	m := minimalModel()
	m.file.Parameters = append(m.file.Parameters, pendulumModel(MaxPhysicsFps, p2lrt.PhysicsAngle).file.Parameters...)
	m.file.Physics = pendulumModel(MaxPhysicsFps, p2lrt.PhysicsAngle).file.Physics
	if err := m.file.Validate(); err != nil {
		t.Errorf("fps %d refused: %v", MaxPhysicsFps, err)
	}
}

// TestPhysicsFpsLoad: the same bound when reading: a file whose PHYS fps
// bytes say 1e30 is refused by Load.
func TestPhysicsFpsLoad(t *testing.T) {
	m := minimalModel()
	m.file.Parameters = append(m.file.Parameters, pendulumModel(0, p2lrt.PhysicsAngle).file.Parameters...)
	m.file.Physics = pendulumModel(999.5, p2lrt.PhysicsAngle).file.Physics
	var b bytes.Buffer
	if err := Write(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	old := binary.LittleEndian.AppendUint32(nil, math.Float32bits(999.5))
	if bytes.Count(data, old) != 1 {
		t.Fatal("fps bytes not found once")
	}
	for _, f := range []float32{1001, 1e9, 1e30} {
		bad := bytes.Replace(data, old, binary.LittleEndian.AppendUint32(nil, math.Float32bits(f)), 1)
		_, err := Load(bad)
		var fe *p2lrt.FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "fps") || !strings.Contains(err.Error(), "PHYS") {
			t.Errorf("fps %v: Load error %v, want a PHYS fps FormatError", f, err)
		}
	}
}

// TestPhysicsStabilizeWithoutForce: a segment without acceleration (and no
// wind) feels no force; stabilization hangs it along gravity (the
// reference's physics.rs settle; Cubism would divide by zero).
func TestPhysicsStabilizeWithoutForce(t *testing.T) {
	m := pendulumModel(0, p2lrt.PhysicsAngle)
	m.file.Physics.Groups[0].Segments[0].Acceleration = 0
	s := newPhysicsState(m)
	v := []float32{10, 0, 0, 0}
	s.stabilize(v)
	// Input 10 normalizes to −10°: gravity (sin −10°, cos −10°); the angle
	// of particle 1 from (0, 1) is then +10°.
	if p := s.particles[1]; !near(float64(v[1]), 10, 1e-4) || !near(math.Hypot(p.px, p.py), 10, 1e-5) { // float32 (reference precision)
		t.Errorf("stabilized without force: output %v, particle %+v; want 10° along gravity at length 10", v[1], p)
	}
}
