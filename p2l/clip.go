package p2l

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file is the clip player: up to MaxLayers layers, each playing one
// clip at a time with a priority, the clips it replaced fading out under
// it; it plays CLIP curves and the CEXT extension (events, non-parameter
// curves, per-curve fades).
//
// Playback follows the reference runtime (PSD2Live runtime/src/clip.rs,
// Player::update_layer, and ffi.rs update, p2l_play_layer), which .p2lrt
// files are made for; docs/ANIMATION.md lists where that differs from the
// Cubism framework's motion queue:
//
//   - every update first advances each clip's clocks by dt, then samples:
//     the first update after Play shows clip time dt, with fade-in weight
//     ease(dt/fadeIn);
//   - a replaced or stopped clip starts fading out at once: on the next
//     update its fade-out factor is 1 − ease(dt/fadeOut), and it is dropped
//     once its longest fade-out (the clip's or a curve's own) has passed;
//   - weight = fade-in × fade-out × layer weight, ease(x) = ½ − ½·cos(πx)
//     clamped; fade times < 0 mean 1 s; fade-in 0 is instant, fade-out 0
//     drops the clip at once;
//   - each curve: v = below + (curve − below)·weight;
//   - looping clips wrap by their duration, one-shot clips are clamped to
//     [0, duration] and hold there at full weight;
//   - events fire for the playing clip only, between the clip time of the
//     last update and now.
//
// Every update starts again from the host pose, so nothing accumulates
// from frame to frame (a PlaybackCubism rig's clips blend over their own
// last result instead, the framework's frame base: update.go). The arithmetic is the model's Playback (playback.go):
// float32 operation by operation as clip.rs for PlaybackReference (its
// float32 clocks accumulate float32 dt), float64 for PlaybackCubism.

// MaxLayers is the number of clip layers (P2L_MAX_LAYERS).
const MaxLayers = 16

// maxQueue bounds the clips of one layer, the playing one and those
// fading out: when rapid switching queues more, the oldest is dropped.
const maxQueue = 32

// maxEventLaps bounds the laps of a looping clip whose events one update
// fires lap by lap; an update spanning more fires each event once.
const maxEventLaps = 4

// FiredEvent is a clip event passed during the last update.
type FiredEvent struct {
	Value string  // the event text (motion3 UserData Value); "" when Finished
	Layer int     // layer that played the clip
	Clip  int     // clip index
	Time  float32 // event time in clip seconds
	// Finished marks the end of a one-shot clip, reported once in the
	// update its time reaches its duration, after its own events, while it
	// is the newest clip of its layer (a replaced or stopped clip does not
	// finish). Time is the duration.
	Finished bool
}

// clipEntry is one clip of a layer: the playing one (the newest, not
// fading out) or one fading out under it.
type clipEntry struct {
	clip int
	// Reference clocks (PlaybackReference): time is the clip's own time,
	// which Seek moves; age the seconds since it started, which its fade-in
	// follows; fading the seconds since it began to fade out, −1 while it
	// does not.
	time, age, fading float64
	// fired is the clip time up to which events have fired (−1 before the
	// first update, so that events at time 0 fire then).
	fired float64
	t     float64 // local time (wrapped or clamped) of the last update
	ended bool    // a one-shot clip reached its end (Finished reported)

	// Cubism clocks (PlaybackCubism), the framework's CubismMotionQueueEntry:
	// times on the player's clock p.now. start is when the clip's time 0
	// was (moved back by Seek, forward at each lap), fadeInStart when its
	// fade-in began (again at each lap), end when it ends (−1: none; a
	// one-shot's start + duration, or the end of the fade-out once
	// replaced), lastCheck the clock of its last event check (0 at first,
	// as the framework's). offset is the clip time of the first update.
	start, fadeInStart, end, lastCheck, offset float64
	// inAge and toEnd are now − fadeInStart and end − now at the moment
	// the weights of this update were taken (before a lap moves them).
	inAge, toEnd float64
	// started: the clip had its first update; queued: it was replaced or
	// stopped, its fade-out starts (or is shortened) after its next update
	// (the framework's isTriggeredFadeOut); finished: it ended and goes
	// before the next update; deferred: started by the idle group, it
	// waits one update (the sample starts an idle motion instead of
	// updating the motions that frame).
	started, queued, finished, deferred bool
}

// clipLayer is one layer: its clips (oldest first; the last is the playing
// one unless it fades out), priority and weight.
type clipLayer struct {
	entries  []clipEntry
	priority int
	weight   float32
}

