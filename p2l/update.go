package p2l

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file is the animation layer of the Rig: Update and UpdateStages, and
// the API of clips, expressions, pose, behaviors, physics and host layers.
// See docs/ANIMATION.md for every rule.
//
// Each update starts again from the host pose (SetParameter...) and applies,
// in order: clips (layers 0..15) → expressions → host overrides → behaviors
// → physics → clamp/wrap → evaluation → pose and part/model opacities.
// Nothing accumulates from frame to frame except the animation state itself
// (clip and expression clocks, pendulums, blink timeline, look-at follower,
// pose fades). A PlaybackCubism rig starts instead from its frame base, the
// clips' result of the last update (animate), and clamps every write.

// Stage is a set of update stages for UpdateStages.
type Stage uint8

// The stages, in the order they run. StageSimulation is the live simulation
// of the advanced mode (SIMS); it does nothing unless that mode is on.
const (
	StageClips Stage = 1 << iota
	StageExpressions
	StageBehaviors
	StagePose
	StagePhysics
	StageSimulation

	AllStages = StageClips | StageExpressions | StageBehaviors | StagePose | StagePhysics | StageSimulation
)

// animState is the animation state of a rig, created on first use.
type animState struct {
	clips *clipPlayer
	expr  *expressionPlayer
	pose  *poseState
	beh   *behaviors
	phys  *physicsState
	// motion: clip groups, idle group, clip-driven pose (motion.go), nil
	// until used.
	motion *motionState

	// Host layers.
	overrideValue  []float32
	overrideWeight []float32
	overrides      int // number of non-zero override weights
	hostOpacity    float32
	hostPart       []float32

	// Clip outputs of the last update.
	out clipOutputs
	// lastPart is the part opacity multiplier of the last update.
	lastPart []float32

	// prePhysics holds the values of the last update before physics, for
	// PhysicsStabilize.
	prePhysics []float32
	updated    bool

	// base (PlaybackCubism; nil otherwise) is the frame base, the Cubism
	// framework's saved parameters: each update starts from it
	// (loadParameters) and stores the clips' result back into it
	// (saveParameters), so only the clips' writes persist. It starts as the
	// host pose, and every host write (SetParameter...) goes into it.
	base []float32
}

// anim returns the rig's animation state, creating it on first use.
func (r *Rig) anim() *animState {
	if r.animation != nil {
		return r.animation
	}
	m := r.model
	np, npt := len(m.Parameters), len(m.Parts)
	a := &animState{
		expr:           newExpressionPlayer(m),
		pose:           newPoseState(m),
		beh:            newBehaviors(m),
		phys:           newPhysicsState(m),
		overrideValue:  make([]float32, np),
		overrideWeight: make([]float32, np),
		hostOpacity:    1,
		hostPart:       make([]float32, npt),
		out:            clipOutputs{partOpacity: make([]float32, npt), modelOpacity: 1},
		prePhysics:     make([]float32, np),
		lastPart:       make([]float32, npt),
	}
	if m.Playback() == PlaybackCubism {
		a.base = make([]float32, np)
		for i, v := range r.values {
			cubismSet(m.Parameters, a.base, i, float64(v), 1)
		}
	}
	a.clips = newClipPlayer(m, a.beh.blinkP, a.beh.lipP)
	a.out.poseSlot = a.pose.slot
	initialHostPartOpacity(m, a.hostPart)
	for i := range a.out.partOpacity {
		a.out.partOpacity[i] = 1
	}
	r.animation = a
	r.restoreMultipliers()
	copy(a.lastPart, r.partOpacityMul)
	return a
}

// restoreMultipliers sets the evaluator's multipliers to what Evaluate uses:
// host part opacities times pose opacities, and the host opacity. Clip
// opacities apply only within Update.
func (r *Rig) restoreMultipliers() {
	a := r.animation
	for i := range r.partOpacityMul {
		r.partOpacityMul[i] = a.hostPart[i] * a.pose.opacity[i]
	}
	r.modelOpacity = a.hostOpacity
}

