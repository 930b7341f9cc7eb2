package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
)

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.p2lrt")
	var b bytes.Buffer
	if err := p2l.Write(&b, tinyModel(), &p2l.WriteOptions{}); err != nil {
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
	if len(m.Clips) != 1 || m.Clips[0].ID != "wave" || m.Clips[0].Group != "Idle" || len(m.Clips[0].Events) != 1 ||
		len(m.Expressions) != 1 || m.Expressions[0].Entries[0].Blend != p2l.ExpressionOverwrite {
		t.Errorf("imported model: clips %+v expressions %+v", m.Clips, m.Expressions)
	}
	bad := write("bad.motion3.json", `{"Meta": {"Duration": 1}, "Curves": [{"Target": "Parameter", "Id": "Nope", "Segments": [0, 0]}]}`)
	code, _, stderr = runCmd("import", "--motion", bad, in, out)
	if code != 1 || !strings.Contains(stderr, "bad.motion3.json: Curves[0].Id: unknown parameter id \"Nope\"") {
		t.Errorf("bad import: %d %q", code, stderr)
	}
	if code, _, _ := runCmd("import", in, out); code != 2 {
		t.Errorf("import with nothing: exit %d, want 2", code)
	}
}
