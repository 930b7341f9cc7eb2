package p2l

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
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
	write := func(target string, data []byte) {
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
	variants := func(b []byte) [][]byte {
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
	small := mustWrite(t, minimalModel(), nil)
	for _, o := range []*WriteOptions{nil, {Compression: CompressDeflate}, {Compression: CompressZstd}, {V1: true}} {
		for _, v := range variants(mustWrite(t, minimalModel(), o)) {
			write("FuzzLoad", v)
		}
	}
	for _, v := range variants(small) {
		write("FuzzInspect", v)
	}
	for _, d := range chunkDefs {
		target := "Fuzz" + d.tag
		for _, v := range variants(chunkSeed(t, d.tag)) {
			write(target, v)
		}
	}
}
