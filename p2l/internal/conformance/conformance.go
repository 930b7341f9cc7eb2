// Package conformance generates the rendering conformance models of
// testdata/conformance: small models that exercise every drawing rule (all
// 18×5 blend and alpha combinations over an opaque backdrop and inside
// isolated groups, group opacity/colours driven by channels, mesh and part
// masks, inverted and soft-edged masks, nested groups, multiply/screen
// colours, culling, and every texture page kind with its fallbacks).
//
// The models are built in memory by this committed code; `go test
// ./p2l/internal/conformance -update` writes them (and the external page
// file) to testdata/conformance, and the test checks the committed files
// match. Their golden images are checked in p2l/render.
package conformance

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Model is one conformance model with the poses its goldens are drawn at.
type Model struct {
	Name  string
	Model *p2lrt.File
	// Files are extra files written next to the model (external pages).
	Files map[string][]byte
	// Poses are parameter settings (id → value); the first is the
	// default pose.
	Poses []Pose
}

// Pose names a parameter setting.
type Pose struct {
	Name   string
	Values map[string]float32
}

// Cell is the side of one blend-matrix cell in canvas pixels; the source
// and backdrop pages have one texel per canvas pixel of a cell.
const Cell = 16

// SourceTexel is the straight colour of texel (i, j) of the blend matrix's
// source page: colour varies along both axes, alpha from 0.25 to 1.
func SourceTexel(i, j int) color.NRGBA {
	a := 0.25 + 0.75*float64(i%8)/7
	return color.NRGBA{
		R: uint8(255 - 17*j),
		G: uint8((i * j * 16) % 256),
		B: [2]uint8{51, 230}[(i/4)%2],
		A: uint8(math.Round(a * 255)),
	}
}

// BackdropTexel is the opaque straight colour of texel (i, j) of the
// backdrop page (blend matrix, groups, features): red ramps along i, green
// along j, blue cycles 0, 80, 160, 240 along the diagonals.
//
// Every channel is a multiple of 16 so that the backdrop a sampler
// produces is never an exact 8-bit tie (k + 1/2)/255, whose rounding to
// an RGBA8 target OpenGL leaves to the implementation (no CPU rule can
// reproduce it; docs/RENDERING.md, "8-bit destination"). The models draw
// the page at one texel per canvas pixel, so at scale 1 every output pixel
// centre samples a texel centre (weight 1) and at scale 2 it lies a quarter
// texel off the centres on both axes (weights 1/4 and 3/4 per axis, so
// multiples of 1/16 per tap): a combination Σ w·16n with Σ w = 1 and each
// w a multiple of 1/16 is an integer. The blend matrix's group backdrop is
// drawn at GroupBackdropOpacity = 3/5 of such an integer (and alpha 255),
// whose fraction is a multiple of 1/5, at least 1/10 step from a tie.
// TestBackdropHasNoTies checks this over every sample position.
func BackdropTexel(i, j int) color.NRGBA {
	return color.NRGBA{R: uint8(16 * i), G: uint8(16 * j), B: uint8(80 * ((i + j) % 4)), A: 255}
}

// GroupBackdropOpacity is the opacity of the backdrop inside the blend
// matrix's isolated groups: 0.6 rather than 0.5, because half of an odd
// value (and of alpha 255) is an exact tie (see BackdropTexel).
const GroupBackdropOpacity = 0.6

func pagePNG(w, h int, f func(i, j int) color.NRGBA) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			img.SetNRGBA(i, j, f(i, j))
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// builder assembles a model: meshes are quads, each in the draw tree in
// creation order inside the current group.
type builder struct {
	m     *p2lrt.File
	root  int
	stack []*p2lrt.DrawGroup
	parts []int // part of each open group
	order float32
}

