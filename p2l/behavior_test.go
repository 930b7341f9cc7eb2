package p2l

import (
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func behaviorModel() *Model {
	return &Model{file: &p2lrt.File{
		Parameters: []p2lrt.Parameter{
			{ID: "ParamEyeLOpen", Min: 0, Max: 1, Default: 1},
			{ID: "mouth", Min: 0, Max: 2},
			{ID: "breath", Min: 0, Max: 1},
			{ID: "ParamAngleX", Min: -30, Max: 30},
			{ID: "ParamAngleZ", Min: -30, Max: 30},
			{ID: "ParamEyeBallX", Min: -1, Max: 1},
		},
		// The roles as the editor writes them for the standard parameters
		// present; the behaviors read nothing but these.
		Roles: []p2lrt.Role{
			{Name: "EyeBlink", Parameters: []int{0}}, {Name: "LipSync", Parameters: []int{1}}, {Name: "Breath", Parameters: []int{2}},
			{Name: "AngleX", Parameters: []int{3}}, {Name: "AngleZ", Parameters: []int{4}}, {Name: "EyeBallX", Parameters: []int{5}},
		},
	}}
}

// xorshift32 is the reference runtime's blink generator (behavior.rs
// random), written out here to derive the expected timeline.
func xorshift32(seed *uint32) float64 {
	x := *seed
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	*seed = x
	return float64(x>>8) / (1 << 24)
}

// TestBlinkTimeline follows the reference's Behaviors::eyes: with seed 42
// the next blink starts at 2 + 4·r (r the first xorshift draw from the
// seed, the clock at 0); from there the eye closes linearly over 0.1 s,
// stays shut to 0.15 s and opens to 0.3 s, each phase timed from the
// blink's start (the first frame at or after it); then the next blink is
// drawn from that frame's time.
func TestBlinkTimeline(t *testing.T) {
	b := newBehaviors(behaviorModel())
	b.enabled = BehaviorBlink
	b.seed(42)
	seed := uint32(42)
	next := 2 + 4*xorshift32(&seed)
	const dt = 1.0 / 64
	start := -1.0
	blinks := 0
	for k := 1; k <= 64*16; k++ {
		v := []float32{0.8}
		b.apply(v, dt)
		now := float64(k) * dt
		if start < 0 && now >= next {
			start = now
		}
		want := 1.0
		if start >= 0 {
			switch u := now - start; {
			case u < 0.1:
				want = 1 - u/0.1
			case u < 0.15:
				want = 0
			case u < 0.3:
				want = (u - 0.15) / 0.15
			default:
				start = -1
				next = now + 2 + 4*xorshift32(&seed)
				blinks++
			}
		}
		if got := float64(v[0]) / 0.8; !near(got, want, 1e-6) {
			t.Fatalf("t=%v (next blink %.4f): value %v, want %v", now, next, got, want)
		}
	}
	if blinks < 2 {
		t.Errorf("%d blinks in 16 s, want at least 2", blinks)
	}
}

// TestBlinkSeeds: the process's first rig blinks first at 2 s with the
// default seed (the reference's first handle); later rigs get seeds of
// their own.
func TestBlinkSeeds(t *testing.T) {
	m := behaviorModel()
	seedCounter.Store(0)
	first, second := newBehaviors(m), newBehaviors(m)
	if first.blinkAt != 2 || first.blinkSeed != blinkDefaultSeed {
		t.Errorf("first rig: blink at %v, seed %#x; want 2 s and the default seed", first.blinkAt, first.blinkSeed)
	}
	seed := uint32(1)*0x9e3779b9 ^ blinkDefaultSeed
	if want := 2 + 4*xorshift32(&seed); second.blinkAt != want {
		t.Errorf("second rig: first blink at %v, want %v", second.blinkAt, want)
	}
}

func TestLipSyncAndLook(t *testing.T) {
	b := newBehaviors(behaviorModel())
	b.enabled = BehaviorLipSync | BehaviorLookAt
	b.lipLevel = 0.6
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
	// Look-at: the reference's follower, v += ((target − x)·120 − v·2√120)·h,
	// x += v·h in steps h of at most 1/120 s (behavior.rs), computed here
	// step by step; the angles move by that share of their half range from
	// the default, AngleZ by −x·y.
	b = newBehaviors(behaviorModel())
	b.enabled = BehaviorLookAt
	b.targetX, b.targetY = 1, 0.5
	var x, vx, y, vy float64
	k, d := 120.0, 2*math.Sqrt(120)
	for range 11 {
		v = make([]float32, 6)
		b.apply(v, 0.02)
		for rem := 0.02; rem > 0; rem -= 1.0 / 120 {
			h := math.Min(rem, 1.0/120)
			vx += ((1-x)*k - vx*d) * h
			x += vx * h
			vy += ((0.5-y)*k - vy*d) * h
			y += vy * h
		}
	}
	if !near(float64(v[3]), 30*x, 1e-4) || !near(float64(v[5]), x, 1e-5) || !near(float64(v[4]), -30*x*y, 1e-4) {
		t.Errorf("look-at: angleX %v eyeX %v angleZ %v, want %v %v %v", v[3], v[5], v[4], 30*x, x, -30*x*y)
	}
	// The exact critically damped response 1 − (1 + ωt)e^{−ωt} at 0.22 s is
	// 0.694: the reference's integration stays close to it.
	if w := math.Sqrt(120); math.Abs(x-(1-(1+w*0.22)*math.Exp(-w*0.22))) > 0.02 {
		t.Errorf("after 0.22 s the follower is at %v, far from a critically damped one", x)
	}
}

// TestBreath: the reference's amplitudes (behavior.rs SWAYS): Breath
// min + (0.5 + 0.5·sin(2πt/3.2345))·span; AngleX += 0.15·sin(2πt/6.5345)·half.
func TestBreath(t *testing.T) {
	b := newBehaviors(behaviorModel())
	b.enabled = BehaviorBreath
	v := []float32{1, 0, 0, 0, 0, 0}
	b.apply(v, 0.5)
	if want := 0.5 + 0.5*math.Sin(2*math.Pi*0.5/3.2345); !near(float64(v[2]), want, 1e-6) {
		t.Errorf("breath = %v, want %v", v[2], want)
	}
	if want := 30 * 0.15 * math.Sin(2*math.Pi*0.5/6.5345); !near(float64(v[3]), want, 1e-5) {
		t.Errorf("angleX sway = %v, want %v", v[3], want)
	}
	b.strength = 0
	v = []float32{1, 0, 0, 0, 0, 0}
	b.apply(v, 0.5)
	if v[3] != 0 || v[2] != 0.5 {
		t.Errorf("strength 0 still sways: angleX %v, breath %v (want 0, the midpoint)", v[3], v[2])
	}
	// The clock advances by at most 1 s per update.
	b = newBehaviors(behaviorModel())
	b.enabled = BehaviorBreath
	b.apply(make([]float32, 6), 7)
	if b.time != 1 {
		t.Errorf("clock after a 7 s update: %v, want 1", b.time)
	}
}

// TestBehaviorsOneByOne drives each behavior alone through the public Rig
// API: only the parameters of the behavior switched on move, and the blink
// settings are the ones used.
func TestBehaviorsOneByOne(t *testing.T) {
	m := behaviorModel()
	m.file.Canvas = p2lrt.Canvas{Width: 10, Height: 10, PixelsPerUnit: -1}
	m.file.Draw = p2lrt.DrawGroup{Part: -1}
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
		r.LipSync(0.6, [5]float32{}) // switches lip sync on; SetBehaviors decides below
		r.SetBehaviors(b)
		if setup != nil {
			setup(r)
		}
		out := map[int]bool{}
		for range 64 {
			r.Update(dt)
			for i := range m.file.Parameters {
				if r.ParameterCurrent(i) != m.file.Parameters[i].Default {
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
		setBlink(r, BlinkSettings{MinInterval: 0.5, MaxInterval: 0.5, Closing: 0.1, Closed: 0.05, Opening: 0.15})
		r.SetBehaviorSeed(7) // the next blink is drawn again with the new interval
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
	r0.LipSync(0.6, [5]float32{})
	if r0.Behaviors() != DefaultBehaviors|BehaviorLipSync {
		t.Errorf("behaviors after LipSync: %b, want the defaults and lip sync", r0.Behaviors())
	}
	r0.Update(dt)
	if got := r0.ParameterCurrent(mouth); got != 1.2 { // 0.6 of the range 0..2
		t.Errorf("mouth %v after LipSync(0.6) alone, want 1.2", got)
	}
	// Switching one behavior off with EnableBehavior leaves the others.
	r := m.NewRig()
	r.SetBehaviors(AllBehaviors)
	r.SetBehaviors(r.Behaviors() &^ BehaviorLipSync)
	if r.Behaviors() != BehaviorBlink|BehaviorBreath|BehaviorLookAt {
		t.Errorf("behaviors after switching lip sync off: %b", r.Behaviors())
	}
}

// TestDefaultBehaviors: a new rig blinks and breathes, as the reference's
// Behaviors::default (enabled: BLINK | BREATH): with nothing switched, its
// updates move the Breath parameter and the angle sways, and the eye shuts
// at the first blink (2 s for the process's first rig, drawn for later
// ones, within 2–6 s either way).
func TestDefaultBehaviors(t *testing.T) {
	m := behaviorModel()
	m.file.Canvas = p2lrt.Canvas{Width: 10, Height: 10, PixelsPerUnit: -1}
	m.file.Draw = p2lrt.DrawGroup{Part: -1}
	r := m.NewRig()
	if r.Behaviors() != BehaviorBlink|BehaviorBreath {
		t.Fatalf("a new rig's behaviors: %b, want blink and breath", r.Behaviors())
	}
	const dt = 1.0 / 64
	breathMoved, angleMoved, shut := false, false, false
	for range 64 * 7 {
		r.Update(dt)
		breathMoved = breathMoved || r.ParameterCurrent(2) != 0
		angleMoved = angleMoved || r.ParameterCurrent(3) != 0
		shut = shut || r.ParameterCurrent(0) == 0
		if r.ParameterCurrent(1) != 0 || r.ParameterCurrent(5) != 0 {
			t.Fatalf("mouth %v, eyeball %v: moved without lip sync or look-at", r.ParameterCurrent(1), r.ParameterCurrent(5))
		}
	}
	if !breathMoved || !angleMoved || !shut {
		t.Errorf("over 7 s: breath moved %v, AngleX swayed %v, eye shut %v; want all", breathMoved, angleMoved, shut)
	}
	// Evaluate shows the host pose alone: no behavior.
	r.Evaluate()
	if r.ParameterCurrent(2) != 0 || r.ParameterCurrent(3) != 0 {
		t.Errorf("Evaluate: breath %v, AngleX %v; want the defaults", r.ParameterCurrent(2), r.ParameterCurrent(3))
	}
	// SetBehaviors(0) leaves the host pose.
	r = m.NewRig()
	r.SetBehaviors(0)
	for range 64 * 3 {
		r.Update(dt)
		for i := range m.file.Parameters {
			if r.ParameterCurrent(i) != m.file.Parameters[i].Default {
				t.Fatalf("behaviors off: %s = %v", m.file.Parameters[i].ID, r.ParameterCurrent(i))
			}
		}
	}
}

// TestBehaviorRolesOnly: as the reference, blink, breath, look-at and lip
// sync move only the parameters the ROLE chunk lists: a model holding the
// Cubism standard ids without roles stays still with every behavior on,
// while the vowel lip sync (ours alone) still finds ParamMouthForm by its
// id. Several ROLE records of one name all count (the reference gathers
// every record with the name).
func TestBehaviorRolesOnly(t *testing.T) {
	ids := []string{"ParamEyeLOpen", "ParamEyeROpen", "ParamMouthOpenY", "ParamBreath", "ParamAngleX", "ParamAngleY",
		"ParamAngleZ", "ParamBodyAngleX", "ParamEyeBallX", "ParamEyeBallY", "ParamMouthForm"}
	m := &Model{file: &p2lrt.File{Canvas: p2lrt.Canvas{Width: 10, Height: 10, PixelsPerUnit: -1}, Draw: p2lrt.DrawGroup{Part: -1}}}
	for _, id := range ids {
		p := p2lrt.Parameter{ID: id, Min: -1, Max: 1}
		switch id {
		case "ParamEyeLOpen", "ParamEyeROpen":
			p = p2lrt.Parameter{ID: id, Min: 0, Max: 1, Default: 1}
		case "ParamMouthOpenY":
			p = p2lrt.Parameter{ID: id, Min: 0, Max: 1}
		}
		m.file.Parameters = append(m.file.Parameters, p)
	}
	fastBlink := BlinkSettings{MinInterval: 0.2, MaxInterval: 0.2, Closing: 0.1, Closed: 0.05, Opening: 0.15}
	twins := true // ParamEyeBallY (a second AngleX record) equals ParamAngleX
	run := func(m *Model) (moved map[string]bool) {
		r := m.NewRig()
		r.SetBehaviors(AllBehaviors)
		setBlink(r, fastBlink)
		r.SetBehaviorSeed(3)
		r.LookAt(1, 1)
		r.LipSync(0.8, [5]float32{0, 1}) // I: spread, MouthForm toward +1
		moved = map[string]bool{}
		for range 64 {
			r.Update(1.0 / 64)
			for i, p := range m.file.Parameters {
				if r.ParameterCurrent(i) != p.Default {
					moved[p.ID] = true
				}
			}
			if len(m.file.Roles) > 0 && r.ParameterCurrent(9) != r.ParameterCurrent(4) {
				twins = false
			}
		}
		return moved
	}
	if got := run(m); len(got) != 1 || !got["ParamMouthForm"] {
		t.Errorf("no ROLE chunk: moved %v, want ParamMouthForm alone (the vowel fallback)", got)
	}
	// Roles for all but ParamEyeROpen, EyeBlink and AngleX split over two
	// records each: every listed parameter moves, the unlisted one does not.
	m2 := m.clone()
	m2.file.Roles = []p2lrt.Role{
		{Name: "EyeBlink", Parameters: []int{0}}, {Name: "LipSync", Parameters: []int{2}},
		{Name: "Breath", Parameters: []int{3}}, {Name: "AngleX", Parameters: []int{4}}, {Name: "AngleY", Parameters: []int{5}},
		{Name: "AngleZ", Parameters: []int{6}}, {Name: "BodyAngleX", Parameters: []int{7}}, {Name: "EyeBallX", Parameters: []int{8}},
		{Name: "AngleX", Parameters: []int{9}}, // EyeBallY as a second AngleX record
	}
	got := run(m2)
	for i, id := range ids {
		want := i != 1 // ParamEyeROpen has no role
		if got[id] != want {
			t.Errorf("with roles: %s moved %v, want %v", id, got[id], want)
		}
	}
	if !twins {
		t.Error("the second AngleX record's parameter does not follow AngleX")
	}
}

// setBlink sets the blink settings alone.
func setBlink(r *Rig, b BlinkSettings) {
	s := r.BehaviorSettings()
	s.Blink = b
	r.SetBehaviorSettings(s)
}