// clipInfo is precomputed per clip: per-curve fades and role curves.
type clipInfo struct {
	// curveFade is indexed like Clip.Curves: the first CEXT fade record of
	// each curve (clip.rs finds the first), Curve −1 where none; a negative
	// fade time in it means the clip's.
	curveFade []p2lrt.CurveFade
	hasOwn    bool // some curve has a fade record
	scan      bool // some curve's end times decrease: find segments by a scan
	blink     int  // index into TargetCurves of the blink effect, or −1
	lip       int  // lip-sync effect, or −1
	// longestOut is how long the clip shows after it begins to fade out:
	// the longest of its fade-out and its curves' own fade-outs.
	longestOut float64
	// dec holds the clip's times as the JSON's decimals (PlaybackCubism
	// only; nil otherwise).
	dec *clipDecimals
}

// clipDecimals are a clip's times as the motion3.json wrote them: the
// Cubism framework keeps the JSON's numbers in float64, a CLIP stores
// float32, which can land after the decimal (0.4 → 0.400000006), so that
// a key, an event or a clip's end at 0.4 s would come one frame late at
// 60 Hz. Each float32 is turned back into the shortest decimal that rounds
// to it (decimal32), which is the JSON's number whenever that number has
// at most 6 significant digits (what the Cubism Editor writes) and within
// the float32's precision otherwise.
type clipDecimals struct {
	curve, target [][]float64 // per curve: the start time, then each segment's end
	events        []float64   // per event
	duration, fps float64
	fadeIn        float64 // the clip's fades (negative: 1 s)
	fadeOut       float64
	// curveIn and curveOut are the own fades of each parameter curve
	// (negative: the clip's), nil when none has one.
	curveIn, curveOut []float64
}

// newClipDecimals returns the decimals of clip c.
func newClipDecimals(c *p2lrt.Clip, inf *clipInfo) *clipDecimals {
	n := 0
	for k := range c.Curves {
		n += len(c.Curves[k].Curve.Segments) + 1
	}
	for k := range c.TargetCurves {
		n += len(c.TargetCurves[k].Curve.Segments) + 1
	}
	flat := make([]float64, 0, n)
	times := func(cv *p2lrt.Curve) []float64 {
		at := len(flat)
		flat = append(flat, decimal32(cv.Start.T))
		for i := range cv.Segments {
			flat = append(flat, decimal32(cv.Segments[i].End.T))
		}
		return flat[at:len(flat):len(flat)]
	}
	d := &clipDecimals{
		curve:    make([][]float64, len(c.Curves)),
		target:   make([][]float64, len(c.TargetCurves)),
		events:   make([]float64, len(c.Events)),
		duration: decimal32(c.Duration),
		fps:      decimal32(c.Fps),
		fadeIn:   decimal32(clipFade(c.FadeIn)),
		fadeOut:  decimal32(clipFade(c.FadeOut)),
	}
	for k := range c.Curves {
		d.curve[k] = times(&c.Curves[k].Curve)
	}
	for k := range c.TargetCurves {
		d.target[k] = times(&c.TargetCurves[k].Curve)
	}
	for k, e := range c.Events {
		d.events[k] = decimal32(e.Time)
	}
	if inf.hasOwn {
		d.curveIn = make([]float64, len(c.Curves))
		d.curveOut = make([]float64, len(c.Curves))
		for k, f := range inf.curveFade {
			d.curveIn[k], d.curveOut[k] = -1, -1
			if f.Curve >= 0 {
				if f.FadeIn >= 0 {
					d.curveIn[k] = decimal32(f.FadeIn)
				}
				if f.FadeOut >= 0 {
					d.curveOut[k] = decimal32(f.FadeOut)
				}
			}
		}
	}
	return d
}

// clipPlayer plays the clips of one rig.
type clipPlayer struct {
	model *Model
	a     arith
	// cubism plays as the Cubism framework's motion queue (PlaybackCubism):
	// every layer is a CubismMotionManager on the clock now (the sum of the
	// update steps); updated tells whether some clip was updated in the
	// last update (the sample's motionUpdated, which stops the blink).
	cubism  bool
	now     float64
	updated bool
	info    []clipInfo
	isBlink []bool // parameter is in the EyeBlink role
	isLip   []bool // parameter is in the LipSync role
	blinkP  []int
	lipP    []int
	layers  [MaxLayers]clipLayer
	events  []FiredEvent
}

