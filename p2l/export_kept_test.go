package p2l

// Test hooks for kept results (kept_test.go).

// MeshReadsForTest returns the parameters mesh i's geometry reads
// (keyforms, bindings and their limits): when none of them moves, its
// positions in its parent's space are kept. Nil for no mesh.
func (m *Model) MeshReadsForTest(i int) []int32 {
	if m == nil || i < 0 || i >= len(m.prep().meshes) {
		return nil
	}
	var ps []int32
	for w, bits := range m.prep().meshes[i].reads {
		for k := range 64 {
			if bits&(1<<k) != 0 {
				ps = append(ps, int32(64*w+k))
			}
		}
	}
	return ps
}

// PlacementForTest counts the vertices of mesh i whose place in its parent
// warp's lattice the rig keeps (mapPlaced), inside and outside the open
// unit square; 0, 0 for a mesh whose parent is not a warp, −1, −1 for
// no mesh (as every index accessor).
func (r *Rig) PlacementForTest(i int) (inside, outside int) {
	if i < 0 || i >= len(r.p.meshes) {
		return -1, -1
	}
	c := &r.p.meshes[i]
	if c.plOff < 0 {
		return 0, 0
	}
	for _, k := range r.place.of(c.plOff, c.nv).at {
		if k < 0 {
			outside++
		} else {
			inside++
		}
	}
	return inside, outside
}

// WithoutCellTablesForTest returns a model of m's records whose
// triangle-interpolated warps all interpolate from their lattices, none
// from a cell table (chooseCellTables' other choice), and how many of its
// warps had a table, so that a test can compare both ways.
func (m *Model) WithoutCellTablesForTest() (*Model, int) {
	c := &Model{file: m.file}
	p := c.prep()
	tables := 0
	for i := range p.defs {
		if p.defs[i].cellOff >= 0 {
			tables++
		}
		p.defs[i].cellOff = -1
	}
	p.tris = 0
	return c, tables
}
