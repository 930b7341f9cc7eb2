// Package xpbd is the vertex simulation of the advanced mode (the SIMS and
// COLL chunks of P2LRT_V2.md): the 2D extended position-based dynamics
// solver of PSD2Live's editor (XpbdSolver), which the spec says the runtime
// follows item by item, over flat float32 particle arrays.
//
// A fixed step of 1/fps seconds is split into substeps. Each substep moves
// the goals, anchors and colliders linearly from where the previous step
// left them towards the current placement, measures the rest shape on the
// goals (rest lengths never below the file's, rest areas and triangle
// frames), integrates velocities with exponential damping, then projects
// with its Lagrange multipliers reset: pins, stretch, areas (with a guard
// against turning over), angle bending, welds, goals, collisions, long-range
// attachments, and stretch once more. The sweeps alternate direction from
// one substep to the next. Velocities are the positional change.
//
// The arithmetic is float32 like the editor's and the reference runtime's
// (transcendentals in float64, rounded), products are rounded before they
// are summed so that no platform fuses them, and the order of operations
// follows the reference, so a scene steps here as it does there.
//
// The world is y-up (canvas x, −canvas y), lengths are canvas pixels, times
// seconds. The package knows nothing of meshes: the caller (p2l's advanced
// mode) places goals, anchors and colliders each update and reads particle
// positions back. Everything runs single-threaded in a fixed order and
// allocates only in NewScene, so identical inputs give bit-identical
// trajectories.
package xpbd

import (
	"fmt"
	"math"
)

// Spec is the constant description of a scene: one SIMS simulation with its
// constraint arrays, indices already being particle indices. A compliance
// that is negative, NaN or +Inf means the constraint (for stretch: that
// direction of it) is absent; zero is a hard constraint.
type Spec struct {
	Particles int
	Fps       float32
	Substeps  int
	// Gravity and Wind are accelerations in px/s², y up. Wind is scaled per
	// particle by WindFactor.
	GravityX, GravityY float32
	WindX, WindY       float32
	// PinCompliance is the compliance of a pin of weight 1/2 and inverse
	// mass 1; a pin of weight w and inverse mass m has
	// PinCompliance·(1 − w)/w·m. A weight of 0.999 or more pins rigidly.
	PinCompliance float32

	// Per particle (len Particles). A particle is kinematic — it follows
	// its anchor exactly — when InvMass is 0 or PinWeight ≥ 0.999.
	InvMass, Damping, WindFactor, PinWeight  []float32
	GoalCompliance, GoalOffsetX, GoalOffsetY []float32

	// Stretch keeps |a−b| at the larger of Rest and the goals' distance;
	// Compliance when stretched, CompressionCompliance when compressed.
	StretchA, StretchB                      []uint32
	Rest, Compliance, CompressionCompliance []float32
	// Area keeps the area of triangle (A, B, C) at the goals' and, with any
	// compliance, at least a fifth of it with its orientation.
	TriA, TriB, TriC []uint32
	AreaCompliance   []float32
	// Bending: BendT1/BendT2 are triangle indices (into TriA...); the angle
	// each triangle has turned from its goal shape is kept equal.
	BendT1, BendT2 []uint32
	BendCompliance []float32
	// Welds pull particle pairs together axis by axis; WeightA/WeightB
	// scale how much each side moves.
	WeldA, WeldB                     []uint32
	WeightA, WeightB, WeldCompliance []float32
	// Long-range attachments: particle LongParticle stays within
	// MaxDistance of particle LongRoot (the root does not move for it).
	LongParticle, LongRoot []uint32
	MaxDistance            []float32

	// Colliders is the number of collider shapes Place receives.
	Colliders int
}

// Shape is one collider's placement, y up: a capsule from A to B whose
// radius goes linearly from RadiusA to RadiusB (a circle when A = B).
// Friction in [0, 1] is the share of sliding cancelled on contact.
type Shape struct {
	AX, AY, BX, BY   float32
	RadiusA, RadiusB float32
	Friction         float32
}

// MaxStepsPerUpdate is the most fixed steps one Advance takes: the time
// beyond them is dropped, as the spec requires for every time-step
// extension.
const MaxStepsPerUpdate = 4

