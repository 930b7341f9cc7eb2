package ebitenp2l

import (
	"runtime"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cputime"
	"github.com/psd2live/p2l-ebiten/internal/rigframe"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// BenchmarkUpdateBoxes is the cost of the canvas boxes of a crowd of 100
// synthetic characters where Character.Update computes them (keepBoxes):
// "update" computes each character's right after its evaluation, "draw"
// all of them after every character is evaluated (as the draw did before,
// when the positions have left the CPU's caches), "none" only evaluates.
// Thread CPU of one frame's evaluations and boxes.
func BenchmarkUpdateBoxes(b *testing.B) {
	model := synth.MustModel(synth.Character(1))
	var rigs []*p2l.Rig
	for range 100 {
		rigs = append(rigs, model.NewRig())
	}
	vcs := make([]vertexCache, 100)
	for i := range vcs {
		vcs[i].grow(model.Meshes().Len())
	}
	boxes := func(k int) { vcs[k].keepDrawn(rigs[k], rigframe.Frame{Rig: rigs[k]}, rigframe.Frame{Rig: rigs[k]}) }
	for _, mode := range []string{"none", "draw", "update"} {
		hot := mode == "update"
		b.Run(mode, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var tot int64
			for range b.N {
				c0 := cputime.Thread()
				for k, r := range rigs {
					r.Update(1.0 / 60)
					if hot {
						boxes(k)
					}
				}
				if mode == "draw" {
					for k := range rigs {
						boxes(k)
					}
				}
				tot += int64(cputime.Thread() - c0)
			}
			b.ReportMetric(float64(tot)/float64(b.N), "cpu-ns/op")
		})
	}
}
