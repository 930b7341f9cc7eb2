package ebitenp2l

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

// revisioned is implemented by *p2l.Rig; a pose without it gets no cache.
type revisioned interface {
	MeshRevision(i int) uint64
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
