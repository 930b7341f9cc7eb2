package p2l

import (
	"io"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestValidateRules: one model mutation per validation rule; Validate (and
// therefore Write) must reject each with an error naming the problem.
func TestValidateRules(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	deep := func() p2lrt.DrawGroup {
		g := &p2lrt.DrawGroup{Part: -1}
		for i := 0; i < maxDepth+1; i++ {
			g = &p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{{Group: g}}}
		}
		return *g
	}
	cases := []struct {
		name   string
		mutate func(m *Model)
		want   string
	}{
		{"NaN scalar", func(m *Model) { m.file.Canvas.Width = nan }, "CANV: width: not a finite number"},
		{"Inf in array", func(m *Model) { m.file.Meshes[0].Positions[3] = inf }, "meshes[0].positions: element 3 is not a finite number"},
		{"deformer parent after child", func(m *Model) { m.file.Deformers[0].Parent = 1 }, "must be an earlier deformer"},
		{"deformer own parent", func(m *Model) { m.file.Deformers[1].Parent = 1 }, "must be an earlier deformer"},
		{"deformer part out of range", func(m *Model) { m.file.Deformers[0].Part = 2 }, "deformers[0].part: part 2 out of range"},
		{"deformer kind without data", func(m *Model) { m.file.Deformers[0].Warp = nil }, "needs Warp set"},
		{"grid without cells", func(m *Model) { m.file.Deformers[0].Warp.Keyforms.Cells = nil }, "a grid needs at least one cell"},
		{"grid too large", func(m *Model) {
			m.file.Deformers[0].Warp.Keyforms.Axes = append(m.file.Deformers[0].Warp.Keyforms.Axes, p2lrt.Axis{Parameter: 0, Keys: make([]float32, 1<<23)})
		}, "key combinations exceed"},
		{"warp columns 0", func(m *Model) { m.file.Deformers[0].Warp.Columns = 0 }, "columns and rows must be in 1..4096"},
		{"warp columns 4097", func(m *Model) { m.file.Deformers[0].Warp.Columns = 4097 }, "columns and rows must be in 1..4096"},
		{"warp keyform size", func(m *Model) {
			w := m.file.Deformers[0].Warp
			w.Keyforms.Cells[0].Value = w.Keyforms.Cells[0].Value[:10]
		}, "has 10 values, want 12"},
		{"warp shape size", func(m *Model) { s := &m.file.Deformers[0].Warp.Shapes[0].Shapes[1]; s.Points = s.Points[:2] }, "has 2 values, want 12"},
		{"absent shape is the zero value", func(m *Model) { m.file.Deformers[0].Warp.Shapes[0].Shapes[0].Points = []float32{1} }, "key 0 is absent but its shape is not the zero value"},
		{"grid coordinate out of range", func(m *Model) { m.file.Deformers[0].Warp.Keyforms.Cells[0].Coord[1] = 2 }, "coordinate 2 on axis 1 is not below its 2 keys"},
		{"grid coord count", func(m *Model) { m.file.Deformers[0].Warp.Keyforms.Cells[0].Coord = []uint16{1} }, "has 1 coordinates, grid has 2 axes"},
		{"keys decrease", func(m *Model) { m.file.Deformers[0].Warp.Keyforms.Axes[0].Keys[1] = -40 }, "keys decrease at 1"},
		{"axis without keys", func(m *Model) { m.file.Deformers[1].Rotation.Keyforms.Axes[0].Keys = nil }, "needs at least one key"},
		{"axis parameter out of range", func(m *Model) { m.file.Deformers[1].Rotation.Keyforms.Axes[0].Parameter = 3 }, "parameter 3 out of range"},
		{"binding neutral", func(m *Model) { m.file.Meshes[0].Shapes[0].Neutral = 2 }, "neutral key 2 out of range"},
		{"binding shapes per key", func(m *Model) { m.file.Meshes[0].Shapes[0].Present = []bool{true} }, "one entry per key"},
		{"binding parameter", func(m *Model) { m.file.Parts[0].Shapes[0].Parameter = 9 }, "parts[0].shapes[0].parameter: parameter 9 out of range"},
		{"limit parameter", func(m *Model) { m.file.Meshes[0].Shapes[0].Limits[0].Parameter = -1 }, "limits[0].parameter: parameter -1 out of range"},
		{"channel kind", func(m *Model) { m.file.Deformers[0].Channels[0].Kind = p2lrt.ChannelColor }, "channel 1 needs kind 0"},
		{"channel without grid", func(m *Model) { m.file.Deformers[0].Channels[0].Grid = nil }, "a channel needs a grid"},
		{"channel twice", func(m *Model) { m.file.Deformers[0].Channels[1] = m.file.Deformers[0].Channels[0] }, "appears twice"},
		{"glue channel on a mesh", func(m *Model) { m.file.Meshes[0].Channels = m.file.Glues[0].Channels }, "channel 6 not allowed here"},
		{"mesh channel on a glue", func(m *Model) { m.file.Glues[0].Channels = m.file.Meshes[0].Channels }, "channel 1 not allowed here"},
		{"flag channel value", func(m *Model) { m.file.Deformers[1].Channels[0].Grid.Cells[1].Value[0] = 0.5 }, "flag value must be"},
		{"blend mode", func(m *Model) { m.file.Meshes[0].Blend = p2lrt.NumBlendModes }, "value 18 out of range (max 17)"},
		{"alpha mode", func(m *Model) { m.file.Parts[0].Composite.AlphaBlend = p2lrt.NumAlphaModes }, "value 5 out of range (max 4)"},
		{"group mode", func(m *Model) { m.file.Parts[0].GroupMode = 3 }, "groupMode: value 3 out of range"},
		{"part flags", func(m *Model) { m.file.Parts[0].Flags = 4 }, "reserved flag bits"},
		{"mesh flags", func(m *Model) { m.file.Meshes[0].Flags |= 16 }, "reserved flag bits"},
		{"part child out of range", func(m *Model) { m.file.Parts[0].Children[0].Index = 5 }, "part 5 out of range"},
		{"mask part out of range", func(m *Model) { m.file.Parts[0].Composite.MaskParts[0] = 2 }, "mask part 2 out of range"},
		{"mesh parent", func(m *Model) { m.file.Meshes[0].Parent = 2 }, "parent deformer 2 out of range"},
		{"odd positions", func(m *Model) {
			me := &m.file.Meshes[1]
			me.Positions, me.UVs = me.Positions[:5], me.UVs[:5]
			m.file.Glues, m.file.Simulations, m.file.Collision = nil, nil, nil
		}, "odd number of values"},
		{"uv count", func(m *Model) { m.file.Meshes[0].UVs = m.file.Meshes[0].UVs[:6] }, "6 UV values for 8 position values"},
		{"partial triangle", func(m *Model) { m.file.Meshes[0].Indices = m.file.Meshes[0].Indices[:4] }, "not whole triangles"},
		{"index beyond vertices", func(m *Model) { m.file.Meshes[0].Indices[5] = 4 }, "index 4 at 5 is not below the vertex count 4"},
		{"geometry without flag", func(m *Model) { m.file.Meshes[0].Flags &^= p2lrt.MeshGeometry }, "geometry set without the geometry flag"},
		{"mesh keyform size", func(m *Model) { m.file.Meshes[0].Keyforms.Cells[0].Value = []float32{1, 2} }, "has 2 values, want 8"},
		{"mesh shape size", func(m *Model) { s := &m.file.Meshes[0].Shapes[0].Shapes[1]; s.Deltas = s.Deltas[:2] }, "has 2 values, want 8"},
		{"glue mesh", func(m *Model) { m.file.Glues[0].MeshB = 3 }, "mesh 3 out of range"},
		{"glue vertex", func(m *Model) { m.file.Glues[0].Pairs[1].B = 3 }, "vertex 3 not below mesh 1's vertex count 3"},
		{"draw mesh out of range", func(m *Model) { m.file.Draw.Children[1].Mesh = 3 }, "mesh 3 out of range"},
		{"draw group with mesh", func(m *Model) { m.file.Draw.Children[0].Mesh = 1 }, "a group node must have Mesh 0"},
		{"draw part", func(m *Model) { m.file.Draw.Children[0].Group.Part = 2 }, "part 2 out of range"},
		{"draw depth", func(m *Model) { m.file.Draw = deep() }, "draw tree deeper than 256"},
		{"draw cycle", func(m *Model) {
			g := &p2lrt.DrawGroup{Part: -1}
			g.Children = []p2lrt.DrawNode{{Group: g}}
			m.file.Draw.Children = append(m.file.Draw.Children, p2lrt.DrawNode{Group: g})
		}, "draw tree deeper than 256"},
		{"external page with data", func(m *Model) { m.file.Textures[2].Data = []byte{1} }, "carries no data"},
		{"texture kind", func(m *Model) { m.file.Textures[0].Kind = 3 }, "kind: value 3 out of range"},
		{"physics vertex", func(m *Model) { m.file.Physics.Groups[0].Outputs[0].Vertex = 2 }, "vertex 2 out of range"},
		{"physics source", func(m *Model) { m.file.Physics.Groups[0].Inputs[0].Source = 3 }, "unknown source 3"},
		{"physics parameter", func(m *Model) { m.file.Physics.Groups[0].Inputs[0].Parameter = 3 }, "PHYS: groups[0].inputs[0].parameter"},
		{"control points on linear", func(m *Model) { m.file.Clips[0].Curves[0].Segments[0].C1 = p2lrt.Point{T: 1, V: 1} }, "only stored for Bezier"},
		{"segment kind", func(m *Model) { m.file.Clips[0].Curves[0].Segments[0].Kind = 4 }, "value 4 out of range (max 3)"},
		{"clip curve parameter", func(m *Model) { m.file.Clips[1].Curves[0].Parameter = 7 }, "CLIP: clips[1].curves[0].parameter"},
		{"event order", func(m *Model) { m.file.Clips[0].Events[2].Time = 0.1 }, "event times must not decrease"},
		{"target curve part", func(m *Model) { m.file.Clips[0].TargetCurves[0].Part = -1 }, "part -1 out of range"},
		{"target curve extra part", func(m *Model) { m.file.Clips[0].TargetCurves[1].Part = 0 }, "only part-opacity curves name a part"},
		{"target curve part range", func(m *Model) { m.file.Clips[0].TargetCurves[0].Part = 2 }, "part 2 out of range"},
		{"target kind", func(m *Model) { m.file.Clips[0].TargetCurves[1].Target = 5 }, "unknown curve target 5"},
		{"curve fade index", func(m *Model) { m.file.Clips[0].CurveFades[0].Curve = 2 }, "curve 2 out of range"},
		{"curve fade twice", func(m *Model) { cf := &m.file.Clips[0].CurveFades; *cf = append(*cf, (*cf)[0]) }, "two fade entries"},
		{"role parameter", func(m *Model) { m.file.Roles[0].Parameters[0] = 3 }, "ROLE"},
		{"gui parameter node with id", func(m *Model) { m.file.GUI.Tree[1].ID = "x" }, "a parameter node needs"},
		{"gui group parameter", func(m *Model) { m.file.GUI.Tree[0].Parameter = 0 }, "a group node has parameter -1"},
		{"gui preset label", func(m *Model) { m.file.GUI.Tree[0].Preset = "p" }, "preset set without the preset label"},
		{"gui argb label", func(m *Model) { m.file.GUI.Tree[0].Children[1].ARGB = 1 }, "color set without the custom label"},
		{"gui snap keys", func(m *Model) { m.file.GUI.Snaps[0].Keys = []float32{2, 1} }, "keys decrease"},
		{"gui tree depth", func(m *Model) {
			n := p2lrt.GUINode{Kind: p2lrt.GUIParameter, Parameter: 0}
			for i := 0; i < maxDepth+1; i++ {
				n = p2lrt.GUINode{Kind: p2lrt.GUIGroup, Parameter: -1, Children: []p2lrt.GUINode{n}}
			}
			m.file.GUI.Tree = []p2lrt.GUINode{n}
		}, "PGUI tree deeper"},
		{"expression blend", func(m *Model) { m.file.Expressions[0].Entries[0].Blend = 3 }, "value 3 out of range (max 2)"},
		{"hit area mesh", func(m *Model) { m.file.HitAreas[0].Meshes[1] = 3 }, "HITA"},
		{"user data kind", func(m *Model) { m.file.UserData[0].Kind = 1 }, "unknown kind 1"},
		{"pose part", func(m *Model) { m.file.Pose.Groups[0].Entries[0].Linked[0] = 2 }, "POSE"},
		{"ext feature bit", func(m *Model) { m.file.Skins.Header.Feature = 2 }, "feature bit 1, got 2"},
		{"ext hooks", func(m *Model) { m.file.Skins.Header.Hooks = 16 }, "unknown hook bits"},
		{"ext depends tag", func(m *Model) { m.file.Skins.Header.DependsOn = []string{"BO"} }, "is not four bytes"},
		{"ext replaced binding", func(m *Model) { m.file.Skins.Header.Replaced[0].Bindings[0] = 1 }, "binding 1 out of range"},
		{"ext physics group", func(m *Model) { m.file.Simulations.Header.PhysicsGroups[0] = 1 }, "physics group 1 out of range"},
		{"virtual bone kind", func(m *Model) {
			m.file.Bones.Virtual[0].Kind, m.file.Bones.Virtual[0].Warp, m.file.Bones.Virtual[0].Rotation = p2lrt.WarpDeformer, &p2lrt.Warp{Columns: 1, Rows: 1, Keyforms: &p2lrt.Grid[[]float32]{Cells: []p2lrt.Cell[[]float32]{{Value: make([]float32, 8)}}}}, nil
		}, "a virtual bone must be a rotation deformer"},
		{"virtual bone parent", func(m *Model) { m.file.Bones.Virtual[0].Parent = 2 }, "must be an earlier deformer"},
		{"arc deformer", func(m *Model) { m.file.Bones.Arcs[0].Deformer = 3 }, "deformer 3 out of range"},
		{"skin bone kind", func(m *Model) { m.file.Skins.Meshes[0].Bones[0] = 0 }, "not a rotation deformer"},
		{"skin weights per vertex", func(m *Model) {
			s := &m.file.Skins.Meshes[0]
			s.From, s.To, s.Weight = s.From[:3], s.To[:3], s.Weight[:3]
		}, "3 weights for 4 vertices"},
		{"skin parallel arrays", func(m *Model) { m.file.Skins.Meshes[0].To = nil }, "differ in length"},
		{"skin bone index", func(m *Model) { m.file.Skins.Meshes[0].From[0] = 2 }, "names bone"},
		{"collider vertex", func(m *Model) { m.file.Collision.Colliders[0].VertexB = 4 }, "vertex 4 not below"},
		{"sim particle arrays", func(m *Model) { m.file.Simulations.Sims[0].Damping = m.file.Simulations.Sims[0].Damping[:2] }, "parallel arrays need 3"},
		{"sim constraint arrays", func(m *Model) { m.file.Simulations.Sims[0].Rest = nil }, "parallel arrays need 2"},
		{"sim particle index", func(m *Model) { m.file.Simulations.Sims[0].StretchB[1] = 3 }, "entry 1 is 3, not below 3"},
		{"sim vertex count", func(m *Model) { m.file.Simulations.Sims[0].Targets[0].VertexCount = 2 }, "2 ≠ mesh 1's vertex count 3"},
		{"sim target mesh", func(m *Model) {
			x := &m.file.Simulations.Sims[0]
			x.Targets[0].Mesh = 0
		}, "3 ≠ mesh 0's vertex count 4"},
		{"sim anchor vertex", func(m *Model) { m.file.Simulations.Sims[0].AnchorVertex[1] = 4 }, "vertex 4 not below"},
		{"sim collider", func(m *Model) { m.file.Simulations.Sims[0].Colliders[1] = 2 }, "collider 2 out of range"},
		{"sim correction offsets", func(m *Model) { m.file.Simulations.Sims[0].Corrections[0].Meshes[0].Offsets[1] = []float32{1} }, "1 values, want 6"},
		{"sim correction per key", func(m *Model) {
			cm := &m.file.Simulations.Sims[0].Corrections[0].Meshes[0]
			cm.Offsets = cm.Offsets[:1]
		}, "1 offset arrays for 2 keys"},
		{"sim fps", func(m *Model) { m.file.Simulations.Sims[0].Fps = 0 }, "fps > 0"},
		{"invalid UTF-8", func(m *Model) { m.file.Parameters[0].ID = "\xff" }, "not valid UTF-8"},
		{"count width", func(m *Model) { m.file.Deformers[0].Channels = make([]p2lrt.Channel, 256) }, "exceed the count width"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := fullModel()
			c.mutate(m)
			err := m.file.Validate()
			checkErr(t, err, c.want)
			// Validate checks without assembling a file (checkOnly):
			// Write, which does, refuses the model for the same reason.
			if werr := Write(io.Discard, m, nil); err != nil && (werr == nil || werr.Error() != err.Error()) {
				t.Errorf("Write: %v, Validate: %v", werr, err)
			}
		})
	}
	if err := fullModel().file.Validate(); err != nil {
		t.Fatalf("fullModel invalid: %v", err)
	}
}

