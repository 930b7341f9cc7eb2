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
	// PhysicsState.Stabilize.
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
	np, npt := len(m.file.Parameters), len(m.file.Parts)
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
			cubismSet(m.file.Parameters, a.base, i, float64(v), 1)
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
	if r.err != nil {
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
		cubismSet(r.model.file.Parameters, a.base, i, float64(r.values[i]), 1)
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
				cubismSet(r.model.file.Parameters, cur, i, float64(a.overrideValue[i]), float64(w))
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
		// A sum of finite extremes (host values, clips, expressions) can
		// overflow before the clamp. The pendulums keep their inputs
		// from step to step, so such a value becomes now what the clamp
		// would make of it (the default) instead of living on in them.
		for i, v := range cur {
			if !finite(v) {
				cur[i] = clampParam(&r.model.file.Parameters[i], v)
			}
		}
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
	if r.animation == nil {
		return nil
	}
	e := r.animation.clips.events
	return e[:len(e):len(e)]
}

// Clips ---------------------------------------------------------------------

// LayerState is clip layer l of a rig (0 ≤ l < MaxLayers): what plays
// there, and the calls that start, stop and move it. Get one with
// Rig.Layer; layer 0 is where Tap, the clip groups' idle clip and the
// simple cases play.
type LayerState struct {
	r *Rig
	l int
}

// Layer returns clip layer l. It panics unless 0 ≤ l < MaxLayers.
func (r *Rig) Layer(l int) LayerState {
	_ = r.model // a nil rig panics here, not at the view's first use
	checkIndex("layer", l, MaxLayers)
	return LayerState{r, l}
}

// checkClip panics when clip is not a clip index of the model.
func (r *Rig) checkClip(clip int) { checkIndex("clip", clip, len(r.model.file.Clips)) }

// Start starts clip (Model.ClipIndex finds it by id or name) on the layer
// whatever plays there (its running clips fade out) and sets the layer's
// priority to PriorityNone (the reference's p2l_play).
func (s LayerState) Start(clip int) {
	s.r.checkClip(clip)
	s.r.anim().clips.start(s.l, clip, PriorityNone)
}

// Play starts clip on the layer if priority is at least the priority of
// the clip playing there (PriorityNone once it ended or stopped); the
// clips playing on the layer fade out with their own fade-out times. A
// PlaybackCubism model's rig follows the Cubism framework's
// CubismMotionManager as its sample calls it instead: PriorityForce always
// starts, any other priority only when above the layer's (so never at
// PriorityNone; docs/ANIMATION.md §2b). It reports whether the clip
// started.
func (s LayerState) Play(clip, priority int) bool {
	s.r.checkClip(clip)
	return s.r.anim().clips.play(s.l, clip, priority)
}

// Stop fades out the clips of the layer and resets its priority to
// PriorityNone.
func (s LayerState) Stop() { s.r.anim().clips.stop(s.l) }

// SetWeight sets how much the layer covers the layers below (clamped to
// [0, 1]; default 1): it multiplies the weight of the layer's clips. A
// weight that is not finite is ignored.
func (s LayerState) SetWeight(w float32) {
	if !finite(w) {
		return
	}
	s.r.anim().clips.layers[s.l].weight = unit32(w)
}

// Weight returns the layer's weight.
func (s LayerState) Weight() float32 { return s.r.anim().clips.layers[s.l].weight }

// Priority returns the priority of the clip playing on the layer:
// PriorityNone when none plays or it ended.
func (s LayerState) Priority() int { return s.r.anim().clips.layers[s.l].priority }

// Clip returns the clip last started on the layer and still applied (a
// one-shot clip that ended holds its last frame), or −1.
func (s LayerState) Clip() int {
	if e := s.r.anim().clips.current(s.l); e != nil {
		return e.clip
	}
	return -1
}

// Time returns the clip time of Clip in seconds (looping clips wrapped,
// one-shot clips capped at their duration), NaN when no clip plays.
func (s LayerState) Time() float64 {
	e := s.r.anim().clips.current(s.l)
	if e == nil {
		return math.NaN()
	}
	c := &s.r.model.file.Clips[e.clip]
	t := e.t
	if d := float64(c.Duration); !c.Loop && t > d {
		t = d
	}
	return t
}

