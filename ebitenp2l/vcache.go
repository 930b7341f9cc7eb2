package ebitenp2l

import (
	"math"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// A character keeps, per mesh, what its draws derive from the mesh's
// evaluated vertices and that does not change while they do not
// (p2l.Rig.MeshRevision): the canvas bounding box, and for a culled mesh
// the index list without out-of-range or culled triangles (its faces turn
// with its vertices). A mesh that is not culled takes the model's list,
// shared by every character of the model (modelRes.inds): in a crowd the
// index lists stay in the CPU's caches instead of one copy per character.
// A still mesh then costs no pass over its vertices besides writing them.
//
// The vertices themselves are not kept: a kept copy (48 bytes a vertex)
// was measured no faster to copy than to rebuild from the rig's positions
// and texture coordinates (16 bytes a vertex) at 100 characters, where the
// copies no longer fit the CPU's caches (docs/PERFORMANCE.md).
type vertexCache struct {
	inds []meshIndices // culled meshes only

	bbRev []uint64     // revision the box was computed for (0: none)
	bb    [][4]float32 // canvas x0, y0, x1, y1; NaN for no box
}

// meshIndices is one culled mesh's filtered index list.
type meshIndices struct {
	inds []uint16 // mesh-local
	rev  uint64   // revision they were filtered for; 0: none
}

// revisioned is implemented by rigframe.Frame; a pose without it gets no cache.
type revisioned interface {
	MeshRevision(i int) uint64
}

// box returns the canvas bounding box x0, y0, x1, y1 of mesh mi's
// vertices in p (NaN when it has fewer than three or a NaN), kept for
// revision rev of the mesh (0: the pose has none, nothing is kept).
func (vc *vertexCache) box(p pose, rev uint64, mi int) [4]float32 {
	if rev != 0 && vc.bbRev[mi] == rev {
		return vc.bb[mi]
	}
	v := p.MeshVertices(mi)
	nan := float32(math.NaN())
	box := [4]float32{nan, nan, nan, nan}
	if len(v) >= 6 {
		box = boxOf(v)
	}
	if rev != 0 {
		vc.bbRev[mi], vc.bb[mi] = rev, box
	}
	return box
}

// grow makes room for n meshes.
func (vc *vertexCache) grow(n int) {
	if len(vc.inds) >= n {
		return
	}
	vc.inds = append(vc.inds, make([]meshIndices, n-len(vc.inds))...)
	vc.bbRev = append(vc.bbRev, make([]uint64, n-len(vc.bbRev))...)
	vc.bb = append(vc.bb, make([][4]float32, n-len(vc.bb))...)
}

// keepBoxes computes the canvas boxes of the meshes the rig's last
// evaluation drew and moved, right after it (Character.Update): the
// positions it has just written are still in the CPU's caches, where the
// draw would read them again from memory — in a crowd every character's
// positions are evaluated before any is drawn, and a frame that plans
// 100 synthetic characters reads 6.9 MB of positions (120 meshes of 72
// vertices each) for their boxes alone. The boxes are the draw's own
// (vertexCache.box, kept per mesh revision): a rig updated without
// Character.Update gets them in the draw instead.
func (c *Character) keepBoxes() {
	if c.rig == nil || c.meshRevs == nil {
		return
	}
	c.vc.keepDrawn(c.rig, c.pose, c.meshRevs)
}

// keepDrawn keeps the box of every mesh that r's last evaluation drew,
// reading its vertices from p at its revision in revs.
func (vc *vertexCache) keepDrawn(r *p2l.Rig, p pose, revs revisioned) {
	n := r.Model().Meshes().Len()
	vc.grow(n)
	for mi := range n {
		if r.Mesh(mi).Changes()&p2l.MeshDrawn != 0 {
			vc.box(p, revs.MeshRevision(mi), mi)
		}
	}
}
