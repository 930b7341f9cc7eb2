// Package synth generates synthetic p2l models of any size for tests and
// benchmarks. A model is a deterministic function of its Options: the same
// options give a reflect.DeepEqual model, byte for byte the same textures.
//
// Every evaluation feature appears: warp deformers (bilinear and
// two-triangle) nested under rotation deformers and the other way round,
// sparse keyform grids (meshes, a warp, a rotation), multi-axis grids, a
// repeat parameter, blend shapes with limits on meshes, deformers and parts,
// channels (draw order, opacity, multiply, screen, a flag flip, glue
// intensity), glue, a part tree with pass-through, sorted and isolated
// groups, group composites with masks, mesh masks (normal and inverted),
// several blend and alpha modes, culling on front-facing meshes, texture
// pages holding real PNGs, hit areas,
// user data, roles, a clip, an expression, a physics group and a pose group.
package synth

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Options sizes a synthetic model. Zero fields take the character-scale
// defaults.
type Options struct {
	Seed uint64
	// Meshes is the number of meshes (default 120).
	Meshes int
	// VerticesPerMesh is the approximate vertex count of each mesh (default
	// 72; the mesh is a grid of about that many vertices, at least 2×2).
	VerticesPerMesh int
	// Deformers is the number of deformers, warps and rotations mixed
	// (default 56, at least 6).
	Deformers int
	// Parameters is the number of parameters (default 48, at least 16).
	Parameters int
	// Textures is the number of texture pages (default 2).
	Textures int
	// TextureSize is the side of each square texture page in pixels
	// (default 128).
	TextureSize int
}

func (o *Options) defaults() {
	if o.Meshes <= 0 {
		o.Meshes = 120
	}
	if o.VerticesPerMesh <= 0 {
		o.VerticesPerMesh = 72
	}
	if o.Deformers <= 0 {
		o.Deformers = 56
	}
	o.Deformers = max(o.Deformers, 6)
	if o.Parameters <= 0 {
		o.Parameters = 48
	}
	o.Parameters = max(o.Parameters, 16)
	if o.Textures <= 0 {
		o.Textures = 2
	}
	if o.TextureSize <= 0 {
		o.TextureSize = 128
	}
	o.TextureSize = max(o.TextureSize, 16)
}

// Character returns a character-scale model: 120 meshes of 72 vertices
// (8640 vertices), 56 deformers, 48 parameters, with blend shapes and glue.
func Character(seed uint64) *p2lrt.File { return Generate(Options{Seed: seed}) }

// Standard parameter ids the generator uses first (Cubism's names, so that
// roles, behaviors and physics have something to drive).
var standardParams = []struct {
	id            string
	min, max, def float32
}{
	{"ParamAngleX", -30, 30, 0},
	{"ParamAngleY", -30, 30, 0},
	{"ParamAngleZ", -30, 30, 0},
	{"ParamBodyAngleX", -10, 10, 0},
	{"ParamEyeLOpen", 0, 1, 1},
	{"ParamEyeROpen", 0, 1, 1},
	{"ParamEyeBallX", -1, 1, 0},
	{"ParamEyeBallY", -1, 1, 0},
	{"ParamMouthOpenY", 0, 1, 0},
	{"ParamBreath", 0, 1, 0},
	{"ParamHairFront", -1, 1, 0},
	{"ParamHairBack", -1, 1, 0},
}

// space is where children of a deformer (or of the canvas) are placed: a
// rectangle in the deformer's child coordinates and the approximate canvas
// pixels per child unit.
type space struct {
	x0, y0, x1, y1 float64
	px             float64
}

type gen struct {
	o      Options
	r      *rand.Rand
	m      *p2lrt.File
	spaces []space // per deformer
	axisP  []int   // keyform-axis parameters
	blendP []int   // blend-shape parameters
	repeat int     // the repeat parameter
	flag   int     // parameter driving the flag channel
}

func (g *gen) f(a, b float64) float64 { return a + (b-a)*g.r.Float64() }
func (g *gen) n(k int) int            { return g.r.IntN(k) }

// Generate builds a model from o.
func Generate(o Options) *p2lrt.File {
	o.defaults()
	g := &gen{o: o, r: rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15)), m: &p2lrt.File{}}
	m := g.m
	m.Canvas = p2lrt.Canvas{Width: 1024, Height: 1024, OriginX: 512, OriginY: 1024, PixelsPerUnit: 1024}
	g.params()
	g.textures()
	g.deformers()
	g.meshes()
	g.glues()
	g.parts()
	g.extras()
	return m
}

