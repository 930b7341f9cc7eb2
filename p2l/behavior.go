package p2l

import (
	"math"
	"math/rand/v2"
	"sync/atomic"
)

// This file holds the procedural behaviors of RUNTIME.md ("程序化行为"):
// blink, breath, look-at and lip sync, each switched on and off on its own,
// acting on the parameters named by the ROLE chunk. Where a role is absent
// the Cubism standard parameter id is used instead (ParamEyeLOpen, ...), so
// imported Cubism models behave too.

// Behavior is a set of procedural behaviors.
type Behavior uint8

// The behaviors; combine them with |.
const (
	BehaviorBlink Behavior = 1 << iota
	BehaviorBreath
	BehaviorLookAt
	BehaviorLipSync

	AllBehaviors = BehaviorBlink | BehaviorBreath | BehaviorLookAt | BehaviorLipSync
)

// BlinkSettings times the blink behavior, in seconds. The next blink starts
// a uniformly random time in [MinInterval, MaxInterval] after the previous
// one ended.
type BlinkSettings struct {
	// MinInterval and MaxInterval bound the random pause between blinks.
	MinInterval, MaxInterval float32
	// Closing, Closed and Opening are the durations of the blink's phases.
	Closing, Closed, Opening float32
}

// DefaultBlinkSettings are the spec's: every 2–6 s, closing 0.1 s, closed
// 0.05 s, opening 0.15 s.
var DefaultBlinkSettings = BlinkSettings{MinInterval: 2, MaxInterval: 6, Closing: 0.1, Closed: 0.05, Opening: 0.15}

// BreathSettings sets the breath behavior.
type BreathSettings struct {
	// Period of the Breath parameter's sine, in seconds.
	Period float32
	// Sway scales the head and body sway (1: AngleX ±¼, AngleY ±2/15,
	// AngleZ ±⅙ and BodyAngleX ±⅕ of each parameter's half range, the
	// amplitudes of Cubism's sample breath table for the standard ranges).
	Sway float32
}

// DefaultBreathSettings are the Cubism sample's period and full sway.
var DefaultBreathSettings = BreathSettings{Period: 3.2345, Sway: 1}

// LookAtSettings sets the look-at follower.
type LookAtSettings struct {
	// Omega is the natural frequency of the critically damped follower in
	// rad/s: it covers 95 % of a step in about 4.7/Omega seconds.
	Omega float32
}

// DefaultLookAtSettings follow in about half a second.
var DefaultLookAtSettings = LookAtSettings{Omega: 10}

// MouthShape is the mouth of one vowel: Open scales the opening (the
// LipSync parameters reach level × Open of their range), Form is the
// MouthForm value in [−1, 1] of that parameter's range (−1 pursed or sad,
// +1 spread or smiling, as Cubism's standard ParamMouthForm).
type MouthShape struct{ Open, Form float32 }

// LipSyncSettings set how LipSyncVowels shapes the mouth.
type LipSyncSettings struct {
	// Vowels are the shapes of A, I, U, E, O (the order of the weights).
	Vowels [5]MouthShape
	// FormWeight scales how far the vowels pull MouthForm, in [0, 1].
	FormWeight float32
}

// DefaultLipSyncSettings: A wide open, I spread and nearly closed, U
// pursed, E half open and spread, O open and rounded.
var DefaultLipSyncSettings = LipSyncSettings{
	Vowels:     [5]MouthShape{{1, 0}, {0.35, 1}, {0.3, -1}, {0.6, 0.6}, {0.75, -0.6}},
	FormWeight: 1,
}

// Cubism sample breath cycles (s) of the sway parameters.
var breathSway = [4]struct {
	role        string
	cycle, frac float64
}{
	{"AngleX", 6.5345, 0.25},
	{"AngleY", 3.5345, 2.0 / 15},
	{"AngleZ", 5.5345, 1.0 / 6},
	{"BodyAngleX", 15.5345, 0.2},
}

// standardIDs maps a role to the Cubism standard parameter ids used when
// the model has no ROLE entry for it.
var standardIDs = map[string][]string{
	"EyeBlink":   {"ParamEyeLOpen", "ParamEyeROpen"},
	"LipSync":    {"ParamMouthOpenY"},
	"Breath":     {"ParamBreath"},
	"AngleX":     {"ParamAngleX"},
	"AngleY":     {"ParamAngleY"},
	"AngleZ":     {"ParamAngleZ"},
	"BodyAngleX": {"ParamBodyAngleX"},
	"EyeBallX":   {"ParamEyeBallX"},
	"EyeBallY":   {"ParamEyeBallY"},
	"MouthForm":  {"ParamMouthForm"},
	// Vowel parameters of Cubism's MotionSync convention.
	"VowelA": {"ParamA"},
	"VowelI": {"ParamI"},
	"VowelU": {"ParamU"},
	"VowelE": {"ParamE"},
	"VowelO": {"ParamO"},
}

