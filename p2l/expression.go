package p2l

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
// started, each on the result of the previous ones. (Cubism 5 instead
// crossfades per-parameter accumulators by the newer entry's weight; for
// one expression both agree.) The arithmetic is the model's Playback:
// float32 as expression.rs, or float64.

// maxExpressions bounds the playing expressions; starting more drops the
// oldest.
const maxExpressions = 32

type exprEntry struct {
	expr int
	age  float64
	// fading is the seconds since the fade-out began, −1 while none;
	// start is the weight the expression had when it began.
	fading, start float64
}

type expressionPlayer struct {
	model   *Model
	a       arith
	entries []exprEntry
}

func newExpressionPlayer(m *Model) *expressionPlayer {
	return &expressionPlayer{model: m, a: arithOf(m), entries: make([]exprEntry, 0, 4)}
}

// weight is the entry's weight now.
func (p *expressionPlayer) weight(e *exprEntry) float64 {
	x := &p.model.Expressions[e.expr]
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
	p.entries = append(p.entries, exprEntry{expr: i, fading: -1})
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
	if i >= len(p.model.Expressions) {
		return false
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
	if i < 0 || i >= len(p.model.Expressions) {
		return false
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
	return p.fadeOut(i)
}

// playing appends the expressions playing and not fading out, in start
// order.
func (p *expressionPlayer) playing(dst []int) []int {
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
	for k := range p.entries {
		e := &p.entries[k]
		w := p.weight(e)
		for _, en := range p.model.Expressions[e.expr].Entries {
			if en.Parameter < 0 || en.Parameter >= len(values) {
				continue
			}
			values[en.Parameter] = p.a.expression(values[en.Parameter], en.Blend, en.Value, w)
		}
	}
}

// expression is the spec's formula for one expression entry, in the order
// of expression.rs apply.
func (a arith) expression(v float32, blend ExpressionBlend, value float32, w float64) float32 {
	x, y := float64(v), float64(value)
	switch blend {
	case ExpressionMultiply:
		return float32(x * a.r(1+a.r(a.r(y-1)*w)))
	case ExpressionOverwrite:
		return float32(a.r(x*a.r(1-w)) + a.r(y*w))
	default:
		return float32(x + a.r(y*w))
	}
}