// TestReferenceAccepts: models the reference reader (rig.rs) accepts and
// we once rejected. Each must validate, round-trip through our writer and
// reader unchanged, and evaluate.
func TestReferenceAccepts(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(m *Model)
	}{
		{"parameter default outside range", func(m *Model) { m.file.Parameters[1].Default = 2 }},
		{"parameter min above max", func(m *Model) { m.file.Parameters[1].Min, m.file.Parameters[1].Max = 1, -1 }},
		{"warp without keyforms", func(m *Model) { m.file.Deformers[0].Warp.Keyforms = nil }},
		{"rotation without keyforms", func(m *Model) { m.file.Deformers[1].Rotation.Keyforms = nil }},
		{"virtual bone without keyforms", func(m *Model) { m.file.Bones.Virtual[0].Rotation.Keyforms = nil }},
		{"grid duplicate cell", func(m *Model) { g := m.file.Deformers[0].Warp.Keyforms; g.Cells[1].Coord = []uint16{1, 0} }},
		{"static grid two cells", func(m *Model) {
			g := m.file.Bones.Virtual[0].Rotation.Keyforms
			g.Cells = append(g.Cells, g.Cells[0])
		}},
		{"equal keys", func(m *Model) { m.file.Deformers[0].Warp.Keyforms.Axes[0].Keys[2] = 0 }},
		{"limit points decrease", func(m *Model) { m.file.Meshes[0].Shapes[0].Limits[0].Points[2].Value = 0.1 }},
		{"part child twice", func(m *Model) {
			m.file.Parts[1].Children = append(m.file.Parts[1].Children, p2lrt.PartChild{Kind: p2lrt.ChildMesh, Index: 0})
		}},
		{"part own child", func(m *Model) {
			m.file.Parts[1].Children = append(m.file.Parts[1].Children, p2lrt.PartChild{Kind: p2lrt.ChildPart, Index: 1})
		}},
		{"part cycle", func(m *Model) {
			m.file.Parts[1].Children = append(m.file.Parts[1].Children, p2lrt.PartChild{Kind: p2lrt.ChildPart, Index: 0})
		}},
		{"mesh masks itself", func(m *Model) { m.file.Meshes[1].Masks = []int{1} }},
		{"texture page without TEXR page", func(m *Model) { m.file.Meshes[0].TexturePage = 3 }},
		{"negative texture page", func(m *Model) { m.file.Meshes[0].TexturePage = -7 }},
		{"empty mesh keyform deltas", func(m *Model) { m.file.Meshes[0].Keyforms.Cells[0].Value = nil }},
		{"empty present shape deltas", func(m *Model) { m.file.Meshes[0].Shapes[0].Shapes[1].Deltas = nil }},
		{"no-geometry mesh with deltas", func(m *Model) {
			m.file.Meshes[2].Keyforms = &p2lrt.Grid[[]float32]{Cells: []p2lrt.Cell[[]float32]{{Value: []float32{1, 2}}}}
		}},
		{"draw mesh twice", func(m *Model) { m.file.Draw.Children[1].Mesh = 0 }},
		{"embedded page without data", func(m *Model) { m.file.Textures[0].Data = nil }},
		{"external page without uri", func(m *Model) { m.file.Textures[2].URI = "" }},
		{"segment time decreases", func(m *Model) { m.file.Clips[0].Curves[0].Segments[2].End.T = 1.5 }},
		{"negative clip duration", func(m *Model) { m.file.Clips[0].Duration = -1 }},
		{"negative physics fps", func(m *Model) { m.file.Physics.Fps = -5 }},
		{"role without name", func(m *Model) { m.file.Roles[0].Name = "" }},
		{"collider on both mesh and deformer", func(m *Model) { m.file.Collision.Colliders[0].Deformer = 2 }},
		{"gui snap without keys", func(m *Model) { m.file.GUI.Snaps[0].Keys = nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := fullModel()
			c.mutate(m)
			if err := m.file.Validate(); err != nil {
				t.Fatal(err)
			}
			data := mustWrite(t, m, nil)
			got, err := Load(data)
			if err != nil {
				t.Fatal(err)
			}
			if !sameFile(got, m) {
				t.Fatalf("round trip: %s", diffModels(m, got))
			}
			r := got.NewRig()
			r.Update(0.25)
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
		})
	}
}

