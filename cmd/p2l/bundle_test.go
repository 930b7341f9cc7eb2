package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"
	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// writeTinyBundle writes the synthetic bundle under dir and returns the
// path of its model3.json.
func writeTinyBundle(t *testing.T, dir string) string {
	t.Helper()
	for name, f := range cubismbundle.Files() {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, filepath.FromSlash(cubismbundle.Model3))
}

// TestBundleCommands runs every command on the synthetic bundle, given as
// its model3.json, its folder and a zip.
func TestBundleCommands(t *testing.T) {
	dir := t.TempDir()
	model3 := writeTinyBundle(t, dir)
	zipPath := filepath.Join(dir, "tiny.zip")
	if err := os.WriteFile(zipPath, cubismbundle.MustZip(cubismbundle.Files()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{model3, filepath.Dir(model3), zipPath} {
		code, out, errs := runCmd("info", in)
		for _, want := range []string{
			"Cubism bundle, 0 warnings", "meta playback = cubism", "meta sound.talk = sounds/hello.wav",
			"group TapBody:\n    talk: 1s, fades 0.5/0.75, sound sounds/hello.wav\n    idle: 2s, fades 1/1\ngroup Idle:\n    Idle_0: 2s, fades 0.25/1\n",
			"expression Smile: 1 entries", "hit area Body (MeshBody): tap plays group TapBody", "role LipSync: ParamMouthOpenY", "role EyeBlink: ParamEyeLOpen",
		} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("info %s: %d, no %q in\n%s%s", in, code, want, out, errs)
			}
		}
		if code, out, errs := runCmd("validate", in); code != 0 || !strings.Contains(out, "ok (0 warnings)") {
			t.Errorf("validate %s: %d %q %q", in, code, out, errs)
		}
	}
	// render and trace read the bundle.
	png := filepath.Join(dir, "tiny.png")
	if code, _, errs := runCmd("render", model3, "-o", png, "--size", "64", "--clip", "talk", "--time", "0.5"); code != 0 {
		t.Fatalf("render: %s", errs)
	}
	if code, out, errs := runCmd("trace", zipPath, "--clip", "talk", "--frames", "20", "--dt", "0.05"); code != 0 || !strings.Contains(out, `"talk"`) {
		t.Fatalf("trace: %d %s", code, errs)
	}
	// convert: one .p2lrt, the sound copied beside it, then found there.
	outDir := filepath.Join(dir, "out")
	os.Mkdir(outDir, 0o755)
	outFile := filepath.Join(outDir, "tiny.p2lrt")
	code, out, errs := runCmd("convert", zipPath, outFile)
	if code != 0 || !strings.Contains(out, "sound sounds/hello.wav (clip talk): copied") {
		t.Fatalf("convert: %d %q %q", code, out, errs)
	}
	wav, err := os.ReadFile(filepath.Join(outDir, "sounds", "hello.wav"))
	if err != nil || !bytes.Equal(wav, cubismbundle.WAV(cubismbundle.SoundSamples())) {
		t.Fatalf("copied sound: %v", err)
	}
	if code, out, _ := runCmd("convert", model3, outFile); code != 0 || !strings.Contains(out, "already beside the output") {
		t.Errorf("convert again: %d %q", code, out)
	}
	os.WriteFile(filepath.Join(outDir, "sounds", "hello.wav"), []byte("other"), 0o644)
	if code, _, errs := runCmd("convert", model3, outFile); code != 1 || !strings.Contains(errs, "not overwritten") {
		t.Errorf("convert over another sound: %d %q", code, errs)
	}
	conv, err := p2l.LoadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	bundle, _, err := cubism.Load(os.DirFS(filepath.Dir(model3)), filepath.Base(model3))
	if err != nil {
		t.Fatal(err)
	}
	if conv.ClipSound(0) != cubismbundle.Sound || conv.Textures().Len() != 1 || conv.Textures().At(0).Kind != p2lrt.TexturePNG {
		t.Errorf("converted: sound %q, pages %d", conv.ClipSound(0), conv.Textures().Len())
	}
	samePlayback(t, bundle, conv)
}

