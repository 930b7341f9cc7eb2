package xpbd

import "math"

// The solver proper. The order of every sum and product follows the
// editor's solver as the reference runtime ports it: a + b·c is written
// a + float32(b·c) so that the product is rounded on its own on every
// platform (Go may otherwise fuse it into one multiply-add, which rounds
// once).

// minArea is the share of its rest area below which a triangle is pushed
// back out (the guard against turning over).
const minArea = 0.2

// step advances one fixed step of h seconds.
func (s *Scene) step(h float32) {
	sp := &s.spec
	subs := sp.Substeps
	hs := h / float32(subs)
	wind := [2]float32{sp.WindX + s.hostWindX, sp.WindY + s.hostWindY}
	for sub := 1; sub <= subs; sub++ {
		t := float32(sub) / float32(subs)
		for i := range s.x {
			s.stepAncX[i] = s.lastAncX[i] + float32((s.ancX[i]-s.lastAncX[i])*t)
			s.stepAncY[i] = s.lastAncY[i] + float32((s.ancY[i]-s.lastAncY[i])*t)
			s.stepGoalX[i] = s.lastGoalX[i] + float32((s.goalX[i]-s.lastGoalX[i])*t)
			s.stepGoalY[i] = s.lastGoalY[i] + float32((s.goalY[i]-s.lastGoalY[i])*t)
		}
		for k := range s.colliders {
			s.stepCol[k] = lerpShape(&s.lastCol[k], &s.colliders[k], t)
		}
		angle := s.lastFrameAngle + float32((s.frameAngle-s.lastFrameAngle)*t)
		reverse := sub%2 == 0
		s.measureRest()
		s.integrate(hs, wind)
		for _, l := range [...][]float32{s.stretchL, s.areaL, s.flipL, s.bendL, s.weldL, s.pinL, s.goalL} {
			clear(l)
		}
		s.solvePins(hs)
		s.solveStretch(hs, reverse)
		s.solveTriangles(hs, reverse)
		s.solveBends(hs, reverse)
		s.solveWelds(hs, reverse)
		s.solveGoals(hs, angle)
		s.solveCollisions()
		s.solveLongRange(reverse)
		clear(s.stretchL)
		s.solveStretch(hs, !reverse)
		for i := range s.x {
			s.vx[i] = (s.x[i] - s.px[i]) / hs
			s.vy[i] = (s.y[i] - s.py[i]) / hs
		}
	}
	s.settle()
}

// lerpShape moves a collider's ends from a to b by t; radii and friction
// are b's.
func lerpShape(a, b *Shape, t float32) Shape {
	l := func(p, q float32) float32 { return p + float32((q-p)*t) }
	return Shape{
		AX: l(a.AX, b.AX), AY: l(a.AY, b.AY), BX: l(a.BX, b.BX), BY: l(a.BY, b.BY),
		RadiusA: b.RadiusA, RadiusB: b.RadiusB, Friction: b.Friction,
	}
}

// index returns which of the alternating sweeps' k-th constraint of n is
// visited at position i.
func index(i, n int, reverse bool) int {
	if reverse {
		return n - 1 - i
	}
	return i
}

// fmax is IEEE maxNum: the larger, ignoring a NaN.
func fmax(a, b float32) float32 {
	if a != a || b > a {
		return b
	}
	return a
}

// measureRest measures this substep's rest shape on the goals: stretch rest
// lengths (never shorter than the file's), triangle areas, and each
// triangle's inverse edge matrix (zero for a degenerate one).
func (s *Scene) measureRest() {
	sp := &s.spec
	gx, gy := s.stepGoalX, s.stepGoalY
	for k := range sp.StretchA {
		a, b := sp.StretchA[k], sp.StretchB[k]
		dx, dy := gx[a]-gx[b], gy[a]-gy[b]
		s.restLength[k] = fmax(sp.Rest[k], sqrt(float32(dx*dx)+float32(dy*dy)))
	}
	for k := range sp.TriA {
		a, b, c := sp.TriA[k], sp.TriB[k], sp.TriC[k]
		m00, m01 := gx[b]-gx[a], gx[c]-gx[a]
		m10, m11 := gy[b]-gy[a], gy[c]-gy[a]
		det := float32(m00*m11) - float32(m01*m10)
		s.restArea[k] = det / 2
		inv := s.restInv[4*k : 4*k+4 : 4*k+4]
		if float32(det*det) < 1e-12 {
			clear(inv)
			continue
		}
		inv[0], inv[1], inv[2], inv[3] = m11/det, -m01/det, -m10/det, m00/det
	}
}

