package p2l

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Fuzz targets of whole files (the chunk codecs: p2l/p2lrt). Seeds come from writer output (added here) and from the
// malformed variants in testdata/fuzz (see TestFuzzCorpus).

// seedFiles returns writer outputs for several option sets.
func seedFiles(t testing.TB) [][]byte {
	var out [][]byte
	for _, o := range []*p2lrt.WriteOptions{nil, {Compression: p2lrt.CompressDeflate}, {Compression: p2lrt.CompressZstd, StripNames: true}, {Codec: p2lrt.CodecF16}} {
		out = append(out, mustWrite(t, fullModel(), o))
	}
	out = append(out, mustWrite(t, coreModel(), &p2lrt.WriteOptions{V1: true}))
	out = append(out, buildV2(minimalChunks()...))
	for _, name := range []string{"physics", "v1-physics-clips", "binding-absent-keys", "empty-deltas", "keyformless", "page-without-texr"} {
		out = append(out, referenceFixtures()[name]) // hand-built in the reference layout
	}
	return out
}

// FuzzLoad feeds whole files to Load: it must never panic, and a model it
// accepts must survive Write → Load unchanged.
func FuzzLoad(f *testing.F) {
	for _, s := range seedFiles(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Allocation must stay proportional to the input (decoding,
		// validation and the trial evaluation together).
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		m, err := Load(data, WithCRC(), WithMaxDecompressed(1<<22))
		runtime.ReadMemStats(&after)
		if a := after.TotalAlloc - before.TotalAlloc; a > 256*uint64(len(data))+32<<20 {
			t.Fatalf("%d-byte input allocated %d bytes (err %v)", len(data), a, err)
		}
		if err != nil {
			if strings.Contains(err.Error(), "panicked") {
				t.Fatal(err)
			}
			return
		}
		var b bytes.Buffer
		if err := Write(&b, m, nil); err != nil {
			t.Fatalf("accepted model does not write: %v", err)
		}
		m2, err := Load(b.Bytes())
		if err != nil {
			t.Fatalf("rewritten model does not load: %v", err)
		}
		if !sameFile(m, m2) {
			t.Fatalf("rewrite changed the model: %s", diffModels(m, m2))
		}
	})
}

// FuzzInspect: Inspect must never panic.
func FuzzInspect(f *testing.F) {
	for _, s := range seedFiles(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { p2lrt.Inspect(data) })
}
