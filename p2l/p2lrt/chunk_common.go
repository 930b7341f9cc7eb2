package p2lrt

import (
	"reflect"
	"slices"
)

// Minimum encoded sizes (bytes) of records, used to bound counts before
// allocating. Arrays take at least 8 bytes in v2 and 4 in v1; using 4 keeps
// one bound valid for both.
const (
	minArray    = 4
	minGrid     = 2
	minChannels = 1
	minBindings = 2
)

// maxDepth bounds the nesting of the draw tree and the PGUI tree.
const maxDepth = 256

// grid codes grid<F>: u16 axes (0xFFFF: no grid, and then nothing else)
// × { ref parameter, array<f32> keys }, u32 cells × { u16 coordinate[axes],
// F }. As rig.rs Grid::new: coordinates below their axis' key count, at
// most maxGridCombinations key combinations; cells may repeat coordinates
// (the last wins) and a grid without axes may hold several cells (the first
// is used). The spec sets no minimum cell count, so the reader takes a grid
// of 0 cells (every cell missing: the zero shape, RUNTIME.md 稀疏网格), which
// the callers replace by the equivalent grid rig.rs reads (zeroCellGrid);
// the writer refuses one, so that what it writes the reference reads.
func grid[T any](c *coder, g **Grid[T], minF int, f string, val func(c *coder, v *T)) {
	if !c.ok() {
		return
	}
	if c.read {
		var axes uint16
		c.u16(&axes, f+".axes")
		if !c.ok() {
			return
		}
		if axes == 0xFFFF {
			*g = nil
			return
		}
		c.pos -= 2 // let seq read the count
	} else if *g == nil {
		c.out = le.AppendUint16(c.out, 0xFFFF)
		return
	}
	if c.read {
		*g = new(Grid[T])
	}
	gr := *g
	c.push(f)
	if !c.read && len(gr.Axes) >= 0xFFFF {
		c.fail("axes", "too many axes (%d)", len(gr.Axes))
	}
	seq(c, &gr.Axes, 2, 4+minArray, "axes", func(c *coder, a *Axis) {
		c.ref(&a.Parameter, "parameter")
		c.keys(&a.Keys, true, "keys")
	})
	na := len(gr.Axes)
	if !c.ok() {
		c.pop()
		return
	}
	if combos := gridCombinations(gr.Axes); combos > maxGridCombinations {
		c.fail("axes", "%d key combinations exceed %d (the reference runtime's limit)", combos, maxGridCombinations)
		c.pop()
		return
	}
	pos := c.pos
	seq(c, &gr.Cells, 4, 2*na+minF, "cells", func(c *coder, cell *Cell[T]) {
		if c.read {
			if na > 0 {
				cell.Coord = make([]uint16, na)
			}
		} else if len(cell.Coord) != na {
			c.fail("coord", "has %d coordinates, grid has %d axes", len(cell.Coord), na)
			return
		}
		for a := range cell.Coord {
			p := c.pos
			c.u16(&cell.Coord[a], "coord")
			if c.ok() && int(cell.Coord[a]) >= len(gr.Axes[a].Keys) {
				c.failAt(p, "coord", "coordinate %d on axis %d is not below its %d keys", cell.Coord[a], a, len(gr.Axes[a].Keys))
				return
			}
		}
		val(c, &cell.Value)
	})
	if c.ok() && !c.read && len(gr.Cells) == 0 {
		c.failAt(pos, "cells", "a grid needs at least one cell (0xFFFF marks no grid; rig.rs Grid::new rejects 0 cells)")
	}
	c.pop()
}

// zeroCells reports whether a grid just read holds no cell: every
// combination of its keys is missing and counts as the zero shape.
func zeroCells[T any](c *coder, g *Grid[T]) bool {
	return c.read && c.ok() && g != nil && len(g.Cells) == 0
}

// zeroCellGrid is the grid a grid of 0 cells reads as where its zero shape
// is a value: no axes and one zero cell, which evaluates to that zero value
// at every pose, as every missing cell of the 0-cell grid does (and which
// rig.rs, which rejects 0 cells, reads).
func zeroCellGrid[T any]() *Grid[T] { return &Grid[T]{Cells: []Cell[T]{{}}} }