// integrate predicts positions: kinematic particles go to their anchor,
// the others gain gravity and wind, lose velocity exponentially by their
// damping rate, and move.
func (s *Scene) integrate(h float32, wind [2]float32) {
	sp := &s.spec
	for i := range s.x {
		s.px[i], s.py[i] = s.x[i], s.y[i]
		if s.kin[i] {
			s.x[i], s.y[i] = s.stepAncX[i], s.stepAncY[i]
			continue
		}
		decay := s.decay[i] // exp(−damping·h), the same every substep
		wf := sp.WindFactor[i]
		s.vx[i] = float32((s.vx[i] + float32((sp.GravityX+float32(wind[0]*wf))*h)) * decay)
		s.vy[i] = float32((s.vy[i] + float32((sp.GravityY+float32(wind[1]*wf))*h)) * decay)
		s.x[i] += float32(s.vx[i] * h)
		s.y[i] += float32(s.vy[i] * h)
	}
}

// solveStretch projects the stretch constraints once, forward or reversed.
func (s *Scene) solveStretch(h float32, reverse bool) {
	sp := &s.spec
	h2 := h * h
	n := len(sp.StretchA)
	for i := 0; i < n; i++ {
		k := index(i, n, reverse)
		a, b := sp.StretchA[k], sp.StretchB[k]
		wa, wb := s.mob[a], s.mob[b]
		w := wa + wb
		if w == 0 {
			continue
		}
		dx, dy := s.x[a]-s.x[b], s.y[a]-s.y[b]
		length := sqrt(float32(dx*dx) + float32(dy*dy))
		if length < 1e-9 {
			continue
		}
		c := length - s.restLength[k]
		compliance := sp.Compliance[k]
		if c < 0 {
			compliance = sp.CompressionCompliance[k]
		}
		if absent(compliance) {
			continue
		}
		alpha := compliance / h2
		delta := (-c - float32(alpha*s.stretchL[k])) / (w + alpha)
		s.stretchL[k] += delta
		nx, ny := dx/length, dy/length
		s.x[a] += float32(float32(wa*delta) * nx)
		s.y[a] += float32(float32(wa*delta) * ny)
		s.x[b] -= float32(float32(wb*delta) * nx)
		s.y[b] -= float32(float32(wb*delta) * ny)
	}
}

// solveTriangles keeps each triangle's area (when it has a compliance) and
// pushes a triangle shrunk below minArea of its rest area, or turned over,
// back out.
func (s *Scene) solveTriangles(h float32, reverse bool) {
	sp := &s.spec
	h2 := h * h
	n := len(sp.TriA)
	for i := 0; i < n; i++ {
		k := index(i, n, reverse)
		rest := s.restArea[k]
		if float32(rest*rest) < 1e-8 {
			continue
		}
		sign := float32(1)
		if !(rest > 0) {
			sign = -1
		}
		a, b, c := sp.TriA[k], sp.TriB[k], sp.TriC[k]
		if s.mob[a]+s.mob[b]+s.mob[c] == 0 {
			continue
		}
		ra := abs(rest)
		if cp := sp.AreaCompliance[k]; !absent(cp) {
			s.area(k, a, b, c, sign, ra, cp/h2, false)
		}
		s.area(k, a, b, c, sign, float32(ra*minArea), 0, true)
	}
}

func abs(v float32) float32 { return float32(math.Abs(float64(v))) }

// area pulls triangle k's signed area (times sign) towards target with
// compliance alpha; the flip guard (flip) only pushes it up to target.
func (s *Scene) area(k int, a, b, c uint32, sign, target, alpha float32, flip bool) {
	xa, ya, xb, yb, xc, yc := s.x[a], s.y[a], s.x[b], s.y[b], s.x[c], s.y[c]
	value := float32(sign*(float32((xb-xa)*(yc-ya))-float32((xc-xa)*(yb-ya)))) / 2
	cv := value - target
	lambda := s.areaL
	if flip {
		if cv >= 0 {
			return
		}
		lambda = s.flipL
	}
	gax, gay := float32(sign*(yb-yc))/2, float32(sign*(xc-xb))/2
	gbx, gby := float32(sign*(yc-ya))/2, float32(sign*(xa-xc))/2
	gcx, gcy := float32(sign*(ya-yb))/2, float32(sign*(xb-xa))/2
	wa, wb, wc := s.mob[a], s.mob[b], s.mob[c]
	w := float32(wa*(float32(gax*gax)+float32(gay*gay))) + float32(wb*(float32(gbx*gbx)+float32(gby*gby))) + float32(wc*(float32(gcx*gcx)+float32(gcy*gcy)))
	if w < 1e-12 {
		return
	}
	delta := (-cv - float32(alpha*lambda[k])) / (w + alpha)
	lambda[k] += delta
	s.x[a] += float32(float32(wa*delta) * gax)
	s.y[a] += float32(float32(wa*delta) * gay)
	s.x[b] += float32(float32(wb*delta) * gbx)
	s.y[b] += float32(float32(wb*delta) * gby)
	s.x[c] += float32(float32(wc*delta) * gcx)
	s.y[c] += float32(float32(wc*delta) * gcy)
}