// MaxUpdateStep is the most time one Update advances, in seconds (one
// hour): a longer dt counts as this. Clocks are float64 seconds; with the
// cap they can neither overflow nor lose the resolution of a frame within
// any plausible running time (docs/LIMITS.md).
const MaxUpdateStep = 3600.0

// Update advances all animation by dt seconds and poses the rig. Time is
// float64 throughout (clip, expression, pose and physics clocks), so a host
// passing 1.0/60 steps exactly as the Cubism framework does.
func (r *Rig) Update(dt float64) { r.UpdateStages(dt, AllStages) }

// UpdateStages advances and applies only the chosen stages, in the fixed
// order; the others neither advance nor contribute. dt ≤ 0, NaN or +Inf
// poses without advancing time; dt above MaxUpdateStep advances by
// MaxUpdateStep (so that no clock can overflow).
func (r *Rig) UpdateStages(dt float64, stages Stage) {
	if r.dead() {
		return
	}
	if !(dt > 0) || math.IsInf(dt, 1) {
		dt = 0
	}
	dt = min(dt, MaxUpdateStep)
	r.animate(dt, stages)
	r.evaluate()
	r.restoreMultipliers()
}

// hostWrote makes host-pose parameter i, just written, part of a Cubism
// rig's frame base, as a framework user's setParameterValueById followed
// by saveParameters: clamped to the parameter's range (cubismLimit), it is
// where the clips blend from on the next update and what a parameter no
// clip moves keeps. Other rigs read the host pose afresh every update.
func (r *Rig) hostWrote(i int) {
	if a := r.animation; a != nil && a.base != nil {
		cubismSet(r.model.Parameters, a.base, i, float64(r.values[i]), 1)
	}
}

// hostWroteAll is hostWrote for every parameter.
func (r *Rig) hostWroteAll() {
	if a := r.animation; a != nil && a.base != nil {
		for i := range a.base {
			r.hostWrote(i)
		}
	}
}

// animate runs the chosen animation stages into r.current and the
// evaluator's multipliers, without evaluating.
//
// A PlaybackCubism rig follows the Cubism sample's update (lappmodel.ts
// update): it starts from the frame base (loadParameters), the clips blend
// over it and their result becomes the next base (saveParameters); blink,
// expressions, overrides, look-at, breath, physics, lip sync (after
// physics) and pose are recomputed on top every update; every write is
// clamped to the parameter's range (cubismparam.go).
func (r *Rig) animate(dt float64, stages Stage) {
	a := r.anim()
	cur := r.current
	if a.base != nil {
		copy(cur, a.base)
	} else {
		copy(cur, r.values)
	}

	if stages&StageClips != 0 {
		// The part and model opacities the clips set are recomputed by
		// each update that runs the clips and kept by the others, until
		// Evaluate (the reference's ffi.rs update / p2l_evaluate).
		a.out.reset()
		if a.motion != nil {
			a.motion.resumeIdle(a.clips)
		}
		a.clips.advance(dt)
		a.clips.apply(cur, &a.out)
		a.clips.finishUpdate()
		if a.base != nil {
			copy(a.base, cur)
		}
	} else {
		a.clips.events = a.clips.events[:0]
		a.clips.updated = false
	}
	if a.beh.cubism && stages&StageBehaviors != 0 && !a.clips.updated {
		// The Cubism sample blinks between the motions and the
		// expressions, only when no motion was updated.
		a.beh.blinkCubism(cur, dt)
	}
	if stages&StageExpressions != 0 {
		a.expr.advance(dt)
		a.expr.apply(cur)
	}
	if a.overrides > 0 {
		for i, w := range a.overrideWeight {
			switch {
			case w == 0:
			case a.base != nil: // setParameterValueById(id, value, weight)
				cubismSet(r.model.Parameters, cur, i, float64(a.overrideValue[i]), float64(w))
			default:
				cur[i] += (a.overrideValue[i] - cur[i]) * w
			}
		}
	}
	if stages&StageBehaviors != 0 {
		a.beh.apply(cur, dt)
	}
	copy(a.prePhysics, cur)
	a.updated = true
	if stages&StagePhysics != 0 {
		r.syncReplacedGroups()
		a.phys.step(cur, dt)
	}
	if a.beh.cubism && stages&StageBehaviors != 0 {
		// The Cubism sample moves the mouth after the physics.
		a.beh.lipSyncCubism(cur)
	}
	if stages&StageSimulation != 0 {
		r.advanceSimulation(dt)
	}
	if stages&StagePose != 0 {
		if a.motion != nil && !a.clips.cubism {
			a.motion.poseFromClips(a.clips, a.pose)
		}
		a.pose.update(dt)
	}
	// Pose opacities always apply; the pose stage only advances their fades
	// (the reference's pose.rs PosePlayer::apply in every evaluation).
	for i := range r.partOpacityMul {
		f := a.hostPart[i] * a.out.partOpacity[i] * a.pose.opacity[i]
		r.partOpacityMul[i] = f
		a.lastPart[i] = f
	}
	r.modelOpacity = a.hostOpacity * a.out.modelOpacity
}

