package p2l

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file is the layer a game plays clips through: clip groups (Cubism's
// motion groups: Idle, TapBody, ...) played by name at random or by index
// with a priority, an idle group that resumes on layer 0 whenever its clip
// ends or stops, hit areas mapped to groups by one convention (TapGroup),
// and pose groups switched by the part-opacity curves of the clips playing
// (SetClipPose), as Cubism's pose does. docs/ANIMATION.md §3a states the
// rules.

// Clip priorities, as Cubism's sample framework names them. LayerState.Play and
// PlayGroup start a clip when its priority is at least the layer's
// current one; the layer's priority returns to PriorityNone when its clip
// ends or stops. On a PlaybackCubism model's rig they follow the Cubism
// sample instead: PriorityForce always starts, any other priority only
// above the layer's (never at PriorityNone), and the layer's priority
// returns to PriorityNone once every clip of the layer finished.
const (
	PriorityNone   = 0 // Play; nothing is playing
	PriorityIdle   = 1 // the idle group (SetIdleGroup)
	PriorityNormal = 2 // reactions (Tap)
	PriorityForce  = 3 // what must not be interrupted
)

// ErrPriority is wrapped by the error of a clip refused because its layer
// plays a clip of higher priority.
var ErrPriority = errors.New("p2l: a clip of higher priority is playing")

// motionState is a rig's clip groups, idle group and clip-driven pose.
type motionState struct {
	groups  []string // distinct clip groups, in order of first clip
	members [][]int  // the clips of each group, in model order
	pcg     *rand.PCG
	rng     *rand.Rand
	idle    int // idle group, −1 for none
	// clipPose: the clips' part-opacity curves choose the pose entries.
	clipPose bool
	// poseCurves lists per clip its part-opacity curves on pose entries.
	poseCurves [][]poseCurve
}

// poseCurve is a part-opacity curve (TargetCurves index) of a clip on the
// part of a pose entry.
type poseCurve struct{ group, entry, curve int }

// motions returns the rig's motion state, creating it on first use.
func (r *Rig) motions() *motionState {
	a := r.anim()
	if a.motion != nil {
		return a.motion
	}
	m := r.model
	s := &motionState{idle: -1}
	for i := range m.file.Clips {
		g := m.file.Clips[i].Group
		if g == "" {
			continue
		}
		k := indexOf(s.groups, g)
		if k < 0 {
			s.groups = append(s.groups, g)
			s.members = append(s.members, nil)
			k = len(s.groups) - 1
		}
		s.members[k] = append(s.members[k], i)
	}
	s.pcg = rand.NewPCG(0x5eed, 0x9e3779b97f4a7c15)
	s.rng = rand.New(s.pcg)
	if m.file.Pose != nil {
		s.poseCurves = make([][]poseCurve, len(m.file.Clips))
		for ci := range m.file.Clips {
			for k, tc := range m.file.Clips[ci].TargetCurves {
				if tc.Target != p2lrt.TargetPartOpacity {
					continue
				}
				for gi, pg := range m.file.Pose.Groups {
					for ei, e := range pg.Entries {
						if e.Part == tc.Part {
							s.poseCurves[ci] = append(s.poseCurves[ci], poseCurve{gi, ei, k})
						}
					}
				}
			}
		}
	}
	a.motion = s
	return s
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// group finds a clip group by the lookup rule of names: exact, else
// ignoring case.
func (s *motionState) group(name string) int {
	if k := indexOf(s.groups, name); k >= 0 || name == "" {
		return k
	}
	for k, g := range s.groups {
		if strings.EqualFold(g, name) {
			return k
		}
	}
	return -1
}

// ClipGroups returns the model's clip groups (Clip.Group values), in the
// order of their first clip.
func (m *Model) ClipGroups() []string {
	if m == nil {
		return nil
	}
	var out []string
	for i := range m.file.Clips {
		if g := m.file.Clips[i].Group; g != "" && indexOf(out, g) < 0 {
			out = append(out, g)
		}
	}
	return out
}

// PlayGroup plays a clip of group on the layer with priority: clip index
// (0-based, in model order) of the group, or a random one for index < 0.
// The group is found as names are (docs/ANIMATION.md §3a: exact, else
// ignoring case). It returns the clip started, or −1 and an error: a
// *NotFoundError naming the model's groups for an unknown group, an error
// for an index beyond the group's clips, or one wrapping ErrPriority when a
// clip of higher priority plays on the layer.
func (s LayerState) PlayGroup(group string, index, priority int) (int, error) {
	r, layer := s.r, s.l
	ms := r.motions()
	k := ms.group(group)
	if k < 0 {
		return -1, &NotFoundError{Kind: "clip group", Name: group, Candidates: ms.groups}
	}
	clips := ms.members[k]
	if index >= len(clips) {
		return -1, fmt.Errorf("p2l: clip group %q has %d clips: no index %d", ms.groups[k], len(clips), index)
	}
	if index < 0 {
		index = ms.rng.IntN(len(clips))
	}
	c := clips[index]
	if !r.anim().clips.play(layer, c, priority) {
		return -1, fmt.Errorf("%w: clip %q (group %q) at priority %d, layer %d at %d", ErrPriority, r.model.file.Clips[c].ID, ms.groups[k], priority, layer, s.Priority())
	}
	return c, nil
}

// SetIdleGroup makes group the idle group: whenever layer 0 has no clip,
// or its clip is one-shot and has reached its end (and so whenever a clip
// started with PlayGroup or Tap ends or is stopped), a random clip of the
// idle group starts there with PriorityIdle on the next update. "" means
// no idle group. An unknown group is an error naming the model's groups.
func (r *Rig) SetIdleGroup(group string) error {
	s := r.motions()
	if group == "" {
		s.idle = -1
		return nil
	}
	k := s.group(group)
	if k < 0 {
		return &NotFoundError{Kind: "clip group", Name: group, Candidates: s.groups}
	}
	s.idle = k
	return nil
}

// IdleGroup returns the idle group, "" for none.
func (r *Rig) IdleGroup() string {
	if r.animation == nil || r.animation.motion == nil || r.animation.motion.idle < 0 {
		return ""
	}
	return r.animation.motion.groups[r.animation.motion.idle]
}

// SetMotionSeed restarts the random choice of PlayGroup and the idle group
// with seed (every rig starts from the same fixed seed).
func (r *Rig) SetMotionSeed(seed uint64) {
	r.motions().pcg.Seed(seed, 0x9e3779b97f4a7c15)
}

// resumeIdle starts the idle group on layer 0 when that layer has nothing
// moving: called before the clips advance.
func (s *motionState) resumeIdle(p *clipPlayer) {
	if s.idle < 0 {
		return
	}
	if p.cubism {
		// The Cubism sample (lappmodel.ts update): once every motion
		// finished, a random idle motion starts instead of updating the
		// motions, so it has its first update (time 0) on the next one.
		if !p.layerFinished(0) {
			return
		}
	} else if e := p.current(0); e != nil && !e.ended {
		return
	}
	clips := s.members[s.idle]
	if p.play(0, clips[s.rng.IntN(len(clips))], PriorityIdle) && p.cubism {
		L := &p.layers[0]
		L.entries[len(L.entries)-1].deferred = true
	}
}

// TapGroup returns the clip group a tap on hit area i plays by this
// package's one convention, Cubism's: "Tap" followed by the area's name,
// or, for an area without a name, by its id without a leading "HitArea"
// (so both {ID "HitAreaHead"} and {Name "Head"} give "TapHead"). It
// returns "" for an index out of range. Whether the model has such a group
// is for PlayGroup to say.
func (m *Model) TapGroup(i int) string {
	if m == nil || i < 0 || i >= len(m.file.HitAreas) {
		return ""
	}
	a := &m.file.HitAreas[i]
	if a.Name != "" {
		return "Tap" + a.Name
	}
	if s, ok := strings.CutPrefix(a.ID, "HitArea"); ok && s != "" {
		return "Tap" + s
	}
	return "Tap" + a.ID
}

// Tap reacts to a tap at the canvas point (x, y): the hit area there
// (HitTest) plays a random clip of its TapGroup on layer 0 with
// PriorityNormal. It returns the area (−1: none) and the clip started (−1:
// none: no area, the model has no such group, or a clip of higher
// priority plays).
func (r *Rig) Tap(x, y float32) (area, clip int) {
	area = r.HitTest(x, y)
	return area, r.TapArea(area)
}

// TapArea is Tap for a hit area the host has found itself (for example by
// drawn pixels, render.Renderer.HitTestAlpha): area plays a random clip of
// its TapGroup on layer 0 with PriorityNormal. It returns the clip started,
// −1 when none is (area −1, HitTest's "none"; no such group; or a clip of
// higher priority plays). Any other area out of range panics.
func (r *Rig) TapArea(area int) (clip int) {
	// A nil rig must panic for −1 too: Go 1.24 drops an unused load's nil
	// check, so the test of r is explicit.
	if area == -1 && r != nil {
		return -1
	}
	checkIndex("hit area", area, len(r.model.file.HitAreas))
	s := r.motions()
	k := s.group(r.model.TapGroup(area))
	if k < 0 {
		return -1
	}
	clips := s.members[k]
	c := clips[s.rng.IntN(len(clips))]
	if !r.anim().clips.play(0, c, PriorityNormal) {
		return -1
	}
	return c
}

// SetClipPose switches clip-driven pose switching on or off (off
// initially): while on, before each pose step the part-opacity curves of
// the newest clip of every layer (layers in order, a later one winning)
// choose each pose group's visible entry, the entry whose curve is highest
// at the clip's time (above 0.001; the first on ties), as Cubism's pose
// reads PartOpacity motion curves. Groups no playing clip has a curve for
// keep their entry (ShowPose). The curves still multiply the parts'
// opacity as always.
func (r *Rig) SetClipPose(on bool) {
	r.motions().clipPose = on
}

// ClipPose reports whether clip-driven pose switching is on.
func (r *Rig) ClipPose() bool {
	if r.animation == nil || r.animation.motion == nil {
		return false
	}
	return r.animation.motion.clipPose
}

// poseFromClips applies SetClipPose's rule.
func (s *motionState) poseFromClips(p *clipPlayer, pose *poseState) {
	if !s.clipPose || s.poseCurves == nil {
		return
	}
	for l := range p.layers {
		e := p.current(l)
		if e == nil || len(s.poseCurves[e.clip]) == 0 {
			continue
		}
		c := &p.model.file.Clips[e.clip]
		t := e.t
		for g := range pose.selected {
			best, bestV := -1, float32(0.001)
			for _, pc := range s.poseCurves[e.clip] {
				if pc.group != g {
					continue
				}
				if v := CurveValue(&c.TargetCurves[pc.curve].Curve, t); v > bestV {
					best, bestV = pc.entry, v
				}
			}
			if best >= 0 {
				pose.show(g, best)
			}
		}
	}
}
