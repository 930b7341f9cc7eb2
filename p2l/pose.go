package p2l

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// This file is the POSE step, Cubism's CubismPose: in each group one part is
// shown; the chosen part fades in over FadeIn seconds and the others fade out
// by Cubism's rule (Phi = 0.5, back-opacity threshold 0.15); linked parts
// copy the opacity of their entry. Initially each group shows its first part.
// The arithmetic is the model's Playback: float32 as pose.rs, or float64.

const (
	posePhi           = 0.5
	poseBackThreshold = 0.15
)

type poseState struct {
	a        arith
	pose     *p2lrt.Pose
	opacity  []float32 // per model part; 1 for parts in no group
	selected []int     // chosen entry per group
	// slot (PlaybackCubism; nil otherwise) is per part the value of the
	// "non-existent parameter" of the part's id, which the clips'
	// part-opacity curves and ShowPose write and which chooses the visible
	// entry of each group (CubismPose.doFade).
	slot []float32
}

func newPoseState(m *Model) *poseState {
	s := &poseState{a: arithOf(m), pose: m.file.Pose, opacity: make([]float32, len(m.file.Parts))}
	if m.file.Pose != nil {
		s.selected = make([]int, len(m.file.Pose.Groups))
	}
	if m.Playback() == PlaybackCubism {
		s.slot = make([]float32, len(m.file.Parts))
	}
	s.reset()
	return s
}

// reset shows the first part of every group at full opacity and hides the
// others (Cubism's Reset, the reference's PosePlayer::new); for Cubism the
// slots of each group's first part are 1, those of the others 0.
func (s *poseState) reset() {
	initialPoseOpacity(s.pose, s.opacity)
	for g := range s.selected {
		s.selected[g] = 0
	}
	if s.slot != nil && s.pose != nil {
		for _, g := range s.pose.Groups {
			for j, e := range g.Entries {
				if e.Part >= 0 && e.Part < len(s.slot) {
					s.slot[e.Part] = float32(min(1, max(0, 1-j)))
				}
			}
		}
	}
}

// initialPoseOpacity sets op (one per part) to the pose's starting state:
// 1 for parts in no group, each group's first part (and its links) 1, the
// other parts of a group (and theirs) 0.
func initialPoseOpacity(p *p2lrt.Pose, op []float32) {
	for i := range op {
		op[i] = 1
	}
	if p == nil {
		return
	}
	set := func(part int, v float32) {
		if part >= 0 && part < len(op) {
			op[part] = v
		}
	}
	for _, g := range p.Groups {
		for j, e := range g.Entries {
			v := float32(0)
			if j == 0 {
				v = 1
			}
			set(e.Part, v)
			for _, l := range e.Linked {
				set(l, v)
			}
		}
	}
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
	if s.slot != nil {
		for j, e := range s.pose.Groups[group].Entries {
			if e.Part >= 0 && e.Part < len(s.slot) {
				s.slot[e.Part] = 0
				if j == entry {
					s.slot[e.Part] = 1
				}
			}
		}
	}
	return true
}

// update fades every group by dt seconds (the reference's
// PosePlayer::update, Cubism's CubismPose.doFade): the shown part's
// opacity grows by dt/FadeIn (at once when FadeIn ≤ 0; it stays as it is
// for dt ≤ 0), every other part may show only as much as the back-opacity
// rule leaves, and linked parts copy their entry. As in the reference,
// each entry's links are written right after the entry, in group and
// entry order, so a part that is a link of one entry and an entry of its
// own (or linked twice) ends with the last write: a link of the shown
// entry that is also a later hidden entry fades out with that entry.
func (s *poseState) update(dt float64) {
	if s.pose == nil {
		return
	}
	if s.slot != nil {
		s.updateCubism(max(dt, 0))
		return
	}
	a := s.a
	dt = a.r(dt) // the reference's p2l_update takes a float
	fadeTime := float64(s.pose.FadeIn)
	back := a.r(poseBackThreshold)
	for g := range s.pose.Groups {
		es := s.pose.Groups[g].Entries
		if len(es) == 0 {
			continue
		}
		vis := s.selected[g]
		newOp := float64(s.get(es[vis].Part))
		switch {
		case !(dt > 0):
		case fadeTime > 0:
			newOp = min(1, a.r(newOp+a.r(dt/fadeTime)))
		default:
			newOp = 1
		}
		var a1 float64
		if newOp < posePhi {
			a1 = a.r(a.r(a.r(newOp*(posePhi-1))/posePhi) + 1)
		} else {
			a1 = a.r(a.r(a.r(1-newOp)*posePhi) / (1 - posePhi))
		}
		if a.r(a.r(1-a1)*a.r(1-newOp)) > back {
			a1 = a.r(1 - a.r(back/a.r(1-newOp)))
		}
		a1 = max(a1, 0)
		for j, e := range es {
			o := float32(newOp)
			if j != vis {
				o = min(s.get(e.Part), float32(a1))
			}
			s.set(e.Part, o)
			for _, l := range e.Linked {
				s.set(l, o)
			}
		}
	}
}

// poseSlotEpsilon is the slot value above which Cubism's pose counts a
// part as shown (CubismPose Epsilon).
const poseSlotEpsilon = 0.001

// updateCubism is CubismPose.updateParameters (cubismpose.ts) in float64:
// in each group the visible entry is the first whose slot is above 0.001
// (see poseState.slot); its opacity grows by dt/FadeIn (1 at once when
// FadeIn is 0, whatever dt), the others follow the back-opacity rule; when
// no slot of a group is above 0.001 the first group shows its first entry
// and every part of any other group is hidden (the framework takes entry 0
// of its whole list, which belongs to the first group). Linked parts copy
// their entry's opacity after all groups (copyPartOpacities).
func (s *poseState) updateCubism(dt float64) {
	fadeTime := float64(s.pose.FadeIn)
	for g := range s.pose.Groups {
		es := s.pose.Groups[g].Entries
		vis, newOp := -1, 1.0
		for j, e := range es {
			if !(float64(s.slotOf(e.Part)) > poseSlotEpsilon) {
				continue
			}
			if vis >= 0 {
				break
			}
			vis = j
			if fadeTime == 0 {
				newOp = 1
				continue
			}
			newOp = min(float64(s.get(e.Part))+dt/fadeTime, 1)
		}
		if vis < 0 {
			newOp = 1
			if g == 0 {
				vis = 0
			}
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
		for j, e := range es {
			if j == vis {
				s.set(e.Part, float32(newOp))
			} else {
				s.set(e.Part, float32(min(float64(s.get(e.Part)), a1)))
			}
		}
	}
	for _, g := range s.pose.Groups {
		for _, e := range g.Entries {
			for _, l := range e.Linked {
				s.set(l, s.get(e.Part))
			}
		}
	}
}

// slotOf is part's slot (0 out of range).
func (s *poseState) slotOf(part int) float32 {
	if part >= 0 && part < len(s.slot) {
		return s.slot[part]
	}
	return 0
}
