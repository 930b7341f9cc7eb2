package cubism

import (
	"os"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
)

// BenchmarkSampleMoc, per sample: reading the .moc3's bytes (Read),
// reading and preparing it (ReadMoc, which lowers, validates and evaluates
// once, then a rig's first Evaluate: Prepare), and a steady-state Evaluate
// with every parameter moving (Evaluate). docs/PERFORMANCE.md, "Cubism
// models", compares them.
func BenchmarkSampleMoc(b *testing.B) {
	for _, name := range cubismsamples.Names {
		path := cubismsamples.Moc(b, name)
		b.Run(name+"/Read", func(b *testing.B) {
			for b.Loop() {
				if _, err := os.ReadFile(path); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/Prepare", func(b *testing.B) {
			for b.Loop() {
				data, err := os.ReadFile(path)
				if err != nil {
					b.Fatal(err)
				}
				m, err := ReadMoc(data)
				if err != nil {
					b.Fatal(err)
				}
				r := m.NewRig()
				r.Evaluate()
			}
		})
		b.Run(name+"/Evaluate", func(b *testing.B) {
			data, _ := os.ReadFile(path)
			m, err := ReadMoc(data)
			if err != nil {
				b.Fatal(err)
			}
			r := m.NewRig()
			frame := 0
			for b.Loop() {
				frame++
				for i, p := range m.Parameters {
					f := float32((frame*7+i*3)%11) / 10
					r.SetParameter(i, p.Min+f*(p.Max-p.Min))
				}
				r.Evaluate()
			}
		})
	}
}