// maxGridCombinations is rig.rs Grid::new's bound on the product of a
// grid's key counts (its dense table).
const maxGridCombinations = 1 << 24

// gridCombinations is the product of the axes' key counts, saturating just
// above maxGridCombinations.
func gridCombinations(axes []Axis) int {
	n := 1
	for _, a := range axes {
		n *= max(len(a.Keys), 1)
		if n > maxGridCombinations {
			return maxGridCombinations + 1
		}
	}
	return n
}

// channelKinds is the value kind each channel requires.
var channelKinds = [...]ChannelKind{
	ChannelDrawOrder:     ChannelScalar,
	ChannelOpacity:       ChannelScalar,
	ChannelMultiply:      ChannelColor,
	ChannelScreen:        ChannelColor,
	ChannelFlipX:         ChannelFlag,
	ChannelFlipY:         ChannelFlag,
	ChannelGlueIntensity: ChannelScalar,
}

// channels codes u8 n × { u8 channel, u8 kind, grid<value> }. Each channel
// appears at most once; GlueIntensity only on glues, and glues carry only
// GlueIntensity.
func (c *coder) channels(p *[]Channel, glue bool, f string) {
	seen := 0
	seq(c, p, 1, 2+minGrid, f, func(c *coder, ch *Channel) {
		pos := c.pos
		c.max8((*uint8)(&ch.ID), uint8(ChannelGlueIntensity), "channel")
		c.max8((*uint8)(&ch.Kind), uint8(ChannelFlag), "kind")
		if !c.ok() {
			return
		}
		switch {
		case ch.Kind != channelKinds[ch.ID]:
			c.failAt(pos, "kind", "channel %d needs kind %d, got %d", ch.ID, channelKinds[ch.ID], ch.Kind)
		case glue != (ch.ID == ChannelGlueIntensity):
			c.failAt(pos, "channel", "channel %d not allowed here", ch.ID)
		case seen&(1<<ch.ID) != 0:
			c.failAt(pos, "channel", "channel %d appears twice", ch.ID)
		}
		seen |= 1 << ch.ID
		kind := ch.Kind
		size := [...]int{4, 12, 1}[kind]
		if !c.read && ch.Grid == nil {
			c.fail("grid", "a channel needs a grid (rig.rs channels rejects 0xFFFF)")
			return
		}
		gpos := c.pos
		grid(c, &ch.Grid, size, "grid", func(c *coder, v *ChannelValue) {
			switch kind {
			case ChannelScalar:
				c.f32(&v[0], "value")
			case ChannelColor:
				c.rgb((*Color)(v), "value")
			case ChannelFlag:
				if !c.read && (v[1] != 0 || v[2] != 0 || v[0] != 0 && v[0] != 1) {
					c.fail("value", "flag value must be (0 or 1, 0, 0), got %v", *v)
					return
				}
				b := v[0] == 1
				c.bool8(&b, "value")
				if c.read && b {
					v[0] = 1
				}
			}
		})
		if c.ok() && c.read && ch.Grid == nil {
			c.failAt(gpos, "grid", "a channel needs a grid (rig.rs channels rejects 0xFFFF)")
			return
		}
		if zeroCells(c, ch.Grid) {
			// Every cell missing: a scalar or colour channel is 0 at every
			// pose (channel.go eval), the grid of one zero cell; a flag
			// channel leaves the value before it (eval.rs apply_channels),
			// as no channel does, and is dropped below.
			ch.Grid = zeroCellGrid[ChannelValue]()
			if kind == ChannelFlag {
				ch.Grid = nil
			}
		}
	})
	if c.read && c.ok() {
		*p = slices.DeleteFunc(*p, func(ch Channel) bool { return ch.Grid == nil })
		if len(*p) == 0 {
			*p = nil
		}
	}
}

