package texture

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"

	"github.com/klauspost/compress/zstd"
)

// The KTX 2.0 file identifier («KTX 20»\r\n\x1A\n).
var ktx2Identifier = [12]byte{0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'}

// Vulkan formats this package decodes (VkFormat values).
const (
	vkR8G8B8A8UNORM = 37
	vkR8G8B8A8SRGB  = 43
	vkB8G8R8A8UNORM = 44
	vkB8G8R8A8SRGB  = 50
)

// KTX2 supercompression schemes.
const (
	superNone  = 0
	superBasis = 1
	superZstd  = 2
	superZlib  = 3
)

// KTX2Header is the part of a KTX2 header this package reads.
type KTX2Header struct {
	VkFormat              uint32 // Vulkan format number (FormatName names it)
	TypeSize              uint32
	Width, Height, Depth  uint32 // pixel size of level 0
	Layers, Faces, Levels uint32 // array layers, cube faces, mip levels
	Supercompression      uint32 // 0 none, 2 Zstandard, 3 zlib
	DFDOffset, DFDLength  uint32 // the data format descriptor
	Level0Offset          uint64 // file offset of level 0
	Level0Length          uint64 // stored bytes of level 0
	Level0Uncompressed    uint64 // bytes of level 0 after supercompression is undone
	AlphaPremultiplied    bool   // the DFD's premultiplied-alpha flag
}

// FormatName names a VkFormat this package knows, or gives its number.
func FormatName(vk uint32) string {
	switch vk {
	case vkR8G8B8A8UNORM:
		return "R8G8B8A8_UNORM"
	case vkR8G8B8A8SRGB:
		return "R8G8B8A8_SRGB"
	case vkB8G8R8A8UNORM:
		return "B8G8R8A8_UNORM"
	case vkB8G8R8A8SRGB:
		return "B8G8R8A8_SRGB"
	case 0:
		return "UNDEFINED (Basis Universal)"
	}
	return fmt.Sprintf("VkFormat %d", vk)
}

// ParseKTX2Header reads and checks a KTX2 header, its index and the entry of
// level 0 (the full-size image). It checks that every range it names lies
// inside data.
func ParseKTX2Header(data []byte) (KTX2Header, error) {
	var h KTX2Header
	if len(data) < 80 {
		return h, fmt.Errorf("KTX2: %d bytes is shorter than the 80-byte header", len(data))
	}
	if !bytes.Equal(data[:12], ktx2Identifier[:]) {
		return h, errors.New("KTX2: bad file identifier")
	}
	le := binary.LittleEndian
	u32 := func(off int) uint32 { return le.Uint32(data[off:]) }
	h.VkFormat = u32(12)
	h.TypeSize = u32(16)
	h.Width = u32(20)
	h.Height = u32(24)
	h.Depth = u32(28)
	h.Layers = u32(32)
	h.Faces = u32(36)
	h.Levels = u32(40)
	h.Supercompression = u32(44)
	h.DFDOffset = u32(48)
	h.DFDLength = u32(52)
	levels := uint64(h.Levels)
	if levels == 0 {
		levels = 1
	}
	// Level index: 24 bytes per level, after the 80-byte header.
	if levels > uint64(len(data)) || 80+24*levels > uint64(len(data)) {
		return h, fmt.Errorf("KTX2: level index of %d levels runs past the end of the file", h.Levels)
	}
	h.Level0Offset = le.Uint64(data[80:])
	h.Level0Length = le.Uint64(data[88:])
	h.Level0Uncompressed = le.Uint64(data[96:])
	if h.Level0Offset > uint64(len(data)) || h.Level0Length > uint64(len(data))-h.Level0Offset {
		return h, fmt.Errorf("KTX2: level 0 (offset %d, %d bytes) lies outside the %d-byte file", h.Level0Offset, h.Level0Length, len(data))
	}
	if h.DFDLength >= 16 && uint64(h.DFDOffset)+uint64(h.DFDLength) <= uint64(len(data)) {
		// Data format descriptor: u32 total size, then the basic block:
		// u32 vendor/type, u32 version/size, u8 colorModel, primaries,
		// transfer, flags. Flag bit 0 is KHR_DF_FLAG_ALPHA_PREMULTIPLIED.
		h.AlphaPremultiplied = data[h.DFDOffset+4+8+3]&1 != 0
	}
	return h, nil
}

// DecodeKTX2 decodes the base level of a KTX2 texture in one of the
// uncompressed 8-bit RGBA/BGRA formats (UNORM or SRGB, no supercompression,
// Zstandard or zlib) into premultiplied RGBA. Other formats give an error
// wrapping ErrUnsupported. Array and cube textures give their first layer
// and face. maxPixels bounds width×height (≤ 0: DefaultMaxPixels).
func DecodeKTX2(data []byte, maxPixels int) (*image.RGBA, error) {
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	img, _, err := decodeKTX2(data, int64(maxPixels), nil)
	return img, err
}

// decodeKTX2 decodes within left texels. The image is allocated once, from
// the header's size after the budget check, and a supercompressed level is
// inflated straight into it: a page costs 4 bytes per texel plus the
// decompressor's window. A non-nil straight receives a copy of the
// texels as stored when they are straight alpha (Options.Straight).
func decodeKTX2(data []byte, left int64, straight **image.NRGBA) (*image.RGBA, string, error) {
	h, err := ParseKTX2Header(data)
	if err != nil {
		return nil, "", err
	}
	name := FormatName(h.VkFormat)
	bgra := false
	switch h.VkFormat {
	case vkR8G8B8A8UNORM, vkR8G8B8A8SRGB:
	case vkB8G8R8A8UNORM, vkB8G8R8A8SRGB:
		bgra = true
	default:
		return nil, name, fmt.Errorf("%w: KTX2 %s (only uncompressed 8-bit RGBA/BGRA decodes here)", ErrUnsupported, name)
	}
	if h.Width == 0 || h.Height == 0 {
		return nil, name, fmt.Errorf("KTX2: empty size %d×%d", h.Width, h.Height)
	}
	if h.Depth > 1 {
		return nil, name, fmt.Errorf("%w: KTX2 3D texture (depth %d)", ErrUnsupported, h.Depth)
	}
	if !fits(uint64(h.Width), uint64(h.Height), left) {
		return nil, name, overBudget("KTX2 size", uint64(h.Width), uint64(h.Height), left)
	}
	need := uint64(h.Width) * uint64(h.Height) * 4
	level := data[h.Level0Offset : h.Level0Offset+h.Level0Length]
	w, ht := int(h.Width), int(h.Height)
	var img *image.RGBA
	var pix []byte
	switch h.Supercompression {
	case superNone:
		if uint64(len(level)) < need {
			return nil, name, fmt.Errorf("KTX2: level 0 holds %d bytes, a %d×%d RGBA image needs %d", len(level), h.Width, h.Height, need)
		}
		pix = level[:need]
		img = image.NewRGBA(image.Rect(0, 0, w, ht))
	case superZstd, superZlib:
		img = image.NewRGBA(image.Rect(0, 0, w, ht))
		if err := inflate(h.Supercompression, level, img.Pix); err != nil {
			return nil, name, fmt.Errorf("KTX2 level 0: %w", err)
		}
		pix = img.Pix // converted in place below
	case superBasis:
		return nil, name, fmt.Errorf("%w: KTX2 BasisLZ supercompression", ErrUnsupported)
	default:
		return nil, name, fmt.Errorf("%w: KTX2 supercompression scheme %d", ErrUnsupported, h.Supercompression)
	}
	if straight != nil && !h.AlphaPremultiplied {
		s := image.NewNRGBA(image.Rect(0, 0, w, ht))
		copy(s.Pix, pix[:need])
		if bgra {
			for i := 0; i+3 < len(s.Pix); i += 4 {
				s.Pix[i], s.Pix[i+2] = s.Pix[i+2], s.Pix[i]
			}
		}
		*straight = s
	}
	for i := 0; i < w*ht; i++ {
		s := pix[4*i : 4*i+4 : 4*i+4]
		r, g, b, a := s[0], s[1], s[2], s[3]
		if bgra {
			r, b = b, r
		}
		d := img.Pix[4*i : 4*i+4 : 4*i+4]
		if h.AlphaPremultiplied {
			// Already premultiplied; clamp colour to alpha so the image
			// satisfies image.RGBA's invariant.
			d[0], d[1], d[2] = min(r, a), min(g, a), min(b, a)
		} else {
			d[0], d[1], d[2] = mul8(uint32(r), uint32(a)), mul8(uint32(g), uint32(a)), mul8(uint32(b), uint32(a))
		}
		d[3] = a
	}
	return img, name, nil
}

// inflate decompresses a supercompressed level into dst, which must be
// filled completely (the first layer and face of the base level; more data
// after it is ignored).
func inflate(scheme uint32, src []byte, dst []byte) error {
	var r io.Reader
	switch scheme {
	case superZstd:
		// A level holding exactly the image decodes in one call straight
		// into dst (no history window). Other levels (array layers, cube
		// faces after the first) stream: the decoder's window, which the
		// frame header chooses, is bounded by the larger of the image and
		// 8 MiB, and a frame declaring more than 64 images of data is
		// refused.
		fc, known := zstdContentSize(src)
		if known && fc == uint64(len(dst)) {
			d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(len(dst))))
			if err != nil {
				return err
			}
			defer d.Close()
			out, err := d.DecodeAll(src, dst[:0])
			if err != nil {
				return err
			}
			if len(out) != len(dst) || &out[0] != &dst[0] {
				return fmt.Errorf("decompressed data holds %d bytes, the image needs %d", len(out), len(dst))
			}
			return nil
		}
		limit := uint64(len(dst)) + 1<<20
		if known {
			if fc/64 > uint64(len(dst)) {
				return fmt.Errorf("zstd frame declares %d bytes, more than 64 times the %d-byte image", fc, len(dst))
			}
			limit = max(limit, fc)
		}
		window := min(max(uint64(len(dst)), 8<<20), zstd.MaxWindowSize)
		d, err := zstd.NewReader(bytes.NewReader(src), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(window), zstd.WithDecoderMaxMemory(limit))
		if err != nil {
			return err
		}
		defer d.Close()
		r = d
	case superZlib:
		z, err := zlib.NewReader(bytes.NewReader(src))
		if err != nil {
			return err
		}
		defer z.Close()
		r = z
	}
	n, err := io.ReadFull(r, dst)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return fmt.Errorf("decompressed data holds %d bytes, the image needs %d", n, len(dst))
	}
	return err
}

// zstdContentSize returns the decompressed size a zstd stream's first frame
// header declares, if it declares one.
func zstdContentSize(src []byte) (uint64, bool) {
	var h zstd.Header
	if err := h.Decode(src); err != nil || !h.HasFCS {
		return 0, false
	}
	return h.FrameContentSize, true
}