func (g *gen) params() {
	m := g.m
	for i := 0; i < g.o.Parameters; i++ {
		var p p2lrt.Parameter
		switch {
		case i < len(standardParams):
			s := standardParams[i]
			p = p2lrt.Parameter{ID: s.id, Name: s.id, Min: s.min, Max: s.max, Default: s.def}
		case i == len(standardParams):
			p = p2lrt.Parameter{ID: "ParamSpin", Name: "Spin", Min: -180, Max: 180, Repeat: true}
			g.repeat = i
		case i%4 == 0:
			p = p2lrt.Parameter{ID: fmt.Sprintf("ParamShape%d", i), Min: 0, Max: 1, Blend: true}
		case i%4 == 1:
			p = p2lrt.Parameter{ID: fmt.Sprintf("ParamMorph%d", i), Min: -1, Max: 1, Blend: true}
		default:
			lo := float32(-10 * (1 + g.n(3)))
			p = p2lrt.Parameter{ID: fmt.Sprintf("Param%d", i), Min: lo, Max: -lo}
		}
		if p.Name == "" {
			p.Name = p.ID
		}
		if p.Blend {
			g.blendP = append(g.blendP, i)
		} else if !p.Repeat {
			g.axisP = append(g.axisP, i)
		}
		m.Parameters = append(m.Parameters, p)
	}
	g.flag = g.axisP[len(g.axisP)-1]
}

// keys returns the grid keys of parameter i: min, default, max (the default
// only when strictly inside).
func (g *gen) keys(i int) []float32 {
	p := g.m.Parameters[i]
	if p.Default > p.Min && p.Default < p.Max {
		return []float32{p.Min, p.Default, p.Max}
	}
	return []float32{p.Min, p.Max}
}

// defaultKey returns the index of the key of parameter i at its default.
func (g *gen) defaultKey(keys []float32, i int) int {
	d := g.m.Parameters[i].Default
	for k, v := range keys {
		if v == d {
			return k
		}
	}
	return 0
}

// grid builds a keyform grid over the given axes; value(coord, atDefault)
// gives each cell. With sparse set, cells away from the default pose are
// dropped at random (never those on the default key of every axis but one,
// so the default pose and single-parameter moves stay whole).
func grid[T any](g *gen, axes []int, sparse bool, value func(coord []uint16, atDefault bool) T) *p2lrt.Grid[T] {
	gr := &p2lrt.Grid[T]{}
	dims := make([]int, len(axes))
	defs := make([]int, len(axes))
	total := 1
	for a, pi := range axes {
		ks := g.keys(pi)
		gr.Axes = append(gr.Axes, p2lrt.Axis{Parameter: pi, Keys: ks})
		dims[a] = len(ks)
		defs[a] = g.defaultKey(ks, pi)
		total *= len(ks)
	}
	dropped := false
	for l := 0; l < total; l++ {
		coord := make([]uint16, len(axes))
		off, rest := 0, l
		for a := len(axes) - 1; a >= 0; a-- {
			coord[a] = uint16(rest % dims[a])
			rest /= dims[a]
			if int(coord[a]) != defs[a] {
				off++
			}
		}
		if sparse && off >= 2 && (!dropped || g.n(2) == 0) {
			dropped = true // at least one cell is missing
			continue
		}
		gr.Cells = append(gr.Cells, p2lrt.Cell[T]{Coord: coord, Value: value(coord, off == 0)})
	}
	return gr
}

