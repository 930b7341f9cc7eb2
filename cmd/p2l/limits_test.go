package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/psd2live/p2l-ebiten/p2l/cubism"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// tinyWith is tinyModel changed by f.
func tinyWith(f func(m *p2lrt.File)) *p2lrt.File {
	m := tinyModel()
	f(m)
	return m
}

// TestCLIBounds: what a file or the command line asks for is bounded
// before any work starts, with an error naming the quantity (the attacks:
// a clip of 1e7 s planned 3e8 GIF frames in memory; an expression fading
// in over 1e9 s ran 3e10 updates; --time 1e9 hung; a trace input line for
// frame 1e12 ran 1e12 frames; p2l info /dev/zero read 1.5 GiB).
func TestCLIBounds(t *testing.T) {
	long := writeTiny(t, tinyWith(func(m *p2lrt.File) {
		m.Clips = []p2lrt.Clip{{ID: "long", Duration: 1e7, FadeIn: -1, FadeOut: -1}}
		m.Expressions = []p2lrt.Expression{{ID: "slow", FadeIn: 1e9, FadeOut: 1, Entries: []p2lrt.ExpressionEntry{{Parameter: 0, Blend: p2lrt.ExpressionAdd, Value: 1}}}}
	}))
	dir := t.TempDir()
	input := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(input, []byte(`{"frame":1000000000000}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A Cubism file one byte over cubism.MaxFileSize (sparse: nothing is
	// written), refused before it is read.
	hugeMotion := sparseFile(t, filepath.Join(dir, "huge.motion3.json"), cubism.MaxFileSize+1)
	// A model file one byte over p2l.DefaultMaxFileSize (sparse).
	hugeModel := sparseFile(t, filepath.Join(dir, "huge.p2lrt"), p2lrt.DefaultMaxFileSize+1)
	// A zip one byte over cubism.MaxBundleSize (sparse).
	hugeZip := sparseFile(t, filepath.Join(dir, "huge.zip"), cubism.MaxBundleSize+1)
	tooBig := fmt.Sprintf("file of %d bytes exceeds the %d-byte limit", p2lrt.DefaultMaxFileSize+1, p2lrt.DefaultMaxFileSize)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"info", hugeModel}, 1, tooBig},
		{[]string{"validate", hugeModel}, 1, tooBig},
		{[]string{"render", hugeModel, "-o", filepath.Join(dir, "h.png")}, 1, tooBig},
		{[]string{"trace", hugeModel}, 1, tooBig},
		{[]string{"convert", hugeModel, filepath.Join(dir, "h2.p2lrt")}, 1, tooBig},
		{[]string{"import", "--motion", hugeMotion, hugeModel, filepath.Join(dir, "out.p2lrt")}, 1, tooBig},
		{[]string{"render", long, "--clip", "long", "--gif", filepath.Join(dir, "x.gif")}, 2, "lasts 1e+07 s: 3e+08 frames at 30 fps, more than 100000"},
		{[]string{"render", long, "--clip", "long", "--frames", filepath.Join(dir, "frames")}, 2, "more than 100000"},
		{[]string{"render", long, "--clip", "long", "-o", filepath.Join(dir, "x.png"), "--time", "1e9"}, 2, "--time 1e+09 needs 3e+10 updates at 30 fps, more than 100000"},
		{[]string{"render", long, "--expression", "slow", "-o", filepath.Join(dir, "x.png")}, 2, `expression "slow" fades in over 1e+09 s`},
		{[]string{"render", long, "-o", filepath.Join(dir, "x.png"), "--size", "16384"}, 2, "--size 16384 is out of range 1..8192"},
		{[]string{"trace", long, "--input", input}, 1, "frame 1000000000000 is outside [0, 10000000)"},
		{[]string{"trace", long, "--frames", "10000001"}, 2, "--frames in [0, 10000000]"},
		{[]string{"import", "--motion", hugeMotion, long, filepath.Join(dir, "out.p2lrt")}, 1, "exceeds the 33554432-byte limit"},
		// A folder is a Cubism bundle: this one has no model3.json.
		{[]string{"info", dir}, 1, "no *.model3.json file in the folder"},
		{[]string{"validate", dir}, 1, "no *.model3.json file in the folder"},
		{[]string{"convert", hugeZip, filepath.Join(dir, "z.p2lrt")}, 1, fmt.Sprintf("exceeds the %d-byte limit", cubism.MaxBundleSize)},
	} {
		t0 := time.Now()
		code, _, errs := runCmd(c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
		if d := time.Since(t0); d > 10*time.Second {
			t.Errorf("%v took %v to refuse", c.args, d) // a hang guard, not a speed target
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if code, _, errs := runCmd("info", "/dev/zero"); code != 1 || !strings.Contains(errs, "not a regular file") {
			t.Errorf("info /dev/zero: exit %d, %q", code, errs)
		}
	}
	// A GIF too large to hold: 2 s at 240 fps of 8192² frames.
	short := writeTiny(t, tinyWith(func(m *p2lrt.File) { m.Clips = []p2lrt.Clip{{ID: "c", Duration: 2, FadeIn: -1, FadeOut: -1}} }))
	code, _, errs := runCmd("render", short, "--clip", "c", "--gif", filepath.Join(dir, "y.gif"), "--fps", "240", "--size", "8192")
	if code != 2 || !strings.Contains(errs, "more than 1024 MiB (lower --size or --fps, or use --frames DIR)") {
		t.Errorf("huge GIF: exit %d, %q", code, errs)
	}
}

// TestTraceInputBounds: the input file is read within its bound, and
// frames at the limit's edge are accepted.
func TestTraceInputBounds(t *testing.T) {
	in, err := parseTraceInput("in", []byte(fmt.Sprintf(`{"frame":%d}`, maxTraceFrames-1)))
	if err != nil || len(in) != 1 {
		t.Fatalf("last allowed frame: %v", err)
	}
	for _, line := range []string{`{"frame":-1}`, `{"frame":1e12}`, `{"frame":10000000}`, `{"frame":9223372036854775807}`} {
		if _, err := parseTraceInput("in", []byte(line)); err == nil {
			t.Errorf("%s accepted", line)
		}
	}
	big := filepath.Join(t.TempDir(), "big.jsonl")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxTraceInputSize + 1); err != nil {
		t.Skip(err)
	}
	f.Close()
	if _, err := readTraceInput(big); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("oversized input: %v", err)
	}
}

// sparseFile creates a file of size bytes at path without writing them (a
// hole), or skips the test where the file system cannot.
func sparseFile(t *testing.T, path string, size int64) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Skip(err)
	}
	return path
}