func newClipPlayer(m *Model, blinkParams, lipParams []int) *clipPlayer {
	p := &clipPlayer{
		model:   m,
		a:       arithOf(m),
		info:    make([]clipInfo, len(m.file.Clips)),
		isBlink: make([]bool, len(m.file.Parameters)),
		isLip:   make([]bool, len(m.file.Parameters)),
		blinkP:  blinkParams,
		lipP:    lipParams,
		events:  make([]FiredEvent, 0, 16),
		cubism:  m.Playback() == PlaybackCubism,
	}
	for _, i := range blinkParams {
		p.isBlink[i] = true
	}
	for _, i := range lipParams {
		p.isLip[i] = true
	}
	for ci := range m.file.Clips {
		c := &m.file.Clips[ci]
		inf := &p.info[ci]
		inf.blink, inf.lip = -1, -1
		inf.longestOut = float64(clipFade(c.FadeOut))
		for k := range c.Curves {
			inf.scan = inf.scan || curveDecreasing(&c.Curves[k].Curve)
		}
		for k, tc := range c.TargetCurves {
			inf.scan = inf.scan || curveDecreasing(&tc.Curve)
			switch tc.Target {
			case p2lrt.TargetBlink:
				inf.blink = k
			case p2lrt.TargetLipSync:
				inf.lip = k
			}
			if tc.FadeOut >= 0 {
				inf.longestOut = max(inf.longestOut, float64(tc.FadeOut))
			}
		}
		if len(c.CurveFades) > 0 {
			inf.curveFade = make([]p2lrt.CurveFade, len(c.Curves))
			for k := range inf.curveFade {
				inf.curveFade[k] = p2lrt.CurveFade{Curve: -1, FadeIn: -1, FadeOut: -1}
			}
			for _, f := range c.CurveFades {
				if f.Curve < 0 || f.Curve >= len(c.Curves) {
					continue
				}
				if inf.curveFade[f.Curve].Curve < 0 {
					inf.curveFade[f.Curve] = f
					inf.hasOwn = true
				}
				if f.FadeOut >= 0 {
					inf.longestOut = max(inf.longestOut, float64(f.FadeOut))
				}
			}
		}
		if p.cubism {
			inf.dec = newClipDecimals(c, inf)
		}
	}
	for l := range p.layers {
		p.layers[l].weight = 1
		p.layers[l].entries = make([]clipEntry, 0, 4)
	}
	return p
}

// clipFade returns a clip fade time: negative (or NaN) means the default
// of 1 s (the reference reads a negative fade as "none given").
func clipFade(v float32) float32 {
	if v < 0 || v != v {
		return 1
	}
	return v
}

// fadeIn is the fade-in factor after age seconds of a fade lasting secs:
// ease(age/secs), 1 for secs ≤ 0.
func (a arith) fadeIn(secs, age float64) float64 {
	if secs > 0 {
		return a.ease(a.r(age / secs))
	}
	return 1
}

// fadeOut is the fade-out factor fading seconds into a fade lasting secs:
// 1 while not fading (fading < 0), else 1 − ease(fading/secs), 0 for
// secs ≤ 0.
func (a arith) fadeOut(secs, fading float64) float64 {
	switch {
	case fading < 0:
		return 1
	case secs <= 0:
		return 0
	}
	return a.r(1 - a.ease(a.r(fading/secs)))
}

// fades returns the clip's fade-in and fade-out factors for e.
func (p *clipPlayer) fades(e *clipEntry) (fin, fout float64) {
	if p.cubism {
		d := p.info[e.clip].dec
		return e.cubismFadeIn(d.fadeIn), e.cubismFadeOut(d.fadeOut)
	}
	c := &p.model.file.Clips[e.clip]
	return p.a.fadeIn(float64(clipFade(c.FadeIn)), e.age), p.a.fadeOut(float64(clipFade(c.FadeOut)), e.fading)
}

// cubismFadeIn is the framework's fade-in factor of a fade lasting secs
// (ACubismMotion.updateFadeWeight): 1 for secs ≤ 0, else
// ease((now − fadeInStart)/secs).
func (e *clipEntry) cubismFadeIn(secs float64) float64 {
	if secs <= 0 {
		return 1
	}
	return arith{}.ease(e.inAge / secs)
}

// cubismFadeOut is the framework's fade-out factor: 1 for secs ≤ 0 or
// while the clip has no end, else ease((end − now)/secs), which a one-shot
// clip reaches during its last secs seconds and a replaced one from the
// update after its replacement.
func (e *clipEntry) cubismFadeOut(secs float64) float64 {
	if secs <= 0 || e.end < 0 {
		return 1
	}
	return arith{}.ease(e.toEnd / secs)
}