// Events returns the clip events passed during the last update, in order.
// The slice is valid until the next update.
func (r *Rig) Events() []FiredEvent {
	if r.dead() || r.animation == nil {
		return nil
	}
	e := r.animation.clips.events
	return e[:len(e):len(e)]
}

// Clips ---------------------------------------------------------------------

// Play starts clip on layer 0 whatever plays there (its running clips fade
// out) and sets the layer's priority to 0. It reports whether clip exists.
func (r *Rig) Play(clip int) bool {
	if r.dead() {
		return false
	}
	return r.anim().clips.start(0, clip, 0)
}

// PlayLayer starts clip on layer (0 ≤ layer < MaxLayers) if priority is at
// least the priority of the clip playing there (0 once it ended or
// stopped); the clips playing on the layer fade out with their own fade-out
// times. A PlaybackCubism model's rig follows the Cubism framework's
// CubismMotionManager as its sample calls it instead: PriorityForce always
// starts, any other priority only when above the layer's (so never at 0;
// docs/ANIMATION.md §2b). It reports whether the clip started.
func (r *Rig) PlayLayer(layer, clip, priority int) bool {
	if r.dead() {
		return false
	}
	return r.anim().clips.play(layer, clip, priority)
}

// StopLayer fades out the clips of layer and resets its priority to 0.
func (r *Rig) StopLayer(layer int) {
	if r.dead() {
		return
	}
	r.anim().clips.stop(layer)
}

// Stop fades out the clips of layer 0.
func (r *Rig) Stop() { r.StopLayer(0) }

// SetLayerWeight sets how much layer covers the layers below (clamped to
// [0, 1]; default 1): it multiplies the weight of the layer's clips.
// A weight that is not finite is ignored.
func (r *Rig) SetLayerWeight(layer int, w float32) {
	if r.dead() || layer < 0 || layer >= MaxLayers || !finite(w) {
		return
	}
	r.anim().clips.layers[layer].weight = unit32(w)
}

// LayerWeight returns the weight of layer (NaN when out of range).
func (r *Rig) LayerWeight(layer int) float32 {
	if r.dead() || layer < 0 || layer >= MaxLayers {
		return float32(math.NaN())
	}
	return r.anim().clips.layers[layer].weight
}

// LayerPriority returns the priority of the clip playing on layer: 0 when
// none plays or it ended; −1 when layer is out of range.
func (r *Rig) LayerPriority(layer int) int {
	if r.dead() || layer < 0 || layer >= MaxLayers {
		return -1
	}
	return r.anim().clips.layers[layer].priority
}

// LayerClip returns the clip last started on layer and still applied (a
// one-shot clip that ended holds its last frame), or −1.
func (r *Rig) LayerClip(layer int) int {
	if r.dead() {
		return -1
	}
	if e := r.anim().clips.current(layer); e != nil {
		return e.clip
	}
	return -1
}

// LayerTime returns the clip time of LayerClip(layer) in seconds (looping
// clips wrapped, one-shot clips capped at their duration), NaN when none.
func (r *Rig) LayerTime(layer int) float64 {
	if r.dead() {
		return math.NaN()
	}
	e := r.anim().clips.current(layer)
	if e == nil {
		return math.NaN()
	}
	t := e.t
	if d := float64(r.model.Clips[e.clip].Duration); !r.model.Clips[e.clip].Loop && t > d {
		t = d
	}
	return t
}

