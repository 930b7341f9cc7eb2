package xpbd

import "math"

// SetWind sets the host's wind, an acceleration in px/s² (y up) added to the
// scene's own wind and scaled per particle by WindFactor.
func (s *Scene) SetWind(x, y float64) {
	s.hostWindX, s.hostWindY = x, y
}

// stepOnce runs one fixed step whose end lies at fraction fr between the
// previous and the current frame inputs.
func (s *Scene) stepOnce(fr float64) {
	sp := &s.spec
	n := sp.Particles
	for i := range s.tgtNow {
		s.tgtNow[i] = s.tgt0[i] + (s.tgt1[i]-s.tgt0[i])*fr
		s.ancNow[i] = s.anc0[i] + (s.anc1[i]-s.anc0[i])*fr
	}
	for i := range s.colNow {
		s.colNow[i] = lerpShape(s.col0[i], s.col1[i], fr)
	}
	h := s.h
	ax := sp.WindX + s.hostWindX
	ay := sp.WindY + s.hostWindY
	for sub := 0; sub < sp.Substeps; sub++ {
		left := float64(sp.Substeps - sub)
		for i := 0; i < n; i++ {
			x, y := 2*i, 2*i+1
			s.prev[x], s.prev[y] = s.pos[x], s.pos[y]
			if sp.InvMass[i] == 0 {
				// Kinematic particles travel to where the inputs hold them
				// in equal parts over the substeps, landing exactly on it.
				kx, ky := s.kinematic(i, s.tgtNow, s.ancNow)
				if left == 1 {
					s.pos[x], s.pos[y] = kx, ky
				} else {
					s.pos[x] += (kx - s.pos[x]) / left
					s.pos[y] += (ky - s.pos[y]) / left
				}
				continue
			}
			wf := sp.WindFactor[i]
			s.vel[x] += h * (sp.GravityX + wf*ax)
			s.vel[y] += h * (sp.GravityY + wf*ay)
			s.pos[x] += h * s.vel[x]
			s.pos[y] += h * s.vel[y]
		}
		s.solve(1 / (h * h))
		s.collide()
		inv := 1 / h
		for i := 0; i < n; i++ {
			x, y := 2*i, 2*i+1
			vx := (s.pos[x] - s.prev[x]) * inv
			vy := (s.pos[y] - s.prev[y]) * inv
			// Damping is a rate per second: velocity loses damping·h of
			// itself every substep (never reversing).
			k := 1 - sp.Damping[i]*h
			if k < 0 {
				k = 0
			} else if k > 1 {
				k = 1
			}
			s.vel[x], s.vel[y] = vx*k, vy*k
		}
	}
	copy(s.before, s.last)
	copy(s.last, s.pos)
	if s.steps < math.MaxInt32 {
		s.steps++
	}
}

func lerpShape(a, b Shape, f float64) Shape {
	l := func(p, q float64) float64 { return p + (q-p)*f }
	return Shape{
		Capsule: b.Capsule,
		AX:      l(a.AX, b.AX), AY: l(a.AY, b.AY),
		BX: l(a.BX, b.BX), BY: l(a.BY, b.BY),
		RadiusA: l(a.RadiusA, b.RadiusA), RadiusB: l(a.RadiusB, b.RadiusB),
		Friction: b.Friction,
	}
}