// weight is the clip's own weight: fade-in × fade-out.
func (p *clipPlayer) weight(e *clipEntry) float64 {
	fin, fout := p.fades(e)
	return p.a.r(fin * fout)
}

// alive reports whether anything of a clip fading out still shows: its
// longest fade-out has not passed, and its weight is above 0 or a curve's
// own fade-out outlasts the clip's.
func (p *clipPlayer) alive(e *clipEntry) bool {
	if e.fading < 0 {
		return true
	}
	inf := &p.info[e.clip]
	own := float64(clipFade(p.model.file.Clips[e.clip].FadeOut))
	return e.fading < inf.longestOut && (p.weight(e) > 0 || inf.longestOut > own)
}

// play starts clip on layer with priority if the layer admits it (admits);
// the clip playing there starts to fade out.
func (p *clipPlayer) play(layer, clip, priority int) bool {
	if layer < 0 || layer >= MaxLayers || !p.admits(layer, priority) {
		return false
	}
	return p.start(layer, clip, priority)
}

// admits reports whether a clip of priority may start on layer:
//
//   - reference (p2l_play_layer): priority is at least the layer's
//     priority (0 once the playing clip finished or stopped);
//   - Cubism (the sample's startMotion over CubismMotionManager):
//     PriorityForce always (setReservePriority); any other priority only
//     above the reserved and the current priority (reserveMotion). The
//     current priority is that of the last clip started and goes back to 0
//     once every clip of the layer finished; the reservation is cleared by
//     the start that follows it at once here (startMotionPriority), so it
//     is 0 and a priority ≤ 0 never starts.
func (p *clipPlayer) admits(layer, priority int) bool {
	if p.cubism {
		return priority == PriorityForce || (priority > 0 && priority > p.layers[layer].priority)
	}
	return priority >= p.layerPriority(layer)
}

// start starts clip on layer with priority whatever plays there; the
// clip playing there starts to fade out. It reports whether clip exists.
func (p *clipPlayer) start(layer, clip, priority int) bool {
	if layer < 0 || layer >= MaxLayers || clip < 0 || clip >= len(p.model.file.Clips) {
		return false
	}
	L := &p.layers[layer]
	p.fadeOutCurrent(L)
	if len(L.entries) >= maxQueue {
		copy(L.entries, L.entries[1:])
		L.entries = L.entries[:len(L.entries)-1]
	}
	L.entries = append(L.entries, clipEntry{clip: clip, fading: -1, fired: -1, end: -1})
	L.priority = priority
	return true
}

// fadeOutCurrent makes the layer's playing clip start fading out: at once
// (the reference's stop), or for Cubism from the update after the next
// (CubismMotionQueueManager.startMotion marks every entry, and each entry
// marked starts its fade-out after its own update).
func (p *clipPlayer) fadeOutCurrent(L *clipLayer) {
	if p.cubism {
		for i := range L.entries {
			L.entries[i].queued = true
		}
		return
	}
	if n := len(L.entries); n > 0 && L.entries[n-1].fading < 0 {
		L.entries[n-1].fading = 0
	}
}

// stop fades out the clip playing on layer and resets its priority to 0.
func (p *clipPlayer) stop(layer int) {
	if layer < 0 || layer >= MaxLayers {
		return
	}
	L := &p.layers[layer]
	p.fadeOutCurrent(L)
	L.priority = 0
}

// current returns the playing clip of layer (the newest, not fading out),
// or nil.
func (p *clipPlayer) current(layer int) *clipEntry {
	if layer < 0 || layer >= MaxLayers {
		return nil
	}
	L := &p.layers[layer]
	if len(L.entries) == 0 {
		return nil
	}
	e := &L.entries[len(L.entries)-1]
	if e.fading >= 0 || e.queued || e.finished {
		return nil
	}
	return e
}

// finished reports whether the playing clip of e is a one-shot past its
// end (or e is nil: nothing plays). A Cubism one-shot clip that ended is
// not the playing clip any more (current is nil).
func (p *clipPlayer) finished(e *clipEntry) bool {
	if e == nil {
		return true
	}
	if p.cubism {
		return false
	}
	c := &p.model.file.Clips[e.clip]
	return !c.Loop && e.time >= float64(c.Duration)
}

// layerPriority is the layer's priority: 0 once its clip finished or
// stopped (for Cubism, once every clip of the layer finished: finishUpdate).
func (p *clipPlayer) layerPriority(layer int) int {
	if p.cubism {
		return p.layers[layer].priority
	}
	if p.finished(p.current(layer)) {
		return 0
	}
	return p.layers[layer].priority
}

