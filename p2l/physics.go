package p2l

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file is the pendulum physics of the PHYS chunk. It follows the Cubism
// framework's CubismPhysics (physics3.json) step for step, quirks included,
// because RUNTIME.md ("物理") asks for Cubism's behaviour:
//
//   - inputs are normalized around the midpoint of the parameter's range (the
//     parameter default is ignored) and negated unless Reflect is set;
//   - the root translation is rotated by −angle reusing the already rotated x
//     when computing y;
//   - with a fixed step (Fps > 0) inputs are interpolated between frames and
//     outputs between the last two steps; without one, one step per frame and
//     the output lags one frame;
//   - only angle outputs are scaled; X and Y outputs have scale 0;
//   - more than 5 s of accumulated time is dropped;
//   - outputs are left alone until the first step has run (Cubism resolves
//     an output's parameter in its first step and skips it until then).
//
// Like the Web framework, time, particle state and intermediate values are
// float64 while parameter values and caches are float32. A model in
// PlaybackReference precision (playback.go: every model but a Cubism
// import) runs the reference's physics.rs instead: everything in float32,
// operation by operation in its order (its own formulas where they differ
// from Cubism's: to_radians, √ lengths, the position and velocity
// updates), glibc's float32 trigonometry, and the outputs written from the
// first update on (the interpolation of two zero outputs until a step has
// run). Zero-length
// vectors, which make Cubism divide by zero (NaN), are left unnormalized
// here instead.
//
// Work per update is bounded: Fps is at most MaxPhysicsFps (Load, Validate
// and the Cubism importer refuse more; a Model built in code with more steps
// at MaxPhysicsFps), so the 5 s rule allows at most
// physicsMaxDeltaTime·MaxPhysicsFps = 5000 fixed steps in one update, and
// the step loop stops there whatever the arithmetic (excess time dropped).

// MaxPhysicsFps is the largest physics step rate a model may ask for
// (p2lrt.MaxPhysicsFps).
const MaxPhysicsFps = p2lrt.MaxPhysicsFps

// MaxPhysicsSteps is the most fixed physics steps one update runs: the 5 s
// of catch-up Cubism allows at MaxPhysicsFps. Time beyond it is dropped.
const MaxPhysicsSteps = int(physicsMaxDeltaTime * MaxPhysicsFps)

const (
	physicsAirResistance     = 5.0
	physicsMaximumWeight     = 100.0
	physicsMovementThreshold = 0.001
	physicsMaxDeltaTime      = 5.0
)

// physicsParticle is the moving state of one pendulum vertex.
type physicsParticle struct {
	px, py float64 // position
	lx, ly float64 // position before the last step
	vx, vy float64 // velocity
	gx, gy float64 // gravity direction at the last step
}

// physicsState is the running physics of one rig.
type physicsState struct {
	a      arith
	groups []p2lrt.PhysicsGroup
	params []p2lrt.Parameter
	fps    float64

	particles []physicsParticle
	pBase     []int // first particle of each group
	oBase     []int // first output of each group
	cur, prev []float64

	inputCache []float32 // interpolated inputs of the last step
	cache      []float32 // inputs of the running step; outputs propagate through it
	remain     float64
	primed     bool // inputCache holds values
	// stepped reports that a step (or a stabilization) has run since the
	// state was created or reset; until then outputs are not written, as
	// Cubism leaves an output's parameter unresolved until its first step.
	stepped bool

	windX, windY float64

	// replaced marks groups replaced by a live simulation (advanced mode,
	// SIMS): they neither step nor write outputs.
	replaced []bool
}

func newPhysicsState(m *Model) *physicsState {
	s := &physicsState{
		a:          arithOf(m),
		groups:     m.file.Physics.Groups,
		params:     m.file.Parameters,
		fps:        physicsRate(m.file.Physics.Fps),
		pBase:      make([]int, len(m.file.Physics.Groups)),
		oBase:      make([]int, len(m.file.Physics.Groups)),
		inputCache: make([]float32, len(m.file.Parameters)),
		cache:      make([]float32, len(m.file.Parameters)),
		replaced:   make([]bool, len(m.file.Physics.Groups)),
	}
	np, no := 0, 0
	for g := range s.groups {
		s.pBase[g], s.oBase[g] = np, no
		np += len(s.groups[g].Segments) + 1 // the root and one vertex per segment
		no += len(s.groups[g].Outputs)
	}
	s.particles = make([]physicsParticle, np)
	s.cur = make([]float64, no)
	s.prev = make([]float64, no)
	s.reset()
	return s
}

