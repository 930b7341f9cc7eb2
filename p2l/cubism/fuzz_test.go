package cubism

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/internal/moc3write"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/moc3"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
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
		m.Canvas = p2lrt.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1}
		m.Draw = p2lrt.DrawGroup{Part: -1}
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
		// Whatever imported must make a model (its trial evaluation must
		// not panic) and play without panicking.
		model, err := p2l.NewModel(m)
		if err != nil {
			if strings.Contains(err.Error(), "panicked") {
				t.Fatal(err)
			}
			return
		}
		r := model.NewRig()
		r.SetBehaviors(p2l.AllBehaviors)
		for c := range m.Clips {
			r.Layer(c%p2l.MaxLayers).Play(c, 1)
		}
		for x := range m.Expressions {
			r.Expressions().Add(x)
		}
		if m.Pose != nil && len(m.Pose.Groups) > 0 && len(m.Pose.Groups[0].Entries) > 1 {
			r.ShowPose(0, 1) // indices the model has (others panic)
		}
		for _, dt := range []float64{0, 1.0 / 60, 0.5, 7, 1e9} {
			r.Update(dt)
		}
		r.Physics().Stabilize()
	})
}

// FuzzReadMoc feeds arbitrary bytes to ReadMoc: it must return a model or
// an error of the documented kinds (*moc3.FormatError for a file that does
// not parse, *Error for one that cannot be lowered or evaluated), never
// panic; a model it returns must validate, evaluate at its default pose and
// survive its first parameters' ends. Seeds: moc3write.Seeds (synthetic
// files of every version) and, when the samples are present, the smallest
// official sample (Mark) — read at fuzz time, never committed to testdata;
// the larger ones make every minimisation step take 0.1 s.
func FuzzReadMoc(f *testing.F) {
	for _, s := range moc3write.Seeds() {
		f.Add(s)
	}
	if dir, ok := cubismsamples.Dir(); ok {
		if data, err := os.ReadFile(filepath.Join(dir, "Mark", "Mark.moc3")); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := readMocModel(data)
		if err != nil {
			var fe *moc3.FormatError
			var ce *Error
			if !errors.As(err, &fe) && !errors.As(err, &ce) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if err := m.File().Validate(); err != nil {
			t.Fatalf("accepted model does not validate: %v", err)
		}
		r := m.NewRig()
		r.Evaluate()
		if err := r.Err(); err != nil {
			t.Fatalf("accepted model fails at its default pose: %v", err)
		}
		// The first parameters at their ends: a failure must be a rig
		// error (values that overflow at that pose), never a panic.
		for i := range min(m.Parameters().Len(), 8) {
			p := m.Parameters().At(i)
			for _, v := range []float32{p.Min, p.Max} {
				r.SetParameter(i, v)
				r.Evaluate()
			}
			r.SetParameter(i, p.Default)
		}
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
		if err := m.File().Validate(); err != nil {
			t.Fatalf("loaded a model that does not validate: %v", err)
		}
		r := m.NewRig()
		for c := range m.Clips().Len() {
			r.Layer(c%p2l.MaxLayers).Play(c, 1)
		}
		for range 3 {
			r.Update(0.25)
		}
	})
}
