package p2l

// This file plays EXPR expressions. Each playing expression has a weight w,
// the product of its sine-eased fade-in and fade-out (queue timing as
// Cubism's), and changes the value v of each of its parameters as the spec
// states (P2LRT_V2.md, EXPR):
//
//	Add:       v + value·w
//	Multiply:  v·(1 + (value − 1)·w)
//	Overwrite: v·(1 − w) + value·w
//
// Several expressions apply in the order they started, each on the result
// of the previous one. (Cubism 5 instead crossfades per-parameter
// accumulators by the newer entry's weight; for one expression both agree.)

// maxExpressions bounds the playing expressions; starting more drops the
// oldest.
const maxExpressions = 32

type exprEntry struct {
	expr int
	fade fade
}

type expressionPlayer struct {
	model   *Model
	entries []exprEntry
	now     float64
}

func newExpressionPlayer(m *Model) *expressionPlayer {
	return &expressionPlayer{model: m, entries: make([]exprEntry, 0, 4)}
}

// exprFade returns the expression's fade time; negative (absent) is
// Cubism's default of 1 s.
func exprFade(v float32) float32 { return clipFade(v) }

func (p *expressionPlayer) push(i int) {
	x := &p.model.Expressions[i]
	if len(p.entries) >= maxExpressions {
		copy(p.entries, p.entries[1:])
		p.entries = p.entries[:len(p.entries)-1]
	}
	p.entries = append(p.entries, exprEntry{expr: i, fade: newFade(exprFade(x.FadeIn), exprFade(x.FadeOut))})
}

// set plays expression i alone: every playing expression fades out. i < 0
// only fades the others out; an expression with no entries acts the same
// (a neutral reset).
func (p *expressionPlayer) set(i int) bool {
	if i >= len(p.model.Expressions) {
		return false
	}
	for k := range p.entries {
		e := &p.entries[k]
		e.fade.requestOut(e.fade.fadeOut)
	}
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
		if p.entries[k].expr == i && !p.entries[k].fade.fadingOut() {
			return true
		}
	}
	p.push(i)
	return true
}

// remove fades expression i out.
func (p *expressionPlayer) remove(i int) bool {
	found := false
	for k := range p.entries {
		e := &p.entries[k]
		if e.expr == i && !e.fade.fadingOut() {
			e.fade.requestOut(e.fade.fadeOut)
			found = true
		}
	}
	return found
}

// playing appends the expressions playing and not fading out, in start
// order.
func (p *expressionPlayer) playing(dst []int) []int {
	for k := range p.entries {
		if !p.entries[k].fade.fadingOut() {
			dst = append(dst, p.entries[k].expr)
		}
	}
	return dst
}

// advance moves the clock and drops the expressions that faded out.
func (p *expressionPlayer) advance(dt float64) {
	if dt > 0 {
		p.now += dt
	}
	n := 0
	for k := range p.entries {
		e := p.entries[k]
		if e.fade.done(p.now) {
			continue
		}
		e.fade.begin(p.now)
		p.entries[n] = e
		n++
	}
	p.entries = p.entries[:n]
}

// apply changes values by every playing expression.
func (p *expressionPlayer) apply(values []float32) {
	for k := range p.entries {
		e := &p.entries[k]
		w := e.fade.weight(p.now)
		for _, en := range p.model.Expressions[e.expr].Entries {
			if en.Parameter < 0 || en.Parameter >= len(values) {
				continue
			}
			values[en.Parameter] = applyExpression(values[en.Parameter], en.Blend, en.Value, w)
		}
	}
}

// applyExpression is the spec's formula for one expression entry.
func applyExpression(v float32, blend ExpressionBlend, value float32, w float64) float32 {
	x, y := float64(v), float64(value)
	switch blend {
	case ExpressionMultiply:
		return float32(x * (1 + (y-1)*w))
	case ExpressionOverwrite:
		return float32(x*(1-w) + y*w)
	default:
		return float32(x + y*w)
	}
}

func (p *expressionPlayer) finishUpdate() {
	for k := range p.entries {
		p.entries[k].fade.afterUpdate(p.now)
	}
}
