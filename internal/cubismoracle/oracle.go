// Package cubismoracle is a second, independent evaluator of Cubism models
// (a *moc3.Moc), used only by tests to check p2l/cubism's lowering and p2l's
// Cubism evaluation against it.
//
// It is written straight from the rules: MahouTechnologies/moc3-rs's
// evaluator (moc3-rs/src/puppet, deformer, math; MIT/Apache-2.0, read for
// facts, not translated) and the decisions of docs/CUBISM.md where moc3-rs
// is silent or wrong. It never looked at p2l's lowering or evaluation code.
// It is deliberately direct and slow: float64 throughout, objects evaluated
// recursively parents first, nothing cached between calls, allocations
// everywhere.
//
// The rules, with where each comes from:
//
//   - Parameters are clamped to [min, max] (moc3-rs Puppet::update).
//   - A keyform grid is blended over the 2^n corners of the cell holding the
//     parameter values: on each axis the lower key k0 ≤ v and t = (v −
//     k0)/(k1 − k0), clamped to the first cell with t = 0 at or below the
//     first key and to the last with t = 1 at or above the last; a lone key
//     has t = 0 (moc3-rs key_segment, do_interpolate). No snapping to keys.
//   - An object whose keyform binding has a parameter outside its keys is
//     disabled: below the first key by more than ε (v < first − ε) or at or
//     above the last key + ε (v ≥ last + ε); for a lone key |v − k| ≥ ε; ε =
//     0.1^decimal places in float32, the comparison in float32 (moc3-rs
//     key_table_is_outside and its unit tests; docs/CUBISM.md keeps the
//     asymmetric ends). A disabled or statically disabled part disables its
//     child parts, deformers and art meshes, a disabled deformer its child
//     deformers and art meshes (moc3-rs resolve_enabled).
//   - Blend shapes add differences: for each blend shape, the keyforms on
//     either side of the blend-shape parameter's value (same key_segment),
//     each minus the base key's keyform, weighted by the segment weight and
//     by the least of 1 and the constraints' piecewise-linear weights (Cubism
//     Editor manual "Limit Settings for Blend Shape Weights", docs/CUBISM.md;
//     moc3-rs computes that minimum but does not use it). Every field is
//     blended this way: positions, opacity, draw order, multiply and screen
//     colours, rotation origin, angle and scale, glue intensity, part draw
//     order and offscreen opacity and colours. (The samples store base
//     keyforms of zeros, except part blend shapes, whose base holds the
//     part's opacity 1 and white multiply: differences are the only reading
//     under which those do not brighten everything.)
//   - Deformers and art meshes are evaluated in their parent deformer's
//     space, then mapped through it, parents first (moc3-rs update):
//     a warp maps with its grid (below), a rotation maps q to origin +
//     s·R(base + angle)·q, R the standard matrix (x' = cos·x − sin·y, y' =
//     sin·x + cos·y) in the moc's y-down space, s the product of the
//     rotation's scale and every rotation above it (a warp passes its
//     parent's product through; moc3-rs deformer_scale_data).
//   - A rotation inside a deformer has its origin mapped by the parent and
//     its angle increased by the parent's turn, measured by a probe: d =
//     (0, −1)·L with L = 0.1 in a warp and 10 in a rotation; for i = 0…9 the
//     step d·0.1^i, r = P(o + step) − P(o); when r is finite and not zero the
//     turn is the signed angle from step to r; else the opposite step is
//     tried, the signed angle from −step to P(o − step) − P(o) (moc3-rs
//     measures that one from the point, a bug docs/CUBISM.md does not copy);
//     nothing works: 0 (moc3-rs calculate_rotation_deformer_angle).
//   - Warp grid, for a point (u, v) in the warp's unit square: inside [0,
//     1)², the cell ⌊u·cols⌋, ⌊v·rows⌋, bilinear with the quad flag, else
//     the two triangles split along (1,0)–(0,1), the upper one from P11. In
//     the ring [−2, 3]² (outside the inside), virtual points on the affine
//     frame origin + a·vx + b·vy with vx = (d1 + d2)/2, vy = (d1 − d2)/2,
//     d1 = P(cols,rows) − P(0,0), d2 = P(cols,0) − P(0,rows), origin = the
//     four corners' centroid − d1/2, interpolated by triangles between the
//     grid's edge and the frame at −2 or 3; beyond the ring the frame
//     alone (moc3-rs apply_warp_deformer).
//   - Opacity: the keyform's, times the parent deformer's accumulated
//     opacity (its own times its parent's …), never clamped, then times the
//     product of the host part opacities up the part chain, each clamped to
//     [0, 1] (moc3-rs update; docs/CUBISM.md "no-clamp opacity"). Host part
//     opacities start at 1 for parts stored visible, 0 otherwise (moc3-rs
//     framedata_for_puppet).
//   - Multiply and screen colours inherit through deformers, not parts:
//     multiply = parent·child, screen = p + c − p·c (moc3-rs BlendColor).
//   - Glue, after every art mesh is in place, glue after glue and pair after
//     pair: a += (b − a)·wA·I, b += (a − b)·wB·I, a and b read first
//     (moc3-rs apply_glue). Affine maps commute with it, so it is applied
//     in canvas pixels.
//   - Model units to canvas pixels: (originX + ppu·x, originY + ppu·y), y
//     down. The moc's y grows downwards: moc3-rs's viewer projects it with
//     a y-down orthographic camera, and the canvas origin the moc stores is
//     measured from the top-left corner (the samples' origins are the canvas
//     centres, their vertices fill the canvas, heads on top).
//   - Render order: draw order group 0 is the root; a group's objects are
//     sorted by key = round(draw order) (half away from zero) for enabled
//     objects, the group's minimum for disabled ones, clamped to the group's
//     [min, max]; ties keep the group's order; a part that owns a group puts
//     that group's objects, recursively, at its place (moc3-rs
//     sort_render_order, which reserves the group's total count there).
//     Disabled meshes are dropped. moc3-rs also drops meshes at opacity 0;
//     docs/CUBISM.md keeps them (the Core's behaviour is unknown), and so
//     does this oracle.
//   - Offscreens (5.3, not in moc3-rs): a part owning an offscreen brackets
//     its group's drawables; its opacity and colours are its keyforms'
//     (the offscreen keyform), blended like any other field and not
//     multiplied into its drawables.
//
// What it does not do: rotation reflections (no public source says what
// they do; Evaluate reports an error for a moc that uses them), masks,
// culling and blend modes (static, not evaluated).
package cubismoracle

