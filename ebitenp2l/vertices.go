package ebitenp2l

import (
	"encoding/binary"
	"image"
	"slices"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"
)

// A mesh's vertices and indices in the call being built (submit.go).

// emitMesh appends mesh mi of character cp (destination coordinates plus
// off) with vertex colours col, culled faces dropped. A mesh that does not
// fit the call's 65,536 addressable vertices flushes it first; one larger
// than that is split triangle by triangle (a backdrop-reading one keeps
// the one copy taken before: every part reads the backdrop from before the
// mesh).
func (r *renderer) emitMesh(cp *charPlan, mi int, off image.Point, col [8]float32, cull bool) {
	col = r.words(col)
	v := cp.rig.MeshVertices(mi)
	uv := cp.rig.MeshUVs(mi)
	nv := min(len(v), len(uv)) / 2
	if nv > maxBatchVertices {
		r.emitSplit(cp, mi, off, col, cull)
		return
	}
	_, px, py, pw, ph, _ := cp.page(mi)
	inds := r.meshIndices(cp, mi, v[:2*nv], cull)

	if len(r.verts) > 0 && len(r.verts)+nv > chunkVertices {
		r.flush()
	}
	base := len(r.verts)
	r.verts = slices.Grow(r.verts, nv)[:base+nv]
	buildVertices(r.verts[base:], v, uv, &cp.geo, off, [4]float32{px, py, pw, ph}, &col, r.localOrigin())

	l := len(r.inds)
	r.inds = slices.Grow(r.inds, len(inds))[:l+len(inds)]
	rebase(r.inds[l:], inds, uint16(base))
}

// rebase writes src[j] + base to dst[j]: every sum below 65,536 (a mesh's
// indices are below its vertex count, and its vertices end at or below
// 65,536 in the call). Four indices go at a time as the lanes of one
// uint64, since no lane's sum carries into the next; it is the loop over a
// frame's 4–5 indices per vertex, which added one by one cost more than
// building the vertices (a CPU profile of BenchmarkMovingVsFloor/default).
func rebase(dst, src []uint16, base uint16) {
	dst = dst[:len(src)]
	n := len(src) &^ 3
	if n > 0 {
		// Byte views: a uint16 slice need not be 8-byte aligned.
		d := unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 2*n)
		s := unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), 2*n)
		add := uint64(base) * 0x0001_0001_0001_0001
		for j := 0; j+8 <= len(s); j += 8 {
			binary.NativeEndian.PutUint64(d[j:j+8], binary.NativeEndian.Uint64(s[j:j+8])+add)
		}
	}
	for j := n; j < len(src); j++ {
		dst[j] = src[j] + base
	}
}

// buildVertices writes the vertices of a mesh: canvas positions v through
// the GeoM geo plus off, texture coordinates uv on the page's texels
// (page: x, y, w, h), and the colour words col; with local set, Custom0
// and Custom1 carry each vertex's position minus *local instead
// (localPositions). Every field is stored straight into out (building a
// vertex in a local and copying it costs store-forwarding stalls); the
// branch on local goes the same way for every vertex of a call.
func buildVertices(out []ebiten.Vertex, v, uv []float32, geo *[6]float64, off image.Point, page [4]float32, col *[8]float32, local *image.Point) {
	a, b, c, d := geo[0], geo[1], geo[2], geo[3]
	tx, ty := geo[4]+float64(off.X), geo[5]+float64(off.Y)
	px, py, pw, ph := page[0], page[1], page[2], page[3]
	c0, c1, c2, c3, c4, c5, c6, c7 := col[0], col[1], col[2], col[3], col[4], col[5], col[6], col[7]
	var ox, oy float32
	if local != nil {
		ox, oy = float32(local.X), float32(local.Y)
	}
	v, uv = v[:2*len(out)], uv[:2*len(out)]
	for i := range out {
		x, y := float64(v[2*i]), float64(v[2*i+1])
		o := &out[i]
		dx, dy := float32(a*x+b*y+tx), float32(c*x+d*y+ty)
		o.DstX, o.DstY = dx, dy
		o.SrcX, o.SrcY = uv[2*i]*pw+px, uv[2*i+1]*ph+py
		o.ColorR, o.ColorG, o.ColorB, o.ColorA = c0, c1, c2, c3
		if local != nil {
			o.Custom0, o.Custom1 = dx-ox, dy-oy
		} else {
			o.Custom0, o.Custom1 = c4, c5
		}
		o.Custom2, o.Custom3 = c6, c7
	}
}

