package p2l

import (
	"math"
	"math/rand/v2"
	"testing"
)

func behaviorModel() *Model {
	return &Model{
		Parameters: []Parameter{
			{ID: "ParamEyeLOpen", Min: 0, Max: 1, Default: 1},
			{ID: "mouth", Min: 0, Max: 2},
			{ID: "breath", Min: 0, Max: 1},
			{ID: "ParamAngleX", Min: -30, Max: 30},
			{ID: "ParamAngleZ", Min: -30, Max: 30},
			{ID: "ParamEyeBallX", Min: -1, Max: 1},
		},
		Roles: []Role{{Name: "LipSync", Parameters: []int{1}}, {Name: "Breath", Parameters: []int{2}}},
	}
}

// TestBlinkTimeline: with seed 42 the first blink is drawn on the first
// update, 2 + 4·r seconds later (r the first draw of the seeded generator).
// The frame that passes it starts closing (value 1); with dt = 1/64 s (exact
// in float) the eye then closes linearly over 0.1 s (frames j = 1..6 give
// 1 − j/6.4, frame 7 reaches 0), stays shut until 0.05 s have passed (frame
// 11), and opens over 0.15 s: frame j gives (j − 11)/64/0.15 up to 1.
func TestBlinkTimeline(t *testing.T) {
	b := newBehaviors(behaviorModel())
	b.enabled = BehaviorBlink
	b.seed(42)
	r := rand.New(rand.NewPCG(42, 0x9e3779b97f4a7c15)).Float64()
	const dt = 1.0 / 64
	next := dt + 2 + 4*r
	s := -1 // frame index that started closing
	for k := 1; k <= 64*8; k++ {
		v := []float32{0.8}
		b.apply(v, dt)
		now := float64(k) * dt
		got := float64(v[0]) / 0.8
		want := 1.0
		if s < 0 && now > next {
			s = k
		}
		if s >= 0 {
			switch j := k - s; {
			case j <= 6:
				want = 1 - float64(j)/6.4
			case j <= 11:
				want = 0
			default:
				want = math.Min(1, float64(j-11)/64/0.15)
			}
		}
		if !near(got, want, 1e-6) {
			t.Fatalf("t=%v (next blink %.4f): value %v, want %v", now, next, got, want)
		}
		if s >= 0 && k-s > 30 {
			return
		}
	}
	t.Fatal("no complete blink within 8 s")
}

func TestBlinkSeedsDiffer(t *testing.T) {
	m := behaviorModel()
	a, b := newBehaviors(m), newBehaviors(m)
	if a.nextBlink(0) == b.nextBlink(0) {
		t.Error("two rigs drew the same first blink time")
	}
}

func TestLipSyncAndLook(t *testing.T) {
	b := newBehaviors(behaviorModel())
	b.enabled = BehaviorLipSync | BehaviorLookAt
	b.lipLevel = float32(rms([]float32{0.3, -0.3, 0.3, -0.3}) * 2) // 0.6
	v := []float32{1, 0.5, 0, 0, 0, 0}
	b.apply(v, 0.1)
	// Range [0, 2]: level 0.6 ⇒ 1.2, larger than 0.5.
	if !near(float64(v[1]), 1.2, 1e-6) {
		t.Errorf("lip sync = %v, want 1.2", v[1])
	}
	v[1] = 1.5
	b.apply(v, 0.1)
	if v[1] != 1.5 {
		t.Errorf("lip sync lowered a larger value to %v", v[1])
	}
	// Look-at: critically damped step response x(t) = 1 − (1 + ωt)e^{−ωt}.
	b = newBehaviors(behaviorModel())
	b.enabled = BehaviorLookAt
	b.targetX, b.targetY = 1, 0.5
	for range 10 {
		b.apply(make([]float32, 6), 0.02)
	}
	v = make([]float32, 6)
	b.apply(v, 0.02)
	x := 1 - (1+10*0.22)*math.Exp(-10*0.22)
	y := 0.5 * x
	if !near(float64(v[3]), 30*x, 1e-4) || !near(float64(v[5]), x, 1e-5) || !near(float64(v[4]), -30*x*y, 1e-4) {
		t.Errorf("look-at: angleX %v eyeX %v angleZ %v, want %v %v %v", v[3], v[5], v[4], 30*x, x, -30*x*y)
	}
}

