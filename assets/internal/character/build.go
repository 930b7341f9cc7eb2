// Package character builds the default p2l-ebiten character procedurally:
// its textures are painted with golang.org/x/image/vector and its rig
// (deformers, keyforms, physics, clips, expressions, pose, hit areas, the
// parameter panel) is written in code. Build is deterministic: the same
// program gives the same model, byte for byte once written.
package character

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"sort"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// axisSpec is one keyform axis: a parameter id and its keys.
type axisSpec struct {
	param string
	keys  []float32
}

// defSpec describes one deformer. Geometry is given in canvas pixels at rest
// (all parameters at their defaults); the builder converts it to the parent's
// space. At rest every deformer is an axis-aligned frame (a regular warp grid
// or an unrotated, unscaled rotation), so canvas → local is affine.
type defSpec struct {
	id     string
	parent string // "" for the root
	part   string
	rot    bool

	// Warp: canvas rectangle and grid size; warp(k, p) returns the canvas
	// displacement of grid point p at the key values k (one per axis).
	x0, y0, x1, y1 float64
	cols, rows     int
	warp           func(k []float32, p pt) pt

	// Rotation: canvas origin; rotate(k) returns the origin displacement in
	// canvas pixels and the angle in degrees.
	origin pt
	rotate func(k []float32) (d pt, angle float64)

	axes []axisSpec
}

// frame maps a canvas point at rest to this deformer's local space.
func (d *defSpec) frame(p pt) pt {
	if d == nil {
		return p
	}
	if d.rot {
		return p.sub(d.origin)
	}
	return pt{(p.X - d.x0) / (d.x1 - d.x0), (p.Y - d.y0) / (d.y1 - d.y0)}
}

// frameDelta maps a canvas displacement at rest to this deformer's space.
func (d *defSpec) frameDelta(v pt) pt {
	if d == nil || d.rot {
		return v
	}
	return pt{v.X / (d.x1 - d.x0), v.Y / (d.y1 - d.y0)}
}

// meshSpec describes one mesh (one painted layer).
type meshSpec struct {
	id, name string
	part     string
	parent   string
	img      *image.RGBA
	cols     int // grid columns, 0: automatic
	rows     int
	blend    p2lrt.BlendMode
	masks    []string

	axes   []axisSpec
	deform func(k []float32, p pt) pt // canvas displacement of vertex p

	opacityAxis *axisSpec
	opacity     func(v float32) float32

	// Filled by the builder.
	rect  image.Rectangle
	atlas image.Point
}

type builder struct {
	m       *p2lrt.File
	params  map[string]int
	defs    map[string]*defSpec
	defIdx  map[string]int
	parts   map[string]int
	meshIdx map[string]int
	// partSpecs parallels Model.Parts.
	partSpecs []partSpec
}

func (b *builder) param(id string) int {
	i, ok := b.params[id]
	if !ok {
		panic("character: unknown parameter " + id) // programming error in this generator
	}
	return i
}

// grid builds a dense keyform grid over axes; value is called with the key
// values of each cell. The first axis varies fastest.
func grid[T any](b *builder, axes []axisSpec, value func(k []float32) T) *p2lrt.Grid[T] {
	g := &p2lrt.Grid[T]{}
	n := 1
	for _, a := range axes {
		g.Axes = append(g.Axes, p2lrt.Axis{Parameter: b.param(a.param), Keys: a.keys})
		n *= len(a.keys)
	}
	for c := 0; c < n; c++ {
		coord := make([]uint16, len(axes))
		k := make([]float32, len(axes))
		r := c
		for i, a := range axes {
			coord[i] = uint16(r % len(a.keys))
			k[i] = a.keys[coord[i]]
			r /= len(a.keys)
		}
		g.Cells = append(g.Cells, p2lrt.Cell[T]{Coord: coord, Value: value(k)})
	}
	return g
}