// seek moves the playing clip of layer to time t (clamped at 0). Only the
// time moves: the fade-in continues and the events passed over do not
// fire.
func (p *clipPlayer) seek(layer int, t float64) bool {
	e := p.current(layer)
	t = p.a.r(t) // the reference's p2l_seek takes a float
	if e == nil || math.IsNaN(t) || math.IsInf(t, 0) {
		return false
	}
	t = max(t, 0)
	if p.cubism {
		// The framework's setOffsetTime before the first update; after it,
		// the start moves so that the clip's time is t now. A one-shot
		// clip's end moves with it.
		e.offset, e.t = t, t
		if e.started {
			e.start, e.lastCheck = p.now-t, p.now
			if c := &p.model.file.Clips[e.clip]; !c.Loop && e.end >= 0 {
				e.end = e.start + p.info[e.clip].dec.duration
			}
		}
		return true
	}
	e.time = t
	e.fired = e.time
	e.t = p.local(e.clip, e.time)
	e.ended = false
	return true
}

// local maps a clip's own time to the time its curves are sampled at:
// wrapped by the duration for a looping clip, clamped to [0, duration] for
// a one-shot clip (the reference's local_time).
func (p *clipPlayer) local(clip int, u float64) float64 {
	c := &p.model.file.Clips[clip]
	d := float64(c.Duration)
	if c.Loop && d > 0 {
		u = math.Mod(u, d) // exact: float32 operands give the fmodf result
		if u < 0 {
			u = p.a.r(u + d)
		}
		return u
	}
	return min(max(u, 0), max(d, 0))
}

// advance moves every clip's clocks by dt, drops the clips whose fade-out
// is over and fires the playing clips' events; apply then writes the
// values and finishUpdate settles the priorities.
func (p *clipPlayer) advance(dt float64) {
	p.events = p.events[:0]
	if !(dt > 0) {
		dt = 0
	}
	if p.cubism {
		p.advanceCubism(dt)
		return
	}
	a := p.a
	dt = a.r(dt) // the reference's p2l_update takes a float
	for l := range p.layers {
		L := &p.layers[l]
		n := 0
		for i := range L.entries {
			e := L.entries[i]
			e.time = a.r(e.time + dt)
			e.age = a.r(e.age + dt)
			if e.fading >= 0 {
				e.fading = a.r(e.fading + dt)
			}
			if !p.alive(&e) {
				continue
			}
			e.t = p.local(e.clip, e.time)
			L.entries[n] = e
			n++
		}
		L.entries = L.entries[:n]
		if e := p.current(l); e != nil {
			c := &p.model.file.Clips[e.clip]
			p.fireEvents(l, e, c)
			if !c.Loop && e.time >= float64(c.Duration) && !e.ended {
				e.ended = true
				p.events = append(p.events, FiredEvent{Layer: l, Clip: e.clip, Time: c.Duration, Finished: true})
			}
		}
	}
}

// maxLoopSubtractions bounds the laps a Cubism clip's time is brought
// back by one at a time (the framework's while loop); beyond, the
// remainder of a division gives the same lap position, to within
// rounding, in bounded time (a tiny loop after a long update).
const maxLoopSubtractions = 64

// maxEffectIDs is how many EyeBlink and LipSync parameters a Cubism
// motion's effect curves act on (cubismmotion.ts maxTargetSize).
const maxEffectIDs = 64

