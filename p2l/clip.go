package p2l

import "math"

// This file is the clip player: up to MaxLayers layers, each a Cubism motion
// queue with a priority (CubismMotionManager), playing CLIP curves and the
// CEXT extension (events, non-parameter curves, per-curve fades).
//
// Every update starts again from the host pose (RUNTIME.md, C ABI): a clip
// blends from the value below it, v = below + (curve − below)·weight, so
// nothing accumulates from frame to frame. Cubism's sample instead blends
// from the previous frame's motion result; docs/ANIMATION.md lists the
// consequences.

// MaxLayers is the number of clip layers (P2L_MAX_LAYERS).
const MaxLayers = 16

// maxQueue bounds the entries of one layer: when rapid switching queues
// more, the oldest entry is dropped.
const maxQueue = 32

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

// clipEntry is one queued clip of a layer.
type clipEntry struct {
	clip int
	fade fade
	// lastT is the unwrapped local time checked for events so far; −Inf
	// before the first update so that events at time 0 fire then.
	lastT float64
	// seekTo is a local time requested by Seek before the entry started.
	seekTo float64
	t      float64 // local (wrapped) time of the last update
	ended  bool    // a one-shot clip reached its end
}

// clipLayer is one layer: its queue, priority and weight.
type clipLayer struct {
	entries  []clipEntry
	priority int
	weight   float32
}

// clipInfo is precomputed per clip: per-curve fades and role curves.
type clipInfo struct {
	curveFade []CurveFade // indexed like Clip.Curves; negative = clip's
	hasOwn    bool        // some curve has its own fade
	blink     int         // index into TargetCurves of the blink effect, or −1
	lip       int         // lip-sync effect, or −1
}

// clipPlayer plays the clips of one rig.
type clipPlayer struct {
	model   *Model
	info    []clipInfo
	isBlink []bool // parameter is in the EyeBlink role
	isLip   []bool // parameter is in the LipSync role
	blinkP  []int
	lipP    []int
	layers  [MaxLayers]clipLayer
	now     float64
	events  []FiredEvent
}