// bindings codes bindings<S> in the reference layout (P2lrt.kt bindings(),
// rig.rs bindings): u16 n × { ref parameter, array<f32> keys, u32 neutral,
// per key { u8 present, [S when present = 1] }, u16 n × { ref
// limit_parameter, u16 n × { f32 value, f32 weight } } }. Keys: at least
// one, non-decreasing; neutral below the key count. An absent key has the
// zero S in the model; the writer refuses a non-zero one (it could not be
// read back).
func bindings[S any](c *coder, p *[]Binding[S], f string, shape func(c *coder, s *S)) {
	seq(c, p, 2, 4+minArray+4+minBindings, f, func(c *coder, b *Binding[S]) {
		c.ref(&b.Parameter, "parameter")
		c.keys(&b.Keys, true, "keys")
		if !c.ok() {
			return
		}
		n := len(b.Keys)
		u := uint32(b.Neutral)
		if !c.read {
			if b.Neutral < 0 || b.Neutral >= n {
				c.fail("neutral", "neutral key %d out of range (%d keys)", b.Neutral, n)
				return
			}
			if len(b.Present) != n || len(b.Shapes) != n {
				c.fail("shapes", "Present and Shapes need one entry per key (%d), have %d and %d", n, len(b.Present), len(b.Shapes))
				return
			}
		}
		pos := c.pos
		c.u32(&u, "neutral")
		if c.read && c.ok() {
			if u >= uint32(n) {
				c.failAt(pos, "neutral", "neutral key %d out of range (%d keys)", u, n)
				return
			}
			b.Neutral = int(u)
			if n > c.remaining() {
				c.fail("shapes", "%d shapes do not fit in the %d bytes that remain", n, c.remaining())
				return
			}
			b.Present = make([]bool, n)
			b.Shapes = make([]S, n)
		}
		c.push("shapes")
		for i := 0; i < n && c.ok(); i++ {
			c.at(i)
			if !c.read && !b.Present[i] && !reflect.ValueOf(&b.Shapes[i]).Elem().IsZero() {
				c.fail("", "key %d is absent but its shape is not the zero value (an absent key stores no shape)", i)
				break
			}
			c.bool8(&b.Present[i], "present")
			if b.Present[i] {
				shape(c, &b.Shapes[i])
			}
		}
		c.pop()
		seq(c, &b.Limits, 2, 4+2, "limits", func(c *coder, l *Limit) {
			c.ref(&l.Parameter, "parameter")
			seq(c, &l.Points, 2, 8, "points", func(c *coder, lp *LimitPoint) {
				c.f32(&lp.Value, "value")
				c.f32(&lp.Weight, "weight")
			})
		})
	})
}

// composite codes the composite record.
func (c *coder) composite(p *Composite, f string) {
	c.push(f)
	c.max8((*uint8)(&p.Blend), NumBlendModes-1, "blend")
	c.max8((*uint8)(&p.AlphaBlend), NumAlphaModes-1, "alphaBlend")
	c.refs(&p.MaskMeshes, "maskMeshes")
	c.refs(&p.MaskParts, "maskParts")
	c.bool8(&p.InvertMask, "invertMask")
	c.f32(&p.Opacity, "opacity")
	c.rgb(&p.Multiply, "multiply")
	c.rgb(&p.Screen, "screen")
	c.pop()
}

const minComposite = 2 + 4 + 4 + 1 + 4 + 24

// flags8 codes a flag byte whose bits outside mask must be zero.
func (c *coder) flags8(p *uint8, mask uint8, f string) {
	pos := c.pos
	c.u8(p, f)
	if c.ok() && *p&^mask != 0 {
		c.failAt(pos, f, "reserved flag bits set (0x%02x)", *p)
	}
}

// curve codes f32 startTime, f32 startValue, u32 n × segment; segment =
// { u8 kind, [kind 1: f32 c1t, c1v, c2t, c2v], f32 t, f32 v }. Times are
// taken as written (rig.rs curve does not order them).
func (c *coder) curve(cv *Curve) {
	c.f32(&cv.Start.T, "startTime")
	c.f32(&cv.Start.V, "startValue")
	seq(c, &cv.Segments, 4, 9, "segments", func(c *coder, s *Segment) {
		c.max8((*uint8)(&s.Kind), uint8(SegmentInverseStepped), "kind")
		if s.Kind == SegmentBezier {
			c.f32(&s.C1.T, "c1t")
			c.f32(&s.C1.V, "c1v")
			c.f32(&s.C2.T, "c2t")
			c.f32(&s.C2.V, "c2v")
		} else if !c.read && (s.C1 != Point{} || s.C2 != Point{}) {
			c.fail("c1", "control points are only stored for Bezier segments; must be zero")
			return
		}
		c.f32(&s.End.T, "t")
		c.f32(&s.End.V, "v")
	})
}