func (g *gen) pickAxes(k int) []int {
	out := make([]int, 0, k)
	for len(out) < k {
		p := g.axisP[g.n(len(g.axisP))]
		dup := false
		for _, q := range out {
			dup = dup || q == p
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}

func (g *gen) deformers() {
	m := g.m
	root := space{x0: 160, y0: 80, x1: 864, y1: 1000, px: 1}
	spaceOf := func(parent int) space {
		if parent < 0 {
			return root
		}
		return g.spaces[parent]
	}
	// The first deformers force the nesting chain warp → rotation → warp →
	// rotation → warp; the rest attach at random.
	for i := 0; i < g.o.Deformers; i++ {
		parent := i - 1
		kind := p2lrt.DeformerKind(i % 2)
		if i >= 5 {
			parent = g.n(i+1) - 1
			if parent >= 0 && len(g.depth(parent)) >= 6 {
				parent = g.n(3) - 1
			}
			kind = p2lrt.DeformerKind(g.n(2))
		}
		ps := spaceOf(parent)
		// Region of the deformer inside its parent's child space.
		w, h := ps.x1-ps.x0, ps.y1-ps.y0
		fw, fh := g.f(0.35, 0.7), g.f(0.35, 0.7)
		x0 := ps.x0 + w*g.f(0, 1-fw)
		y0 := ps.y0 + h*g.f(0, 1-fh)
		x1, y1 := x0+w*fw, y0+h*fh
		d := p2lrt.Deformer{
			Kind: kind, ID: fmt.Sprintf("Deformer%d", i), Parent: parent, Part: -1,
			Flags:   p2lrt.DeformerVisible | p2lrt.DeformerEnabled,
			Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
		}
		var sp space
		if kind == p2lrt.WarpDeformer {
			cols, rows := 2+g.n(4), 2+g.n(4)
			if i%3 == 0 {
				d.Flags |= p2lrt.DeformerBilinear
			}
			naxes := 1 + g.n(2)
			sparse := i == 4
			if sparse {
				naxes = 2 // a sparse grid needs two axes to drop a cell
			}
			axes := g.pickAxes(naxes)
			amp := 0.08
			phase := g.f(0, 6.28)
			d.Warp = &p2lrt.Warp{Columns: cols, Rows: rows}
			base := func(coord []uint16) []float32 {
				pts := make([]float32, 0, 2*(cols+1)*(rows+1))
				s := 0.0
				for a, c := range coord {
					ks := g.keys(axes[a])
					s += float64(int(c)-g.defaultKey(ks, axes[a])) * (1 + float64(a))
				}
				for r := 0; r <= rows; r++ {
					for c := 0; c <= cols; c++ {
						u, v := float64(c)/float64(cols), float64(r)/float64(rows)
						dx := amp * s * math.Sin(phase+3*v) * (x1 - x0)
						dy := amp * s * math.Cos(phase+2*u) * (y1 - y0) * 0.5
						pts = append(pts, float32(x0+u*(x1-x0)+dx), float32(y0+v*(y1-y0)+dy))
					}
				}
				return pts
			}
			d.Warp.Keyforms = grid(g, axes, sparse, func(c []uint16, _ bool) []float32 { return base(c) })
			if i%4 == 2 && len(g.blendP) > 0 {
				// Blend shape: bulge the grid; the target is the default grid
				// plus the bulge, so the added difference is the bulge.
				defCoord := make([]uint16, naxes)
				for a, pi := range axes {
					defCoord[a] = uint16(g.defaultKey(g.keys(pi), pi))
				}
				def := base(defCoord)
				tgt := make([]float32, len(def))
				for k := 0; k < len(def); k += 2 {
					tgt[k] = def[k] + float32(0.05*(x1-x0))
					tgt[k+1] = def[k+1] - float32(0.03*(y1-y0))
				}
				bp := g.blendP[g.n(len(g.blendP))]
				d.Warp.Shapes = append(d.Warp.Shapes, binding(g, bp, func(present bool) p2lrt.WarpShape {
					s := p2lrt.WarpShape{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}
					if present {
						s.Points = tgt
						s.Opacity = 0.8
					}
					return s
				}))
			}
			if i%5 == 1 {
				d.Channels = append(d.Channels, g.scalarChannel(p2lrt.ChannelOpacity, g.axisP[g.n(len(g.axisP))], 1, 0.6))
			}
			sp = space{x0: 0.05, y0: 0.05, x1: 0.95, y1: 0.95, px: (x1 - x0) * ps.px}
		} else {
			ox, oy := (x0+x1)/2, (y0+y1)/2
			axes := g.pickAxes(1)
			if i == 3 {
				axes = append(axes, g.repeat) // a repeat parameter on a rotation
			}
			if i == 7 {
				axes = g.pickAxes(2) // sparse two-axis rotation
			}
			sc := 1.0
			if i%7 == 6 {
				sc = 0.8
			}
			d.Rotation = &p2lrt.Rotation{BaseAngle: float32(g.f(-10, 10))}
			amp := g.f(5, 20)
			d.Rotation.Keyforms = grid(g, axes, i == 7, func(coord []uint16, _ bool) p2lrt.RotationKey {
				k := p2lrt.RotationKey{X: float32(ox), Y: float32(oy), Scale: float32(sc)}
				for a, c := range coord {
					ks := g.keys(axes[a])
					k.Angle += float32(amp * float64(int(c)-g.defaultKey(ks, axes[a])))
					if axes[a] == g.repeat {
						k.Angle += float32(ks[c]) / 4
					}
				}
				return k
			})
			if i%6 == 5 {
				d.Flags |= p2lrt.DeformerFlipX
			}
			if i == 9 {
				// Flag channel: flip vertically at and above the top key.
				fp := g.flag
				pr := m.Parameters[fp]
				d.Channels = append(d.Channels, p2lrt.Channel{ID: p2lrt.ChannelFlipY, Kind: p2lrt.ChannelFlag, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
					Axes:  []p2lrt.Axis{{Parameter: fp, Keys: []float32{pr.Min, pr.Max}}},
					Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{1}}},
				}})
			}
			if i%5 == 3 {
				d.Channels = append(d.Channels, g.colorChannel(p2lrt.ChannelMultiply, g.axisP[g.n(len(g.axisP))], p2lrt.White, p2lrt.Color{1, 0.8, 0.8}))
			}
			if i%4 == 1 && len(g.blendP) > 0 {
				bp := g.blendP[g.n(len(g.blendP))]
				d.Rotation.Shapes = append(d.Rotation.Shapes, binding(g, bp, func(present bool) p2lrt.RotationShape {
					s := p2lrt.RotationShape{X: float32(ox), Y: float32(oy), Scale: float32(sc), Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}
					if present {
						s.Angle = 12
						s.Screen = p2lrt.Color{0.1, 0.1, 0.2}
					}
					return s
				}))
			}
			half := math.Min(x1-x0, y1-y0) * ps.px / 2
			sp = space{x0: -half, y0: -half, x1: half, y1: half, px: 1}
			// Children of a rotation live in its frame: origin-centred pixels.
		}
		m.Deformers = append(m.Deformers, d)
		g.spaces = append(g.spaces, sp)
	}
}