// Seek moves the clip playing on the layer to time t (seconds). Only the
// time moves: its fade-in continues and no event between the old and the
// new time fires. It reports whether a clip was playing; a time that is
// not finite is ignored (false).
func (s LayerState) Seek(t float64) bool {
	if !finite64(t) {
		return false
	}
	return s.r.anim().clips.seek(s.l, t)
}

// Expressions ---------------------------------------------------------------

// ExpressionState is a rig's expression player. Get it with
// Rig.Expressions.
type ExpressionState struct{ r *Rig }

// Expressions returns the rig's expression player.
func (r *Rig) Expressions() ExpressionState {
	_ = r.model // a nil rig panics here, not at the view's first use
	return ExpressionState{r}
}

// checkExpression panics when i is not an expression index of the model.
func (s ExpressionState) checkExpression(i int) {
	checkIndex("expression", i, len(s.r.model.file.Expressions))
}

// Set plays expression i (Model.ExpressionIndex finds it by id or name)
// alone: every other playing expression fades out (nothing changes when i
// is already the only one playing). An expression without entries returns
// to neutral, as Clear.
func (s ExpressionState) Set(i int) {
	s.checkExpression(i)
	s.r.anim().expr.set(i)
}

// Clear returns to neutral: every playing expression fades out.
func (s ExpressionState) Clear() { s.r.anim().expr.set(-1) }

// Add starts expression i on top of the playing ones (stacked expressions
// apply in the order they started). Adding one already playing does
// nothing.
func (s ExpressionState) Add(i int) {
	s.checkExpression(i)
	s.r.anim().expr.add(i)
}

// Remove fades expression i out; it reports whether it was playing.
func (s ExpressionState) Remove(i int) bool {
	s.checkExpression(i)
	return s.r.anim().expr.remove(i)
}

// Playing appends the expressions playing (not fading out), in start
// order, to dst.
func (s ExpressionState) Playing(dst []int) []int { return s.r.anim().expr.playing(dst) }

// Pose ----------------------------------------------------------------------

// ShowPose makes entry the visible part of pose group; it fades in over the
// following updates while the others fade out. It panics when group or
// entry is out of range (a model without POSE has no groups).
func (r *Rig) ShowPose(group, entry int) {
	var groups []p2lrt.PoseGroup
	if r.model.file.Pose != nil {
		groups = r.model.file.Pose.Groups
	}
	checkIndex("pose group", group, len(groups))
	checkIndex("pose entry", entry, len(groups[group].Entries))
	r.anim().pose.show(group, entry)
}

// Host layers ---------------------------------------------------------------