// Scene is the running state of one simulation.
type Scene struct {
	spec  Spec
	kin   []bool    // kinematic particles
	mob   []float32 // inverse mass, 0 for kinematic particles
	decay []float32 // velocity kept per substep, e^(−damping·substep)
	h     float32   // step length 1/fps
	// Firmly pinned particles (weight ≥ 0.5), whose anchors give the turn
	// of the body that goal offsets follow, and those anchors at the start.
	frame     []int
	frameRest []float32

	// Particles and the previous substep's positions.
	x, y, vx, vy, px, py []float32
	// Current placement and the one the last step reached.
	goalX, goalY, ancX, ancY      []float32
	lastGoalX, lastGoalY          []float32
	lastAncX, lastAncY            []float32
	stepGoalX, stepGoalY          []float32
	stepAncX, stepAncY            []float32
	colliders, lastCol, stepCol   []Shape
	frameAngle, lastFrameAngle    float32
	restLength, restArea, restInv []float32
	stretchL, areaL, flipL, bendL []float32
	weldL, pinL, goalL            []float32
	turnGrad                      [6]float32
	previous, current             []float32 // x,y per particle after the last two steps
	remain                        float32
	started                       bool
	steps                         int
	hostWindX, hostWindY          float32
}

// NewScene checks spec and returns a scene that starts on its first Start.
func NewScene(spec Spec) (*Scene, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	n := spec.Particles
	f := func(k int) []float32 { return make([]float32, k) }
	s := &Scene{spec: spec, h: 1 / spec.Fps}
	s.kin = make([]bool, n)
	s.mob = f(n)
	s.decay = f(n)
	hs := s.h / float32(spec.Substeps) // as step computes it
	for i := 0; i < n; i++ {
		s.decay[i] = exp(float32(-spec.Damping[i] * hs))
		s.kin[i] = spec.PinWeight[i] >= 0.999 || spec.InvMass[i] == 0
		if !s.kin[i] {
			s.mob[i] = spec.InvMass[i]
		}
		if spec.PinWeight[i] >= 0.5 {
			s.frame = append(s.frame, i)
		}
	}
	s.frameRest = f(2 * len(s.frame))
	s.x, s.y, s.vx, s.vy, s.px, s.py = f(n), f(n), f(n), f(n), f(n), f(n)
	s.goalX, s.goalY, s.ancX, s.ancY = f(n), f(n), f(n), f(n)
	s.lastGoalX, s.lastGoalY, s.lastAncX, s.lastAncY = f(n), f(n), f(n), f(n)
	s.stepGoalX, s.stepGoalY, s.stepAncX, s.stepAncY = f(n), f(n), f(n), f(n)
	s.colliders = make([]Shape, spec.Colliders)
	s.lastCol = make([]Shape, spec.Colliders)
	s.stepCol = make([]Shape, spec.Colliders)
	nt := len(spec.TriA)
	s.restLength = f(len(spec.StretchA))
	s.restArea, s.restInv = f(nt), f(4*nt)
	s.stretchL, s.areaL, s.flipL = f(len(spec.StretchA)), f(nt), f(nt)
	s.bendL, s.weldL = f(len(spec.BendT1)), f(2*len(spec.WeldA))
	s.pinL, s.goalL = f(2*n), f(2*n)
	s.previous, s.current = f(2*n), f(2*n)
	return s, nil
}