// TestMocCommands runs the commands on a bare .moc3 (the synthetic
// bundle's) with its page beside it as texture_00.png, the name ReadMoc
// gives page 0: the model reads as cubism.ReadMoc and p2l.NewModel make
// it, renders with that page, and converts to a .p2lrt that plays the
// same; a damaged .moc3 is refused, naming the format.
func TestMocCommands(t *testing.T) {
	dir := t.TempDir()
	moc := filepath.Join(dir, "tiny.moc3")
	if err := os.WriteFile(moc, cubismbundle.Moc(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "texture_00.png"), cubismbundle.PNG(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd("info", moc)
	for _, want := range []string{"tiny.moc3: Cubism .moc3", "meta evaluation = cubism", "1 texture pages, 0 physics groups, 0 clips"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("info: %d, no %q in\n%s%s", code, want, out, errs)
		}
	}
	if code, out, errs := runCmd("validate", moc); code != 0 || !strings.Contains(out, "tiny.moc3: ok") {
		t.Errorf("validate: %d %q %q", code, out, errs)
	}
	png := filepath.Join(dir, "tiny.png")
	if code, _, errs := runCmd("render", moc, "-o", png, "--size", "64"); code != 0 || strings.Contains(errs, "texture page") {
		t.Errorf("render: %d %q", code, errs)
	}
	outFile := filepath.Join(dir, "tiny.p2lrt")
	if code, _, errs := runCmd("convert", moc, outFile); code != 0 {
		t.Fatalf("convert: %d %q", code, errs)
	}
	conv, err := p2l.LoadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	f, err := cubism.ReadMoc(cubismbundle.Moc())
	if err != nil {
		t.Fatal(err)
	}
	direct, err := p2l.NewModel(f)
	if err != nil {
		t.Fatal(err)
	}
	samePlayback(t, direct, conv)

	bad := filepath.Join(dir, "bad.moc3")
	os.WriteFile(bad, cubismbundle.Moc()[:100], 0o644)
	if code, _, errs := runCmd("info", bad); code != 1 || !strings.Contains(errs, "bad.moc3: moc3: ") {
		t.Errorf("info of a truncated .moc3: %d %q", code, errs)
	}
}

// TestConvertSamples converts each official sample and checks that the
// .p2lrt plays as the bundle, bit for bit.
func TestConvertSamples(t *testing.T) {
	for _, name := range cubismsamples.Names {
		t.Run(name, func(t *testing.T) {
			model3 := cubismsamples.Model(t, name)
			out := filepath.Join(t.TempDir(), name+".p2lrt")
			if code, _, errs := runCmd("convert", model3, out); code != 0 {
				t.Fatalf("convert: %s", errs)
			}
			conv, err := p2l.LoadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			bundle, _, err := cubism.Load(os.DirFS(filepath.Dir(model3)), filepath.Base(model3))
			if err != nil {
				t.Fatal(err)
			}
			samePlayback(t, bundle, conv)
		})
	}
}

// samePlayback evaluates a and b at the same poses, then plays the first
// clip of each group on both with blink, breath and physics for 3 s, and
// fails at the first vertex, opacity or draw order that differs in any bit.
func samePlayback(t *testing.T, a, b *p2l.Model) {
	t.Helper()
	ra, rb := a.NewRig(), b.NewRig()
	n := a.Parameters().Len()
	if b.Parameters().Len() != n || a.Meshes().Len() != b.Meshes().Len() || a.Clips().Len() != b.Clips().Len() {
		t.Fatal("the models differ in size")
	}
	compare := func(what string) bool {
		t.Helper()
		for i := range a.Meshes().Len() {
			va, vb := ra.Mesh(i).Vertices(), rb.Mesh(i).Vertices()
			if len(va) != len(vb) {
				t.Errorf("%s: mesh %d: %d vs %d vertices", what, i, len(va), len(vb))
				return false
			}
			for k := range va {
				if math.Float32bits(va[k]) != math.Float32bits(vb[k]) {
					t.Errorf("%s: mesh %s vertex %d: %v vs %v", what, a.Meshes().At(i).ID, k/2, va[k], vb[k])
					return false
				}
			}
			if math.Float32bits(ra.Mesh(i).Opacity()) != math.Float32bits(rb.Mesh(i).Opacity()) {
				t.Errorf("%s: mesh %s opacity %v vs %v", what, a.Meshes().At(i).ID, ra.Mesh(i).Opacity(), rb.Mesh(i).Opacity())
				return false
			}
		}
		oa, ob := ra.RenderOrder(), rb.RenderOrder()
		if !slicesEqual(oa, ob) {
			t.Errorf("%s: render orders differ", what)
			return false
		}
		return true
	}
	// Poses: default, every parameter at its minimum, at its maximum, and
	// at fixed fractions of its range.
	for k, frac := range []float32{-1, 0, 1, 0.3, 0.77} {
		for i, p := range a.Parameters().All() {
			v := p.Default
			if frac >= 0 {
				v = p.Min + frac*(p.Max-p.Min)
			}
			ra.SetParameter(i, v)
			rb.SetParameter(i, v)
		}
		ra.Evaluate()
		rb.Evaluate()
		if !compare(fmt.Sprintf("pose %d", k)) {
			return
		}
	}
	ra.ResetParameters()
	rb.ResetParameters()
	for _, r := range []*p2l.Rig{ra, rb} {
		r.SetBehaviorSeed(7)
		r.SetMotionSeed(7)
	}
	for _, g := range a.ClipGroups() {
		if _, err := ra.Layer(0).PlayGroup(g, 0, p2l.PriorityForce); err != nil {
			t.Fatal(err)
		}
		if _, err := rb.Layer(0).PlayGroup(g, 0, p2l.PriorityForce); err != nil {
			t.Fatal(err)
		}
		for f := range 90 {
			ra.Update(1.0 / 30)
			rb.Update(1.0 / 30)
			if !compare(fmt.Sprintf("%s frame %d", g, f)) {
				return
			}
		}
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