// advanceCubism is one update of every layer's motion queue as the Cubism
// framework's CubismMotionManager.updateMotion: the clock advances by dt;
// each entry, oldest first, starts on its first update (clip time 0,
// fade-in weight 0, a one-shot clip's end at start + duration), takes its
// weights, its clip time (a looping clip's lap is duration + 1/Fps, the
// framework's MotionBehavior V2; the lap and the fade-in restart when it
// is passed), ends (a one-shot clip once its time reaches its duration or
// its end time has passed), fires its events and, when replaced, starts
// fading out (cubismmotionqueuemanager.ts doUpdateMotion). An entry that
// ended is applied once more (at weight 0 when its fade-out ended) and
// removed before the next update.
func (p *clipPlayer) advanceCubism(dt float64) {
	p.now += dt
	now := p.now
	p.updated = false
	for l := range p.layers {
		L := &p.layers[l]
		n := 0
		for i := range L.entries {
			if !L.entries[i].finished {
				L.entries[n] = L.entries[i]
				n++
			}
		}
		L.entries = L.entries[:n]
		for i := range L.entries {
			e := &L.entries[i]
			if e.deferred {
				e.deferred = false
				continue
			}
			p.updated = true
			c := &p.model.file.Clips[e.clip]
			d := p.info[e.clip].dec
			if !e.started {
				e.started = true
				e.start, e.fadeInStart = now-e.offset, now
				if e.offset > 0 {
					e.lastCheck = now // a seek before the start fires nothing passed over
				}
				if e.end < 0 && !c.Loop && d.duration > 0 {
					e.end = e.start + d.duration
				}
			}
			e.inAge, e.toEnd = now-e.fadeInStart, e.end-now
			elapsed := max(now-e.start, 0)
			t, lap := elapsed, d.duration
			if c.Loop {
				lap += 1 / d.fps
				t = loopTime(t, lap)
			}
			e.t = t
			if elapsed >= lap {
				if c.Loop {
					e.start = now - t
					e.fadeInStart = now - t
				} else {
					e.finished = true
				}
			}
			if e.end > 0 && e.end < now {
				e.finished = true
			}
			p.fireCubism(l, e, c, d)
			if e.finished && !e.queued && !c.Loop {
				p.events = append(p.events, FiredEvent{Layer: l, Clip: e.clip, Time: c.Duration, Finished: true})
			}
			e.lastCheck = now
			if e.queued && !e.finished {
				if end := now + d.fadeOut; e.end < 0 || end < e.end {
					e.end = end
				}
			}
		}
	}
}

// loopTime brings the time t of a looping clip back into (0, lap] as the
// framework does, by subtracting the lap while t exceeds it (by a division
// beyond maxLoopSubtractions laps); a lap that is not a positive number
// keeps the time at 0.
func loopTime(t, lap float64) float64 {
	if !(lap > 0) || math.IsInf(lap, 1) {
		if lap > 0 {
			return t
		}
		return 0
	}
	if t/lap > maxLoopSubtractions {
		if t = math.Mod(t, lap); t == 0 {
			t = lap
		}
		return t
	}
	for t > lap {
		t -= lap
	}
	return t
}

// fireCubism fires the events of e's clip whose time is after its last
// check and up to now, in clip time since its (possibly just moved) start
// (CubismMotion.getFiredEvent called by doUpdateMotion): the first update
// fires those at time 0; after a lap the window starts before the new
// lap, so the events at the end of the lap just passed are skipped that
// update (a framework quirk); clips fading out fire too.
func (p *clipPlayer) fireCubism(layer int, e *clipEntry, c *p2lrt.Clip, d *clipDecimals) {
	before, upTo := e.lastCheck-e.start, p.now-e.start
	for k, ev := range c.Events {
		if at := d.events[k]; at > before && at <= upTo {
			p.emit(layer, e.clip, ev)
		}
	}
}

// finishUpdate resets the priority of every layer whose clip finished or
// stopped to 0 (the reference's update after each layer); for Cubism, of
// every layer whose clips all finished (CubismMotionManager.updateMotion:
// isFinished, so a clip replaced and still fading out keeps the priority).
func (p *clipPlayer) finishUpdate() {
	for l := range p.layers {
		if p.cubism && p.layerFinished(l) || !p.cubism && p.finished(p.current(l)) {
			p.layers[l].priority = 0
		}
	}
}

// layerFinished reports whether every clip of a Cubism layer finished
// (none is left once removed): CubismMotionQueueManager.isFinished.
func (p *clipPlayer) layerFinished(layer int) bool {
	for i := range p.layers[layer].entries {
		if !p.layers[layer].entries[i].finished {
			return false
		}
	}
	return true
}

// fireEvents reports the events of e's clip after its last fired time and
// up to its time now (the reference's clip.rs fire): a looping clip fires
// each event once per lap passed (each event once when more than
// maxEventLaps laps passed in one update), a one-shot clip stops at its
// end; the first update fires the events at time 0 too.
func (p *clipPlayer) fireEvents(layer int, e *clipEntry, c *p2lrt.Clip) {
	from, to := e.fired, e.time
	e.fired = e.time
	if len(c.Events) == 0 || !(to > from) {
		return
	}
	a := p.a
	d := float64(c.Duration)
	if c.Loop && d > 0 {
		lap := math.Floor(a.r(max(from, 0) / d))
		if from < 0 {
			from = -minNormalFloat32 // events at time 0 fire (clip.rs: −f32::MIN_POSITIVE)
		}
		if (to-max(from, 0))/d > maxEventLaps {
			for _, ev := range c.Events {
				p.emit(layer, e.clip, ev)
			}
			return
		}
		// The counter also ends the loop where lap + 1 rounds to lap (a
		// tiny duration after a long time).
		for n := 0; a.r(lap*d) <= to && n <= maxEventLaps+1; lap, n = a.r(lap+1), n+1 {
			for _, ev := range c.Events {
				if at := a.r(a.r(lap*d) + float64(ev.Time)); at > from && at <= to {
					p.emit(layer, e.clip, ev)
				}
			}
		}
		return
	}
	to = min(to, d)
	for _, ev := range c.Events {
		t := float64(ev.Time)
		if (t > from || (from < 0 && t >= 0)) && t <= to {
			p.emit(layer, e.clip, ev)
		}
	}
}