import (
	"errors"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l/moc3"
)

// Vec is a point in float64.
type Vec struct{ X, Y float64 }

func (a Vec) add(b Vec) Vec       { return Vec{a.X + b.X, a.Y + b.Y} }
func (a Vec) sub(b Vec) Vec       { return Vec{a.X - b.X, a.Y - b.Y} }
func (a Vec) scale(s float64) Vec { return Vec{a.X * s, a.Y * s} }
func (a Vec) finite() bool {
	return !math.IsInf(a.X, 0) && !math.IsNaN(a.X) && !math.IsInf(a.Y, 0) && !math.IsNaN(a.Y)
}

// RGB is a colour in float64.
type RGB [3]float64

var (
	white = RGB{1, 1, 1}
	black = RGB{}
)

func rgb(c moc3.RGB) RGB { return RGB{float64(c.R), float64(c.G), float64(c.B)} }

// inherit returns the colours of a child under a parent: multiply = p·c,
// screen = p + c − p·c.
func inherit(pMul, pScr, cMul, cScr RGB) (mul, scr RGB) {
	for k := range 3 {
		mul[k] = pMul[k] * cMul[k]
		scr[k] = pScr[k] + cScr[k] - pScr[k]*cScr[k]
	}
	return mul, scr
}

// Result is the oracle's evaluation of a moc at one pose.
type Result struct {
	// Per art mesh, in the moc's order.
	Vertices  [][]Vec // canvas pixels, y down
	Opacity   []float64
	Multiply  []RGB
	Screen    []RGB
	Enabled   []bool
	DrawOrder []float64
	// RenderOrder lists the enabled art meshes, back to front.
	RenderOrder []int
	// Commands is RenderOrder with each enabled offscreen part's drawables
	// bracketed by Open(part) = −2 − part and Close = −1 (p2l's
	// RenderCommand encoding).
	Commands []int

	// Per part.
	PartEnabled   []bool
	PartDrawOrder []float64
	// Offscreen opacity and colours of the parts that own an offscreen (5.3);
	// 1, white and black for the others.
	PartOpacity  []float64
	PartMultiply []RGB
	PartScreen   []RGB
}

