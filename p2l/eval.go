package p2l

import (
	"math"
	"slices"
)

// This file is the core evaluation (stages 1 to 7 of P2LRT_V2.md without
// extensions). All geometry is computed in float64 and stored as float32.

// clampParam is the value a parameter is evaluated at, as rig.rs
// Parameter::normalize: a non-finite value becomes the default (as stored);
// a repeat parameter with max > min wraps a value outside its range to
// min + (v − min) mod⁺ (max − min), in f32 as Rust's rem_euclid, so both
// ends stay as they are and min − k·range wraps to min; otherwise the value
// is clamped to [min(min, max), max(min, max)].
func clampParam(p *Parameter, v float32) float32 {
	if !finite(v) {
		return p.Default
	}
	lo, hi := min(p.Min, p.Max), max(p.Min, p.Max)
	if p.Repeat && p.Max > p.Min && (v < p.Min || v > p.Max) {
		size := p.Max - p.Min
		r := float32(math.Mod(float64(v-p.Min), float64(size))) // fmod is exact
		if r < 0 {
			r += size
		}
		return r + p.Min
	}
	return min(max(v, lo), hi)
}

// clampCurrent is the end of stage 1: every current value is clamped to its
// range or wrapped, once.
func (r *Rig) clampCurrent() {
	for i := range r.current {
		r.current[i] = clampParam(&r.model.Parameters[i], r.current[i])
	}
}

// evalObj computes a record's properties and leaves its binding weights in
// r.bw for the geometric part of its blend shapes.
func (r *Rig) evalObj(o *cobj) props {
	p := o.evalChannels(r.current, r.sc)
	for b := range o.binds {
		k0, w0, k1, w1 := o.binds[b].keyWeights(r.current)
		r.bw[b] = bindWeight{k0: k0, w0: w0, k1: k1, w1: w1}
		if k0 >= 0 {
			p.addScaled(&o.diffs[b][k0], w0)
		}
		if k1 >= 0 {
			p.addScaled(&o.diffs[b][k1], w1)
		}
	}
	return p
}

