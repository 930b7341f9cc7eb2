package main

import (
	"image"
	"image/color"
	"sort"
)

// This file builds the GIF palette of `p2l render --gif`: one palette for
// the whole clip, by median cut over a histogram of every opaque pixel of
// every frame, with index 0 reserved for transparency. GIF has 1-bit
// transparency, so flattenAlpha first makes every pixel opaque or
// transparent (see there); the palette and mapping then treat alpha < 128
// as transparent.

const (
	qBits    = 5 // histogram precision per channel
	qLevels  = 1 << qBits
	qBins    = qLevels * qLevels * qLevels
	alphaCut = 128
)

func qIndex(r, g, b uint8) int {
	return int(r>>(8-qBits))<<(2*qBits) | int(g>>(8-qBits))<<qBits | int(b>>(8-qBits))
}

// histogram accumulates pixel counts and colour sums per 15-bit bin.
type histogram struct {
	count []uint64
	sum   [][3]uint64
}

func newHistogram() *histogram {
	return &histogram{count: make([]uint64, qBins), sum: make([][3]uint64, qBins)}
}

// add counts the opaque pixels of a straight-alpha frame.
func (h *histogram) add(img *image.NRGBA) {
	for i := 0; i+3 < len(img.Pix); i += 4 {
		p := img.Pix[i : i+4 : i+4]
		if p[3] < alphaCut {
			continue
		}
		k := qIndex(p[0], p[1], p[2])
		h.count[k]++
		h.sum[k][0] += uint64(p[0])
		h.sum[k][1] += uint64(p[1])
		h.sum[k][2] += uint64(p[2])
	}
}

// box is a set of histogram bins, a box in the quantized colour cube.
type box struct {
	bins  []int
	count uint64
}

