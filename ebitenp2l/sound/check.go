package sound

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The decoders Decode hands a file to (Ebitengine's wav, vorbis and
// mp3, over jfreymuth/oggvorbis and hajimehoshi/go-mp3) size some buffers
// from numbers in the file before reading what those numbers describe. A
// few bytes can then ask for gigabytes, and an allocation the machine
// cannot give ends the process (Go's "out of memory" is not a panic, so
// Decode's recover cannot catch it). The checks below read those
// numbers first, from the bytes at hand, and refuse a file before the
// decoder sees it when what it declares is not in the file or exceeds
// maxVorbisTables. docs/LIMITS.md ("Audio files") lists them with measurements.

// maxVorbisTables bounds the codebook tables the Vorbis decoder builds from
// a setup header (Huffman tree, multiplicands and expanded values, as
// jfreymuth/vorbis sizes them). Encoders' files need far less: the bundled
// speech's 3,257-byte setup header needs 72,754 bytes.
const maxVorbisTables = 16 << 20

// maxSampleRate is the highest sample rate a file may declare (768 kHz,
// the highest rate of audio interfaces). Ebitengine's resampler reads
// ±8 source samples around each output sample from a cache of 4 blocks of
// 4,096: at a ratio of thousands each output sample loads a new block, and
// reading 1 MiB of a WAV declaring 808 MHz took 11 s (FuzzDecode's
// worker hung). Up to 768 kHz a block serves ≥ 235 samples at 44.1 kHz.
const maxSampleRate = 768000

func checkSampleRate(rate uint32) error {
	if rate == 0 || rate > maxSampleRate {
		return fmt.Errorf("sample rate %d Hz, not in 1…%d", rate, maxSampleRate)
	}
	return nil
}

// checkWAVChunks refuses a WAV file whose chunks before "data" declare
// more bytes than the file holds: Ebitengine's decoder allocates each such
// chunk at its declared size before reading it (up to 4 GiB for a 40-byte
// file: FuzzDecode's worker ran out of memory). The walk reads the
// chunks as that decoder does (no pad byte after odd sizes). It also
// refuses a "fmt " chunk's sample rate outside 1…maxSampleRate.
func checkWAVChunks(data []byte) error {
	for off := 12; off+8 <= len(data); {
		id := data[off : off+4]
		if string(id) == "data" {
			return nil
		}
		size, left := uint64(binary.LittleEndian.Uint32(data[off+4:])), uint64(len(data)-off-8)
		if size > left {
			return fmt.Errorf("sound: WAV chunk %q at offset %d declares %d bytes, more than the %d left in the file", id, off, size, left)
		}
		if string(id) == "fmt " && size >= 8 {
			if err := checkSampleRate(binary.LittleEndian.Uint32(data[off+12:])); err != nil {
				return fmt.Errorf("sound: WAV chunk \"fmt \" at offset %d: %w", off, err)
			}
		}
		off += 8 + int(size)
	}
	return nil // no data chunk: the decoder reports the header
}

// checkID3 refuses an MP3 file whose leading ID3 tag declares more bytes
// than the file holds: go-mp3 allocates the declared size (up to 512 MiB,
// computed as it does: the four size bytes are not masked to 7 bits) to
// skip the tag, twice.
func checkID3(data []byte) error {
	if len(data) < 10 || string(data[:3]) != "ID3" {
		return nil
	}
	size := uint64(data[6])<<21 | uint64(data[7])<<14 | uint64(data[8])<<7 | uint64(data[9])
	if left := uint64(len(data) - 10); size > left {
		return fmt.Errorf("sound: MP3 ID3 tag declares %d bytes, more than the %d left in the file", size, left)
	}
	return nil
}

// checkVorbisHeaders reads the three Vorbis header packets as
// jfreymuth/oggvorbis and jfreymuth/vorbis do and refuses what would make
// them allocate beyond the file or maxVorbisTables: a channel count other
// than 1 or 2 (Ebitengine refuses it only after the decoder has built its
// per-channel buffers), a sample rate outside 1…maxSampleRate, block sizes
// outside the Vorbis I range 64…8192, a
// comment header whose counts and lengths do not fit in it (the decoder
// makes the comment list first: 64 GiB for a count of 2^32-1), and
// codebooks that are cut short, declare no entries or together need more
// than maxVorbisTables. The floors, residues, mappings and modes after the
// codebooks are sized by fields of at most 16 bits the decoder bounds
// itself. It returns the bytes of codebook tables the setup header needs.
func checkVorbisHeaders(data []byte) (tables uint64, err error) {
	pk := oggPackets{data: data}
	for i := 0; i < 3; i++ {
		p, off, ok := pk.next()
		if !ok || len(p) < 7 || p[0] != byte(2*i+1) || string(p[1:7]) != "vorbis" {
			return tables, nil // not three Vorbis headers in a row: the decoder reports it
		}
		switch i {
		case 0:
			err = checkVorbisID(p[7:])
		case 1:
			err = checkVorbisComments(p[7:])
		case 2:
			tables, err = checkVorbisSetup(p[7:])
		}
		if err != nil {
			return tables, fmt.Errorf("sound: Ogg Vorbis header packet %d (page at offset %d): %w", i+1, off, err)
		}
	}
	return tables, nil
}

func checkVorbisID(h []byte) error {
	if len(h) <= 22 {
		return nil // the decoder refuses it
	}
	if ch := h[4]; ch != 1 && ch != 2 {
		return fmt.Errorf("%d channels, not 1 or 2", ch)
	}
	if err := checkSampleRate(binary.LittleEndian.Uint32(h[5:])); err != nil {
		return err
	}
	b0, b1 := h[21]&0x0F, h[21]>>4
	if b0 < 6 || b1 > 13 || b0 > b1 {
		return fmt.Errorf("block sizes %d and %d, not powers of two in 64…8192 with the first not larger", 1<<b0, 1<<b1)
	}
	return nil
}

func checkVorbisComments(h []byte) error {
	left := func() uint64 { return uint64(len(h)) }
	if len(h) < 4 {
		return nil // the decoder refuses it
	}
	vendor := uint64(binary.LittleEndian.Uint32(h))
	h = h[4:]
	if vendor > left() {
		return fmt.Errorf("comment header: vendor string of %d bytes, %d left", vendor, left())
	}
	h = h[vendor:]
	if len(h) < 4 {
		return nil
	}
	n := uint64(binary.LittleEndian.Uint32(h))
	h = h[4:]
	if n > left()/4 {
		return fmt.Errorf("comment header: %d comments, but %d bytes hold at most %d", n, left(), left()/4)
	}
	for i := uint64(0); i < n; i++ {
		if len(h) < 4 {
			return nil
		}
		size := uint64(binary.LittleEndian.Uint32(h))
		h = h[4:]
		if size > left() {
			return fmt.Errorf("comment header: comment %d of %d bytes, %d left", i, size, left())
		}
		h = h[size:]
	}
	return nil
}

// checkVorbisSetup walks the codebooks of a setup header (Vorbis I §3.2.1)
// and adds up the tables the decoder will make for them.
func checkVorbisSetup(h []byte) (total uint64, err error) {
	r := &lsbBits{data: h}
	count := r.read(8) + 1
	for b := uint64(0); b < count; b++ {
		start := r.pos
		if r.read(24) != 0x564342 {
			return total, nil // the decoder refuses a bad sync pattern
		}
		dims, entries := r.read(16), r.read(24)
		if r.short {
			return total, fmt.Errorf("codebook %d (bit %d): cut short", b, start)
		}
		if entries == 0 {
			return total, fmt.Errorf("codebook %d (bit %d): no entries", b, start)
		}
		if r.read(1) == 0 { // unordered: a length for each (present) entry
			sparse := r.read(1) == 1
			for e := uint64(0); e < entries && !r.short; e++ {
				if !sparse || r.read(1) == 1 {
					r.read(5)
				}
			}
		} else { // ordered: runs of entries of increasing length
			length := r.read(5) + 1
			for cur := uint64(0); cur < entries && !r.short; length++ {
				if length > 32 {
					return total, fmt.Errorf("codebook %d (bit %d): code lengths beyond 32", b, start)
				}
				cur += r.read(bitLen(entries - cur))
				if cur > entries {
					return total, fmt.Errorf("codebook %d (bit %d): length runs cover %d entries, %d declared", b, start, cur, entries)
				}
			}
		}
		// The Huffman tree: 2·entries-2 words of 4 bytes and half as many
		// bytes of minimum lengths.
		need := (2*entries-2)*4 + entries - 1
		lookup := r.read(4)
		if lookup == 1 || lookup == 2 {
			r.read(32)
			r.read(32)
			bits := r.read(4) + 1
			r.read(1)
			var mult uint64
			if lookup == 1 {
				if dims == 0 {
					return total, fmt.Errorf("codebook %d (bit %d): a value lookup with 0 dimensions", b, start)
				}
				mult = uint64(math.Floor(math.Pow(float64(entries), 1/float64(dims))))
			} else {
				mult = entries * dims
			}
			if mult > uint64(len(h))*8/bits {
				return total, fmt.Errorf("codebook %d (bit %d): %d multiplicands of %d bits do not fit in the %d-byte header", b, start, mult, bits, len(h))
			}
			r.skip(mult * bits)
			need += mult*4 + entries*dims*4
		} else if lookup != 0 {
			return total, nil // the decoder refuses the lookup type
		}
		if r.short {
			return total, fmt.Errorf("codebook %d (bit %d): cut short", b, start)
		}
		if total += need; total > maxVorbisTables {
			return total, fmt.Errorf("codebooks 0…%d need %d bytes of decoder tables, limit %d", b, total, maxVorbisTables)
		}
	}
	return total, nil
}

func bitLen(x uint64) uint {
	n := uint(0)
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

// lsbBits reads a Vorbis bitstream (least significant bit first). Reading
// past the end gives zeros and sets short: the decoder's reader gives
// zeros there too, which is how a short header declares large counts.
type lsbBits struct {
	data  []byte
	pos   uint64 // in bits
	short bool
}

func (r *lsbBits) read(n uint) uint64 {
	var v uint64
	for i := uint(0); i < n; i++ {
		if r.pos>>3 >= uint64(len(r.data)) {
			r.short = true
			return 0
		}
		v |= uint64(r.data[r.pos>>3]>>(r.pos&7)&1) << i
		r.pos++
	}
	return v
}

func (r *lsbBits) skip(n uint64) {
	if r.pos += n; r.pos > uint64(len(r.data))*8 {
		r.short = true
	}
}

// oggPackets returns an Ogg file's packets in order as jfreymuth/oggvorbis
// reads them: pages one after another from the start, each split by its
// lacing values, a packet left open at a page's end joined to the first of
// the next page; on the first page a continued packet is skipped. CRCs are
// not checked (the decoder does).
type oggPackets struct {
	data    []byte
	off     int      // next page
	packets [][]byte // of the current page; the last one is the open rest
	at      int      // next packet index
	pageOff int      // offset of the current page
	started bool
}

func (o *oggPackets) page() bool {
	d := o.data[o.off:]
	if len(d) < 27 || string(d[:4]) != "OggS" || d[4] != 0 {
		return false
	}
	nseg := int(d[26])
	if len(d) < 27+nseg {
		return false
	}
	seg := d[27 : 27+nseg]
	body := d[27+nseg:]
	o.packets = o.packets[:0]
	size, pos := 0, 0
	for _, s := range seg {
		size += int(s)
		if s < 255 {
			if pos+size > len(body) {
				return false
			}
			o.packets = append(o.packets, body[pos:pos+size])
			pos += size
			size = 0
		}
	}
	if pos+size > len(body) {
		return false
	}
	o.packets = append(o.packets, body[pos:pos+size])
	o.at = 0
	if !o.started && d[5]&1 != 0 {
		o.at = 1
	}
	o.started = true
	o.pageOff = o.off
	o.off += 27 + nseg + pos + size
	return true
}

// next returns the next whole packet and the offset of the page it ends on.
func (o *oggPackets) next() ([]byte, int, bool) {
	if !o.started && !o.page() {
		return nil, 0, false
	}
	if o.at > len(o.packets)-1 {
		return nil, 0, false // a continued packet alone on the first page: the decoder fails on it
	}
	var carry []byte // a packet open at the end of the pages read so far
	for o.at == len(o.packets)-1 {
		carry = append(carry, o.packets[o.at]...)
		if !o.page() {
			return nil, 0, false
		}
		if len(o.packets) > 1 && len(carry) > 0 {
			o.packets[0] = append(carry, o.packets[0]...)
			carry = nil
		}
	}
	p := o.packets[o.at]
	o.at++
	return p, o.pageOff, true
}