func newBuilder(w, h float32) *builder {
	b := &builder{m: &p2lrt.File{Canvas: p2lrt.Canvas{Width: w, Height: h, OriginX: w / 2, OriginY: h / 2, PixelsPerUnit: -1}}}
	b.m.Parts = append(b.m.Parts, p2lrt.Part{ID: "root", Name: "root", Flags: p2lrt.PartVisible,
		Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}})
	b.m.Draw = p2lrt.DrawGroup{Part: b.root}
	b.stack = []*p2lrt.DrawGroup{&b.m.Draw}
	b.parts = []int{b.root}
	return b
}

func (b *builder) page(kind p2lrt.TextureKind, w, h int, data []byte, uri string) int {
	b.m.Textures = append(b.m.Textures, p2lrt.TexturePage{Kind: kind, Width: uint32(w), Height: uint32(h), Data: data, URI: uri})
	return len(b.m.Textures) - 1
}

func (b *builder) param(id string, min, max, def float32) int {
	b.m.Parameters = append(b.m.Parameters, p2lrt.Parameter{ID: id, Name: id, Min: min, Max: max, Default: def})
	return len(b.m.Parameters) - 1
}

// quad adds a rectangle mesh (two triangles) with UVs u0..u1, v0..v1.
func (b *builder) quad(id string, x0, y0, x1, y1 float32, page int, u0, v0, u1, v1 float32) int {
	return b.mesh(id, []float32{x0, y0, x1, y0, x1, y1, x0, y1}, []float32{u0, v0, u1, v0, u1, v1, u0, v1}, []uint32{0, 1, 2, 0, 2, 3}, page)
}

func (b *builder) mesh(id string, pos, uvs []float32, idx []uint32, page int) int {
	b.order++
	b.m.Meshes = append(b.m.Meshes, p2lrt.Mesh{
		ID: id, Name: id, Parent: -1, Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible, TexturePage: page,
		Positions: pos, UVs: uvs, Indices: idx, DrawOrder: b.order, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
	})
	mi := len(b.m.Meshes) - 1
	top := b.stack[len(b.stack)-1]
	top.Children = append(top.Children, p2lrt.DrawNode{Mesh: mi})
	p := b.parts[len(b.parts)-1]
	b.m.Parts[p].Children = append(b.m.Parts[p].Children, p2lrt.PartChild{Kind: p2lrt.ChildMesh, Index: mi})
	return mi
}

// open starts a part (isolated when comp is non-nil, else pass-through)
// and its draw group; close ends it.
func (b *builder) open(id string, comp *p2lrt.Composite) int {
	b.order++
	part := p2lrt.Part{ID: id, Name: id, Flags: p2lrt.PartVisible, DrawOrder: int32(b.order),
		Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}}
	if comp != nil {
		part.GroupMode = p2lrt.GroupIsolated
		part.Composite = *comp
	}
	b.m.Parts = append(b.m.Parts, part)
	pi := len(b.m.Parts) - 1
	parent := b.parts[len(b.parts)-1]
	b.m.Parts[parent].Children = append(b.m.Parts[parent].Children, p2lrt.PartChild{Kind: p2lrt.ChildPart, Index: pi})
	top := b.stack[len(b.stack)-1]
	g := &p2lrt.DrawGroup{Part: pi, DrawOrder: int32(b.order)}
	if comp != nil {
		c := *comp // isolation is the draw group's composite (the reference layout)
		g.Composite = &c
	}
	top.Children = append(top.Children, p2lrt.DrawNode{Group: g})
	b.stack = append(b.stack, top.Children[len(top.Children)-1].Group)
	b.parts = append(b.parts, pi)
	return pi
}

func (b *builder) close() {
	b.stack = b.stack[:len(b.stack)-1]
	b.parts = b.parts[:len(b.parts)-1]
}

// backdrop tiles the page bd (one texel per canvas pixel) over the canvas
// with one quad per 16×16 tile: texture addressing clamps, it does not
// repeat.
func (b *builder) backdrop(bd int) {
	for y := float32(0); y < b.m.Canvas.Height; y += Cell {
		for x := float32(0); x < b.m.Canvas.Width; x += Cell {
			b.quad(fmt.Sprintf("backdrop_%g_%g", x, y), x, y, x+Cell, y+Cell, bd, 0, 0, 1, 1)
		}
	}
}

