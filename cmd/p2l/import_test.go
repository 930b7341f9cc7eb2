package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.p2lrt")
	var b bytes.Buffer
	if err := tinyModel().Write(&b, &p2lrt.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	mo := write("wave.motion3.json", `{"Meta": {"Duration": 1, "Fps": 30, "Loop": true},
	  "Curves": [{"Target": "Parameter", "Id": "P", "Segments": [0, 0, 0, 1, 1]}],
	  "UserData": [{"Time": 0.5, "Value": "half"}]}`)
	ex := write("smile.exp3.json", `{"Parameters": [{"Id": "P", "Value": 0.5, "Blend": "Overwrite"}]}`)
	out := filepath.Join(dir, "out.p2lrt")
	code, stdout, stderr := runCmd("import", "--motion", mo, "--expression", ex, "--group", "Idle", in, out)
	if code != 0 {
		t.Fatalf("import: %d %q %q", code, stdout, stderr)
	}
	m, err := p2l.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Clips().Len() != 1 || m.Clips().At(0).ID != "wave" || m.Clips().At(0).Group != "Idle" || len(m.Clips().At(0).Events) != 1 ||
		m.Expressions().Len() != 1 || m.Expressions().At(0).Entries[0].Blend != p2lrt.ExpressionOverwrite {
		t.Errorf("imported model: clips %+v expressions %+v", m.File().Clips, m.File().Expressions)
	}
	// What Cubism skips is skipped with a warning on stderr; the rest imports.
	skip := write("skip.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "Nope", "Segments": [0, 0, 0, 1, 1]},
	  {"Target": "Parameter", "Id": "P", "Segments": [0, 0, 0, 1, 1]}]}`)
	code, _, stderr = runCmd("import", "--motion", skip, in, out)
	if code != 0 || !strings.Contains(stderr, "warning: "+skip+": Curves[0].Id: the model has no parameter \"Nope\": curve skipped") {
		t.Errorf("import with a skipped curve: %d %q", code, stderr)
	}
	if m, err := p2l.LoadFile(out); err != nil || m.Clips().Len() != 1 || len(m.Clips().At(0).Curves) != 1 {
		t.Errorf("import with a skipped curve: %v %+v", err, m)
	}
	// The flag states the kind: a motion without the suffix imports, a
	// motion given as physics is refused by its content.
	plain := write("wave.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "P", "Segments": [0, 0, 0, 1, 1]}]}`)
	if code, _, stderr = runCmd("import", "--motion", plain, in, out); code != 0 {
		t.Errorf("--motion wave.json: %d %q", code, stderr)
	} else if m, err := p2l.LoadFile(out); err != nil || m.ClipIndex("wave") != 0 {
		t.Errorf("--motion wave.json imported %v %+v", err, m)
	}
	code, _, stderr = runCmd("import", "--physics", mo, in, out)
	if code != 1 || !strings.Contains(stderr, "imported as physics3, but the content is a motion3 file") {
		t.Errorf("--physics with a motion: %d %q", code, stderr)
	}
	bad := write("bad.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [`)
	if code, _, stderr = runCmd("import", "--motion", bad, in, out); code != 1 || !strings.Contains(stderr, "bad.motion3.json: not JSON") {
		t.Errorf("bad import: %d %q", code, stderr)
	}
	if code, _, _ := runCmd("import", in, out); code != 2 {
		t.Errorf("import with nothing: exit %d, want 2", code)
	}
}