// reset puts every pendulum straight down from the origin, as Cubism's
// Initialize: the root at (0, 0), particle k at (0, Σ length of segments
// 1..k), with zero velocity.
func (s *physicsState) reset() {
	for g := range s.groups {
		st := s.strand(g)
		y := 0.0
		for i := range st {
			if i > 0 {
				y = s.a.r(y + float64(s.groups[g].Segments[i-1].Length))
			}
			st[i] = physicsParticle{px: 0, py: y, lx: 0, ly: y, gx: 0, gy: 1}
		}
	}
	clear(s.cur)
	clear(s.prev)
	s.remain = 0
	s.primed = false
	s.stepped = false
}

// physicsRate is the step rate used for a PHYS fps: 0 (one step per update)
// for fps ≤ 0 or NaN, at most MaxPhysicsFps.
func physicsRate(fps float32) float64 {
	f := float64(fps)
	if !(f > 0) {
		return 0
	}
	return math.Min(f, MaxPhysicsFps)
}

// strand is the particle state of group g: the root, then one particle
// per segment.
func (s *physicsState) strand(g int) []physicsParticle {
	return s.particles[s.pBase[g] : s.pBase[g]+len(s.groups[g].Segments)+1]
}

// validParam reports whether i indexes a parameter.
func (s *physicsState) validParam(i int) bool { return i >= 0 && i < len(s.params) }

// physicsNormalize maps a parameter value to the group's normalized range around
// the midpoint of the parameter's range (Cubism's NormalizeParameterValue).
// In float32 arithmetic it is physics.rs normalize, each step rounded.
func (a arith) physicsNormalize(value, pmin, pmax, nmin, nmax, nmid float64, reflect bool) float64 {
	maxV := math.Max(pmax, pmin)
	if maxV < value {
		value = maxV
	}
	minV := math.Min(pmax, pmin)
	if minV > value {
		value = minV
	}
	minN := math.Min(nmin, nmax)
	maxN := math.Max(nmin, nmax)
	mid := a.r(minV + a.r(math.Abs(a.r(maxV-minV))/2))
	d := a.r(value - mid)
	result := 0.0
	switch {
	case d > 0:
		if l := a.r(maxV - mid); l != 0 {
			result = a.r(a.r(d*a.r(a.r(maxN-nmid)/l)) + nmid)
		}
	case d < 0:
		if l := a.r(minV - mid); l != 0 {
			result = a.r(a.r(d*a.r(a.r(minN-nmid)/l)) + nmid)
		}
	default:
		result = nmid
	}
	if reflect {
		return result
	}
	return -result
}

// groupInputs accumulates a group's inputs read from values and applies
// Cubism's rotation (which reuses the rotated x for y).
func (s *physicsState) groupInputs(g int, values []float32) (tx, ty, angle float64) {
	a := s.a
	grp := &s.groups[g]
	n := &grp.Normalization
	for _, in := range grp.Inputs {
		if !s.validParam(in.Parameter) {
			continue
		}
		p := &s.params[in.Parameter]
		w := a.r(float64(in.Weight) / physicsMaximumWeight)
		v := float64(values[in.Parameter])
		var sum *float64
		nmin, nmax, nmid := n.PositionMin, n.PositionMax, n.PositionDefault
		switch in.Source {
		case p2lrt.PhysicsX:
			sum = &tx
		case p2lrt.PhysicsY:
			sum = &ty
		case p2lrt.PhysicsAngle:
			sum, nmin, nmax, nmid = &angle, n.AngleMin, n.AngleMax, n.AngleDefault
		default:
			continue
		}
		nv := a.physicsNormalize(v, float64(p.Min), float64(p.Max), float64(nmin), float64(nmax), float64(nmid), in.Reflect)
		*sum = a.r(*sum + a.r(nv*w))
	}
	rad := a.radians(-angle)
	sin, cos := a.sin(rad), a.cos(rad)
	tx = a.r(a.r(tx*cos) - a.r(ty*sin))
	ty = a.r(a.r(tx*sin) + a.r(ty*cos)) // the quirk: tx is already rotated
	return tx, ty, angle
}

