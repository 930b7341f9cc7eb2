package core

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// Frame pacing.
//
// The game ticks at the display's rate (Ebitengine's 60 TPS). While the
// character is busy (a clip or expression fade running, a finger down, lip
// sync open, the gaze settling after a change, or a physics output moving
// faster than settleSpeed) every tick updates the rig and the frame is
// redrawn. After it has been quiet for quietTime the core is idle: the
// ticks accumulate their time and the rig is updated only idleHz times a
// second with the accumulated dt, and the game skips drawing the frames in
// between (the screen is not cleared, so the last frame stays). Breathing
// and blinking then run at idleHz: the eyelids close in about two idle
// frames instead of six, and breathing moves in visible steps if idleHz is
// low. Any activity returns to the full rate on the next tick, since input
// and API calls are still handled every tick. idleHz = 0 freezes the pose
// entirely while idle. What this saves is the evaluation and the GPU work
// of drawing the character; the present of the retained frame each vsync
// remains.
const (
	DefaultIdleHz = 20
	// settleSpeed is the physics output speed, in parameter ranges per
	// second, under which the pendulums count as at rest. Measured on the
	// default character: breathing alone moves the hair outputs at up to
	// 0.03 range/s, a head turn at 2 range/s with a ring-down above 0.04
	// for about a second. At 20 Hz an output at 0.05 range/s moves 0.25 %
	// of its range per idle frame, which does not show as stepping.
	settleSpeed = 0.05
	quietTime   = 0.5
)

type pacer struct {
	idleHz float64
	// awake counts down the seconds of forced full rate after a call.
	awake float64
	// quiet is how long nothing has been active.
	quiet float64
	// lip: lip sync is open.
	lip bool
	// acc is the time accumulated while idle, not yet given to the rig.
	acc float64

	outputs []int     // physics output parameters
	ranges  []float64 // their ranges (max − min), > 0
	last    []float32 // their values after the previous update
	moving  bool

	// updates counts rig updates (for tests and the benchmark figures).
	updates int
}

func defaultPacer() pacer { return pacer{idleHz: DefaultIdleHz} }

// reset prepares for a new model: the physics outputs it watches are those
// of the PHYS groups.
func (p *pacer) reset(m *p2l.Model) {
	p.awake, p.quiet, p.acc, p.lip, p.moving = wakeGaze, 0, 0, false, true
	p.outputs, p.ranges, p.last = p.outputs[:0], p.ranges[:0], p.last[:0]
	seen := make(map[int]bool)
	for _, g := range m.Physics().Groups {
		for _, o := range g.Outputs {
			if o.Parameter < 0 || o.Parameter >= m.Parameters().Len() || seen[o.Parameter] {
				continue
			}
			seen[o.Parameter] = true
			pr := m.Parameters().At(o.Parameter)
			rg := float64(pr.Max) - float64(pr.Min)
			if !(rg > 0) {
				continue
			}
			p.outputs = append(p.outputs, o.Parameter)
			p.ranges = append(p.ranges, rg)
			p.last = append(p.last, float32(math.NaN()))
		}
	}
}

func (p *pacer) wake(d float64) {
	p.awake = max(p.awake, d)
	p.quiet = 0
}

// step decides for one tick of dt seconds whether to update the rig and by
// how much. busy is the activity the pacer does not track itself (clips,
// touch).
func (p *pacer) step(dt float64, busy bool) (update bool, by float64) {
	p.awake = max(0, p.awake-dt)
	if busy || p.lip || p.moving || p.awake > 0 {
		p.quiet = 0
	} else {
		p.quiet += dt
	}
	p.acc += dt
	if p.quiet < quietTime {
		by, p.acc = p.acc, 0
		return true, by
	}
	if p.idleHz <= 0 {
		p.acc = 0 // frozen: the skipped time is dropped, not replayed later
		return false, 0
	}
	if p.acc+1e-9 < 1/p.idleHz {
		return false, 0
	}
	by, p.acc = p.acc, 0
	return true, by
}

// observe measures the physics outputs after an update of dt seconds.
func (p *pacer) observe(r Rig, dt float64) {
	p.updates++
	p.moving = false
	for k, i := range p.outputs {
		v := r.Current(i)
		d := math.Abs(float64(v) - float64(p.last[k]))
		// NaN (first update) counts as moving.
		if !(d <= settleSpeed*p.ranges[k]*dt) {
			p.moving = true
		}
		p.last[k] = v
	}
}