// ErrReflection is returned for a moc whose rotation keyforms reflect.
var ErrReflection = errors.New("cubismoracle: rotation reflections are not modelled")

// DefaultPartOpacities returns the host part opacities a model starts with:
// 1 for parts stored visible, else 0.
func DefaultPartOpacities(m *moc3.Moc) []float64 {
	out := make([]float64, len(m.Parts))
	for i, p := range m.Parts {
		if p.Visible {
			out[i] = 1
		}
	}
	return out
}

// DefaultParameters returns the parameters' default values.
func DefaultParameters(m *moc3.Moc) []float32 {
	out := make([]float32, len(m.Parameters))
	for i, p := range m.Parameters {
		out[i] = p.Default
	}
	return out
}

// evaluator holds one evaluation's state.
type evaluator struct {
	m *moc3.Moc
	// single rounds every stored value to float32 (EvaluateFloat32), the
	// keyform fractions and weights included.
	single  bool
	params  []float32 // clamped
	outside []bool    // per keyform binding

	partEnabled []bool
	partDone    []bool
	partChain   []float64 // host opacity product up the part chain
	partChained []bool

	defs []defState
}

type defState struct {
	done, enabled bool
	// warp: the grid in final model space
	grid []Vec
	// rotation: final origin, angle in degrees (base + own + inherited
	// turns), accumulated scale
	origin       Vec
	angle, scale float64
	// accumulated scale passed to children (1 for a root warp)
	accScale         float64
	opacity          float64
	multiply, screen RGB
}

// Evaluate evaluates m at the given parameter values (by parameter index;
// clamped here) and host part opacities (nil: DefaultPartOpacities).
func Evaluate(m *moc3.Moc, params []float32, partOpacity []float64) (*Result, error) {
	return evaluate(m, params, partOpacity, false)
}

// EvaluateFloat32 evaluates as Evaluate, but rounds to float32 every value
// a float32 implementation would store: keyform blends, warp cell
// coordinates and fractions, angles in degrees and radians with their
// cosine and sine, accumulated scales, every mapped point, canvas pixels,
// glued vertices. Its distance from Evaluate estimates how far any
// float32 evaluator (moc3-rs; the Cubism Core, as far as is known, works
// in float32 too) lies from exact arithmetic on a given model and pose:
// the tests allow that much on top of the bound.
func EvaluateFloat32(m *moc3.Moc, params []float32, partOpacity []float64) (*Result, error) {
	return evaluate(m, params, partOpacity, true)
}

// r rounds x to float32 in single mode.
func (e *evaluator) r(x float64) float64 {
	if e.single {
		return float64(float32(x))
	}
	return x
}

func (e *evaluator) rv(v Vec) Vec { return Vec{e.r(v.X), e.r(v.Y)} }

