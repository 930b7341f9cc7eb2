package ebitenp2l

import (
	"math"
	"slices"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// A mesh drawn with a fixed-function blend blends triangle after triangle
// (as the CPU renderer does for these combinations); read from one backdrop
// copy, or written with replace blending, its last triangle would win where
// it overlaps itself. Both give the same pixels for a mesh that covers every
// point at most once, one that lies flat: only such a mesh may join a
// backdrop-reading call with its fixed-function formula, or be written with
// replace blending as the first draw of a layer.
//
// The proof. For a triangle t and a point p off its edges, the winding
// number of its edge cycle ∂t around p is ±1 (its orientation) inside t and
// 0 outside. If every triangle of the mesh has the same orientation σ, the
// number of triangles covering p is σ times the winding number of the sum
// of their edge cycles, in which an edge a→b of one triangle and b→a of
// another cancel: what is left is the mesh's boundary. If that boundary is
// one or more simple closed polygons, pairwise apart and none inside
// another's bounding box, its winding number is 0 or ±1 everywhere: no
// point is covered twice. Points on shared edges and vertices go to one
// triangle only (the rasterizer's fill rule; shared by index, they have
// identical coordinates).
//
// The GPU draws rounded vertex positions, snapped to its sub-pixel grid, so
// the proof must hold with room to spare: every triangle's height and the
// distance between boundary edges that do not meet are at least
// flatMargin destination pixels (at least 1/16 px of sub-pixel precision,
// as OpenGL requires, moves a vertex by at most 1/32 px).
//
// The proof runs once per mesh revision (and GeoM scale); the boundary
// comes from the model's index list alone, once per model.

// flatMargin is the room, in destination pixels, that the proof must
// leave.
const flatMargin = 1.0 / 8

// maxFlatBoundary bounds the boundary edges that are compared pairwise; a
// mesh with more is not proven flat.
const maxFlatBoundary = 256

// meshBoundary is the boundary of a model mesh's triangles (those whose
// indices are below nv): the directed edges left when every edge a→b is
// cancelled by an edge b→a, as vertex indices in cycle order,
// cycles[i]..cycles[i+1] one closed cycle. ok is false when they are not
// disjoint cycles (an edge left twice one way, a vertex on two cycles) or
// too many. It depends on the index list alone: computed once per model.
type meshBoundary struct {
	nv     int
	ok     bool
	bnd    []uint32
	succ   []int32 // succ[i]: the position in bnd of bnd[i]'s successor
	cycles []int32
}

// boundaries returns the boundary of every mesh of m.
func boundaries(m *p2l.Model) []meshBoundary {
	out := make([]meshBoundary, m.Meshes().Len())
	var edges []uint64
	var next []int32
	for i := range m.Meshes().Len() {
		mesh := m.Meshes().At(i)
		nv := min(len(mesh.Positions), len(mesh.UVs)) / 2
		edges, next = out[i].find(mesh.Indices, nv, edges, next)
	}
	return out
}

// find computes the boundary of the triangles of idx with indices below
// nv (edges and next are scratch, returned for reuse).
func (mb *meshBoundary) find(idx []uint32, nv int, edges []uint64, next []int32) ([]uint64, []int32) {
	mb.nv = nv
	// Each edge as (low, high) with its direction in the lowest bit:
	// sorted, the directions of one pair sum to what is left of it.
	edges = edges[:0]
	for j := 0; j+2 < len(idx); j += 3 {
		t := [3]uint32{idx[j], idx[j+1], idx[j+2]}
		if int(t[0]) >= nv || int(t[1]) >= nv || int(t[2]) >= nv {
			continue
		}
		for e := range 3 {
			a, b := uint64(t[e]), uint64(t[(e+1)%3])
			if a < b {
				edges = append(edges, a<<33|b<<1)
			} else {
				edges = append(edges, b<<33|a<<1|1)
			}
		}
	}
	slices.Sort(edges)
	next = slices.Grow(next[:0], nv)[:nv]
	for i := range next {
		next[i] = -1
	}
	left := 0
	for j := 0; j < len(edges); {
		pair := edges[j] >> 1
		sum := 0
		for ; j < len(edges) && edges[j]>>1 == pair; j++ {
			if edges[j]&1 == 0 {
				sum++
			} else {
				sum--
			}
		}
		lo, hi := uint32(pair>>32), uint32(pair&(1<<32-1))
		a, b := lo, hi
		switch sum {
		case 0:
			continue
		case -1:
			a, b = hi, lo
		case 1:
		default:
			return edges, next // left twice one way
		}
		if next[a] >= 0 {
			return edges, next // a vertex where two cycles meet
		}
		next[a] = int32(b)
		left++
	}
	if left < 3 || left > maxFlatBoundary {
		return edges, next
	}
	// Cycles from each vertex with an outgoing edge, in index order; a
	// vertex with two incoming edges shows as a cycle that does not close.
	for start := range next {
		if next[start] < 0 {
			continue
		}
		mb.cycles = append(mb.cycles, int32(len(mb.bnd)))
		a := int32(start)
		for next[a] >= 0 {
			mb.bnd = append(mb.bnd, uint32(a))
			a, next[a] = next[a], -1
		}
		if a != int32(start) {
			mb.bnd, mb.cycles = nil, nil
			return edges, next
		}
	}
	mb.cycles = append(mb.cycles, int32(len(mb.bnd)))
	mb.succ = make([]int32, len(mb.bnd))
	for c := 0; c+1 < len(mb.cycles); c++ {
		first, end := mb.cycles[c], mb.cycles[c+1]
		for i := first; i < end; i++ {
			mb.succ[i] = i + 1
		}
		mb.succ[end-1] = first
	}
	mb.ok = true
	return edges, next
}

// flatCache is a character's per-mesh result of the proof, for one mesh
// revision and one least stretch of the GeoM.
type flatCache struct {
	rev   []uint64 // revision it was computed for (0: none)
	scale []float64
	flat  []bool
}

func (fc *flatCache) grow(n int) {
	if len(fc.rev) < n {
		fc.rev = append(fc.rev, make([]uint64, n-len(fc.rev))...)
		fc.scale = append(fc.scale, make([]float64, n-len(fc.scale))...)
		fc.flat = append(fc.flat, make([]bool, n-len(fc.flat))...)
	}
}

// flat reports whether op x's mesh lies flat on the destination (see
// above). Group composites are rectangles: always flat.
func (r *renderer) flat(x *op) bool {
	if x.mesh < 0 {
		return true
	}
	cp := &r.chars[x.char]
	mi := int(x.mesh)
	mb := &cp.res.boundary[mi]
	idx := cp.rig.MeshIndices(mi)
	v := cp.rig.MeshVertices(mi)
	nv := min(len(v), len(cp.rig.MeshUVs(mi))) / 2 // as emitMesh draws it
	if !mb.ok || mb.nv != nv || !cp.res.modelTriangles(mi, idx) {
		return false // a pose with triangles of its own (tests) is not checked
	}
	rev := cp.rev(mi)
	fc := cp.fc
	if rev == 0 || fc.rev[mi] != rev || fc.scale[mi] != cp.minScale {
		fc.flat[mi] = mb.lies(v[:2*nv], idx, flatMargin/cp.minScale, &r.flatEdges)
		fc.rev[mi], fc.scale[mi] = rev, cp.minScale
	}
	return fc.flat[mi]
}

// lies reports whether the mesh of vertices v and triangles idx lies flat
// with margin need (canvas units): every triangle has the same orientation
// and a height of at least need, the cycles' bounding boxes are apart (no
// cycle inside another), and boundary edges that do not meet are at least
// need apart (for edges that meet, each one's far end from the other).
// e is scratch.
func (fm *meshBoundary) lies(v []float32, idx []uint32, need float64, e *[maxFlatBoundary]flatEdge) bool {
	if !(need > 0) || math.IsInf(need, 1) {
		return false
	}
	nv := len(v) / 2
	need2 := need * need
	sign := 0.0
	any := false
	for j := 0; j+2 < len(idx); j += 3 {
		i0, i1, i2 := idx[j], idx[j+1], idx[j+2]
		if int(i0) >= nv || int(i1) >= nv || int(i2) >= nv {
			continue
		}
		ax, ay := float64(v[2*i0]), float64(v[2*i0+1])
		bx, by := float64(v[2*i1]), float64(v[2*i1+1])
		cx, cy := float64(v[2*i2]), float64(v[2*i2+1])
		cr := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
		if sign == 0 {
			sign = math.Copysign(1, cr)
		}
		// height = |cr| / longest edge ≥ need, squared, without dividing.
		long := max((bx-ax)*(bx-ax)+(by-ay)*(by-ay), (cx-bx)*(cx-bx)+(cy-by)*(cy-by), (ax-cx)*(ax-cx)+(ay-cy)*(ay-cy))
		if !(cr*sign > 0) || !(cr*cr >= need2*long) { // also NaN
			return false
		}
		any = true
	}
	if !any {
		return false
	}
	for c, nc := 0, len(fm.cycles)-1; c+1 < nc; c++ {
		b0 := fm.box(v, c)
		for d := c + 1; d < nc; d++ {
			b1 := fm.box(v, d)
			if b0[0] <= b1[2] && b1[0] <= b0[2] && b0[1] <= b1[3] && b1[1] <= b0[3] {
				return false
			}
		}
	}
	// Boundary edges (from bnd[i] to bnd[succ[i]]) pairwise, each with its
	// box.
	n := len(fm.bnd)
	for i := range n {
		ax, ay := float64(v[2*fm.bnd[i]]), float64(v[2*fm.bnd[i]+1])
		b := fm.bnd[fm.succ[i]]
		bx, by := float64(v[2*b]), float64(v[2*b+1])
		e[i] = flatEdge{ax, ay, bx, by, min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)}
	}
	for i := range n {
		p := &e[i]
		for j := i + 1; j < n; j++ {
			q := &e[j]
			if p.x0 >= q.x1+need || q.x0 >= p.x1+need || p.y0 >= q.y1+need || q.y0 >= p.y1+need {
				continue // their boxes are need apart
			}
			var d2 float64
			switch {
			case int(fm.succ[i]) == j: // a→b, b→d: how far d is from ab, a from bd
				d2 = min(segDist2(q.bx, q.by, p.ax, p.ay, p.bx, p.by), segDist2(p.ax, p.ay, q.ax, q.ay, q.bx, q.by))
			case int(fm.succ[j]) == i: // c→a, a→b
				d2 = min(segDist2(p.bx, p.by, q.ax, q.ay, q.bx, q.by), segDist2(q.ax, q.ay, p.ax, p.ay, p.bx, p.by))
			case segsCross(p.ax, p.ay, p.bx, p.by, q.ax, q.ay, q.bx, q.by):
				return false
			default: // apart: the distance is an end's from the other
				d2 = min(segDist2(p.ax, p.ay, q.ax, q.ay, q.bx, q.by), segDist2(p.bx, p.by, q.ax, q.ay, q.bx, q.by),
					segDist2(q.ax, q.ay, p.ax, p.ay, p.bx, p.by), segDist2(q.bx, q.by, p.ax, p.ay, p.bx, p.by))
			}
			if !(d2 >= need2) {
				return false
			}
		}
	}
	return true
}

