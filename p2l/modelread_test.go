package p2l_test

import (
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestModelReadAPI: a model's records are read through List (Len, At, All)
// and by value; what a reader does to a returned record does not reach the
// model; At out of range panics as a slice index does; an optional chunk
// says whether the file has it.
func TestModelReadAPI(t *testing.T) {
	f := &p2lrt.File{Canvas: p2lrt.Canvas{Width: 10, Height: 20, PixelsPerUnit: -1}, Draw: p2lrt.DrawGroup{Part: -1},
		Parameters: []p2lrt.Parameter{{ID: "a", Min: 0, Max: 1}, {ID: "b", Min: -1, Max: 1}}}
	m, err := p2l.NewModel(f)
	if err != nil {
		t.Fatal(err)
	}
	ps := m.Parameters()
	if ps.Len() != 2 || ps.At(0).ID != "a" || ps.At(1).ID != "b" || ps.At(1).Min != -1 {
		t.Fatalf("parameters: len %d, %+v %+v", ps.Len(), ps.At(0), ps.At(1))
	}
	var ids []string
	for i, p := range ps.All() {
		ids = append(ids, string(rune('0'+i))+p.ID)
	}
	if strings.Join(ids, " ") != "0a 1b" {
		t.Errorf("All yielded %v, want [0a 1b]", ids)
	}
	for i := range ps.All() {
		if i > 0 {
			t.Fatal("All went on after the loop broke")
		}
		break
	}
	p := ps.At(0)
	p.ID, p.Max = "changed", 9
	if q := m.Parameters().At(0); q.ID != "a" || q.Max != 1 {
		t.Errorf("a change of a returned record reached the model: %+v", q)
	}
	if c := m.Canvas(); c.Width != 10 || c.Height != 20 {
		t.Errorf("canvas %+v", c)
	}
	if msg := p2l.PanicMessage(func() { ps.At(2) }); !strings.Contains(msg, "index out of range [2] with length 2") {
		t.Errorf("At(2) of 2 records: panic %q, want a slice index's", msg)
	}
	if _, ok := m.Pose(); ok {
		t.Error("a file without POSE gave a pose")
	}
	f.Pose = &p2lrt.Pose{FadeIn: 0.5}
	if _, ok := m.Pose(); ok {
		t.Error("a POSE added to the file after NewModel reached the model")
	}
	withPose, err := p2l.NewModel(f)
	if err != nil {
		t.Fatal(err)
	}
	if pose, ok := withPose.Pose(); !ok || pose.FadeIn != 0.5 {
		t.Errorf("pose %+v, %v; want FadeIn 0.5, true", pose, ok)
	}
}