func (spec *Spec) check() error {
	n := spec.Particles
	if n < 0 {
		return fmt.Errorf("xpbd: negative particle count %d", n)
	}
	if !(spec.Fps > 0) || math.IsInf(float64(spec.Fps), 0) {
		return fmt.Errorf("xpbd: fps %v is not a positive finite number", spec.Fps)
	}
	if spec.Substeps < 1 || spec.Substeps > 1024 {
		return fmt.Errorf("xpbd: substeps %d outside 1..1024", spec.Substeps)
	}
	if spec.Colliders < 0 {
		return fmt.Errorf("xpbd: negative collider count")
	}
	for _, v := range []float32{spec.GravityX, spec.GravityY, spec.WindX, spec.WindY} {
		if !finite(v) {
			return fmt.Errorf("xpbd: non-finite scene setting %v", v)
		}
	}
	type array struct {
		name       string
		v          []float32
		compliance bool // +Inf and NaN mean "absent", not an error
	}
	perParticle := []array{
		{"invMass", spec.InvMass, false}, {"damping", spec.Damping, false}, {"windFactor", spec.WindFactor, false},
		{"pinWeight", spec.PinWeight, false}, {"goalCompliance", spec.GoalCompliance, true},
		{"goalOffsetX", spec.GoalOffsetX, false}, {"goalOffsetY", spec.GoalOffsetY, false},
	}
	for _, a := range perParticle {
		if len(a.v) != n {
			return fmt.Errorf("xpbd: %s has %d entries for %d particles", a.name, len(a.v), n)
		}
		if err := checkFinite(a.name, a.v, a.compliance); err != nil {
			return err
		}
	}
	for i, m := range spec.InvMass {
		if m < 0 {
			return fmt.Errorf("xpbd: invMass[%d] = %v is negative", i, m)
		}
	}
	type group struct {
		name string
		idx  [][]uint32
		vals []array
		max  int // index bound
	}
	groups := []group{
		{"stretch", [][]uint32{spec.StretchA, spec.StretchB}, []array{{"rest", spec.Rest, false}, {"compliance", spec.Compliance, true}, {"compressionCompliance", spec.CompressionCompliance, true}}, n},
		{"area", [][]uint32{spec.TriA, spec.TriB, spec.TriC}, []array{{"areaCompliance", spec.AreaCompliance, true}}, n},
		{"bend", [][]uint32{spec.BendT1, spec.BendT2}, []array{{"bendCompliance", spec.BendCompliance, true}}, len(spec.TriA)},
		{"weld", [][]uint32{spec.WeldA, spec.WeldB}, []array{{"weightA", spec.WeightA, false}, {"weightB", spec.WeightB, false}, {"weldCompliance", spec.WeldCompliance, true}}, n},
		{"long-range", [][]uint32{spec.LongParticle, spec.LongRoot}, []array{{"maxDistance", spec.MaxDistance, false}}, n},
	}
	for _, g := range groups {
		m := len(g.idx[0])
		for _, a := range g.idx {
			if len(a) != m {
				return fmt.Errorf("xpbd: %s arrays have different lengths", g.name)
			}
			for j, v := range a {
				if int64(v) >= int64(g.max) {
					return fmt.Errorf("xpbd: %s constraint %d refers to %d of %d", g.name, j, v, g.max)
				}
			}
		}
		for _, a := range g.vals {
			if len(a.v) != m {
				return fmt.Errorf("xpbd: %s arrays have different lengths", g.name)
			}
			if err := checkFinite(a.name, a.v, a.compliance); err != nil {
				return err
			}
		}
	}
	return nil
}

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

// checkFinite rejects NaN and ±Inf, except that a compliance may be NaN or
// +Inf (no constraint, like a negative one).
func checkFinite(name string, a []float32, compliance bool) error {
	for i, v := range a {
		if !finite(v) && !(compliance && (v != v || v > 0)) {
			return fmt.Errorf("xpbd: %s[%d] is not finite", name, i)
		}
	}
	return nil
}

// absent reports whether compliance c stands for no constraint: negative,
// NaN or +Inf (the editor's infinity, written as −1).
func absent(c float32) bool { return !(c >= 0) || c > math.MaxFloat32 }

// Particles returns the particle count.
func (s *Scene) Particles() int { return s.spec.Particles }

// Started reports whether the scene has been started (Start after NewScene
// or Reset).
func (s *Scene) Started() bool { return s.started }

// StepsTaken returns the number of fixed steps taken since the start
// (saturating).
func (s *Scene) StepsTaken() int { return s.steps }

// Reset makes the scene wait for Start again.
func (s *Scene) Reset() { s.started = false }

// SetWind sets the host's wind, an acceleration in px/s² (y up) added to the
// scene's own wind and scaled per particle by WindFactor.
func (s *Scene) SetWind(x, y float32) { s.hostWindX, s.hostWindY = x, y }

// Place gives the scene this update's goals (x,y per particle: where the
// evaluated pose puts each particle), anchors (x,y per particle: where each
// pin holds it; its own goal when it follows itself) and collider shapes,
// all y up. The slices are copied; steps move from the placement the last
// step reached to this one.
func (s *Scene) Place(goals, anchors []float32, colliders []Shape) {
	for i := range s.goalX {
		s.goalX[i], s.goalY[i] = goals[2*i], goals[2*i+1]
		s.ancX[i], s.ancY[i] = anchors[2*i], anchors[2*i+1]
	}
	copy(s.colliders, colliders)
}

// Start puts every particle at rest on its goal, as the last Place put
// them, and takes that placement as the one the last step reached; the
// firmly pinned particles' anchors become the rest of the body's turn.
func (s *Scene) Start() {
	for i := range s.x {
		s.x[i], s.y[i] = s.goalX[i], s.goalY[i]
		s.vx[i], s.vy[i] = 0, 0
		s.stepGoalX[i], s.stepGoalY[i] = s.goalX[i], s.goalY[i]
	}
	for k, i := range s.frame {
		s.frameRest[2*k], s.frameRest[2*k+1] = s.ancX[i], s.ancY[i]
	}
	s.frameAngle = 0
	s.settle()
	s.started = true
	s.remain = 0
	s.steps = 0
	s.capture()
	copy(s.previous, s.current)
}