func newClipPlayer(m *Model, blinkParams, lipParams []int) *clipPlayer {
	p := &clipPlayer{
		model:   m,
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
		for k, tc := range c.TargetCurves {
			switch tc.Target {
			case TargetBlink:
				inf.blink = k
			case TargetLipSync:
				inf.lip = k
			}
		}
		if len(c.CurveFades) > 0 {
			inf.curveFade = make([]CurveFade, len(c.Curves))
			for k := range inf.curveFade {
				inf.curveFade[k] = CurveFade{Curve: k, FadeIn: -1, FadeOut: -1}
			}
			for _, f := range c.CurveFades {
				if f.Curve >= 0 && f.Curve < len(c.Curves) && (f.FadeIn >= 0 || f.FadeOut >= 0) {
					inf.curveFade[f.Curve] = f
					inf.hasOwn = true
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

// clipFade returns a clip fade time: negative (or NaN) means Cubism's
// default of 1 s.
func clipFade(v float32) float32 {
	if v < 0 || v != v {
		return 1
	}
	return v
}

// play starts clip on layer with priority, following Cubism's motion
// manager: it starts only if priority is at least the layer's current
// priority, and every clip already queued on the layer fades out with its
// own fade-out time.
func (p *clipPlayer) play(layer, clip, priority int) bool {
	if layer < 0 || layer >= MaxLayers || clip < 0 || clip >= len(p.model.Clips) {
		return false
	}
	L := &p.layers[layer]
	if priority < L.priority {
		return false
	}
	L.priority = priority
	for i := range L.entries {
		e := &L.entries[i]
		e.fade.requestOut(float64(clipFade(p.model.Clips[e.clip].FadeOut)))
	}
	if len(L.entries) >= maxQueue {
		copy(L.entries, L.entries[1:])
		L.entries = L.entries[:len(L.entries)-1]
	}
	c := &p.model.Clips[clip]
	L.entries = append(L.entries, clipEntry{
		clip:  clip,
		fade:  newFade(clipFade(c.FadeIn), clipFade(c.FadeOut)),
		lastT: math.Inf(-1),
	})
	return true
}

// stop fades out every clip of layer and resets its priority to 0.
func (p *clipPlayer) stop(layer int) {
	if layer < 0 || layer >= MaxLayers {
		return
	}
	L := &p.layers[layer]
	for i := range L.entries {
		e := &L.entries[i]
		e.fade.requestOut(float64(clipFade(p.model.Clips[e.clip].FadeOut)))
	}
	L.priority = 0
}

// current returns the newest entry of layer, or nil.
func (p *clipPlayer) current(layer int) *clipEntry {
	if layer < 0 || layer >= MaxLayers {
		return nil
	}
	L := &p.layers[layer]
	if len(L.entries) == 0 {
		return nil
	}
	e := &L.entries[len(L.entries)-1]
	if e.fade.fadingOut() {
		return nil
	}
	return e
}

// seek moves the newest clip of layer to local time t. Only the time moves:
// the fade-in continues and the events passed over do not fire.
func (p *clipPlayer) seek(layer int, t float64) bool {
	e := p.current(layer)
	if e == nil || !(t >= 0) {
		return false
	}
	tt := t
	if !e.fade.started {
		e.seekTo = tt
		return true
	}
	e.fade.start = p.now - tt
	e.lastT = tt
	e.ended = false
	e.t = p.wrap(e.clip, tt)
	return true
}

// wrap maps unwrapped local time u to clip time: looping clips wrap by
// their duration, one-shot clips run on (their curves hold the last value).
func (p *clipPlayer) wrap(clip int, u float64) float64 {
	c := &p.model.Clips[clip]
	d := float64(c.Duration)
	if c.Loop && d > 0 {
		u = math.Mod(u, d)
		if u < 0 {
			u += d
		}
	}
	return u
}

// advance moves the player clock by dt and updates timing and events; apply
// then writes the values and finishUpdate drops the entries that ended.
func (p *clipPlayer) advance(dt float64) {
	p.events = p.events[:0]
	if dt > 0 {
		p.now += dt
	}
	for l := range p.layers {
		L := &p.layers[l]
		for i := range L.entries {
			e := &L.entries[i]
			if !e.fade.started {
				e.fade.begin(p.now)
				if e.seekTo > 0 {
					e.fade.start = p.now - e.seekTo
					e.lastT = e.seekTo
				}
			}
			c := &p.model.Clips[e.clip]
			u := p.now - e.fade.start
			p.fireEvents(l, e, c, u)
			e.t = p.wrap(e.clip, u)
			if !c.Loop && u >= float64(c.Duration) && !e.ended {
				e.ended = true
				if i == len(L.entries)-1 && !e.fade.fadingOut() {
					L.priority = 0
					p.events = append(p.events, FiredEvent{Layer: l, Clip: e.clip, Time: c.Duration, Finished: true})
				}
			}
		}
	}
}

// finishUpdate drops the entries whose fade-out ended before now (they were
// still applied this update, with weight 0, as Cubism does: their opacity
// curves still set the opacity) and starts the fade-outs requested since the
// last update. A layer left empty gets priority 0.
func (p *clipPlayer) finishUpdate() {
	for l := range p.layers {
		L := &p.layers[l]
		n := 0
		for i := range L.entries {
			e := L.entries[i]
			if e.fade.done(p.now) {
				continue
			}
			e.fade.afterUpdate(p.now)
			L.entries[n] = e
			n++
		}
		L.entries = L.entries[:n]
		if n == 0 {
			L.priority = 0
		}
	}
}

// fireEvents reports the events of e between its last check and unwrapped
// local time u. A looping clip fires each event once per lap; when more than
// a whole lap passed in one update each event fires once.
func (p *clipPlayer) fireEvents(layer int, e *clipEntry, c *Clip, u float64) {
	prev := e.lastT
	e.lastT = u
	if len(c.Events) == 0 || !(u > prev) {
		return
	}
	d := float64(c.Duration)
	if !c.Loop || d <= 0 || math.IsInf(prev, -1) {
		for _, ev := range c.Events {
			if t := float64(ev.Time); t > prev && t <= u {
				p.emit(layer, e.clip, ev)
			}
		}
		return
	}
	if u-prev >= d {
		for _, ev := range c.Events {
			if ev.Time >= 0 && float64(ev.Time) <= d {
				p.emit(layer, e.clip, ev)
			}
		}
		return
	}
	// u − prev < d, so at most two laps are touched; the counter guards
	// against float absorption with absurd durations.
	for base, n := math.Floor(prev/d)*d, 0; base <= u && n < 3; base, n = base+d, n+1 {
		for _, ev := range c.Events {
			if ev.Time < 0 || float64(ev.Time) > d {
				continue
			}
			if t := base + float64(ev.Time); t > prev && t <= u {
				p.emit(layer, e.clip, ev)
			}
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

// apply blends every layer's clips onto values, layer 0 first, each layer's
// entries oldest first.
func (p *clipPlayer) apply(values []float32, out *clipOutputs) {
	for l := range p.layers {
		L := &p.layers[l]
		lw := float64(L.weight)
		if lw <= 0 {
			continue
		}
		for i := range L.entries {
			p.applyEntry(values, out, &L.entries[i], lw)
		}
	}
}

func (p *clipPlayer) applyEntry(values []float32, out *clipOutputs, e *clipEntry, lw float64) {
	c := &p.model.Clips[e.clip]
	inf := &p.info[e.clip]
	now := p.now
	f := &e.fade
	fin := f.inFactor(now, f.fadeIn)
	fout := f.outFactor(now, f.fadeOut)
	w := lw * fin * fout
	t := e.t

	blink, hasBlink := 1.0, inf.blink >= 0
	if hasBlink {
		blink = float64(c.TargetCurves[inf.blink].Value(t))
	}
	lip, hasLip := 0.0, inf.lip >= 0
	if hasLip {
		lip = float64(c.TargetCurves[inf.lip].Value(t))
	}
	for k := range c.Curves {
		pc := &c.Curves[k]
		pi := pc.Parameter
		if pi < 0 || pi >= len(values) {
			continue
		}
		v := float64(pc.Value(t))
		if hasBlink && p.isBlink[pi] {
			v *= blink
		}
		if hasLip && p.isLip[pi] {
			v += lip
		}
		cw := w
		if inf.hasOwn {
			if cf := &inf.curveFade[k]; cf.FadeIn >= 0 || cf.FadeOut >= 0 {
				ci, co := fin, fout
				if cf.FadeIn >= 0 {
					ci = f.inFactor(now, float64(cf.FadeIn))
				}
				if cf.FadeOut >= 0 {
					co = f.outFactor(now, float64(cf.FadeOut))
				}
				cw = lw * ci * co
			}
		}
		src := float64(values[pi])
		values[pi] = float32(src + (v-src)*cw)
	}
	// Role parameters without their own curve: the effect acts on the
	// current value, weighted by the clip weight.
	if hasBlink {
		for _, pi := range p.blinkP {
			if !clipHasCurve(c, pi) {
				src := float64(values[pi])
				values[pi] = float32(src * (1 + (blink-1)*w))
			}
		}
	}
	if hasLip {
		for _, pi := range p.lipP {
			if !clipHasCurve(c, pi) {
				values[pi] = float32(float64(values[pi]) + lip*w)
			}
		}
	}
	// Part and model opacity curves are set directly, not faded.
	for k := range c.TargetCurves {
		tc := &c.TargetCurves[k]
		switch tc.Target {
		case TargetPartOpacity:
			if tc.Part >= 0 && tc.Part < len(out.partOpacity) {
				out.partOpacity[tc.Part] = tc.Value(t)
			}
		case TargetModelOpacity:
			out.modelOpacity = tc.Value(t)
		}
	}
}

func clipHasCurve(c *Clip, param int) bool {
	for k := range c.Curves {
		if c.Curves[k].Parameter == param {
			return true
		}
	}
	return false
}