// PlayingClip is LayerClip(0).
func (r *Rig) PlayingClip() int { return r.LayerClip(0) }

// ClipTime is LayerTime(0).
func (r *Rig) ClipTime() float64 { return r.LayerTime(0) }

// SeekLayer moves the clip playing on layer to time t (seconds). Only the
// time moves: its fade-in continues and no event between the old and the
// new time fires. It reports whether a clip was playing.
func (r *Rig) SeekLayer(layer int, t float64) bool {
	if r.dead() || !finite64(t) {
		return false
	}
	return r.anim().clips.seek(layer, t)
}

// Seek is SeekLayer(0, t).
func (r *Rig) Seek(t float64) bool { return r.SeekLayer(0, t) }

// Expressions ---------------------------------------------------------------

// SetExpression plays expression i alone: every other playing expression
// fades out (nothing changes when i is already the only one playing).
// i = −1, or an expression without entries, returns to neutral. It reports
// false for an index out of range.
func (r *Rig) SetExpression(i int) bool {
	if r.dead() || i < -1 {
		return false
	}
	return r.anim().expr.set(i)
}

// AddExpression starts expression i on top of the playing ones (stacked
// expressions apply in the order they started). Adding one already playing
// does nothing.
func (r *Rig) AddExpression(i int) bool {
	if r.dead() {
		return false
	}
	return r.anim().expr.add(i)
}

// RemoveExpression fades expression i out; it reports whether it was
// playing.
func (r *Rig) RemoveExpression(i int) bool {
	if r.dead() {
		return false
	}
	return r.anim().expr.remove(i)
}

// PlayingExpressions appends the expressions playing (not fading out), in
// start order, to dst.
func (r *Rig) PlayingExpressions(dst []int) []int {
	if r.dead() {
		return dst
	}
	return r.anim().expr.playing(dst)
}

// Pose ----------------------------------------------------------------------

// ShowPose makes entry the visible part of pose group; it fades in over the
// following updates while the others fade out. It reports false for indices
// out of range or a model without POSE.
func (r *Rig) ShowPose(group, entry int) bool {
	if r.dead() {
		return false
	}
	return r.anim().pose.show(group, entry)
}

// PoseOpacity returns the pose opacity of part (1 for parts in no group),
// NaN when out of range.
func (r *Rig) PoseOpacity(part int) float32 {
	if r.dead() || part < 0 || part >= len(r.model.Parts) {
		return float32(math.NaN())
	}
	return r.anim().pose.opacity[part]
}

// PartOpacityMultiplier returns the opacity multiplier of part in the last
// update: host part opacity × clip part-opacity curve × pose opacity (when
// the pose stage ran). Meshes are multiplied by the product over their
// ancestor parts. NaN when out of range.
func (r *Rig) PartOpacityMultiplier(part int) float32 {
	if r.dead() || part < 0 || part >= len(r.model.Parts) {
		return float32(math.NaN())
	}
	return r.anim().lastPart[part]
}

// Host layers ---------------------------------------------------------------

// SetParameterOverride pulls parameter i toward value with weight in [0, 1]
// after clips and expressions, before behaviors and physics (face tracking
// and the like); weight 0 removes the override. A value or weight that is
// not finite is ignored.
func (r *Rig) SetParameterOverride(i int, value, weight float32) {
	if r.dead() || i < 0 || i >= len(r.model.Parameters) || !finite(value) || !finite(weight) {
		return
	}
	a := r.anim()
	w := unit32(weight)
	if (a.overrideWeight[i] != 0) != (w != 0) {
		if w != 0 {
			a.overrides++
		} else {
			a.overrides--
		}
	}
	a.overrideValue[i], a.overrideWeight[i] = value, w
}

// ClearParameterOverrides removes every override.
func (r *Rig) ClearParameterOverrides() {
	if r.dead() || r.animation == nil {
		return
	}
	clear(r.animation.overrideWeight)
	r.animation.overrides = 0
}

