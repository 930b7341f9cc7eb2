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

// tinyModel is the smallest valid model: one parameter, one mesh.
func tinyModel() *p2lrt.File {
	return &p2lrt.File{
		Canvas:     p2lrt.Canvas{Width: 10, Height: 10, PixelsPerUnit: -1},
		Parameters: []p2lrt.Parameter{{ID: "P", Name: "Param", Min: 0, Max: 1}},
		Parts:      []p2lrt.Part{{ID: "part", Name: "Part", Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: 0}}, Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}}},
		Meshes: []p2lrt.Mesh{{ID: "m", Name: "Mesh", Parent: -1, TexturePage: -1, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible,
			Positions: []float32{0, 0, 1, 0, 0, 1}, UVs: []float32{0, 0, 1, 0, 0, 1}, Indices: []uint32{0, 1, 2}, Opacity: 1, Multiply: p2lrt.White}},
		Draw:     p2lrt.DrawGroup{Part: -1, Children: []p2lrt.DrawNode{{Mesh: 0}}},
		HitAreas: []p2lrt.HitArea{{ID: "HitAreaBody", Meshes: []int{0}}},
		Meta:     []p2lrt.MetaEntry{{Key: "generator", Value: "test"}},
	}
}

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCommands(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.p2lrt")
	var b bytes.Buffer
	if err := tinyModel().Write(&b, &p2lrt.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd("info", in)
	if code != 0 || !strings.Contains(out, "MESH") || !strings.Contains(out, "meta generator = test") || !strings.Contains(out, "1 meshes (3 vertices, 1 triangles)") {
		t.Fatalf("info: %d %q %q", code, out, errs)
	}
	if code, _, errs := runCmd("validate", "--crc", in); code != 0 {
		t.Fatalf("validate: %d %s", code, errs)
	}
	out1 := filepath.Join(dir, "v1.p2lrt")
	code, out, errs = runCmd("convert", in, out1, "--v1")
	if code != 0 || !strings.Contains(out, "v1 loss: HITA") || !strings.Contains(out, "v1 loss: META") {
		t.Fatalf("convert --v1: %d %q %q", code, out, errs)
	}
	out2 := filepath.Join(dir, "z.p2lrt")
	if code, _, errs := runCmd("convert", out1, out2, "--compress", "zstd", "--strip-names", "--codec", "f16"); code != 0 {
		t.Fatalf("convert: %s", errs)
	}
	m, err := p2l.LoadFile(out2)
	if err != nil || !m.NamesStripped() || m.Meshes().At(0).Name != "" || m.Meshes().At(0).ID != "m" {
		t.Fatalf("converted model: %v %+v", err, m)
	}
	// A corrupted file: validate fails with exit 1 and names the problem.
	bad := append([]byte(nil), b.Bytes()...)
	bad[len(bad)-1] ^= 0xff
	badPath := filepath.Join(dir, "bad.p2lrt")
	os.WriteFile(badPath, bad, 0o644)
	if code, _, errs := runCmd("validate", "--crc", badPath); code != 1 || !strings.Contains(errs, "CRC mismatch") ||
		!strings.Contains(errs, "p2l: v2 chunk ") {
		t.Fatalf("validate bad: %d %q", code, errs)
	}
	// A v1 file: the error names the v1 layout.
	v1Path := filepath.Join(dir, "v1.p2lrt")
	var v1 bytes.Buffer
	if err := tinyModel().Write(&v1, &p2lrt.WriteOptions{V1: true}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(v1Path, v1.Bytes()[:v1.Len()-3], 0o644)
	for _, cmd := range []string{"validate", "info"} {
		if code, _, errs := runCmd(cmd, v1Path); code != 1 || !strings.Contains(errs, "p2l: v1 section ROLE") {
			t.Fatalf("%s truncated v1: %d %q", cmd, code, errs)
		}
	}
	if code, _, _ := runCmd("nosuch"); code != 2 {
		t.Fatal("unknown command must exit 2")
	}
}

// TestHelp: "p2l CMD -h" (and --help, after other arguments too) prints the
// command's usage with its flags on stdout and exits 0 for every command; a
// bad flag still exits 2 with the usage on stderr.
func TestHelp(t *testing.T) {
	if len(commands) != 6 {
		t.Errorf("%d commands registered, want 6 (convert import info render trace validate)", len(commands))
	}
	for name := range commands {
		flags := name != "info" // info has none to list
		for _, args := range [][]string{{name, "-h"}, {name, "--help"}, {name, "x.p2lrt", "-help"}} {
			code, out, errs := runCmd(args...)
			if code != 0 || !strings.HasPrefix(out, "usage: p2l "+name+" ") || (flags && !strings.Contains(out, "\n  -")) || errs != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0 and the usage with its flags on stdout", args, code, out, errs)
			}
		}
		code, out, errs := runCmd(name, "--no-such-flag")
		if code != 2 || out != "" || !strings.Contains(errs, "flag provided but not defined") || !strings.Contains(errs, "usage: p2l "+name) {
			t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", name, code, out, errs)
		}
	}
}