func evaluate(m *moc3.Moc, params []float32, partOpacity []float64, single bool) (*Result, error) {
	for _, r := range m.RotationDeformers {
		for _, k := range r.Keyforms {
			if k.ReflectX || k.ReflectY {
				return nil, ErrReflection
			}
		}
	}
	if partOpacity == nil {
		partOpacity = DefaultPartOpacities(m)
	}
	e := &evaluator{m: m, single: single, params: make([]float32, len(m.Parameters))}
	for i, p := range m.Parameters {
		v := p.Default
		if i < len(params) {
			v = params[i]
		}
		e.params[i] = min(max(v, p.Min), p.Max)
	}
	e.outside = make([]bool, len(m.KeyformBindings))
	for b, kb := range m.KeyformBindings {
		for _, ax := range kb.Axes {
			if e.axisOutside(ax) {
				e.outside[b] = true
			}
		}
	}

	np := len(m.Parts)
	e.partEnabled = make([]bool, np)
	e.partDone = make([]bool, np)
	e.partChain = make([]float64, np)
	e.partChained = make([]bool, np)
	res := &Result{
		PartEnabled:   make([]bool, np),
		PartDrawOrder: make([]float64, np),
		PartOpacity:   make([]float64, np),
		PartMultiply:  make([]RGB, np),
		PartScreen:    make([]RGB, np),
	}
	for i, p := range m.Parts {
		res.PartEnabled[i] = e.part(i)
		kf := blendPart(e, p)
		res.PartDrawOrder[i] = kf.drawOrder
		res.PartOpacity[i], res.PartMultiply[i], res.PartScreen[i] = 1, white, black
		if p.Offscreen >= 0 {
			res.PartOpacity[i], res.PartMultiply[i], res.PartScreen[i] = kf.opacity, kf.multiply, kf.screen
		}
	}

	e.defs = make([]defState, len(m.Deformers))
	for i := range m.Deformers {
		e.deformer(i)
	}

	na := len(m.ArtMeshes)
	res.Vertices = make([][]Vec, na)
	res.Opacity = make([]float64, na)
	res.Multiply = make([]RGB, na)
	res.Screen = make([]RGB, na)
	res.Enabled = make([]bool, na)
	res.DrawOrder = make([]float64, na)
	for i, a := range m.ArtMeshes {
		kf := blendArtMesh(e, a)
		pts := kf.positions
		op, mul, scr := kf.opacity, kf.multiply, kf.screen
		enabled := a.Enabled && !e.outside[a.Binding]
		if a.ParentPart >= 0 && !e.part(a.ParentPart) {
			enabled = false
		}
		if a.ParentDeformer >= 0 {
			d := e.deformer(a.ParentDeformer)
			for k := range pts {
				pts[k] = e.rv(e.apply(a.ParentDeformer, pts[k]))
			}
			op *= d.opacity
			mul, scr = inherit(d.multiply, d.screen, mul, scr)
			if !d.enabled {
				enabled = false
			}
		}
		if a.ParentPart >= 0 {
			op *= e.chain(a.ParentPart, partOpacity)
		}
		c := m.Canvas
		for k, p := range pts {
			pts[k] = e.rv(Vec{float64(c.OriginX) + float64(c.PixelsPerUnit)*p.X, float64(c.OriginY) + float64(c.PixelsPerUnit)*p.Y})
		}
		res.Vertices[i], res.Opacity[i], res.Multiply[i], res.Screen[i] = pts, op, mul, scr
		res.Enabled[i] = enabled
		res.DrawOrder[i] = kf.drawOrder
	}

	for _, g := range m.Glues {
		intensity := blendGlue(e, g)
		va, vb := res.Vertices[g.MeshA], res.Vertices[g.MeshB]
		for _, p := range g.Pairs {
			a, b := va[p.A], vb[p.B]
			va[p.A] = e.rv(a.add(b.sub(a).scale(float64(p.WeightA) * intensity)))
			vb[p.B] = e.rv(b.add(a.sub(b).scale(float64(p.WeightB) * intensity)))
		}
	}

	if len(m.DrawOrderGroups) > 0 {
		e.emit(0, res, make([]bool, len(m.DrawOrderGroups)))
	}
	return res, nil
}

// axisOutside tells whether the axis's parameter lies outside its keys by
// ε or more, computed in float32 as moc3-rs does.
func (e *evaluator) axisOutside(ax moc3.Axis) bool {
	p := e.m.Parameters[ax.Parameter]
	eps := float32(1)
	for range p.DecimalPlaces {
		eps *= 0.1
	}
	v := e.params[ax.Parameter]
	switch n := len(ax.Keys); n {
	case 0:
		return false
	case 1:
		k := ax.Keys[0]
		return v <= k-eps || v >= k+eps
	default:
		return v < ax.Keys[0]-eps || v >= ax.Keys[n-1]+eps
	}
}

// part reports whether part i is enabled (its flag, its binding's range,
// its parent).
func (e *evaluator) part(i int) bool {
	if e.partDone[i] {
		return e.partEnabled[i]
	}
	p := e.m.Parts[i]
	en := p.Enabled && !e.outside[p.Binding]
	if p.Parent >= 0 && !e.part(p.Parent) {
		en = false
	}
	e.partDone[i], e.partEnabled[i] = true, en
	return en
}

// chain returns the product of the clamped host opacities of part i and
// its ancestors.
func (e *evaluator) chain(i int, host []float64) float64 {
	if e.partChained[i] {
		return e.partChain[i]
	}
	o := min(max(host[i], 0), 1)
	if p := e.m.Parts[i].Parent; p >= 0 {
		o *= e.chain(p, host)
	}
	e.partChained[i], e.partChain[i] = true, o
	return o
}

