package sound

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/alloctest"
)

// oggCRC is the Ogg page checksum (CRC-32, polynomial 0x04c11db7, not
// reflected, initial value 0; RFC 3533 §6), written here from the RFC.
func oggCRC(b []byte) uint32 {
	var c uint32
	for _, x := range b {
		c ^= uint32(x) << 24
		for i := 0; i < 8; i++ {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04c11db7
			} else {
				c <<= 1
			}
		}
	}
	return c
}

// oggFile lays packets out in Ogg pages (RFC 3533) of at most maxSegs
// lacing values each, so a packet can span pages; the last page ends the
// stream at granule position 4096.
func oggFile(maxSegs int, packets ...[]byte) []byte {
	type seg struct {
		lace byte
		data []byte
	}
	var segs []seg
	for _, p := range packets {
		for len(p) >= 255 {
			segs = append(segs, seg{255, p[:255]})
			p = p[255:]
		}
		segs = append(segs, seg{byte(len(p)), p})
	}
	var out []byte
	continued := false
	for seq := uint32(0); len(segs) > 0; seq++ {
		n := min(maxSegs, len(segs))
		page := segs[:n]
		segs = segs[n:]
		var flags byte
		if continued {
			flags |= 1
		}
		if seq == 0 {
			flags |= 2
		}
		granule := int64(0)
		if len(segs) == 0 {
			flags |= 4
			granule = 4096
		}
		h := []byte("OggS\x00")
		h = append(h, flags)
		h = binary.LittleEndian.AppendUint64(h, uint64(granule))
		h = binary.LittleEndian.AppendUint32(h, 1)   // stream serial
		h = binary.LittleEndian.AppendUint32(h, seq) // page sequence
		h = binary.LittleEndian.AppendUint32(h, 0)   // CRC, filled below
		h = append(h, byte(n))
		for _, s := range page {
			h = append(h, s.lace)
		}
		for _, s := range page {
			h = append(h, s.data...)
		}
		binary.LittleEndian.PutUint32(h[22:], oggCRC(h))
		out = append(out, h...)
		continued = page[n-1].lace == 255
	}
	return out
}

// vorbisID is an identification header (Vorbis I §4.2.2).
func vorbisID(channels byte, blocksizes byte) []byte {
	h := []byte("\x01vorbis")
	h = binary.LittleEndian.AppendUint32(h, 0) // version
	h = append(h, channels)
	h = binary.LittleEndian.AppendUint32(h, 44100)
	h = append(h, make([]byte, 12)...) // bit rates
	return append(h, blocksizes, 1)
}

// vorbisRate is a stereo identification header declaring a sample rate.
func vorbisRate(rate uint32) []byte {
	h := vorbisID(2, 0xB8)
	binary.LittleEndian.PutUint32(h[12:], rate)
	return h
}

// vorbisComments is a comment header (§5.2.1) with a vendor length and a
// comment count as given, followed by filler.
func vorbisComments(vendorLen, count uint32, filler int) []byte {
	h := []byte("\x03vorbis")
	h = binary.LittleEndian.AppendUint32(h, vendorLen)
	h = append(h, bytes.Repeat([]byte{'v'}, min(int(vendorLen), filler))...)
	h = binary.LittleEndian.AppendUint32(h, count)
	return append(h, bytes.Repeat([]byte{'c'}, filler)...)
}

// bitWriter writes a Vorbis bitstream, least significant bit first (§2.1.4).
type bitWriter struct {
	b []byte
	n uint
}

func (w *bitWriter) put(v uint64, bits uint) {
	for i := uint(0); i < bits; i++ {
		if w.n%8 == 0 {
			w.b = append(w.b, 0)
		}
		w.b[len(w.b)-1] |= byte(v>>i&1) << (w.n % 8)
		w.n++
	}
}

// codebook describes one setup-header codebook (§3.2.1): ordered books
// give every entry the code length firstLen in one run; unordered ones
// write a 5-bit length per entry (entries of them at most, the rest of the
// header being cut short).
type testBook struct {
	dims, entries uint64
	ordered       bool
	firstLen      uint64
	lookup        uint64
	written       uint64 // unordered: lengths actually written
}

