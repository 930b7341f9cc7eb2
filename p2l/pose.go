package p2l

// This file is the POSE step, Cubism's CubismPose: in each group one part is
// shown; the chosen part fades in over FadeIn seconds and the others fade out
// by Cubism's rule (Phi = 0.5, back-opacity threshold 0.15); linked parts
// copy the opacity of their entry. Initially each group shows its first part.

const (
	posePhi           = 0.5
	poseBackThreshold = 0.15
)

type poseState struct {
	pose     *Pose
	opacity  []float32 // per model part; 1 for parts in no group
	selected []int     // chosen entry per group
}

func newPoseState(m *Model) *poseState {
	s := &poseState{pose: m.Pose, opacity: make([]float32, len(m.Parts))}
	if m.Pose != nil {
		s.selected = make([]int, len(m.Pose.Groups))
	}
	s.reset()
	return s
}

// reset shows the first part of every group at full opacity and hides the
// others (Cubism's Reset on the first update).
func (s *poseState) reset() {
	for i := range s.opacity {
		s.opacity[i] = 1
	}
	if s.pose == nil {
		return
	}
	for g := range s.pose.Groups {
		s.selected[g] = 0
		for j, e := range s.pose.Groups[g].Entries {
			v := float32(0)
			if j == 0 {
				v = 1
			}
			s.set(e.Part, v)
		}
	}
	s.copyLinks()
}

func (s *poseState) set(part int, v float32) {
	if part >= 0 && part < len(s.opacity) {
		s.opacity[part] = v
	}
}

func (s *poseState) get(part int) float32 {
	if part >= 0 && part < len(s.opacity) {
		return s.opacity[part]
	}
	return 0
}

// show chooses entry of group; it fades in on the following updates.
func (s *poseState) show(group, entry int) bool {
	if s.pose == nil || group < 0 || group >= len(s.pose.Groups) ||
		entry < 0 || entry >= len(s.pose.Groups[group].Entries) {
		return false
	}
	s.selected[group] = entry
	return true
}

// update fades every group by dt seconds.
func (s *poseState) update(dt float64) {
	if s.pose == nil {
		return
	}
	d := dt
	if !(d > 0) {
		d = 0
	}
	fadeTime := float64(s.pose.FadeIn)
	for g := range s.pose.Groups {
		es := s.pose.Groups[g].Entries
		if len(es) == 0 {
			continue
		}
		vis := s.selected[g]
		newOp := 1.0
		if fadeTime > 0 {
			newOp = min(1, float64(s.get(es[vis].Part))+d/fadeTime)
		}
		for j, e := range es {
			if j == vis {
				s.set(e.Part, float32(newOp))
				continue
			}
			var a1 float64
			if newOp < posePhi {
				a1 = newOp*(posePhi-1)/posePhi + 1
			} else {
				a1 = (1 - newOp) * posePhi / (1 - posePhi)
			}
			if back := (1 - a1) * (1 - newOp); back > poseBackThreshold {
				a1 = 1 - poseBackThreshold/(1-newOp)
			}
			if o := float64(s.get(e.Part)); a1 > o {
				a1 = o
			}
			s.set(e.Part, float32(a1))
		}
	}
	s.copyLinks()
}

func (s *poseState) copyLinks() {
	for g := range s.pose.Groups {
		for _, e := range s.pose.Groups[g].Entries {
			o := s.get(e.Part)
			for _, l := range e.Linked {
				s.set(l, o)
			}
		}
	}
}