func (p *clipPlayer) emit(layer, clip int, ev p2lrt.Event) {
	p.events = append(p.events, FiredEvent{Value: ev.Value, Layer: layer, Clip: clip, Time: ev.Time})
}

// clipOutputs receives what clips set besides parameters.
type clipOutputs struct {
	partOpacity  []float32 // per part, 1 when no curve
	modelOpacity float32
	// poseSlot (PlaybackCubism; nil otherwise) is per part the value the
	// clips' part-opacity curves last wrote, which the pose reads (the
	// framework's non-existent parameters); it persists across updates.
	poseSlot []float32
}

// reset sets every opacity back to 1 (no clip sets any).
func (o *clipOutputs) reset() {
	o.modelOpacity = 1
	for i := range o.partOpacity {
		o.partOpacity[i] = 1
	}
}

// apply blends every layer's clips onto values, layer 0 first, each layer's
// clips oldest first.
func (p *clipPlayer) apply(values []float32, out *clipOutputs) {
	for l := range p.layers {
		L := &p.layers[l]
		lw := float64(L.weight)
		for i := range L.entries {
			p.applyEntry(values, out, &L.entries[i], lw)
		}
	}
}

// applyEntry blends one clip into values at layer weight lw (the
// reference's apply_playing, the framework's doUpdateParameters): its
// EyeBlink effect multiplies and its LipSync effect adds to those roles'
// parameters with a curve of their own, curves with fades of their own
// weigh by them, part and model opacities are set outright.
func (p *clipPlayer) applyEntry(values []float32, out *clipOutputs, e *clipEntry, lw float64) {
	if p.cubism && !e.started {
		return // deferred by the idle group: not updated in this update
	}
	c := &p.model.file.Clips[e.clip]
	inf := &p.info[e.clip]
	a := p.a
	fin, fout := p.fades(e)
	w := a.r(lw * a.r(fin*fout)) // clip.rs: layer · weight(clip)
	if p.cubism {
		w = lw * fin * fout // _weight · fadeIn · fadeOut
	}
	t := e.t

	blink, hasBlink := 1.0, inf.blink >= 0
	if hasBlink {
		blink = p.targetValue(e, inf.blink)
	}
	lip, hasLip := 0.0, inf.lip >= 0
	if hasLip {
		lip = p.targetValue(e, inf.lip)
	}
	for k := range c.Curves {
		pc := &c.Curves[k]
		pi := pc.Parameter
		if pi < 0 || pi >= len(values) {
			continue
		}
		var v float64
		if p.cubism {
			v = curveValueCubism(&pc.Curve, t, inf.dec.curve[k], inf.scan, p.loopEnd(c, inf.dec))
		} else {
			v = float64(curveValueIn(&pc.Curve, t, a, inf.scan))
		}
		if hasBlink && p.isEffect(p.blinkP, p.isBlink, pi) {
			v = a.r(v * blink)
		}
		if hasLip && p.isEffect(p.lipP, p.isLip, pi) {
			v = a.r(v + lip)
		}
		cw := w
		if inf.hasOwn {
			if cf := &inf.curveFade[k]; cf.Curve >= 0 {
				ci, co := fin, fout
				if p.cubism {
					if in := inf.dec.curveIn[k]; in >= 0 {
						ci = e.cubismFadeIn(in)
					}
					if o := inf.dec.curveOut[k]; o >= 0 {
						co = e.cubismFadeOut(o)
					}
					cw = lw * ci * co
				} else {
					if cf.FadeIn >= 0 {
						ci = a.fadeIn(float64(cf.FadeIn), e.age)
					}
					if cf.FadeOut >= 0 {
						co = a.fadeOut(float64(cf.FadeOut), e.fading)
					}
					cw = a.r(a.r(lw*ci) * co) // clip.rs: layer · fin · fout
				}
			}
		}
		src := float64(values[pi])
		if p.cubism {
			// Stored as SetParameterValue stores it (clamped). The
			// framework would first wrap the curve value of a parameter
			// whose repeat its user switched on (cubismparam.go).
			cubismSet(p.model.file.Parameters, values, pi, src+(v-src)*cw, 1)
			continue
		}
		values[pi] = float32(src + a.r(a.r(v-src)*cw))
	}
	// Role parameters without their own curve: the reference's effect acts
	// on the current value, weighted by the clip weight; the framework's
	// pulls the value to the effect's value with the motion's weight.
	if hasBlink {
		p.effectWithoutCurve(values, c, p.blinkP, w, blink, true)
	}
	if hasLip {
		p.effectWithoutCurve(values, c, p.lipP, w, lip, false)
	}
	// Part and model opacity curves are set directly, not faded: the model
	// opacity clamped to [0, 1] (a non-finite value counts as 1); a part's
	// multiplies its meshes the same way (reference), or, for Cubism, is
	// the part's pose slot, the "non-existent parameter" Cubism's pose
	// reads, unclamped.
	for k := range c.TargetCurves {
		tc := &c.TargetCurves[k]
		switch tc.Target {
		case p2lrt.TargetPartOpacity:
			if tc.Part < 0 || tc.Part >= len(out.partOpacity) {
				continue
			}
			if p.cubism {
				if out.poseSlot != nil {
					out.poseSlot[tc.Part] = float32(p.targetValue(e, k))
				}
			} else {
				out.partOpacity[tc.Part] = unitOpacity(float32(p.targetValue(e, k)))
			}
		case p2lrt.TargetModelOpacity:
			out.modelOpacity = unitOpacity(float32(p.targetValue(e, k)))
		}
	}
}