// depth returns the ancestor chain of deformer i.
func (g *gen) depth(i int) []int {
	var out []int
	for ; i >= 0; i = g.m.Deformers[i].Parent {
		out = append(out, i)
	}
	return out
}

// binding builds a blend-shape binding on parameter p: keys min..max with
// the neutral key at the default; shape(present) gives each key's target.
// Every other binding carries a limit on an axis parameter.
func binding[S any](g *gen, p int, shape func(present bool) S) p2lrt.Binding[S] {
	pr := g.m.Parameters[p]
	b := p2lrt.Binding[S]{Parameter: p}
	if pr.Min < 0 {
		b.Keys = []float32{pr.Min, 0, pr.Max}
		b.Neutral = 1
		b.Present = []bool{g.n(3) != 0, false, true}
	} else {
		b.Keys = []float32{pr.Min, pr.Max}
		b.Neutral = 0
		b.Present = []bool{false, true}
	}
	for _, pres := range b.Present {
		var s S // an absent key stores no shape
		if pres {
			s = shape(pres)
		}
		b.Shapes = append(b.Shapes, s)
	}
	if g.n(2) == 0 {
		lp := g.axisP[g.n(len(g.axisP))]
		lr := g.m.Parameters[lp]
		b.Limits = []p2lrt.Limit{{Parameter: lp, Points: []p2lrt.LimitPoint{{Value: lr.Min, Weight: 0}, {Value: lr.Default, Weight: 1}, {Value: lr.Max, Weight: 0.5}}}}
	}
	return b
}

func (g *gen) scalarChannel(id p2lrt.ChannelID, p int, atDef, away float32) p2lrt.Channel {
	return g.channel(id, p2lrt.ChannelScalar, p, p2lrt.ChannelValue{atDef}, p2lrt.ChannelValue{away})
}

func (g *gen) colorChannel(id p2lrt.ChannelID, p int, atDef, away p2lrt.Color) p2lrt.Channel {
	return g.channel(id, p2lrt.ChannelColor, p, p2lrt.ChannelValue(atDef), p2lrt.ChannelValue(away))
}

// channel keys a channel on parameter p: atDef at the key holding p's
// default, away at every other key.
func (g *gen) channel(id p2lrt.ChannelID, kind p2lrt.ChannelKind, p int, atDef, away p2lrt.ChannelValue) p2lrt.Channel {
	ks := g.keys(p)
	dk := g.defaultKey(ks, p)
	gr := &p2lrt.Grid[p2lrt.ChannelValue]{Axes: []p2lrt.Axis{{Parameter: p, Keys: ks}}}
	for k := range ks {
		v := away
		if k == dk {
			v = atDef
		}
		gr.Cells = append(gr.Cells, p2lrt.Cell[p2lrt.ChannelValue]{Coord: []uint16{uint16(k)}, Value: v})
	}
	return p2lrt.Channel{ID: id, Kind: kind, Grid: gr}
}

var blendModes = []p2lrt.BlendMode{
	p2lrt.BlendNormal, p2lrt.BlendNormal, p2lrt.BlendNormal, p2lrt.BlendNormal, p2lrt.BlendNormal, p2lrt.BlendNormal,
	p2lrt.BlendAddCompatible, p2lrt.BlendMultiplyCompatible, p2lrt.BlendAdd, p2lrt.BlendMultiply,
	p2lrt.BlendScreen, p2lrt.BlendOverlay, p2lrt.BlendDarken, p2lrt.BlendLighten,
}