// segment locates v among sorted keys: the lower key's index and the
// fraction towards the next, clamped to the ends (moc3-rs key_segment).
func segment(keys []float32, v float32) (int, float64) {
	n := len(keys)
	if n <= 1 || v <= keys[0] {
		return 0, 0
	}
	if v >= keys[n-1] {
		return n - 2, 1
	}
	lo := 0
	for lo+1 < n-1 && keys[lo+1] <= v {
		lo++
	}
	return lo, (float64(v) - float64(keys[lo])) / (float64(keys[lo+1]) - float64(keys[lo]))
}

// corner is one keyform's weight in a blend.
type corner struct {
	index  int
	weight float64
}

// corners returns the keyforms of a grid with their weights at the current
// parameters (zero weights left out).
func (e *evaluator) corners(axes []moc3.Axis) []corner {
	n := len(axes)
	lower := make([]int, n)
	t := make([]float64, n)
	for i, ax := range axes {
		lower[i], t[i] = segment(ax.Keys, e.params[ax.Parameter])
		t[i] = e.r(t[i])
	}
	var out []corner
	for bits := 0; bits < 1<<n; bits++ {
		index, stride, w := 0, 1, 1.0
		for i, ax := range axes {
			k := lower[i]
			if bits&(1<<i) != 0 {
				k++
				w = e.r(w * t[i])
			} else {
				w = e.r(w * e.r(1-t[i]))
			}
			if k >= len(ax.Keys) {
				w = 0
			}
			index += k * stride
			stride *= len(ax.Keys)
		}
		if w != 0 {
			out = append(out, corner{index, w})
		}
	}
	return out
}

// shapeCorners returns, for one blend shape, the keyforms with their
// weights (the segment weight times the least of 1 and the constraints'
// weights), to be applied as differences from the base keyform.
func shapeCorners[K any](e *evaluator, bs moc3.BlendShape[K]) []corner {
	limit := 1.0
	for _, c := range bs.Constraints {
		lo, t := segment(c.Keys, e.params[c.Parameter])
		t = e.r(t)
		hi := min(lo+1, len(c.Weights)-1)
		w := (1-t)*float64(c.Weights[lo]) + t*float64(c.Weights[hi])
		limit = min(limit, w)
	}
	lo, t := segment(bs.Keys, e.params[bs.Parameter])
	t = e.r(t)
	out := []corner{{lo, (1 - t) * limit}}
	if lo+1 < len(bs.Keys) {
		out = append(out, corner{lo + 1, t * limit})
	}
	return out
}

// fields is a keyform of any kind flattened to float64 values, so that one
// blend serves every kind.
type fields struct {
	positions               []Vec
	opacity, drawOrder      float64
	multiply, screen        RGB
	angle, scale, intensity float64
	origin                  Vec
}

// addScaled adds w·(g − base) to f (w·g without a base).
func (f *fields) addScaled(g, base *fields, w float64) {
	var b fields
	if base != nil {
		b = *base
	}
	for k := range f.positions {
		d := g.positions[k]
		if base != nil {
			d = d.sub(b.positions[k])
		}
		f.positions[k] = f.positions[k].add(d.scale(w))
	}
	f.opacity += (g.opacity - b.opacity) * w
	f.drawOrder += (g.drawOrder - b.drawOrder) * w
	f.angle += (g.angle - b.angle) * w
	f.scale += (g.scale - b.scale) * w
	f.intensity += (g.intensity - b.intensity) * w
	f.origin = f.origin.add(g.origin.sub(b.origin).scale(w))
	for k := range 3 {
		f.multiply[k] += (g.multiply[k] - b.multiply[k]) * w
		f.screen[k] += (g.screen[k] - b.screen[k]) * w
	}
}

// blend returns the keyform blend of an object: its grid over axes, then
// each blend shape's differences.
func blend[K any](e *evaluator, axes []moc3.Axis, keyforms []K, shapes []moc3.BlendShape[K], conv func(K) fields) fields {
	out := fields{positions: make([]Vec, len(conv(keyforms[0]).positions))}
	for _, c := range e.corners(axes) {
		g := conv(keyforms[c.index])
		out.addScaled(&g, nil, c.weight)
	}
	for _, bs := range shapes {
		base := conv(bs.Keyforms[bs.BaseKey])
		for _, c := range shapeCorners(e, bs) {
			g := conv(bs.Keyforms[c.index])
			out.addScaled(&g, &base, c.weight)
		}
	}
	for k := range out.positions {
		out.positions[k] = e.rv(out.positions[k])
	}
	for _, v := range []*float64{&out.opacity, &out.drawOrder, &out.angle, &out.scale, &out.intensity, &out.origin.X, &out.origin.Y,
		&out.multiply[0], &out.multiply[1], &out.multiply[2], &out.screen[0], &out.screen[1], &out.screen[2]} {
		*v = e.r(*v)
	}
	return out
}

