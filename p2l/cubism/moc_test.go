package cubism

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l"
)

var sampleNames = []string{"Hiyori", "Mark", "Natori", "Mao", "Ren"}

// TestReadMocSamples lowers each official sample, checks it against the
// sample's own cdi3.json (an independent source: every parameter and part
// id it lists exists, by the Cubism id), writes and reloads it, and
// evaluates it at the default pose, at every parameter's ends and at mixed
// poses with finite vertices.
func TestReadMocSamples(t *testing.T) {
	for _, name := range sampleNames {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Dir(cubismsamples.Moc(t, name))
			m, _, err := Load(os.DirFS(dir), name+".model3.json")
			if err != nil {
				t.Fatal(err)
			}
			if m.Evaluation() != p2l.EvaluationCubism {
				t.Fatal("not Cubism-evaluated")
			}
			checkDisplayInfo(t, m, filepath.Join(dir, name+".cdi3.json"))
			var buf bytes.Buffer
			if err := p2l.Write(&buf, m, nil); err != nil {
				t.Fatal("write:", err)
			}
			back, err := p2l.Load(buf.Bytes())
			if err != nil {
				t.Fatal("load:", err)
			}
			if back.Evaluation() != p2l.EvaluationCubism || back.Meshes().Len() != m.Meshes().Len() {
				t.Fatal("round trip lost the evaluation or meshes")
			}
			r := back.NewRig()
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
			poses := [][]float32{nil}
			for i, p := range back.Parameters().All() {
				for _, v := range []float32{p.Min, p.Max} {
					pose := make([]float32, back.Parameters().Len())
					for j, q := range back.Parameters().All() {
						pose[j] = q.Default
					}
					pose[i] = v
					poses = append(poses, pose)
				}
			}
			for k := range 8 { // mixed poses: every parameter at a fixed fraction
				pose := make([]float32, back.Parameters().Len())
				for j, q := range back.Parameters().All() {
					f := float32((j*7+k*3)%11) / 10
					pose[j] = q.Min + f*(q.Max-q.Min)
				}
				poses = append(poses, pose)
			}
			drawn := 0
			for pi, pose := range poses {
				r.ResetParameters()
				if pose != nil {
					r.SetParameterValues(pose)
				}
				r.Evaluate()
				if r.Err() != nil {
					t.Fatalf("pose %d: %v", pi, r.Err())
				}
				for i := range back.Meshes().Len() {
					for _, v := range r.Mesh(i).Vertices() {
						if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
							t.Fatalf("pose %d: mesh %q: vertex %v", pi, back.Meshes().At(i).ID, v)
						}
					}
				}
				if pi == 0 {
					drawn = len(r.RenderOrder())
				}
			}
			// At the default pose the model shows most of its meshes.
			if drawn < back.Meshes().Len()/2 {
				t.Errorf("default pose draws %d of %d meshes", drawn, back.Meshes().Len())
			}
		})
	}
}

// checkDisplayInfo requires every parameter id the sample's cdi3.json
// lists to exist in the model under the same id, and most of its part ids
// (the Editor lists parts that hold only guide images, such as
// PartSketch, which the moc does not carry).
func checkDisplayInfo(t *testing.T, m *p2l.Model, cdi string) {
	t.Helper()
	data, err := os.ReadFile(cdi)
	if err != nil {
		t.Skip("no cdi3.json:", err)
	}
	var doc struct {
		Parameters, Parts []struct{ Id string }
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Parameters {
		if m.ParameterIndex(p.Id) < 0 {
			t.Errorf("cdi3 parameter %q missing", p.Id)
		}
	}
	found := 0
	for _, p := range doc.Parts {
		if m.PartIndex(p.Id) >= 0 {
			found++
		}
	}
	if found < len(doc.Parts)-2 {
		t.Errorf("%d of the cdi3's %d parts found", found, len(doc.Parts))
	}
}
