package p2lrt

import (
	"errors"
	"testing"
)

// TestReferencePaths checks the field paths of reference errors, which
// checkRefs formats only on error (recPath): record list and index, then
// the field, as docs/FORMAT.md's paths name them.
func TestReferencePaths(t *testing.T) {
	base := func() *File {
		return &File{
			Parameters: []Parameter{{ID: "p", Min: 0, Max: 1}},
			Meshes:     []Mesh{{ID: "a", Parent: -1}, {ID: "b", Parent: -1}},
			Parts:      []Part{{ID: "part"}},
			Draw:       DrawGroup{Part: -1},
		}
	}
	if err := base().Validate(); err != nil {
		t.Fatalf("base file: %v", err)
	}
	for _, c := range []struct {
		name       string
		edit       func(f *File)
		tag, field string
	}{
		{"mesh mask", func(f *File) { f.Meshes[1].Masks = []int{5} }, "MESH", "meshes[1].masks[0]"},
		{"part composite mask", func(f *File) { f.Parts[0].Composite.MaskMeshes = []int{0, 7} }, "PART", "parts[0].composite.maskMeshes[1]"},
		{"channel axis", func(f *File) {
			f.Meshes[1].Channels = []Channel{{ID: ChannelOpacity, Kind: ChannelScalar, Grid: &Grid[ChannelValue]{
				Axes: []Axis{{Parameter: 0, Keys: []float32{0}}, {Parameter: 3, Keys: []float32{0}}}}}}
		}, "MESH", "meshes[1].channels[0].grid.axes[1].parameter"},
		{"glue mesh", func(f *File) { f.Glues = []Glue{{ID: "g", MeshA: 0, MeshB: 9}} }, "GLUE", "glues[0].meshB"},
		{"draw composite mask", func(f *File) { f.Draw.Composite = &Composite{MaskMeshes: []int{4}} }, "DRAW", "root.composite.maskMeshes[0]"},
	} {
		f := base()
		c.edit(f)
		var fe *FormatError
		if err := f.Validate(); !errors.As(err, &fe) || fe.Tag != c.tag || fe.Field != c.field {
			t.Errorf("%s: Validate = %v, want chunk %s field %s", c.name, err, c.tag, c.field)
		}
	}
}
