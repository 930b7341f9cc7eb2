package core

// Rig is what the core needs from one playing character. Its methods are the
// mobile layer's vocabulary; p2lRig maps them onto *p2l.Rig, and tests use
// a fake to drive gestures and pacing without a real model.
//
// Indices are those of the model's slices (Clips, Expressions, HitAreas,
// Parameters) and are range-checked by the core before any call.
type Rig interface {
	// Update advances clips, expressions, behaviours and physics by dt
	// seconds and evaluates the pose.
	Update(dt float64)
	// Play starts clip on layer 0 whatever plays there, with priority 0.
	Play(clip int) bool
	// PlayLayer starts clip on layer with priority and reports whether it
	// started (a layer refuses a lower priority than its current clip).
	PlayLayer(layer, clip, priority int) bool
	// Stop fades out the clips of every layer.
	Stop()
	// Busy reports whether a clip is playing or fading on any layer, or an
	// expression is still fading in or out.
	Busy() bool
	// SetExpression makes expression i the only one (−1: none).
	SetExpression(i int)
	// AddExpression stacks expression i on the active ones.
	AddExpression(i int)
	// RemoveExpression fades expression i out.
	RemoveExpression(i int)
	// LookAt sets the gaze target, x and y in [−1, 1], y up.
	LookAt(x, y float32)
	// LipSync sets the mouth opening level in [0, 1].
	LipSync(level float32)
	// LipSyncVowels sets the mouth from a level in [0, 1] and the weights
	// of the vowels A, I, U, E, O (p2l.Rig.LipSync).
	LipSyncVowels(level float32, vowels [5]float32)
	// SetBehaviors switches the procedural behaviours (p2l.Behavior bits).
	SetBehaviors(bits int)
	// HitTest returns the hit area under the canvas point (x, y), or −1.
	HitTest(x, y float32) int
	// SetParameter sets the host value of parameter i.
	SetParameter(i int, v float32)
	// Parameter returns the host value of parameter i.
	Parameter(i int) float32
	// Current returns the value parameter i had in the last update, after
	// clips, expressions, behaviours and physics.
	Current(i int) float32
	// SetAdvanced switches the advanced-mode feature bits and returns those
	// actually on.
	SetAdvanced(bits int) int
	// Advanced returns the active advanced-mode bits.
	Advanced() int
	// Events calls fn for each clip event passed during the last Update.
	Events(fn func(clip int, value string))
	// Err reports the failure that made the rig inert, or nil.
	Err() error
}