// SetOpacity sets the host opacity multiplying every mesh (clamped to
// [0, 1]; default 1). A value that is not finite is ignored.
func (r *Rig) SetOpacity(a float32) {
	if r.dead() || !finite(a) {
		return
	}
	r.anim().hostOpacity = unit32(a)
	r.restoreMultipliers()
}

// Opacity returns the model opacity of the last update: the host opacity
// times the opacity set by clips.
func (r *Rig) Opacity() float32 {
	if r.dead() {
		return float32(math.NaN())
	}
	a := r.anim()
	return a.hostOpacity * a.out.modelOpacity
}

// SetPartOpacity sets the host opacity of part, multiplying every mesh
// below it (clamped to [0, 1]; default 1). A value that is not finite is
// ignored.
func (r *Rig) SetPartOpacity(part int, a float32) {
	if r.dead() || part < 0 || part >= len(r.model.Parts) || !finite(a) {
		return
	}
	r.anim().hostPart[part] = unit32(a)
	r.restoreMultipliers()
}

// SetMeshColors replaces mesh i's evaluated multiply and screen colors.
// Components are clamped to [0, 1], like evaluated colors; colors with a
// component that is not finite are ignored.
func (r *Rig) SetMeshColors(i int, multiply, screen p2lrt.Color) {
	if r.dead() || i < 0 || i >= len(r.meshColorOverride) || !allFinite(multiply[:]) || !allFinite(screen[:]) {
		return
	}
	r.meshColorOverride[i] = colorOverride{set: true, mul: unitColor(multiply), scr: unitColor(screen)}
}

// ClearMeshColors removes mesh i's color override.
func (r *Rig) ClearMeshColors(i int) {
	if r.dead() || i < 0 || i >= len(r.meshColorOverride) {
		return
	}
	r.meshColorOverride[i] = colorOverride{}
}

// SetPartColors replaces the evaluated colors of every mesh below part
// that has no override of its own or of a nearer part (clamped and checked
// as by SetMeshColors).
func (r *Rig) SetPartColors(part int, multiply, screen p2lrt.Color) {
	if r.dead() || part < 0 || part >= len(r.partColorOverride) || !allFinite(multiply[:]) || !allFinite(screen[:]) {
		return
	}
	r.partColorOverride[part] = colorOverride{set: true, mul: unitColor(multiply), scr: unitColor(screen)}
}

// ClearPartColors removes part's color override.
func (r *Rig) ClearPartColors(part int) {
	if r.dead() || part < 0 || part >= len(r.partColorOverride) {
		return
	}
	r.partColorOverride[part] = colorOverride{}
}

// Behaviors -----------------------------------------------------------------

// SetBehaviors switches the procedural behaviors: those in b on, the
// others off. A new rig starts with DefaultBehaviors (blink and breath), as
// the reference runtime's; SetBehaviors(0) gives a pose that depends on
// the host, clips, expressions and physics alone. Behaviors act only
// within Update/UpdateStages (StageBehaviors), never in Evaluate.
func (r *Rig) SetBehaviors(b Behavior) {
	if r.dead() {
		return
	}
	r.anim().beh.enabled = b & AllBehaviors
}

// EnableBehavior switches the behaviors in b on or off, leaving the others.
func (r *Rig) EnableBehavior(b Behavior, on bool) {
	if r.dead() {
		return
	}
	bh := r.anim().beh
	if on {
		bh.enabled |= b & AllBehaviors
	} else {
		bh.enabled &^= b
	}
}

// Behaviors returns the behaviors switched on.
func (r *Rig) Behaviors() Behavior {
	if r.dead() {
		return 0
	}
	return r.anim().beh.enabled
}

// SetBlinkSettings sets the blink timing (negative times count as 0).
// Settings with a time that is not finite are ignored.
func (r *Rig) SetBlinkSettings(s BlinkSettings) {
	if r.dead() || !allFinite([]float32{s.MinInterval, s.MaxInterval, s.Closing, s.Closed, s.Opening}) {
		return
	}
	for _, p := range []*float32{&s.MinInterval, &s.MaxInterval, &s.Closing, &s.Closed, &s.Opening} {
		if !(*p >= 0) {
			*p = 0
		}
	}
	r.anim().beh.setBlinkSettings(s)
}