// directionToRadian is the signed angle from one direction to another,
// wrapped into [−π, π].
func (a arith) directionToRadian(fx, fy, tx, ty float64) float64 {
	r := a.r(a.atan2(ty, tx) - a.atan2(fy, fx))
	pi := a.r(math.Pi)
	for r < -pi {
		r = a.r(r + 2*pi)
	}
	for r > pi {
		r = a.r(r - 2*pi)
	}
	return r
}

// normalize2 scales (x, y) to unit length; a zero vector stays zero (Cubism
// would produce NaN).
// In float32 arithmetic the length is √(x² + y²) (physics.rs
// normalized), in float64 Cubism's pow(x² + y², 0.5).
func (a arith) normalize2(x, y float64) (float64, float64) {
	var l float64
	if a.f32 {
		l = a.r(math.Sqrt(a.r(a.r(x*x) + a.r(y*y))))
	} else {
		l = math.Pow(x*x+y*y, 0.5)
	}
	if l == 0 {
		return x, y
	}
	return a.r(x / l), a.r(y / l)
}

// gravityDirection is Cubism's RadianToDirection of the total angle,
// normalized: angle 0 points down (+y in physics space).
func (a arith) gravityDirection(angleDeg float64) (float64, float64) {
	r := a.radians(angleDeg)
	return a.normalize2(a.sin(r), a.cos(r))
}

// stepGroup advances group g by one step of h seconds (UpdateParticles).
func (s *physicsState) stepGroup(g int, tx, ty, angle, h float64) {
	a := s.a
	grp := &s.groups[g]
	st := s.strand(g)
	threshold := a.r(a.r(physicsMovementThreshold) * float64(grp.Normalization.PositionMax))
	st[0].px, st[0].py = tx, ty
	gx, gy := a.gravityDirection(angle)
	for i := 1; i < len(st); i++ {
		p, q, seg := &st[i], &st[i-1], &grp.Segments[i-1]
		acc := float64(seg.Acceleration)
		fx, fy := a.r(a.r(gx*acc)+s.windX), a.r(a.r(gy*acc)+s.windY)
		p.lx, p.ly = p.px, p.py
		delay := a.r(a.r(float64(seg.Delay)*h) * 30)
		dx, dy := a.r(p.px-q.px), a.r(p.py-q.py)
		r := a.r(a.directionToRadian(p.gx, p.gy, gx, gy) / physicsAirResistance)
		sin, cos := a.sin(r), a.cos(r)
		dx = a.r(a.r(cos*dx) - a.r(dy*sin))
		dy = a.r(a.r(sin*dx) + a.r(dy*cos)) // reuses the rotated dx, as Cubism
		p.px, p.py = a.r(q.px+dx), a.r(q.py+dy)
		if a.f32 {
			// physics.rs: position + velocity·delay + force·(delay·delay)
			dd := a.r(delay * delay)
			p.px = a.r(a.r(p.px+a.r(p.vx*delay)) + a.r(fx*dd))
			p.py = a.r(a.r(p.py+a.r(p.vy*delay)) + a.r(fy*dd))
		} else {
			p.px += p.vx*delay + fx*delay*delay
			p.py += p.vy*delay + fy*delay*delay
		}
		nx, ny := a.normalize2(a.r(p.px-q.px), a.r(p.py-q.py))
		rad := float64(seg.Length)
		p.px, p.py = a.r(q.px+a.r(nx*rad)), a.r(q.py+a.r(ny*rad))
		if math.Abs(p.px) < threshold {
			p.px = 0
		}
		if delay != 0 {
			mob := float64(seg.Mobility)
			if a.f32 {
				// physics.rs: (position − last)·(1/delay·mobility)
				k := a.r(a.r(1/delay) * mob)
				p.vx, p.vy = a.r(a.r(p.px-p.lx)*k), a.r(a.r(p.py-p.ly)*k)
			} else {
				p.vx = (p.px - p.lx) / delay * mob
				p.vy = (p.py - p.ly) / delay * mob
			}
		}
		p.gx, p.gy = gx, gy
	}
}

