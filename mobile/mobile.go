// Package mobile shows one character — a PSD2Live .p2lrt file or a Live2D
// Cubism model, passed as a zip of its folder — in an Android or iOS app
// through ebitenmobile: `ebitenmobile bind` turns this package into an
// Android library (AAR) or an iOS framework whose native EbitenView draws
// the character, while Kotlin/Java or Swift code loads a model and drives it
// with the functions below. See docs/MOBILE.md for the bind commands and
// app snippets.
//
// The exported API uses only types gomobile can bind: strings, []byte,
// signed integers, floats, bool, error and the Listener interface.
// Everything is a package-level function because an app has one EbitenView
// per process (ebiten/v2/mobile.SetGame accepts one game).
//
// Bad input (a broken file, an unknown id, a non-finite number) returns an
// error; no call panics across the binding: each one recovers, and a panic
// inside the runtime makes the character inert (reported once through
// Listener.OnError) until the next LoadModel. All functions may be called
// from any thread.
//
// Coordinates: HitTest takes a point in fractions of the view (0,0 top
// left, 1,1 bottom right), which is the same on every platform whatever its
// pixel units; LookAt takes the gaze target in [−1, 1] with y up.
//
// On Android and iOS, the package's init registers the game with
// ebiten/v2/mobile.SetGame (file game_mobile.go). On desktop builds it does
// not import Ebitengine at all, so its tests run without a display.
package mobile

import (
	"fmt"
	"math"

	"github.com/psd2live/p2l-ebiten/mobile/internal/core"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// std is the character behind the one EbitenView.
var std = core.New()

// Advanced-mode feature bits, for SetAdvanced and AdvancedFeatures.
const (
	AdvancedSkin       = p2lrt.FeatureSkin       // runtime skinning
	AdvancedExactLinks = p2lrt.FeatureExactLinks // pivots keyed on a circle move along it
	AdvancedSim        = p2lrt.FeatureSim        // real-time cloth and hair simulation
	AdvancedCollision  = p2lrt.FeatureCollision  // colliders for the simulation
)

// Procedural behaviours, for SetBehaviors.
const (
	BehaviorBlink   = int(p2l.BehaviorBlink)   // blink every 2–6 s
	BehaviorBreath  = int(p2l.BehaviorBreath)  // breathing and a slight sway
	BehaviorLookAt  = int(p2l.BehaviorLookAt)  // follow LookAt and finger drags
	BehaviorLipSync = int(p2l.BehaviorLipSync) // follow SetLipSync and LipSyncPCM
	AllBehaviors    = int(p2l.AllBehaviors)
)

// Clip priorities for PlayClipLayer, after Cubism's motion manager: a layer
// starts a clip only if its priority is not lower than that of the clip it
// is playing (0 once that clip has ended).
const (
	PriorityIdle     = 1
	PriorityNormal   = 2 // tap reactions play with this priority
	PriorityForce    = 3
	MaxLayers        = core.MaxLayers
	DefaultIdleRate  = core.DefaultIdleHz
	MinPCMSampleRate = core.MinSampleRate
	MaxPCMSampleRate = core.MaxSampleRate
)

// Listener receives what happens in the view. Implement it in Kotlin/Java
// or Swift and pass it to SetListener. Its methods are called on the game's
// render thread: hop to the UI thread before touching views.
type Listener interface {
	// OnHit reports a tap on a hit area, by id (such as "HitAreaHead").
	OnHit(areaID string)
	// OnEvent reports a clip event (motion3 user data) passed during an
	// update: the clip's id and the event's text.
	OnEvent(clipID, value string)
	// OnError reports a failure that made the character inert; LoadModel
	// starts over.
	OnError(message string)
}

// guard turns a panic into an error at the binding boundary.
func guard(err *error) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("p2l mobile: internal error: %v", v)
	}
}

// quiet swallows a panic in a function that returns no error; its results
// stay at their zero values.
func quiet() { _ = recover() }

// LoadModel shows the model in data, replacing the previous character:
// a .p2lrt file, or a zip of a Live2D Cubism model's folder (its
// NAME.model3.json with the .moc3, textures, motions, expressions, physics
// and pose it names; the zip is told by its first bytes). On error the
// previous character stays and the error names what is wrong with the file.
// What a Cubism model's files hold that the model cannot use is skipped, as
// the Cubism framework skips it, and listed by LoadWarning.
func LoadModel(data []byte) (err error) {
	defer guard(&err)
	return std.Load(data)
}

// LoadWarningCount returns the number of warnings of the model shown: what
// its Cubism files hold that it skipped or read differently (a motion for a
// parameter the model lacks, a missing file, …). A .p2lrt file has none.
func LoadWarningCount() int {
	defer quiet()
	return len(std.Warnings())
}

// LoadWarning returns warning i of the model shown (the file, the entry and
// what was done with it), or "" when i is out of range.
func LoadWarning(i int) string {
	defer quiet()
	if w := std.Warnings(); i >= 0 && i < len(w) {
		return w[i]
	}
	return ""
}

// Loaded reports whether a character is shown.
func Loaded() bool {
	defer quiet()
	return std.Loaded()
}

