package moc3

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/alloctest"
	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
)

// sampleFacts are what the samples folder's README and the samples' own
// JSON files say, independently of the .moc3 bytes.
var sampleFacts = []struct {
	name        string
	versionByte byte // /work/shared/cubism-samples/README.md
	// Parts the .cdi3.json lists that the exported .moc3 leaves out (the
	// Editor's guide parts: sketch, background).
	cdiOnlyParts []string
}{
	{"Hiyori", 3, []string{"PartBackground", "PartSketch"}},
	{"Mark", 3, nil},
	{"Natori", 1, nil},
	{"Mao", 5, []string{"PartSketch"}},
	{"Ren", 6, []string{"PartSketch"}},
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestSamples(t *testing.T) {
	for _, s := range sampleFacts {
		t.Run(s.name, func(t *testing.T) {
			data, err := os.ReadFile(cubismsamples.Moc(t, s.name))
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Dir(cubismsamples.Moc(t, s.name))
			m, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			checkConsistent(t, m)
			if byte(m.Version) != s.versionByte {
				t.Errorf("version %s (byte %d), README says byte %d", m.Version, m.Version, s.versionByte)
			}

			var cdi struct {
				Parameters, Parts []struct{ Id string }
			}
			readJSON(t, filepath.Join(dir, s.name+".cdi3.json"), &cdi)
			var cdiParams, cdiParts []string
			for _, p := range cdi.Parameters {
				cdiParams = append(cdiParams, p.Id)
			}
			for _, p := range cdi.Parts {
				if !slices.Contains(s.cdiOnlyParts, p.Id) {
					cdiParts = append(cdiParts, p.Id)
				}
			}
			var params, parts, meshes []string
			for _, p := range m.Parameters {
				params = append(params, p.ID)
			}
			for _, p := range m.Parts {
				parts = append(parts, p.ID)
			}
			for _, a := range m.ArtMeshes {
				meshes = append(meshes, a.ID)
			}
			// Same ids in the same order (the .cdi3.json lists them in the
			// Editor's order, as does the .moc3).
			if !slices.Equal(params, cdiParams) {
				t.Errorf("parameter ids\n%v\nthe cdi3.json lists\n%v", params, cdiParams)
			}
			if !slices.Equal(parts, cdiParts) {
				t.Errorf("part ids\n%v\nthe cdi3.json lists (less %v)\n%v", parts, s.cdiOnlyParts, cdiParts)
			}

			var model struct {
				FileReferences struct {
					Textures      []string
					Physics, Pose string
					Motions       map[string][]struct{ File string }
				}
				HitAreas []struct{ Id string }
			}
			readJSON(t, filepath.Join(dir, s.name+".model3.json"), &model)
			for _, h := range model.HitAreas {
				if !slices.Contains(meshes, h.Id) {
					t.Errorf("hit area %q is not an art mesh", h.Id)
				}
			}
			if model.FileReferences.Physics != "" {
				var phys struct {
					PhysicsSettings []struct {
						Input  []struct{ Source struct{ Id string } }
						Output []struct{ Destination struct{ Id string } }
					}
				}
				readJSON(t, filepath.Join(dir, model.FileReferences.Physics), &phys)
				n := 0
				for _, set := range phys.PhysicsSettings {
					for _, in := range set.Input {
						n++
						if !slices.Contains(params, in.Source.Id) {
							t.Errorf("physics input %q is not a parameter", in.Source.Id)
						}
					}
					for _, out := range set.Output {
						n++
						if !slices.Contains(params, out.Destination.Id) {
							t.Errorf("physics output %q is not a parameter", out.Destination.Id)
						}
					}
				}
				if n == 0 {
					t.Error("no physics parameters checked")
				}
			}
			if model.FileReferences.Pose != "" {
				var pose struct {
					Groups [][]struct {
						Id   string
						Link []string
					}
				}
				readJSON(t, filepath.Join(dir, model.FileReferences.Pose), &pose)
				for _, g := range pose.Groups {
					for _, e := range g {
						for _, id := range append([]string{e.Id}, e.Link...) {
							if !slices.Contains(parts, id) {
								t.Errorf("pose part %q is not a part", id)
							}
						}
					}
				}
			}
			curves := 0
			for _, group := range model.FileReferences.Motions {
				for _, mo := range group {
					var motion struct {
						Curves []struct{ Target, Id string }
					}
					readJSON(t, filepath.Join(dir, mo.File), &motion)
					for _, c := range motion.Curves {
						switch c.Target {
						case "Parameter":
							curves++
							if !slices.Contains(params, c.Id) {
								t.Errorf("%s: curve of parameter %q, not a parameter", mo.File, c.Id)
							}
						case "PartOpacity":
							// Motions may fade the guide parts the .moc3
							// leaves out (Mao's special_03 fades PartSketch).
							if !slices.Contains(parts, c.Id) && !slices.Contains(s.cdiOnlyParts, c.Id) {
								t.Errorf("%s: part opacity curve of %q, not a part", mo.File, c.Id)
							}
						}
					}
				}
			}
			if curves == 0 {
				t.Error("no motion curve checked")
			}

			textures := len(model.FileReferences.Textures)
			for i, a := range m.ArtMeshes {
				if a.Texture >= textures {
					t.Errorf("art mesh %d (%s): texture %d, model3.json lists %d", i, a.ID, a.Texture, textures)
				}
				for j, uv := range a.UVs {
					// Editor UVs lie on the texture, give or take a
					// vertex dragged off its edge.
					if !(uv >= -0.5 && uv <= 1.5) {
						t.Errorf("art mesh %d (%s): uv %d coordinate %d is %v", i, a.ID, j/2, j%2, uv)
						break
					}
				}
				for _, kf := range a.Keyforms {
					for j, p := range kf.Positions {
						if math.IsNaN(float64(p)) || math.IsInf(float64(p), 0) {
							t.Fatalf("art mesh %d (%s): position %d coordinate %d is %v", i, a.ID, j/2, j%2, p)
						}
					}
				}
			}
			for i, d := range m.Deformers {
				b := -1
				if d.Kind == Warp {
					b = m.WarpDeformers[d.Index].Binding
				} else {
					b = m.RotationDeformers[d.Index].Binding
				}
				if b != d.ListBinding {
					t.Errorf("deformer %d (%s): list binding %d, keyform grid binding %d", i, d.ID, d.ListBinding, b)
				}
			}
			logSampleStats(t, s.name, m)
		})
	}
}

func logSampleStats(t *testing.T, name string, m *Moc) {
	var verts, tris, kfs, bs, masked int
	for _, a := range m.ArtMeshes {
		verts += a.VertexCount
		tris += len(a.Indices) / 3
		kfs += len(a.Keyforms)
		bs += len(a.BlendShapes)
		if len(a.Masks) > 0 {
			masked++
		}
	}
	wbs := 0
	for _, w := range m.WarpDeformers {
		wbs += len(w.BlendShapes)
		kfs += len(w.Keyforms)
	}
	for _, r := range m.RotationDeformers {
		wbs += len(r.BlendShapes)
		kfs += len(r.Keyforms)
	}
	axes := 0
	for _, kb := range m.KeyformBindings {
		axes = max(axes, len(kb.Axes))
	}
	t.Logf("%s: version %s; %d parameters, %d parts, %d deformers (%d warp, %d rotation), %d art meshes (%d vertices, %d triangles, %d masked), %d glues, %d draw order groups, %d offscreens, %d keyform bindings (at most %d axes), %d mesh+deformer keyforms, blend shapes: %d on meshes, %d on deformers",
		name, m.Version, len(m.Parameters), len(m.Parts), len(m.Deformers), len(m.WarpDeformers), len(m.RotationDeformers),
		len(m.ArtMeshes), verts, tris, masked, len(m.Glues), len(m.DrawOrderGroups), len(m.Offscreens), len(m.KeyformBindings), axes, kfs, bs, wbs)
}

// TestSampleAllocation measures Parse's allocation on the samples against
// the bound the fuzz target enforces.
func TestSampleAllocation(t *testing.T) {
	for _, name := range cubismsamples.Names {
		data, err := os.ReadFile(cubismsamples.Moc(t, name))
		if err != nil {
			t.Fatal(err)
		}
		got := alloctest.Bytes(func() { Parse(data) })
		if got > allocBound(len(data)) {
			t.Errorf("%s: %d bytes allocated for a file of %d, more than %d", name, got, len(data), allocBound(len(data)))
		}
		t.Logf("%s: %d bytes, Parse allocates %d (%.2f per file byte)", name, len(data), got, float64(got)/float64(len(data)))
	}
}

// TestAllocationWorstShapes measures the files that make Parse allocate
// the most per byte: tables whose 4-byte entries each become a larger Go
// value (a blend-shape constraint index becomes a BlendShapeConstraint of
// 56 bytes, a parameter binding index an Axis of 32, a part keyform a
// PartKeyform of 32).
func TestAllocationWorstShapes(t *testing.T) {
	const n = 100000
	for _, c := range []struct {
		name string
		edit func(a map[string]any)
	}{
		{"constraint indices", func(a map[string]any) { a["bsci.index"] = make([]int32, n) }},
		{"parameter binding indices", func(a map[string]any) { a["pbi.index"] = make([]int32, n) }},
		{"part keyforms", func(a map[string]any) { a["partKF.drawOrder"] = make([]float32, n) }},
	} {
		f := minimal(V42)
		c.edit(f.arrays)
		data, _ := f.encode(t)
		var err error
		got := alloctest.Bytes(func() { _, err = Parse(data) })
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got > allocBound(len(data)) {
			t.Errorf("%s: %d bytes allocated for a file of %d, more than %d", c.name, got, len(data), allocBound(len(data)))
		}
		t.Logf("%s: %d bytes, Parse allocates %d (%.2f per file byte)", c.name, len(data), got, float64(got)/float64(len(data)))
	}
}