// stabilizeGroup puts group g at rest along its force direction
// (UpdateParticlesForStabilization).
func (s *physicsState) stabilizeGroup(g int, tx, ty, angle float64) {
	a := s.a
	grp := &s.groups[g]
	st := s.strand(g)
	threshold := a.r(a.r(physicsMovementThreshold) * float64(grp.Normalization.PositionMax))
	st[0].px, st[0].py = tx, ty
	gx, gy := a.gravityDirection(angle)
	for i := 1; i < len(st); i++ {
		p, q, seg := &st[i], &st[i-1], &grp.Segments[i-1]
		acc := float64(seg.Acceleration)
		fx, fy := a.r(a.r(gx*acc)+s.windX), a.r(a.r(gy*acc)+s.windY)
		if fx == 0 && fy == 0 {
			// No force (Cubism divides by zero): hang along gravity, as
			// the reference's physics.rs settle.
			fx, fy = gx, gy
		}
		fx, fy = a.normalize2(fx, fy)
		p.lx, p.ly = p.px, p.py
		p.vx, p.vy = 0, 0
		rad := float64(seg.Length)
		p.px, p.py = a.r(q.px+a.r(fx*rad)), a.r(q.py+a.r(fy*rad))
		if math.Abs(p.px) < threshold {
			p.px = 0
		}
		p.gx, p.gy = gx, gy
	}
}

// outputRaw is the unscaled value of output o of group g (GetValue), and
// false when its vertex is the root or out of range (Cubism skips it).
func (s *physicsState) outputRaw(g int, o *p2lrt.PhysicsOutput) (float64, bool) {
	n := len(s.groups[g].Segments) + 1
	k := o.Vertex
	if k < 1 || k >= n {
		return 0, false
	}
	a := s.a
	st := s.particles[s.pBase[g]:]
	tx, ty := a.r(st[k].px-st[k-1].px), a.r(st[k].py-st[k-1].py)
	var v float64
	switch o.Source {
	case p2lrt.PhysicsX:
		v = tx
	case p2lrt.PhysicsY:
		v = ty
	case p2lrt.PhysicsAngle:
		// The parent direction of particle 1 is −gravity, gravity being
		// Cubism's default option (0, −1).
		px, py := 0.0, 1.0
		if k >= 2 {
			px, py = a.r(st[k-1].px-st[k-2].px), a.r(st[k-1].py-st[k-2].py)
		}
		v = a.directionToRadian(px, py, tx, ty)
	}
	if o.Reflect {
		v = -v
	}
	return v, true
}

// applyOutput is Cubism's UpdateOutputParameterValue: scale (angles only),
// clamp to the parameter range, then blend by the output weight (in the
// reference's precision: physics.rs write_output, its range ordered).
func (s *physicsState) applyOutput(dst *float32, o *p2lrt.PhysicsOutput, raw float64) {
	a := s.a
	p := &s.params[o.Parameter]
	scale := 0.0 // Cubism never sets the translation scale
	if o.Source == p2lrt.PhysicsAngle {
		scale = float64(o.Scale)
	}
	lo, hi := float64(p.Min), float64(p.Max)
	if a.f32 {
		lo, hi = min(lo, hi), max(lo, hi)
	}
	v := a.r(a.r(raw) * scale)
	if v < lo {
		v = lo
	} else if v > hi {
		v = hi
	}
	w := a.r(float64(o.Weight) / physicsMaximumWeight)
	if w >= 1 {
		*dst = float32(v)
	} else {
		*dst = float32(a.r(float64(*dst)*a.r(1-w)) + a.r(v*w))
	}
}