func (g *gen) meshes() {
	m := g.m
	nx := max(2, int(math.Round(math.Sqrt(float64(g.o.VerticesPerMesh)))))
	ny := max(2, (g.o.VerticesPerMesh+nx/2)/nx)
	cells := 4 // atlas cells per side
	for i := 0; i < g.o.Meshes; i++ {
		parent := g.n(len(m.Deformers)+1) - 1
		if i < 4 {
			parent = []int{-1, 0, 1, 4}[i] // root, warp, rotation, deep warp
		}
		glued := i%6 == 1 // continues mesh i−1 to its right; glue ties the seam
		if glued {
			parent = m.Meshes[i-1].Parent
		}
		ps := space{x0: 160, y0: 80, x1: 864, y1: 1000, px: 1}
		if parent >= 0 {
			ps = g.spaces[parent]
		}
		w, h := ps.x1-ps.x0, ps.y1-ps.y0
		fw, fh := g.f(0.25, 0.6), g.f(0.25, 0.6)
		x0 := ps.x0 + w*g.f(0, 1-fw)
		y0 := ps.y0 + h*g.f(0, 1-fh)
		x1, y1 := x0+w*fw, y0+h*fh
		if glued {
			prev := m.Meshes[i-1].Positions
			x0, y0 = float64(prev[2*(nx-1)]), float64(prev[1])
			y1 = float64(prev[len(prev)-1])
			x1 = x0 + (x0-float64(prev[0]))*g.f(0.5, 1)
		}
		page := i % len(m.Textures)
		cell := (i / len(m.Textures)) % (cells * cells)
		cu, cv := float64(cell%cells)/float64(cells), float64(cell/cells)/float64(cells)
		inset := 1.0 / float64(g.o.TextureSize)
		cs := 1/float64(cells) - 2*inset
		me := p2lrt.Mesh{
			ID: fmt.Sprintf("Mesh%d", i), Name: fmt.Sprintf("Mesh %d", i), Parent: parent,
			Blend: blendModes[g.n(len(blendModes))], Flags: p2lrt.MeshVisible | p2lrt.MeshGeometry,
			TexturePage: page, DrawOrder: float32(100 + g.n(900)), Opacity: 1,
			Multiply: p2lrt.White, Screen: p2lrt.Black,
		}
		if i%10 == 9 {
			me.Flags |= p2lrt.MeshCulling // front faces only; every triangle is front-facing
		}
		if i%11 == 7 {
			me.AlphaBlend = p2lrt.AlphaMode(1 + g.n(int(p2lrt.NumAlphaModes)-1))
		}
		for r := 0; r < ny; r++ {
			for c := 0; c < nx; c++ {
				u, v := float64(c)/float64(nx-1), float64(r)/float64(ny-1)
				me.Positions = append(me.Positions, float32(x0+u*(x1-x0)), float32(y0+v*(y1-y0)))
				me.UVs = append(me.UVs, float32(cu+inset+u*cs), float32(cv+inset+v*cs))
			}
		}
		for r := 0; r+1 < ny; r++ {
			for c := 0; c+1 < nx; c++ {
				a := uint32(r*nx + c)
				b, d, e := a+1, a+uint32(nx), a+uint32(nx)+1
				// Front-facing in canvas coordinates: (b − a) × (c − a) < 0.
				me.Indices = append(me.Indices, a, d, b, b, d, e)
			}
		}
		nv := nx * ny
		// Keyforms: offsets on one or two axes (sparse for every fifth mesh).
		axes := g.pickAxes(1 + g.n(2))
		amp := 0.06 * math.Min(x1-x0, y1-y0)
		ph := g.f(0, 6.28)
		me.Keyforms = grid(g, axes, i%5 == 0, func(coord []uint16, _ bool) []float32 {
			s := 0.0
			for a, c := range coord {
				s += float64(int(c)-g.defaultKey(g.keys(axes[a]), axes[a])) * (1 - 0.4*float64(a))
			}
			off := make([]float32, 2*nv)
			for k := 0; k < nv; k++ {
				u := float64(k%nx) / float64(nx-1)
				v := float64(k/nx) / float64(ny-1)
				off[2*k] = float32(amp * s * math.Sin(ph+2*v))
				off[2*k+1] = float32(amp * s * 0.5 * math.Cos(ph+3*u))
			}
			return off
		})
		switch i % 9 {
		case 1:
			me.Channels = append(me.Channels, g.scalarChannel(p2lrt.ChannelOpacity, 4+g.n(2), 1, 0)) // eye open
		case 2:
			me.Channels = append(me.Channels, g.scalarChannel(p2lrt.ChannelDrawOrder, g.axisP[g.n(len(g.axisP))], me.DrawOrder, me.DrawOrder+300))
		case 4:
			me.Channels = append(me.Channels, g.colorChannel(p2lrt.ChannelMultiply, g.axisP[g.n(len(g.axisP))], p2lrt.White, p2lrt.Color{0.9, 0.6, 0.6}))
		case 6:
			me.Channels = append(me.Channels, g.colorChannel(p2lrt.ChannelScreen, g.axisP[g.n(len(g.axisP))], p2lrt.Black, p2lrt.Color{0.2, 0.1, 0}))
		}
		if i%3 == 0 && len(g.blendP) > 0 {
			bp := g.blendP[g.n(len(g.blendP))]
			dph := g.f(0, 6.28)
			me.Shapes = append(me.Shapes, binding(g, bp, func(present bool) p2lrt.MeshShape {
				s := p2lrt.MeshShape{DrawOrder: me.DrawOrder, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}
				if present {
					s.Deltas = make([]float32, 2*nv)
					for k := 0; k < nv; k++ {
						u := float64(k%nx) / float64(nx-1)
						s.Deltas[2*k] = float32(amp * math.Sin(dph+4*u))
						s.Deltas[2*k+1] = float32(-amp * 0.7)
					}
					if i%2 == 0 {
						s.Opacity = 0.5
					}
				}
				return s
			}))
		}
		m.Meshes = append(m.Meshes, me)
	}
	// Masks: some meshes clipped by a neighbour, a few inverted.
	for i := 5; i < len(m.Meshes); i += 7 {
		m.Meshes[i].Masks = []int{i - 1}
		if i%2 == 0 {
			m.Meshes[i].Masks = append(m.Meshes[i].Masks, i-3)
		}
		if i%3 == 0 {
			m.Meshes[i].Flags |= p2lrt.MeshInvertMask
		}
	}
}