func clamp01(v float64) float64 {
	if v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

func toColor(c [3]float64) Color { return Color{float32(c[0]), float32(c[1]), float32(c[2])} }

// sincosDeg returns sin and cos of an angle in degrees, exact at multiples
// of 90° so that flips and half turns stay exact.
func sincosDeg(a float64) (s, c float64) {
	a = math.Mod(a, 360)
	if a < 0 {
		a += 360
	}
	switch a {
	case 0:
		return 0, 1
	case 90:
		return 1, 0
	case 180:
		return 0, -1
	case 270:
		return -1, 0
	}
	return math.Sincos(a * (math.Pi / 180))
}

// chainedOpacity clamps an object's own opacity to [0,1] and multiplies it
// by its parent deformer's (−1: none), which already carries the chain
// above (eval.rs evaluate_ext: each stage clamps). Colors do not chain: a
// deformer's multiply and screen colors never reach its meshes, and a
// mesh's own colors are not clamped (eval.rs pushes the mesh's own state).
func (r *Rig) chainedOpacity(pr props, parent int32) float64 {
	op := clamp01(pr.opacity)
	if parent >= 0 {
		op *= r.defOpacity[parent]
	}
	return op
}

// evalDeformers is stage 2: deformers in file order (parents first). Every
// deformer ends in canvas space: a warp as its grid mapped through its
// parents, a rotation as a rigid frame.
func (r *Rig) evalDeformers() {
	p := r.p
	for i := range p.defs {
		c := &p.defs[i]
		pr := r.evalObj(&c.obj)
		r.defOpacity[i] = r.chainedOpacity(pr, c.parent)
		f := &r.frames[i]
		if c.kind == WarpDeformer {
			n := 2 * c.npts
			local := r.local[:n]
			clear(local)
			for _, k := range c.g.weights(r.current, r.sc) {
				if k.cell < 0 || c.wcells[k.cell] == nil {
					continue // missing or empty cell: the zero shape, points at the origin
				}
				w := k.w
				for j, v := range c.wcells[k.cell][:n] {
					local[j] += w * float64(v)
				}
			}
			r.addShapeDiffs(local, c.gdiff, len(c.obj.binds))
			r.toCanvas(c.parent, local)
			g := r.warpPts[c.ptOff : c.ptOff+n]
			copy(g, local)
			// Four-corner average affine frame: centre and the mean edge
			// vectors along u and v; A(u,v) = centre + (u−½)·du + (v−½)·dv.
			w := 2 * (c.cols + 1)
			p00, p10 := 0, 2*c.cols
			p01, p11 := c.rows*w, c.rows*w+2*c.cols
			f.aff[0] = (g[p00] + g[p10] + g[p01] + g[p11]) / 4
			f.aff[1] = (g[p00+1] + g[p10+1] + g[p01+1] + g[p11+1]) / 4
			f.aff[2] = ((g[p10] - g[p00]) + (g[p11] - g[p01])) / 2
			f.aff[3] = ((g[p10+1] - g[p00+1]) + (g[p11+1] - g[p01+1])) / 2
			f.aff[4] = ((g[p01] - g[p00]) + (g[p11] - g[p10])) / 2
			f.aff[5] = ((g[p01+1] - g[p00+1]) + (g[p11+1] - g[p10+1])) / 2
			continue
		}
		v := blendRotation(&c.g, c.rcells, r.current, r.sc)
		for b := range c.obj.binds {
			bw := r.bw[b]
			if bw.k0 >= 0 {
				d := &c.rdiff[b][bw.k0]
				v[0], v[1], v[2], v[3] = v[0]+bw.w0*d[0], v[1]+bw.w0*d[1], v[2]+bw.w0*d[2], v[3]+bw.w0*d[3]
			}
			if bw.k1 >= 0 {
				d := &c.rdiff[b][bw.k1]
				v[0], v[1], v[2], v[3] = v[0]+bw.w1*d[0], v[1]+bw.w1*d[1], v[2]+bw.w1*d[2], v[3]+bw.w1*d[3]
			}
		}
		if r.adv != nil && r.adv.arcs != nil { // advanced mode, hook H2
			v[0], v[1] = r.adv.arcPivot(i, v[0], v[1], r.current)
		}
		angle := v[2] + c.base
		scale := v[3]
		ox, oy := v[0], v[1]
		switch {
		case c.parent < 0:
		case p.defs[c.parent].kind == RotationDeformer:
			// Origin through the parent (its flips included); angle and
			// scale compose; a parent's vertical flip or negative scale
			// turns the child frame by a half turn, a horizontal flip does
			// not (the parent's vertical direction is what the child
			// follows).
			pf := &r.frames[c.parent]
			ox, oy = pf.m[0]*v[0]+pf.m[1]*v[1]+pf.m[4], pf.m[2]*v[0]+pf.m[3]*v[1]+pf.m[5]
			angle += pf.angle
			if pf.flipY != (pf.scale < 0) {
				angle += 180
			}
			scale *= pf.scale
		default:
			// Warp parent: rigid frame. The origin maps through the grid;
			// the frame turns with the grid's v direction at 0.1 above the
			// origin, measured toward that point plus a quarter turn, so a
			// collapsed grid turns by 90° (eval.rs rotation_frame); the
			// scale is that of the nearest rotation above.
			pc := &p.defs[c.parent]
			ox, oy = r.warpPoint(pc, int(c.parent), v[0], v[1])
			ax, ay := r.warpPoint(pc, int(c.parent), v[0], v[1]-0.1)
			angle += math.Atan2(ay-oy, ax-ox)*(180/math.Pi) + 90
			if c.nearRot >= 0 {
				scale *= r.frames[c.nearRot].scale
			}
		}
		sn, cs := sincosDeg(angle)
		a, b := scale*cs, -scale*sn
		cc, d := scale*sn, scale*cs
		flipX, flipY := pr.flipX >= 0.5, pr.flipY >= 0.5
		if flipX { // own flips act on child coordinates only
			a, cc = -a, -cc
		}
		if flipY {
			b, d = -b, -d
		}
		f.m = [6]float64{a, b, cc, d, ox, oy}
		f.angle, f.scale, f.flipY = angle, scale, flipY
	}
}

// addShapeDiffs adds the geometric blend-shape differences of a record whose
// binding weights are in r.bw.
func (r *Rig) addShapeDiffs(local []float64, gdiff [][][]float64, nb int) {
	for b := 0; b < nb; b++ {
		bw := r.bw[b]
		if bw.k0 >= 0 {
			if d := gdiff[b][bw.k0]; d != nil {
				w := bw.w0
				for j := range local {
					local[j] += w * d[j]
				}
			}
		}
		if bw.k1 >= 0 {
			if d := gdiff[b][bw.k1]; d != nil {
				w := bw.w1
				for j := range local {
					local[j] += w * d[j]
				}
			}
		}
	}
}

// toCanvas maps points (x,y pairs, in place) from deformer d's child space to
// canvas pixels. d = −1 is the canvas itself.
func (r *Rig) toCanvas(d int32, pts []float64) {
	if d < 0 {
		return
	}
	c := &r.p.defs[d]
	if c.kind == RotationDeformer {
		m := &r.frames[d].m
		m0, m1, m2, m3, m4, m5 := m[0], m[1], m[2], m[3], m[4], m[5]
		for j := 0; j+1 < len(pts); j += 2 {
			x, y := pts[j], pts[j+1]
			pts[j] = m0*x + m1*y + m4
			pts[j+1] = m2*x + m3*y + m5
		}
		return
	}
	r.warpInPlace(c, int(d), pts)
}

// storeCanvas maps local points of deformer d's child space to canvas
// pixels as float32 into dst and reports whether any value differs (in
// bits) from prev, the previous evaluation's.
func (r *Rig) storeCanvas(d int32, local []float64, dst, prev []float32) bool {
	dst = dst[:len(local)]
	prev = prev[:len(local)]
	var diff uint32
	if d >= 0 && r.p.defs[d].kind == RotationDeformer {
		m := &r.frames[d].m
		m0, m1, m2, m3, m4, m5 := m[0], m[1], m[2], m[3], m[4], m[5]
		for j := 0; j+1 < len(local); j += 2 {
			x, y := local[j], local[j+1]
			fx, fy := float32(m0*x+m1*y+m4), float32(m2*x+m3*y+m5)
			dst[j], dst[j+1] = fx, fy
			diff |= (math.Float32bits(fx) ^ math.Float32bits(prev[j])) | (math.Float32bits(fy) ^ math.Float32bits(prev[j+1]))
		}
		return diff != 0
	}
	if d >= 0 {
		r.warpInPlace(&r.p.defs[d], int(d), local)
	}
	for j, v := range local {
		f := float32(v)
		dst[j] = f
		diff |= math.Float32bits(f) ^ math.Float32bits(prev[j])
	}
	return diff != 0
}

// warpPoint maps one unit-square point through warp deformer c (index d).
func (r *Rig) warpPoint(c *cdef, d int, u, v float64) (float64, float64) {
	p := [2]float64{u, v}
	r.warpInPlace(c, d, p[:])
	return p[0], p[1]
}

// warpInPlace maps unit-square coordinates (x,y pairs, in place) through
// warp deformer c (index d), whose canvas grid is already computed. Inside
// the unit square: bilinear, or two triangles split along the cell's
// (1,0)–(0,1) diagonal; outside: warpOutside.
func (r *Rig) warpInPlace(c *cdef, d int, pts []float64) {
	g := r.warpPts[c.ptOff : c.ptOff+2*c.npts]
	cols, rows := c.cols, c.rows
	fc, fr := float64(cols), float64(rows)
	w := 2 * (cols + 1)
	bilinear := c.bilinear
	for k := 0; k+1 < len(pts); k += 2 {
		u, v := pts[k], pts[k+1]
		if !(u >= 0 && u <= 1 && v >= 0 && v <= 1) {
			pts[k], pts[k+1] = r.warpOutside(c, d, g, u, v)
			continue
		}
		fu := u * fc
		i := int(fu)
		if i >= cols {
			i = cols - 1
		}
		fx := fu - float64(i)
		fv := v * fr
		j := int(fv)
		if j >= rows {
			j = rows - 1
		}
		fy := fv - float64(j)
		o00 := j*w + 2*i
		o01 := o00 + w
		q := g[o00 : o00+4 : o00+4] // P00, P10
		s := g[o01 : o01+4 : o01+4] // P01, P11
		if bilinear {
			pts[k] = (1-fy)*((1-fx)*q[0]+fx*q[2]) + fy*((1-fx)*s[0]+fx*s[2])
			pts[k+1] = (1-fy)*((1-fx)*q[1]+fx*q[3]) + fy*((1-fx)*s[1]+fx*s[3])
			continue
		}
		if fx+fy <= 1 {
			pts[k] = q[0] + fx*(q[2]-q[0]) + fy*(s[0]-q[0])
			pts[k+1] = q[1] + fx*(q[3]-q[1]) + fy*(s[1]-q[1])
			continue
		}
		pts[k] = s[2] + (1-fx)*(s[0]-s[2]) + (1-fy)*(q[2]-s[2])
		pts[k+1] = s[3] + (1-fx)*(s[1]-s[3]) + (1-fy)*(q[3]-s[3])
	}
}

// warpOutside maps a point outside the unit square: in the ring [−2, 3]²
// through one coarser layer of virtual cells (2 units deep) whose outer
// points come from the four-corner average affine frame and whose inner
// points are the grid's border points, triangle-interpolated (split along
// the cell's (1,0)–(0,1) diagonal); farther out (and for NaN) through the
// affine frame alone.
func (r *Rig) warpOutside(c *cdef, d int, g []float64, u, v float64) (float64, float64) {
	a := &r.frames[d].aff
	if !(u >= -2 && u <= 3 && v >= -2 && v <= 3) {
		return a[0] + (u-0.5)*a[2] + (v-0.5)*a[4], a[1] + (u-0.5)*a[3] + (v-0.5)*a[5]
	}
	i0, fx := ringAxis(u, c.cols)
	j0, fy := ringAxis(v, c.rows)
	px := func(i, j int) (float64, float64) {
		if i >= 0 && i <= c.cols && j >= 0 && j <= c.rows {
			o := j*2*(c.cols+1) + 2*i
			return g[o], g[o+1]
		}
		cu, cv := ringCoord(i, c.cols), ringCoord(j, c.rows)
		return a[0] + (cu-0.5)*a[2] + (cv-0.5)*a[4], a[1] + (cu-0.5)*a[3] + (cv-0.5)*a[5]
	}
	if fx+fy <= 1 {
		x00, y00 := px(i0, j0)
		x10, y10 := px(i0+1, j0)
		x01, y01 := px(i0, j0+1)
		return x00 + fx*(x10-x00) + fy*(x01-x00), y00 + fx*(y10-y00) + fy*(y01-y00)
	}
	x11, y11 := px(i0+1, j0+1)
	x10, y10 := px(i0+1, j0)
	x01, y01 := px(i0, j0+1)
	return x11 + (1-fx)*(x01-x11) + (1-fy)*(x10-x11), y11 + (1-fx)*(y01-y11) + (1-fy)*(y10-y11)
}

// ringAxis locates u on one axis of the extended grid: columns −1 (the
// virtual line at −2), 0..n (the grid lines i/n) and n+1 (the virtual line
// at 3). It returns the lower column and the fraction towards the next.
func ringAxis(u float64, n int) (int, float64) {
	switch {
	case u < 0:
		return -1, (u + 2) / 2
	case u > 1:
		return n, (u - 1) / 2
	}
	fu := u * float64(n)
	i := int(fu)
	if i >= n {
		i = n - 1
	}
	return i, fu - float64(i)
}

// ringCoord is the unit-square coordinate of extended-grid column i.
func ringCoord(i, n int) float64 {
	switch {
	case i < 0:
		return -2
	case i > n:
		return 3
	}
	return float64(i) / float64(n)
}

// evalMeshes is stage 4: rest positions + keyform offsets + blend shapes,
// mapped through the parent deformer; opacity and colors along the chain.
func (r *Rig) evalMeshes() {
	p := r.p
	r.vcur ^= 1
	out, prev := r.verts[r.vcur], r.verts[r.vcur^1]
	for i := range p.meshes {
		c := &p.meshes[i]
		pr := r.evalObj(&c.obj)
		r.meshOpacity[i] = float32(r.chainedOpacity(pr, c.parent))
		r.meshMul[i], r.meshScr[i] = toColor(pr.mul), toColor(pr.scr)
		r.meshDraw64[i] = pr.drawOrder
		r.meshDraw[i] = float32(pr.drawOrder)
		// A mesh without geometry stays in the render order (it draws
		// nothing); only its own flag hides it (eval.rs render_order).
		r.meshVisible[i] = !c.hidden
		if c.nv == 0 {
			continue
		}
		n := 2 * c.nv
		local := r.local[:n]
		r.meshLocal(c, r.model.Meshes[i].Positions[:n], local)
		r.addShapeDiffs(local, c.gdiff, len(c.obj.binds))
		if r.adv != nil { // advanced mode, hook H4
			r.adv.meshLocal(r, i, local)
		}
		r.vertChanged[i] = r.storeCanvas(c.parent, local, out[c.vOff:c.vOff+n], prev[c.vOff:c.vOff+n])
	}
}

// meshLocal writes rest positions plus the keyform blend into local. Up to
// four present cells (every grid of up to two axes) run as one fused loop;
// the sum runs left to right in cell order on every path, so the result
// does not depend on the path.
func (r *Rig) meshLocal(c *cmesh, pos []float32, local []float64) {
	n := len(pos)
	local = local[:n]
	var cs [4][]float32
	var ws [4]float64
	nc := 0
	var corners []corner
	if c.cells != nil {
		corners = c.g.weights(r.current, r.sc)
		for _, k := range corners {
			if k.cell < 0 || c.cells[k.cell] == nil {
				continue // missing or empty cell: zero offset
			}
			if nc < 4 {
				cs[nc], ws[nc] = c.cells[k.cell][:n], k.w
			}
			nc++
		}
	}
	switch nc {
	case 0:
		for j, v := range pos {
			local[j] = float64(v)
		}
	case 1:
		c0, w0 := cs[0][:n], ws[0]
		for j, v := range pos {
			local[j] = float64(v) + w0*float64(c0[j])
		}
	case 2:
		c0, w0 := cs[0][:n], ws[0]
		c1, w1 := cs[1][:n], ws[1]
		for j, v := range pos {
			local[j] = float64(v) + w0*float64(c0[j]) + w1*float64(c1[j])
		}
	case 3:
		c0, w0 := cs[0][:n], ws[0]
		c1, w1 := cs[1][:n], ws[1]
		c2, w2 := cs[2][:n], ws[2]
		for j, v := range pos {
			local[j] = float64(v) + w0*float64(c0[j]) + w1*float64(c1[j]) + w2*float64(c2[j])
		}
	case 4:
		c0, w0 := cs[0][:n], ws[0]
		c1, w1 := cs[1][:n], ws[1]
		c2, w2 := cs[2][:n], ws[2]
		c3, w3 := cs[3][:n], ws[3]
		for j, v := range pos {
			local[j] = float64(v) + w0*float64(c0[j]) + w1*float64(c1[j]) + w2*float64(c2[j]) + w3*float64(c3[j])
		}
	default:
		for j, v := range pos {
			local[j] = float64(v)
		}
		for _, k := range corners {
			if k.cell < 0 || c.cells[k.cell] == nil {
				continue
			}
			w := k.w
			for j, v := range c.cells[k.cell][:n] {
				local[j] += w * float64(v)
			}
		}
	}
}

// evalGlues is stage 5: after all deformation, each vertex of a pair moves
// toward the other by its weight times the intensity. Glues apply in file
// order and pairs in order, each pair reading both vertices before moving
// them.
func (r *Rig) evalGlues() {
	p := r.p
	out := r.verts[r.vcur]
	for gi := range p.glues {
		g := &p.glues[gi]
		if g.a == g.b {
			continue // a mesh glued to itself is left alone (eval.rs evaluate_ext)
		}
		in := g.ch.scalar(ChannelGlueIntensity, g.intensity, r.current, r.sc)
		va := out[p.meshes[g.a].vOff:]
		vb := out[p.meshes[g.b].vOff:]
		for _, pr := range g.pairs {
			a, b := 2*int(pr.A), 2*int(pr.B)
			ax, ay := float64(va[a]), float64(va[a+1])
			bx, by := float64(vb[b]), float64(vb[b+1])
			wa, wb := float64(pr.WeightA)*in, float64(pr.WeightB)*in
			va[a], va[a+1] = float32(ax+wa*(bx-ax)), float32(ay+wa*(by-ay))
			vb[b], vb[b+1] = float32(bx+wb*(ax-bx)), float32(by+wb*(ay-by))
		}
	}
}

// evalParts evaluates part properties and group composites.
func (r *Rig) evalParts() {
	p := r.p
	for i := range p.parts {
		pr := r.evalObj(&p.parts[i].obj)
		pr.opacity = clamp01(pr.opacity)
		r.partProps[i] = pr
		// The group composite: opacity clamped, colors as evaluated
		// (eval.rs composite_states).
		src := &p.gsrc[i]
		c := *src.comp
		c.MaskMeshes = src.masks
		c.Opacity = float32(clamp01(src.ch.scalar(ChannelOpacity, c.Opacity, r.current, r.sc)))
		c.Multiply = toColor(src.ch.color(ChannelMultiply, c.Multiply, r.current, r.sc))
		c.Screen = toColor(src.ch.color(ChannelScreen, c.Screen, r.current, r.sc))
		r.comps[i] = c
	}
}

// evalDraw is stage 7: sort every draw group and flatten the tree.
func (r *Rig) evalDraw() {
	r.renderOrder = r.renderOrder[:0]
	r.commands = r.commands[:0]
	for i := range r.orderPos {
		r.orderPos[i] = -1
	}
	if len(r.p.groups) > 0 {
		r.emitGroup(0)
	}
}

func cmpSortItem(a, b sortItem) int {
	switch {
	case a.key < b.key:
		return -1
	case a.key > b.key:
		return 1
	}
	return int(a.pos - b.pos)
}

// emitGroup emits group gi, wrapped in an isolated-group command pair when
// its part is isolated and it draws anything.
func (r *Rig) emitGroup(gi int32) {
	g := &r.p.groups[gi]
	if !g.isolated {
		r.emitChildren(g)
		return
	}
	mark, n := len(r.commands), len(r.renderOrder)
	r.commands = append(r.commands, OpenGroup(int(g.part)))
	r.emitChildren(g)
	if len(r.renderOrder) == n {
		r.commands = r.commands[:mark]
		return
	}
	r.commands = append(r.commands, CloseGroup)
}

// emitChildren sorts a group's children by floor(key + 0.001), ties in tree
// order, and emits them: meshes by their draw order, child groups by their
// part's evaluated draw order (the group's static value without a part).
func (r *Rig) emitChildren(g *cgroup) {
	items := r.sortBuf[g.sortOff : g.sortOff+len(g.children)]
	for k, n := range g.children {
		var key float64
		if n.group >= 0 {
			cg := &r.p.groups[n.group]
			if cg.part >= 0 {
				key = r.partProps[cg.part].drawOrder
			} else {
				key = cg.static
			}
		} else {
			key = r.meshDraw64[n.mesh]
		}
		items[k] = sortItem{key: math.Floor(key + 0.001), pos: int32(k), node: n}
	}
	slices.SortFunc(items, cmpSortItem)
	for _, it := range items {
		if it.node.group >= 0 {
			r.emitGroup(it.node.group)
			continue
		}
		m := it.node.mesh
		if !r.meshVisible[m] {
			continue // hidden meshes are not drawn
		}
		// A mesh listed twice in the tree is drawn twice (eval.rs
		// render_order); its render position is its first.
		if r.orderPos[m] < 0 {
			r.orderPos[m] = int32(len(r.renderOrder))
		}
		r.renderOrder = append(r.renderOrder, int(m))
		r.commands = append(r.commands, RenderCommand(m))
	}
}

// applyMultipliers applies the post-evaluation multipliers and overrides
// (see the integration points on Rig).
func (r *Rig) applyMultipliers() {
	p := r.p
	for i := range p.meshes {
		f := r.modelOpacity
		for _, a := range p.meshes[i].chain {
			f *= r.partOpacityMul[a]
		}
		if f != 1 {
			r.meshOpacity[i] = float32(clamp01(float64(r.meshOpacity[i]) * float64(f)))
		}
		if o := r.meshColorOverride[i]; o.set {
			r.meshMul[i], r.meshScr[i] = o.mul, o.scr
			continue
		}
		for _, a := range p.meshes[i].chain {
			if o := r.partColorOverride[a]; o.set {
				r.meshMul[i], r.meshScr[i] = o.mul, o.scr
				break
			}
		}
	}
}

// updateChanges computes the change flags against the previous evaluation.
func (r *Rig) updateChanges() {
	p := r.p
	cur, prev := r.verts[r.vcur], r.verts[r.vcur^1]
	for i := range p.meshes {
		var ch MeshChange
		if r.orderPos[i] >= 0 && r.meshOpacity[i] > 0 {
			ch |= MeshDrawn
		}
		if !r.evaluated {
			ch |= meshAllChanges
		} else {
			if r.meshVisible[i] != r.prevVisible[i] {
				ch |= MeshVisibilityChanged
			}
			if r.meshOpacity[i] != r.prevOpacity[i] {
				ch |= MeshOpacityChanged
			}
			if r.meshDraw[i] != r.prevDraw[i] {
				ch |= MeshDrawOrderChanged
			}
			if r.orderPos[i] != r.prevPos[i] {
				ch |= MeshRenderOrderChanged
			}
			if r.meshMul[i] != r.prevMul[i] || r.meshScr[i] != r.prevScr[i] {
				ch |= MeshColorsChanged
			}
			c := &p.meshes[i]
			if c.glued {
				// Glue moved vertices after storeCanvas compared them.
				r.vertChanged[i] = !bitsEqual32(cur[c.vOff:c.vOff+2*c.nv], prev[c.vOff:c.vOff+2*c.nv])
			}
			if r.vertChanged[i] {
				ch |= MeshVerticesChanged
			}
		}
		r.changes[i] = ch
	}
	copy(r.prevVisible, r.meshVisible)
	copy(r.prevOpacity, r.meshOpacity)
	copy(r.prevDraw, r.meshDraw)
	copy(r.prevPos, r.orderPos)
	copy(r.prevMul, r.meshMul)
	copy(r.prevScr, r.meshScr)
}

// bitsEqual32 reports whether a and b hold the same float32 bits.
func bitsEqual32(a, b []float32) bool {
	b = b[:len(a)]
	var diff uint32
	for j, v := range a {
		diff |= math.Float32bits(v) ^ math.Float32bits(b[j])
	}
	return diff == 0
}