// turnOf returns how far triangle k has turned from its rest shape (the
// rotation of the best-fit frame, in radians) and leaves its gradient over
// corners a, b, c in turnGrad; NaN without a rest shape.
func (s *Scene) turnOf(k int) float32 {
	sp := &s.spec
	inv := s.restInv[4*k : 4*k+4 : 4*k+4]
	p, q, r, t := inv[0], inv[1], inv[2], inv[3]
	if p == 0 && q == 0 && r == 0 && t == 0 {
		return float32(math.NaN())
	}
	a, b, c := sp.TriA[k], sp.TriB[k], sp.TriC[k]
	e1x, e1y := s.x[b]-s.x[a], s.y[b]-s.y[a]
	e2x, e2y := s.x[c]-s.x[a], s.y[c]-s.y[a]
	cs := float32(e1x*p) + float32(e2x*r) + float32(e1y*q) + float32(e2y*t)
	sn := float32(e1y*p) + float32(e2y*r) - float32(e1x*q) - float32(e2x*t)
	norm := float32(cs*cs) + float32(sn*sn)
	if norm < 1e-12 {
		return float32(math.NaN())
	}
	bx, by := (float32(cs*-q)-float32(sn*p))/norm, (float32(cs*p)-float32(sn*q))/norm
	cx, cy := (float32(cs*-t)-float32(sn*r))/norm, (float32(cs*r)-float32(sn*t))/norm
	s.turnGrad = [6]float32{-(bx + cx), -(by + cy), bx, by, cx, cy}
	return atan2(sn, cs)
}

// solveBends keeps the two triangles of each bending pair turned by the
// same angle: C = turn(t1) − turn(t2), wrapped to ±π.
func (s *Scene) solveBends(h float32, reverse bool) {
	sp := &s.spec
	h2 := h * h
	n := len(sp.BendT1)
	const pi = float32(math.Pi)
	var idx [6]uint32
	var gx, gy [6]float32
	for i := 0; i < n; i++ {
		k := index(i, n, reverse)
		t1, t2 := int(sp.BendT1[k]), int(sp.BendT2[k])
		m := 0
		add := func(p uint32, x, y float32) {
			for j := 0; j < m; j++ {
				if idx[j] == p {
					gx[j] += x
					gy[j] += y
					return
				}
			}
			idx[m], gx[m], gy[m] = p, x, y
			m++
		}
		first := s.turnOf(t1)
		if first != first {
			continue
		}
		g := s.turnGrad
		add(sp.TriA[t1], g[0], g[1])
		add(sp.TriB[t1], g[2], g[3])
		add(sp.TriC[t1], g[4], g[5])
		second := s.turnOf(t2)
		if second != second {
			continue
		}
		g = s.turnGrad
		add(sp.TriA[t2], -g[0], -g[1])
		add(sp.TriB[t2], -g[2], -g[3])
		add(sp.TriC[t2], -g[4], -g[5])
		c := first - second
		if c > pi {
			c -= 2 * pi
		} else if c < -pi {
			c += 2 * pi
		}
		var w float32
		for j := 0; j < m; j++ {
			w += float32(s.mob[idx[j]] * (float32(gx[j]*gx[j]) + float32(gy[j]*gy[j])))
		}
		if w < 1e-12 {
			continue
		}
		cp := sp.BendCompliance[k]
		if absent(cp) {
			continue
		}
		alpha := cp / h2
		delta := (-c - float32(alpha*s.bendL[k])) / (w + alpha)
		s.bendL[k] += delta
		for j := 0; j < m; j++ {
			wi := s.mob[idx[j]]
			s.x[idx[j]] += float32(float32(wi*delta) * gx[j])
			s.y[idx[j]] += float32(float32(wi*delta) * gy[j])
		}
	}
}