// meshIndices returns mesh mi's triangle indices (mesh-local) without
// those out of range of its nv = len(v)/2 vertices or culled: the model's
// list, shared by its characters, for a mesh that is not culled (see
// modelRes.inds); for a culled one, kept per character and mesh revision
// when the pose has revisions (see vertexCache), else built in scratch.
func (r *renderer) meshIndices(cp *charPlan, mi int, v []float32, cull bool) []uint16 {
	idx := cp.rig.MeshIndices(mi)
	n := len(v) / 2
	if !cull {
		if s, ok := cp.res.indices(mi, idx, n); ok {
			if counters != nil {
				counters.cacheHits++
			}
			return s
		}
	}
	rev := cp.rev(mi)
	var mc *meshIndices
	out := r.scratchInds[:0]
	if cull && rev != 0 {
		mc = &cp.vc.inds[mi]
		if mc.rev == rev {
			if counters != nil {
				counters.cacheHits++
			}
			return mc.inds
		}
		out = mc.inds[:0]
	}
	if cull {
		out = frontFaces(out, idx, v)
	} else {
		out = inRange(out, idx, n)
	}
	if mc != nil {
		mc.inds, mc.rev = out, rev
	} else {
		r.scratchInds = out
	}
	return out
}

// inRange appends to out the triangles of idx whose indices are all below
// n.
func inRange(out []uint16, idx []uint32, n int) []uint16 {
	for j := 0; j+2 < len(idx); j += 3 {
		i0, i1, i2 := idx[j], idx[j+1], idx[j+2]
		if uint(i0) < uint(n) && uint(i1) < uint(n) && uint(i2) < uint(n) {
			out = append(out, uint16(i0), uint16(i1), uint16(i2))
		}
	}
	return out
}

// frontFaces appends to out the triangles of idx within the len(v)/2
// vertices of v that are not culled.
func frontFaces(out []uint16, idx []uint32, v []float32) []uint16 {
	n := uint(len(v) / 2)
	for j := 0; j+2 < len(idx); j += 3 {
		i0, i1, i2 := idx[j], idx[j+1], idx[j+2]
		if uint(i0) < n && uint(i1) < n && uint(i2) < n && !culled(v, int(i0), int(i1), int(i2)) {
			out = append(out, uint16(i0), uint16(i1), uint16(i2))
		}
	}
	return out
}

// emitSplit appends a mesh of more than 65,536 vertices (see emitMesh):
// the vertices of each triangle are remapped into the current call.
func (r *renderer) emitSplit(cp *charPlan, mi int, off image.Point, col [8]float32, cull bool) {
	_, px, py, pw, ph, _ := cp.page(mi)
	v := cp.rig.MeshVertices(mi)
	uv := cp.rig.MeshUVs(mi)
	idx := cp.rig.MeshIndices(mi)
	nv := min(len(v), len(uv)) / 2
	page := [4]float32{px, py, pw, ph}
	if len(r.remap) < nv {
		r.remap = make([]int32, nv)
		r.rstmp = make([]uint32, nv)
	}
	r.rgen++
	for j := 0; j+2 < len(idx); j += 3 {
		i0, i1, i2 := int(idx[j]), int(idx[j+1]), int(idx[j+2])
		if i0 >= nv || i1 >= nv || i2 >= nv || (cull && culled(v, i0, i1, i2)) {
			continue
		}
		if len(r.verts)+3 > maxBatchVertices {
			r.flush()
			r.rgen++
		}
		for _, k := range [3]int{i0, i1, i2} {
			if r.rstmp[k] != r.rgen {
				r.rstmp[k] = r.rgen
				r.remap[k] = int32(len(r.verts))
				r.verts = append(r.verts, ebiten.Vertex{})
				buildVertices(r.verts[len(r.verts)-1:], v[2*k:2*k+2], uv[2*k:2*k+2], &cp.geo, off, page, &col, r.localOrigin())
			}
			r.inds = append(r.inds, uint16(r.remap[k]))
		}
	}
}

// culled reports whether triangle (a, b, c) faces away: with culling on,
// only faces "clockwise in canvas coordinates (y down)" are drawn, which
// the spec's Godot paragraph and the CPU renderer state exactly as
// (b − a) × (c − a) < 0 in canvas coordinates (Cubism's front faces). The
// test runs in float64 on the canvas vertices, as the CPU renderer's does.
func culled(v []float32, a, b, c int) bool {
	ax, ay := float64(v[2*a]), float64(v[2*a+1])
	bx, by := float64(v[2*b]), float64(v[2*b+1])
	cx, cy := float64(v[2*c]), float64(v[2*c+1])
	return (bx-ax)*(cy-ay)-(by-ay)*(cx-ax) >= 0
}
