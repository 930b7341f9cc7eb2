package p2lrt_test

import (
	"bytes"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/internal/container"
	"github.com/psd2live/p2l-ebiten/p2l/internal/testfile"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Fuzz targets of the chunk codecs. Seeds come from the writer's output of
// testfile.Full (added here) and from the malformed variants in
// testdata/fuzz (see TestFuzzCorpus). Whole files are fuzzed by p2l's
// FuzzLoad and FuzzInspect.

// fullData is the writer's output of testfile.Full.
func fullData(t testing.TB) []byte {
	var b bytes.Buffer
	if err := testfile.Full().Write(&b, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// chunkSeed returns the stored content of tag in the writer output of
// testfile.Full (its strings resolve against fuzzStrings).
func chunkSeed(t testing.TB, tag string) []byte {
	data := fullData(t)
	_, es, err := container.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range es {
		if es[i].Tag == tag {
			return container.Stored(data, &es[i])
		}
	}
	t.Fatalf("no %s chunk", tag)
	return nil
}

// fuzzStrings is the string table chunk fuzzing decodes against:
// testfile.Full's, so seeds resolve.
func fuzzStrings(t testing.TB) []string {
	strs, err := p2lrt.Strings(fullData(t))
	if err != nil {
		t.Fatal(err)
	}
	return strs
}

// fuzzChunk decodes one chunk's content in isolation. Whatever decodes must
// encode again, and decoding that gives the same values (reader and writer
// agree on every layout and every local rule).
func fuzzChunk(f *testing.F, tag string) {
	f.Add(chunkSeed(f, tag))
	strs := fuzzStrings(f)
	f.Fuzz(func(t *testing.T, content []byte) {
		m, cext, err := p2lrt.DecodeChunk(tag, content, strs)
		if err != nil {
			return
		}
		out, list, err := p2lrt.EncodeChunk(tag, m, cext)
		if err != nil {
			t.Fatalf("decoded chunk does not encode: %v", err)
		}
		m2, cext2, err := p2lrt.DecodeChunk(tag, out, list)
		if err != nil {
			t.Fatalf("re-encoded chunk does not decode: %v", err)
		}
		if d := testfile.Diff(m, m2) + testfile.Diff(cext, cext2); d != "" {
			t.Fatalf("re-encoding changed the chunk: %s", d)
		}
	})
}

func FuzzSTRS(f *testing.F) {
	f.Add(chunkSeed(f, "STRS"))
	f.Fuzz(func(t *testing.T, content []byte) {
		if valid, same := p2lrt.STRSRoundTrip(content); valid && !same {
			// Valid tables are canonical: offsets follow from the strings.
			t.Fatal("STRS re-encoding differs")
		}
	})
}

func FuzzCANV(f *testing.F) { fuzzChunk(f, "CANV") }
func FuzzPARM(f *testing.F) { fuzzChunk(f, "PARM") }
func FuzzDEFM(f *testing.F) { fuzzChunk(f, "DEFM") }
func FuzzPART(f *testing.F) { fuzzChunk(f, "PART") }
func FuzzMESH(f *testing.F) { fuzzChunk(f, "MESH") }
func FuzzGLUE(f *testing.F) { fuzzChunk(f, "GLUE") }
func FuzzDRAW(f *testing.F) { fuzzChunk(f, "DRAW") }
func FuzzTEXR(f *testing.F) { fuzzChunk(f, "TEXR") }
func FuzzPHYS(f *testing.F) { fuzzChunk(f, "PHYS") }
func FuzzCLIP(f *testing.F) { fuzzChunk(f, "CLIP") }
func FuzzROLE(f *testing.F) { fuzzChunk(f, "ROLE") }
func FuzzPGUI(f *testing.F) { fuzzChunk(f, "PGUI") }
func FuzzMETA(f *testing.F) { fuzzChunk(f, "META") }
func FuzzEXPR(f *testing.F) { fuzzChunk(f, "EXPR") }
func FuzzHITA(f *testing.F) { fuzzChunk(f, "HITA") }
func FuzzUDAT(f *testing.F) { fuzzChunk(f, "UDAT") }
func FuzzPOSE(f *testing.F) { fuzzChunk(f, "POSE") }
func FuzzCEXT(f *testing.F) { fuzzChunk(f, "CEXT") }
func FuzzBONE(f *testing.F) { fuzzChunk(f, "BONE") }
func FuzzSKIN(f *testing.F) { fuzzChunk(f, "SKIN") }
func FuzzCOLL(f *testing.F) { fuzzChunk(f, "COLL") }
func FuzzSIMS(f *testing.F) { fuzzChunk(f, "SIMS") }