// solveWelds pulls each welded pair together, one update per axis.
func (s *Scene) solveWelds(h float32, reverse bool) {
	sp := &s.spec
	h2 := h * h
	n := len(sp.WeldA)
	for i := 0; i < n; i++ {
		k := index(i, n, reverse)
		a, b := sp.WeldA[k], sp.WeldB[k]
		wa := s.mob[a] * sp.WeightA[k]
		wb := s.mob[b] * sp.WeightB[k]
		w := wa + wb
		if w == 0 || absent(sp.WeldCompliance[k]) {
			continue
		}
		alpha := sp.WeldCompliance[k] / h2
		d := (-(s.x[a] - s.x[b]) - float32(alpha*s.weldL[2*k])) / (w + alpha)
		s.weldL[2*k] += d
		s.x[a] += float32(wa * d)
		s.x[b] -= float32(wb * d)
		d = (-(s.y[a] - s.y[b]) - float32(alpha*s.weldL[2*k+1])) / (w + alpha)
		s.weldL[2*k+1] += d
		s.y[a] += float32(wa * d)
		s.y[b] -= float32(wb * d)
	}
}

// solvePins pulls softly pinned particles (0 < weight < 0.999) towards
// their anchors.
func (s *Scene) solvePins(h float32) {
	sp := &s.spec
	if absent(sp.PinCompliance) {
		return
	}
	h2 := h * h
	for i := range s.x {
		w := sp.PinWeight[i]
		if w <= 0 || s.kin[i] {
			continue
		}
		compliance := float32(float32(sp.PinCompliance*(1-w))/w) * sp.InvMass[i]
		s.attach(i, s.stepAncX[i], s.stepAncY[i], compliance/h2, s.pinL)
	}
}

// solveGoals pulls particles with a goal towards it, the goal offset
// turned with the body.
func (s *Scene) solveGoals(h float32, angle float32) {
	sp := &s.spec
	h2 := h * h
	ca, sa := cos(angle), sin(angle)
	for i := range s.x {
		cp := sp.GoalCompliance[i]
		if absent(cp) || s.kin[i] {
			continue
		}
		ox := float32(sp.GoalOffsetX[i]*ca) - float32(sp.GoalOffsetY[i]*sa)
		oy := float32(sp.GoalOffsetX[i]*sa) + float32(sp.GoalOffsetY[i]*ca)
		s.attach(i, s.stepGoalX[i]+ox, s.stepGoalY[i]+oy, cp/h2, s.goalL)
	}
}

// attach is a zero-length spring from particle i to (tx, ty), one XPBD
// update per axis, with multipliers lambda.
func (s *Scene) attach(i int, tx, ty, alpha float32, lambda []float32) {
	w := s.spec.InvMass[i]
	if w == 0 {
		return
	}
	d := (-(s.x[i] - tx) - float32(alpha*lambda[2*i])) / (w + alpha)
	lambda[2*i] += d
	s.x[i] += float32(w * d)
	d = (-(s.y[i] - ty) - float32(alpha*lambda[2*i+1])) / (w + alpha)
	lambda[2*i+1] += d
	s.y[i] += float32(w * d)
}

// solveCollisions pushes every dynamic particle out of every collider, in
// collider order, and takes Friction of its slide along the surface this
// substep away.
func (s *Scene) solveCollisions() {
	if len(s.stepCol) == 0 {
		return
	}
	for i := range s.x {
		if s.kin[i] {
			continue
		}
		for ci := range s.stepCol {
			c := &s.stepCol[ci]
			cx, cy, radius := c.closest(s.x[i], s.y[i])
			dx, dy := s.x[i]-cx, s.y[i]-cy
			distance := sqrt(float32(dx*dx) + float32(dy*dy))
			if distance >= radius {
				continue
			}
			nx, ny := float32(0), float32(1)
			if distance > 1e-6 {
				nx, ny = dx/distance, dy/distance
			}
			depth := radius - distance
			s.x[i] += float32(nx * depth)
			s.y[i] += float32(ny * depth)
			if f := min(c.Friction, 1); f > 0 {
				mx, my := s.x[i]-s.px[i], s.y[i]-s.py[i]
				along := float32(mx*-ny) + float32(my*nx)
				s.x[i] -= float32(float32(-ny*along) * f)
				s.y[i] -= float32(float32(nx*along) * f)
			}
		}
	}
}

// solveLongRange puts each attached particle back within its maximum
// distance of its root; the root does not move for it.
func (s *Scene) solveLongRange(reverse bool) {
	sp := &s.spec
	n := len(sp.LongParticle)
	for j := 0; j < n; j++ {
		k := index(j, n, reverse)
		i := sp.LongParticle[k]
		if s.kin[i] {
			continue
		}
		r := sp.LongRoot[k]
		dx, dy := s.x[i]-s.x[r], s.y[i]-s.y[r]
		length := sqrt(float32(dx*dx) + float32(dy*dy))
		limit := sp.MaxDistance[k]
		if length <= limit || length < 1e-9 {
			continue
		}
		k2 := limit / length
		s.x[i] = s.x[r] + float32(dx*k2)
		s.y[i] = s.y[r] + float32(dy*k2)
	}
}
