package container

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"runtime"
	"strings"
	"testing"
)

func TestWriteParseRoundTrip(t *testing.T) {
	big := bytes.Repeat([]byte("abcdefgh"), 100)
	chunks := []ChunkData{
		{Tag: "STRS", Version: 1, Required: true, Data: []byte{0, 0, 0, 0, 0, 0, 0, 0}},
		{Tag: "ABCD", Version: 3, Data: big, Compress: Deflate},
		{Tag: "EFGH", Version: 1, Data: big, Compress: Zstd},
		{Tag: "TINY", Version: 1, Data: []byte{1}, Compress: Zstd}, // grows: stored raw
		{Tag: "zero", Version: 1},
	}
	data, err := Write(FlagNamesStripped, 7, chunks, true)
	if err != nil {
		t.Fatal(err)
	}
	h, es, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if h.Major != 2 || h.Minor != 7 || h.Flags != FlagNamesStripped || len(es) != len(chunks) {
		t.Fatalf("header %+v, %d entries", h, len(es))
	}
	wantComp := []Compression{None, Deflate, Zstd, None, None}
	for i, e := range es {
		if e.Tag != chunks[i].Tag || e.Version != chunks[i].Version || e.Required() != chunks[i].Required || !e.HasCRC() {
			t.Errorf("entry %d: %+v", i, e)
		}
		if e.Offset%16 != 0 || e.Compression() != wantComp[i] {
			t.Errorf("entry %d: offset %d, compression %v", i, e.Offset, e.Compression())
		}
		if err := CheckCRC(data, &e); err != nil {
			t.Error(err)
		}
		got, err := Content(data, &e, 1<<20)
		if err != nil || !bytes.Equal(got, chunks[i].Data) {
			t.Errorf("entry %d content: %v", i, err)
		}
	}
	// Determinism.
	again, _ := Write(FlagNamesStripped, 7, chunks, true)
	if !bytes.Equal(again, data) {
		t.Fatal("Write is not deterministic")
	}
}

// TestAddressWidth: offsets beyond what the platform addresses are
// rejected, not truncated (simulated with a 32-bit limit).
func TestAddressWidth(t *testing.T) {
	data, _ := Write(0, 0, []ChunkData{{Tag: "STRS", Version: 1, Data: []byte{1, 2, 3}}}, false)
	binary.LittleEndian.PutUint64(data[HeaderSize+8:], 1<<32+48)
	if _, _, err := parse(data, 1<<31-1); err == nil || !strings.Contains(err.Error(), "address width") {
		t.Fatalf("got %v", err)
	}
	// The same file on a 64-bit limit fails on bounds instead.
	if _, _, err := parse(data, 1<<63-1); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Fatalf("got %v", err)
	}
}

func TestZeroLengthChunkPlacement(t *testing.T) {
	// A zero-length chunk may sit at the end of the file or at the start
	// of another chunk, but not inside one.
	data, _ := Write(0, 0, []ChunkData{{Tag: "AAAA", Version: 1, Data: make([]byte, 32)}, {Tag: "BBBB", Version: 1}}, false)
	if _, _, err := Parse(data); err != nil {
		t.Fatal(err)
	}
	row := HeaderSize + EntrySize
	first := binary.LittleEndian.Uint64(data[HeaderSize+8:])
	binary.LittleEndian.PutUint64(data[row+8:], first)
	if _, _, err := Parse(data); err != nil {
		t.Fatalf("zero-length chunk at another chunk's start: %v", err)
	}
	binary.LittleEndian.PutUint64(data[row+8:], first+16)
	if _, _, err := Parse(data); err == nil || !strings.Contains(err.Error(), "overlaps") {
		t.Fatalf("zero-length chunk inside another: %v", err)
	}
}

func TestZstdFrameWalker(t *testing.T) {
	good, _ := compress(Zstd, bytes.Repeat([]byte("xyz"), 1000))
	if fcs, err := checkZstdFrame(good); err != nil || fcs != 3000 {
		t.Fatalf("fcs %d, %v", fcs, err)
	}
	skippable := append([]byte{0x50, 0x2a, 0x4d, 0x18, 0, 0, 0, 0}, good...)
	for name, b := range map[string][]byte{
		"skippable": skippable, "empty": nil, "two": append(append([]byte(nil), good...), good...),
		"truncated": good[:len(good)-1], "trailing": append(append([]byte(nil), good...), 0),
	} {
		if _, err := checkZstdFrame(b); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

// FuzzContainer: Parse and Content must never panic; every entry Parse
// accepts lies inside the file.
func FuzzContainer(f *testing.F) {
	big := bytes.Repeat([]byte("p2lrt "), 50)
	for _, c := range []Compression{None, Deflate, Zstd} {
		d, _ := Write(0, 0, []ChunkData{{Tag: "STRS", Version: 1, Required: true, Data: []byte{0, 0, 0, 0, 0, 0, 0, 0}},
			{Tag: "DATA", Version: 2, Data: big, Compress: c}, {Tag: "zero", Version: 1}}, true)
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, es, err := Parse(data)
		if err != nil {
			return
		}
		for i := range es {
			e := &es[i]
			if e.Offset+e.Length > uint64(len(data)) || e.Offset%16 != 0 {
				t.Fatalf("accepted entry outside the file: %+v", e)
			}
			CheckCRC(data, e)
			if b, err := Content(data, e, 1<<22); err == nil && uint64(len(b)) != e.RawLength {
				t.Fatalf("content length %d ≠ raw_length %d", len(b), e.RawLength)
			}
		}
	})
}

// TestDecompressionBomb: a stream that inflates far beyond raw_length is
// stopped one byte past it; memory stays near raw_length.
// bomb compresses src quickly (deflate at BestSpeed, zstd as the writer does).
func bomb(m Compression, src []byte) ([]byte, error) {
	if m != Deflate {
		return compress(m, src)
	}
	var b bytes.Buffer
	w, err := zlib.NewWriterLevel(&b, zlib.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(src); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func TestDecompressionBomb(t *testing.T) {
	zeros := make([]byte, 1<<20)
	for _, m := range []Compression{Deflate, Zstd} {
		// The bomb is built at deflate's fastest level: the writer's best
		// level takes half a minute on a megabyte under -race, and the
		// reader's bound does not depend on how the stream was made.
		z, err := bomb(m, zeros)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err = decompress(m, z, 1000)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "raw_length") {
			t.Errorf("%v: %v", m, err)
		}
		// The decoders' own state is bounded; the output buffer is ~1 KB.
		if d := after.TotalAlloc - before.TotalAlloc; d > 8<<20 {
			t.Errorf("%v: allocated %d bytes", m, d)
		}
	}
}
