package p2l_test

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/alloctest"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// TestCheckedRigIsNew: the rig of the trial evaluation of NewModel and
// Load is the next NewRig's, and must be
// indistinguishable from a new rig: nothing before its first evaluation
// (Revision 0, no vertices, no render order), every change bit and
// revision 1 after it, then the same outputs, change flags and revisions
// as a new rig through poses that move parameters, bit for bit. That the
// rig is handed over at all shows in what NewRig allocates.
func TestCheckedRigIsNew(t *testing.T) {
	data, err := os.ReadFile("../assets/default.p2lrt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		model func() *p2l.Model
	}{
		{"synth, NewModel", func() *p2l.Model {
			m, err := p2l.NewModel(synth.Character(1))
			if err != nil {
				t.Fatal(err)
			}
			return m
		}},
		{"default, Load", func() *p2l.Model {
			m, err := p2l.Load(data)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Mallocs counts the whole process, so a stray allocation of
			// another goroutine can spoil one try: three tries.
			var m *p2l.Model
			var kept, fresh *p2l.Rig
			var a uint64
			for range 3 {
				m = c.model()
				if a = alloctest.Mallocs(func() { kept = m.NewRig() }); a <= 1 {
					break
				}
			}
			if a > 1 {
				t.Errorf("the first NewRig after the trial evaluation allocated %d times: it did not take the checked rig", a)
			}
			if a := alloctest.Mallocs(func() { fresh = m.NewRig() }); a < 10 {
				t.Errorf("a second NewRig allocated %d times: a rig was handed over twice", a)
			}
			if kept.Model() != m {
				t.Fatal("the handed-over rig does not name its model")
			}
			compareRigs(t, "before the first evaluation", m, kept, fresh)
			pose := make([]float32, m.Parameters().Len())
			for i, p := range m.Parameters().All() {
				pose[i] = p.Default
			}
			for step := range 6 { // the default pose, then a quarter of the parameters moving
				for i, p := range m.Parameters().All() {
					if step > 0 && (i+step)%4 == 0 {
						pose[i] = p.Min + (p.Max-p.Min)*float32((i+step)%7)/6
					}
				}
				for _, r := range []*p2l.Rig{kept, fresh} {
					r.SetParameterValues(pose)
					r.Evaluate()
				}
				compareRigs(t, fmt.Sprintf("evaluation %d", step), m, kept, fresh)
			}
			for range 3 { // animation too
				kept.Update(1.0 / 60)
				fresh.Update(1.0 / 60)
				compareRigs(t, "update", m, kept, fresh)
			}
		})
	}
}

// compareRigs fails unless a and b report the same outputs, change flags
// and revisions, float bits compared.
func compareRigs(t *testing.T, when string, m *p2l.Model, a, b *p2l.Rig) {
	t.Helper()
	if a.Err() != nil || b.Err() != nil {
		t.Fatalf("%s: %v, %v", when, a.Err(), b.Err())
	}
	if a.Revision() != b.Revision() {
		t.Fatalf("%s: Revision %d, a new rig's %d", when, a.Revision(), b.Revision())
	}
	if !slices.Equal(a.RenderOrder(), b.RenderOrder()) || !slices.Equal(a.RenderCommands(), b.RenderCommands()) {
		t.Fatalf("%s: render order or commands differ from a new rig's", when)
	}
	for i := range m.Meshes().Len() {
		am, as := a.Mesh(i).Colors()
		bm, bs := b.Mesh(i).Colors()
		switch {
		case !sameBits(a.Mesh(i).Vertices(), b.Mesh(i).Vertices()) || (a.Mesh(i).Vertices() == nil) != (b.Mesh(i).Vertices() == nil):
			t.Fatalf("%s: mesh %d: vertices differ from a new rig's", when, i)
		case !sameBits([]float32{a.Mesh(i).Opacity(), a.Mesh(i).DrawOrder()}, []float32{b.Mesh(i).Opacity(), b.Mesh(i).DrawOrder()}) ||
			!sameBits(am[:], bm[:]) || !sameBits(as[:], bs[:]) || a.Mesh(i).Visible() != b.Mesh(i).Visible():
			t.Fatalf("%s: mesh %d: properties differ from a new rig's", when, i)
		case a.Mesh(i).Changes() != b.Mesh(i).Changes():
			t.Fatalf("%s: mesh %d: changes %b, a new rig's %b", when, i, a.Mesh(i).Changes(), b.Mesh(i).Changes())
		case a.Mesh(i).Revision() != b.Mesh(i).Revision():
			t.Fatalf("%s: mesh %d: revision %d, a new rig's %d", when, i, a.Mesh(i).Revision(), b.Mesh(i).Revision())
		}
	}
}
