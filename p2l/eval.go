package p2l

import (
	"bytes"
	"math"
	"slices"
	"unsafe"

	"github.com/psd2live/p2l-ebiten/p2l/internal/libm"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file is the core evaluation (stages 1 to 7 of P2LRT_V2.md without
// extensions). Geometry is computed in float32 step by step as the
// reference runtime's eval.rs does (warp mapping in float64 inside, as
// warp.rs), properties (opacity, colours, draw order) in float64.

// clampParam is the value a parameter is evaluated at, as rig.rs
// Parameter::normalize: a non-finite value becomes the default (as stored);
// a repeat parameter with max > min wraps a value outside its range to
// min + (v − min) mod⁺ (max − min), in f32 as Rust's rem_euclid, so both
// ends stay as they are and min − k·range wraps to min; otherwise the value
// is clamped to [min(min, max), max(min, max)].
func clampParam(p *p2lrt.Parameter, v float32) float32 {
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
		r.current[i] = clampParam(&r.model.file.Parameters[i], r.current[i])
	}
}

// markMoved decides what this evaluation recomputes. A parameter moved
// when its value differs in bits from the last full evaluation's (every
// one does when there is none, and in advanced mode, whose hooks change
// what evaluation reads and writes). A deformer is recomputed when a
// parameter it reads moved or its parent is recomputed; a mesh's geometry
// when a parameter of its keyforms or bindings moved or its parent deformer
// is recomputed (its positions in the parent's space only in the first
// case); a glue component's meshes and glues all together when one of them
// is recomputed or a parameter of an intensity moved (glue reads the other
// meshes' vertices from before glue). Everything else reads
// exactly what it read last time, so its last results are its results:
// the model is immutable and evaluation is deterministic.
func (r *Rig) markMoved() {
	all := !r.lastIn.valid || r.adv != nil
	r.allMoved = all
	clear(r.moved)
	for i, v := range r.current {
		if all || math.Float32bits(v) != math.Float32bits(r.lastIn.current[i]) {
			r.moved[i>>6] |= 1 << (i & 63)
		}
	}
	p := r.p
	for i := range p.defs {
		c := &p.defs[i]
		r.defOwn[i] = all || c.reads.meets(r.moved)
		r.defMoved[i] = r.defOwn[i] || c.parent >= 0 && r.defMoved[c.parent]
	}
	r.locateAxes()
	clear(r.gridN) // the grids' corner weights are this evaluation's to compute
	for ci := range p.gcomps {
		r.compMoved[ci] = all || p.gcomps[ci].reads.meets(r.moved)
	}
	for i := range p.meshes {
		c := &p.meshes[i]
		r.localMoved[i] = all || c.reads.meets(r.moved)
		r.meshMoved[i] = r.localMoved[i] || c.parent >= 0 && r.defMoved[c.parent]
		if r.meshMoved[i] && c.gcomp >= 0 {
			r.compMoved[c.gcomp] = true
		}
	}
	for ci := range p.gcomps {
		if r.compMoved[ci] {
			for _, m := range p.gcomps[ci].meshes {
				r.meshMoved[m] = true
			}
		}
	}
}

// evalObj computes a record's properties and leaves its binding weights in
// r.bw for the geometric part of its blend shapes.
func (r *Rig) evalObj(o *cobj) props {
	p := o.evalChannels(r.current, r.sc)
	r.bindWeights(o)
	for b := range o.binds {
		if bw := r.bw[b]; bw.k0 >= 0 {
			p.addScaled(&o.diffs[b][bw.k0], float64(bw.w0))
		}
		if bw := r.bw[b]; bw.k1 >= 0 {
			p.addScaled(&o.diffs[b][bw.k1], float64(bw.w1))
		}
	}
	return p
}

// bindWeights leaves a record's binding weights in r.bw, as evalObj does,
// for a record whose properties stand but whose geometry is recomputed.
func (r *Rig) bindWeights(o *cobj) {
	for b := range o.binds {
		k0, w0, k1, w1 := o.binds[b].keyWeights(r.current)
		r.bw[b] = bindWeight{k0: k0, w0: w0, k1: k1, w1: w1}
	}
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

func toColor(c [3]float64) p2lrt.Color {
	return p2lrt.Color{float32(c[0]), float32(c[1]), float32(c[2])}
}

// Rust's f32::to_radians and to_degrees factors (core's RADS_PER_DEG =
// PI / 180 in f32, PIS_IN_180).
const (
	radsPerDeg float32 = float32(math.Pi) / 180
	degsPerRad float32 = 57.2957795130823208767981548141051703
)

// sinCos32 is f32::sin_cos as the reference runs it on Linux: glibc's
// sincosf, which is not correctly rounded (internal/libm reproduces it).
func sinCos32(x float32) (s, c float32) { return libm.Sincosf(x) }

// chainedOpacity clamps an object's own opacity op to [0,1] and multiplies it
// by its parent deformer's (−1: none), which already carries the chain
// above (eval.rs evaluate_ext: each stage clamps). Colors do not chain: a
// deformer's multiply and screen colors never reach its meshes, and a
// mesh's own colors are not clamped (eval.rs pushes the mesh's own state).
// Cubism evaluation does not clamp: the keyform blend is multiplied down
// the deformer chain as it is (moc3-rs update; the samples store keyform
// opacities such as 1.00005, docs/CUBISM.md).
func (r *Rig) chainedOpacity(op float64, parent int32) float64 {
	if !r.p.cubism {
		op = clamp01(op)
	}
	if parent >= 0 {
		op *= r.defOpacity[parent]
	}
	return op
}

// evalDeformers is stage 2: deformers in file order (parents first). Every
// deformer ends in canvas space: a warp as its lattice mapped through its
// parent, a rotation as a rigid frame (eval.rs deformer_frame). Geometry is
// float32 step by step as eval.rs computes it, so that vertices match the
// reference runtime's; the explicit float32 conversions of products keep a
// compiler from fusing them into multiply-adds.
func (r *Rig) evalDeformers() {
	p := r.p
	for i := range p.defs {
		if !r.defMoved[i] {
			continue // the last evaluation's frame, lattice and opacity stand
		}
		c := &p.defs[i]
		// Unless a parameter it reads moved, only its parent did: its own
		// properties, lattice in the parent's space (and where that fell
		// in a parent warp) or keyed rotation stand, as a mesh's do.
		own := r.defOwn[i]
		pr := &r.defProps[i]
		if own {
			*pr = r.evalObj(&c.obj)
		}
		r.defOpacity[i] = r.chainedOpacity(pr.opacity, c.parent)
		if p.cubism {
			inheritColors(r, pr, c.parent, &r.defMul[i], &r.defScr[i])
		}
		f := &r.frames[i]
		if c.kind == p2lrt.WarpDeformer {
			n := 2 * c.npts
			local := r.warpLocals[c.ptOff : c.ptOff+n]
			if own {
				clear(local) // without keyforms: every point at the origin
				if c.wcells != nil {
					// Missing and empty cells are the zero shape.
					r.blendCells(&c.g, c.wcells, local, local)
				}
				r.addShapeDiffs(local, c.gdiff, len(c.obj.binds))
			}
			// A warp passes on the scale of the rotation above (eval.rs
			// Transform::Warp scale).
			f.scale = 1
			pts := local
			if c.parent >= 0 {
				pts = r.local[:n]
				pl := r.warpPlace.of(c.ptOff/2, c.npts)
				if own {
					r.mapPoints(c.parent, local, pts, pl)
				} else {
					r.mapPlaced(c.parent, local, pts, pl)
				}
				f.scale = r.frames[c.parent].scale
			}
			// The lattice is float32 (eval.rs); warp.rs reads it as float64:
			// keep it so, once, rather than at every mapped point.
			g := r.warpPts[c.ptOff : c.ptOff+n]
			r.smallLattice[i] = widen(pts, g)
			// Four-corner average affine frame (warp.rs Frame::new), for
			// points outside the unit square: centre and the mean edge
			// vectors along u and v; A(u,v) = centre + (u−½)·du + (v−½)·dv.
			w := 2 * (c.cols + 1)
			p00, p10 := 0, 2*c.cols
			p01, p11 := c.rows*w, c.rows*w+2*c.cols
			for k := range 2 {
				c00, c10, c01, c11 := g[p00+k], g[p10+k], g[p01+k], g[p11+k]
				f.aff[k] = (c00 + c10 + c01 + c11) / 4
				f.aff[2+k] = ((c10 - c00) + (c11 - c01)) / 2
				f.aff[4+k] = ((c01 - c00) + (c11 - c10)) / 2
			}
			if c.cellOff >= 0 {
				warpCells(c, g, r.cellsOf(c))
			}
			continue
		}
		v := &r.rotLocals[i] // origin, angle, scale in the parent's space
		if own {
			*v = blendRotation(&c.g, c.rcells, r.current, r.sc)
			for b := range c.obj.binds {
				bw := r.bw[b]
				if bw.k0 >= 0 {
					d, w := &c.rdiff[b][bw.k0], bw.w0
					v[0], v[1], v[2], v[3] = v[0]+float32(d[0]*w), v[1]+float32(d[1]*w), v[2]+float32(d[2]*w), v[3]+float32(d[3]*w)
				}
				if bw.k1 >= 0 {
					d, w := &c.rdiff[b][bw.k1], bw.w1
					v[0], v[1], v[2], v[3] = v[0]+float32(d[0]*w), v[1]+float32(d[1]*w), v[2]+float32(d[2]*w), v[3]+float32(d[3]*w)
				}
			}
			if r.adv != nil && r.adv.arcs != nil { // advanced mode, hook H2
				x, y := r.adv.arcPivot(i, float64(v[0]), float64(v[1]), r.current)
				v[0], v[1] = float32(x), float32(y)
			}
		}
		angle := v[2] + c.base // the base angle turns the frame on top of the keyed one
		scale := v[3]
		ox, oy := v[0], v[1]
		switch {
		case c.parent < 0:
		case p.defs[c.parent].kind == p2lrt.RotationDeformer:
			// Origin through the parent (its flips included); angle and
			// scale compose; a parent's vertical flip and a negative parent
			// scale each turn the child frame by a half turn, a horizontal
			// flip does not (the parent's vertical direction is what the
			// child follows).
			pf := &r.frames[c.parent]
			ox, oy = pf.apply(v[0], v[1])
			var half float32
			if pf.flipY {
				half = 180
			}
			if pf.scale < 0 {
				half += 180
			}
			angle = pf.angle + angle + half
			scale = pf.scale * scale
		default:
			// Warp parent: rigid frame. The origin maps through the lattice;
			// the frame turns with the lattice's v direction at 0.1 above
			// the origin, measured toward that point plus a quarter turn, so
			// a collapsed lattice turns by 90° (eval.rs rotation_frame); the
			// scale is the one the warp passes on.
			pt := [4]float32{v[0], v[1], v[0], v[1] - 0.1}
			r.mapPoints(c.parent, pt[:], pt[:], r.defPlace)
			ox, oy = pt[0], pt[1]
			var turn float32
			if p.cubism {
				turn = r.cubismTurn(c.parent, v[0], v[1], ox, oy)
			} else {
				turn = float32(libm.Atan2f(pt[3]-oy, pt[2]-ox)*degsPerRad) + 90 // glibc atan2f, to_degrees, + 90°
			}
			angle += turn
			scale *= r.frames[c.parent].scale
		}
		turnDeg := angle
		if p.cubism {
			// Cubism angles reach thousands of degrees (Ren turns a
			// rotation 3600° over one parameter); in radians float32
			// keeps only 3.8e-6 of 58 rad, 7e-3 px at 1800 px from the
			// origin. Whole turns come off first, exactly (fmod is).
			turnDeg = float32(math.Mod(float64(angle), 360))
		}
		sn, cs := sinCos32(turnDeg * radsPerDeg)
		flipX, flipY := pr.flipX >= 0.5, pr.flipY >= 0.5 // own flips act on child coordinates only
		sx, sy := float64(scale), float64(scale)
		if flipX {
			sx = -sx
		}
		if flipY {
			sy = -sy
		}
		f.ox, f.oy, f.angle, f.scale, f.sin, f.cos, f.flipX, f.flipY = ox, oy, angle, scale, sn, cs, flipX, flipY
		f.sx, f.sy = float32(sx), float32(sy)
		// Element by element: an array literal is built on the stack and
		// copied.
		m := &f.m
		m[0], m[1], m[2], m[3], m[4], m[5] = sx*float64(cs), -sy*float64(sn), sx*float64(sn), sy*float64(cs), float64(ox), float64(oy)
	}
}

// widen writes the float32 lattice pts (x,y pairs) into g as float64 and
// reports whether its coordinates are small enough to bound the points
// mapped inside its unit square (latticeBound): whether the float32 sums
// of their squares are finite. A square of 2^64 or more in magnitude is
// +Inf (float32's largest is below 2^128), an infinity or NaN makes the
// sum +Inf or NaN, so finite sums mean every coordinate is below 2^64,
// far within the bound; real lattices are pixels, and their sums stay
// finite up to the largest lattice (4097 × 4097 points, under 2^24) with
// coordinates below 2^51. Two
// multiplications and additions a float, where the largest magnitude's
// bits cost four instructions (a move from the float register, a mask, a
// comparison, a conditional move). A call of its own, not inlined: inside
// evalDeformers its loop ran out of registers and kept its sums on the
// stack.
//
//go:noinline
func widen(pts []float32, g []float64) (small bool) {
	g = g[:len(pts)]
	var sumX, sumY float32 // two sums, so that neither holds up the loop
	// j < len(pts)−1: the compiler proves j and j+1 in range.
	for j := 0; j < len(pts)-1; j += 2 {
		x, y := pts[j], pts[j+1]
		g[j], g[j+1] = float64(x), float64(y)
		sumX += float32(x * x)
		sumY += float32(y * y)
	}
	if n := len(pts); n%2 != 0 { // never a lattice's pairs: copied, not small
		g[n-1] = float64(pts[n-1])
		return false
	}
	sum := sumX + sumY
	return sum <= math.MaxFloat32
}

// apply maps a point of rotation frame f's child space to canvas pixels
// (eval.rs Transform::apply, in float32).
func (f *frame) apply(x, y float32) (float32, float32) {
	return rotate(x, y, f.sx, f.sy, f.sin, f.cos, f.ox, f.oy)
}

// rotate is frame.apply on the frame's numbers as arguments, so that a loop
// over many points holds them in registers.
func rotate(x, y, sx, sy, sin, cos, ox, oy float32) (float32, float32) {
	// (−x)·scale is x·(−scale), bit for bit.
	x *= sx
	y *= sy
	return ox + float32(x*cos) - float32(y*sin), oy + float32(x*sin) + float32(y*cos)
}

// addShapeDiffs adds the geometric blend-shape differences of a record whose
// binding weights are in r.bw (eval.rs: += (target − base)·w, binding by
// binding, lower key first).
func (r *Rig) addShapeDiffs(local []float32, gdiff [][][]float32, nb int) {
	for b := 0; b < nb; b++ {
		bw := r.bw[b]
		if bw.k0 >= 0 {
			if d := gdiff[b][bw.k0]; d != nil {
				w := bw.w0
				for j := range local {
					local[j] += float32(d[j] * w)
				}
			}
		}
		if bw.k1 >= 0 {
			if d := gdiff[b][bw.k1]; d != nil {
				w := bw.w1
				for j := range local {
					local[j] += float32(d[j] * w)
				}
			}
		}
	}
}

// toCanvas maps float64 points (x,y pairs, in place) from deformer d's
// child space to canvas pixels, for the advanced mode's simulations: a
// rotation through its affine frame, a warp as warp.rs map64. d = −1 is
// the canvas itself.
func (r *Rig) toCanvas(d int32, pts []float64) {
	if d < 0 {
		return
	}
	c := &r.p.defs[d]
	if c.kind == p2lrt.RotationDeformer {
		m := &r.frames[d].m
		for j := 0; j+1 < len(pts); j += 2 {
			x, y := pts[j], pts[j+1]
			pts[j] = m[0]*x + m[1]*y + m[4]
			pts[j+1] = m[2]*x + m[3]*y + m[5]
		}
		return
	}
	for j := 0; j+1 < len(pts); j += 2 {
		pts[j], pts[j+1] = r.mapWarp64(c, int(d), pts[j], pts[j+1])
	}
}

// one32 is the bits of float32 1.
const one32 = 0x3f800000

// latticeBound is a bound of the coordinates of a warp's lattice, 2^124,
// through which every point inside the open unit square maps to a finite
// float32 without a check: it is a corner plus two corner differences
// times weights in [0, 1] (a triangle) or four corners times weights in
// [0, 1] (bilinear), at most 5·2^124 < 2^127 in magnitude in float64,
// whose roundings cannot carry it past float32's largest (about 2^128). A
// warp's lattice is a sum of keyforms and blend shapes and may overflow
// where the file's numbers are extreme; real lattices are pixels, far
// below. widen tests a stricter bound, 2^64.
const latticeBound = 0x1p124

// placement records where points of a warp's child space fall in its
// lattice, so that the same points can be mapped again through the moved
// lattice without finding their cells (mapPlaced): per point, at is −1 for
// a point outside the open unit square (mapWarp64), else for a warp with a
// cell table the triangle (2·cell, +1 for the upper one) in Rig.tris, for a
// bilinear warp the offset of the cell's corner P00 in the warp's lattice,
// for a triangle-interpolated warp without a table twice the offset of the
// triangle's first corner (P00 or P11), +1 for the upper one; w holds two
// weights per point, the cell's s and t, or 1−s and 1−t in an upper
// triangle, as warp.rs computes them (float64, exact bits).
type placement struct {
	at []int32
	w  [][2]float64
}

func newPlacement(points int) placement {
	return placement{at: make([]int32, points), w: make([][2]float64, points)}
}

// of returns the placement of points [off, off+n).
func (pl placement) of(off, n int) placement {
	return placement{at: pl.at[off : off+n], w: pl.w[off : off+n]}
}

// pairs returns the x,y pairs of s (len(s)/2 of them), without copying:
// the warp loops index points, not floats, without bounds checks.
func pairs(s []float32) [][2]float32 {
	return unsafe.Slice((*[2]float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s)/2)
}

// cellsOf returns the triangles of warp c's cell table (warpCells), one
// pair a cell, row by row; c must have one (cellOff ≥ 0).
func (r *Rig) cellsOf(c *cdef) [][6]float64 {
	return r.tris[c.cellOff : c.cellOff+2*c.cols*c.rows]
}

// tableMinPoints is the fewest child points a cell, on average, for which
// a triangle-interpolated warp keeps a cell table (warpCells). Building a
// cell's two triangles costs about 60 instructions each time the lattice
// moves; a point placed from the lattice instead costs about 10 more than
// from the table (the corner differences and the triangle's corners):
// with fewer than 4 to 6 points a cell the table costs more than it
// saves. Cubism models have about 2 (Hiyori, Natori), the synthetic and
// default characters many more.
const tableMinPoints = 4

// chooseCellTables gives the triangle-interpolated warps whose children
// map at least tableMinPoints points a cell through them a cell table in
// Rig.tris (cellOff, counted in tris); the other warps, and every bilinear
// warp, interpolate from their lattice (cellOff −1).
func (p *prepared) chooseCellTables() {
	points := make([]int, len(p.defs)) // child points mapped through each deformer
	for i := range p.defs {
		if c := &p.defs[i]; c.parent >= 0 {
			n := 2 // a rotation's origin and the point that turns it
			if c.kind == p2lrt.WarpDeformer {
				n = c.npts
			}
			points[c.parent] += n
		}
	}
	for i := range p.meshes {
		if c := &p.meshes[i]; c.parent >= 0 {
			points[c.parent] += c.nv
		}
	}
	for i := range p.defs {
		c := &p.defs[i]
		c.cellOff = -1
		if cells := c.cols * c.rows; c.kind == p2lrt.WarpDeformer && !c.bilinear && points[i] >= tableMinPoints*cells {
			c.cellOff = p.tris
			p.tris += 2 * cells
		}
	}
}

// latticeOf returns warp c's lattice in canvas space (float64 x,y pairs,
// row by row) and the floats of one of its rows.
func (r *Rig) latticeOf(c *cdef) (g []float64, row int) {
	return r.warpPts[c.ptOff : c.ptOff+2*c.npts], 2 * (c.cols + 1)
}

// warpCells writes the cell table of triangle-interpolated warp c's
// lattice g: two triangles a cell, the lower one's corner P00 and the
// differences P10 − P00 and P01 − P00, then the upper one's P11, P01 − P11
// and P10 − P11. warp.rs triangle interpolates a point at (s, t) of the
// lower one as P00 + s·(P10 − P00) + t·(P01 − P00), of the upper one as
// P11 + (1−s)·(P01 − P11) + (1−t)·(P10 − P11): with the differences taken
// once per cell (in float64, as warp.rs), both are one formula, triangle.
// A bilinear warp needs no table: its points read their four corners from
// the lattice (cellCorners); nor do triangle-interpolated warps with few
// points a cell (chooseCellTables, triangleCorners).
func warpCells(c *cdef, g []float64, tris [][6]float64) {
	w := 2 * (c.cols + 1)
	starts := cellStarts(g, w)
	t := 0
	for k := range c.rows {
		for o, end := k*w, k*w+w-2; o < end; o += 2 {
			q, p := cellCorners(starts, o, w) // P00, P10; P01, P11
			// Element by element: an array literal is built on the
			// stack and copied, which costs more than the arithmetic.
			lo, up := &tris[t], &tris[t+1]
			lo[0], lo[1], lo[2], lo[3], lo[4], lo[5] = q[0], q[1], q[2]-q[0], q[3]-q[1], p[0]-q[0], p[1]-q[1]
			up[0], up[1], up[2], up[3], up[4], up[5] = p[2], p[3], p[0]-p[2], p[1]-p[3], q[2]-p[2], q[3]-p[3]
			t += 2
		}
	}
}

// unitCell finds the lattice cell of cols × rows cells (fc, fr as float64)
// holding a point of the open unit square, and the point's place in it,
// as warp.rs: the cell's column i and row k and s, t ∈ [0, 1).
func unitCell(u, v float32, fc, fr float64) (i, k int, s, t float64) {
	fx, fy := float64(u)*fc, float64(v)*fr
	i, k = int(fx), int(fy)
	return i, k, fx - float64(i), fy - float64(k)
}

// triangle interpolates a triangle of a cell table (warpCells) at weights
// s, t: corner + s·(first difference) + t·(second), in warp.rs's order of
// operations.
func triangle(q *[6]float64, s, t float64) (float64, float64) {
	return q[0] + float64(s*q[2]) + float64(t*q[4]), q[1] + float64(s*q[3]) + float64(t*q[5])
}

// triangleStarts returns the floats of lattice g (rows of w ≥ 4 floats)
// at which the nearest corner of a triangle (triangleCorners) can lie: its
// farthest ends w+1 after it, so those are all but the last w+1.
func triangleStarts(g []float64, w int) []float64 { return g[:len(g)-w-1] }

// triangleCorners returns the corners of a triangle placed from a lattice
// with rows of w floats, given by its triangleStarts, at b (placement.at
// of a warp without a cell table): the first corner and the two it
// interpolates toward, P00, P10, P01 for a lower triangle, P11, P01, P10
// for an upper one, whose corners lie before its first. One bounds check,
// on the nearest corner (P00 or P10) among the starts, covers all three:
// the farthest (P01 or P11) ends w+1 floats after it. No branch: which
// triangle a point falls in follows no pattern.
func triangleCorners(starts []float64, b int32, w int) (p0, p1, p2 *[2]float64) {
	up, first := int(b&1), int(b>>1)
	sign := 1 - 2*up
	lo := first - up*w // the nearest corner: P00 or P10
	at := unsafe.Add(unsafe.Pointer(&starts[lo]), 8*(first-lo))
	return (*[2]float64)(at), (*[2]float64)(unsafe.Add(at, 16*sign)), (*[2]float64)(unsafe.Add(at, 8*w*sign))
}

// triangleAt interpolates a triangle of corners p0, p1, p2
// (triangleCorners) at weights s, t: p0 + s·(p1 − p0) + t·(p2 − p0), in
// warp.rs's order of operations, as triangle does from a cell table.
func triangleAt(p0, p1, p2 *[2]float64, s, t float64) (float64, float64) {
	return p0[0] + float64(s*(p1[0]-p0[0])) + float64(t*(p2[0]-p0[0])),
		p0[1] + float64(s*(p1[1]-p0[1])) + float64(t*(p2[1]-p0[1]))
}

// bilinearWeights are the weights of the corners P00, P10, P01, P11 at
// (s, t) (warp.rs bilinear).
func bilinearWeights(s, t float64) (a, b, c, d float64) {
	return (1 - s) * (1 - t), s * (1 - t), (1 - s) * t, s * t
}

// cellStarts returns the floats of lattice g (rows of w ≥ 4 floats) at
// which a cell's corner P00 can lie: a cell's eight floats end w+3 after
// it, so those are all but the last w+3.
func cellStarts(g []float64, w int) []float64 { return g[:len(g)-w-3] }

// cellCorners returns the corners of the cell whose corner P00 is at
// offset o of a lattice with rows of w floats, given by its cellStarts:
// P00 and P10, then P01 and P11. The one bounds check, o < len(starts),
// covers all eight floats (the last is at o+w+3 < len(g)): a check per
// corner, or the two of indexing g[o+w+3] and &g[o], take more
// instructions than the interpolation's additions.
func cellCorners(starts []float64, o, w int) (q, p *[4]float64) {
	at := unsafe.Pointer(&starts[o])
	return (*[4]float64)(at), (*[4]float64)(unsafe.Add(at, 8*w))
}

// bilinear interpolates a bilinear cell (cellCorners) with the corner
// weights a, b, c, d (bilinearWeights), as warp.rs bilinear.
func bilinear(q, p *[4]float64, a, b, c, d float64) (float64, float64) {
	return float64(a*q[0]) + float64(b*q[2]) + float64(c*p[0]) + float64(d*p[2]),
		float64(a*q[1]) + float64(b*q[3]) + float64(c*p[1]) + float64(d*p[3])
}

// mapPoints maps points (x,y pairs) of deformer d's child space to canvas
// pixels, from src into dst (which may be src itself): through a rotation's
// frame (eval.rs Transform::apply), through a warp's lattice as warp.rs
// Lattice::map (float64 inside, float32 in and out), recording in pl where
// each point fell (mapPlaced maps them again from there); d = −1 is the
// canvas itself. It reports whether every point is known finite: through
// a warp by the lattice bound (latticeBound) for the points inside the unit
// square, checking the others; through a rotation by sums of the
// coordinates it writes (a later pass would read every point again);
// false, unchecked, for the canvas and where the sums overflow.
func (r *Rig) mapPoints(d int32, src, dst []float32, pl placement) (finite bool) {
	dst = dst[:len(src)]
	switch {
	case d < 0:
		copy(dst, src)
		return false
	case r.p.defs[d].kind == p2lrt.RotationDeformer:
		f := &r.frames[d]
		sx, sy, sin, cos, ox, oy := f.sx, f.sy, f.sin, f.cos, f.ox, f.oy
		// The sums of the coordinates are finite only if every one is
		// (an infinity or NaN carries through a sum); a sum of finite
		// coordinates beyond float32 only sends the mesh to the final
		// check. Two sums, so that neither holds up the loop.
		var sumX, sumY float32
		// j < len(src)−1 rather than j+1 < len(src): the compiler then
		// proves j and j+1 in range, and checks nothing in the loop.
		for j := 0; j < len(src)-1; j += 2 {
			x, y := rotate(src[j], src[j+1], sx, sy, sin, cos, ox, oy)
			dst[j], dst[j+1] = x, y
			sumX += x
			sumY += y
		}
		sum := sumX + sumY
		return sum-sum == 0
	}
	c := &r.p.defs[d]
	var outside bool
	switch g, w := r.latticeOf(c); {
	case c.bilinear:
		outside = placeBilinear(c, g, w, src, dst, pl)
	case c.cellOff >= 0:
		outside = placeTriangles(c, r.cellsOf(c), src, dst, pl)
	default:
		outside = placeTrianglesAt(c, g, w, src, dst, pl)
	}
	if outside {
		return r.mapOutside(c, d, src, dst, pl.at) && r.smallLattice[d]
	}
	return r.smallLattice[d]
}

// placeTriangles, placeTrianglesAt and placeBilinear map the points in of
// warp c's child space (x,y pairs) that lie inside the open unit square
// into out, through the cell table of a triangle-interpolated warp, its
// lattice, or the lattice of a bilinear one, record their placement in pl,
// and report whether any point lies elsewhere (their placement −1, their
// out left for mapWarp64). Their loops are the hot ones: they call nothing
// and there is one per interpolation, so that their variables stay in
// registers. They step through in and out two floats at a time (j, while
// p counts the points), not through [2]float32 pairs: Go has no scaled
// addressing for a pair's second float32 and computed three addresses a
// pair, on reading and on writing.

// inUnit reports whether 0 ≤ u, v < 1, on the float32 bits: sign clear
// and below 1.0's (−0 and NaN go to mapWarp64, which maps −0 alike), so
// that a point's cell is the integer part of its scaled coordinates
// without a clamp.
func inUnit(u, v float32) bool { return max(math.Float32bits(u), math.Float32bits(v)) < one32 }

// placeTriangles maps through a triangle-interpolated warp's cell table.
func placeTriangles(c *cdef, tris [][6]float64, in, out []float32, pl placement) (outside bool) {
	cols := c.cols
	fc, fr := float64(cols), float64(c.rows)
	out = out[:len(in)]
	wt := pl.w[:len(in)/2]
	at := pl.at[:len(wt)]
	for j, p := 0, 0; j < len(in)-1; j, p = j+2, p+1 {
		su, sv := in[j], in[j+1]
		if !inUnit(su, sv) {
			at[p], outside = -1, true
			continue
		}
		i, k, s, t := unitCell(su, sv, fc, fr)
		tri := 2 * (k*cols + i)
		if s+t > 1 {
			tri, s, t = tri+1, 1-s, 1-t // the upper triangle, from P11
		}
		at[p], wt[p][0], wt[p][1] = int32(tri), s, t
		x, y := triangle(&tris[tri], s, t)
		out[j], out[j+1] = float32(x), float32(y)
	}
	return outside
}

// placeTrianglesAt maps through a triangle-interpolated warp's lattice g,
// rows of w floats.
func placeTrianglesAt(c *cdef, g []float64, w int, in, out []float32, pl placement) (outside bool) {
	fc, fr := float64(c.cols), float64(c.rows)
	starts := triangleStarts(g, w)
	out = out[:len(in)]
	wt := pl.w[:len(in)/2]
	at := pl.at[:len(wt)]
	for j, p := 0, 0; j < len(in)-1; j, p = j+2, p+1 {
		su, sv := in[j], in[j+1]
		if !inUnit(su, sv) {
			at[p], outside = -1, true
			continue
		}
		i, k, s, t := unitCell(su, sv, fc, fr)
		b := 2 * (k*w + 2*i) // the lower triangle, from P00
		if s+t > 1 {
			b, s, t = 2*(k*w+2*i+w+2)+1, 1-s, 1-t // the upper triangle, from P11
		}
		at[p], wt[p][0], wt[p][1] = int32(b), s, t
		p0, p1, p2 := triangleCorners(starts, int32(b), w)
		x, y := triangleAt(p0, p1, p2, s, t)
		out[j], out[j+1] = float32(x), float32(y)
	}
	return outside
}

// placeBilinear maps through a bilinear warp's lattice g, rows of w floats.
func placeBilinear(c *cdef, g []float64, w int, in, out []float32, pl placement) (outside bool) {
	fc, fr := float64(c.cols), float64(c.rows)
	starts := cellStarts(g, w)
	out = out[:len(in)]
	wt := pl.w[:len(in)/2]
	at := pl.at[:len(wt)]
	for j, p := 0, 0; j < len(in)-1; j, p = j+2, p+1 {
		su, sv := in[j], in[j+1]
		if !inUnit(su, sv) {
			at[p], outside = -1, true
			continue
		}
		i, k, s, t := unitCell(su, sv, fc, fr)
		o := k*w + 2*i
		at[p], wt[p][0], wt[p][1] = int32(o), s, t
		a, b, cc, dd := bilinearWeights(s, t)
		q, pp := cellCorners(starts, o, w)
		x, y := bilinear(q, pp, a, b, cc, dd)
		out[j], out[j+1] = float32(x), float32(y)
	}
	return outside
}

// mapPlaced maps points as mapPoints does, from where mapPoints last found
// the same points (bit for bit) in deformer d's lattice (pl): only the
// lattice moved since, so their cells, triangles and weights stand and
// each point is one interpolation. It reports what mapPoints does.
func (r *Rig) mapPlaced(d int32, src, dst []float32, pl placement) (finite bool) {
	if d < 0 || r.p.defs[d].kind != p2lrt.WarpDeformer {
		return r.mapPoints(d, src, dst, pl)
	}
	c := &r.p.defs[d]
	var outside bool
	switch g, w := r.latticeOf(c); {
	case c.bilinear:
		outside = placedBilinear(g, w, pairs(dst)[:len(src)/2], pl)
	case c.cellOff >= 0:
		outside = placedTriangles(r.cellsOf(c), pairs(dst)[:len(src)/2], pl)
	default:
		outside = placedTrianglesAt(g, w, pairs(dst)[:len(src)/2], pl)
	}
	if outside {
		return r.mapOutside(c, d, src, dst, pl.at) && r.smallLattice[d]
	}
	return r.smallLattice[d]
}

// placedTriangles, placedTrianglesAt and placedBilinear map points placed
// by placeTriangles, placeTrianglesAt or placeBilinear into out, through a
// triangle-interpolated warp's cell table or lattice g (rows of w floats)
// or a bilinear warp's lattice, and report whether any point lies outside
// the open unit square (its out left for mapWarp64).
func placedTriangles(tris [][6]float64, out [][2]float32, pl placement) (outside bool) {
	wt := pl.w[:len(out)]
	at := pl.at[:len(wt)]
	for p, k := range at {
		if k < 0 {
			outside = true
			continue
		}
		x, y := triangle(&tris[k], wt[p][0], wt[p][1])
		out[p][0], out[p][1] = float32(x), float32(y)
	}
	return outside
}

func placedTrianglesAt(g []float64, w int, out [][2]float32, pl placement) (outside bool) {
	starts := triangleStarts(g, w)
	wt := pl.w[:len(out)]
	at := pl.at[:len(wt)]
	for p, b := range at {
		if b < 0 {
			outside = true
			continue
		}
		p0, p1, p2 := triangleCorners(starts, b, w)
		x, y := triangleAt(p0, p1, p2, wt[p][0], wt[p][1])
		out[p][0], out[p][1] = float32(x), float32(y)
	}
	return outside
}

func placedBilinear(g []float64, w int, out [][2]float32, pl placement) (outside bool) {
	starts := cellStarts(g, w)
	wt := pl.w[:len(out)]
	at := pl.at[:len(wt)]
	for p, o := range at {
		if o < 0 {
			outside = true
			continue
		}
		a, b, cc, dd := bilinearWeights(wt[p][0], wt[p][1])
		q, pp := cellCorners(starts, int(o), w)
		x, y := bilinear(q, pp, a, b, cc, dd)
		out[p][0], out[p][1] = float32(x), float32(y)
	}
	return outside
}

// mapOutside maps the points that mapPoints placed outside the open unit
// square (at −1) through warp c (deformer d) with mapWarp64, and reports
// whether all of them are finite.
func (r *Rig) mapOutside(c *cdef, d int32, src, dst []float32, at []int32) (finite bool) {
	at = at[:len(src)/2]
	dst = dst[:len(src)]
	var z float32 // zeroIfFinite's sum
	for p, k := range at {
		if k < 0 {
			j := 2 * p
			x, y := r.mapWarp64(c, int(d), float64(src[j]), float64(src[j+1]))
			dst[j], dst[j+1] = float32(x), float32(y)
			z += dst[j] - dst[j] + dst[j+1] - dst[j+1]
		}
	}
	return z == 0
}

// lattice interpolates a cell of corners P00, P10, P01, P11 at (s, t):
// bilinearly, or as two triangles split along the (1,0)–(0,1) diagonal
// (warp.rs bilinear, triangle).
func lattice(x00, y00, x10, y10, x01, y01, x11, y11, s, t float64, bilinear bool) (float64, float64) {
	if bilinear {
		a, b, c, d := (1-s)*(1-t), s*(1-t), (1-s)*t, s*t
		return float64(a*x00) + float64(b*x10) + float64(c*x01) + float64(d*x11),
			float64(a*y00) + float64(b*y10) + float64(c*y01) + float64(d*y11)
	}
	if s+t <= 1 {
		return x00 + float64(s*(x10-x00)) + float64(t*(x01-x00)), y00 + float64(s*(y10-y00)) + float64(t*(y01-y00))
	}
	return x11 + float64((1-s)*(x01-x11)) + float64((1-t)*(x10-x11)), y11 + float64((1-s)*(y01-y11)) + float64((1-t)*(y10-y11))
}

// mapWarp64 is warp.rs Lattice::map64: inside the unit square a lattice
// cell; in the ring [−2, 3]² one coarser layer of virtual cells (lines at −2
// and 3 beyond the lattice's own) whose outer points follow the four-corner
// average affine frame, triangle-interpolated; farther out (and for NaN) the
// affine frame alone.
func (r *Rig) mapWarp64(c *cdef, d int, u, v float64) (float64, float64) {
	g := r.warpPts[c.ptOff : c.ptOff+2*c.npts]
	cols, rows := c.cols, c.rows
	point := func(i, j int) (float64, float64) {
		o := 2 * (j*(cols+1) + i)
		return g[o], g[o+1]
	}
	if u >= 0 && u <= 1 && v >= 0 && v <= 1 {
		fx, fy := u*float64(cols), v*float64(rows)
		i, j := min(int(fx), cols-1), min(int(fy), rows-1)
		x00, y00 := point(i, j)
		x10, y10 := point(i+1, j)
		x01, y01 := point(i, j+1)
		x11, y11 := point(i+1, j+1)
		return lattice(x00, y00, x10, y10, x01, y01, x11, y11, fx-float64(i), fy-float64(j), c.bilinear)
	}
	a := &r.frames[d].aff
	at := func(u, v float64) (float64, float64) {
		return a[0] + float64((u-0.5)*a[2]) + float64((v-0.5)*a[4]), a[1] + float64((u-0.5)*a[3]) + float64((v-0.5)*a[5])
	}
	if !(u >= -2 && u <= 3 && v >= -2 && v <= 3) {
		return at(u, v)
	}
	ul, vl := c.uLines, c.vLines
	ci, ri := ringCell(u, ul), ringCell(v, vl)
	vp := func(ci, ri int) (float64, float64) {
		if ci >= 1 && ci <= cols+1 && ri >= 1 && ri <= rows+1 {
			return point(ci-1, ri-1)
		}
		return at(ul[ci], vl[ri])
	}
	u0, u1 := ul[ci], ul[ci+1]
	v0, v1 := vl[ri], vl[ri+1]
	s, t := (u-u0)/(u1-u0), (v-v0)/(v1-v0)
	x00, y00 := vp(ci, ri)
	x10, y10 := vp(ci+1, ri)
	x01, y01 := vp(ci, ri+1)
	x11, y11 := vp(ci+1, ri+1)
	return lattice(x00, y00, x10, y10, x01, y01, x11, y11, s, t, false)
}

// ringLines returns the lines of the extended lattice of n cells (warp.rs
// map64 line): −2, the lattice's own lines 0, 1/n, …, 1, then 3. Warps keep
// them, prepared once: mapWarp64 reads several per point, each a division.
func ringLines(n int) []float64 {
	l := make([]float64, n+3)
	l[0] = -2
	for i := 1; i <= n+1; i++ {
		l[i] = float64(i-1) / float64(n)
	}
	l[n+2] = 3
	return l
}

// ringCell is the cell of the extended lattice of lines (ringLines) holding
// x (warp.rs map64 cell): the last line at or below x, the outer cell from 3
// on.
func ringCell(x float64, lines []float64) int {
	n := len(lines) - 3
	if x >= 3 {
		return n + 1
	}
	// warp.rs walks the lines from the first; starting at the line x·n
	// points to and stepping to the last one at or below x gives the same
	// cell at once.
	i := 0
	if x >= 0 {
		i = min(int(x*float64(n))+1, n+1)
	}
	for i+1 < n+2 && lines[i+1] <= x {
		i++
	}
	for i > 0 && lines[i] > x {
		i--
	}
	return i
}

// evalMeshes is stage 4: rest positions + keyform offsets + blend shapes,
// mapped through the parent deformer; opacity and colors along the chain.
func (r *Rig) evalMeshes() {
	p := r.p
	r.vcur ^= 1
	out, prev := r.verts[r.vcur], r.verts[r.vcur^1]
	for i := range p.meshes {
		c := &p.meshes[i]
		// Its own properties read its channels' and bindings'
		// parameters; unless one moved, the last ones stand, and only
		// its geometry may need the binding weights (r.bw).
		pr := &r.meshProps[i]
		if r.allMoved || c.chanReads.meets(r.moved) {
			*pr = r.evalObj(&c.obj)
		} else if r.localMoved[i] {
			r.bindWeights(&c.obj)
		}
		r.meshOpacity[i] = float32(r.chainedOpacity(pr.opacity, c.parent))
		r.meshDraw64[i] = pr.drawOrder
		r.meshDraw[i] = float32(pr.drawOrder)
		if p.cubism {
			inheritColors(r, pr, c.parent, (*[3]float32)(&r.meshMul[i]), (*[3]float32)(&r.meshScr[i]))
			r.meshVisible[i] = r.meshEnabled(i)
		} else {
			r.meshMul[i], r.meshScr[i] = toColor(pr.mul), toColor(pr.scr)
			// A mesh without geometry stays in the render order (it draws
			// nothing); only its own flag hides it (eval.rs render_order).
			r.meshVisible[i] = !c.hidden
		}
		if c.nv == 0 {
			continue
		}
		n := 2 * c.nv
		if !r.meshMoved[i] {
			// The last evaluation's vertices, glue included (a component
			// is recomputed whole or not at all); already in both buffers
			// when it kept them too.
			if !r.vertsBoth[i] {
				copy(out[c.vOff:c.vOff+n], prev[c.vOff:c.vOff+n])
				r.vertsBoth[i] = true
			}
			r.vertChanged[i] = false
			continue
		}
		r.vertsBoth[i] = false
		// Positions in the parent's space are kept between evaluations:
		// when only the parent moved, they stand.
		local := r.meshLocals[c.vOff : c.vOff+n]
		var pl placement // where the vertices fall in a parent warp's lattice
		if c.plOff >= 0 {
			pl = r.place.of(c.plOff, c.nv)
		}
		var finite bool
		if !r.localMoved[i] {
			finite = r.mapPlaced(c.parent, local, out[c.vOff:c.vOff+n], pl)
		} else {
			r.blendCells(&c.g, c.cells, r.model.file.Meshes[i].Positions[:n], local)
			r.addShapeDiffs(local, c.gdiff, len(c.obj.binds))
			if r.adv != nil { // advanced mode, hook H4
				l64 := r.local64[:n]
				for j, v := range local {
					l64[j] = float64(v)
				}
				r.adv.meshLocal(r, i, l64)
				for j, v := range l64 {
					local[j] = float32(v)
				}
			}
			finite = r.mapPoints(c.parent, local, out[c.vOff:c.vOff+n], pl)
		}
		// The advanced mode moves vertices later; glue checks the
		// vertices it moves (glueCheck).
		r.finiteVerts[i] = finite && r.adv == nil
		// Glue moves vertices later: updateChanges compares glued meshes
		// then.
		r.vertChanged[i] = !c.glued && !bitsEqual32(out[c.vOff:c.vOff+n], prev[c.vOff:c.vOff+n])
	}
}

// blendCells writes into out the floats of base plus the keyform blend of
// grid g's cells at the current values, in float32 as eval.rs mesh_local
// (a mesh's rest positions and keyform offsets) and lattice_points (a
// warp's points, on a zero base) compute it: the cells are added in
// corner order, one product at a time. Missing and empty cells add
// nothing. The present cells run four at a time as one fused loop
// (addCells), with the same order of operations. out may be base.
func (r *Rig) blendCells(g *cgrid, cells [][]float32, base, out []float32) {
	n := len(base)
	out = out[:n]
	src, written := base, false // what the next cells add to
	var cs [4][]float32
	var ws [4]float32
	nc := 0
	if cells != nil {
		for _, k := range r.gridWeights(g) {
			if k.cell < 0 || cells[k.cell] == nil {
				continue // missing or empty cell: zero offset
			}
			cs[nc], ws[nc] = cells[k.cell][:n], k.w
			if nc++; nc == len(cs) {
				addCells(src, out, &cs, &ws, nc)
				src, written, nc = out, true, 0
			}
		}
	}
	if nc > 0 || !written {
		addCells(src, out, &cs, &ws, nc)
	}
}

// addCells writes into out the floats of src plus the first nc (at most
// four) cells of cs weighted by ws, in one loop: src + c0·w0 + c1·w1 + …,
// each product rounded to float32 and added in turn. out may be src. The
// loops take two floats a step (a point's x and y; j < n−1 lets the
// compiler prove both in range), which halves the loop's own instructions
// (three a step, against seven for a two-cell float's arithmetic).
func addCells(src, out []float32, cs *[4][]float32, ws *[4]float32, nc int) {
	n := len(src)
	out = out[:n]
	if nc == 0 {
		copy(out, src)
		return
	}
	if n%2 != 0 { // never a blend of pairs: the last float alone
		v := src[n-1]
		for k := range nc {
			v += float32(cs[k][n-1] * ws[k])
		}
		out[n-1] = v
	}
	src, out = src[:n&^1], out[:n&^1]
	n = len(src)
	switch nc {
	case 1:
		c0, w0 := cs[0][:n], ws[0]
		for j := 0; j < n-1; j += 2 {
			out[j] = src[j] + float32(c0[j]*w0)
			out[j+1] = src[j+1] + float32(c0[j+1]*w0)
		}
	case 2:
		c0, w0 := cs[0][:n], ws[0]
		c1, w1 := cs[1][:n], ws[1]
		for j := 0; j < n-1; j += 2 {
			out[j] = src[j] + float32(c0[j]*w0) + float32(c1[j]*w1)
			out[j+1] = src[j+1] + float32(c0[j+1]*w0) + float32(c1[j+1]*w1)
		}
	case 3:
		c0, w0 := cs[0][:n], ws[0]
		c1, w1 := cs[1][:n], ws[1]
		c2, w2 := cs[2][:n], ws[2]
		for j := 0; j < n-1; j += 2 {
			out[j] = src[j] + float32(c0[j]*w0) + float32(c1[j]*w1) + float32(c2[j]*w2)
			out[j+1] = src[j+1] + float32(c0[j+1]*w0) + float32(c1[j+1]*w1) + float32(c2[j+1]*w2)
		}
	default:
		c0, w0 := cs[0][:n], ws[0]
		c1, w1 := cs[1][:n], ws[1]
		c2, w2 := cs[2][:n], ws[2]
		c3, w3 := cs[3][:n], ws[3]
		for j := 0; j < n-1; j += 2 {
			out[j] = src[j] + float32(c0[j]*w0) + float32(c1[j]*w1) + float32(c2[j]*w2) + float32(c3[j]*w3)
			out[j+1] = src[j+1] + float32(c0[j+1]*w0) + float32(c1[j+1]*w1) + float32(c2[j+1]*w2) + float32(c3[j+1]*w3)
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
	var z float32 // zeroIfFinite's sum over the vertices glue writes
	for gi := range p.glues {
		g := &p.glues[gi]
		if g.a == g.b || !r.compMoved[g.comp] {
			// A mesh glued to itself is left alone (eval.rs
			// evaluate_ext); a component not recomputed keeps its glued
			// vertices.
			continue
		}
		in := float32(g.ch.scalar(p2lrt.ChannelGlueIntensity, g.intensity, r.current, r.sc))
		va := out[p.meshes[g.a].vOff:]
		vb := out[p.meshes[g.b].vOff:]
		for _, pr := range g.pairs {
			// eval.rs: a + (b − a)·weight·intensity, in float32, both read
			// before either moves.
			a, b := 2*int(pr.A), 2*int(pr.B)
			ax, ay := va[a], va[a+1]
			bx, by := vb[b], vb[b+1]
			va[a] = ax + float32(float32((bx-ax)*pr.WeightA)*in)
			va[a+1] = ay + float32(float32((by-ay)*pr.WeightA)*in)
			vb[b] = bx + float32(float32((ax-bx)*pr.WeightB)*in)
			vb[b+1] = by + float32(float32((ay-by)*pr.WeightB)*in)
			z += va[a] - va[a] + va[a+1] - va[a+1] + vb[b] - vb[b] + vb[b+1] - vb[b+1]
		}
	}
	r.glueCheck = z
}

// evalParts evaluates part properties and group composites. A part none
// of whose parameters moved (cpart.reads) keeps the last ones: they read
// nothing else. (Copying a composite, whose mask lists are pointers, and
// the channels' defaults cost a Cubism model's typical frame 5 % of its
// time, every part every frame.)
func (r *Rig) evalParts() {
	p := r.p
	for i := range p.parts {
		if !r.allMoved && !p.parts[i].reads.meets(r.moved) {
			continue
		}
		pr := r.evalObj(&p.parts[i].obj)
		pr.opacity = clamp01(pr.opacity)
		r.partProps[i] = pr
		// The group composite: opacity clamped, colors as evaluated
		// (eval.rs composite_states).
		src := &p.gsrc[i]
		c := *src.comp
		c.MaskMeshes = src.masks
		c.Opacity = float32(clamp01(src.ch.scalar(p2lrt.ChannelOpacity, c.Opacity, r.current, r.sc)))
		c.Multiply = toColor(src.ch.color(p2lrt.ChannelMultiply, c.Multiply, r.current, r.sc))
		c.Screen = toColor(src.ch.color(p2lrt.ChannelScreen, c.Screen, r.current, r.sc))
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

// sortNearlySorted sorts items by cmpSortItem: by insertion while that
// moves fewer items than there are, then by slices.SortFunc, so that an
// order turned upside down costs n log n rather than n².
func sortNearlySorted(items []sortItem) {
	budget := len(items)
	for i := 1; i < len(items); i++ {
		it := items[i]
		j := i
		for j > 0 && cmpSortItem(items[j-1], it) > 0 {
			items[j] = items[j-1]
			j--
		}
		items[j] = it
		if budget -= i - j; budget < 0 {
			slices.SortFunc(items, cmpSortItem)
			return
		}
	}
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
	keys := r.sortKeys[g.sortOff : g.sortOff+len(g.children)]
	// items holds the order of the last evaluation (every group is sorted
	// every time); with the same keys, bit for bit, it is this one's.
	same := r.evaluated
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
		if r.p.cubism {
			// moc3-rs sort_render_order: f32::round, half away from zero,
			// clamped to the draw order group's range.
			key = min(max(math.Round(key), g.lo), g.hi)
		} else {
			key = math.Floor(key + 0.001)
		}
		if math.Float64bits(key) != math.Float64bits(keys[k]) {
			keys[k] = key
			same = false
		}
	}
	if !same {
		if r.evaluated {
			// Last evaluation's order with the new keys: usually a few
			// items out of place, which an insertion sort settles in
			// about one pass. The order (key, then tree position) is
			// total, so any sort gives the same result.
			for k := range items {
				items[k].key = keys[items[k].pos]
			}
			sortNearlySorted(items)
		} else {
			for k, n := range g.children {
				items[k] = sortItem{key: keys[k], pos: int32(k), node: n}
			}
			slices.SortFunc(items, cmpSortItem)
		}
	}
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
	// Part color overrides are rare: without one, no mesh's chain needs
	// looking through for it.
	partOverride := slices.ContainsFunc(r.partColorOverride, func(o colorOverride) bool { return o.set })
	for i := range p.meshes {
		chain := p.meshes[i].chain
		f := r.modelOpacity
		for _, a := range chain {
			f *= r.partOpacityMul[a]
		}
		if f != 1 {
			if op := float64(r.meshOpacity[i]) * float64(f); p.cubism {
				r.meshOpacity[i] = float32(op) // the part opacities are in [0, 1]; nothing clamps (moc3-rs)
			} else {
				r.meshOpacity[i] = float32(clamp01(op))
			}
		}
		if o := &r.meshColorOverride[i]; o.set {
			r.meshMul[i], r.meshScr[i] = o.mul, o.scr
			continue
		}
		if !partOverride {
			continue
		}
		for _, a := range chain {
			if o := &r.partColorOverride[a]; o.set {
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
	changed := !r.evaluated || r.adv != nil // for Revision
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
			if c.glued && r.meshMoved[i] {
				// Glue moved vertices after evalMeshes.
				r.vertChanged[i] = !bitsEqual32(cur[c.vOff:c.vOff+2*c.nv], prev[c.vOff:c.vOff+2*c.nv])
			}
			if r.vertChanged[i] {
				ch |= MeshVerticesChanged
			}
		}
		// Advanced mode moves vertices after the comparisons (skinning,
		// simulation): its evaluations count as changes.
		if ch&MeshVerticesChanged != 0 || r.adv != nil {
			r.meshRev[i]++
		}
		r.changes[i] = ch
		changed = changed || ch&^MeshDrawn != 0
	}
	// Rig-wide: any mesh change above, or a group composite or the
	// command list (group boundaries) differing from the previous
	// evaluation's.
	for i := range r.comps {
		if !sameComposite(&r.comps[i], &r.prevComps[i]) {
			changed = true
		}
	}
	if changed || !slices.Equal(r.commands, r.prevCommands) {
		r.rev++
	}
	copy(r.prevComps, r.comps)
	r.prevCommands = append(r.prevCommands[:0], r.commands...)
	copy(r.prevVisible, r.meshVisible)
	copy(r.prevOpacity, r.meshOpacity)
	copy(r.prevDraw, r.meshDraw)
	copy(r.prevPos, r.orderPos)
	copy(r.prevMul, r.meshMul)
	copy(r.prevScr, r.meshScr)
}

// sameComposite reports whether two group composites are equal: numbers
// bit for bit, mask lists by identity (they belong to the model).
func sameComposite(a, b *p2lrt.Composite) bool {
	return a.Blend == b.Blend && a.AlphaBlend == b.AlphaBlend && a.InvertMask == b.InvertMask &&
		math.Float32bits(a.Opacity) == math.Float32bits(b.Opacity) &&
		bitsEqual32(a.Multiply[:], b.Multiply[:]) && bitsEqual32(a.Screen[:], b.Screen[:]) &&
		sameSlice(a.MaskMeshes, b.MaskMeshes) && sameSlice(a.MaskParts, b.MaskParts)
}

// sameSlice reports whether a and b are the same slice (same array, length).
func sameSlice(a, b []int) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// bitsEqual32 reports whether a and b hold the same float32 bits.
func bitsEqual32(a, b []float32) bool {
	// As bytes: bytes.Equal compares many floats per instruction, where a
	// loop over Float32bits takes several instructions per float, and the
	// comparison runs on every mesh after every evaluation.
	return len(a) == len(b) && bytes.Equal(float32Bytes(a), float32Bytes(b))
}

// float32Bytes returns the memory of s as bytes (machine byte order),
// without copying.
func float32Bytes(s []float32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 4*len(s))
}