// hide makes mesh mi invisible (a mask that is not drawn itself).
func (b *builder) hide(mi int) { b.m.Meshes[mi].Flags &^= p2lrt.MeshVisible }

// linear is a one-axis grid from v0 at key 0 to v1 at key 1 of param.
func linear(param int, v0, v1 p2lrt.ChannelValue) *p2lrt.Grid[p2lrt.ChannelValue] {
	return &p2lrt.Grid[p2lrt.ChannelValue]{
		Axes:  []p2lrt.Axis{{Parameter: param, Keys: []float32{0, 1}}},
		Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: v0}, {Coord: []uint16{1}, Value: v1}},
	}
}

func rgb(c p2lrt.Color) p2lrt.ChannelValue { return p2lrt.ChannelValue(c) }

// BlendMatrix has, for blend mode b (column) and alpha mode a (row), a
// source quad over an opaque backdrop quad in cell (b, a) of the top half,
// and in cell (b, 5 + a) of the bottom half an isolated group (Normal,
// Over) holding a translucent backdrop (GroupBackdropOpacity) on the
// cell's left half and
// the source quad, over the transparent canvas.
func BlendMatrix() Model {
	b := newBuilder(p2lrt.NumBlendModes*Cell, 2*p2lrt.NumAlphaModes*Cell)
	src := b.page(p2lrt.TexturePNG, Cell, Cell, pagePNG(Cell, Cell, SourceTexel), "")
	bd := b.page(p2lrt.TexturePNG, Cell, Cell, pagePNG(Cell, Cell, BackdropTexel), "")
	for a := p2lrt.AlphaMode(0); a < p2lrt.NumAlphaModes; a++ {
		for bm := p2lrt.BlendMode(0); bm < p2lrt.NumBlendModes; bm++ {
			x, y := float32(bm)*Cell, float32(a)*Cell
			b.quad(fmt.Sprintf("backdrop_%d_%d", bm, a), x, y, x+Cell, y+Cell, bd, 0, 0, 1, 1)
			mi := b.quad(fmt.Sprintf("source_%d_%d", bm, a), x, y, x+Cell, y+Cell, src, 0, 0, 1, 1)
			b.m.Meshes[mi].Blend, b.m.Meshes[mi].AlphaBlend = bm, a
		}
	}
	for a := p2lrt.AlphaMode(0); a < p2lrt.NumAlphaModes; a++ {
		for bm := p2lrt.BlendMode(0); bm < p2lrt.NumBlendModes; bm++ {
			x, y := float32(bm)*Cell, float32(p2lrt.NumAlphaModes+a)*Cell
			b.open(fmt.Sprintf("group_%d_%d", bm, a), &p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black})
			bi := b.quad(fmt.Sprintf("gbackdrop_%d_%d", bm, a), x, y, x+Cell/2, y+Cell, bd, 0, 0, 0.5, 1)
			b.m.Meshes[bi].Opacity = GroupBackdropOpacity
			mi := b.quad(fmt.Sprintf("gsource_%d_%d", bm, a), x, y, x+Cell, y+Cell, src, 0, 0, 1, 1)
			b.m.Meshes[mi].Blend, b.m.Meshes[mi].AlphaBlend = bm, a
			b.close()
		}
	}
	return Model{Name: "blend-matrix", Model: b.m, Poses: []Pose{{Name: "default"}}}
}

// softMask is a 32×32 page whose alpha falls off radially from 1 in the
// centre to 0 at the edge: a soft-edged mask.
func softMask(i, j int) color.NRGBA {
	d := math.Hypot(float64(i)-15.5, float64(j)-15.5) / 16
	a := math.Max(0, math.Min(1, 1.5-1.5*d))
	return color.NRGBA{255, 255, 255, uint8(math.Round(a * 255))}
}

