package p2l

import "testing"

func TestPoseFade(t *testing.T) {
	m := &Model{
		Parts: make([]Part, 5),
		Pose: &Pose{FadeIn: 0.5, Groups: []PoseGroup{
			{Entries: []PoseEntry{{Part: 0, Linked: []int{3}}, {Part: 1, Linked: []int{4}}}},
		}},
	}
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
	m := &Model{Parts: make([]Part, 2), Pose: &Pose{FadeIn: 0, Groups: []PoseGroup{{Entries: []PoseEntry{{Part: 0}, {Part: 1}}}}}}
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