// settle takes the current placement as the one the last step reached.
func (s *Scene) settle() {
	copy(s.lastGoalX, s.goalX)
	copy(s.lastGoalY, s.goalY)
	copy(s.lastAncX, s.ancX)
	copy(s.lastAncY, s.ancY)
	copy(s.lastCol, s.colliders)
	s.lastFrameAngle = s.frameAngle
}

func (s *Scene) capture() {
	for i := range s.x {
		s.current[2*i], s.current[2*i+1] = s.x[i], s.y[i]
	}
}

// Advance adds dt seconds to the time not yet stepped, keeps at most
// MaxStepsPerUpdate steps of it (the newest time beyond is dropped), and
// runs the whole steps it holds; it returns how many ran. The scene must
// have been started and placed for this update.
func (s *Scene) Advance(dt float32) int {
	if !s.started || !(dt > 0) {
		return 0
	}
	s.frameAngle = s.turn()
	h := s.h
	s.remain = min(s.remain+dt, h*MaxStepsPerUpdate)
	n := 0
	for s.remain >= h {
		s.previous, s.current = s.current, s.previous
		s.step(h)
		s.capture()
		s.remain -= h
		n++
	}
	if s.steps <= math.MaxInt32-n {
		s.steps += n
	}
	return n
}

// Alpha returns the interpolation factor between the last two steps that
// the output uses: the time not yet stepped over the step, in [0, 1].
func (s *Scene) Alpha() float32 {
	return max(0, min(1, s.remain*s.spec.Fps))
}

// Output writes the particle positions between the last two steps by Alpha
// into out (x,y per particle, y up).
func (s *Scene) Output(out []float32) {
	a := s.Alpha()
	for i := range out[:2*s.spec.Particles] {
		p, c := s.previous[i], s.current[i]
		out[i] = p + float32((c-p)*a)
	}
}

// turn is the best-fit rotation of the firmly pinned particles' anchors
// from their rest to now (2D Procrustes about the centroids); 0 with fewer
// than two.
func (s *Scene) turn() float32 {
	if len(s.frame) < 2 {
		return 0
	}
	var rx, ry, cx, cy float32
	for k, i := range s.frame {
		rx += s.frameRest[2*k]
		ry += s.frameRest[2*k+1]
		cx += s.ancX[i]
		cy += s.ancY[i]
	}
	count := float32(len(s.frame))
	rx /= count
	ry /= count
	cx /= count
	cy /= count
	var dot, cross float32
	for k, i := range s.frame {
		ax, ay := s.frameRest[2*k]-rx, s.frameRest[2*k+1]-ry
		bx, by := s.ancX[i]-cx, s.ancY[i]-cy
		dot += float32(ax*bx) + float32(ay*by)
		cross += float32(ax*by) - float32(ay*bx)
	}
	if dot == 0 && cross == 0 {
		return 0
	}
	return atan2(cross, dot)
}

func atan2(y, x float32) float32 { return float32(math.Atan2(float64(y), float64(x))) }
func sqrt(x float32) float32     { return float32(math.Sqrt(float64(x))) }
func exp(x float32) float32      { return float32(math.Exp(float64(x))) }
func cos(x float32) float32      { return float32(math.Cos(float64(x))) }
func sin(x float32) float32      { return float32(math.Sin(float64(x))) }

// Penetration returns how deep (px, py) lies inside the shape by the
// measure the solver uses, 0 when outside.
func (sh *Shape) Penetration(px, py float32) float32 {
	cx, cy, r := sh.closest(px, py)
	d := sqrt(float32((px-cx)*(px-cx)) + float32((py-cy)*(py-cy)))
	if d >= r {
		return 0
	}
	return r - d
}

// closest returns the shape's axis point nearest (px, py) and the radius
// there.
func (sh *Shape) closest(px, py float32) (float32, float32, float32) {
	ex, ey := sh.BX-sh.AX, sh.BY-sh.AY
	l2 := float32(ex*ex) + float32(ey*ey)
	var t float32
	if l2 > 1e-12 {
		t = (float32((px-sh.AX)*ex) + float32((py-sh.AY)*ey)) / l2
		t = max(0, min(1, t))
	}
	return sh.AX + float32(ex*t), sh.AY + float32(ey*t), sh.RadiusA + float32((sh.RadiusB-sh.RadiusA)*t)
}

// Spec returns the scene's description (sharing its arrays: do not modify
// them).
func (s *Scene) Spec() Spec { return s.spec }
