package p2l

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/internal/testfile"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestFuzzCorpus regenerates the committed seed corpus in testdata/fuzz
// when P2L_WRITE_CORPUS=1: writer output and malformed variants of it
// (truncated, bytes flipped, counts maxed). Without the variable it checks
// that the corpus exists.
func TestFuzzCorpus(t *testing.T) {
	if os.Getenv("P2L_WRITE_CORPUS") != "1" {
		if _, err := os.Stat(filepath.Join("testdata", "fuzz", "FuzzLoad")); err != nil {
			t.Fatalf("seed corpus missing (run with P2L_WRITE_CORPUS=1): %v", err)
		}
		return
	}
	small := mustWrite(t, minimalModel(), nil)
	for _, o := range []*p2lrt.WriteOptions{nil, {Compression: p2lrt.CompressDeflate}, {Compression: p2lrt.CompressZstd}, {V1: true}} {
		for _, v := range testfile.CorpusVariants(mustWrite(t, minimalModel(), o)) {
			testfile.WriteCorpusEntry(t, "FuzzLoad", v)
		}
	}
	for _, v := range testfile.CorpusVariants(small) {
		testfile.WriteCorpusEntry(t, "FuzzInspect", v)
	}
}