func (g *gen) glues() {
	m := g.m
	nx := max(2, int(math.Round(math.Sqrt(float64(g.o.VerticesPerMesh)))))
	ny := max(2, (g.o.VerticesPerMesh+nx/2)/nx)
	for i := 0; i+1 < len(m.Meshes); i += 6 {
		// Mesh i+1 starts at mesh i's right edge: glue its left column to
		// mesh i's right column, pulling both halfway.
		gl := p2lrt.Glue{ID: fmt.Sprintf("Glue%d", i), MeshA: i, MeshB: i + 1, Intensity: 1}
		for r := 0; r < ny; r++ {
			gl.Pairs = append(gl.Pairs, p2lrt.GluePair{A: uint32(r*nx + nx - 1), B: uint32(r * nx), WeightA: 0.5, WeightB: 0.5})
		}
		if i%12 == 0 {
			gl.Channels = append(gl.Channels, g.scalarChannel(p2lrt.ChannelGlueIntensity, g.axisP[g.n(len(g.axisP))], 1, 0.3))
		}
		m.Glues = append(m.Glues, gl)
	}
}

// parts builds the part tree (a root, groups under it, some nested) and the
// draw tree that mirrors it: pass-through parts splice their children into
// the enclosing draw group; sorted and isolated parts get their own group.
func (g *gen) parts() {
	m := g.m
	nparts := max(4, len(m.Meshes)/8)
	newPart := func(id string, mode p2lrt.GroupMode) int {
		m.Parts = append(m.Parts, p2lrt.Part{
			ID: id, Name: id, Flags: p2lrt.PartVisible, GroupMode: mode, DrawOrder: int32(100 + g.n(900)),
			Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black},
		})
		return len(m.Parts) - 1
	}
	root := newPart("PartRoot", p2lrt.GroupPassThrough)
	for k := 1; k < nparts; k++ {
		mode := p2lrt.GroupMode(k % 3)
		pi := newPart(fmt.Sprintf("Part%d", k), mode)
		parent := root
		if k > 3 && g.n(3) == 0 {
			parent = 1 + g.n(k-1)
		}
		m.Parts[parent].Children = append(m.Parts[parent].Children, p2lrt.PartChild{Kind: p2lrt.ChildPart, Index: pi})
		if mode == p2lrt.GroupIsolated {
			c := &m.Parts[pi].Composite
			c.Blend = []p2lrt.BlendMode{p2lrt.BlendNormal, p2lrt.BlendMultiply, p2lrt.BlendScreen, p2lrt.BlendAdd}[k%4]
			c.Opacity = 0.9
		}
		if k%4 == 1 {
			m.Parts[pi].Channels = append(m.Parts[pi].Channels, g.scalarChannel(p2lrt.ChannelDrawOrder, g.axisP[g.n(len(g.axisP))], float32(m.Parts[pi].DrawOrder), float32(m.Parts[pi].DrawOrder)+500))
		}
		if k%5 == 2 && len(g.blendP) > 0 {
			do := float32(m.Parts[pi].DrawOrder)
			m.Parts[pi].Shapes = append(m.Parts[pi].Shapes, binding(g, g.blendP[g.n(len(g.blendP))], func(present bool) p2lrt.PartShape {
				s := p2lrt.PartShape{DrawOrder: do, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}
				if present {
					s.DrawOrder = do - 200
					s.Opacity = 0.7
				}
				return s
			}))
		}
	}
	for i := range m.Meshes {
		pi := 1 + i%(len(m.Parts)-1)
		m.Parts[pi].Children = append(m.Parts[pi].Children, p2lrt.PartChild{Kind: p2lrt.ChildMesh, Index: i})
	}
	// A sketch part and a hidden part with one mesh each (not drawn).
	if len(m.Meshes) > 20 {
		sk := newPart("PartSketch", p2lrt.GroupPassThrough)
		m.Parts[sk].Flags |= p2lrt.PartSketch
		hid := newPart("PartHidden", p2lrt.GroupSorted)
		m.Parts[hid].Flags = 0
		for _, pi := range []int{sk, hid} {
			m.Parts[root].Children = append(m.Parts[root].Children, p2lrt.PartChild{Kind: p2lrt.ChildPart, Index: pi})
		}
		moveMesh(m, len(m.Meshes)-1, sk)
		moveMesh(m, len(m.Meshes)-2, hid)
	}
	// Group masks: isolated parts masked by a mesh or a part.
	for pi := range m.Parts {
		if m.Parts[pi].GroupMode != p2lrt.GroupIsolated {
			continue
		}
		c := &m.Parts[pi].Composite
		switch pi % 3 {
		case 0:
			c.MaskMeshes = []int{pi % len(m.Meshes)}
		case 1:
			c.MaskParts = []int{1 + (pi+1)%(len(m.Parts)-1)}
			c.InvertMask = pi%2 == 0
		}
	}
	m.Draw = g.drawGroup(root, -1)
}