// model returns the shown model or nil.
func model() *p2l.Model { return std.Model() }

// ClipCount returns the number of clips (motions) of the model.
func ClipCount() int {
	defer quiet()
	if m := model(); m != nil {
		return m.Clips().Len()
	}
	return 0
}

// ClipID returns the id of clip i, or "" when i is out of range.
func ClipID(i int) string {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.Clips().Len() {
		return m.Clips().At(i).ID
	}
	return ""
}

// ClipGroup returns the group of clip i (such as "Idle" or "TapBody"), or
// "".
func ClipGroup(i int) string {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.Clips().Len() {
		return m.Clips().At(i).Group
	}
	return ""
}

// ClipDuration returns the duration of clip i in seconds, or NaN when i is
// out of range.
func ClipDuration(i int) float64 {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.Clips().Len() {
		return float64(m.Clips().At(i).Duration)
	}
	return math.NaN()
}

// ClipSound returns the sound of clip i — a Cubism motion's Sound, by its
// path in the model's folder (in the zip) — or "" when it has none or i is
// out of range. The library plays no audio on mobile: an app that starts
// such a clip plays the file itself and passes its samples to LipSyncPCM.
func ClipSound(i int) string {
	defer quiet()
	return model().ClipSound(i)
}

// PlayClip plays the clip with the given id on layer 0, replacing what
// plays there (it fades out). The layer's priority becomes 0, so a tap
// reaction may interrupt the clip.
func PlayClip(id string) (err error) {
	defer guard(&err)
	return std.PlayClip(id)
}

// PlayClipLayer plays the clip with the given id on a layer (0 to
// MaxLayers−1) if priority is not lower than the priority of the clip
// playing there; a refused clip is an error.
func PlayClipLayer(layer int, id string, priority int) (err error) {
	defer guard(&err)
	return std.PlayClipLayer(layer, id, priority)
}

// StopClips stops the clips of every layer.
func StopClips() (err error) {
	defer guard(&err)
	return std.StopClips()
}

// ExpressionCount returns the number of expressions of the model.
func ExpressionCount() int {
	defer quiet()
	if m := model(); m != nil {
		return m.Expressions().Len()
	}
	return 0
}

// ExpressionID returns the id of expression i, or "".
func ExpressionID(i int) string {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.Expressions().Len() {
		return m.Expressions().At(i).ID
	}
	return ""
}

// SetExpression fades to the expression with the given id as the only one;
// "" fades every expression out.
func SetExpression(id string) (err error) {
	defer guard(&err)
	return std.SetExpression(id)
}

// AddExpression stacks the expression with the given id on the active ones.
func AddExpression(id string) (err error) {
	defer guard(&err)
	return std.AddExpression(id)
}

// RemoveExpression fades the expression with the given id out.
func RemoveExpression(id string) (err error) {
	defer guard(&err)
	return std.RemoveExpression(id)
}

// LookAt sets the gaze target, x and y in [−1, 1] (clamped), y up; (0, 0)
// looks straight ahead. The character follows smoothly. A finger dragging
// on the view overrides it while it is down.
func LookAt(x, y float64) (err error) {
	defer guard(&err)
	return std.LookAt(x, y)
}

// SetLipSync sets the mouth opening in [0, 1] (clamped); 0 closes it.
func SetLipSync(level float64) (err error) {
	defer guard(&err)
	return std.SetLipSync(level)
}

// LipSyncPCM opens the mouth after a block of audio: 16-bit signed
// little-endian mono PCM at sampleRate Hz (MinPCMSampleRate to
// MaxPCMSampleRate). Only the most recent 1/25 s of the block counts: its
// level (RMS × gain) opens the mouth and its vowel (package p2l/lipsync)
// shapes it, as ebitenp2l.Voice does. Call
// it with each block the app plays (Android AudioTrack, AVAudioEngine
// taps); SetLipSync(0) closes the mouth when the audio stops.
func LipSyncPCM(pcm []byte, sampleRate int) (err error) {
	defer guard(&err)
	return std.LipSyncPCM(pcm, sampleRate)
}

// HitAreaCount returns the number of hit areas of the model.
func HitAreaCount() int {
	defer quiet()
	if m := model(); m != nil {
		return m.HitAreas().Len()
	}
	return 0
}

// HitAreaID returns the id of hit area i (such as "HitAreaHead"), or "".
func HitAreaID(i int) string {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.HitAreas().Len() {
		return m.HitAreas().At(i).ID
	}
	return ""
}

// HitAreaName returns the display name of hit area i (such as "Head"), or
// "".
func HitAreaName(i int) string {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.HitAreas().Len() {
		return m.HitAreas().At(i).Name
	}
	return ""
}

// HitTest returns the id of the hit area under the view point (fx, fy),
// in fractions of the view's size, or "" when there is none. It is the test
// a tap runs.
func HitTest(fx, fy float64) (id string, err error) {
	defer guard(&err)
	return std.HitTest(fx, fy)
}