// targetValue is the value of e's target curve k now.
func (p *clipPlayer) targetValue(e *clipEntry, k int) float64 {
	c := &p.model.file.Clips[e.clip]
	inf := &p.info[e.clip]
	if p.cubism {
		return curveValueCubism(&c.TargetCurves[k].Curve, e.t, inf.dec.target[k], inf.scan, p.loopEnd(c, inf.dec))
	}
	return float64(curveValueIn(&c.TargetCurves[k].Curve, e.t, p.a, inf.scan))
}

// loopEnd is the end of the end-correction segment of a Cubism looping
// clip (duration + 1/Fps, cubismmotion.ts evaluateCurve's isCorrection),
// 0 for a one-shot clip (no correction).
func (p *clipPlayer) loopEnd(c *p2lrt.Clip, d *clipDecimals) float64 {
	if !c.Loop {
		return 0
	}
	return d.duration + 1/d.fps
}

// isEffect reports whether parameter pi takes the clip's effect of a role
// (EyeBlink or LipSync; in, the role's membership): for Cubism only the
// role's first maxEffectIDs parameters do.
func (p *clipPlayer) isEffect(role []int, in []bool, pi int) bool {
	if !in[pi] {
		return false
	}
	if !p.cubism || len(role) <= maxEffectIDs {
		return true
	}
	for _, q := range role[:maxEffectIDs] {
		if q == pi {
			return true
		}
	}
	return false
}

// effectWithoutCurve applies a clip's effect (blink: multiplying, lip
// sync: adding) to the role's parameters the clip has no curve for:
// weighted by the clip weight w (reference), or, for Cubism, pulling them
// to the effect value by w (v + (effect − v)·w) for the role's first
// maxEffectIDs parameters.
func (p *clipPlayer) effectWithoutCurve(values []float32, c *p2lrt.Clip, role []int, w, effect float64, blink bool) {
	a := p.a
	for k, pi := range role {
		if p.cubism && k >= maxEffectIDs {
			break
		}
		if clipHasCurve(c, pi) {
			continue
		}
		src := float64(values[pi])
		switch {
		case p.cubism:
			cubismSet(p.model.file.Parameters, values, pi, src+(effect-src)*w, 1)
		case blink:
			values[pi] = float32(src + a.r(a.r(a.r(src*effect)-src)*w))
		default:
			values[pi] = float32(src + a.r(effect*w))
		}
	}
}

// unitOpacity clamps an opacity set by a clip to [0, 1]; a value that is
// not finite counts as 1 (ffi.rs, pose.rs set_clip_opacities).
func unitOpacity(v float32) float32 {
	if !finite(v) {
		return 1
	}
	return min(max(v, 0), 1)
}

func clipHasCurve(c *p2lrt.Clip, param int) bool {
	for k := range c.Curves {
		if c.Curves[k].Parameter == param {
			return true
		}
	}
	return false
}