// vowelRoles are the roles of the vowel parameters, in vowel order.
var vowelRoles = [5]string{"VowelA", "VowelI", "VowelU", "VowelE", "VowelO"}

// roleParameters returns the parameters of role name: the ROLE chunk's list
// (valid indices only), else the Cubism standard ids present in the model.
func roleParameters(m *Model, name string) []int {
	var out []int
	if ps := m.RoleParameters(name); ps != nil {
		for _, p := range ps {
			if p >= 0 && p < len(m.Parameters) {
				out = append(out, p)
			}
		}
		return out
	}
	for _, id := range standardIDs[name] {
		for i := range m.Parameters {
			if m.Parameters[i].ID == id {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// seedCounter gives each new rig of the process its own blink seed; the
// first rig gets seed 1.
var seedCounter atomic.Uint64

// blink states (Cubism's EyeState).
const (
	blinkFirst = iota
	blinkInterval
	blinkClosing
	blinkClosed
	blinkOpening
)

type behaviors struct {
	model    *Model
	enabled  Behavior
	strength float32

	blinkP, lipP, breathP, formP                     []int
	vowelP                                           [5][]int
	sway                                             [4][]int
	lookAX, lookAY, lookAZ, lookBody, lookEX, lookEY []int

	blinkCfg   BlinkSettings
	rng        *rand.Rand
	pcg        *rand.PCG
	blinkState int
	blinkTime  float64 // behavior clock
	blinkStart float64 // start of the current state
	blinkNext  float64 // start time of the next blink

	breathCfg  BreathSettings
	breathTime float64

	lookCfg          LookAtSettings
	targetX, targetY float64
	lookX, lookY     float64
	lookVX, lookVY   float64

	lipLevel  float32
	lipVowels [5]float32 // weights of A, I, U, E, O
	lipCfg    LipSyncSettings
}

func newBehaviors(m *Model) *behaviors {
	b := &behaviors{
		model:     m,
		strength:  1,
		blinkP:    roleParameters(m, "EyeBlink"),
		lipP:      roleParameters(m, "LipSync"),
		formP:     roleParameters(m, "MouthForm"),
		breathP:   roleParameters(m, "Breath"),
		lookAX:    roleParameters(m, "AngleX"),
		lookAY:    roleParameters(m, "AngleY"),
		lookAZ:    roleParameters(m, "AngleZ"),
		lookBody:  roleParameters(m, "BodyAngleX"),
		lookEX:    roleParameters(m, "EyeBallX"),
		lookEY:    roleParameters(m, "EyeBallY"),
		blinkCfg:  DefaultBlinkSettings,
		breathCfg: DefaultBreathSettings,
		lookCfg:   DefaultLookAtSettings,
		lipCfg:    DefaultLipSyncSettings,
	}
	for v, role := range vowelRoles {
		b.vowelP[v] = roleParameters(m, role)
	}
	for k := range breathSway {
		b.sway[k] = roleParameters(m, breathSway[k].role)
	}
	b.pcg = rand.NewPCG(0, 0)
	b.rng = rand.New(b.pcg)
	b.seed(seedCounter.Add(1))
	return b
}

// seed restarts the blink timeline with a new random seed.
func (b *behaviors) seed(s uint64) {
	b.pcg.Seed(s, 0x9e3779b97f4a7c15)
	b.blinkState = blinkFirst
	b.blinkTime, b.blinkStart, b.blinkNext = 0, 0, 0
}

// halfRange is half of parameter i's range.
func (b *behaviors) halfRange(i int) float64 {
	p := &b.model.Parameters[i]
	return (float64(p.Max) - float64(p.Min)) / 2
}

// nextBlink draws the start of the next blink after now.
func (b *behaviors) nextBlink(now float64) float64 {
	lo, hi := float64(b.blinkCfg.MinInterval), float64(b.blinkCfg.MaxInterval)
	if hi < lo {
		hi = lo
	}
	return now + lo + b.rng.Float64()*(hi-lo)
}

// blinkValue advances the blink timeline by dt and returns the eye
// openness in [0, 1] (Cubism's CubismEyeBlink state machine).
func (b *behaviors) blinkValue(dt float64) float64 {
	b.blinkTime += dt
	now := b.blinkTime
	phase := func(d float32) float64 {
		if d <= 0 {
			return 1
		}
		return (now - b.blinkStart) / float64(d)
	}
	switch b.blinkState {
	case blinkFirst:
		b.blinkState = blinkInterval
		b.blinkNext = b.nextBlink(now)
		return 1
	case blinkInterval:
		if b.blinkNext < now {
			b.blinkState = blinkClosing
			b.blinkStart = now
		}
		return 1
	case blinkClosing:
		u := phase(b.blinkCfg.Closing)
		if u >= 1 {
			u = 1
			b.blinkState = blinkClosed
			b.blinkStart = now
		}
		return 1 - u
	case blinkClosed:
		if phase(b.blinkCfg.Closed) >= 1 {
			b.blinkState = blinkOpening
			b.blinkStart = now
		}
		return 0
	default: // blinkOpening
		u := phase(b.blinkCfg.Opening)
		if u >= 1 {
			u = 1
			b.blinkState = blinkInterval
			b.blinkNext = b.nextBlink(now)
		}
		return u
	}
}

// advanceLook moves the critically damped follower by dt toward the target
// (exact solution of x” = ω²(target − x) − 2ωx', so the result does not
// depend on the frame rate).
func (b *behaviors) advanceLook(dt float64) {
	w := float64(b.lookCfg.Omega) * float64(b.strength)
	if !(w > 0) || !(dt > 0) {
		return
	}
	e := math.Exp(-w * dt)
	step := func(x, v, target float64) (float64, float64) {
		d := x - target
		c := v + w*d
		return target + (d+c*dt)*e, (v - w*c*dt) * e
	}
	b.lookX, b.lookVX = step(b.lookX, b.lookVX, b.targetX)
	b.lookY, b.lookVY = step(b.lookY, b.lookVY, b.targetY)
}

// apply advances the enabled behaviors by dt and changes values.
func (b *behaviors) apply(values []float32, dt float64) {
	d := dt
	if !(d > 0) {
		d = 0
	}
	s := float64(b.strength)
	if b.enabled&BehaviorBlink != 0 {
		v := b.blinkValue(d)
		for _, i := range b.blinkP {
			values[i] = float32(float64(values[i]) * v)
		}
	}
	if b.enabled&BehaviorBreath != 0 {
		b.breathTime += d
		t := b.breathTime * 2 * math.Pi
		if per := float64(b.breathCfg.Period); per > 0 {
			for _, i := range b.breathP {
				p := &b.model.Parameters[i]
				mid := (float64(p.Min) + float64(p.Max)) / 2
				values[i] = float32(mid + b.halfRange(i)*math.Sin(t/per))
			}
		}
		amp := float64(b.breathCfg.Sway) * s
		for k := range breathSway {
			for _, i := range b.sway[k] {
				values[i] = float32(float64(values[i]) + amp*breathSway[k].frac*b.halfRange(i)*math.Sin(t/breathSway[k].cycle))
			}
		}
	}
	if b.enabled&BehaviorLookAt != 0 {
		b.advanceLook(d)
		x, y := b.lookX*s, b.lookY*s
		add := func(ps []int, f float64) {
			for _, i := range ps {
				values[i] = float32(float64(values[i]) + f*b.halfRange(i))
			}
		}
		add(b.lookAX, x)
		add(b.lookAY, y)
		add(b.lookAZ, -x*y)
		add(b.lookBody, x)
		add(b.lookEX, x)
		add(b.lookEY, y)
	}
	if b.enabled&BehaviorLipSync != 0 {
		b.applyLipSync(values)
	}
}

// applyLipSync shapes the mouth from the level and the vowel weights: the
// LipSync parameters take the larger of their value and level × opening,
// the opening being the weighted mean of the vowels' Open with the
// unweighted share (1 − Σw) fully open; MouthForm moves toward the weighted
// mean of the vowels' Form by Σw × FormWeight; each vowel parameter
// (ParamA…ParamO) takes the larger of its value and level × its weight.
func (b *behaviors) applyLipSync(values []float32) {
	lv := float64(b.lipLevel)
	conf, open, form := 0.0, 0.0, 0.0
	for v, w := range b.lipVowels {
		conf += float64(w)
		open += float64(w) * float64(b.lipCfg.Vowels[v].Open)
		form += float64(w) * float64(b.lipCfg.Vowels[v].Form)
	}
	openScale := 1 - conf + open
	raise := func(ps []int, level float64) {
		for _, i := range ps {
			p := &b.model.Parameters[i]
			target := float64(p.Min) + level*(float64(p.Max)-float64(p.Min))
			if target > float64(values[i]) {
				values[i] = float32(target)
			}
		}
	}
	raise(b.lipP, lv*openScale)
	if conf > 0 {
		f := form / conf
		k := conf * float64(b.lipCfg.FormWeight)
		for _, i := range b.formP {
			p := &b.model.Parameters[i]
			mid := (float64(p.Min) + float64(p.Max)) / 2
			target := mid + f*b.halfRange(i)
			values[i] = float32(float64(values[i]) + (target-float64(values[i]))*k)
		}
		for v, ps := range b.vowelP {
			raise(ps, lv*float64(b.lipVowels[v]))
		}
	}
}

// rms returns the root mean square of samples (0 for none).
func rms(samples []float32) float64 {
	if len(samples) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range samples {
		sum += float64(x) * float64(x)
	}
	return math.Sqrt(sum / float64(len(samples)))
}