// moveMesh moves mesh i to part pi.
func moveMesh(m *p2lrt.File, i, pi int) {
	for p := range m.Parts {
		ch := m.Parts[p].Children[:0]
		for _, c := range m.Parts[p].Children {
			if !(c.Kind == p2lrt.ChildMesh && c.Index == i) {
				ch = append(ch, c)
			}
		}
		m.Parts[p].Children = ch
	}
	m.Parts[pi].Children = append(m.Parts[pi].Children, p2lrt.PartChild{Kind: p2lrt.ChildMesh, Index: i})
}

// drawGroup returns the draw group of part pi (the root group when group is
// −1 uses part pi's children too).
func (g *gen) drawGroup(pi int, _ int) p2lrt.DrawGroup {
	m := g.m
	dg := p2lrt.DrawGroup{Part: pi, DrawOrder: m.Parts[pi].DrawOrder}
	var add func(p int)
	add = func(p int) {
		for _, c := range m.Parts[p].Children {
			if c.Kind == p2lrt.ChildMesh {
				dg.Children = append(dg.Children, p2lrt.DrawNode{Mesh: c.Index})
				continue
			}
			if m.Parts[c.Index].GroupMode == p2lrt.GroupPassThrough {
				add(c.Index)
				continue
			}
			sub := g.drawGroup(c.Index, 0)
			dg.Children = append(dg.Children, p2lrt.DrawNode{Group: &sub})
		}
	}
	add(pi)
	if m.Parts[pi].GroupMode == p2lrt.GroupIsolated {
		// Isolation is the draw group's composite (the reference layout).
		c := m.Parts[pi].Composite
		dg.Composite = &c
	}
	if m.Parts[pi].GroupMode == p2lrt.GroupIsolated && pi%2 == 0 {
		// A draw-group opacity channel overriding the composite.
		dg.Channels = append(dg.Channels, g.scalarChannel(p2lrt.ChannelOpacity, g.axisP[g.n(len(g.axisP))], 0.9, 0.4))
	}
	return dg
}

// textures draws the pages: an atlas of 4×4 cells, each a soft-edged blob
// of its own color on transparent ground.
func (g *gen) textures() {
	n := g.o.TextureSize
	for t := 0; t < g.o.Textures; t++ {
		img := image.NewNRGBA(image.Rect(0, 0, n, n))
		cell := n / 4
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				cx, cy := x/cell, y/cell
				k := t*16 + cy*4 + cx
				fx := (float64(x%cell) + 0.5) / float64(cell)
				fy := (float64(y%cell) + 0.5) / float64(cell)
				d := math.Hypot(fx-0.5, fy-0.5) * 2
				a := math.Max(0, math.Min(1, (1.05-d)*6))
				hue := float64(k) * 0.618
				r := 0.5 + 0.5*math.Cos(6.28*(hue))
				gg := 0.5 + 0.5*math.Cos(6.28*(hue+0.33))
				b := 0.5 + 0.5*math.Cos(6.28*(hue+0.67))
				stripe := 0.85 + 0.15*float64((x/3+y/3)%2)
				img.SetNRGBA(x, y, color.NRGBA{
					R: uint8(255 * r * stripe), G: uint8(255 * gg * stripe), B: uint8(255 * b * stripe), A: uint8(255 * a),
				})
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			panic(err) // encoding to memory cannot fail
		}
		g.m.Textures = append(g.m.Textures, p2lrt.TexturePage{Kind: p2lrt.TexturePNG, Width: uint32(n), Height: uint32(n), Data: buf.Bytes()})
	}
}