// solve projects every constraint once, in the fixed order stretch, area,
// bending, welds, goals, pins, long-range attachments. With one projection
// per substep the multipliers start at zero, so Δλ = −C / (Σ w|∇C|² + α/h²)
// (ih2 is 1/h²).
func (s *Scene) solve(ih2 float64) {
	sp := &s.spec
	w := sp.InvMass
	for i := range sp.StretchA {
		a, b := sp.StretchA[i], sp.StretchB[i]
		d := dist(s.pos, a, b)
		c := d - sp.Rest[i]
		alpha := sp.Compliance[i]
		if c < 0 {
			alpha = sp.CompressionCompliance[i]
		}
		if alpha < 0 {
			continue
		}
		s.distance(a, b, w[a], w[b], c, d, alpha*ih2)
	}
	for i := range sp.TriA {
		if sp.AreaCompliance[i] < 0 {
			continue
		}
		s.areaConstraint(i, sp.AreaCompliance[i]*ih2)
	}
	for i := range sp.BendT1 {
		p, q := s.bendP[i], s.bendQ[i]
		if sp.BendCompliance[i] < 0 || p == Absent {
			continue
		}
		d := dist(s.pos, p, q)
		s.distance(p, q, w[p], w[q], d-s.bendRest[i], d, sp.BendCompliance[i]*ih2)
	}
	for i := range sp.WeldA {
		if sp.WeldCompliance[i] < 0 {
			continue
		}
		a, b := sp.WeldA[i], sp.WeldB[i]
		d := dist(s.pos, a, b)
		s.distance(a, b, w[a]*sp.WeightA[i], w[b]*sp.WeightB[i], d, d, sp.WeldCompliance[i]*ih2)
	}
	for i := 0; i < sp.Particles; i++ {
		if sp.GoalCompliance[i] < 0 || w[i] == 0 {
			continue
		}
		tx := s.tgtNow[2*i] + sp.GoalOffsetX[i]
		ty := s.tgtNow[2*i+1] + sp.GoalOffsetY[i]
		s.toPoint(i, tx, ty, sp.GoalCompliance[i]*ih2)
	}
	if sp.PinCompliance >= 0 {
		for i := 0; i < sp.Particles; i++ {
			pw := sp.PinWeight[i]
			if !(pw > 0) || w[i] == 0 {
				continue
			}
			s.toPoint(i, s.ancNow[2*i], s.ancNow[2*i+1], sp.PinCompliance/pw*ih2)
		}
	}
	for i := range sp.LongParticle {
		p, r := sp.LongParticle[i], sp.LongRoot[i]
		if w[p] == 0 || sp.MaxDistance[i] < 0 {
			continue
		}
		d := dist(s.pos, p, r)
		if d <= sp.MaxDistance[i] || d == 0 {
			continue
		}
		// A hard unilateral constraint moving the particle only: the root
		// acts as if it had infinite mass.
		k := sp.MaxDistance[i] / d
		rx, ry := s.pos[2*r], s.pos[2*r+1]
		s.pos[2*p] = rx + (s.pos[2*p]-rx)*k
		s.pos[2*p+1] = ry + (s.pos[2*p+1]-ry)*k
	}
}

func dist(pos []float64, a, b uint32) float64 {
	return math.Hypot(pos[2*a]-pos[2*b], pos[2*a+1]-pos[2*b+1])
}

// distance projects a distance constraint between a and b whose value is c
// at the current distance d, with inverse masses wa, wb and compliance at
// (already divided by h²). The gradient is the unit direction a−b; it is
// undefined at d = 0, where the constraint is skipped.
func (s *Scene) distance(a, b uint32, wa, wb, c, d, at float64) {
	den := wa + wb + at
	if d < 1e-12 || den == 0 {
		return
	}
	dl := -c / den
	nx := (s.pos[2*a] - s.pos[2*b]) / d
	ny := (s.pos[2*a+1] - s.pos[2*b+1]) / d
	s.pos[2*a] += wa * dl * nx
	s.pos[2*a+1] += wa * dl * ny
	s.pos[2*b] -= wb * dl * nx
	s.pos[2*b+1] -= wb * dl * ny
}

// toPoint pulls particle i towards the point (tx, ty) (C = distance to the
// point, gradient of length one): it moves w/(w+α̃) of the way.
func (s *Scene) toPoint(i int, tx, ty, at float64) {
	w := s.spec.InvMass[i]
	k := w / (w + at)
	s.pos[2*i] += (tx - s.pos[2*i]) * k
	s.pos[2*i+1] += (ty - s.pos[2*i+1]) * k
}

// area returns the signed area of a triangle (positive counter-clockwise in
// the y-up world).
func (s *Scene) area(a, b, c uint32) float64 {
	p := s.pos
	return 0.5 * ((p[2*b]-p[2*a])*(p[2*c+1]-p[2*a+1]) - (p[2*b+1]-p[2*a+1])*(p[2*c]-p[2*a]))
}

