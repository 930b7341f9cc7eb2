package p2l_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/alloctest"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func writeModel(t testing.TB, m *p2l.Model, o *p2lrt.WriteOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p2l.Write(&b, m, o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLoadFileRefusesWhatItCannotBound: a device (p2l info /dev/zero read
// 1.5 GiB before), a directory, and a file beyond WithMaxFileSize are
// refused from Stat, before anything is read.
func TestLoadFileRefusesWhatItCannotBound(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("no devices or sparse files under Node")
	}
	dir := t.TempDir()
	for _, name := range []string{"/dev/zero", dir} {
		if _, err := os.Stat(name); err != nil {
			continue
		}
		var err error
		got := alloctest.Bytes(func() { _, err = p2l.LoadFile(name) })
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("LoadFile(%s): %v", name, err)
		}
		if got > 64<<10 {
			t.Errorf("LoadFile(%s) allocated %d bytes before refusing", name, got)
		}
	}
	big := filepath.Join(dir, "big.p2lrt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(p2lrt.DefaultMaxFileSize + 1); err != nil { // sparse
		t.Skip(err)
	}
	f.Close()
	got := alloctest.Bytes(func() { _, err = p2l.LoadFile(big) })
	if err == nil || !strings.Contains(err.Error(), "exceeds the 536870912-byte limit") {
		t.Errorf("LoadFile of a file beyond the default limit: %v", err)
	}
	if got > 64<<10 {
		t.Errorf("refusing a large file allocated %d bytes", got)
	}
	// The option changes the bound, for Load, LoadFile and LoadFS alike.
	data := writeModel(t, p2l.ModelForTest(synth.Character(1)), nil)
	small := filepath.Join(dir, "small.p2lrt")
	if err := os.WriteFile(small, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := p2l.LoadFile(small); err != nil {
		t.Fatal(err)
	}
	limit := p2l.WithMaxFileSize(int64(len(data) - 1))
	if _, err := p2l.LoadFile(small, limit); err == nil || !strings.Contains(err.Error(), "WithMaxFileSize") {
		t.Errorf("LoadFile with a smaller limit: %v", err)
	}
	if _, err := p2l.Load(data, limit); err == nil || !strings.Contains(err.Error(), "WithMaxFileSize") {
		t.Errorf("Load with a smaller limit: %v", err)
	}
	fsys := fstest.MapFS{"m.p2lrt": {Data: data}, "d": {Mode: os.ModeDir}}
	if _, err := p2l.LoadFS(fsys, "m.p2lrt", limit); err == nil || !strings.Contains(err.Error(), "WithMaxFileSize") {
		t.Errorf("LoadFS with a smaller limit: %v", err)
	}
	if _, err := p2l.LoadFS(fsys, "d"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("LoadFS of a directory: %v", err)
	}
	if _, err := p2l.LoadFS(fsys, "m.p2lrt"); err != nil {
		t.Errorf("LoadFS: %v", err)
	}
	// Reading allocates the file once: no growth copies.
	got = alloctest.Bytes(func() { _, err = p2l.LoadFile(small) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("LoadFile of a %d-byte file: %d bytes allocated", len(data), got)
}

// TestDecompressionBudgetIsShared: WithMaxDecompressed bounds the
// decompressed chunks together, not each one.
func TestDecompressionBudgetIsShared(t *testing.T) {
	m := p2l.ModelForTest(synth.Character(1))
	data := writeModel(t, m, &p2lrt.WriteOptions{Compression: p2lrt.CompressZstd})
	h, err := p2lrt.Inspect(data)
	if err != nil {
		t.Fatal(err)
	}
	var total, largest int64
	for _, c := range h.Chunks {
		if c.Compression != "none" {
			total += int64(c.RawLength)
			largest = max(largest, int64(c.RawLength))
		}
	}
	if largest == total {
		t.Fatalf("need two compressed chunks; chunks %+v", h.Chunks)
	}
	if _, err := p2l.Load(data, p2l.WithMaxDecompressed(total)); err != nil {
		t.Fatalf("budget of exactly the total: %v", err)
	}
	_, err = p2l.Load(data, p2l.WithMaxDecompressed(total-1))
	if err == nil || !strings.Contains(err.Error(), "budget of all compressed chunks") {
		t.Errorf("budget one byte short of the total (each chunk within it): %v", err)
	}
}
