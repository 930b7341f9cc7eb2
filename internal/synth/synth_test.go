package synth

import (
	"reflect"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func TestCharacterScale(t *testing.T) {
	m := Character(1)
	verts := 0
	for _, me := range m.Meshes {
		verts += len(me.Positions) / 2
	}
	var warps, rots int
	for _, d := range m.Deformers {
		if d.Kind == p2lrt.WarpDeformer {
			warps++
		} else {
			rots++
		}
	}
	t.Logf("meshes %d vertices %d deformers %d (%d warps, %d rotations) parameters %d glues %d parts %d",
		len(m.Meshes), verts, len(m.Deformers), warps, rots, len(m.Parameters), len(m.Glues), len(m.Parts))
	if len(m.Meshes) < 100 || verts < 8000 || len(m.Deformers) < 50 || len(m.Parameters) < 40 || warps < 10 || rots < 10 || len(m.Glues) == 0 {
		t.Fatal("character below the required scale")
	}
	sparse := func(axes []p2lrt.Axis, cells int) bool {
		n := 1
		for _, a := range axes {
			n *= len(a.Keys)
		}
		return cells < n
	}
	var sparseMesh, sparseWarp, sparseRot bool
	for _, me := range m.Meshes {
		sparseMesh = sparseMesh || sparse(me.Keyforms.Axes, len(me.Keyforms.Cells))
	}
	for _, d := range m.Deformers {
		if d.Warp != nil {
			sparseWarp = sparseWarp || sparse(d.Warp.Keyforms.Axes, len(d.Warp.Keyforms.Cells))
		} else {
			sparseRot = sparseRot || sparse(d.Rotation.Keyforms.Axes, len(d.Rotation.Keyforms.Cells))
		}
	}
	if !sparseMesh || !sparseWarp || !sparseRot {
		t.Fatalf("sparse grids: mesh %v warp %v rotation %v", sparseMesh, sparseWarp, sparseRot)
	}
	r := MustModel(m).NewRig()
	r.Evaluate()
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestDeterministic(t *testing.T) {
	a, b := Generate(Options{Seed: 7, Meshes: 30}), Generate(Options{Seed: 7, Meshes: 30})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same options gave different models")
	}
	if reflect.DeepEqual(a, Generate(Options{Seed: 8, Meshes: 30})) {
		t.Fatal("different seeds gave the same model")
	}
}

// TestFrontFacing: every triangle is front-facing in canvas coordinates at
// rest ((b − a) × (c − a) < 0, the renderers' culling rule), so culled
// meshes still show.
func TestFrontFacing(t *testing.T) {
	m := Character(1)
	culled := 0
	for i, me := range m.Meshes {
		if me.Flags&p2lrt.MeshCulling != 0 {
			culled++
		}
		p := me.Positions
		for k := 0; k < len(me.Indices); k += 3 {
			a, b, c := 2*me.Indices[k], 2*me.Indices[k+1], 2*me.Indices[k+2]
			cross := (p[b]-p[a])*(p[c+1]-p[a+1]) - (p[b+1]-p[a+1])*(p[c]-p[a])
			if !(cross < 0) {
				t.Fatalf("mesh %d triangle %d is not front-facing (cross %v)", i, k/3, cross)
			}
		}
	}
	if culled == 0 {
		t.Fatal("no culled mesh")
	}
}

// TestSmallAndOddSizes: every size gives a valid model that evaluates.
func TestSmallAndOddSizes(t *testing.T) {
	for _, o := range []Options{
		{Meshes: 1, Deformers: 1, Parameters: 1, VerticesPerMesh: 1, Textures: 1, TextureSize: 1},
		{Seed: 2, Meshes: 3, VerticesPerMesh: 5},
		{Seed: 3, Meshes: 7, Deformers: 9, Parameters: 17},
		{Seed: 4, Meshes: 25, VerticesPerMesh: 400, Textures: 3, TextureSize: 32},
	} {
		m := Generate(o)
		if err := m.Validate(); err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		r := MustModel(m).NewRig()
		r.Evaluate()
		if r.Err() != nil {
			t.Fatalf("%+v: %v", o, r.Err())
		}
	}
}
