package cubism

import (
	"os"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
)

// TestSampleEvaluateAllocs: evaluating a lowered sample allocates nothing
// in steady state, whatever the parameters do between evaluations (every
// parameter moves every frame, so every stage runs).
func TestSampleEvaluateAllocs(t *testing.T) {
	for _, name := range cubismsamples.Names {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(cubismsamples.Moc(t, name))
			if err != nil {
				t.Fatal(err)
			}
			m, err := readMocModel(data)
			if err != nil {
				t.Fatal(err)
			}
			r := m.NewRig()
			frame := 0
			step := func() {
				frame++
				for i, p := range m.Parameters().All() {
					f := float32((frame*7+i*3)%11) / 10
					r.SetParameter(i, p.Min+f*(p.Max-p.Min))
				}
				r.Evaluate()
			}
			for range 3 { // warm up: every scratch buffer at its size
				step()
			}
			if a := testing.AllocsPerRun(20, step); a != 0 {
				t.Errorf("%v allocations per evaluation", a)
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