// flatEdge is a boundary edge a→b and its box.
type flatEdge struct{ ax, ay, bx, by, x0, y0, x1, y1 float64 }

// box returns the bounding box x0, y0, x1, y1 of cycle c.
func (fm *meshBoundary) box(v []float32, c int) [4]float64 {
	b := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, i := range fm.bnd[fm.cycles[c]:fm.cycles[c+1]] {
		x, y := float64(v[2*i]), float64(v[2*i+1])
		b = [4]float64{min(b[0], x), min(b[1], y), max(b[2], x), max(b[3], y)}
	}
	return b
}

// segDist2 returns the squared distance from point p to segment ab.
func segDist2(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	l := dx*dx + dy*dy
	t := 0.0
	if l > 0 {
		t = max(0, min(1, ((px-ax)*dx+(py-ay)*dy)/l))
	}
	ex, ey := px-ax-t*dx, py-ay-t*dy
	return ex*ex + ey*ey
}

// segsCross reports whether segments ab and cd cross at a point inside
// both (touching and collinear segments do not; segDist2 measures those
// as 0 or their distance).
func segsCross(ax, ay, bx, by, cx, cy, dx, dy float64) bool {
	o := func(px, py, qx, qy, rx, ry float64) float64 { return (qx-px)*(ry-py) - (qy-py)*(rx-px) }
	d1, d2 := o(ax, ay, bx, by, cx, cy), o(ax, ay, bx, by, dx, dy)
	d3, d4 := o(cx, cy, dx, dy, ax, ay), o(cx, cy, dx, dy, bx, by)
	return d1*d2 < 0 && d3*d4 < 0
}