// Build paints and rigs the default character.
func Build() (*p2lrt.File, error) {
	b := &builder{
		m:       &p2lrt.File{},
		params:  map[string]int{},
		defs:    map[string]*defSpec{},
		defIdx:  map[string]int{},
		parts:   map[string]int{},
		meshIdx: map[string]int{},
	}
	m := b.m
	m.Canvas = p2lrt.Canvas{Width: W, Height: H, OriginX: W / 2, OriginY: H / 2, PixelsPerUnit: H}
	for _, p := range parameters {
		b.params[p.ID] = len(m.Parameters)
		m.Parameters = append(m.Parameters, p)
	}
	for _, p := range partList {
		b.parts[p.id] = len(m.Parts)
		b.partSpecs = append(b.partSpecs, p)
		m.Parts = append(m.Parts, p2lrt.Part{
			ID: p.id, Name: p.name, Flags: p2lrt.PartVisible, GroupMode: p.mode, DrawOrder: p.order,
			Composite: neutralComposite(),
		})
	}
	for _, d := range deformers() {
		if err := b.addDeformer(d); err != nil {
			return nil, err
		}
	}
	meshes := b.meshes()
	page, err := b.pack(meshes)
	if err != nil {
		return nil, err
	}
	m.Textures = []p2lrt.TexturePage{page}
	for i, ms := range meshes {
		b.addMesh(ms, i, page)
	}
	b.drawTree(meshes)
	b.animation()
	if err := b.advanced(); err != nil {
		return nil, err
	}
	return m, nil
}

func neutralComposite() p2lrt.Composite {
	return p2lrt.Composite{Blend: p2lrt.BlendNormal, AlphaBlend: p2lrt.AlphaOver, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}
}

func (b *builder) addDeformer(d *defSpec) error {
	parent := -1
	var pd *defSpec
	if d.parent != "" {
		i, ok := b.defIdx[d.parent]
		if !ok {
			return fmt.Errorf("deformer %s: parent %s not defined before it", d.id, d.parent)
		}
		parent, pd = i, b.defs[d.parent]
	}
	part := -1
	if d.part != "" {
		part = b.parts[d.part]
	}
	rec := p2lrt.Deformer{
		ID: d.id, Parent: parent, Part: part,
		Flags:   p2lrt.DeformerVisible | p2lrt.DeformerEnabled,
		Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
	}
	if d.rot {
		rec.Kind = p2lrt.RotationDeformer
		rec.Rotation = &p2lrt.Rotation{Keyforms: grid(b, d.axes, func(k []float32) p2lrt.RotationKey {
			dv, a := d.rotate(k)
			o := pd.frame(d.origin.add(dv))
			return p2lrt.RotationKey{X: float32(o.X), Y: float32(o.Y), Angle: float32(a), Scale: 1}
		})}
	} else {
		rec.Kind = p2lrt.WarpDeformer
		rec.Warp = &p2lrt.Warp{Columns: d.cols, Rows: d.rows, Keyforms: grid(b, d.axes, func(k []float32) []float32 {
			pts := make([]float32, 0, 2*(d.cols+1)*(d.rows+1))
			for r := 0; r <= d.rows; r++ {
				for c := 0; c <= d.cols; c++ {
					p := pt{lerpf(d.x0, d.x1, float64(c)/float64(d.cols)), lerpf(d.y0, d.y1, float64(r)/float64(d.rows))}
					q := pd.frame(p.add(d.warp(k, p)))
					pts = append(pts, float32(q.X), float32(q.Y))
				}
			}
			return pts
		})}
	}
	b.defIdx[d.id] = len(b.m.Deformers)
	b.defs[d.id] = d
	b.m.Deformers = append(b.m.Deformers, rec)
	return nil
}

// pad is the transparent border kept around each sprite in the atlas so that
// bilinear sampling at a mesh edge never reads a neighbour.
const pad = 3

// pageWidth is the atlas width.
const pageWidth = 2048

