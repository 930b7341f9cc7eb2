package p2l

import "testing"

func exprModel() *Model {
	return &Model{
		Parameters: []Parameter{{ID: "a", Min: -100, Max: 100}, {ID: "b", Min: -100, Max: 100}, {ID: "c", Min: -100, Max: 100}},
		Expressions: []Expression{
			{ID: "add", FadeIn: 1, FadeOut: 1, Entries: []ExpressionEntry{{0, ExpressionAdd, 10}, {1, ExpressionMultiply, 3}, {2, ExpressionOverwrite, 50}}},
			{ID: "over", FadeIn: 0.5, FadeOut: 0.5, Entries: []ExpressionEntry{{0, ExpressionOverwrite, 40}}},
			{ID: "neutral", FadeIn: 1, FadeOut: 1},
		},
	}
}

func exprFrame(p *expressionPlayer, base []float32, dt float64) []float32 {
	v := append([]float32(nil), base...)
	p.advance(dt)
	p.apply(v)
	p.finishUpdate()
	return v
}

func TestExpressionFormulas(t *testing.T) {
	p := newExpressionPlayer(exprModel())
	p.set(0)
	base := []float32{2, 4, 8}
	exprFrame(p, base, 0.25) // starts, weight 0
	v := exprFrame(p, base, 0.25)
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

// TestExpressionSwitchAndNeutral: the previous expression fades out with its
// own time once the next update ran; an empty expression is a neutral reset.
func TestExpressionSwitchAndNeutral(t *testing.T) {
	p := newExpressionPlayer(exprModel())
	p.set(0)
	base := []float32{2, 4, 8}
	for range 6 {
		exprFrame(p, base, 0.25)
	}
	p.set(2) // neutral
	v := exprFrame(p, base, 0.25)
	if v[0] != 12 {
		t.Errorf("switch frame: %v, want 12 (fade-out starts after this update)", v[0])
	}
	v = exprFrame(p, base, 0.25)
	if w := easeSine(0.75); !near(float64(v[0]), 2+10*w, 1e-5) {
		t.Errorf("fading out: %v, want %v", v[0], 2+10*w)
	}
	for range 5 {
		v = exprFrame(p, base, 0.25)
	}
	if v[0] != 2 || v[1] != 4 || v[2] != 8 {
		t.Errorf("after neutral reset: %v, want the base", v)
	}
	if got := p.playing(nil); len(got) != 1 || got[0] != 2 {
		t.Errorf("playing = %v, want [2]", got)
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
