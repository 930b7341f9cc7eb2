package p2l

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/internal/container"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func mustWrite(t testing.TB, m *Model, o *p2lrt.WriteOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, m, o); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.Bytes()
}

func TestRoundTripFull(t *testing.T) {
	m := fullModel()
	for _, o := range []*p2lrt.WriteOptions{nil, {NoCRC: true}, {Compression: p2lrt.CompressDeflate}, {Compression: p2lrt.CompressZstd}} {
		data := mustWrite(t, m, o)
		got, err := Load(data, WithCRC())
		if err != nil {
			t.Fatalf("%+v: Load: %v", o, err)
		}
		if !sameFile(got, m) {
			t.Fatalf("%+v: model changed in the round trip\n%s", o, diffModels(m, got))
		}
		again := mustWrite(t, got, o)
		if !bytes.Equal(again, data) {
			t.Fatalf("%+v: bytes -> model -> bytes differ", o)
		}
	}
}

func TestV1AndV2LoadEqual(t *testing.T) {
	m := coreModel()
	var models []*Model
	for _, o := range []*p2lrt.WriteOptions{{V1: true}, nil, {Compression: p2lrt.CompressDeflate}, {Compression: p2lrt.CompressZstd}} {
		data := mustWrite(t, m, o)
		got, err := Load(data)
		if err != nil {
			t.Fatalf("%+v: Load: %v", o, err)
		}
		if o != nil && o.V1 && string(data[:12]) != "P2LRT\x00\x00\x00\x01\x00\x00\x00" {
			t.Fatalf("v1 header %q", data[:12])
		}
		models = append(models, got)
	}
	for i, got := range models {
		if !sameFile(got, m) {
			t.Fatalf("variant %d differs: %s", i, diffModels(m, got))
		}
	}
	// v1 bytes -> model -> v1 bytes identical.
	d1 := mustWrite(t, m, &p2lrt.WriteOptions{V1: true})
	if !bytes.Equal(mustWrite(t, models[0], &p2lrt.WriteOptions{V1: true}), d1) {
		t.Fatal("v1 bytes not stable")
	}
}

func TestV1LossReport(t *testing.T) {
	m := fullModel()
	if _, err := m.file.Encode(&p2lrt.WriteOptions{V1: true}); err == nil {
		t.Fatal("v1 with KTX2/external pages must fail")
	}
	losses := V1Losses(m)
	want := []string{"BONE", "SKIN", "COLL", "SIMS", "PHYS", "PGUI", "META", "EXPR", "HITA", "UDAT", "POSE", "CEXT", "TEXR"}
	if len(losses) != len(want)+1 { // two TEXR pages
		t.Fatalf("losses: %q", losses)
	}
	for i, w := range want {
		if !bytes.HasPrefix([]byte(losses[i]), []byte(w+":")) {
			t.Errorf("loss %d = %q, want %s", i, losses[i], w)
		}
	}
	if V1Losses(coreModel()) != nil {
		t.Errorf("core model losses: %q", V1Losses(coreModel()))
	}
	// The PHYS line counts the Y entries: one input and one output.
	if losses[4] != "PHYS: 2 vertical (Y) physics inputs/outputs dropped (PHYS version 2 only)" {
		t.Errorf("PHYS loss: %q", losses[4])
	}
}

// TestCompressedChunkContentsEqual: uncompressed, deflate and zstd files of
// one model hold byte-identical chunk contents once decompressed (the
// spec's conformance comparison), and TEXR is never compressed.
func TestCompressedChunkContentsEqual(t *testing.T) {
	m := fullModel()
	contents := func(o *p2lrt.WriteOptions) map[string][]byte {
		data := mustWrite(t, m, o)
		_, es, err := container.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		for i := range es {
			b, err := container.Content(data, &es[i], 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if es[i].Tag == "TEXR" && es[i].Compression() != container.None {
				t.Fatal("TEXR compressed")
			}
			out[es[i].Tag] = b
		}
		return out
	}
	plain := contents(nil)
	for _, o := range []*p2lrt.WriteOptions{{Compression: p2lrt.CompressDeflate}, {Compression: p2lrt.CompressZstd}} {
		if got := contents(o); !reflect.DeepEqual(got, plain) {
			t.Fatalf("%+v: chunk contents differ", o)
		}
	}
}

// TestDecompressedErrorOffset: errors inside a compressed chunk give the
// offset within the decompressed content.
func TestDecompressedErrorOffset(t *testing.T) {
	var raw []byte
	cs := withChunk("CANV", func(c *tchunk) {
		c.data = append(c.data[:4:4], 0, 0, 0xc0, 0x7f) // height = NaN, then truncated
		raw = c.data
		c.data = zlibBytes(c.data)
		c.flags |= 1 << 2
	})
	data := buildV2(cs...)
	data = patch(data, tocRow(1)+24, uint64(len(raw)))
	_, err := Load(data)
	var fe *p2lrt.FormatError
	if !errors.As(err, &fe) || !fe.Decompressed || fe.Offset != 4 || fe.Field != "height" {
		t.Fatalf("%#v", fe)
	}
}