// step runs physics for dt seconds on values (the parameter values of this
// frame, before clamping), writes the outputs into values and returns the
// number of fixed steps it ran.
func (s *physicsState) step(values []float32, dt float64) (steps int) {
	if len(s.groups) == 0 || !(dt > 0) {
		return 0
	}
	a := s.a
	dt = a.r(dt) // the reference's p2l_update takes a float
	s.remain = a.r(s.remain + dt)
	if s.remain > physicsMaxDeltaTime {
		s.remain = 0
	}
	if !s.primed {
		copy(s.inputCache, values)
		s.primed = true
	}
	h := dt
	if s.fps > 0 {
		h = a.r(1 / s.fps)
	}
	for ; s.remain >= h; steps++ {
		if steps == MaxPhysicsSteps {
			s.remain = 0 // unreachable with fps ≤ MaxPhysicsFps; drop the rest
			break
		}
		s.stepped = true
		copy(s.prev, s.cur)
		wIn := a.r(h / s.remain)
		for j := range s.cache {
			c := float32(a.r(float64(s.inputCache[j])*a.r(1-wIn)) + a.r(float64(values[j])*wIn))
			s.cache[j] = c
			s.inputCache[j] = c
		}
		for g := range s.groups {
			if s.replaced[g] {
				continue
			}
			tx, ty, angle := s.groupInputs(g, s.cache)
			s.stepGroup(g, tx, ty, angle, h)
			outs := s.groups[g].Outputs
			for i := range outs {
				o := &outs[i]
				if !s.validParam(o.Parameter) {
					continue
				}
				raw, ok := s.outputRaw(g, o)
				if !ok {
					continue
				}
				raw = a.r(raw) // physics.rs keeps it as f32
				s.cur[s.oBase[g]+i] = raw
				s.applyOutput(&s.cache[o.Parameter], o, raw)
			}
		}
		s.remain = a.r(s.remain - h)
	}
	s.interpolate(values, a.r(s.remain/h))
	return steps
}

// interpolate writes every output as prev·(1−α) + cur·α, once a step has
// run (Cubism), or from the first update on (the reference: the two
// outputs are 0 until a step has run, so the output writes 0, clamped and
// weighted). An output of the root or of no vertex is not written (the
// reference's physics.rs step_skipping; Cubism writes 0 there).
func (s *physicsState) interpolate(values []float32, alpha float64) {
	a := s.a
	if !s.stepped && !a.f32 {
		return
	}
	for g := range s.groups {
		if s.replaced[g] {
			continue
		}
		outs := s.groups[g].Outputs
		for i := range outs {
			o := &outs[i]
			if !s.validParam(o.Parameter) || o.Vertex < 1 || o.Vertex > len(s.groups[g].Segments) {
				continue
			}
			k := s.oBase[g] + i
			s.applyOutput(&values[o.Parameter], o, a.r(a.r(s.prev[k]*a.r(1-alpha))+a.r(s.cur[k]*alpha)))
		}
	}
}

// stabilize puts every pendulum at rest for the pose in values and writes
// the outputs into values (Cubism's Stabilization).
func (s *physicsState) stabilize(values []float32) {
	copy(s.cache, values)
	copy(s.inputCache, values)
	s.primed = true
	s.stepped = true
	for g := range s.groups {
		if s.replaced[g] {
			continue
		}
		tx, ty, angle := s.groupInputs(g, values)
		s.stabilizeGroup(g, tx, ty, angle)
		outs := s.groups[g].Outputs
		for i := range outs {
			o := &outs[i]
			if !s.validParam(o.Parameter) {
				continue
			}
			raw, ok := s.outputRaw(g, o)
			if !ok {
				continue
			}
			k := s.oBase[g] + i
			raw = s.a.r(raw)
			s.cur[k], s.prev[k] = raw, raw
			s.applyOutput(&values[o.Parameter], o, raw)
			s.cache[o.Parameter] = values[o.Parameter]
		}
	}
	if s.a.f32 {
		// physics.rs stabilize: the input history holds the outputs too,
		// and the accumulated time starts again.
		copy(s.inputCache, values)
		s.remain = 0
	}
}
