package p2l_test

import (
	"bytes"
	"math"
	"reflect"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Synthetic models from the evaluation helper's generator must pass
// validation and survive every writer variant.
func TestSynthRoundTrip(t *testing.T) {
	for _, m := range []*p2l.Model{p2l.ModelForTest(synth.Character(1)), p2l.ModelForTest(synth.Advanced(synth.AdvancedOptions{SkinWeights: true}))} {
		for _, o := range []*p2lrt.WriteOptions{nil, {Compression: p2lrt.CompressZstd}} {
			var b bytes.Buffer
			if err := p2l.Write(&b, m, o); err != nil {
				t.Fatal(err)
			}
			got, err := p2l.Load(b.Bytes(), p2l.WithCRC())
			if err != nil {
				t.Fatal(err)
			}
			// The generator may use empty where the reader gives nil.
			if d := p2l.DiffLenient(m, got); d != "" {
				t.Fatalf("synthetic model changed in the round trip: %s", d)
			}
			var again bytes.Buffer
			p2l.Write(&again, got, o)
			if !bytes.Equal(again.Bytes(), b.Bytes()) {
				t.Fatal("bytes -> model -> bytes differ")
			}
			got2, _ := p2l.Load(again.Bytes())
			if !reflect.DeepEqual(got.File(), got2.File()) {
				t.Fatalf("second load differs: %s", p2l.DiffModels(got, got2))
			}
		}
	}
}

func largeModelFile(b *testing.B, o *p2lrt.WriteOptions) []byte {
	m := p2l.ModelForTest(synth.Generate(synth.Options{Seed: 7, Meshes: 400, VerticesPerMesh: 400, Deformers: 120, Parameters: 64}))
	var buf bytes.Buffer
	if err := p2l.Write(&buf, m, o); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkLoad decodes and validates a large model (400 meshes of about
// 400 vertices). b.SetBytes makes the MB/s column the file throughput. The
// trial evaluation is included, as Load always runs it.
func BenchmarkLoad(b *testing.B) {
	for _, c := range []struct {
		name string
		o    *p2lrt.WriteOptions
	}{{"f32", nil}, {"zstd", &p2lrt.WriteOptions{Compression: p2lrt.CompressZstd}}, {"deflate", &p2lrt.WriteOptions{Compression: p2lrt.CompressDeflate}}, {"f16", &p2lrt.WriteOptions{Codec: p2lrt.CodecF16}}, {"v1", &p2lrt.WriteOptions{V1: true}}} {
		data := largeModelFile(b, c.o)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p2l.Load(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecode is BenchmarkLoad/f32 without the trial evaluation:
// container, chunk decoding and every validation.
func BenchmarkDecode(b *testing.B) {
	data := largeModelFile(b, nil)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := p2l.DecodeForBench(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite encodes the same large model.
func BenchmarkWrite(b *testing.B) {
	m := p2l.ModelForTest(synth.Generate(synth.Options{Seed: 7, Meshes: 400, VerticesPerMesh: 400, Deformers: 120, Parameters: 64}))
	var buf bytes.Buffer
	p2l.Write(&buf, m, nil)
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := p2l.Write(&buf, m, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestF16EvaluatedError reports how far the evaluated vertices of an
// f16/unorm16 file move from those of the f32 file. The codec rounds each
// position and offset to 11 significant bits (relative error ≤ 2⁻¹¹), so a
// vertex at canvas scale S moves by about S·2⁻¹¹; the test allows twice
// that, with S the canvas's larger side.
func TestF16EvaluatedError(t *testing.T) {
	m := p2l.ModelForTest(synth.Character(1))
	load := func(o *p2lrt.WriteOptions) *p2l.Rig {
		var b bytes.Buffer
		if err := p2l.Write(&b, m, o); err != nil {
			t.Fatal(err)
		}
		lm, err := p2l.Load(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		r := lm.NewRig()
		r.Evaluate()
		return r
	}
	a, h := load(nil), load(&p2lrt.WriteOptions{Codec: p2lrt.CodecF16})
	s := float64(max(m.Canvas().Width, m.Canvas().Height))
	bound := 2 * s / 2048
	var worst float64
	for i := range m.Meshes().Len() {
		va, vh := a.Mesh(i).Vertices(), h.Mesh(i).Vertices()
		if len(va) != len(vh) {
			t.Fatalf("mesh %d: %d vs %d values", i, len(va), len(vh))
		}
		for j := range va {
			worst = max(worst, math.Abs(float64(va[j]-vh[j])))
		}
	}
	t.Logf("f16/unorm16 file: max evaluated vertex error %.4f px (canvas %v px, bound %.3f px)", worst, s, bound)
	if worst > bound {
		t.Fatalf("vertex error %.4f px beyond the codec bound %.3f px", worst, bound)
	}
}