// extras adds what the animation layer and hosts read: roles, hit areas,
// user data, a clip, an expression, a physics group, a pose group and META.
func (g *gen) extras() {
	m := g.m
	// A role for each behavior-driven standard parameter present, as the
	// editor writes them (behaviors move nothing else).
	roles := []struct {
		name string
		ps   []int // standardParams indices
	}{{"EyeBlink", []int{4, 5}}, {"LipSync", []int{8}}, {"Breath", []int{9}}, {"AngleX", []int{0}}, {"AngleY", []int{1}},
		{"AngleZ", []int{2}}, {"BodyAngleX", []int{3}}, {"EyeBallX", []int{6}}, {"EyeBallY", []int{7}}}
	m.Roles = nil
	for _, r := range roles {
		var ps []int
		for _, p := range r.ps {
			if p < len(m.Parameters) {
				ps = append(ps, p)
			}
		}
		if ps != nil {
			m.Roles = append(m.Roles, p2lrt.Role{Name: r.name, Parameters: ps})
		}
	}
	n := len(m.Meshes)
	m.HitAreas = []p2lrt.HitArea{
		{ID: "HitAreaHead", Name: "Head", Meshes: []int{1 % n, 2 % n}},
		{ID: "HitAreaBody", Name: "Body", Meshes: []int{0, 3 % n}},
	}
	m.UserData = []p2lrt.UserData{{Kind: 0, Target: 0, Value: "synthetic mesh 0"}, {Kind: 0, Target: 2 % n, Value: "synthetic mesh 2"}}
	m.Clips = []p2lrt.Clip{{
		ID: "Idle", Name: "Idle", Group: "Idle", Duration: 2, Fps: 30, Loop: true, FadeIn: 0.5, FadeOut: 0.5,
		Curves: []p2lrt.ParameterCurve{
			{Parameter: 0, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}, Segments: []p2lrt.Segment{
				{Kind: p2lrt.SegmentBezier, C1: p2lrt.Point{T: 0.3, V: 10}, C2: p2lrt.Point{T: 0.7, V: 10}, End: p2lrt.Point{T: 1, V: 10}},
				{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 2, V: 0}},
			}}},
			{Parameter: 9, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}, Segments: []p2lrt.Segment{
				{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 1, V: 1}},
				{Kind: p2lrt.SegmentStepped, End: p2lrt.Point{T: 2, V: 0}},
			}}},
		},
		Events: []p2lrt.Event{{Time: 1, Value: "half"}},
	}}
	m.Expressions = []p2lrt.Expression{{ID: "Smile", Name: "Smile", FadeIn: 0.5, FadeOut: 0.5, Entries: []p2lrt.ExpressionEntry{
		{Parameter: 8, Blend: p2lrt.ExpressionAdd, Value: 0.3},
		{Parameter: 4, Blend: p2lrt.ExpressionMultiply, Value: 0.8},
	}}}
	m.Physics = p2lrt.Physics{Fps: 30, Groups: []p2lrt.PhysicsGroup{{
		ID: "HairFront", Name: "Hair front",
		Inputs:  []p2lrt.PhysicsInput{{Parameter: 0, Source: p2lrt.PhysicsX, Weight: 60}, {Parameter: 2, Source: p2lrt.PhysicsAngle, Weight: 40}},
		Outputs: []p2lrt.PhysicsOutput{{Parameter: 10, Vertex: 1, Source: p2lrt.PhysicsAngle, Scale: 1.5, Weight: 100}},
		Segments: []p2lrt.PhysicsSegment{
			{Length: 10, Mobility: 0.95, Delay: 0.9, Acceleration: 1.5},
		},
		Normalization: p2lrt.PhysicsNormalization{PositionMin: -10, PositionMax: 10, AngleMin: -10, AngleMax: 10},
	}}}
	if len(m.Parts) > 3 {
		m.Pose = &p2lrt.Pose{FadeIn: 0.5, Groups: []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: 1}, {Part: 2}}}}}
	}
	m.Meta = []p2lrt.MetaEntry{{Key: "generator", Value: "p2l/internal/synth"}, {Key: "generator_version", Value: "1"}}
}

// MustModel makes a model of f (p2l.NewModel), panicking on an error: the
// generators' files are valid by construction.
func MustModel(f *p2lrt.File) *p2l.Model {
	m, err := p2l.NewModel(f)
	if err != nil {
		panic(err)
	}
	return m
}
