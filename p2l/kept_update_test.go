package p2l

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestKeptResultsUnderUpdate drives two rigs of the default character with
// the same calls — clips, expressions, physics, host parameters, opacities
// and colours, the advanced mode switched on and off (behaviors off) — one keeping the
// results of what did not change, its twin made to evaluate everything
// every time (nothing to compare with), and checks after every update
// that they agree bit for bit: vertices, properties, render commands,
// change flags and revisions.
func TestKeptResultsUnderUpdate(t *testing.T) {
	data, err := os.ReadFile("../assets/default.p2lrt")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	kept, full := m.NewRig(), m.NewRig()
	// Behaviors off: their clock is shared by all rigs (one update of each
	// would see two different times) and blinks differ from rig to rig.
	kept.SetBehaviors(0)
	full.SetBehaviors(0)
	rng := rand.New(rand.NewPCG(3, 4))
	keptMeshes, advanced := 0, 0
	for step := range 400 {
		// One random call, made on both rigs alike.
		var call func(r *Rig)
		switch k := rng.IntN(12); {
		case k == 0 && len(m.file.Clips) > 0:
			c := rng.IntN(len(m.file.Clips))
			call = func(r *Rig) { r.Layer(0).Start(c) }
		case k == 1 && len(m.file.Expressions) > 0:
			e := rng.IntN(len(m.file.Expressions))
			call = func(r *Rig) { r.Expressions().Set(e) }
		case k == 2:
			i, p := rng.IntN(len(m.file.Parameters)), rng.Float32()
			call = func(r *Rig) {
				pr := m.file.Parameters[i]
				r.SetParameter(i, pr.Min+(pr.Max-pr.Min)*p)
			}
		case k == 3 && len(m.file.Parts) > 0:
			i, a := rng.IntN(len(m.file.Parts)), rng.Float32()
			call = func(r *Rig) { r.Part(i).SetHostOpacity(a) }
		case k == 4:
			i := rng.IntN(len(m.file.Meshes))
			call = func(r *Rig) { r.Mesh(i).SetColors(p2lrt.Color{1, 0.5, 0.5}, p2lrt.Black) }
		case k == 6:
			call = func(r *Rig) { r.Layer(0).Stop() }
		}
		if step%50 == 25 { // advanced mode on for 50 updates, off for 50
			on := Features(0)
			if step%100 == 25 {
				on = 0xffff
			}
			call = func(r *Rig) { r.SetAdvanced(on) } // it evaluates
		}
		if call != nil {
			call(kept)
			full.lastIn.valid = false
			call(full)
		}
		dt := 1.0 / 60
		if step%7 == 3 {
			dt = 0 // an update that moves nothing
		}
		full.lastIn.valid = false
		kept.Update(dt)
		full.Update(dt)
		if kept.Err() != nil || full.Err() != nil {
			t.Fatal(kept.Err(), full.Err())
		}
		if kept.adv != nil {
			advanced++
		}
		for i := range m.file.Meshes {
			if !kept.meshMoved[i] {
				keptMeshes++
			}
		}
		for i := range m.file.Meshes {
			if !bitsSame(kept.Mesh(i).Vertices(), full.Mesh(i).Vertices()) {
				t.Fatalf("step %d mesh %d: vertices differ from a full evaluation", step, i)
			}
			km, ks := kept.Mesh(i).Colors()
			fm, fs := full.Mesh(i).Colors()
			if !bitsSame([]float32{kept.Mesh(i).Opacity(), kept.Mesh(i).DrawOrder()}, []float32{full.Mesh(i).Opacity(), full.Mesh(i).DrawOrder()}) ||
				km != fm || ks != fs || kept.Mesh(i).Changes() != full.Mesh(i).Changes() || kept.Mesh(i).Revision() != full.Mesh(i).Revision() {
				t.Fatalf("step %d mesh %d: properties, change flags or revision differ from a full evaluation", step, i)
			}
		}
		if !slices.Equal(kept.RenderCommands(), full.RenderCommands()) || kept.Revision() != full.Revision() {
			t.Fatalf("step %d: render commands or revision differ from a full evaluation", step)
		}
	}
	if keptMeshes == 0 || advanced == 0 {
		t.Fatalf("%d mesh evaluations kept, %d updates in advanced mode: the test does not exercise both", keptMeshes, advanced)
	}
	t.Logf("%d mesh evaluations kept their vertices, %d updates in advanced mode", keptMeshes, advanced)
}

// bitsSame reports whether a and b hold the same float32 bits.
func bitsSame(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}
