package p2l_test

import (
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// animatedRig is the character-scale synthetic model with everything
// running: a looping clip, an expression, all behaviors and physics.
func animatedRig(tb testing.TB) *p2l.Rig {
	m := p2l.ModelForTest(synth.Character(1))
	r := m.NewRig()
	if r.Err() != nil {
		tb.Fatal(r.Err())
	}
	r.Layer(0).Start(m.ClipIndex("Idle"))
	r.Expressions().Set(m.ExpressionIndex("Smile"))
	r.SetBehaviors(p2l.AllBehaviors)
	r.LookAt(0.5, -0.3)
	r.LipSync(0.4, [5]float32{})
	for range 120 { // reach steady state (fades done, queues settled)
		r.Update(1.0 / 60)
	}
	return r
}

func TestUpdateAllocs(t *testing.T) {
	r := animatedRig(t)
	n := testing.AllocsPerRun(200, func() {
		r.LipSync(0.5, [5]float32{0.2, 0, 0.3})
		r.Update(1.0 / 60)
	})
	if n != 0 {
		t.Errorf("Update allocates %v times per frame, want 0", n)
	}
}

func BenchmarkUpdate(b *testing.B) {
	r := animatedRig(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.Update(1.0 / 60)
	}
}

// BenchmarkAnimate is BenchmarkUpdate without the evaluation: clips,
// expression, behaviors and physics alone.
func BenchmarkAnimate(b *testing.B) {
	r := animatedRig(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.AnimateForTest(1.0 / 60)
	}
}