// SetTapReaction sets the clip a tap on the hit area plays; "" restores the
// default: the clips of the group "Tap" + the area's name (Cubism's
// "TapBody" convention), in turn.
func SetTapReaction(areaID, clipID string) (err error) {
	defer guard(&err)
	return std.SetTapReaction(areaID, clipID)
}

// ParameterCount returns the number of parameters of the model.
func ParameterCount() int {
	defer quiet()
	if m := model(); m != nil {
		return m.Parameters().Len()
	}
	return 0
}

// ParameterID returns the id of parameter i (such as "ParamAngleX"), or "".
func ParameterID(i int) string {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.Parameters().Len() {
		return m.Parameters().At(i).ID
	}
	return ""
}

// ParameterMin returns the minimum of parameter i, or NaN.
func ParameterMin(i int) float64 {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.Parameters().Len() {
		return float64(m.Parameters().At(i).Min)
	}
	return math.NaN()
}

// ParameterMax returns the maximum of parameter i, or NaN.
func ParameterMax(i int) float64 {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.Parameters().Len() {
		return float64(m.Parameters().At(i).Max)
	}
	return math.NaN()
}

// ParameterDefault returns the default of parameter i, or NaN.
func ParameterDefault(i int) float64 {
	defer quiet()
	if m := model(); m != nil && i >= 0 && i < m.Parameters().Len() {
		return float64(m.Parameters().At(i).Default)
	}
	return math.NaN()
}

// SetParameter sets the host value of the parameter with the given id; the
// runtime clamps it to the parameter's range. Clips, expressions,
// behaviours and physics add on top of it every update.
func SetParameter(id string, value float64) (err error) {
	defer guard(&err)
	return std.SetParameter(id, value)
}

// Parameter returns the value the parameter with the given id had in the
// last update, after clips, expressions, behaviours and physics.
func Parameter(id string) (v float64, err error) {
	defer guard(&err)
	return std.Parameter(id)
}

// SetBackground sets the color behind the character, straight-alpha
// components in [0, 1] (clamped). The default is transparent black.
func SetBackground(r, g, b, a float64) (err error) {
	defer guard(&err)
	return std.SetBackground(r, g, b, a)
}

// SetFraming zooms the view (1: the whole canvas fits) around the canvas
// point (cx, cy), in fractions of the canvas, shown at the view's centre.
// SetFraming(1, 0.5, 0.5) is the default; SetFraming(2.5, 0.5, 0.2) is a
// bust shot of a standing character.
func SetFraming(zoom, cx, cy float64) (err error) {
	defer guard(&err)
	return std.SetFraming(zoom, cx, cy)
}

// Pause stops the character's time (clips, physics, behaviours) and touch
// handling; the last frame stays. Call it from the activity's onPause
// together with EbitenView.suspendGame, or to freeze the character.
func Pause() {
	defer quiet()
	std.SetPaused(true)
}

// Resume restarts the character's time after Pause.
func Resume() {
	defer quiet()
	std.SetPaused(false)
}

// Paused reports whether the character is paused.
func Paused() bool {
	defer quiet()
	return std.Paused()
}

// SetIdleRate sets how many times a second the character is updated and
// redrawn while idle (no clip, no finger, no lip sync, physics at rest);
// 0 freezes it while idle. The default is DefaultIdleRate. Lower rates save
// battery; blinking and breathing get choppier (see docs/MOBILE.md).
func SetIdleRate(hz float64) (err error) {
	defer guard(&err)
	return std.SetIdleRate(hz)
}

// AdvancedFeatures returns the advanced-mode bits the model has data for
// (AdvancedSkin | AdvancedExactLinks | AdvancedSim | AdvancedCollision).
func AdvancedFeatures() int {
	defer quiet()
	return std.Features()
}

// SetAdvanced switches advanced mode: bits is a combination of the
// Advanced* constants, 0 for plain Cubism-equivalent evaluation (the
// default). It returns the bits actually on: those the model has data for
// (AdvancedFeatures), with their dependencies (collision needs the
// simulation). The first call may fit skin weights, which takes a moment on
// large models; the view keeps drawing meanwhile.
func SetAdvanced(bits int) (on int, err error) {
	defer guard(&err)
	return std.SetAdvanced(bits)
}

// SetBehaviors switches the procedural behaviours: a combination of the
// Behavior* constants. All are on after LoadModel.
func SetBehaviors(bits int) (err error) {
	defer guard(&err)
	return std.SetBehaviors(bits)
}

// SetLipSyncGain sets the factor LipSyncPCM multiplies the samples' RMS by
// to get the mouth opening (default 5, lipsync.DefaultGain; raise it for
// quiet recordings).
func SetLipSyncGain(gain float64) (err error) {
	defer guard(&err)
	return std.SetLipSyncGain(gain)
}

// Advanced returns the active advanced-mode bits.
func Advanced() (bits int, err error) {
	defer guard(&err)
	return std.Advanced()
}

// SetListener sets the receiver of taps, clip events and errors; nil
// removes it.
func SetListener(l Listener) {
	defer quiet()
	if l == nil {
		std.SetListener(nil)
		return
	}
	std.SetListener(l)
}
