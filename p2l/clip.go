package p2l

import "math"

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
// from frame to frame. The arithmetic is the model's Playback (playback.go):
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
	// time is the clip's own time, which Seek moves; age the seconds since
	// it started, which its fade-in follows; fading the seconds since it
	// began to fade out, −1 while it does not.
	time, age, fading float64
	// fired is the clip time up to which events have fired (−1 before the
	// first update, so that events at time 0 fire then).
	fired float64
	t     float64 // local time (wrapped or clamped) of the last update
	ended bool    // a one-shot clip reached its end (Finished reported)
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
	curveFade []CurveFade
	hasOwn    bool // some curve has a fade record
	scan      bool // some curve's end times decrease: find segments by a scan
	blink     int  // index into TargetCurves of the blink effect, or −1
	lip       int  // lip-sync effect, or −1
	// longestOut is how long the clip shows after it begins to fade out:
	// the longest of its fade-out and its curves' own fade-outs.
	longestOut float64
}

// clipPlayer plays the clips of one rig.
type clipPlayer struct {
	model   *Model
	a       arith
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
		info:    make([]clipInfo, len(m.Clips)),
		isBlink: make([]bool, len(m.Parameters)),
		isLip:   make([]bool, len(m.Parameters)),
		blinkP:  blinkParams,
		lipP:    lipParams,
		events:  make([]FiredEvent, 0, 16),
	}
	for _, i := range blinkParams {
		p.isBlink[i] = true
	}
	for _, i := range lipParams {
		p.isLip[i] = true
	}
	for ci := range m.Clips {
		c := &m.Clips[ci]
		inf := &p.info[ci]
		inf.blink, inf.lip = -1, -1
		inf.longestOut = float64(clipFade(c.FadeOut))
		for k := range c.Curves {
			inf.scan = inf.scan || c.Curves[k].Curve.decreasing()
		}
		for k, tc := range c.TargetCurves {
			inf.scan = inf.scan || tc.Curve.decreasing()
			switch tc.Target {
			case TargetBlink:
				inf.blink = k
			case TargetLipSync:
				inf.lip = k
			}
			if tc.FadeOut >= 0 {
				inf.longestOut = max(inf.longestOut, float64(tc.FadeOut))
			}
		}
		if len(c.CurveFades) > 0 {
			inf.curveFade = make([]CurveFade, len(c.Curves))
			for k := range inf.curveFade {
				inf.curveFade[k] = CurveFade{Curve: -1, FadeIn: -1, FadeOut: -1}
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
	c := &p.model.Clips[e.clip]
	return p.a.fadeIn(float64(clipFade(c.FadeIn)), e.age), p.a.fadeOut(float64(clipFade(c.FadeOut)), e.fading)
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
	own := float64(clipFade(p.model.Clips[e.clip].FadeOut))
	return e.fading < inf.longestOut && (p.weight(e) > 0 || inf.longestOut > own)
}

// play starts clip on layer with priority, as the reference's
// p2l_play_layer: it starts only if priority is at least the layer's
// priority (0 once the playing clip finished or stopped); the clip playing
// there starts to fade out.
func (p *clipPlayer) play(layer, clip, priority int) bool {
	if layer < 0 || layer >= MaxLayers || clip < 0 || clip >= len(p.model.Clips) {
		return false
	}
	L := &p.layers[layer]
	if priority < p.layerPriority(layer) {
		return false
	}
	p.fadeOutCurrent(L)
	if len(L.entries) >= maxQueue {
		copy(L.entries, L.entries[1:])
		L.entries = L.entries[:len(L.entries)-1]
	}
	L.entries = append(L.entries, clipEntry{clip: clip, fading: -1, fired: -1})
	L.priority = priority
	return true
}

// fadeOutCurrent makes the layer's playing clip start fading out.
func (p *clipPlayer) fadeOutCurrent(L *clipLayer) {
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
	if e.fading >= 0 {
		return nil
	}
	return e
}

// finished reports whether the playing clip of e is a one-shot past its
// end (or e is nil: nothing plays).
func (p *clipPlayer) finished(e *clipEntry) bool {
	if e == nil {
		return true
	}
	c := &p.model.Clips[e.clip]
	return !c.Loop && e.time >= float64(c.Duration)
}

// layerPriority is the layer's priority: 0 once its clip finished or
// stopped.
func (p *clipPlayer) layerPriority(layer int) int {
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
	e.time = max(t, 0)
	e.fired = e.time
	e.t = p.local(e.clip, e.time)
	e.ended = false
	return true
}

// local maps a clip's own time to the time its curves are sampled at:
// wrapped by the duration for a looping clip, clamped to [0, duration] for
// a one-shot clip (the reference's local_time).
func (p *clipPlayer) local(clip int, u float64) float64 {
	c := &p.model.Clips[clip]
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
			c := &p.model.Clips[e.clip]
			p.fireEvents(l, e, c)
			if !c.Loop && e.time >= float64(c.Duration) && !e.ended {
				e.ended = true
				p.events = append(p.events, FiredEvent{Layer: l, Clip: e.clip, Time: c.Duration, Finished: true})
			}
		}
	}
}