// vecs reads x,y pairs.
func vecs(xy []float32) []Vec {
	out := make([]Vec, len(xy)/2)
	for i := range out {
		out[i] = Vec{float64(xy[2*i]), float64(xy[2*i+1])}
	}
	return out
}

func blendArtMesh(e *evaluator, a moc3.ArtMesh) fields {
	return blend(e, a.Axes, a.Keyforms, a.BlendShapes, func(k moc3.ArtMeshKeyform) fields {
		return fields{positions: vecs(k.Positions), opacity: float64(k.Opacity), drawOrder: float64(k.DrawOrder),
			multiply: rgb(k.Multiply), screen: rgb(k.Screen)}
	})
}

func blendWarp(e *evaluator, w moc3.WarpDeformer) fields {
	return blend(e, w.Axes, w.Keyforms, w.BlendShapes, func(k moc3.WarpKeyform) fields {
		return fields{positions: vecs(k.Points), opacity: float64(k.Opacity), multiply: rgb(k.Multiply), screen: rgb(k.Screen)}
	})
}

func blendRotation(e *evaluator, r moc3.RotationDeformer) fields {
	return blend(e, r.Axes, r.Keyforms, r.BlendShapes, func(k moc3.RotationKeyform) fields {
		return fields{opacity: float64(k.Opacity), angle: float64(k.Angle), scale: float64(k.Scale),
			origin: Vec{float64(k.OriginX), float64(k.OriginY)}, multiply: rgb(k.Multiply), screen: rgb(k.Screen)}
	})
}

func blendPart(e *evaluator, p moc3.Part) fields {
	return blend(e, p.Axes, p.Keyforms, p.BlendShapes, func(k moc3.PartKeyform) fields {
		return fields{drawOrder: float64(k.DrawOrder), opacity: float64(k.Opacity), multiply: rgb(k.Multiply), screen: rgb(k.Screen)}
	})
}

func blendGlue(e *evaluator, g moc3.Glue) float64 {
	return blend(e, g.Axes, g.Intensities, g.BlendShapes, func(k float32) fields {
		return fields{intensity: float64(k)}
	}).intensity
}

// deformer evaluates deformer i (parents first) and returns its final
// state.
func (e *evaluator) deformer(i int) *defState {
	s := &e.defs[i]
	if s.done {
		return s
	}
	d := e.m.Deformers[i]
	var parent *defState
	if d.ParentDeformer >= 0 {
		parent = e.deformer(d.ParentDeformer)
	}
	s.enabled = d.Enabled
	if d.ParentPart >= 0 && !e.part(d.ParentPart) {
		s.enabled = false
	}
	if parent != nil && !parent.enabled {
		s.enabled = false
	}
	var f fields
	switch d.Kind {
	case moc3.Warp:
		w := e.m.WarpDeformers[d.Index]
		if e.outside[w.Binding] {
			s.enabled = false
		}
		f = blendWarp(e, w)
		s.grid = f.positions
		if parent != nil {
			for k := range s.grid {
				s.grid[k] = e.rv(e.apply(d.ParentDeformer, s.grid[k]))
			}
			s.accScale = parent.accScale
		} else {
			s.accScale = 1
		}
	case moc3.Rotation:
		r := e.m.RotationDeformers[d.Index]
		if e.outside[r.Binding] {
			s.enabled = false
		}
		f = blendRotation(e, r)
		s.origin = f.origin
		s.angle = e.r(float64(r.BaseAngle) + f.angle)
		s.scale = f.scale
		s.accScale = f.scale
		if parent != nil {
			probe := 10.0
			if e.m.Deformers[d.ParentDeformer].Kind == moc3.Warp {
				probe = 0.1
			}
			s.angle = e.r(s.angle + e.r(e.turn(d.ParentDeformer, s.origin, probe)))
			s.origin = e.rv(e.apply(d.ParentDeformer, s.origin))
			s.accScale = e.r(s.accScale * parent.accScale)
		}
	}
	s.opacity, s.multiply, s.screen = f.opacity, f.multiply, f.screen
	if parent != nil {
		s.opacity *= parent.opacity
		s.multiply, s.screen = inherit(parent.multiply, parent.screen, s.multiply, s.screen)
	}
	s.done = true
	return s
}