// Groups exercises isolated groups: channel-driven opacity and colours,
// mesh masks (soft, inverted), part masks, nesting and non-normal group
// modes, each over a patterned backdrop.
func Groups() Model {
	b := newBuilder(192, 96)
	bd := b.page(p2lrt.TexturePNG, Cell, Cell, pagePNG(Cell, Cell, BackdropTexel), "")
	mask := b.page(p2lrt.TexturePNG, 32, 32, pagePNG(32, 32, softMask), "")
	op := b.param("GroupOpacity", 0, 1, 1)
	tint := b.param("GroupTint", 0, 1, 0)
	b.backdrop(bd)
	colored := func(id string, x0, y0, x1, y1 float32, c p2lrt.Color) int {
		mi := b.quad(id, x0, y0, x1, y1, -1, 0, 0, 1, 1)
		b.m.Meshes[mi].Multiply = c
		return mi
	}
	// Mask meshes (hidden): a soft disc and, in a pass-through part, two
	// discs for the part mask.
	disc := b.quad("mask_disc", 56, 8, 88, 40, mask, 0, 0, 1, 1)
	b.hide(disc)
	mp := b.open("maskpart", nil)
	b.hide(b.quad("mask_a", 104, 8, 128, 32, mask, 0, 0, 1, 1))
	b.hide(b.quad("mask_b", 116, 20, 140, 44, mask, 0, 0, 1, 1))
	b.close()

	// A: channel-driven opacity, multiply and screen.
	ga := b.open("channels", &p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black})
	b.m.Draw.Children[len(b.m.Draw.Children)-1].Group.Channels = []p2lrt.Channel{
		{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: linear(op, p2lrt.ChannelValue{0.25}, p2lrt.ChannelValue{1})},
		{ID: p2lrt.ChannelMultiply, Kind: p2lrt.ChannelColor, Grid: linear(tint, rgb(p2lrt.White), rgb(p2lrt.Color{1, 0.5, 0.25}))},
		{ID: p2lrt.ChannelScreen, Kind: p2lrt.ChannelColor, Grid: linear(tint, rgb(p2lrt.Black), rgb(p2lrt.Color{0, 0, 0.5}))},
	}
	_ = ga
	colored("a_red", 8, 8, 32, 32, p2lrt.Color{1, 0, 0})
	colored("a_blue", 20, 20, 44, 44, p2lrt.Color{0, 0, 1})
	b.close()
	// B: mesh mask (soft disc); C: the same inverted.
	b.open("masked", &p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black, MaskMeshes: []int{disc}})
	colored("b_green", 56, 8, 88, 40, p2lrt.Color{0, 0.8, 0.2})
	b.close()
	b.open("masked_inverted", &p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black, MaskMeshes: []int{disc}, InvertMask: true})
	colored("c_yellow", 64, 16, 96, 48, p2lrt.Color{1, 0.9, 0.1})
	b.close()
	// D: part mask (two discs of the pass-through part).
	b.open("part_masked", &p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black, MaskParts: []int{mp}})
	colored("d_magenta", 100, 4, 144, 48, p2lrt.Color{0.9, 0.1, 0.8})
	b.close()
	// E: nested groups, outer Screen+Over at 0.8, inner Multiply+Atop at
	// 0.7, with a sibling mesh in the outer group.
	b.open("outer", &p2lrt.Composite{Blend: p2lrt.BlendScreen, Opacity: 0.8, Multiply: p2lrt.White, Screen: p2lrt.Black})
	colored("e_sibling", 8, 56, 40, 88, p2lrt.Color{0.2, 0.4, 0.9})
	b.open("inner", &p2lrt.Composite{Blend: p2lrt.BlendMultiply, AlphaBlend: p2lrt.AlphaAtop, Opacity: 0.7, Multiply: p2lrt.Color{1, 0.8, 0.6}, Screen: p2lrt.Black})
	colored("e_inner1", 24, 60, 56, 92, p2lrt.Color{1, 0.5, 0})
	colored("e_inner2", 40, 52, 64, 76, p2lrt.Color{0.3, 1, 0.3})
	b.close()
	b.close()
	// F: non-normal group modes: Overlay+ConjointOver, Normal+Out,
	// HardLight+DisjointOver with a screen colour.
	for k, c := range []p2lrt.Composite{
		{Blend: p2lrt.BlendOverlay, AlphaBlend: p2lrt.AlphaConjointOver, Opacity: 0.9},
		{Blend: p2lrt.BlendNormal, AlphaBlend: p2lrt.AlphaOut, Opacity: 0.6},
		{Blend: p2lrt.BlendHardLight, AlphaBlend: p2lrt.AlphaDisjointOver, Opacity: 1, Screen: p2lrt.Color{0.3, 0, 0}},
	} {
		c.Multiply = p2lrt.White
		x := float32(80 + 36*k)
		b.open(fmt.Sprintf("mode_%d", k), &c)
		colored(fmt.Sprintf("f_%d_a", k), x, 56, x+24, 80, p2lrt.Color{0.9, 0.6, 0.1})
		mi := colored(fmt.Sprintf("f_%d_b", k), x+8, 64, x+32, 88, p2lrt.Color{0.1, 0.5, 0.9})
		b.m.Meshes[mi].Opacity = 0.75
		b.close()
	}
	return Model{Name: "groups", Model: b.m, Poses: []Pose{
		{Name: "default"},
		{Name: "faded-tinted", Values: map[string]float32{"GroupOpacity": 0, "GroupTint": 1}},
		{Name: "half", Values: map[string]float32{"GroupOpacity": 0.5, "GroupTint": 0.5}},
	}}
}

