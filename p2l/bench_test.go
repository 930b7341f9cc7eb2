package p2l_test

import (
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/internal/synth"
)

func BenchmarkEvaluate(b *testing.B) {
	m := synth.Character(1)
	r := m.NewRig()
	r.Evaluate()
	if r.Err() != nil {
		b.Fatal(r.Err())
	}
	pa := m.ParameterIndex("ParamAngleX")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r.SetParameter(pa, float32(i%60-30))
		r.Evaluate()
	}
}