// apply maps p from deformer i's space into model space.
func (e *evaluator) apply(i int, p Vec) Vec {
	s := e.deformer(i)
	d := e.m.Deformers[i]
	if d.Kind == moc3.Warp {
		w := e.m.WarpDeformers[d.Index]
		return e.rv(warpMap(s.grid, w.Columns, w.Rows, w.Quad, p, e.r))
	}
	rad := e.r(s.angle * math.Pi / 180)
	c, sn := e.r(math.Cos(rad)), e.r(math.Sin(rad))
	return e.rv(Vec{s.origin.X + s.accScale*(c*p.X-sn*p.Y), s.origin.Y + s.accScale*(sn*p.X+c*p.Y)})
}

// turn measures how much deformer i turns the direction (0, −1) at o, in
// degrees, with probes of length probe·0.1^k.
func (e *evaluator) turn(i int, o Vec, probe float64) float64 {
	at := e.apply(i, o)
	for k := range 10 {
		step := Vec{0, -probe * math.Pow(0.1, float64(k))}
		if r := e.apply(i, o.add(step)).sub(at); r.finite() && r != (Vec{}) {
			return angleTo(step, r)
		}
		back := step.scale(-1)
		if r := e.apply(i, o.add(back)).sub(at); r.finite() && r != (Vec{}) {
			return angleTo(back, r)
		}
	}
	return 0
}

// angleTo is the signed angle from a to b in degrees, in (−180, 180].
func angleTo(a, b Vec) float64 {
	return math.Atan2(a.X*b.Y-a.Y*b.X, a.X*b.X+a.Y*b.Y) * 180 / math.Pi
}

// warpMap maps p (the warp's unit square) through a grid of (cols+1)·(rows+1)
// points, row by row.
// Cell coordinates and fractions are rounded by rnd.
func warpMap(grid []Vec, cols, rows int, quad bool, p Vec, rnd func(float64) float64) Vec {
	at := func(x, y int) Vec { return grid[x+y*(cols+1)] }
	if p.X >= 0 && p.X < 1 && p.Y >= 0 && p.Y < 1 {
		gx, gy := rnd(p.X*float64(cols)), rnd(p.Y*float64(rows))
		ix, iy := min(int(gx), cols-1), min(int(gy), rows-1)
		tx, ty := rnd(gx-float64(ix)), rnd(gy-float64(iy))
		p00, p10, p01, p11 := at(ix, iy), at(ix+1, iy), at(ix, iy+1), at(ix+1, iy+1)
		if quad {
			return p00.scale((1 - tx) * (1 - ty)).add(p10.scale(tx * (1 - ty))).add(p01.scale((1 - tx) * ty)).add(p11.scale(tx * ty))
		}
		return triangle(tx, ty, p00, p10, p01, p11)
	}
	c00, c10, c01, c11 := at(0, 0), at(cols, 0), at(0, rows), at(cols, rows)
	centroid := c00.add(c10).add(c01).add(c11).scale(0.25)
	d1, d2 := c11.sub(c00), c10.sub(c01)
	vx, vy := d1.add(d2).scale(0.5), d1.sub(d2).scale(0.5)
	origin := centroid.sub(d1.scale(0.5))
	frame := func(a, b float64) Vec { return origin.add(vx.scale(a)).add(vy.scale(b)) }
	if p.X < -2 || p.X > 3 || p.Y < -2 || p.Y > 3 {
		return frame(p.X, p.Y)
	}
	// The ring: which of the eight regions around the unit square.
	rx := func(t float64) int {
		switch {
		case t >= 1:
			return 2
		case t >= 0:
			return 1
		}
		return 0
	}
	fx, fy := float64(cols), float64(rows)
	// rescale maps [lo, hi] to [0, 1].
	rescale := func(t, lo, hi float64) float64 { return (t - lo) / (hi - lo) }
	switch rx(p.X) + 3*rx(p.Y) {
	case 7: // below the grid in y-down terms: y ≥ 1
		ix := min(int(p.X*fx), cols-1)
		return triangle(p.X*fx-float64(ix), rescale(p.Y, 1, 3),
			at(ix, rows), at(ix+1, rows), frame(float64(ix)/fx, 3), frame(float64(ix+1)/fx, 3))
	case 1: // y < 0
		ix := min(int(p.X*fx), cols-1)
		return triangle(p.X*fx-float64(ix), rescale(p.Y, -2, 0),
			frame(float64(ix)/fx, -2), frame(float64(ix+1)/fx, -2), at(ix, 0), at(ix+1, 0))
	case 3: // x < 0
		iy := min(int(p.Y*fy), rows-1)
		return triangle(rescale(p.X, -2, 0), p.Y*fy-float64(iy),
			frame(-2, float64(iy)/fy), at(0, iy), frame(-2, float64(iy+1)/fy), at(0, iy+1))
	case 5: // x ≥ 1
		iy := min(int(p.Y*fy), rows-1)
		return triangle(rescale(p.X, 1, 3), p.Y*fy-float64(iy),
			at(cols, iy), frame(3, float64(iy)/fy), at(cols, iy+1), frame(3, float64(iy+1)/fy))
	case 6:
		return triangle(rescale(p.X, -2, 0), rescale(p.Y, 1, 3), frame(-2, 1), c01, frame(-2, 3), frame(0, 3))
	case 8:
		return triangle(rescale(p.X, 1, 3), rescale(p.Y, 1, 3), c11, frame(3, 1), frame(1, 3), frame(3, 3))
	case 0:
		return triangle(rescale(p.X, -2, 0), rescale(p.Y, -2, 0), frame(-2, -2), frame(0, -2), frame(-2, 0), c00)
	case 2:
		return triangle(rescale(p.X, 1, 3), rescale(p.Y, -2, 0), frame(1, -2), frame(3, -2), c10, frame(3, 0))
	}
	panic("unreachable: the inside was handled above")
}

