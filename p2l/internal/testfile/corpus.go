package testfile

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// CorpusVariants returns b and malformed variants of it for a seed corpus:
// truncated, bytes flipped, counts maxed.
func CorpusVariants(b []byte) [][]byte {
	out := [][]byte{b}
	for _, cut := range []int{len(b) / 3, len(b) / 2, len(b) - 1} {
		if cut > 0 && cut < len(b) {
			out = append(out, b[:cut])
		}
	}
	for _, at := range []int{4, len(b) / 4, len(b) / 2, 3 * len(b) / 4} {
		if at < len(b) {
			c := append([]byte(nil), b...)
			c[at] ^= 0x80
			out = append(out, c)
		}
	}
	if len(b) >= 4 {
		c := append([]byte(nil), b...)
		c[0], c[1], c[2], c[3] = 0xff, 0xff, 0xff, 0xff
		out = append(out, c)
	}
	return out
}

// WriteCorpusEntry writes data as a seed of fuzz target into
// testdata/fuzz/target, named by its hash.
func WriteCorpusEntry(t testing.TB, target string, data []byte) {
	dir := filepath.Join("testdata", "fuzz", target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("%x", sha256.Sum256(data))[:16]
	body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(data)) + ")\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
