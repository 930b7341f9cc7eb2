package p2l

import (
	"bytes"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func TestInspect(t *testing.T) {
	data := mustWrite(t, fullModel(), &p2lrt.WriteOptions{Compression: p2lrt.CompressZstd, StripNames: true})
	fi, err := p2lrt.Inspect(data)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Major != 2 || fi.Minor != 0 || !fi.NamesStripped || fi.Flags != 1 {
		t.Fatalf("header %+v", fi)
	}
	var tags []string
	for _, c := range fi.Chunks {
		tags = append(tags, c.Tag)
		if !c.Known || !c.HasCRC || c.Offset%16 != 0 {
			t.Errorf("chunk %+v", c)
		}
		if c.Tag == "TEXR" && c.Compression != "none" {
			t.Error("TEXR must never be compressed")
		}
		if c.Tag == "PHYS" && c.Version != 2 {
			t.Errorf("PHYS with a Y source must be version 2, got %d", c.Version)
		}
		core := coreChunks[c.Tag]
		if c.Required != core {
			t.Errorf("%s required=%v", c.Tag, c.Required)
		}
	}
	want := "STRS CANV PARM DEFM PART MESH GLUE DRAW TEXR PHYS CLIP CEXT ROLE BONE SKIN COLL SIMS EXPR HITA POSE UDAT PGUI META" // P2lrt.kt v2()
	if got := strings.Join(tags, " "); got != want {
		t.Fatalf("chunk order\n got %s\nwant %s", got, want)
	}
	if len(fi.Meta) != 2 || fi.Meta[1].Value != "BONE SKIN COLL SIMS" {
		t.Fatalf("meta %+v", fi.Meta)
	}
	v1, err := p2lrt.Inspect(mustWrite(t, coreModel(), &p2lrt.WriteOptions{V1: true}))
	if err != nil || v1.Major != 1 || v1.Chunks != nil {
		t.Fatalf("v1 inspect %+v %v", v1, err)
	}
	// PHYS without Y is written as version 1.
	m := coreModel()
	fi, _ = p2lrt.Inspect(mustWrite(t, m, nil))
	for _, c := range fi.Chunks {
		if c.Tag == "PHYS" && c.Version != 1 {
			t.Errorf("PHYS without Y: version %d", c.Version)
		}
	}
}

func TestFormatSupport(t *testing.T) {
	s := p2lrt.FormatSupport()
	if len(s.Majors) != 2 || s.Majors[0] != 1 || s.Majors[1] != 2 || len(s.Chunks) != 23 {
		t.Fatalf("%+v", s)
	}
	for _, c := range s.Chunks {
		want := uint16(1)
		if c.Tag == "PHYS" {
			want = 2
		}
		if c.Version != want {
			t.Errorf("%s version %d", c.Tag, c.Version)
		}
	}
	if Version == "" {
		t.Error("empty Version")
	}
}

func TestOptionalChunksOmitted(t *testing.T) {
	fi, err := p2lrt.Inspect(mustWrite(t, minimalModel(), nil))
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, c := range fi.Chunks {
		tags = append(tags, c.Tag)
	}
	if got := strings.Join(tags, " "); got != "STRS CANV PARM DEFM PART MESH DRAW META" {
		t.Fatalf("minimal model chunks: %s", got)
	}
}

func TestStripNames(t *testing.T) {
	m := fullModel()
	got, err := Load(mustWrite(t, m, &p2lrt.WriteOptions{StripNames: true}))
	if err != nil {
		t.Fatal(err)
	}
	if !got.file.NamesStripped || got.file.Parameters[0].Name != "" || got.file.Parameters[0].ID != "ParamA" ||
		got.file.Meshes[0].Name != "" || got.file.Clips[0].Name != "" || got.file.GUI.Tree[0].Name != "" || got.file.GUI.Tree[0].ID != "g1" ||
		got.file.Expressions[0].Name != "" || got.file.HitAreas[0].Name != "" || got.file.Physics.Groups[0].Name != "" || got.file.Parts[0].Name != "" {
		t.Fatal("names not stripped or ids lost")
	}
	if got.file.Clips[0].Group != "Idle" {
		t.Fatal("clip group is not a display name")
	}
	// STRS deduplicated: "Idle" is both a clip id and a group.
	data := mustWrite(t, m, nil)
	if bytes.Count(data, []byte("Idle motion")) != 1 || bytes.Count(data, []byte("HitAreaHead")) != 1 {
		t.Fatal("strings not deduplicated")
	}
}

func TestDeterministicAndConcurrentWrite(t *testing.T) {
	m := fullModel()
	want := mustWrite(t, m, &p2lrt.WriteOptions{Compression: p2lrt.CompressZstd})
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b bytes.Buffer
			if err := Write(&b, m, &p2lrt.WriteOptions{Compression: p2lrt.CompressZstd}); err != nil || !bytes.Equal(b.Bytes(), want) {
				errs <- "concurrent write differs"
			}
			if _, err := Load(want); err != nil {
				errs <- err.Error()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func TestLoggerAndLoadFS(t *testing.T) {
	var logs bytes.Buffer
	l := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	bad := buildV2(append(minimalChunks(), tchunk{"ZZZZ", 1, 1, nil})...)
	if _, err := Load(bad, WithLogger(l)); err == nil || !strings.Contains(logs.String(), "requires feature ZZZZ") {
		t.Fatalf("load failure not logged: %q", logs.String())
	}
	logs.Reset()
	skip := buildV2(append(minimalChunks(), tchunk{"zzzz", 1, 0, nil})...)
	if _, err := Load(skip, WithLogger(l)); err != nil || !strings.Contains(logs.String(), "skipping unknown optional chunk") {
		t.Fatalf("skip not logged: %v %q", err, logs.String())
	}
	fsys := fstest.MapFS{"models/a.p2lrt": {Data: mustWrite(t, fullModel(), nil)}}
	m, err := LoadFS(fsys, "models/a.p2lrt")
	if err != nil || m.file.Textures[2].URI != "pages/body.png" {
		t.Fatalf("LoadFS: %v", err)
	}
	if _, err := LoadFS(fsys, "missing.p2lrt"); err == nil {
		t.Fatal("missing file loaded")
	}
}

// TestF16Precision reports the vertex error of the f16/unorm16 codecs
// against the f32 file: positions within half an f16 ulp (relative 2^-11),
// UVs within half a unorm16 step (1/131070).
func TestF16Precision(t *testing.T) {
	m := fullModel()
	// Canvas-scale coordinates that f16 cannot hold exactly.
	m.file.Meshes[0].Positions = []float32{100.123, 200.456, 517.77, 201.01, 517.5, 611.3, 99.99, 640.2}
	m.file.Meshes[0].UVs = []float32{0.1, 0.2, 0.3, 0.4, 0.55, 0.66, 0.777, 0.999}
	got, err := Load(mustWrite(t, m, &p2lrt.WriteOptions{Codec: p2lrt.CodecF16}))
	if err != nil {
		t.Fatal(err)
	}
	var maxPos, maxUV float64
	for i := range m.file.Meshes {
		for j, v := range m.file.Meshes[i].Positions {
			e := math.Abs(float64(got.file.Meshes[i].Positions[j] - v))
			if e > math.Abs(float64(v))/2048 { // half an ulp of an 11-bit significand
				t.Errorf("mesh %d position %d: %v vs %v", i, j, got.file.Meshes[i].Positions[j], v)
			}
			maxPos = max(maxPos, e)
		}
		for j, v := range m.file.Meshes[i].UVs {
			e := math.Abs(float64(got.file.Meshes[i].UVs[j] - v))
			if e > 1.0/131070+1e-9 {
				t.Errorf("mesh %d uv %d: %v vs %v", i, j, got.file.Meshes[i].UVs[j], v)
			}
			maxUV = max(maxUV, e)
		}
	}
	t.Logf("f16 max position error %g px, unorm16 max UV error %g", maxPos, maxUV)
	// Warp points and deltas were f16 too; values like 1.5·i are exact.
	if d := diffModels(m.file.Deformers, got.file.Deformers); d != "" {
		t.Errorf("exactly representable warp points changed: %s", d)
	}
	// The f16 file is smaller and re-writes identically.
	f16 := mustWrite(t, got, &p2lrt.WriteOptions{Codec: p2lrt.CodecF16})
	if len(f16) >= len(mustWrite(t, m, nil)) {
		t.Error("f16 file not smaller")
	}
	if maxPos == 0 || maxUV == 0 {
		t.Error("test values were exact; the codec was not exercised")
	}
	if !bytes.Equal(f16, mustWrite(t, m, &p2lrt.WriteOptions{Codec: p2lrt.CodecF16})) {
		t.Error("f16 rewrite differs")
	}
}