// vorbisSetup is a setup header holding the codebooks and then nothing
// else (the decoder fails on what follows; the checks read only the
// codebooks).
func vorbisSetup(books ...testBook) []byte {
	w := &bitWriter{}
	w.put(uint64(len(books)-1), 8)
	for _, c := range books {
		w.put(0x564342, 24)
		w.put(c.dims, 16)
		w.put(c.entries, 24)
		if c.ordered {
			w.put(1, 1)
			w.put(c.firstLen-1, 5)
			w.put(c.entries, bitLen(c.entries))
		} else {
			w.put(0, 2) // unordered, not sparse
			for e := uint64(0); e < c.written; e++ {
				w.put(c.firstLen-1, 5)
			}
		}
		w.put(c.lookup, 4)
		if c.lookup != 0 {
			w.put(0, 32+32+4+1) // minimum, delta, value bits - 1 (1 bit), sequence
		}
	}
	return append([]byte("\x05vorbis"), w.b...)
}

// TestDecodeDeclaredSizes: Ogg Vorbis and MP3 files whose headers
// declare sizes beyond what the file holds, or codebook tables beyond
// maxVorbisTables, are refused before the decoders allocate them. Without
// the checks each of these files, a few hundred bytes long, made
// jfreymuth/vorbis or go-mp3 allocate 256 MiB to 4 TiB (most ended the
// process with "fatal error: out of memory", which no recover catches).
func TestDecodeDeclaredSizes(t *testing.T) {
	id, comments := vorbisID(2, 0xB8), vorbisComments(5, 0, 5)
	goodBook := testBook{dims: 1, entries: 2, firstLen: 1, written: 2}
	setup := vorbisSetup(goodBook)
	cases := []struct {
		name, want string
		file       []byte
	}{
		{"comment count 2^32-1", "comment header: 4294967295 comments, but 5 bytes hold at most 1",
			oggFile(255, id, vorbisComments(5, 0xFFFFFFFF, 5), setup)},
		{"comment count split over pages", "comment header: 100000000 comments, but 600 bytes hold at most 150",
			oggFile(1, id, vorbisComments(600, 100_000_000, 600), setup)},
		{"vendor length", "comment header: vendor string of 4294967280 bytes, 14 left",
			oggFile(255, id, vorbisComments(0xFFFFFFF0, 0, 5), setup)},
		{"255 channels", "packet 1 (page at offset 0): 255 channels, not 1 or 2",
			oggFile(255, vorbisID(255, 0xB8), comments, setup)},
		{"block size 32768", "block sizes 32768 and 32768, not powers of two in 64…8192",
			oggFile(255, vorbisID(2, 0xFF), comments, setup)},
		{"block sizes reversed", "block sizes 2048 and 256",
			oggFile(255, vorbisID(2, 0x8B), comments, setup)},
		{"codebook without entries", "codebook 0 (bit 8): no entries",
			oggFile(255, id, comments, vorbisSetup(testBook{dims: 1, entries: 0, firstLen: 1}))},
		{"2^24-1 ordered entries", "codebooks 0…0 need 150994926 bytes of decoder tables, limit 16777216",
			oggFile(255, id, comments, vorbisSetup(testBook{dims: 1, entries: 1<<24 - 1, ordered: true, firstLen: 1}))},
		{"entries cut short", "codebook 1 (bit 88): cut short",
			oggFile(255, id, comments, vorbisSetup(goodBook, testBook{dims: 1, entries: 1 << 20, firstLen: 5, written: 100}))},
		{"lookup 1 values", "codebooks 0…0 need 4398130135030 bytes of decoder tables",
			oggFile(255, id, comments, vorbisSetup(testBook{dims: 0xFFFF, entries: 1<<24 - 1, ordered: true, firstLen: 1, lookup: 1}))},
		{"lookup 2 multiplicands", "codebook 0 (bit 8): 1099494785025 multiplicands of 1 bits do not fit in the 22-byte header",
			oggFile(255, id, comments, vorbisSetup(testBook{dims: 0xFFFF, entries: 1<<24 - 1, ordered: true, firstLen: 1, lookup: 2}))},
		{"tables summed over codebooks", "codebooks 0…3 need 18874332 bytes of decoder tables, limit 16777216",
			oggFile(255, id, comments, vorbisSetup(
				testBook{dims: 1, entries: 1 << 19, ordered: true, firstLen: 19},
				testBook{dims: 1, entries: 1 << 19, ordered: true, firstLen: 19},
				testBook{dims: 1, entries: 1 << 19, ordered: true, firstLen: 19},
				testBook{dims: 1, entries: 1 << 19, ordered: true, firstLen: 19},
				testBook{dims: 1, entries: 1 << 19, ordered: true, firstLen: 19}))},
		{"Vorbis sample rate 0", "packet 1 (page at offset 0): sample rate 0 Hz, not in 1…768000",
			oggFile(255, vorbisRate(0), comments, setup)},
		{"Vorbis sample rate 2^32-1", "sample rate 4294967295 Hz, not in 1…768000",
			oggFile(255, vorbisRate(0xFFFFFFFF), comments, setup)},
		{"WAV sample rate 808 MHz", `WAV chunk "fmt " at offset 12: sample rate 808464432 Hz, not in 1…768000`,
			[]byte("RIFF0000WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x000000000000\x10\x00data00\xe9\xe9")},
		{"ID3 size 0xFFFFFFFF", "MP3 ID3 tag declares 536870911 bytes, more than the 4 left in the file",
			[]byte("ID3\x03\x00\x00\xff\xff\xff\xff\xff\xfb\x90\x00")},
		{"ID3 size 2^28-1", "MP3 ID3 tag declares 268435455 bytes, more than the 4 left in the file",
			[]byte("ID3\x04\x00\x00\x7f\x7f\x7f\x7f\xff\xfb\x90\x00")},
	}
	for _, c := range cases {
		var err error
		a := alloctest.Bytes(func() { _, err = Decode(c.file, 44100) })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s (%d bytes): %v, want %q", c.name, len(c.file), err, c.want)
		}
		if a > 64<<10 {
			t.Errorf("%s: %d bytes allocated", c.name, a)
		}
	}

	// Within the bounds: what is declared fits in the file, and codebook
	// tables just under maxVorbisTables are left to the decoder (it fails
	// later on this header, which has nothing after its codebooks); the
	// allocation stays within the tables' budget.
	for _, c := range []struct {
		name string
		file []byte
	}{
		{"comments that fit", oggFile(255, id, append([]byte("\x03vorbis\x05\x00\x00\x00vvvvv\x01\x00\x00\x00\x03\x00\x00\x00a=b"), 1), setup)},
		{"tables at the limit", oggFile(255, id, comments, vorbisSetup(testBook{dims: 1, entries: maxVorbisTables / 9, ordered: true, firstLen: 1}))},
	} {
		var err error
		a := alloctest.Bytes(func() { _, err = Decode(c.file, 44100) })
		if err == nil || strings.Contains(err.Error(), "declares") || strings.Contains(err.Error(), "limit") || strings.Contains(err.Error(), "comment header") {
			t.Errorf("%s: %v, want the decoder's own error", c.name, err)
		}
		if a > maxVorbisTables+1<<20 {
			t.Errorf("%s: %d bytes allocated, more than the %d of the tables' budget and 1 MiB", c.name, a, maxVorbisTables)
		}
	}
	if _, err := Decode([]byte("ID3\x03\x00\x00\x00\x00\x00\x04abcd\xff\xfb\x90\x00"), 44100); err != nil && strings.Contains(err.Error(), "ID3 tag declares") {
		t.Errorf("an ID3 tag that fits: %v", err)
	}
}

