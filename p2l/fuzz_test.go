package p2l

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/internal/container"
)

// Fuzz targets. Seeds come from writer output (added here) and from the
// malformed variants in testdata/fuzz (see TestFuzzCorpus).

// seedFiles returns writer outputs for several option sets.
func seedFiles(t testing.TB) [][]byte {
	var out [][]byte
	for _, o := range []*WriteOptions{nil, {Compression: CompressDeflate}, {Compression: CompressZstd, StripNames: true}, {Codec: CodecF16}} {
		out = append(out, mustWrite(t, fullModel(), o))
	}
	out = append(out, mustWrite(t, coreModel(), &WriteOptions{V1: true}))
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
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("rewrite changed the model: %s", diffModels(m, m2))
		}
	})
}

// FuzzInspect: Inspect must never panic.
func FuzzInspect(f *testing.F) {
	for _, s := range seedFiles(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { Inspect(data) })
}

// chunkSeed returns the stored content of tag in the writer output of
// fullModel (its strings resolve against fuzzStrings).
func chunkSeed(t testing.TB, tag string) []byte {
	data := mustWrite(t, fullModel(), nil)
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

// fuzzStrings is the string table chunk fuzzing decodes against: the
// fullModel's, so seeds resolve.
func fuzzStrings(t testing.TB) []string {
	data := mustWrite(t, fullModel(), nil)
	h, es, _ := container.Parse(data)
	l := &loader{data: data, cfg: defaultConfig(), m: &Model{NamesStripped: h.Flags&1 != 0}}
	if err := l.strings(&es[0]); err != nil {
		t.Fatal(err)
	}
	return l.strs
}

// fuzzChunk decodes one chunk's content in isolation. Whatever decodes must
// encode again, and decoding that gives the same values (reader and writer
// agree on every layout and every local rule).
func fuzzChunk(f *testing.F, tag string) {
	d := findDef(tag)
	f.Add(chunkSeed(f, tag))
	strs := fuzzStrings(f)
	f.Fuzz(func(t *testing.T, content []byte) {
		decodeOne := func(b []byte, strs []string) (*Model, []cextRecord, error) {
			m := new(Model)
			var cext []cextRecord
			c := &coder{read: true, tag: tag, version: d.version, b: b, strs: strs, cext: &cext}
			d.code(c, m)
			if c.err == nil && c.pos != len(b) {
				c.fail("", "left over")
			}
			return m, cext, c.err
		}
		m, cext, err := decodeOne(content, strs)
		if err != nil {
			return
		}
		var list []string
		w := &coder{tag: tag, version: d.version, strIndex: map[string]uint32{}, strList: &list, cext: &cext}
		d.code(w, m)
		if w.err != nil {
			t.Fatalf("decoded chunk does not encode: %v", w.err)
		}
		m2, cext2, err := decodeOne(w.out, list)
		if err != nil {
			t.Fatalf("re-encoded chunk does not decode: %v", err)
		}
		if !reflect.DeepEqual(m, m2) || !reflect.DeepEqual(cext, cext2) {
			t.Fatalf("re-encoding changed the chunk: %s", diffModels(m, m2))
		}
	})
}

func FuzzSTRS(f *testing.F) {
	f.Add(chunkSeed(f, "STRS"))
	f.Fuzz(func(t *testing.T, content []byte) {
		data := buildV2(tchunk{"STRS", 1, 1, content})
		_, es, err := container.Parse(data)
		if err != nil {
			return
		}
		l := &loader{data: data, cfg: defaultConfig(), m: new(Model)}
		if l.strings(&es[0]) == nil && !bytes.Equal(encodeStrings(l.strs), content) {
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
