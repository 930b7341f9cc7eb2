package p2l

import (
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func exprModel() *Model {
	return &Model{file: &p2lrt.File{
		Parameters: []p2lrt.Parameter{{ID: "a", Min: -100, Max: 100}, {ID: "b", Min: -100, Max: 100}, {ID: "c", Min: -100, Max: 100}},
		Expressions: []p2lrt.Expression{
			{ID: "add", FadeIn: 1, FadeOut: 1, Entries: []p2lrt.ExpressionEntry{{Parameter: 0, Blend: p2lrt.ExpressionAdd, Value: 10}, {Parameter: 1, Blend: p2lrt.ExpressionMultiply, Value: 3}, {Parameter: 2, Blend: p2lrt.ExpressionOverwrite, Value: 50}}},
			{ID: "over", FadeIn: 0.5, FadeOut: 0.5, Entries: []p2lrt.ExpressionEntry{{Parameter: 0, Blend: p2lrt.ExpressionOverwrite, Value: 40}}},
			{ID: "neutral", FadeIn: 1, FadeOut: 1},
		},
	}}
}

func exprFrame(p *expressionPlayer, base []float32, dt float64) []float32 {
	v := append([]float32(nil), base...)
	p.advance(dt)
	p.apply(v)
	return v
}

// The expected values follow the reference runtime's ExpressionPlayer
// (PSD2Live runtime/src/expression.rs weight, update): the clocks advance
// before applying; fade-in ease(age/FadeIn); once fading out, the weight at
// that moment times 1 − ease(elapsed/FadeOut).

func TestExpressionFormulas(t *testing.T) {
	p := newExpressionPlayer(exprModel())
	p.set(0)
	base := []float32{2, 4, 8}
	v := exprFrame(p, base, 0.25) // the first update already weighs ease(0.25)
	w := easeSine(0.25)
	want := []float64{2 + 10*w, 4 * (1 + (3-1)*w), 8*(1-w) + 50*w}
	for i := range want {
		if !near(float64(v[i]), want[i], 1e-5) {
			t.Errorf("param %d = %v, want %v", i, v[i], want[i])
		}
	}
	for range 4 {
		v = exprFrame(p, base, 0.25)
	}
	if v[0] != 12 || v[1] != 12 || v[2] != 50 {
		t.Errorf("full weight: %v, want [12 12 50]", v)
	}
}

// TestExpressionSwitchAndNeutral: the previous expression fades out from
// the next update with its own time; an empty expression is a neutral
// reset; setting the expression already playing alone does nothing.
func TestExpressionSwitchAndNeutral(t *testing.T) {
	p := newExpressionPlayer(exprModel())
	p.set(0)
	base := []float32{2, 4, 8}
	for range 6 {
		exprFrame(p, base, 0.25)
	}
	p.set(0) // already the only one: no restart
	if v := exprFrame(p, base, 0.25); v[0] != 12 || len(p.entries) != 1 {
		t.Errorf("set of the playing expression: %v, %d entries; want 12 and 1", v[0], len(p.entries))
	}
	p.set(2) // neutral
	v := exprFrame(p, base, 0.25)
	if w := 1 - easeSine(0.25); !near(float64(v[0]), 2+10*w, 1e-5) {
		t.Errorf("fading out: %v, want %v", v[0], 2+10*w)
	}
	for range 4 {
		v = exprFrame(p, base, 0.25)
	}
	if v[0] != 2 || v[1] != 4 || v[2] != 8 || len(p.entries) != 1 {
		t.Errorf("after neutral reset: %v, %d entries; want the base and 1", v, len(p.entries))
	}
	if got := p.playing(nil); len(got) != 1 || got[0] != 2 {
		t.Errorf("playing = %v, want [2]", got)
	}
}

// TestExpressionFadeOutFreezesFadeIn: removed halfway through its fade-in,
// an expression fades out from the weight it had, not from its fade-in
// going on (the reference's (start, time) fading; Cubism keeps multiplying
// the running fade-in).
func TestExpressionFadeOutFreezesFadeIn(t *testing.T) {
	p := newExpressionPlayer(exprModel())
	p.add(0)
	base := []float32{2, 4, 8}
	exprFrame(p, base, 0.25)
	exprFrame(p, base, 0.25) // weight ease(0.5) = 0.5
	p.remove(0)
	for k := 1; k <= 3; k++ {
		v := exprFrame(p, base, 0.25)
		w := 0.5 * (1 - easeSine(0.25*float64(k)))
		if !near(float64(v[0]), 2+10*w, 1e-5) {
			t.Errorf("%v s into the fade-out: %v, want %v", 0.25*float64(k), v[0], 2+10*w)
		}
	}
	exprFrame(p, base, 0.25)
	if len(p.entries) != 0 {
		t.Errorf("%d entries after the fade-out, want 0", len(p.entries))
	}
	// Fade times ≤ 0: in at once, out at once (negative too, as the
	// reference: expression fades are not defaulted).
	m := exprModel()
	m.file.Expressions[1].FadeIn, m.file.Expressions[1].FadeOut = -1, 0
	p = newExpressionPlayer(m)
	p.set(1)
	if v := exprFrame(p, base, 0.25); v[0] != 40 {
		t.Errorf("fade-in −1: %v, want 40 at once", v[0])
	}
	p.set(-1)
	if v := exprFrame(p, base, 0.25); v[0] != 2 || len(p.entries) != 0 {
		t.Errorf("fade-out 0: %v, want 2 at once", v[0])
	}
}

// TestExpressionStackOrder: stacked expressions apply in start order.
func TestExpressionStackOrder(t *testing.T) {
	base := []float32{2, 4, 8}
	run := func(first, second int) float32 {
		p := newExpressionPlayer(exprModel())
		p.add(first)
		p.add(second)
		var v []float32
		for range 8 {
			v = exprFrame(p, base, 0.25)
		}
		return v[0]
	}
	// add then overwrite: (2 + 10) overwritten by 40; overwrite then add: 40 + 10.
	if got := run(0, 1); got != 40 {
		t.Errorf("add, overwrite = %v, want 40", got)
	}
	if got := run(1, 0); got != 50 {
		t.Errorf("overwrite, add = %v, want 50", got)
	}
	p := newExpressionPlayer(exprModel())
	p.add(0)
	p.add(1)
	p.remove(0)
	if got := p.playing(nil); len(got) != 1 || got[0] != 1 {
		t.Errorf("playing after remove = %v, want [1]", got)
	}
	if p.add(7) || p.set(7) {
		t.Error("bad expression index accepted")
	}
}
