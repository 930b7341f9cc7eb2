package texture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
)

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// DecodePNG decodes PNG bytes into premultiplied RGBA. maxPixels bounds
// width×height (≤ 0: DefaultMaxPixels); the size is checked from the header
// before any pixel memory is allocated. An 8-bit image is premultiplied in
// the decoder's own buffer, so a page costs 4 bytes per texel (16-bit
// images 12 while being converted).
func DecodePNG(data []byte, maxPixels int) (*image.RGBA, error) {
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	return decodePNG(data, int64(maxPixels), nil)
}

// decodePNG decodes within left texels; a non-nil straight receives the
// straight-alpha texels as stored (a copy, Options.Straight), or nil for an
// opaque truecolor image (premultiplied and straight alike).
func decodePNG(data []byte, left int64, straight **image.NRGBA) (*image.RGBA, error) {
	if !bytes.HasPrefix(data, pngSignature) {
		return nil, fmt.Errorf("not a PNG (bad signature)")
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("PNG header: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("PNG has an empty size %d×%d", cfg.Width, cfg.Height)
	}
	if !fits(uint64(cfg.Width), uint64(cfg.Height), left) {
		return nil, overBudget("PNG size", uint64(cfg.Width), uint64(cfg.Height), left)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("PNG: %w", err)
	}
	if straight != nil {
		*straight = Straight(img)
		if *straight == img {
			*straight = cloneNRGBA(img.(*image.NRGBA)) // its pixels are premultiplied in place next
		}
	}
	switch s := img.(type) {
	case *image.NRGBA:
		return premultiplyInPlace(s), nil
	case *image.RGBA:
		if s.Rect.Min == (image.Point{}) {
			return s, nil // opaque truecolor: premultiplied already
		}
	}
	return Premultiply(img), nil
}

// premultiplyInPlace turns a straight-alpha image into the premultiplied
// image sharing its pixels (the two types have the same layout).
func premultiplyInPlace(s *image.NRGBA) *image.RGBA {
	w, h := s.Rect.Dx(), s.Rect.Dy()
	for y := 0; y < h; y++ {
		p := s.Pix[y*s.Stride : y*s.Stride+4*w]
		for x := 0; x+3 < len(p); x += 4 {
			// Most texels of a texture atlas are opaque or empty, where
			// mul8 is the identity and zero (TestMul8Exhaustive).
			switch a := uint32(p[x+3]); a {
			case 255:
			case 0:
				p[x], p[x+1], p[x+2] = 0, 0, 0
			default:
				p[x], p[x+1], p[x+2] = mul8(uint32(p[x]), a), mul8(uint32(p[x+1]), a), mul8(uint32(p[x+2]), a)
			}
		}
	}
	return &image.RGBA{Pix: s.Pix, Stride: s.Stride, Rect: image.Rect(0, 0, w, h)}
}

// mul8 is c·a/255 rounded to nearest, exact for all 8-bit inputs.
func mul8(c, a uint32) uint8 {
	t := c*a + 128
	return uint8((t + t>>8) >> 8)
}

// Premultiply converts any image to premultiplied 8-bit RGBA with its origin
// at (0, 0). Straight-alpha sources (NRGBA, NRGBA64, paletted) are
// premultiplied with rounding to nearest; images that are premultiplied
// already (RGBA, RGBA64, Gray, YCbCr, ...) keep their values (16-bit values
// are rounded to 8 bits).
func Premultiply(src image.Image) *image.RGBA {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	switch s := src.(type) {
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			sp := s.Pix[s.PixOffset(b.Min.X, b.Min.Y+y):]
			dp := dst.Pix[y*dst.Stride:]
			for x := 0; x < w; x++ {
				r, g, bl, a := uint32(sp[4*x]), uint32(sp[4*x+1]), uint32(sp[4*x+2]), uint32(sp[4*x+3])
				dp[4*x] = mul8(r, a)
				dp[4*x+1] = mul8(g, a)
				dp[4*x+2] = mul8(bl, a)
				dp[4*x+3] = uint8(a)
			}
		}
	case *image.RGBA:
		for y := 0; y < h; y++ {
			copy(dst.Pix[y*dst.Stride:y*dst.Stride+4*w], s.Pix[s.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.Paletted:
		var lut [256][4]uint8
		for i, c := range s.Palette {
			n := color.NRGBAModel.Convert(c).(color.NRGBA)
			a := uint32(n.A)
			lut[i] = [4]uint8{mul8(uint32(n.R), a), mul8(uint32(n.G), a), mul8(uint32(n.B), a), n.A}
		}
		for y := 0; y < h; y++ {
			sp := s.Pix[s.PixOffset(b.Min.X, b.Min.Y+y):]
			dp := dst.Pix[y*dst.Stride:]
			for x := 0; x < w; x++ {
				copy(dp[4*x:4*x+4], lut[sp[x]][:])
			}
		}
	default:
		// Generic path: straight 16-bit values when the model exposes
		// them, premultiplied in 16 bits, then rounded to 8 bits.
		for y := 0; y < h; y++ {
			dp := dst.Pix[y*dst.Stride:]
			for x := 0; x < w; x++ {
				c := color.NRGBA64Model.Convert(src.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA64)
				a := uint64(c.A)
				p := func(v uint16) uint8 {
					pm := (uint64(v)*a + 32767) / 65535 // premultiplied, 16 bits
					return uint8((pm*255 + 32767) / 65535)
				}
				dp[4*x] = p(c.R)
				dp[4*x+1] = p(c.G)
				dp[4*x+2] = p(c.B)
				dp[4*x+3] = uint8((a*255 + 32767) / 65535)
			}
		}
	}
	return dst
}

// Straight returns src's straight-alpha 8-bit texels when src stores
// straight alpha (NRGBA, NRGBA64, paletted), with its origin at (0, 0), and
// nil when it does not: premultiplied images (RGBA, RGBA64) have lost the
// colour of texels of small alpha, and opaque ones (gray, YCbCr) have
// nothing to lose. An *image.NRGBA at the origin is returned as it is.
func Straight(src image.Image) *image.NRGBA {
	switch s := src.(type) {
	case *image.NRGBA:
		if s.Rect.Min == (image.Point{}) {
			return s
		}
	case *image.NRGBA64, *image.Paletted:
	default:
		return nil
	}
	b := src.Bounds()
	dst := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			dst.SetNRGBA(x, y, color.NRGBAModel.Convert(src.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA))
		}
	}
	return dst
}

func cloneNRGBA(s *image.NRGBA) *image.NRGBA {
	c := *s
	c.Pix = append([]byte(nil), s.Pix...)
	return &c
}