// SetParameterOverride pulls parameter i toward value with weight in [0, 1]
// after clips and expressions, before behaviors and physics (face tracking
// and the like); weight 0 removes the override. A value or weight that is
// not finite is ignored.
func (r *Rig) SetParameterOverride(i int, value, weight float32) {
	r.checkParameter(i)
	if !finite(value) || !finite(weight) {
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
	if r.animation == nil {
		return
	}
	clear(r.animation.overrideWeight)
	r.animation.overrides = 0
}

// SetHostOpacity sets the host opacity multiplying every mesh (clamped to
// [0, 1]; default 1). A value that is not finite is ignored.
func (r *Rig) SetHostOpacity(a float32) {
	an := r.anim()
	if !finite(a) {
		return
	}
	an.hostOpacity = unit32(a)
	r.restoreMultipliers()
}

// OpacityMultiplier returns the model opacity of the last update, which
// multiplies every mesh: the host opacity times the opacity set by clips.
func (r *Rig) OpacityMultiplier() float32 {
	a := r.anim()
	return a.hostOpacity * a.out.modelOpacity
}

// Behaviors -----------------------------------------------------------------

// SetBehaviors switches the procedural behaviors: those in b on, the
// others off. A new rig starts with DefaultBehaviors (blink and breath), as
// the reference runtime's; SetBehaviors(0) gives a pose that depends on
// the host, clips, expressions and physics alone. Behaviors act only
// within Update/UpdateStages (StageBehaviors), never in Evaluate. To
// switch one on or off leaving the others: SetBehaviors(Behaviors() | b),
// SetBehaviors(Behaviors() &^ b).
func (r *Rig) SetBehaviors(b Behavior) { r.anim().beh.enabled = b & AllBehaviors }

// Behaviors returns the behaviors switched on.
func (r *Rig) Behaviors() Behavior { return r.anim().beh.enabled }

// BehaviorSettings are the settings of the procedural behaviors, read and
// written as a whole (Rig.BehaviorSettings, Rig.SetBehaviorSettings).
type BehaviorSettings struct {
	Blink   BlinkSettings
	Breath  BreathSettings
	LookAt  LookAtSettings
	LipSync LipSyncSettings
	// Strength scales the breath sway, the look-at amplitude and the
	// look-at speed (default 1). On a PlaybackCubism model's rig it scales
	// the breath weights and the look-at amplitude, not the framework's
	// fixed look-at speed.
	Strength float32
}

// BehaviorSettings returns the behaviors' settings.
func (r *Rig) BehaviorSettings() BehaviorSettings {
	b := r.anim().beh
	return BehaviorSettings{Blink: b.blinkCfg, Breath: b.breathCfg, LookAt: b.lookCfg, LipSync: b.lipCfg, Strength: b.strength}
}

// SetBehaviorSettings sets the behaviors' settings. Each of them is checked
// on its own, and one that fails its check is ignored (it keeps its
// value) while the others apply:
//
//   - Blink: a time that is not finite fails; negative times count as 0.
//   - Breath: a negative or non-finite value fails.
//   - LookAt: a negative or non-finite Omega fails. A PlaybackCubism
//     model's rig follows the Cubism framework's CubismTargetPoint, whose
//     speed is fixed: Omega does not apply to it.
//   - LipSync: a value that is not finite fails; Open is clamped to
//     [0, 1], Form to [−1, 1], FormWeight to [0, 1].
//   - Strength: a negative or non-finite value fails.
func (r *Rig) SetBehaviorSettings(s BehaviorSettings) {
	b := r.anim().beh
	if bl := s.Blink; allFinite([]float32{bl.MinInterval, bl.MaxInterval, bl.Closing, bl.Closed, bl.Opening}) {
		for _, p := range []*float32{&bl.MinInterval, &bl.MaxInterval, &bl.Closing, &bl.Closed, &bl.Opening} {
			if !(*p >= 0) {
				*p = 0
			}
		}
		b.setBlinkSettings(bl)
	}
	if br := s.Breath; br.Period >= 0 && br.Sway >= 0 && finite(br.Period) && finite(br.Sway) {
		b.setBreathSettings(br)
	}
	if s.LookAt.Omega >= 0 && finite(s.LookAt.Omega) {
		b.lookCfg = s.LookAt
	}
	if l, ok := checkLipSync(s.LipSync); ok {
		b.lipCfg = l
	}
	if s.Strength >= 0 && finite(s.Strength) {
		b.strength = s.Strength
	}
}

// checkLipSync clamps lip-sync settings; ok is false when a value is not
// finite.
func checkLipSync(s LipSyncSettings) (LipSyncSettings, bool) {
	if !finite(s.FormWeight) {
		return s, false
	}
	for _, v := range s.Vowels {
		if !finite(v.Open) || !finite(v.Form) {
			return s, false
		}
	}
	for v := range s.Vowels {
		s.Vowels[v].Open = unit32(s.Vowels[v].Open)
		s.Vowels[v].Form = max(-1, min(1, s.Vowels[v].Form))
	}
	s.FormWeight = unit32(s.FormWeight)
	return s, true
}

// SetBehaviorSeed reseeds the blink timeline's random generator (a 32-bit
// xorshift; the low 32 bits of seed, 0 for the default seed) and, unless a
// blink is in progress, draws the next blink again from now. Each rig of the
// process starts with its own seed, taken when it first animates: the first
// gets the default one and its first blink at 2 s (as the reference
// runtime's first handle), rig k the seed k·0x9e3779b9 ^ 0x2545f491.
func (r *Rig) SetBehaviorSeed(seed uint64) { r.anim().beh.seed(uint32(seed)) }

// LookAt sets the look-at target, x and y in [−1, 1] (right and up). The
// head follows with a critically damped motion (on a PlaybackCubism
// model's rig, the Cubism framework's speed-limited CubismTargetPoint,
// with its sample's factors). Values beyond the range are clamped; a
// target that is not finite is ignored.
func (r *Rig) LookAt(x, y float32) {
	b := r.anim().beh
	if !finite(x) || !finite(y) {
		return
	}
	b.targetX = float64(max(-1, min(1, x)))
	b.targetY = float64(max(-1, min(1, y)))
}

// LipSync sets the mouth from a level in [0, 1] and the weights of the
// vowels A, I, U, E, O (each clamped to [0, 1], their sum scaled down to 1
// if above; zero weights for a plain level; p2l/lipsync estimates both
// from audio). The LipSync parameters
// take the larger of their value and the level mapped onto their range (on
// a PlaybackCubism model's rig, 0.8 × the level is added to them after the
// physics, as the Cubism sample does); with vowels the opening follows the
// level shaped by the vowels, MouthForm (role MouthForm, else
// ParamMouthForm) moves toward the vowels' form and the vowel parameters
// (roles VowelA…VowelO, else ParamA…ParamO), where the model has them,
// open with their weight (BehaviorSettings.LipSync, docs/ANIMATION.md §6).
// It switches BehaviorLipSync on, so it works on its own (SetBehaviors can
// switch it off again until the next LipSync call); LipSync(0, [5]float32{})
// closes the mouth. A level or weight that is not finite makes the call do
// nothing.
func (r *Rig) LipSync(level float32, vowels [5]float32) {
	b := r.anim().beh
	if !finite(level) || !allFinite(vowels[:]) {
		return
	}
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

// Physics -------------------------------------------------------------------

// PhysicsState is a rig's pendulum physics (PHYS, Cubism's physics3). Get
// it with Rig.Physics. SimulationState has the same verbs for the live
// simulation of the advanced mode.
type PhysicsState struct{ r *Rig }

// Physics returns the rig's pendulum physics.
func (r *Rig) Physics() PhysicsState {
	_ = r.model // a nil rig panics here, not at the view's first use
	return PhysicsState{r}
}

// SetWind sets the wind added to the force on every pendulum particle
// (Cubism's physics option Wind, in physics units; default 0). A component
// that is not finite makes the call do nothing.
func (s PhysicsState) SetWind(x, y float32) {
	if !finite(x) || !finite(y) {
		return
	}
	p := s.r.anim().phys
	p.windX, p.windY = float64(x), float64(y)
}

// Stabilize puts every pendulum at rest in its force direction for the
// current pose (the values of the last update before physics, or the host
// pose before any update), writes the outputs and poses the rig, as
// Cubism's Stabilization.
func (s PhysicsState) Stabilize() {
	r := s.r
	if r.err != nil {
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

// Reset puts the pendulums back in their initial state (hanging straight
// down, at rest).
func (s PhysicsState) Reset() { s.r.anim().phys.reset() }

// GroupReplaced reports whether physics group g is replaced by a live
// simulation of the advanced mode (SIMS, FeatureSim on): the pendulums skip
// it. It panics when g is not a physics group.
func (s PhysicsState) GroupReplaced(g int) bool {
	r := s.r
	checkIndex("physics group", g, len(r.model.file.Physics.Groups))
	return r.adv != nil && g < len(r.adv.skipped) && r.adv.skipped[g]
}

// syncReplacedGroups marks the physics groups a running live simulation
// (advanced mode, SIMS) replaces; the pendulum physics skips them.
func (r *Rig) syncReplacedGroups() {
	p := r.animation.phys
	for g := range p.replaced {
		p.replaced[g] = r.adv != nil && g < len(r.adv.skipped) && r.adv.skipped[g]
	}
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