// medianCut splits the occupied bins into at most n boxes: repeatedly the
// box with the most pixels (that can still be split) is cut at the pixel
// median of its widest channel. Each box's colour is its pixels' mean.
func (h *histogram) medianCut(n int) color.Palette {
	var all []int
	var total uint64
	for k, c := range h.count {
		if c > 0 {
			all = append(all, k)
			total += c
		}
	}
	if len(all) == 0 {
		return nil
	}
	boxes := []box{{bins: all, count: total}}
	for len(boxes) < n {
		best := -1
		for i, b := range boxes {
			if len(b.bins) > 1 && (best < 0 || b.count > boxes[best].count) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		b := boxes[best]
		ch := widestChannel(b.bins)
		shift := uint(2-ch) * qBits
		sort.Slice(b.bins, func(i, j int) bool {
			ci, cj := (b.bins[i]>>shift)&(qLevels-1), (b.bins[j]>>shift)&(qLevels-1)
			if ci != cj {
				return ci < cj
			}
			return b.bins[i] < b.bins[j]
		})
		var acc uint64
		cut := 1
		for i, k := range b.bins[:len(b.bins)-1] {
			acc += h.count[k]
			cut = i + 1
			if acc*2 >= b.count {
				break
			}
		}
		left, right := box{bins: b.bins[:cut]}, box{bins: b.bins[cut:]}
		for _, k := range left.bins {
			left.count += h.count[k]
		}
		right.count = b.count - left.count
		boxes[best] = left
		boxes = append(boxes, right)
	}
	pal := make(color.Palette, 0, len(boxes))
	for _, b := range boxes {
		var s [3]uint64
		for _, k := range b.bins {
			s[0] += h.sum[k][0]
			s[1] += h.sum[k][1]
			s[2] += h.sum[k][2]
		}
		pal = append(pal, color.NRGBA{uint8((s[0] + b.count/2) / b.count), uint8((s[1] + b.count/2) / b.count), uint8((s[2] + b.count/2) / b.count), 255})
	}
	return pal
}

func widestChannel(bins []int) int {
	var lo, hi [3]int
	for c := range lo {
		lo[c], hi[c] = qLevels, -1
	}
	for _, k := range bins {
		for c := 0; c < 3; c++ {
			v := (k >> (uint(2-c) * qBits)) & (qLevels - 1)
			lo[c] = min(lo[c], v)
			hi[c] = max(hi[c], v)
		}
	}
	ch := 0
	for c := 1; c < 3; c++ {
		if hi[c]-lo[c] > hi[ch]-lo[ch] {
			ch = c
		}
	}
	return ch
}

// mapper maps colours to palette indices, with a per-bin cache of the
// nearest entry (palette index 0 is transparent and never chosen).
type mapper struct {
	pal   color.Palette
	cache []int16
}

func newMapper(pal color.Palette) *mapper {
	m := &mapper{pal: pal, cache: make([]int16, qBins)}
	for i := range m.cache {
		m.cache[i] = -1
	}
	return m
}

func (m *mapper) nearest(r, g, b int) uint8 {
	r, g, b = clamp255(r), clamp255(g), clamp255(b)
	k := qIndex(uint8(r), uint8(g), uint8(b))
	if c := m.cache[k]; c >= 0 {
		return uint8(c)
	}
	// Search from the bin's centre so the cache holds one answer per bin.
	cr := int(uint8(r)>>(8-qBits))<<(8-qBits) | 1<<(7-qBits)
	cg := int(uint8(g)>>(8-qBits))<<(8-qBits) | 1<<(7-qBits)
	cb := int(uint8(b)>>(8-qBits))<<(8-qBits) | 1<<(7-qBits)
	best, bestD := 1, -1
	for i := 1; i < len(m.pal); i++ {
		p := m.pal[i].(color.NRGBA)
		dr, dg, db := cr-int(p.R), cg-int(p.G), cb-int(p.B)
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if bestD < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	m.cache[k] = int16(best)
	return uint8(best)
}

func clamp255(v int) int { return max(0, min(255, v)) }

// paletted converts a straight-alpha frame to the shared palette; pixels
// with alpha < 128 take index 0 (transparent). With dither, the colour
// error is spread Floyd–Steinberg style over opaque neighbours.
func (m *mapper) paletted(img *image.NRGBA, dither bool) *image.Paletted {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewPaletted(image.Rect(0, 0, w, h), m.pal)
	var cur, next [][3]int
	if dither {
		cur, next = make([][3]int, w+2), make([][3]int, w+2)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := img.Pix[y*img.Stride+4*x : y*img.Stride+4*x+4]
			if p[3] < alphaCut {
				out.Pix[y*out.Stride+x] = 0
				continue
			}
			r, g, bl := int(p[0]), int(p[1]), int(p[2])
			if dither {
				e := cur[x+1]
				r, g, bl = r+e[0]/16, g+e[1]/16, bl+e[2]/16
			}
			i := m.nearest(r, g, bl)
			out.Pix[y*out.Stride+x] = i
			if dither {
				q := m.pal[i].(color.NRGBA)
				er, eg, eb := clamp255(r)-int(q.R), clamp255(g)-int(q.G), clamp255(bl)-int(q.B)
				for _, d := range [4]struct{ dx, w int }{{1, 7}, {-1, 3}, {0, 5}, {1, 1}} {
					row := next
					if d.w == 7 {
						row = cur
					}
					row[x+1+d.dx][0] += er * d.w
					row[x+1+d.dx][1] += eg * d.w
					row[x+1+d.dx][2] += eb * d.w
				}
			}
		}
		if dither {
			cur, next = next, cur
			clear(next)
		}
	}
	return out
}

// bayer8 is the 8×8 ordered-dither (Bayer) matrix, values 0..63.
var bayer8 = [8][8]uint8{
	{0, 32, 8, 40, 2, 34, 10, 42},
	{48, 16, 56, 24, 50, 18, 58, 26},
	{12, 44, 4, 36, 14, 46, 6, 38},
	{60, 28, 52, 20, 62, 30, 54, 22},
	{3, 35, 11, 43, 1, 33, 9, 41},
	{51, 19, 59, 27, 49, 17, 57, 25},
	{15, 47, 7, 39, 13, 45, 5, 37},
	{63, 31, 55, 23, 61, 29, 53, 21},
}

// flattenAlpha makes every pixel of a straight-alpha frame fully opaque or
// fully transparent, which is all GIF can store, without cutting soft edges
// hard. With a matte colour, a translucent pixel is composited onto the
// matte and becomes opaque (right on a page of that colour, as image
// editors' "matte" export). Without one, a pixel of alpha a stays opaque
// (its own colour) where a exceeds the ordered-dither threshold of its
// position (4·bayer + 2, in 0..254), so an edge keeps its coverage as a
// density of opaque pixels that looks right over any background and, being
// tied to the position, does not flicker between frames. Fully transparent
// and fully opaque pixels are unchanged.
func flattenAlpha(img *image.NRGBA, matte *color.NRGBA) {
	b := img.Bounds()
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*b.Dx()]
		for x := 0; x+3 < len(row); x += 4 {
			p := row[x : x+4 : x+4]
			a := p[3]
			if a == 0 || a == 255 {
				continue
			}
			if matte != nil {
				for c, m := range [3]uint8{matte.R, matte.G, matte.B} {
					p[c] = uint8((int(p[c])*int(a) + int(m)*(255-int(a)) + 127) / 255)
				}
				p[3] = 255
				continue
			}
			if int(a) > 4*int(bayer8[y&7][(x/4)&7])+2 {
				p[3] = 255
			} else {
				p[3] = 0
			}
		}
	}
}
