package p2l

import (
	"math"
	"sync/atomic"
)

// This file holds the procedural behaviors of RUNTIME.md ("程序化行为"):
// blink, breath, look-at and lip sync, each switched on and off on its own,
// acting on the parameters the ROLE chunk lists for them, as the reference
// runtime (PSD2Live runtime/src/behavior.rs) does: a model without a role
// has nothing for that behavior to move. Only what exists here alone (the
// vowel lip sync's MouthForm and ParamA…ParamO, which the reference does not
// drive) falls back to the Cubism standard parameter ids. Blink and breath
// start on, as in the reference. Where the spec gives no number (the sway
// amplitudes, the blink timeline and its random generator, the gaze
// follower's stiffness and integration, the body's share of the gaze), the
// reference runtime's are used.

// Behavior is a set of procedural behaviors.
type Behavior uint8

// The behaviors; combine them with |.
const (
	BehaviorBlink Behavior = 1 << iota
	BehaviorBreath
	BehaviorLookAt
	BehaviorLipSync

	AllBehaviors = BehaviorBlink | BehaviorBreath | BehaviorLookAt | BehaviorLipSync

	// DefaultBehaviors are on when a rig is created: blink and breath, as
	// the reference runtime starts every rig ("Blinking and breathing start
	// on"). SetBehaviors(0) switches them off.
	DefaultBehaviors = BehaviorBlink | BehaviorBreath
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

// CubismBlinkSettings are the Cubism framework's (CubismEyeBlink: interval
// 4 s, so the next blink comes a uniform time in [0, 2·4 − 1] = [0, 7] s
// after the previous one ended; closing 0.1 s, closed 0.05 s, opening
// 0.15 s), which rigs of PlaybackCubism models start with.
var CubismBlinkSettings = BlinkSettings{MinInterval: 0, MaxInterval: 7, Closing: 0.1, Closed: 0.05, Opening: 0.15}

// BreathSettings sets the breath behavior.
type BreathSettings struct {
	// Period of the Breath parameter's sine, in seconds.
	Period float32
	// Sway scales the breath and the head and body sway (1: Breath over
	// its whole range; AngleX ±0.15, AngleY ±0.08, AngleZ ±0.10 and
	// BodyAngleX ±0.04 of each parameter's half range, the reference
	// runtime's amplitudes).
	Sway float32
}

// DefaultBreathSettings are the Cubism sample's period and full sway.
var DefaultBreathSettings = BreathSettings{Period: 3.2345, Sway: 1}

// LookAtSettings sets the look-at follower.
type LookAtSettings struct {
	// Omega is the natural frequency of the critically damped follower in
	// rad/s: it covers 95 % of a step in about 4.7/Omega seconds. Omega ×
	// the behavior strength counts as at most 60.
	Omega float32
}

// DefaultLookAtSettings are the reference runtime's: stiffness 120 s⁻²
// (Omega √120 ≈ 11 rad/s), settling in about 0.4 s.
var DefaultLookAtSettings = LookAtSettings{Omega: float32(math.Sqrt(120))}

// MouthShape is the mouth of one vowel: Open scales the opening (the
// LipSync parameters reach level × Open of their range), Form is the
// MouthForm value in [−1, 1] of that parameter's range (−1 pursed or sad,
// +1 spread or smiling, as Cubism's standard ParamMouthForm).
type MouthShape struct{ Open, Form float32 }

// LipSyncSettings set how Rig.LipSync shapes the mouth from the vowels.
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

// breathSway are the sways added to the head and body: the parameter's
// role, the cycle in seconds (Cubism's sample breath table) and the peak as
// a fraction of the half range (the reference runtime's behavior.rs).
var breathSway = [4]struct {
	role        string
	cycle, frac float64
}{
	{"AngleX", 6.5345, 0.15},
	{"AngleY", 3.5345, 0.08},
	{"AngleZ", 5.5345, 0.10},
	{"BodyAngleX", 15.5345, 0.04},
}

// cubismBreath is the Cubism sample's breath table (lappmodel.ts
// setupBreath, CubismBreath): each role's parameter gets
// (offset + peak·sin(2π·time/cycle))·weight added; the Breath row's cycle
// is BreathSettings.Period. The Web sample's Breath weight is 1 (the
// Native samples' 0.5).
var cubismBreath = [5]struct {
	role                        string
	offset, peak, cycle, weight float64
}{
	{"AngleX", 0, 15, 6.5345, 0.5},
	{"AngleY", 0, 8, 3.5345, 0.5},
	{"AngleZ", 0, 10, 5.5345, 0.5},
	{"BodyAngleX", 0, 4, 15.5345, 0.5},
	{"Breath", 0.5, 0.5, 3.2345, 1},
}

// lookBodyShare is how far the gaze turns BodyAngleX, as a fraction of its
// half range (the reference's LOOKS table).
const lookBodyShare = 0.33

// maxBehaviorStep is the most time one update advances the behaviors (the
// reference's dt.clamp(0, 1)).
const maxBehaviorStep = 1.0

// lookStep is the longest integration step of the gaze follower (the
// reference integrates in steps of at most 1/120 s).
const lookStep = 1.0 / 120

// maxLookOmega bounds the follower's frequency (Omega × strength) to where
// its integration in lookStep steps stays stable; a follower that fast
// settles within 0.1 s anyway.
const maxLookOmega = 60

// blinkDefaultSeed seeds the first rig's blink timeline, whose first blink
// comes at 2 s; every later rig k gets k·0x9e3779b9 ^ blinkDefaultSeed and a
// first blink drawn like the others (the reference's ffi.rs Handle::new).
const blinkDefaultSeed = 0x2545f491

// fallbackIDs maps the roles only this runtime drives (the vowel lip sync:
// the reference has no MouthForm or vowel behavior) to the Cubism standard
// parameter ids used when the model has no ROLE entry for them. The roles
// the reference drives (EyeBlink, LipSync, Breath, AngleX/Y/Z, BodyAngleX,
// EyeBallX/Y) have no fallback: like the reference, a behavior moves only
// what the model's ROLE chunk lists for it.
var fallbackIDs = map[string]string{
	"MouthForm": "ParamMouthForm",
	// Vowel parameters of Cubism's MotionSync convention.
	"VowelA": "ParamA",
	"VowelI": "ParamI",
	"VowelU": "ParamU",
	"VowelE": "ParamE",
	"VowelO": "ParamO",
}

// cubismFallbackIDs are, for PlaybackCubism models, the Cubism standard
// parameter ids of the roles the Cubism sample drives by id (breath and
// dragging: CubismDefaultParameterId), used when the model has no ROLE
// record for them. EyeBlink and LipSync have none: the framework takes
// them from the model3.json's Groups only.
var cubismFallbackIDs = map[string]string{
	"AngleX":     "ParamAngleX",
	"AngleY":     "ParamAngleY",
	"AngleZ":     "ParamAngleZ",
	"BodyAngleX": "ParamBodyAngleX",
	"Breath":     "ParamBreath",
	"EyeBallX":   "ParamEyeBallX",
	"EyeBallY":   "ParamEyeBallY",
}

// vowelRoles are the roles of the vowel parameters, in vowel order.
var vowelRoles = [5]string{"VowelA", "VowelI", "VowelU", "VowelE", "VowelO"}

// roleParameters returns the parameters of role name as the reference
// gathers them: those of every ROLE record with that name, in file order
// (valid indices only; a Model built in code may hold others). Where the
// model has no such record and the role has a fallback id (fallbackIDs;
// for PlaybackCubism models also cubismFallbackIDs), the parameter with
// that id, if any.
func roleParameters(m *Model, name string) []int {
	var out []int
	found := false
	for _, ro := range m.file.Roles {
		if ro.Name != name {
			continue
		}
		found = true
		for _, p := range ro.Parameters {
			if p >= 0 && p < len(m.file.Parameters) {
				out = append(out, p)
			}
		}
	}
	id, ok := fallbackIDs[name]
	if !ok && m.Playback() == PlaybackCubism {
		id, ok = cubismFallbackIDs[name]
	}
	if ok && !found {
		for i := range m.file.Parameters {
			if m.file.Parameters[i].ID == id {
				return []int{i}
			}
		}
	}
	return out
}

// seedCounter numbers the rigs of the process as they first animate (0
// for the first), which gives each its blink seed.
var seedCounter atomic.Uint64

type behaviors struct {
	model    *Model
	enabled  Behavior
	strength float32

	blinkP, lipP, breathP, formP                     []int
	vowelP                                           [5][]int
	sway                                             [4][]int
	cubismBreathP                                    [5][]int // per cubismBreath row
	lookAX, lookAY, lookAZ, lookBody, lookEX, lookEY []int

	// a is the model's playback arithmetic: the clock, the blink timeline
	// and the sways are float32 as behavior.rs for PlaybackReference.
	a arith
	// cubism: blink, breath, look-at and lip sync as the Cubism
	// framework's CubismEyeBlink, CubismBreath (the sample's table),
	// CubismTargetPoint (the sample's factors) and the sample's lip sync,
	// with clamped writes (PlaybackCubism).
	cubism bool

	// time is the behaviors' clock: every update that runs the behaviors
	// advances it (by at most maxBehaviorStep), whichever are on.
	time float64

	blinkCfg BlinkSettings
	// blinkDec (Cubism) holds blinkCfg's times as the decimals they were
	// written as (decimal32: 0.1 rather than the float32
	// 0.10000000149), as the framework keeps them: MinInterval,
	// MaxInterval, Closing, Closed, Opening.
	blinkDec   [5]float64
	blinkSeed  uint32  // xorshift32 state
	blinkAt    float64 // when the next blink starts
	blinkStart float64 // when the blink in progress started, −1 when none
	// Cubism's blink: its own clock (advanced only by the updates it runs
	// in), state (eyeFirst…eyeOpening) and the clock when the state began.
	blinkClock, stateStart float64
	blinkState             int

	breathCfg BreathSettings
	// breathPeriod and breathSway (Cubism) are breathCfg's as decimals.
	breathPeriod, breathSway float64

	lookCfg          LookAtSettings
	targetX, targetY float64
	lookX, lookY     float64
	lookVX, lookVY   float64
	// Cubism's follower (CubismTargetPoint): its clock, advanced by the
	// updates it runs in, and the clock at its last move (0: not yet).
	lookClock, lookLast float64

	lipLevel  float32
	lipVowels [5]float32 // weights of A, I, U, E, O
	lipCfg    LipSyncSettings
}

func newBehaviors(m *Model) *behaviors {
	b := &behaviors{
		model:     m,
		a:         arithOf(m),
		enabled:   DefaultBehaviors,
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
		cubism:    m.Playback() == PlaybackCubism,
	}
	if b.cubism {
		b.setBlinkSettings(CubismBlinkSettings)
	}
	b.setBreathSettings(DefaultBreathSettings)
	for v, role := range vowelRoles {
		b.vowelP[v] = roleParameters(m, role)
	}
	for k := range breathSway {
		b.sway[k] = roleParameters(m, breathSway[k].role)
	}
	for k := range cubismBreath {
		b.cubismBreathP[k] = roleParameters(m, cubismBreath[k].role)
	}
	b.blinkSeed, b.blinkAt, b.blinkStart = blinkDefaultSeed, 2, -1
	if k := seedCounter.Add(1) - 1; k > 0 {
		b.seed(uint32(k)*0x9e3779b9 ^ blinkDefaultSeed)
	}
	return b
}

// seed reseeds the blink timeline (0: the default seed); unless a blink is
// in progress the next one is drawn again from now (the reference's
// Behaviors::seed).
func (b *behaviors) seed(s uint32) {
	if s == 0 {
		s = blinkDefaultSeed
	}
	b.blinkSeed = s
	switch {
	case b.cubism && b.blinkState == eyeInterval:
		b.blinkAt = b.nextBlink(b.blinkClock)
	case !b.cubism && b.blinkStart < 0:
		b.blinkAt = b.nextBlink(b.time)
	}
}

// random is the next draw in [0, 1) of the xorshift32 generator (24 bits).
func (b *behaviors) random() float64 {
	x := b.blinkSeed
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	b.blinkSeed = x
	return float64(x>>8) / (1 << 24)
}

// halfRange is half of parameter i's range.
func (b *behaviors) halfRange(i int) float64 {
	p := &b.model.file.Parameters[i]
	return (float64(p.Max) - float64(p.Min)) / 2
}

// nextBlink draws the start of the next blink: now plus a uniform time in
// [MinInterval, MaxInterval] (Cubism: now + r·(2·interval − 1), the same
// with MinInterval 0).
func (b *behaviors) nextBlink(now float64) float64 {
	lo, hi := float64(b.blinkCfg.MinInterval), float64(b.blinkCfg.MaxInterval)
	if b.cubism {
		lo, hi = b.blinkDec[0], b.blinkDec[1]
	}
	if hi < lo {
		hi = lo
	}
	a := b.a
	return a.r(a.r(now+lo) + a.r(b.random()*a.r(hi-lo)))
}

// The states of Cubism's blink (CubismEyeBlink EyeState).
const (
	eyeFirst = iota
	eyeInterval
	eyeClosing
	eyeClosed
	eyeOpening
)

// eyesCubism advances Cubism's blink by dt and returns the eye opening
// (CubismEyeBlink.updateParameters): a state machine on its own clock,
// each phase timed from the update that began it: the first update draws
// the next blink; once the clock is past it the eyes close linearly over
// Closing, stay shut until Closed has passed, open over Opening, and the
// next blink is drawn.
func (b *behaviors) eyesCubism(dt float64) float64 {
	b.blinkClock += dt
	now := b.blinkClock
	closing, closed, opening := b.blinkDec[2], b.blinkDec[3], b.blinkDec[4]
	switch b.blinkState {
	case eyeClosing:
		t := blinkPhase(now-b.stateStart, closing)
		if t >= 1 {
			t = 1
			b.blinkState, b.stateStart = eyeClosed, now
		}
		return 1 - t
	case eyeClosed:
		if blinkPhase(now-b.stateStart, closed) >= 1 {
			b.blinkState, b.stateStart = eyeOpening, now
		}
		return 0
	case eyeOpening:
		t := blinkPhase(now-b.stateStart, opening)
		if t >= 1 {
			t = 1
			b.blinkState = eyeInterval
			b.blinkAt = b.nextBlink(now)
		}
		return t
	case eyeInterval:
		if b.blinkAt < now {
			b.blinkState, b.stateStart = eyeClosing, now
		}
		return 1
	}
	b.blinkState = eyeInterval
	b.blinkAt = b.nextBlink(now)
	return 1
}

// blinkPhase is the fraction of a blink phase lasting secs done after
// elapsed seconds; a phase of 0 s is done at once (the framework would
// divide 0 by 0).
func blinkPhase(elapsed, secs float64) float64 {
	if !(secs > 0) {
		return 1
	}
	return elapsed / secs
}

// setBlinkSettings sets the blink timing and, for Cubism, its decimals.
func (b *behaviors) setBlinkSettings(s BlinkSettings) {
	b.blinkCfg = s
	if b.cubism {
		b.blinkDec = [5]float64{decimal32(s.MinInterval), decimal32(s.MaxInterval),
			decimal32(s.Closing), decimal32(s.Closed), decimal32(s.Opening)}
	}
}

// setBreathSettings sets the breath and, for Cubism, its decimals.
func (b *behaviors) setBreathSettings(s BreathSettings) {
	b.breathCfg = s
	if b.cubism {
		b.breathPeriod, b.breathSway = decimal32(s.Period), decimal32(s.Sway)
	}
}

// blinkCubism runs Cubism's blink, when on, over values: the EyeBlink
// parameters take the eye opening (overwritten, as SetParameterValue).
// The rig calls it after the clips and before the expressions, only in
// updates where no clip was updated (the sample's motionUpdated).
func (b *behaviors) blinkCubism(values []float32, dt float64) {
	if b.enabled&BehaviorBlink == 0 {
		return
	}
	v := b.eyesCubism(max(dt, 0))
	for _, i := range b.blinkP {
		cubismSet(b.model.file.Parameters, values, i, v, 1)
	}
}

// eyes returns the eye openness in [0, 1] now (the reference's
// Behaviors::eyes): a blink starts once the clock reaches the drawn time,
// closes linearly over Closing, stays shut for Closed and opens over
// Opening, each phase timed from the blink's start; at its end the next is
// drawn.
func (b *behaviors) eyes() float64 {
	if b.blinkStart < 0 && b.time >= b.blinkAt {
		b.blinkStart = b.time
	}
	if b.blinkStart < 0 {
		return 1
	}
	a := b.a
	t := a.r(b.time - b.blinkStart)
	closing, closed, opening := float64(b.blinkCfg.Closing), float64(b.blinkCfg.Closed), float64(b.blinkCfg.Opening)
	shut := a.r(closing + closed)
	switch {
	case t < closing:
		return a.r(1 - a.r(t/closing))
	case t < shut:
		return 0
	case t < a.r(shut+opening):
		return a.r(a.r(a.r(t-closing)-closed) / opening)
	}
	b.blinkStart = -1
	b.blinkAt = b.nextBlink(b.time)
	return 1
}

// advanceLook moves the critically damped follower (stiffness ω², damping
// 2ω) by dt toward the target, integrated semi-implicitly in steps of at
// most lookStep, as the reference does.
func (b *behaviors) advanceLook(dt float64) {
	w := min(float64(b.lookCfg.Omega)*float64(b.strength), maxLookOmega)
	if !(w > 0) || !(dt > 0) {
		return
	}
	a := b.a
	k, d := w*w, 2*w
	if a.f32 { // behavior.rs: k = 120·speed², d = 2·√k, in float32
		k = a.r(w * w)
		d = a.r(2 * a.r(math.Sqrt(k)))
	}
	step := a.r(lookStep)
	for remaining := a.r(dt); remaining > 0; remaining = a.r(remaining - step) {
		h := min(remaining, step)
		b.lookVX, b.lookX = b.follow(b.lookX, b.lookVX, b.targetX, k, d, h)
		b.lookVY, b.lookY = b.follow(b.lookY, b.lookVY, b.targetY, k, d, h)
	}
}

// follow is one semi-implicit step h of the follower at pos with velocity
// vel toward target: the new velocity, then the new position.
func (b *behaviors) follow(pos, vel, target, k, d, h float64) (float64, float64) {
	a := b.a
	vel = a.r(vel + a.r(a.r(a.r(a.r(target-pos)*k)-a.r(vel*d))*h))
	return vel, a.r(pos + a.r(vel*h))
}

// towardEnd is fraction f of the way from parameter i's default toward the
// end of its range in f's direction (the reference's half_range).
func (b *behaviors) towardEnd(i int, f float64) float64 {
	p := &b.model.file.Parameters[i]
	a := b.a
	if f >= 0 {
		return a.r(a.r(float64(p.Max)-float64(p.Default)) * f)
	}
	return a.r(a.r(float64(p.Default)-float64(p.Min)) * f)
}

// apply advances the behaviors' clock by dt (at most maxBehaviorStep) and
// applies the enabled behaviors to values.
func (b *behaviors) apply(values []float32, dt float64) {
	if b.cubism {
		b.applyCubism(values, dt)
		return
	}
	d := min(dt, maxBehaviorStep)
	if !(d > 0) {
		d = 0
	}
	a := b.a
	b.time = a.r(b.time + a.r(d))
	s := float64(b.strength)
	if b.enabled&BehaviorBlink != 0 {
		v := b.eyes()
		for _, i := range b.blinkP {
			values[i] = float32(float64(values[i]) * v)
		}
	}
	if b.enabled&BehaviorBreath != 0 {
		// wave = sin(time·τ/cycle)·sway, and each step rounded as
		// behavior.rs computes it in float32 (for PlaybackReference).
		sway := a.r(float64(b.breathCfg.Sway) * s)
		t := a.r(b.time * a.r(2*math.Pi))
		if per := float64(b.breathCfg.Period); per > 0 {
			wave := a.r(a.sin(a.r(t/per)) * sway)
			for _, i := range b.breathP {
				p := &b.model.file.Parameters[i]
				span := a.r(float64(p.Max) - float64(p.Min))
				values[i] = float32(float64(p.Min) + a.r(a.r(0.5+a.r(0.5*wave))*span))
			}
		}
		for k := range breathSway {
			wave := a.r(a.sin(a.r(t/a.r(breathSway[k].cycle))) * sway)
			peak := a.r(a.r(breathSway[k].frac) * wave)
			for _, i := range b.sway[k] {
				p := &b.model.file.Parameters[i]
				span := a.r(float64(p.Max) - float64(p.Min))
				values[i] = float32(float64(values[i]) + a.r(peak*span)*0.5)
			}
		}
	}
	if b.enabled&BehaviorLookAt != 0 {
		b.advanceLook(d)
		x, y := a.r(b.lookX*s), a.r(b.lookY*s)
		add := func(ps []int, f float64) {
			for _, i := range ps {
				values[i] = float32(float64(values[i]) + b.towardEnd(i, f))
			}
		}
		add(b.lookAX, x)
		add(b.lookAY, y)
		add(b.lookBody, a.r(a.r(lookBodyShare)*x))
		add(b.lookEX, x)
		add(b.lookEY, y)
		add(b.lookAZ, a.r(-x*y))
	}
	if b.enabled&BehaviorLipSync != 0 {
		b.applyLipSync(values)
	}
}

// applyCubism is the Cubism sample's look-at and breath (lappmodel.ts
// update, after the expressions): the follower (advanceLookCubism) turns
// AngleX by x·30, AngleY by y·30, AngleZ by x·y·(−30), BodyAngleX by x·10,
// EyeBallX by x and EyeBallY by y, each added as AddParameterValue adds
// (clamped to the range on every write), x and y being the follower's
// position times the behavior strength; then CubismBreath with the
// sample's table adds (offset + peak·sin(2π·time/cycle))·weight, the
// weight scaled by Sway × strength (1 by default). Lip sync comes after
// the physics (lipSyncCubism); the blink before the expressions
// (blinkCubism).
func (b *behaviors) applyCubism(values []float32, dt float64) {
	dt = max(dt, 0)
	b.time += dt // CubismBreath's clock: no bound on a step
	prm := b.model.file.Parameters
	s := float64(b.strength)
	if b.enabled&BehaviorLookAt != 0 {
		b.advanceLookCubism(dt)
		x, y := b.lookX*s, b.lookY*s
		for _, look := range [...]struct {
			ps []int
			v  float64
		}{
			{b.lookAX, x * 30}, {b.lookAY, y * 30}, {b.lookAZ, x * y * -30},
			{b.lookBody, x * 10}, {b.lookEX, x}, {b.lookEY, y},
		} {
			for _, i := range look.ps {
				cubismAdd(prm, values, i, look.v, 1)
			}
		}
	}
	if b.enabled&BehaviorBreath != 0 {
		t := b.time * 2 * math.Pi
		scale := b.breathSway * s
		for k, row := range cubismBreath {
			cycle := row.cycle
			if k == len(cubismBreath)-1 {
				cycle = b.breathPeriod
			}
			if !(cycle > 0) {
				continue
			}
			v := row.offset + row.peak*math.Sin(t/cycle)
			for _, i := range b.cubismBreathP[k] {
				cubismAdd(prm, values, i, v, row.weight*scale)
			}
		}
	}
}

// The constants of the Cubism framework's look-at follower
// (cubismtargetpoint.ts): its speeds are per call at a nominal 30 frames
// a second, its top speed 4/30 of the range [−1, 1] per call, reached in
// 0.15 s; it stops within 0.01 of the target.
const (
	cubismLookFrameRate    = 30
	cubismLookEpsilon      = 0.01
	cubismLookMaxV         = 40.0 / 10.0 / cubismLookFrameRate
	cubismLookFramesToMaxV = 0.15 * cubismLookFrameRate
)

// advanceLookCubism is CubismTargetPoint.update(dt): the first call (on a
// clock still at 0) only notes the time; every other call accelerates the
// position toward the target by at most maxA = k·maxV/4.5 (k = the seconds
// since the last call × 30), caps the speed at maxV and at the speed from
// which it can stop in time, and moves by the velocity once per call,
// whatever dt (the framework's follower is frame-rate dependent). Within
// 0.01 of the target on both axes it stays (velocity kept).
func (b *behaviors) advanceLookCubism(dt float64) {
	b.lookClock += dt
	if b.lookLast == 0 {
		b.lookLast = b.lookClock
		return
	}
	weight := (b.lookClock - b.lookLast) * cubismLookFrameRate
	b.lookLast = b.lookClock
	maxA := weight * cubismLookMaxV / cubismLookFramesToMaxV
	dx, dy := b.targetX-b.lookX, b.targetY-b.lookY
	if math.Abs(dx) <= cubismLookEpsilon && math.Abs(dy) <= cubismLookEpsilon {
		return
	}
	d := math.Sqrt(dx*dx + dy*dy)
	vx, vy := cubismLookMaxV*dx/d, cubismLookMaxV*dy/d
	ax, ay := vx-b.lookVX, vy-b.lookVY
	if a := math.Sqrt(ax*ax + ay*ay); a < -maxA || a > maxA {
		ax *= maxA / a
		ay *= maxA / a
	}
	b.lookVX += ax
	b.lookVY += ay
	// The speed from which the acceleration maxA stops within d (the
	// framework's formula, with t = 1 frame).
	stopV := 0.5 * (math.Sqrt(maxA*maxA+16*maxA*d-8*maxA*d) - maxA)
	if cur := math.Sqrt(b.lookVX*b.lookVX + b.lookVY*b.lookVY); cur > stopV {
		b.lookVX *= stopV / cur
		b.lookVY *= stopV / cur
	}
	b.lookX += b.lookVX
	b.lookY += b.lookVY
}

// lipSyncCubism is the Cubism sample's lip sync, run after the physics:
// AddParameterValue(id, value, 0.8) for each LipSync parameter, value the
// level (times the vowels' opening, applyLipSync), then the vowels' mouth
// form and vowel parameters as for every model.
func (b *behaviors) lipSyncCubism(values []float32) {
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
			p := &b.model.file.Parameters[i]
			target := float64(p.Min) + level*(float64(p.Max)-float64(p.Min))
			if target > float64(values[i]) {
				b.store(values, i, target)
			}
		}
	}
	if b.cubism {
		for _, i := range b.lipP {
			cubismAdd(b.model.file.Parameters, values, i, lv*openScale, cubismLipSyncWeight)
		}
	} else {
		raise(b.lipP, lv*openScale)
	}
	if conf > 0 {
		f := form / conf
		k := conf * float64(b.lipCfg.FormWeight)
		for _, i := range b.formP {
			p := &b.model.file.Parameters[i]
			mid := (float64(p.Min) + float64(p.Max)) / 2
			target := mid + f*b.halfRange(i)
			b.store(values, i, float64(values[i])+(target-float64(values[i]))*k)
		}
		for v, ps := range b.vowelP {
			raise(ps, lv*float64(b.lipVowels[v]))
		}
	}
}

// cubismLipSyncWeight is the weight the Cubism sample adds the lip-sync
// value with (lappmodel.ts: addParameterValueById(id, value, 0.8)).
const cubismLipSyncWeight = 0.8

// store writes v to parameter i as the model's playback writes: clamped
// at once for Cubism (cubismSet); left for the evaluator to clamp
// otherwise.
func (b *behaviors) store(values []float32, i int, v float64) {
	if b.cubism {
		cubismSet(b.model.file.Parameters, values, i, v, 1)
		return
	}
	values[i] = float32(v)
}