// triangle interpolates a cell split along (1,0)–(0,1): the lower triangle
// from p00, the upper (tx + ty > 1) from p11.
func triangle(tx, ty float64, p00, p10, p01, p11 Vec) Vec {
	if tx+ty > 1 {
		return p11.add(p01.sub(p11).scale(1 - tx)).add(p10.sub(p11).scale(1 - ty))
	}
	return p00.add(p10.sub(p00).scale(tx)).add(p01.sub(p00).scale(ty))
}

// emit appends draw order group g's drawables to res, recursively.
func (e *evaluator) emit(g int, res *Result, seen []bool) {
	if seen[g] { // a malformed cycle; the samples have none
		return
	}
	seen[g] = true
	grp := e.m.DrawOrderGroups[g]
	type item struct {
		key, pos int
		obj      moc3.DrawOrderObject
	}
	items := make([]item, len(grp.Objects))
	lo, hi := int(grp.MinDrawOrder), int(grp.MaxDrawOrder)
	for j, o := range grp.Objects {
		key := lo
		switch o.Kind {
		case moc3.DrawArtMesh:
			if res.Enabled[o.Index] {
				key = int(math.Round(res.DrawOrder[o.Index]))
			}
		case moc3.DrawPart:
			if res.PartEnabled[o.Index] {
				key = int(math.Round(res.PartDrawOrder[o.Index]))
			}
		}
		items[j] = item{min(max(key, lo), hi), j, o}
	}
	// Insertion sort: stable, ties keep the group's order.
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && items[j].key < items[j-1].key; j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
	for _, it := range items {
		switch it.obj.Kind {
		case moc3.DrawArtMesh:
			if res.Enabled[it.obj.Index] {
				res.RenderOrder = append(res.RenderOrder, it.obj.Index)
				res.Commands = append(res.Commands, it.obj.Index)
			}
		case moc3.DrawPart:
			if it.obj.Group < 0 {
				continue
			}
			part := it.obj.Index
			bracket := e.m.Parts[part].Offscreen >= 0 && res.PartEnabled[part]
			if bracket {
				res.Commands = append(res.Commands, -2-part)
			}
			e.emit(it.obj.Group, res, seen)
			if bracket {
				res.Commands = append(res.Commands, -1)
			}
		}
	}
}