// TestReaderValidation checks rules that only the reader meets (values a
// Model cannot hold), on hand-built files.
func TestReaderValidation(t *testing.T) {
	set := func(tag string, f func(b []byte) []byte) []byte {
		return buildV2(withChunk(tag, func(c *tchunk) { c.data = f(append([]byte(nil), c.data...)) })...)
	}
	nanBits := []byte{0, 0, 0xc0, 0x7f}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"bool 2", set("PART", func(b []byte) []byte { b[len(b)-2-28-1] = 2; return b }), "invertMask: value 2 out of range (max 1)"},
		{"sref out of range", set("PARM", func(b []byte) []byte { b[4] = 9; return b }), "string index 9 out of range"},
		{"NaN", set("CANV", func(b []byte) []byte { copy(b[4:], nanBits); return b }), "height: not a finite number"},
		{"array codec", set("MESH", func(b []byte) []byte { b[28] = 16; return b }), "array codec 16 not allowed here"},
		{"array reserved", set("MESH", func(b []byte) []byte { b[29] = 1; return b }), "array reserved bytes"},
		{"array padding", set("MESH", func(b []byte) []byte { b[27] = 1; return b }), "array padding byte is not zero"},
		{"array count huge", set("MESH", func(b []byte) []byte { copy(b[32:], []byte{0xff, 0xff, 0xff, 0xff}); return b }), "does not fit"},
		{"STRS offsets decrease", set("STRS", func(b []byte) []byte { b[12] = 0; return b }), "decreases"},
		{"STRS offsets[0]", set("STRS", func(b []byte) []byte { b[4] = 1; return b }), "offsets[0] must be 0"},
		{"STRS blob too long", set("STRS", func(b []byte) []byte { return append(b, 'x') }), "1 bytes after the last string"},
		{"STRS bad UTF-8", set("STRS", func(b []byte) []byte { b[len(b)-1] = 0xff; return b }), "not valid UTF-8"},
		{"stripped names but name set", patch(buildV2(minimalChunks()...), 12, uint32(1)), "names are stripped"},
		{"grid axes 0xFFFF has no cells", set("MESH", func(b []byte) []byte {
			// Insert "u32 cells = 0" after the 0xFFFF marker: the record
			// then no longer parses as the spec says.
			i := len(b) - 2 - 32 - 1 - 2
			return append(b[:i+2], append([]byte{0, 0, 0, 0}, b[i+2:]...)...)
		}), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(c.data)
			if c.want == "" {
				if err == nil {
					t.Fatal("accepted")
				}
				return
			}
			checkErr(t, err, c.want)
		})
	}
}
