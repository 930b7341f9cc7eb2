package p2l

import (
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func TestPoseFade(t *testing.T) {
	m := &Model{file: &p2lrt.File{
		Parts: make([]p2lrt.Part, 5),
		Pose: &p2lrt.Pose{FadeIn: 0.5, Groups: []p2lrt.PoseGroup{
			{Entries: []p2lrt.PoseEntry{{Part: 0, Linked: []int{3}}, {Part: 1, Linked: []int{4}}}},
		}},
	}}
	s := newPoseState(m)
	// Initially the first part shows; part 2 is in no group.
	if want := []float32{1, 0, 1, 1, 0}; !equalF32(s.opacity, want) {
		t.Fatalf("initial %v, want %v", s.opacity, want)
	}
	s.show(0, 1)
	s.update(0.1)
	// New part: 0 + 0.1/0.5 = 0.2. Old part: a1 = 0.2·(0.5−1)/0.5 + 1 = 0.8;
	// back = (1 − 0.8)(1 − 0.2) = 0.16 > 0.15 ⇒ a1 = 1 − 0.15/0.8 = 0.8125.
	want := []float32{0.8125, 0.2, 1, 0.8125, 0.2}
	if !approxF32(s.opacity, want, 1e-6) {
		t.Fatalf("after 0.1 s %v, want %v", s.opacity, want)
	}
	s.update(0.2)
	// New 0.6 ≥ φ: a1 = (1 − 0.6)·0.5/0.5 = 0.4; back = 0.6·0.4 = 0.24 > 0.15
	// ⇒ a1 = 1 − 0.15/0.4 = 0.625; min(0.8125, 0.625).
	want = []float32{0.625, 0.6, 1, 0.625, 0.6}
	if !approxF32(s.opacity, want, 1e-6) {
		t.Fatalf("after 0.3 s %v, want %v", s.opacity, want)
	}
	s.update(0.3)
	want = []float32{0, 1, 1, 0, 1}
	if !approxF32(s.opacity, want, 1e-6) {
		t.Fatalf("after 0.6 s %v, want %v", s.opacity, want)
	}
	if s.show(0, 2) || s.show(1, 0) {
		t.Error("bad group or entry accepted")
	}
}

// TestPoseNoTime: an update of dt ≤ 0 leaves the shown part's opacity as
// it is, even with FadeIn 0, while the others still obey the back-opacity
// rule (the reference's pose.rs PosePlayer::update).
func TestPoseNoTime(t *testing.T) {
	m := &Model{file: &p2lrt.File{Parts: make([]p2lrt.Part, 2), Pose: &p2lrt.Pose{FadeIn: 0, Groups: []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: 0}, {Part: 1}}}}}}}
	s := newPoseState(m)
	s.show(0, 1)
	s.update(0)
	// Shown part 1 stays 0; a1 for 0 is 0·(−1) + 1 = 1, back 0: part 0 keeps 1.
	if want := []float32{1, 0}; !equalF32(s.opacity, want) {
		t.Fatalf("dt 0: %v, want %v", s.opacity, want)
	}
	s.update(1.0 / 60) // FadeIn 0: at once
	if want := []float32{0, 1}; !equalF32(s.opacity, want) {
		t.Fatalf("dt > 0 with FadeIn 0: %v, want %v", s.opacity, want)
	}
}

func equalF32(a, b []float32) bool { return approxF32(a, b, 0) }

func approxF32(a, b []float32, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(float64(a[i]), float64(b[i]), tol) {
			return false
		}
	}
	return true
}

// TestPoseLinkAlsoEntry: a part that is a link of the shown entry and an
// entry of its own (the full-model fixture's {Part 0, Linked [1]}, {Part
// 1}). The reference's pose.rs writes each entry's links right after the
// entry: part 0 shown → 1 (FadeIn 0.5: min(1 + dt/0.5, 1)), its link part
// 1 → 1; then entry 1, hidden: min(1, a1) with a1 = (1 − 1)·0.5/0.5 = 0, so
// part 1 ends at 0 (p2lref update FILE --dt 0.0166667 --frames 1 --stages 8
// on that fixture agrees: mesh 1 opacity 0). Our old pass copied links
// after all entries and left it at 1. The same for dt 0 (newOp stays 1).
// And the other way round: a hidden entry's link that is the shown entry
// later in the group is written last by the shown entry.
func TestPoseLinkAlsoEntry(t *testing.T) {
	for _, dt := range []float64{1.0 / 60, 0} {
		m := &Model{file: &p2lrt.File{Parts: make([]p2lrt.Part, 2), Pose: &p2lrt.Pose{FadeIn: 0.5, Groups: []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: 0, Linked: []int{1}}, {Part: 1}}}}}}}
		s := newPoseState(m)
		if want := []float32{1, 0}; !equalF32(s.opacity, want) {
			t.Errorf("initial %v, want %v (entry 1's 0 written after the link's 1)", s.opacity, want)
		}
		s.update(dt)
		if want := []float32{1, 0}; !equalF32(s.opacity, want) {
			t.Errorf("dt %v: %v, want %v", dt, s.opacity, want)
		}
	}
	// Entry 1 (part 1) shown: its own write comes after the link's.
	m := &Model{file: &p2lrt.File{Parts: make([]p2lrt.Part, 2), Pose: &p2lrt.Pose{FadeIn: 0.5, Groups: []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: 0, Linked: []int{1}}, {Part: 1}}}}}}}
	s := newPoseState(m)
	s.show(0, 1)
	s.update(0.1)
	// newOp = opacity[1] + 0.2 = 0.2 (part 1 starts at 0); a1 = 0.8125
	// (TestPoseFade); part 0: min(1, 0.8125), its link part 1 → 0.8125;
	// then part 1 itself, shown: 0.2.
	if want := []float32{0.8125, 0.2}; !approxF32(s.opacity, want, 1e-6) {
		t.Errorf("entry 1 shown, after 0.1 s: %v, want %v", s.opacity, want)
	}
}
