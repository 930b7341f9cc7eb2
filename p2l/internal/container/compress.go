package container

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// decompress inflates src, which must decode to exactly want bytes. Memory
// grows with the bytes actually produced (never more than want+1), so a
// small stream claiming a huge raw_length costs nothing until it delivers.
func decompress(method Compression, src []byte, want int64) ([]byte, error) {
	switch method {
	case Deflate:
		br := bytes.NewReader(src)
		var zr io.ReadCloser
		if p, ok := zlibPool.Get().(io.ReadCloser); ok {
			if err := p.(zlib.Resetter).Reset(br, nil); err != nil {
				return nil, err
			}
			zr = p
		} else {
			var err error
			if zr, err = zlib.NewReader(br); err != nil {
				return nil, err
			}
		}
		defer zlibPool.Put(zr)
		out, err := readExactly(zr, want, len(src))
		if err != nil {
			return nil, err
		}
		// zlib.Reader verifies the Adler-32 trailer when it reaches EOF,
		// which readExactly forced. Anything after the trailer is junk.
		if br.Len() != 0 {
			return nil, fmt.Errorf("%d trailing bytes after the zlib stream", br.Len())
		}
		return out, nil
	case Zstd:
		fcs, err := checkZstdFrame(src)
		if err != nil {
			return nil, err
		}
		if fcs >= 0 && fcs != want {
			return nil, fmt.Errorf("frame content size %d ≠ raw_length %d", fcs, want)
		}
		d := zstdPool.Get().(*zstd.Decoder)
		defer zstdPool.Put(d)
		if err := d.Reset(bytes.NewReader(src)); err != nil {
			return nil, err
		}
		return readExactly(d, want, len(src))
	}
	return nil, fmt.Errorf("unknown compression method %d", method)
}

// zlibPool recycles zlib readers (their inflate tables are large).
var zlibPool sync.Pool

var zstdPool = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(1<<30))
	if err != nil {
		panic(err) // only with invalid options
	}
	return d
}}

// readExactly reads r to EOF and requires exactly want bytes. The buffer
// starts at want when that is at most 32 times the compressed size (plus
// 1 MiB), which covers real chunks in one allocation; a stream claiming a
// larger ratio has to deliver the bytes to make the buffer grow (at most
// doubling, never past want+1).
func readExactly(r io.Reader, want int64, srcLen int) ([]byte, error) {
	buf := make([]byte, 0, min(want, 32*int64(srcLen)+1<<20)+1)
	for {
		if len(buf) == cap(buf) {
			grow := min(int64(cap(buf)), want+1-int64(len(buf)))
			buf = slices.Grow(buf, int(grow))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > want {
			return nil, fmt.Errorf("decompressed more than raw_length %d bytes", want)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(buf)) != want {
		return nil, fmt.Errorf("decompressed %d bytes, raw_length is %d", len(buf), want)
	}
	return buf, nil
}

// checkZstdFrame walks the frame structure of src without decoding it: it
// must be exactly one standard zstd frame (no skippable frames, no second
// frame, no trailing bytes) without a dictionary id. It returns the frame
// content size, or −1 when the header omits it.
func checkZstdFrame(src []byte) (int64, error) {
	if len(src) < 6 || binary.LittleEndian.Uint32(src) != 0xFD2FB528 {
		return -1, errors.New("not a zstd frame (bad magic)")
	}
	fhd := src[4]
	if fhd&0x08 != 0 {
		return -1, errors.New("reserved bit set in the zstd frame header")
	}
	single := fhd&0x20 != 0
	dictSize := [4]int{0, 1, 2, 4}[fhd&3]
	fcsSize := [4]int{0, 2, 4, 8}[fhd>>6]
	if fcsSize == 0 && single {
		fcsSize = 1
	}
	p := 5
	if !single {
		p++ // window descriptor
	}
	if len(src) < p+dictSize+fcsSize {
		return -1, errors.New("truncated zstd frame header")
	}
	var dict uint64
	for i := 0; i < dictSize; i++ {
		dict |= uint64(src[p+i]) << (8 * i)
	}
	if dict != 0 {
		return -1, fmt.Errorf("zstd frame uses dictionary %d (dictionaries are not allowed)", dict)
	}
	p += dictSize
	fcs := int64(-1)
	if fcsSize > 0 {
		var v uint64
		for i := 0; i < fcsSize; i++ {
			v |= uint64(src[p+i]) << (8 * i)
		}
		if fcsSize == 2 {
			v += 256
		}
		if v > 1<<62 {
			return -1, errors.New("zstd frame content size out of range")
		}
		fcs = int64(v)
		p += fcsSize
	}
	for {
		if len(src)-p < 3 {
			return -1, errors.New("truncated zstd block header")
		}
		bh := uint32(src[p]) | uint32(src[p+1])<<8 | uint32(src[p+2])<<16
		p += 3
		last := bh&1 != 0
		size := int(bh >> 3)
		switch (bh >> 1) & 3 {
		case 0, 2: // raw, compressed
		case 1: // RLE: one byte on disk
			size = 1
		default:
			return -1, errors.New("reserved zstd block type")
		}
		if len(src)-p < size {
			return -1, errors.New("truncated zstd block")
		}
		p += size
		if last {
			break
		}
	}
	if fhd&0x04 != 0 {
		p += 4 // content checksum, verified by the decoder
	}
	if p != len(src) {
		if p > len(src) {
			return -1, errors.New("truncated zstd checksum")
		}
		return -1, fmt.Errorf("%d bytes after the zstd frame (only one frame is allowed)", len(src)-p)
	}
	return fcs, nil
}

var zstdEnc = sync.OnceValues(func() (*zstd.Encoder, error) {
	return zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(true),
		zstd.WithEncoderLevel(zstd.SpeedBetterCompression))
})

// compress compresses src; output is deterministic for a given library
// version and settings.
func compress(method Compression, src []byte) ([]byte, error) {
	switch method {
	case Deflate:
		var b bytes.Buffer
		w, err := zlib.NewWriterLevel(&b, zlib.BestCompression)
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
	case Zstd:
		enc, err := zstdEnc()
		if err != nil {
			return nil, err
		}
		return enc.EncodeAll(src, nil), nil
	}
	return nil, fmt.Errorf("unknown compression method %d", method)
}