// pack crops every layer to its painted bounds and packs the crops into one
// atlas page with a shelf packer (tallest first, ties by id for stability).
func (b *builder) pack(ms []*meshSpec) (p2lrt.TexturePage, error) {
	for _, s := range ms {
		r := image.Rectangle{}
		for y := 0; y < H; y++ {
			row := s.img.Pix[y*s.img.Stride : y*s.img.Stride+4*W]
			for x := 0; x < W; x++ {
				if row[4*x+3] != 0 {
					r = r.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
		if r.Empty() {
			return p2lrt.TexturePage{}, fmt.Errorf("layer %s is empty", s.id)
		}
		s.rect = r.Inset(-1).Intersect(image.Rect(0, 0, W, H))
	}
	order := make([]*meshSpec, len(ms))
	copy(order, ms)
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].rect.Dy() != order[j].rect.Dy() {
			return order[i].rect.Dy() > order[j].rect.Dy()
		}
		return order[i].id < order[j].id
	})
	x, y, shelf := 0, 0, 0
	for _, s := range order {
		w, h := s.rect.Dx()+2*pad, s.rect.Dy()+2*pad
		if x+w > pageWidth {
			x, y, shelf = 0, y+shelf, 0
		}
		s.atlas = image.Pt(x+pad, y+pad)
		x += w
		if h > shelf {
			shelf = h
		}
	}
	height := (y + shelf + 3) &^ 3
	atlas := image.NewNRGBA(image.Rect(0, 0, pageWidth, height))
	for _, s := range ms {
		for yy := s.rect.Min.Y; yy < s.rect.Max.Y; yy++ {
			for xx := s.rect.Min.X; xx < s.rect.Max.X; xx++ {
				i := s.img.PixOffset(xx, yy)
				a := s.img.Pix[i+3]
				if a == 0 {
					continue
				}
				// Un-premultiply: textures are straight alpha.
				o := atlas.PixOffset(s.atlas.X+xx-s.rect.Min.X, s.atlas.Y+yy-s.rect.Min.Y)
				for c := 0; c < 3; c++ {
					v := (uint32(s.img.Pix[i+c])*255 + uint32(a)/2) / uint32(a)
					if v > 255 {
						v = 255
					}
					atlas.Pix[o+c] = uint8(v)
				}
				atlas.Pix[o+3] = a
			}
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, atlas); err != nil {
		return p2lrt.TexturePage{}, err
	}
	return p2lrt.TexturePage{Kind: p2lrt.TexturePNG, Width: pageWidth, Height: uint32(height), Data: buf.Bytes()}, nil
}

// addMesh turns a packed layer into a grid mesh. Cells whose texels are all
// transparent get no triangles (their vertices stay, unused, so the grid
// keyforms keep a regular layout).
func (b *builder) addMesh(s *meshSpec, order int, page p2lrt.TexturePage) {
	r := s.rect
	cols, rows := s.cols, s.rows
	if cols == 0 {
		cols = clampInt(int(math.Round(float64(r.Dx())/36)), 2, 14)
	}
	if rows == 0 {
		rows = clampInt(int(math.Round(float64(r.Dy())/36)), 2, 14)
	}
	var pd *defSpec
	parent := -1
	if s.parent != "" {
		parent, pd = b.defIdx[s.parent], b.defs[s.parent]
	}
	var canvas []pt
	mesh := p2lrt.Mesh{
		ID: s.id, Name: s.name, Parent: parent, Blend: s.blend, AlphaBlend: p2lrt.AlphaOver,
		Flags: p2lrt.MeshVisible | p2lrt.MeshGeometry, TexturePage: 0,
		DrawOrder: float32(100 + 10*order), Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
	}
	for j := 0; j <= rows; j++ {
		for i := 0; i <= cols; i++ {
			p := pt{lerpf(float64(r.Min.X), float64(r.Max.X), float64(i)/float64(cols)),
				lerpf(float64(r.Min.Y), float64(r.Max.Y), float64(j)/float64(rows))}
			canvas = append(canvas, p)
			l := pd.frame(p)
			mesh.Positions = append(mesh.Positions, float32(l.X), float32(l.Y))
			u := (p.X - float64(r.Min.X) + float64(s.atlas.X)) / float64(page.Width)
			v := (p.Y - float64(r.Min.Y) + float64(s.atlas.Y)) / float64(page.Height)
			mesh.UVs = append(mesh.UVs, float32(u), float32(v))
		}
	}
	for j := 0; j < rows; j++ {
		for i := 0; i < cols; i++ {
			if cellEmpty(s.img, canvas[j*(cols+1)+i], canvas[(j+1)*(cols+1)+i+1]) {
				continue
			}
			a := uint32(j*(cols+1) + i)
			bb, c, d := a+1, a+uint32(cols+1), a+uint32(cols+2)
			mesh.Indices = append(mesh.Indices, a, bb, c, bb, d, c)
		}
	}
	mesh.Keyforms = grid(b, s.axes, func(k []float32) []float32 {
		out := make([]float32, 2*len(canvas))
		if s.deform == nil {
			return out
		}
		for i, p := range canvas {
			d := pd.frameDelta(s.deform(k, p))
			out[2*i], out[2*i+1] = float32(d.X), float32(d.Y)
		}
		return out
	})
	for _, id := range s.masks {
		mesh.Masks = append(mesh.Masks, b.meshIdx[id])
	}
	if s.opacityAxis != nil {
		mesh.Channels = append(mesh.Channels, p2lrt.Channel{
			ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar,
			Grid: grid(b, []axisSpec{*s.opacityAxis}, func(k []float32) p2lrt.ChannelValue {
				return p2lrt.ChannelValue{s.opacity(k[0])}
			}),
		})
		mesh.Opacity = s.opacity(0)
	}
	b.meshIdx[s.id] = len(b.m.Meshes)
	p := b.parts[s.part]
	b.m.Parts[p].Children = append(b.m.Parts[p].Children, p2lrt.PartChild{Kind: p2lrt.ChildMesh, Index: len(b.m.Meshes)})
	b.m.Meshes = append(b.m.Meshes, mesh)
}

// cellEmpty reports whether the layer is transparent in the cell a–b grown by
// two pixels.
func cellEmpty(img *image.RGBA, a, b pt) bool {
	r := image.Rect(int(a.X)-2, int(a.Y)-2, int(math.Ceil(b.X))+2, int(math.Ceil(b.Y))+2).Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.Pix[img.PixOffset(x, y)+3] != 0 {
				return false
			}
		}
	}
	return true
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// drawTree puts every mesh in the root draw group in painting order, except
// the meshes of isolated parts, which go into a group of their own placed
// where the part's first mesh would be.
func (b *builder) drawTree(ms []*meshSpec) {
	root := p2lrt.DrawGroup{Part: -1, DrawOrder: 500}
	groups := map[string]*p2lrt.DrawGroup{}
	for _, s := range ms {
		mi := b.meshIdx[s.id]
		pi := b.parts[s.part]
		part := &b.m.Parts[pi]
		if part.GroupMode != p2lrt.GroupIsolated {
			root.Children = append(root.Children, p2lrt.DrawNode{Mesh: mi})
			continue
		}
		g, ok := groups[s.part]
		if !ok {
			// The group sorts where its first mesh would have.
			part.DrawOrder = int32(b.m.Meshes[mi].DrawOrder)
			c := part.Composite
			g = &p2lrt.DrawGroup{Part: pi, DrawOrder: part.DrawOrder, Composite: &c}
			if f := b.partSpecs[pi].fader; f != "" {
				// The group's composite opacity follows the fader; the
				// static value is the one at the default (0).
				c.Opacity = 0
				b.m.Parts[pi].Composite.Opacity = 0
				g.Channels = []p2lrt.Channel{{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar,
					Grid: grid(b, []axisSpec{{f, keys01}}, func(k []float32) p2lrt.ChannelValue { return p2lrt.ChannelValue{k[0]} })}}
			}
			groups[s.part] = g
			root.Children = append(root.Children, p2lrt.DrawNode{Group: g})
		}
		g.Children = append(g.Children, p2lrt.DrawNode{Mesh: mi})
	}
	b.m.Draw = root
}

// WriteOptions are the options the default model is written with: deflate
// (the keyform arrays shrink to a fraction) and chunk CRCs.
var WriteOptions = p2lrt.WriteOptions{Compression: p2lrt.CompressDeflate}

// Write builds the character and writes it as a .p2lrt file.
func Write(w io.Writer) error {
	m, err := Build()
	if err != nil {
		return err
	}
	return m.Write(w, &WriteOptions)
}