// TestDecodeRepaged: the bundled speech laid out again in pages of
// one lacing value (every header packet spans many pages) passes the
// header checks and decodes to the same samples as the original: the
// checks read packets across pages as the decoder does.
func TestDecodeRepaged(t *testing.T) {
	pk := oggPackets{data: assets.Speech}
	var headers [][]byte
	for i := 0; i < 3; i++ {
		p, _, ok := pk.next()
		if !ok {
			t.Fatalf("speech: header packet %d not found", i+1)
		}
		headers = append(headers, p)
	}
	if pk.at != len(pk.packets)-1 || len(pk.packets[pk.at]) != 0 {
		t.Fatal("speech: audio packets on the setup header's page")
	}
	tables, err := checkVorbisHeaders(assets.Speech)
	if err != nil || tables == 0 || tables > maxVorbisTables {
		t.Fatalf("speech: tables %d, %v", tables, err)
	}
	t.Logf("speech.ogg: setup header %d bytes, codebook tables %d bytes", len(headers[2]), tables)
	// The speech's audio pages follow its headers; keep them as they are.
	audio := assets.Speech[pk.off:]
	repaged := append(oggFile(1, headers...), audio...)
	// The original's header pages end at granule 0 and its audio pages keep
	// their own flags, so only the headers are re-laid out; the last page
	// of oggFile is flagged as the end of the stream, so clear that flag.
	repaged = clearLastFlag(t, repaged, len(repaged)-len(audio))
	if _, err := checkVorbisHeaders(repaged); err != nil {
		t.Fatal(err)
	}
	orig, err := Decode(assets.Speech, 44100)
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(orig)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Decode(repaged, 44100)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("repaged speech decodes to %d bytes differing from the original's %d", len(got), len(want))
	}
}