// ktx2RGBA8 writes an uncompressed R8G8B8A8_UNORM KTX2 file (or, with a
// different vkFormat, a header the decoder must refuse).
func ktx2RGBA8(w, h int, vkFormat uint32, f func(i, j int) color.NRGBA) []byte {
	pix := make([]byte, 0, 4*w*h)
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			c := f(i, j)
			pix = append(pix, c.R, c.G, c.B, c.A)
		}
	}
	le := binary.LittleEndian
	var b []byte
	b = append(b, 0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n')
	for _, v := range []uint32{vkFormat, 1, uint32(w), uint32(h), 0, 0, 1, 1, 0} {
		b = le.AppendUint32(b, v)
	}
	const dfdOff, dfdLen = 104, 44
	b = le.AppendUint32(b, dfdOff)
	b = le.AppendUint32(b, dfdLen)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, 0)
	b = le.AppendUint64(b, 0)
	b = le.AppendUint64(b, dfdOff+dfdLen)
	b = le.AppendUint64(b, uint64(len(pix)))
	b = le.AppendUint64(b, uint64(len(pix)))
	dfd := make([]byte, dfdLen)
	le.PutUint32(dfd, dfdLen)
	b = append(b, dfd...)
	return append(b, pix...)
}

// Features exercises mesh-level rules: soft-edged mesh masks (with an
// overlapping second mask, coverage = max), inverted mesh masks,
// multiply/screen colours (static and channel-driven), culling, and the
// texture page kinds with their fallbacks.
func Features() Model {
	b := newBuilder(160, 96)
	bd := b.page(p2lrt.TexturePNG, Cell, Cell, pagePNG(Cell, Cell, BackdropTexel), "")
	mask := b.page(p2lrt.TexturePNG, 32, 32, pagePNG(32, 32, softMask), "")
	src := b.page(p2lrt.TexturePNG, Cell, Cell, pagePNG(Cell, Cell, SourceTexel), "")
	ktx := b.page(p2lrt.TextureKTX2, Cell, Cell, ktx2RGBA8(Cell, Cell, 37, SourceTexel), "")
	ext := b.page(p2lrt.TextureExternal, Cell, Cell, nil, "features-ext.png")
	bc1 := b.page(p2lrt.TextureKTX2, Cell, Cell, ktx2RGBA8(Cell, Cell, 131, SourceTexel), "")
	tint := b.param("MeshTint", 0, 1, 0)
	b.backdrop(bd)

	// Masks: soft disc, and a second disc overlapping it.
	m1 := b.quad("mask1", 8, 8, 40, 40, mask, 0, 0, 1, 1)
	m2 := b.quad("mask2", 24, 8, 56, 40, mask, 0, 0, 1, 1)
	m3 := b.quad("mask3", 70, 8, 102, 40, mask, 0, 0, 1, 1)
	b.hide(m1)
	b.hide(m2)
	b.hide(m3)
	mk := b.quad("masked", 4, 4, 60, 44, src, 0, 0, 1, 1)
	b.m.Meshes[mk].Masks = []int{m1, m2}
	inv := b.quad("masked_inverted", 64, 4, 100, 44, -1, 0, 0, 1, 1)
	b.m.Meshes[inv].Masks = []int{m3}
	b.m.Meshes[inv].Flags |= p2lrt.MeshInvertMask
	b.m.Meshes[inv].Multiply = p2lrt.Color{0.2, 0.3, 0.9}
	b.m.Meshes[inv].Opacity = 0.8

	// Colours: static multiply+screen, and channel-driven ones.
	c1 := b.quad("colors_static", 104, 4, 128, 28, src, 0, 0, 1, 1)
	b.m.Meshes[c1].Multiply = p2lrt.Color{1, 0.6, 0.3}
	b.m.Meshes[c1].Screen = p2lrt.Color{0, 0.2, 0.4}
	c2 := b.quad("colors_channel", 132, 4, 156, 28, src, 0, 0, 1, 1)
	b.m.Meshes[c2].Channels = []p2lrt.Channel{
		{ID: p2lrt.ChannelMultiply, Kind: p2lrt.ChannelColor, Grid: linear(tint, rgb(p2lrt.White), rgb(p2lrt.Color{0.2, 1, 0.5}))},
		{ID: p2lrt.ChannelScreen, Kind: p2lrt.ChannelColor, Grid: linear(tint, rgb(p2lrt.Black), rgb(p2lrt.Color{0.6, 0, 0}))},
		{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: linear(tint, p2lrt.ChannelValue{1}, p2lrt.ChannelValue{0.5})},
	}

	// Culling: the same two triangles (left one (b−a)×(c−a) > 0, a back
	// face; right one < 0, a front face) with and without culling.
	tri := func(id string, y float32, cull bool) {
		pos := []float32{104, y, 124, y, 104, y + 20, 132, y, 132, y + 20, 152, y}
		mi := b.mesh(id, pos, make([]float32, 12), []uint32{0, 1, 2, 3, 4, 5}, -1)
		b.m.Meshes[mi].Multiply = p2lrt.Color{0.1, 0.7, 0.3}
		if cull {
			b.m.Meshes[mi].Flags |= p2lrt.MeshCulling
		}
	}
	tri("cull_off", 32, false)
	tri("cull_on", 56, true)

	// Pages: PNG, KTX2 RGBA8, external PNG, none (white × multiply),
	// unsupported KTX2 (BC1: draws nothing).
	for k, p := range []int{src, ktx, ext, -1, bc1} {
		x := float32(4 + 20*k)
		mi := b.quad(fmt.Sprintf("page_%d", k), x, 56, x+16, 72, p, 0, 0, 1, 1)
		if p == -1 {
			b.m.Meshes[mi].Multiply = p2lrt.Color{0.9, 0.4, 0.7}
		}
	}
	return Model{
		Name:  "features",
		Model: b.m,
		Files: map[string][]byte{"features-ext.png": pagePNG(Cell, Cell, SourceTexel)},
		Poses: []Pose{{Name: "default"}, {Name: "tinted", Values: map[string]float32{"MeshTint": 1}}},
	}
}

// All returns every conformance model.
func All() []Model { return []Model{BlendMatrix(), Groups(), Features()} }
