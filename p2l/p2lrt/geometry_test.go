package p2lrt

import (
	"strconv"
	"testing"
)

// TestIndexCheck checks the error Validate reports for a mesh whose
// largest index (largest.Of) sits in each lane of the eight-value step
// and in the tail: the first index not below the vertex count.
func TestIndexCheck(t *testing.T) {
	for at := range 19 { // 19 values: two steps of eight and a tail of three
		s := make([]uint32, 19)
		for i := range s {
			s[i] = uint32(i % 5) // 0..4
		}
		s[at] = 40
		// A mesh of 5 vertices: every value but s[at] is below 5.
		f := &File{Draw: DrawGroup{Part: -1}, Meshes: []Mesh{{ID: "m", Parent: -1,
			Flags: MeshGeometry, Positions: make([]float32, 10), UVs: make([]float32, 10), Indices: s[:18]}}}
		err := f.Validate()
		if at < 18 {
			want := "p2l: chunk MESH: meshes[0].indices: index 40 at " + strconv.Itoa(at) + " is not below the vertex count 5"
			if err == nil || err.Error() != want {
				t.Errorf("largest at %d: Validate = %v, want %s", at, err, want)
			}
		} else if err != nil {
			t.Errorf("indices within range: Validate = %v", err)
		}
	}
}
