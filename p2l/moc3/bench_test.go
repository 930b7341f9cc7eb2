package moc3

import (
	"os"
	"testing"
	"time"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
)

var benchSink []byte

// BenchmarkParse parses the largest sample (Ren, 915 200 bytes) and
// reports the time against two floors measured in the same run: copying
// the file's bytes into a fresh buffer (x-copy) and os.ReadFile of it
// (x-readfile).
func BenchmarkParse(b *testing.B) {
	path := cubismsamples.Moc(b, "Ren")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	copyFloor := floorNs(func() {
		buf := make([]byte, len(data))
		copy(buf, data)
		benchSink = buf
	})
	readFloor := floorNs(func() {
		buf, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		benchSink = buf
	})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(ns/copyFloor, "x-copy")
	b.ReportMetric(ns/readFloor, "x-readfile")
}

// floorNs times f: nanoseconds per call over at least 100 ms and 20 calls.
// (testing.Benchmark cannot run inside a benchmark.)
func floorNs(f func()) float64 {
	start := time.Now()
	n := 0
	for n < 20 || time.Since(start) < 100*time.Millisecond {
		f()
		n++
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}