// BlinkSettings returns the blink timing.
func (r *Rig) BlinkSettings() BlinkSettings {
	if r.dead() {
		return BlinkSettings{}
	}
	return r.anim().beh.blinkCfg
}

// SetBreathSettings sets the breath behavior. Settings with a negative or
// non-finite value are ignored.
func (r *Rig) SetBreathSettings(s BreathSettings) {
	if r.dead() || !(s.Period >= 0) || !(s.Sway >= 0) || !finite(s.Period) || !finite(s.Sway) {
		return
	}
	r.anim().beh.setBreathSettings(s)
}

// BreathSettings returns the breath settings.
func (r *Rig) BreathSettings() BreathSettings {
	if r.dead() {
		return BreathSettings{}
	}
	return r.anim().beh.breathCfg
}

// SetLookAtSettings sets the look-at follower. Settings with a negative
// or non-finite Omega are ignored. A PlaybackCubism model's rig follows
// the Cubism framework's CubismTargetPoint, whose speed is fixed: Omega
// does not apply to it.
func (r *Rig) SetLookAtSettings(s LookAtSettings) {
	if r.dead() || !(s.Omega >= 0) || !finite(s.Omega) {
		return
	}
	r.anim().beh.lookCfg = s
}

// LookAtSettings returns the look-at settings.
func (r *Rig) LookAtSettings() LookAtSettings {
	if r.dead() {
		return LookAtSettings{}
	}
	return r.anim().beh.lookCfg
}

// SetBehaviorSeed reseeds the blink timeline's random generator (a 32-bit
// xorshift; the low 32 bits of seed, 0 for the default seed) and, unless a
// blink is in progress, draws the next blink again from now. Each rig of the
// process starts with its own seed, taken when it first animates: the first
// gets the default one and its first blink at 2 s (as the reference
// runtime's first handle), rig k the seed k·0x9e3779b9 ^ 0x2545f491.
func (r *Rig) SetBehaviorSeed(seed uint64) {
	if r.dead() {
		return
	}
	r.anim().beh.seed(uint32(seed))
}

// SetBehaviorStrength scales the breath sway, the look-at amplitude and the
// look-at speed (≥ 0 and finite, else ignored; default 1). On a
// PlaybackCubism model's rig it scales the breath weights and the look-at
// amplitude, not the framework's fixed look-at speed.
func (r *Rig) SetBehaviorStrength(s float32) {
	if r.dead() || !(s >= 0) || !finite(s) {
		return
	}
	r.anim().beh.strength = s
}

// BehaviorStrength returns the behavior strength.
func (r *Rig) BehaviorStrength() float32 {
	if r.dead() {
		return float32(math.NaN())
	}
	return r.anim().beh.strength
}

// LookAt sets the look-at target, x and y in [−1, 1] (right and up). The
// head follows with a critically damped motion (on a PlaybackCubism
// model's rig, the Cubism framework's speed-limited CubismTargetPoint,
// with its sample's factors). Values beyond the range are clamped; a
// target that is not finite is ignored.
func (r *Rig) LookAt(x, y float32) {
	if r.dead() || !finite(x) || !finite(y) {
		return
	}
	b := r.anim().beh
	b.targetX = float64(max(-1, min(1, x)))
	b.targetY = float64(max(-1, min(1, y)))
}

// LipSync sets the mouth opening level in [0, 1]: the LipSync parameters
// take the larger of their value and the level mapped onto their range (on
// a PlaybackCubism model's rig, 0.8 × the level is added to them after the
// physics, as the Cubism sample does).
// It switches BehaviorLipSync on, so it works on its own (SetBehaviors or
// EnableBehavior can switch it off again until the next LipSync call);
// LipSync(0) closes the mouth. Vowel weights set by LipSyncVowels are
// cleared.
func (r *Rig) LipSync(level float32) { r.LipSyncVowels(level, [5]float32{}) }