// clearLastFlag clears the end-of-stream flag and granule position of the
// last page that starts before end and rewrites its CRC.
func clearLastFlag(t *testing.T, file []byte, end int) []byte {
	last := -1
	for off := 0; off < end; {
		last = off
		nseg := int(file[off+26])
		size := 27 + nseg
		for _, l := range file[off+27 : off+27+nseg] {
			size += int(l)
		}
		off += size
	}
	if last < 0 {
		t.Fatal("no page")
	}
	p := file[last:]
	p[5] &^= 4
	binary.LittleEndian.PutUint64(p[6:], 0)
	nseg := int(p[26])
	size := 27 + nseg
	for _, l := range p[27 : 27+nseg] {
		size += int(l)
	}
	binary.LittleEndian.PutUint32(p[22:], 0)
	binary.LittleEndian.PutUint32(p[22:], oggCRC(p[:size]))
	return file
}

// TestDecode: a WAV file decodes to the stereo PCM of its samples; garbage
// and chunks declaring more than the file holds are refused.
func TestDecode(t *testing.T) {
	// A WAV file of four known samples.
	var b bytes.Buffer
	data := []int16{0, 1000, -1000, 32767}
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+2*len(data)))
	b.WriteString("WAVEfmt ")
	for _, f := range []any{uint32(16), uint16(1), uint16(1), uint32(44100), uint32(88200), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, f)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(2*len(data)))
	binary.Write(&b, binary.LittleEndian, data)
	s, err := Decode(b.Bytes(), 44100)
	if err != nil {
		t.Fatal(err)
	}
	pcm, _ := io.ReadAll(s)
	// At the file's own rate nothing is resampled: each mono sample
	// becomes a stereo frame of two equal 16-bit words.
	if len(pcm) != 4*len(data) {
		t.Fatalf("WAV of %d samples decoded to %d bytes, want %d", len(data), len(pcm), 4*len(data))
	}
	for i, want := range data {
		l := int16(binary.LittleEndian.Uint16(pcm[4*i:]))
		r := int16(binary.LittleEndian.Uint16(pcm[4*i+2:]))
		if l != want || r != want {
			t.Errorf("frame %d decoded to (%d, %d), want (%d, %d)", i, l, r, want, want)
		}
	}
	if _, err := Decode([]byte("not audio at all"), 44100); err == nil {
		t.Error("garbage decoded")
	}
	// A chunk before "data" declaring more bytes than the file has (an
	// unknown chunk, or "fmt "), up to 4 GiB: refused from the bytes at
	// hand, without allocating the declared size (FuzzDecode's worker
	// ran out of memory on such a 40-byte file).
	for _, id := range []string{"LIST", "fmt "} {
		for _, size := range []uint32{1 << 31, 0xFFFFFFFF, 100} {
			var h bytes.Buffer
			h.WriteString("RIFF\x24\x00\x00\x00WAVE" + id)
			binary.Write(&h, binary.LittleEndian, size)
			h.WriteString("0123456789abcdef0123456789")
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Decode(h.Bytes(), 44100)
			runtime.ReadMemStats(&after)
			want := fmt.Sprintf("WAV chunk %q at offset 12 declares %d bytes, more than the 26 left in the file", id, size)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("chunk %q of %d bytes: %v, want %q", id, size, err, want)
			}
			if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
				t.Errorf("chunk %q of %d bytes: %d bytes allocated", id, size, a)
			}
		}
	}
	// A chunk that fits is skipped as before.
	var ok bytes.Buffer
	ok.WriteString("RIFF\x00\x00\x00\x00WAVEJUNK\x02\x00\x00\x00..")
	ok.Write(b.Bytes()[12:])
	if _, err := Decode(ok.Bytes(), 44100); err != nil {
		t.Errorf("a WAV with a small JUNK chunk: %v", err)
	}
}