// finishUpdate resets the priority of every layer whose clip finished or
// stopped to 0 (the reference's update after each layer).
func (p *clipPlayer) finishUpdate() {
	for l := range p.layers {
		if p.finished(p.current(l)) {
			p.layers[l].priority = 0
		}
	}
}

// fireEvents reports the events of e's clip after its last fired time and
// up to its time now (the reference's clip.rs fire): a looping clip fires
// each event once per lap passed (each event once when more than
// maxEventLaps laps passed in one update), a one-shot clip stops at its
// end; the first update fires the events at time 0 too.
func (p *clipPlayer) fireEvents(layer int, e *clipEntry, c *Clip) {
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

func (p *clipPlayer) emit(layer, clip int, ev Event) {
	p.events = append(p.events, FiredEvent{Value: ev.Value, Layer: layer, Clip: clip, Time: ev.Time})
}

// clipOutputs receives what clips set besides parameters.
type clipOutputs struct {
	partOpacity  []float32 // per part, 1 when no curve
	modelOpacity float32
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
// reference's apply_playing): its EyeBlink effect multiplies and its
// LipSync effect adds to those roles' parameters, curves with fades of
// their own weigh by them, part and model opacities are set outright.
func (p *clipPlayer) applyEntry(values []float32, out *clipOutputs, e *clipEntry, lw float64) {
	c := &p.model.Clips[e.clip]
	inf := &p.info[e.clip]
	a := p.a
	fin, fout := p.fades(e)
	w := a.r(lw * a.r(fin*fout)) // clip.rs: layer · weight(clip)
	t := e.t

	blink, hasBlink := 1.0, inf.blink >= 0
	if hasBlink {
		blink = float64(c.TargetCurves[inf.blink].value(t, a, inf.scan))
	}
	lip, hasLip := 0.0, inf.lip >= 0
	if hasLip {
		lip = float64(c.TargetCurves[inf.lip].value(t, a, inf.scan))
	}
	for k := range c.Curves {
		pc := &c.Curves[k]
		pi := pc.Parameter
		if pi < 0 || pi >= len(values) {
			continue
		}
		v := float64(pc.value(t, a, inf.scan))
		if hasBlink && p.isBlink[pi] {
			v = a.r(v * blink)
		}
		if hasLip && p.isLip[pi] {
			v = a.r(v + lip)
		}
		cw := w
		if inf.hasOwn {
			if cf := &inf.curveFade[k]; cf.Curve >= 0 {
				ci, co := fin, fout
				if cf.FadeIn >= 0 {
					ci = a.fadeIn(float64(cf.FadeIn), e.age)
				}
				if cf.FadeOut >= 0 {
					co = a.fadeOut(float64(cf.FadeOut), e.fading)
				}
				cw = a.r(a.r(lw*ci) * co) // clip.rs: layer · fin · fout
			}
		}
		src := float64(values[pi])
		values[pi] = float32(src + a.r(a.r(v-src)*cw))
	}
	// Role parameters without their own curve: the effect acts on the
	// current value, weighted by the clip weight.
	if hasBlink {
		for _, pi := range p.blinkP {
			if !clipHasCurve(c, pi) {
				src := float64(values[pi])
				values[pi] = float32(src + a.r(a.r(a.r(src*blink)-src)*w))
			}
		}
	}
	if hasLip {
		for _, pi := range p.lipP {
			if !clipHasCurve(c, pi) {
				values[pi] = float32(float64(values[pi]) + a.r(lip*w))
			}
		}
	}
	// Part and model opacity curves are set directly, not faded, clamped
	// to [0, 1] (a non-finite value counts as 1).
	for k := range c.TargetCurves {
		tc := &c.TargetCurves[k]
		switch tc.Target {
		case TargetPartOpacity:
			if tc.Part >= 0 && tc.Part < len(out.partOpacity) {
				out.partOpacity[tc.Part] = unitOpacity(tc.value(t, a, inf.scan))
			}
		case TargetModelOpacity:
			out.modelOpacity = unitOpacity(tc.value(t, a, inf.scan))
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

func clipHasCurve(c *Clip, param int) bool {
	for k := range c.Curves {
		if c.Curves[k].Parameter == param {
			return true
		}
	}
	return false
}