func (s *Scene) areaConstraint(i int, at float64) {
	sp := &s.spec
	a, b, c := sp.TriA[i], sp.TriB[i], sp.TriC[i]
	p := s.pos
	C := s.area(a, b, c) - s.areaRest[i]
	// ∂A/∂b = ½(c−a)⊥, ∂A/∂c = ½(a−b)⊥ with (x, y)⊥ = (y, −x) and
	// ∂A/∂a = −∂A/∂b − ∂A/∂c.
	gbx, gby := 0.5*(p[2*c+1]-p[2*a+1]), -0.5*(p[2*c]-p[2*a])
	gcx, gcy := -0.5*(p[2*b+1]-p[2*a+1]), 0.5*(p[2*b]-p[2*a])
	gax, gay := -gbx-gcx, -gby-gcy
	wa, wb, wc := sp.InvMass[a], sp.InvMass[b], sp.InvMass[c]
	den := wa*(gax*gax+gay*gay) + wb*(gbx*gbx+gby*gby) + wc*(gcx*gcx+gcy*gcy) + at
	if den == 0 {
		return
	}
	dl := -C / den
	p[2*a] += wa * dl * gax
	p[2*a+1] += wa * dl * gay
	p[2*b] += wb * dl * gbx
	p[2*b+1] += wb * dl * gby
	p[2*c] += wc * dl * gcx
	p[2*c+1] += wc * dl * gcy
}

// collide pushes every dynamic particle out of every collider, in collider
// order, then cancels Friction of its sliding this substep. A tapered
// capsule's surface point is taken at the segment point closest to the
// particle with the radius interpolated there.
func (s *Scene) collide() {
	sp := &s.spec
	for ci := range s.colNow {
		sh := &s.colNow[ci]
		for i := 0; i < sp.Particles; i++ {
			if sp.InvMass[i] == 0 {
				continue
			}
			px, py := s.pos[2*i], s.pos[2*i+1]
			cx, cy, r := sh.closest(px, py)
			dx, dy := px-cx, py-cy
			d := math.Hypot(dx, dy)
			if d >= r {
				continue
			}
			var nx, ny float64
			if d > 1e-12 {
				nx, ny = dx/d, dy/d
			} else {
				// On the axis: push out sideways from the segment (or up for
				// a circle), a fixed choice for determinism.
				nx, ny = sh.fallbackNormal()
			}
			px, py = cx+nx*r, cy+ny*r
			if f := sh.Friction; f > 0 {
				mx, my := px-s.prev[2*i], py-s.prev[2*i+1]
				dn := mx*nx + my*ny
				tx, ty := mx-dn*nx, my-dn*ny
				if f > 1 {
					f = 1
				}
				px -= f * tx
				py -= f * ty
				// The tangent of a tapered capsule is not exactly its
				// surface; push out once more, along the new normal.
				if cx, cy, r := sh.closest(px, py); math.Hypot(px-cx, py-cy) < r {
					dx, dy := px-cx, py-cy
					if d := math.Hypot(dx, dy); d > 1e-12 {
						px, py = cx+dx/d*r, cy+dy/d*r
					}
				}
			}
			s.pos[2*i], s.pos[2*i+1] = px, py
		}
	}
}

// closest returns the shape's axis point nearest (px, py) and the radius
// there.
func (sh *Shape) closest(px, py float64) (float64, float64, float64) {
	if !sh.Capsule {
		return sh.AX, sh.AY, sh.RadiusA
	}
	ex, ey := sh.BX-sh.AX, sh.BY-sh.AY
	l2 := ex*ex + ey*ey
	t := 0.0
	if l2 > 0 {
		t = ((px-sh.AX)*ex + (py-sh.AY)*ey) / l2
		t = math.Max(0, math.Min(1, t))
	}
	return sh.AX + ex*t, sh.AY + ey*t, sh.RadiusA + (sh.RadiusB-sh.RadiusA)*t
}

// Penetration returns how deep (px, py) lies inside the shape by the
// measure the solver uses, 0 when outside.
func (sh *Shape) Penetration(px, py float64) float64 {
	cx, cy, r := sh.closest(px, py)
	d := math.Hypot(px-cx, py-cy)
	if d >= r {
		return 0
	}
	return r - d
}

func (sh *Shape) fallbackNormal() (float64, float64) {
	ex, ey := sh.BX-sh.AX, sh.BY-sh.AY
	if l := math.Hypot(ex, ey); sh.Capsule && l > 0 {
		return -ey / l, ex / l
	}
	return 0, 1
}
