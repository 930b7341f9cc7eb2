package p2l

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// This file plays EXPR expressions as the reference runtime does
// (PSD2Live runtime/src/expression.rs, ExpressionPlayer). Each playing
// expression has a weight w and changes the value v of each of its
// parameters as the spec states (P2LRT_V2.md, EXPR):
//
//	Add:       v + value·w
//	Multiply:  v·(1 + (value − 1)·w)
//	Overwrite: v·(1 − w) + value·w
//
// w is the fade-in ease(age/FadeIn) (1 when FadeIn ≤ 0); once the
// expression begins to fade out, w is the weight it had then times
// 1 − ease(elapsed/FadeOut) (0 at once when FadeOut ≤ 0), and the
// expression is dropped when w reaches 0. Every update first advances the
// clocks, then applies. Several expressions apply in the order they
// started, each on the result of the previous ones. The arithmetic is the
// model's Playback: float32 as expression.rs, or float64.
//
// PlaybackCubism models play as the Cubism framework's
// CubismExpressionMotionManager instead (applyCubism): one expression at a
// time, the newer crossfading the per-parameter accumulators of the older
// by its own weight.

// maxExpressions bounds the playing expressions; starting more drops the
// oldest.
const maxExpressions = 32

type exprEntry struct {
	expr int // −1: Cubism's neutral entry (no parameters)
	age  float64
	// fading is the seconds since the fade-out began, −1 while none;
	// start is the weight the expression had when it began.
	fading, start float64

	// Cubism (CubismMotionQueueEntry on the player's clock): fadeInStart
	// and end (−1: none) are set on the first update; queued marks an
	// entry replaced, whose fade-out starts after its next update;
	// fadeIn, fadeOut are its fade times (a neutral entry's fade-in is
	// the fade-out of the expression it replaced).
	started, queued         bool
	fadeInStart, end        float64
	fadeInSecs, fadeOutSecs float64
}

type expressionPlayer struct {
	model   *Model
	a       arith
	entries []exprEntry

	// Cubism: the clock, and the manager's tracked parameters (in the
	// order first met; never forgotten) with their accumulators: additive,
	// multiplicative and overwrite values.
	cubism                bool
	now                   float64
	tracked               []int
	isTracked             []bool
	accAdd, accMul, accOw []float64
}