func TestBreath(t *testing.T) {
	b := newBehaviors(behaviorModel())
	b.enabled = BehaviorBreath
	v := []float32{1, 0, 0, 0, 0, 0}
	b.apply(v, 0.5)
	// Breath: midpoint 0.5 + 0.5·sin(2π·0.5/3.2345); AngleX sway 30·¼·sin(2π·0.5/6.5345).
	if want := 0.5 + 0.5*math.Sin(2*math.Pi*0.5/3.2345); !near(float64(v[2]), want, 1e-6) {
		t.Errorf("breath = %v, want %v", v[2], want)
	}
	if want := 7.5 * math.Sin(2*math.Pi*0.5/6.5345); !near(float64(v[3]), want, 1e-5) {
		t.Errorf("angleX sway = %v, want %v", v[3], want)
	}
	b.strength = 0
	v = []float32{1, 0, 0, 0, 0, 0}
	b.apply(v, 0.5)
	if v[3] != 0 {
		t.Errorf("strength 0 still sways: %v", v[3])
	}
}

// TestBehaviorsOneByOne drives each behavior alone through the public Rig
// API: only the parameters of the behavior switched on move, and the blink
// settings are the ones used.
func TestBehaviorsOneByOne(t *testing.T) {
	m := behaviorModel()
	m.Canvas = Canvas{Width: 10, Height: 10, PixelsPerUnit: -1}
	m.Draw = DrawGroup{Part: -1}
	const dt = 1.0 / 64 // exact in float32
	// moved runs 1 s of updates with only b on and returns which
	// parameters left their default at some frame.
	moved := func(b Behavior, setup func(r *Rig)) map[int]bool {
		r := m.NewRig()
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
		r.SetBehaviorSeed(7)
		r.LookAt(1, 0)
		r.LipSync(0.6) // switches lip sync on; SetBehaviors decides below
		r.SetBehaviors(b)
		if setup != nil {
			setup(r)
		}
		out := map[int]bool{}
		for range 64 {
			r.Update(dt)
			for i := range m.Parameters {
				if r.ParameterCurrent(i) != m.Parameters[i].Default {
					out[i] = true
				}
			}
		}
		return out
	}
	const eye, mouth, breath, angleX, angleZ, eyeBallX = 0, 1, 2, 3, 4, 5
	set := func(ps ...int) map[int]bool {
		s := map[int]bool{}
		for _, p := range ps {
			s[p] = true
		}
		return s
	}
	same := func(a, b map[int]bool) bool {
		if len(a) != len(b) {
			return false
		}
		for k := range a {
			if !b[k] {
				return false
			}
		}
		return true
	}
	fastBlink := func(r *Rig) {
		r.SetBlinkSettings(BlinkSettings{MinInterval: 0.5, MaxInterval: 0.5, Closing: 0.1, Closed: 0.05, Opening: 0.15})
	}
	for _, c := range []struct {
		name  string
		b     Behavior
		setup func(*Rig)
		want  map[int]bool
	}{
		{"none", 0, nil, set()},
		// The default interval is at least 2 s: no blink within 1 s.
		{"blink, default settings", BehaviorBlink, nil, set()},
		// A 0.5 s interval: the eye closes (0.1 s) and holds shut 0.05 s
		// before 1 s has passed.
		{"blink, 0.5 s interval", BehaviorBlink, fastBlink, set(eye)},
		{"look-at", BehaviorLookAt, nil, set(angleX, eyeBallX)}, // y = 0: no AngleZ tilt (x·y = 0)
		{"lip sync", BehaviorLipSync, nil, set(mouth)},
	} {
		if got := moved(c.b, c.setup); !same(got, c.want) {
			t.Errorf("%s: moved %v, want %v", c.name, got, c.want)
		}
	}
	// Breath: the Breath role parameter and the angle sway move; the eye,
	// mouth and eyeball stay.
	got := moved(BehaviorBreath, nil)
	if !got[breath] || !got[angleX] || got[eye] || got[mouth] || got[eyeBallX] {
		t.Errorf("breath: moved %v", got)
	}
	// LipSync works on its own: it switches BehaviorLipSync on.
	r0 := m.NewRig()
	r0.LipSync(0.6)
	if r0.Behaviors() != BehaviorLipSync {
		t.Errorf("behaviors after LipSync: %b", r0.Behaviors())
	}
	r0.Update(dt)
	if got := r0.ParameterCurrent(mouth); got != 1.2 { // 0.6 of the range 0..2
		t.Errorf("mouth %v after LipSync(0.6) alone, want 1.2", got)
	}
	// Switching one behavior off with EnableBehavior leaves the others.
	r := m.NewRig()
	r.SetBehaviors(AllBehaviors)
	r.EnableBehavior(BehaviorLipSync, false)
	if r.Behaviors() != BehaviorBlink|BehaviorBreath|BehaviorLookAt {
		t.Errorf("behaviors after switching lip sync off: %b", r.Behaviors())
	}
}
