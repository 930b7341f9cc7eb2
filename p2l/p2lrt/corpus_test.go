package p2lrt_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/internal/testfile"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestFuzzCorpus regenerates the committed seed corpus of the chunk
// fuzzers in testdata/fuzz when P2L_WRITE_CORPUS=1: each chunk of
// testfile.Full's encoding and malformed variants of it. Without the
// variable it checks that the corpus exists.
func TestFuzzCorpus(t *testing.T) {
	if os.Getenv("P2L_WRITE_CORPUS") != "1" {
		for _, tag := range p2lrt.ChunkTags() {
			if _, err := os.Stat(filepath.Join("testdata", "fuzz", "Fuzz"+tag)); err != nil {
				t.Fatalf("seed corpus missing (run with P2L_WRITE_CORPUS=1): %v", err)
			}
		}
		return
	}
	for _, tag := range p2lrt.ChunkTags() {
		for _, v := range testfile.CorpusVariants(chunkSeed(t, tag)) {
			testfile.WriteCorpusEntry(t, "Fuzz"+tag, v)
		}
	}
}