func newExpressionPlayer(m *Model) *expressionPlayer {
	p := &expressionPlayer{model: m, a: arithOf(m), entries: make([]exprEntry, 0, 4)}
	if m.Playback() == PlaybackCubism {
		n := len(m.file.Parameters)
		p.cubism = true
		p.tracked = make([]int, 0, n)
		p.isTracked = make([]bool, n)
		p.accAdd, p.accMul, p.accOw = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	return p
}

// weight is the entry's weight now.
func (p *expressionPlayer) weight(e *exprEntry) float64 {
	x := &p.model.file.Expressions[e.expr]
	if e.fading < 0 {
		return p.a.fadeIn(float64(x.FadeIn), e.age)
	}
	return p.a.r(e.start * p.a.fadeOut(float64(x.FadeOut), e.fading))
}

func (p *expressionPlayer) push(i int) {
	if len(p.entries) >= maxExpressions {
		copy(p.entries, p.entries[1:])
		p.entries = p.entries[:len(p.entries)-1]
	}
	e := exprEntry{expr: i, fading: -1, end: -1}
	if p.cubism {
		// Every entry already queued starts its fade-out after its next
		// update (CubismMotionQueueManager.startMotion).
		for k := range p.entries {
			p.entries[k].queued = true
		}
		if n := len(p.entries); i < 0 && n > 0 {
			e.fadeInSecs = p.entries[n-1].fadeOutSecs
		}
		if i >= 0 {
			x := &p.model.file.Expressions[i]
			e.fadeInSecs, e.fadeOutSecs = decimal32(x.FadeIn), decimal32(x.FadeOut)
		} else {
			e.fadeOutSecs = e.fadeInSecs
		}
	}
	p.entries = append(p.entries, e)
}

// newestCubism returns the expression of the newest Cubism entry, −1 when
// it is the neutral one, −2 when there is none.
func (p *expressionPlayer) newestCubism() int {
	if n := len(p.entries); n > 0 {
		return p.entries[n-1].expr
	}
	return -2
}

// setCubism plays expression i (−1: neutral) as the framework's
// startMotion does: unless it is the newest already, it is queued and
// every older entry will fade out. Neutral is an entry without parameters
// fading in over the fade-out time of the expression it replaces (the
// framework has no stop: an empty expression started is its neutral).
func (p *expressionPlayer) setCubism(i int) {
	newest := p.newestCubism()
	if newest == i || (i < 0 && newest < 0) {
		return
	}
	p.push(i)
}

// fadeOut makes the playing entries of expression i (every one for i < 0)
// begin to fade out; it reports whether there was one.
func (p *expressionPlayer) fadeOut(i int) bool {
	found := false
	for k := range p.entries {
		e := &p.entries[k]
		if e.fading < 0 && (i < 0 || e.expr == i) {
			e.start, e.fading = p.weight(e), 0
			found = true
		}
	}
	return found
}

// set plays expression i alone: every other playing expression fades out.
// It does nothing when i is already the only one playing; i < 0 only fades
// the others out, and an expression with no entries acts the same (a
// neutral reset).
func (p *expressionPlayer) set(i int) bool {
	if i >= len(p.model.file.Expressions) {
		return false
	}
	if p.cubism {
		if i >= 0 && len(p.model.file.Expressions[i].Entries) == 0 {
			i = -1
		}
		p.setCubism(i)
		return true
	}
	if i >= 0 {
		n, only := 0, true
		for k := range p.entries {
			if p.entries[k].fading < 0 {
				n++
				only = only && p.entries[k].expr == i
			}
		}
		if n == 1 && only {
			return true
		}
	}
	p.fadeOut(-1)
	if i >= 0 {
		p.push(i)
	}
	return true
}

// add starts expression i on top of the playing ones; it does nothing if i
// is already playing and not fading out.
func (p *expressionPlayer) add(i int) bool {
	if i < 0 || i >= len(p.model.file.Expressions) {
		return false
	}
	if p.cubism {
		// The framework plays one expression at a time: a newer one
		// crossfades over the older.
		p.setCubism(i)
		return true
	}
	for k := range p.entries {
		if p.entries[k].expr == i && p.entries[k].fading < 0 {
			return true
		}
	}
	p.push(i)
	return true
}

// remove fades expression i out.
func (p *expressionPlayer) remove(i int) bool {
	if i < 0 {
		return false
	}
	if p.cubism {
		if p.newestCubism() != i {
			return false
		}
		p.setCubism(-1)
		return true
	}
	return p.fadeOut(i)
}

// playing appends the expressions playing and not fading out, in start
// order.
func (p *expressionPlayer) playing(dst []int) []int {
	if p.cubism {
		if i := p.newestCubism(); i >= 0 {
			dst = append(dst, i)
		}
		return dst
	}
	for k := range p.entries {
		if p.entries[k].fading < 0 {
			dst = append(dst, p.entries[k].expr)
		}
	}
	return dst
}

// advance moves the clocks by dt and drops the expressions whose fade-out
// reached 0.
func (p *expressionPlayer) advance(dt float64) {
	if !(dt > 0) {
		dt = 0
	}
	if p.cubism {
		p.now += dt // the rest of the update is applyCubism's
		return
	}
	a := p.a
	dt = a.r(dt)
	n := 0
	for k := range p.entries {
		e := p.entries[k]
		e.age = a.r(e.age + dt)
		if e.fading >= 0 {
			e.fading = a.r(e.fading + dt)
			if !(p.weight(&e) > 0) {
				continue
			}
		}
		p.entries[n] = e
		n++
	}
	p.entries = p.entries[:n]
}

// apply changes values by every playing expression.
func (p *expressionPlayer) apply(values []float32) {
	if p.cubism {
		p.applyCubism(values)
		return
	}
	for k := range p.entries {
		e := &p.entries[k]
		w := p.weight(e)
		for _, en := range p.model.file.Expressions[e.expr].Entries {
			if en.Parameter < 0 || en.Parameter >= len(values) {
				continue
			}
			values[en.Parameter] = p.a.expression(values[en.Parameter], en.Blend, en.Value, w)
		}
	}
}

// expression is the spec's formula for one expression entry, in the order
// of expression.rs apply.
func (a arith) expression(v float32, blend p2lrt.ExpressionBlend, value float32, w float64) float32 {
	x, y := float64(v), float64(value)
	switch blend {
	case p2lrt.ExpressionMultiply:
		return float32(x * a.r(1+a.r(a.r(y-1)*w)))
	case p2lrt.ExpressionOverwrite:
		return float32(a.r(x*a.r(1-w)) + a.r(y*w))
	default:
		return float32(x + a.r(y*w))
	}
}

// applyCubism is CubismExpressionMotionManager.updateMotion
// (cubismexpressionmotionmanager.ts, cubismexpressionmotion.ts
// calculateExpressionParameters) at the clock p.now, in float64:
//
//   - the parameters of every queued expression join the tracked ones;
//   - each entry, oldest first, starts on its first update and takes its
//     weight fw = fade-in × fade-out (ease((now − fadeInStart)/FadeIn), 1
//     for FadeIn 0; ease((end − now)/FadeOut) once it has an end); for
//     each tracked parameter with value c the overwrite accumulator is
//     reset to c, then the entry's target (Add v: (v, 1, c); Multiply v:
//     (0, v, c); Overwrite v: (0, 1, v); not in the expression: (0, 1, c))
//     is taken as it is by the oldest entry and crossfaded in by fw by
//     each newer one (acc·(1 − fw) + target·fw); the fade-in of every entry
//     is summed; a replaced entry starts to fade out;
//   - once the newest entry's fw reaches 1 the older ones are dropped;
//   - every tracked parameter becomes c·(1 − W) + clamp((O + A)·M)·W, W the
//     sum of fade-ins up to 1, the target clamped to the parameter's range
//     (SetParameterValue).
func (p *expressionPlayer) applyCubism(values []float32) {
	now := p.now
	total := 0.0
	last := 0.0
	for k := range p.entries {
		e := &p.entries[k]
		if e.expr >= 0 {
			for _, en := range p.model.file.Expressions[e.expr].Entries {
				if pi := en.Parameter; pi >= 0 && pi < len(values) && !p.isTracked[pi] {
					p.isTracked[pi] = true
					p.tracked = append(p.tracked, pi)
				}
			}
		}
		if !e.started {
			e.started, e.fadeInStart = true, now
		}
		fin := 1.0
		if e.fadeInSecs != 0 {
			fin = arith{}.ease((now - e.fadeInStart) / e.fadeInSecs)
		}
		fout := 1.0
		if e.fadeOutSecs != 0 && e.end >= 0 {
			fout = arith{}.ease((e.end - now) / e.fadeOutSecs)
		}
		fw := fin * fout
		p.accumulate(values, e.expr, k == 0, fw)
		total += fin
		last = fw
		if e.queued {
			if end := now + e.fadeOutSecs; e.end < 0 || end < e.end {
				e.end = end
			}
		}
	}
	if n := len(p.entries); n > 1 && last >= 1 {
		p.entries[0] = p.entries[n-1]
		p.entries = p.entries[:1]
	}
	w := min(total, 1)
	for _, pi := range p.tracked {
		// setParameterValueById(id, target, W): the target is clamped to
		// the range before the blend.
		cubismSet(p.model.file.Parameters, values, pi, (p.accOw[pi]+p.accAdd[pi])*p.accMul[pi], w)
		p.accAdd[pi], p.accMul[pi] = 0, 1
	}
}

// accumulate is calculateExpressionParameters for one entry (expression
// x, −1 for the neutral one) of weight fw; first is the oldest entry,
// whose targets are taken unweighted.
func (p *expressionPlayer) accumulate(values []float32, x int, first bool, fw float64) {
	var entries []p2lrt.ExpressionEntry
	if x >= 0 {
		entries = p.model.file.Expressions[x].Entries
	}
	for _, pi := range p.tracked {
		c := float64(values[pi])
		p.accOw[pi] = c
		a, m, o := 0.0, 1.0, c
		for _, en := range entries { // the first entry on the parameter
			if en.Parameter != pi {
				continue
			}
			v := float64(en.Value)
			switch en.Blend {
			case p2lrt.ExpressionMultiply:
				m = v
			case p2lrt.ExpressionOverwrite:
				o = v
			default:
				a = v
			}
			break
		}
		if first {
			p.accAdd[pi], p.accMul[pi], p.accOw[pi] = a, m, o
			continue
		}
		p.accAdd[pi] = p.accAdd[pi]*(1-fw) + a*fw
		p.accMul[pi] = p.accMul[pi]*(1-fw) + m*fw
		p.accOw[pi] = p.accOw[pi]*(1-fw) + o*fw
	}
}
