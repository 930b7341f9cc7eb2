package cubism

import (
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// FuzzImport feeds arbitrary bytes to every importer: each must return a
// model that validates (so it can be written) or an error, never panic or
// hang.
func FuzzImport(f *testing.F) {
	f.Add([]byte(motion))
	f.Add([]byte(physicsJSONText(`"VertexIndex": 1`)))
	f.Add([]byte(`{"Parameters": [{"Id": "ParamHair", "Value": 1, "Blend": "Multiply"}]}`))
	f.Add([]byte(`{"Groups": [[{"Id": "PartArmA", "Link": ["PartHandA"]}]]}`))
	f.Add([]byte(`{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "ParamHair", "Segments": [0, 0, 1, 0, 1, 0.5, 2, 1]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := baseModel()
		m.Canvas = p2l.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1}
		m.Draw = p2l.DrawGroup{Part: -1}
		for _, name := range []string{"f.motion3.json", "f.physics3.json", "f.exp3.json", "f.pose3.json"} {
			out, _, err := Import(m, "", File{Name: name, Data: data})
			if err != nil {
				continue
			}
			if err := out.Validate(); err != nil {
				t.Fatalf("%s imported into a model that does not validate: %v", name, err)
			}
			m = out
		}
		// Whatever imported must play without panicking.
		r := m.NewRig()
		r.SetBehaviors(p2l.AllBehaviors)
		for c := range m.Clips {
			r.PlayLayer(c%p2l.MaxLayers, c, 1)
		}
		for x := range m.Expressions {
			r.AddExpression(x)
		}
		r.ShowPose(0, 1)
		for _, dt := range []float64{0, 1.0 / 60, 0.5, 7, 1e9} {
			r.Update(dt)
		}
		r.PhysicsStabilize()
	})
}

// FuzzLoadModel3 loads the synthetic bundle with arbitrary bytes as its
// model3.json: Load returns a model that validates and plays, or an error,
// never a panic or a hang.
func FuzzLoadModel3(f *testing.F) {
	f.Add([]byte(cubismbundle.Model3JSON))
	f.Add([]byte(`{"FileReferences": {"Moc": "tiny.moc3", "Motions": {"A": [{"File": "motions/idle.motion3.json", "Sound": "x"}], "A": []}}}`))
	f.Add([]byte(`{"FileReferences": {"Moc": "tiny.moc3", "DisplayInfo": "tiny.cdi3.json", "Textures": [1, "../x"]}, "Groups": [{"Target": "Parameter", "Name": "LipSync", "Ids": [null]}], "Layout": {"X": 1e99}}`))
	files := cubismbundle.Files()
	f.Fuzz(func(t *testing.T, data []byte) {
		files[cubismbundle.Model3] = &fstest.MapFile{Data: data}
		m, _, err := Load(files, cubismbundle.Model3)
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("loaded a model that does not validate: %v", err)
		}
		r := m.NewRig()
		for c := range m.Clips {
			r.PlayLayer(c%p2l.MaxLayers, c, 1)
		}
		for range 3 {
			r.Update(0.25)
		}
	})
}