// LipSyncSamples sets the lip-sync level from audio samples: their root
// mean square times gain, clamped to [0, 1]. Like LipSync it switches
// BehaviorLipSync on and clears the vowel weights; a level that is not
// finite (a gain or samples holding NaN or infinities) is ignored. For vowels from audio
// see package p2l/lipsync.
func (r *Rig) LipSyncSamples(samples []float32, gain float32) {
	r.LipSync(float32(rms(samples) * float64(gain)))
}

// LipSyncVowels sets the mouth from a level in [0, 1] and the weights of
// the vowels A, I, U, E, O (each clamped to [0, 1], their sum scaled down
// to 1 if above; p2l/lipsync estimates both from audio): the opening
// follows the level shaped by the vowels, MouthForm (role MouthForm, else
// ParamMouthForm) moves toward the vowels' form and the vowel parameters
// (roles VowelA…VowelO, else ParamA…ParamO), where the model has them,
// open with their weight (LipSyncSettings, docs/ANIMATION.md §6). It
// switches BehaviorLipSync on. A level or weight that is not finite makes
// the call do nothing.
func (r *Rig) LipSyncVowels(level float32, vowels [5]float32) {
	if r.dead() || !finite(level) || !allFinite(vowels[:]) {
		return
	}
	b := r.anim().beh
	b.enabled |= BehaviorLipSync
	b.lipLevel = unit32(level)
	sum := float32(0)
	for v, w := range vowels {
		vowels[v] = unit32(w)
		sum += vowels[v]
	}
	if sum > 1 {
		for v := range vowels {
			vowels[v] /= sum
		}
	}
	b.lipVowels = vowels
}

// SetLipSyncSettings sets the vowels' mouth shapes (Open clamped to
// [0, 1], Form to [−1, 1], FormWeight to [0, 1]). Settings holding a
// value that is not finite are ignored.
func (r *Rig) SetLipSyncSettings(s LipSyncSettings) {
	if r.dead() || !finite(s.FormWeight) {
		return
	}
	for _, v := range s.Vowels {
		if !finite(v.Open) || !finite(v.Form) {
			return
		}
	}
	for v := range s.Vowels {
		s.Vowels[v].Open = unit32(s.Vowels[v].Open)
		s.Vowels[v].Form = max(-1, min(1, s.Vowels[v].Form))
	}
	s.FormWeight = unit32(s.FormWeight)
	r.anim().beh.lipCfg = s
}

// LipSyncSettings returns the vowels' mouth shapes.
func (r *Rig) LipSyncSettings() LipSyncSettings {
	if r.dead() {
		return LipSyncSettings{}
	}
	return r.anim().beh.lipCfg
}

// Physics -------------------------------------------------------------------

// SetPhysicsWind sets the wind added to the force on every pendulum
// particle (Cubism's physics option Wind, in physics units; default 0).
func (r *Rig) SetPhysicsWind(x, y float32) {
	if r.dead() || !finite(x) || !finite(y) {
		return
	}
	p := r.anim().phys
	p.windX, p.windY = float64(x), float64(y)
}

// PhysicsStabilize puts every pendulum at rest in its force direction for
// the current pose (the values of the last update before physics, or the
// host pose before any update), writes the outputs and poses the rig, as
// Cubism's Stabilization.
func (r *Rig) PhysicsStabilize() {
	if r.dead() {
		return
	}
	a := r.anim()
	if !a.updated {
		if a.base != nil {
			copy(a.prePhysics, a.base)
		} else {
			copy(a.prePhysics, r.values)
		}
	}
	copy(r.current, a.prePhysics)
	r.syncReplacedGroups()
	a.phys.stabilize(r.current)
	r.evaluate()
}

// syncReplacedGroups marks the physics groups a running live simulation
// (advanced mode, SIMS) replaces; the pendulum physics skips them.
func (r *Rig) syncReplacedGroups() {
	p := r.animation.phys
	for g := range p.replaced {
		p.replaced[g] = r.PhysicsGroupReplaced(g)
	}
}

// ResetPhysics puts the pendulums back in their initial state (hanging
// straight down, at rest).
func (r *Rig) ResetPhysics() {
	if r.dead() {
		return
	}
	r.anim().phys.reset()
}

// unit32 clamps v to [0, 1], NaN to 0.
func unit32(v float32) float32 {
	if !(v > 0) {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}
