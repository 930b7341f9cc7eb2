package conformance

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

var update = flag.Bool("update", false, "write the conformance models to testdata/conformance")

// Dir is where the models live, relative to this package.
const Dir = "../../../testdata/conformance"

func encode(t *testing.T, m *p2lrt.File) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := m.Write(&b, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCommittedModelsMatchGenerator keeps testdata/conformance in step with
// this code (regenerate with -update).
func TestCommittedModelsMatchGenerator(t *testing.T) {
	for _, c := range All() {
		files := map[string][]byte{c.Name + ".p2lrt": encode(t, c.Model)}
		for n, d := range c.Files {
			files[n] = d
		}
		for name, want := range files {
			path := filepath.Join(Dir, name)
			if *update {
				if err := os.MkdirAll(Dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./p2l/internal/conformance -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the generator (run go test ./p2l/internal/conformance -update)", path)
			}
		}
	}
}

// TestModelsLoadAndEvaluate checks every model passes the reader's
// validation and poses, and that its parameters exist.
func TestModelsLoadAndEvaluate(t *testing.T) {
	for _, c := range All() {
		m, err := p2l.Load(encode(t, c.Model))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		r := m.NewRig()
		for _, p := range c.Poses {
			for id, v := range p.Values {
				if i := r.Model().ParameterIndex(id); i < 0 {
					t.Errorf("%s pose %s: no parameter %s", c.Name, p.Name, id)
				} else {
					r.SetParameter(i, v)
				}
			}
			r.Evaluate()
			if r.Err() != nil {
				t.Fatalf("%s: %v", c.Name, r.Err())
			}
			if len(r.RenderOrder()) == 0 {
				t.Errorf("%s: nothing to draw", c.Name)
			}
		}
	}
}
