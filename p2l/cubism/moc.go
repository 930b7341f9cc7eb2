package cubism

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/internal/adopt"
	"github.com/psd2live/p2l-ebiten/p2l/moc3"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file lowers a .moc3 into a *p2lrt.File that evaluates as the Cubism
// Core (p2l.EvaluationCubism; docs/CUBISM.md, "Evaluation: the Core's rules
// and ours" and "Lowering a .moc3").
//
// Spaces. The moc's root objects are in model units with y down (the
// unit square of a warp has v down too; the Core reports positions with y
// up, which hosts map back to canvas pixels as (originX + x·ppu,
// originY − y·ppu)). p2l's root space is canvas pixels, y down, so a root
// point p becomes T(p) = origin + ppu·p. T is affine, so everything the
// Core computes from points by affine combinations (keyform blends, warp
// cells, the warp's affine frame) commutes with it. Rotation deformers are
// rigid frames p = O + S·R(θ)·q, and T(O + S·R(θ)·q) = T(O) + ppu·S·R(θ)·q:
// a rotation's children are kept as they are (the Editor's pixels), and
// the factor ppu goes into the scale. The Core's scale of a rotation is its
// own times that of the nearest rotation above it (warps pass it on), so
// only rotations without a rotation above take the factor: the others
// inherit it. (The sample mocs give the rotations without one above a
// scale of 1/ppu, so their lowered scale is 1.) Warp children are in the
// warp's unit square, which is not a canvas space and is kept as it is.

// ReadMoc parses a .moc3 file and lowers it into a file that evaluates as
// the Cubism Core (META evaluation=cubism) once p2l.NewModel has made it a
// model. Ids are kept (parameters,
// parts, deformers, art meshes, glues), so motions, expressions, physics
// and poses address them by their Cubism ids. The canvas is in pixels, y
// down, from the moc's pixels per unit and origin. Texture pages are
// external pages named by index ("texture_00.png" …, one per page an art
// mesh uses); Load replaces them with the model3.json's Textures.
//
// The file shares arrays with data (moc3.Parse: keyform points and UVs
// are views of the file's bytes): do not modify data while the file is in
// use. p2l.NewModel copies the file, so the model does not share them.
//
// Errors are a *moc3.FormatError for a file that does not parse and a
// *Error (File "moc3") naming the object for one that parses but cannot
// be lowered: the lowered file validates. Whether it evaluates with finite
// results at its default pose is p2l.NewModel's check (Load reports its
// failure as an *Error "at the default pose").
func ReadMoc(data []byte) (*p2lrt.File, error) {
	m, err := parseAndLower(data)
	if err != nil {
		return nil, err
	}
	if err := validLowered(m); err != nil {
		return nil, err
	}
	return m, nil
}

// parseAndLower is ReadMoc without the validation: Load validates the
// bundle's whole file once, after adding the rest of the bundle.
func parseAndLower(data []byte) (*p2lrt.File, error) {
	moc, err := moc3.Parse(data)
	if err != nil {
		return nil, err
	}
	return lowerMoc(moc)
}

// validLowered validates a lowered file (with what the bundle added).
func validLowered(m *p2lrt.File) error {
	if err := m.Validate(); err != nil {
		return &Error{File: mocFile, Msg: "the lowered model is not valid: " + err.Error()}
	}
	return nil
}

// newModel makes the model of f, a valid file this package built and holds
// no other reference to: p2l takes it without the validation and copy
// NewModel makes of the files it is given (package p2l/internal/adopt).
func newModel(f *p2lrt.File) (*p2l.Model, error) {
	m, err := adopt.Model(f)
	if err != nil {
		return nil, err
	}
	return m.(*p2l.Model), nil
}

// mocFile is the File of the *Error values ReadMoc returns.
const mocFile = "moc3"

// mocError is a lowering error about object index of a section.
func mocError(section string, index int, id, format string, args ...any) *Error {
	return &Error{File: mocFile, Field: fmt.Sprintf("%s %d (%q)", section, index, id), Msg: fmt.Sprintf(format, args...)}
}

// space is where an object's points live: the canvas root, a rotation
// deformer's child space or a warp's unit square.
type space uint8

const (
	rootSpace space = iota
	rotationSpace
	warpSpace
)

// lowering holds the moc being lowered and its index maps.
type lowering struct {
	moc      *moc3.Moc
	m        *p2lrt.File
	ppu      float64
	ox, oy   float64
	defOrder []int // p2l deformer index → moc deformer index
	defIndex []int // moc deformer index → p2l deformer index
	// partOn: the part and every part above it are enabled (static).
	partOn []bool
	// floats hands out the keyform arrays of the lowered model, pointGrids
	// and pointCells the point grids (warp and art mesh keyforms) and
	// their cells (sized by lowerMoc).
	floats     arena[float32]
	pointGrids arena[p2lrt.Grid[[]float32]]
	pointCells arena[p2lrt.Cell[[]float32]]
	// layouts caches the grid layout of each keyform binding (layoutOf).
	layouts []*layout
	// blends is the scratch of the default blends of the object being
	// lowered (defaultBlend), reused from object to object.
	blends []float64
}

// arena hands out slices of a few large backing arrays: a lowered model
// holds thousands of keyform arrays, and one allocation each would cost
// more than filling them. Each slice is capped at its length, so an append
// to it cannot reach its neighbour. The backing arrays double from
// arenaFirst to arenaChunk elements, so that a model needing little (most
// mocs have few root-space points) does not clear a large one.
type arena[T any] struct {
	free []T
	next int // size of the next backing array
}

// arenaFirst and arenaChunk are the sizes of an arena's first and largest
// backing arrays (elements).
const (
	arenaFirst = 1 << 10
	arenaChunk = 1 << 15
)

// take returns a zeroed slice of n elements (a nil arena allocates it on
// its own).
func (a *arena[T]) take(n int) []T {
	if a == nil {
		return make([]T, n)
	}
	if n > cap(a.free)-len(a.free) {
		if n > arenaChunk/4 {
			return make([]T, n)
		}
		a.next = min(max(2*a.next, arenaFirst), arenaChunk)
		a.free = make([]T, 0, max(a.next, n))
	}
	k := len(a.free)
	a.free = a.free[:k+n]
	return a.free[k : k+n : k+n]
}

func lowerMoc(moc *moc3.Moc) (*p2lrt.File, error) {
	c := moc.Canvas
	if !(c.PixelsPerUnit > 0) || math.IsInf(float64(c.PixelsPerUnit), 0) {
		return nil, &Error{File: mocFile, Field: "canvas", Msg: fmt.Sprintf("pixels per unit %v is not a positive number", c.PixelsPerUnit)}
	}
	l := &lowering{moc: moc, m: &p2lrt.File{}, ppu: float64(c.PixelsPerUnit), ox: float64(c.OriginX), oy: float64(c.OriginY)}
	m := l.m
	m.Canvas = p2lrt.Canvas{Width: c.Width, Height: c.Height, OriginX: c.OriginX, OriginY: c.OriginY, PixelsPerUnit: c.PixelsPerUnit}
	// The key epsilons, one number per parameter, comma-separated.
	var eps []byte
	m.Parameters = make([]p2lrt.Parameter, 0, len(moc.Parameters))
	for i, p := range moc.Parameters {
		m.Parameters = append(m.Parameters, p2lrt.Parameter{
			ID: p.ID, Name: p.ID, Min: p.Min, Max: p.Max, Default: p.Default,
			Blend: p.Type == moc3.ParameterBlendShape, Repeat: p.Repeat,
		})
		// moc3-rs ParamData::new: 0.1f32.powi(decimals).
		e := float32(1)
		for range min(p.DecimalPlaces, 45) {
			e *= 0.1
		}
		if i > 0 {
			eps = append(eps, ',')
		}
		eps = strconv.AppendFloat(eps, float64(e), 'g', -1, 32)
	}
	m.Meta = []p2lrt.MetaEntry{
		{Key: p2l.MetaEvaluation, Value: p2l.EvaluationCubism.String()},
		{Key: p2l.MetaKeyEpsilons, Value: string(eps)},
		{Key: "cubism.moc-version", Value: moc.Version.String()},
	}
	if len(moc.DrawOrderGroups) > 0 {
		// Filled by drawTree, in the draw tree's group order.
		m.Meta = append(m.Meta, p2lrt.MetaEntry{Key: p2l.MetaDrawOrderRanges})
	}
	l.partsEnabled()
	// The point grids, one per warp and art mesh, and their cells, one per
	// keyform, in two arrays of the exact sizes.
	grids, cells := len(moc.WarpDeformers)+len(moc.ArtMeshes), 0
	for i := range moc.WarpDeformers {
		cells += len(moc.WarpDeformers[i].Keyforms)
	}
	for i := range moc.ArtMeshes {
		cells += len(moc.ArtMeshes[i].Keyforms)
	}
	l.pointGrids.free = make([]p2lrt.Grid[[]float32], 0, grids)
	l.pointCells.free = make([]p2lrt.Cell[[]float32], 0, cells)
	if err := l.deformers(); err != nil {
		return nil, err
	}
	if err := l.parts(); err != nil {
		return nil, err
	}
	if err := l.meshes(); err != nil {
		return nil, err
	}
	if err := l.glues(); err != nil {
		return nil, err
	}
	if err := l.drawTree(); err != nil {
		return nil, err
	}
	return m, nil
}

// partsEnabled computes the static enabled state of every part: its own
// flag and its ancestors' (moc3-rs resolve_enabled; the moc lists parents
// first, a later or cyclic parent counts as disabled).
func (l *lowering) partsEnabled() {
	l.partOn = make([]bool, len(l.moc.Parts))
	for i, p := range l.moc.Parts {
		on := p.Enabled
		if p.Parent >= 0 {
			on = on && p.Parent < i && l.partOn[p.Parent]
		}
		l.partOn[i] = on
	}
}

// partEnabled is the static state of part i (−1: no part, enabled).
func (l *lowering) partEnabled(i int) bool { return i < 0 || i >= len(l.partOn) || l.partOn[i] }

// points lowers the first n points (x,y pairs) of pts, in space s. Only
// root points change (see the file comment): the others are the moc's own
// array, which the lowered model then shares.
func (l *lowering) points(s space, pts []float32, n int) []float32 {
	if s != rootSpace {
		return pts[: 2*n : 2*n]
	}
	v := l.floats.take(2 * n)
	pointsInto(l, s, pts[:2*n], v)
	return v
}

// pointsInto lowers pts (x,y pairs), in space s, into dst.
func pointsInto[T float32 | float64](l *lowering, s space, pts []float32, dst []T) {
	dst = dst[:len(pts)]
	if s != rootSpace {
		for j, v := range pts {
			dst[j] = T(v)
		}
		return
	}
	for j := 0; j+1 < len(pts); j += 2 {
		x, y := l.point(s, pts[j], pts[j+1])
		dst[j], dst[j+1] = T(x), T(y)
	}
}

// point lowers a point of the given space (see the file comment).
func (l *lowering) point(s space, x, y float32) (float32, float32) {
	switch s {
	case rootSpace:
		return float32(l.ox + l.ppu*float64(x)), float32(l.oy + l.ppu*float64(y))
	}
	return x, y
}

// vector lowers a difference of two points of the given space.
func (l *lowering) vector(s space, x, y float64) (float64, float64) {
	if s == rootSpace {
		return l.ppu * x, l.ppu * y
	}
	return x, y
}

// scaleFactor is what a rotation's scale is multiplied by: ppu when no
// rotation lies above moc deformer d (see the file comment), else 1.
func (l *lowering) scaleFactor(d int) float64 {
	ds := l.moc.Deformers
	for a, n := ds[d].ParentDeformer, 0; a >= 0 && n < len(ds); a, n = ds[a].ParentDeformer, n+1 {
		if ds[a].Kind == moc3.Rotation {
			return 1
		}
	}
	return l.ppu
}

// spaceOf is the space of a child of moc deformer d (−1: the root).
func (l *lowering) spaceOf(d int) space {
	switch {
	case d < 0:
		return rootSpace
	case l.moc.Deformers[d].Kind == moc3.Rotation:
		return rotationSpace
	}
	return warpSpace
}

// deformers lowers the deformer list, parents first (the moc lists them so;
// the order is rebuilt by depth in case a file does not).
func (l *lowering) deformers() error {
	ds := l.moc.Deformers
	depth := make([]int, len(ds))
	for i := range ds {
		for a := ds[i].ParentDeformer; a >= 0 && a < len(ds) && depth[i] <= len(ds); a = ds[a].ParentDeformer {
			depth[i]++
		}
		if depth[i] > len(ds) {
			return mocError("deformer", i, ds[i].ID, "its parents form a cycle")
		}
	}
	l.defOrder = make([]int, len(ds))
	for i := range l.defOrder {
		l.defOrder[i] = i
	}
	byDepth := func(a, b int) int { return depth[a] - depth[b] }
	if !slices.IsSortedFunc(l.defOrder, byDepth) { // mocs list parents first
		slices.SortStableFunc(l.defOrder, byDepth)
	}
	l.defIndex = make([]int, len(ds))
	for n, i := range l.defOrder {
		l.defIndex[i] = n
	}
	if len(ds) > 0 {
		l.m.Deformers = make([]p2lrt.Deformer, 0, len(ds))
	}
	for _, i := range l.defOrder {
		d := ds[i]
		out := p2lrt.Deformer{ID: d.ID, Parent: -1, Part: d.ParentPart, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}
		if d.ParentDeformer >= 0 {
			out.Parent = l.defIndex[d.ParentDeformer]
		}
		if d.Visible {
			out.Flags |= p2lrt.DeformerVisible
		}
		if d.Enabled && l.partEnabled(d.ParentPart) {
			out.Flags |= p2lrt.DeformerEnabled
		}
		s := l.spaceOf(d.ParentDeformer)
		switch d.Kind {
		case moc3.Warp:
			w := &l.moc.WarpDeformers[d.Index]
			out.Kind = p2lrt.WarpDeformer
			if w.Quad {
				out.Flags |= p2lrt.DeformerBilinear
			}
			lay := l.layoutOf(w.Binding, w.Axes, len(w.Keyforms))
			out.Warp = l.warp(w, s, lay)
			kf := w.Keyforms
			out.Opacity, out.Multiply, out.Screen = kf[0].Opacity, rgb(kf[0].Multiply), rgb(kf[0].Screen)
			out.Channels = objectChannels(lay,
				func(k int) float32 { return kf[k].Opacity }, nil,
				func(k int) (moc3.RGB, moc3.RGB) { return kf[k].Multiply, kf[k].Screen })
		case moc3.Rotation:
			r := &l.moc.RotationDeformers[d.Index]
			out.Kind = p2lrt.RotationDeformer
			lay := l.layoutOf(r.Binding, r.Axes, len(r.Keyforms))
			out.Rotation = l.rotation(r, s, l.scaleFactor(i), lay)
			kf := r.Keyforms
			out.Opacity, out.Multiply, out.Screen = kf[0].Opacity, rgb(kf[0].Multiply), rgb(kf[0].Screen)
			out.Channels = objectChannels(lay,
				func(k int) float32 { return kf[k].Opacity }, nil,
				func(k int) (moc3.RGB, moc3.RGB) { return kf[k].Multiply, kf[k].Screen })
			out.Channels = append(out.Channels, reflectChannels(r, lay)...)
		default:
			return mocError("deformer", i, d.ID, "unknown kind %d", d.Kind)
		}
		l.m.Deformers = append(l.m.Deformers, out)
	}
	return nil
}

// warp lowers a warp deformer's keyforms and blend shapes.
func (l *lowering) warp(w *moc3.WarpDeformer, s space, lay *layout) *p2lrt.Warp {
	n := (w.Columns + 1) * (w.Rows + 1)
	out := &p2lrt.Warp{Columns: w.Columns, Rows: w.Rows}
	out.Keyforms = gridIn(&l.pointGrids, &l.pointCells, lay, func(k int) []float32 { return l.points(s, w.Keyforms[k].Points, n) })
	if len(w.BlendShapes) == 0 {
		return out
	}
	l.newBlends()
	def := l.defaultBlend(w.Axes, len(w.Keyforms), 2*n, func(k int, dst []float64) {
		pointsInto(l, s, w.Keyforms[k].Points[:2*n], dst)
	})
	// Opacity, then multiply and screen (colorValues).
	defOp := l.defaultBlend(w.Axes, len(w.Keyforms), 7, func(k int, dst []float64) {
		dst[0] = float64(w.Keyforms[k].Opacity)
		colorValues(dst[1:7], w.Keyforms[k].Multiply, w.Keyforms[k].Screen)
	})
	out.Shapes = make([]p2lrt.Binding[p2lrt.WarpShape], 0, len(w.BlendShapes))
	for _, b := range w.BlendShapes {
		out.Shapes = append(out.Shapes, lowerShape(l, b, func(kf, base moc3.WarpKeyform) p2lrt.WarpShape {
			pts := l.floats.take(2 * n)
			for j := range n {
				dx, dy := l.vector(s, float64(kf.Points[2*j])-float64(base.Points[2*j]), float64(kf.Points[2*j+1])-float64(base.Points[2*j+1]))
				pts[2*j], pts[2*j+1] = float32(def[2*j]+dx), float32(def[2*j+1]+dy)
			}
			return p2lrt.WarpShape{Points: pts, Opacity: float32(defOp[0] + float64(kf.Opacity) - float64(base.Opacity)),
				Multiply: shapeColor(defOp[1:4], kf.Multiply, base.Multiply),
				Screen:   shapeColor(defOp[4:7], kf.Screen, base.Screen)}
		}))
	}
	return out
}

// rotation lowers a rotation deformer's keyforms and blend shapes: origins
// into the parent's lowered space, scales times factor (scaleFactor).
func (l *lowering) rotation(r *moc3.RotationDeformer, s space, factor float64, lay *layout) *p2lrt.Rotation {
	out := &p2lrt.Rotation{BaseAngle: r.BaseAngle}
	key := func(k moc3.RotationKeyform) p2lrt.RotationKey {
		x, y := l.point(s, k.OriginX, k.OriginY)
		return p2lrt.RotationKey{X: x, Y: y, Angle: k.Angle, Scale: float32(factor * float64(k.Scale))}
	}
	out.Keyforms = gridOf(lay, func(k int) p2lrt.RotationKey { return key(r.Keyforms[k]) })
	if len(r.BlendShapes) == 0 {
		return out
	}
	l.newBlends()
	def := l.defaultBlend(r.Axes, len(r.Keyforms), 11, func(k int, dst []float64) {
		v := key(r.Keyforms[k])
		dst[0], dst[1], dst[2], dst[3], dst[4] = float64(v.X), float64(v.Y), float64(v.Angle), float64(v.Scale), float64(r.Keyforms[k].Opacity)
		colorValues(dst[5:11], r.Keyforms[k].Multiply, r.Keyforms[k].Screen)
	})
	out.Shapes = make([]p2lrt.Binding[p2lrt.RotationShape], 0, len(r.BlendShapes))
	for _, b := range r.BlendShapes {
		out.Shapes = append(out.Shapes, lowerShape(l, b, func(kf, base moc3.RotationKeyform) p2lrt.RotationShape {
			dx, dy := l.vector(s, float64(kf.OriginX)-float64(base.OriginX), float64(kf.OriginY)-float64(base.OriginY))
			return p2lrt.RotationShape{
				X: float32(def[0] + dx), Y: float32(def[1] + dy),
				Angle:    float32(def[2] + float64(kf.Angle) - float64(base.Angle)),
				Scale:    float32(def[3] + factor*(float64(kf.Scale)-float64(base.Scale))),
				Opacity:  float32(def[4] + float64(kf.Opacity) - float64(base.Opacity)),
				Multiply: shapeColor(def[5:8], kf.Multiply, base.Multiply),
				Screen:   shapeColor(def[8:11], kf.Screen, base.Screen),
			}
		}))
	}
	return out
}

// reflectChannels turns a rotation's per-keyform reflections into FlipX and
// FlipY flag channels (a reflection negates the child's x or y).
// Rotations that never reflect get none.
func reflectChannels(r *moc3.RotationDeformer, lay *layout) []p2lrt.Channel {
	var out []p2lrt.Channel
	for _, ax := range []struct {
		id p2lrt.ChannelID
		on func(moc3.RotationKeyform) bool
	}{
		{p2lrt.ChannelFlipX, func(k moc3.RotationKeyform) bool { return k.ReflectX }},
		{p2lrt.ChannelFlipY, func(k moc3.RotationKeyform) bool { return k.ReflectY }},
	} {
		if !slices.ContainsFunc(r.Keyforms, ax.on) {
			continue
		}
		g := gridOf(lay, func(k int) p2lrt.ChannelValue {
			if ax.on(r.Keyforms[k]) {
				return p2lrt.ChannelValue{1}
			}
			return p2lrt.ChannelValue{}
		})
		out = append(out, p2lrt.Channel{ID: ax.id, Kind: p2lrt.ChannelFlag, Grid: g})
	}
	return out
}

// layout is the axes and the cell coordinates of a keyform grid over a
// moc binding's axes (first axis fastest, as the moc stores keyforms):
// every grid over one binding shares them (layoutOf).
type layout struct {
	axes   []p2lrt.Axis
	coords [][]uint16
}

// newLayout lays out n keyforms over axes.
func newLayout(axes []moc3.Axis, n int) *layout {
	lay := &layout{}
	if len(axes) > 0 {
		lay.axes = make([]p2lrt.Axis, len(axes))
		for a, ax := range axes {
			lay.axes[a] = p2lrt.Axis{Parameter: ax.Parameter, Keys: ax.Keys}
		}
	}
	if n == 0 {
		return lay
	}
	na := len(axes)
	all := make([]uint16, n*na)
	lay.coords = make([][]uint16, n)
	for k := range n {
		coord := all[k*na : (k+1)*na : (k+1)*na]
		rest := k
		for a := range axes {
			coord[a] = uint16(rest % len(axes[a].Keys))
			rest /= len(axes[a].Keys)
		}
		lay.coords[k] = coord
	}
	return lay
}

// layoutOf is the layout of n keyforms over keyform binding kb, whose
// axes are axes: built once per binding.
func (l *lowering) layoutOf(kb int, axes []moc3.Axis, n int) *layout {
	if kb < 0 || kb >= len(l.moc.KeyformBindings) {
		return newLayout(axes, n)
	}
	if l.layouts == nil {
		l.layouts = make([]*layout, len(l.moc.KeyformBindings))
	}
	if lay := l.layouts[kb]; lay != nil && len(lay.coords) == n && len(lay.axes) == len(axes) {
		return lay
	}
	lay := newLayout(axes, n)
	l.layouts[kb] = lay
	return lay
}

// gridOf builds the keyform grid of layout lay whose cell k holds
// value(k).
func gridOf[T any](lay *layout, value func(int) T) *p2lrt.Grid[T] {
	return gridIn(nil, nil, lay, value)
}

// gridIn is gridOf with the grid and its cells taken from arenas (nil:
// allocated on their own).
func gridIn[T any](grids *arena[p2lrt.Grid[T]], cells *arena[p2lrt.Cell[T]], lay *layout, value func(int) T) *p2lrt.Grid[T] {
	g := &grids.take(1)[0]
	g.Axes = lay.axes
	if len(lay.coords) == 0 {
		return g
	}
	g.Cells = cells.take(len(lay.coords))
	for k, c := range lay.coords {
		g.Cells[k] = p2lrt.Cell[T]{Coord: c, Value: value(k)}
	}
	return g
}

// objectChannels returns the channels of an object whose properties vary
// over its keyforms: opacity, draw order (nil: none) and colours (channels
// only where some keyform differs from the first).
func objectChannels(lay *layout, opacity, drawOrder func(int) float32, colors func(int) (moc3.RGB, moc3.RGB)) []p2lrt.Channel {
	n := len(lay.coords)
	if len(lay.axes) == 0 || n < 2 {
		return nil
	}
	var out []p2lrt.Channel
	scalar := func(id p2lrt.ChannelID, f func(int) float32) {
		v0 := f(0)
		for k := 1; k < n; k++ {
			if f(k) != v0 {
				out = append(out, p2lrt.Channel{ID: id, Kind: p2lrt.ChannelScalar,
					Grid: gridOf(lay, func(k int) p2lrt.ChannelValue { return p2lrt.ChannelValue{f(k)} })})
				return
			}
		}
	}
	if drawOrder != nil {
		scalar(p2lrt.ChannelDrawOrder, drawOrder)
	}
	scalar(p2lrt.ChannelOpacity, opacity)
	if colors != nil {
		color := func(id p2lrt.ChannelID, f func(int) moc3.RGB) {
			c0 := f(0)
			for k := 1; k < n; k++ {
				if f(k) != c0 {
					out = append(out, p2lrt.Channel{ID: id, Kind: p2lrt.ChannelColor,
						Grid: gridOf(lay, func(k int) p2lrt.ChannelValue { c := f(k); return p2lrt.ChannelValue{c.R, c.G, c.B} })})
					return
				}
			}
		}
		color(p2lrt.ChannelMultiply, func(k int) moc3.RGB { m, _ := colors(k); return m })
		color(p2lrt.ChannelScreen, func(k int) moc3.RGB { _, s := colors(k); return s })
	}
	return out
}

func rgb(c moc3.RGB) p2lrt.Color { return p2lrt.Color{c.R, c.G, c.B} }

// defaultBlend is the multilinear blend of an object's keyforms (n values
// each, written by value) at every parameter's default: the value p2l
// subtracts from a blend shape's target (docs/EVALUATION.md, "Blend
// shapes"). Cubism evaluation does not snap; values outside the keys clamp.
//
// The result is scratch (blendScratch): valid until the next object's
// lowering starts (newBlends).
func (l *lowering) defaultBlend(axes []moc3.Axis, nkf, n int, value func(k int, dst []float64)) []float64 {
	out := l.blendScratch(n)
	tmp := l.blendScratch(n)
	type corner struct {
		k int
		w float64
	}
	cs := []corner{{0, 1}}
	stride := 1
	for _, a := range axes {
		p := l.moc.Parameters[a.Parameter]
		v := min(max(p.Default, min(p.Min, p.Max)), max(p.Min, p.Max))
		i, t := 0, 0.0
		keys := a.Keys
		switch last := len(keys) - 1; {
		case last == 0 || v <= keys[0]:
		case v >= keys[last]:
			i = last
		default:
			for i+1 < last && keys[i+1] <= v {
				i++
			}
			t = (float64(v) - float64(keys[i])) / (float64(keys[i+1]) - float64(keys[i]))
		}
		next := cs[:0:0]
		for _, c := range cs {
			next = append(next, corner{c.k + i*stride, c.w * (1 - t)})
			if t > 0 {
				next = append(next, corner{c.k + (i+1)*stride, c.w * t})
			}
		}
		cs = next
		stride *= len(keys)
	}
	for _, c := range cs {
		if c.k >= nkf {
			continue
		}
		value(c.k, tmp)
		for j := range out {
			out[j] += c.w * tmp[j]
		}
	}
	l.blends = l.blends[:len(l.blends)-n] // tmp is free again
	return out
}

// newBlends starts an object's default blends: the scratch of the
// previous object's is reused.
func (l *lowering) newBlends() { l.blends = l.blends[:0] }

// blendScratch takes n zeroed floats from the scratch of default blends.
// When it runs out, a larger array replaces it: the slices handed out
// before keep the old one.
func (l *lowering) blendScratch(n int) []float64 {
	k := len(l.blends)
	if cap(l.blends)-k < n {
		l.blends = make([]float64, 0, max(2*cap(l.blends), n, 256))
		k = 0
	}
	l.blends = l.blends[:k+n]
	s := l.blends[k : k+n : k+n]
	clear(s)
	return s
}

// lowerShape turns a moc blend shape into a p2l binding: the moc's keyforms
// are the object's at each key, the shape adds their difference from the
// base key's (zero at the base key, the binding's neutral key); p2l adds
// weight × (target − value at the default pose), so a target is the
// default value plus that difference (target builds it from a keyform and
// the base keyform). Constraints become limits.
func lowerShape[K, S any](l *lowering, b moc3.BlendShape[K], target func(kf, base K) S) p2lrt.Binding[S] {
	out := p2lrt.Binding[S]{Parameter: b.Parameter, Keys: b.Keys, Neutral: b.BaseKey,
		Present: make([]bool, len(b.Keys)), Shapes: make([]S, len(b.Keys))}
	base := b.Keyforms[b.BaseKey]
	for k := range b.Keys {
		if k != b.BaseKey {
			out.Present[k] = true
			out.Shapes[k] = target(b.Keyforms[k], base)
		}
	}
	if len(b.Constraints) > 0 {
		out.Limits = make([]p2lrt.Limit, len(b.Constraints))
	}
	for j, c := range b.Constraints {
		lim := p2lrt.Limit{Parameter: c.Parameter, Points: make([]p2lrt.LimitPoint, len(c.Keys))}
		for i, k := range c.Keys {
			lim.Points[i] = p2lrt.LimitPoint{Value: k, Weight: c.Weights[i]}
		}
		out.Limits[j] = lim
	}
	return out
}

// parts lowers the part tree: children from the moc's parent references
// (parts and art meshes, in index order), draw order and (5.3 offscreen)
// opacity and colours as channels over the part's keyforms.
func (l *lowering) parts() error {
	moc := l.moc
	if len(moc.Parts) > 0 {
		l.m.Parts = make([]p2lrt.Part, 0, len(moc.Parts))
	}
	for i, p := range moc.Parts {
		if len(p.Keyforms) == 0 {
			return mocError("part", i, p.ID, "no keyform")
		}
		kf := p.Keyforms
		out := p2lrt.Part{ID: p.ID, Name: p.ID, GroupMode: p2lrt.GroupPassThrough, DrawOrder: int32(math.Round(float64(kf[0].DrawOrder))),
			Composite: p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black}}
		if p.Visible {
			out.Flags |= p2lrt.PartVisible
		}
		lay := l.layoutOf(p.Binding, p.Axes, len(kf))
		out.Channels = objectChannels(lay,
			func(k int) float32 { return kf[k].Opacity },
			func(k int) float32 { return kf[k].DrawOrder },
			func(k int) (moc3.RGB, moc3.RGB) { return kf[k].Multiply, kf[k].Screen })
		if len(p.Axes) > 0 && !slices.ContainsFunc(out.Channels, func(c p2lrt.Channel) bool { return c.ID == p2lrt.ChannelDrawOrder }) {
			// The draw order channel carries the part's keyform axes, which
			// Cubism evaluation's range test reads.
			out.Channels = append(out.Channels, p2lrt.Channel{ID: p2lrt.ChannelDrawOrder, Kind: p2lrt.ChannelScalar,
				Grid: gridOf(lay, func(k int) p2lrt.ChannelValue { return p2lrt.ChannelValue{kf[k].DrawOrder} })})
		}
		if p.Offscreen >= 0 && p.Offscreen < len(moc.Offscreens) {
			o := moc.Offscreens[p.Offscreen]
			out.GroupMode = p2lrt.GroupIsolated
			out.Composite = p2lrt.Composite{
				Blend: p2lrt.BlendMode(o.BlendMode.Color()), AlphaBlend: p2lrt.AlphaMode(o.BlendMode.Alpha()),
				MaskMeshes: slices.Clone(o.Masks), InvertMask: o.Flags&moc3.FlagInvertedMask != 0,
				Opacity: kf[0].Opacity, Multiply: rgb(kf[0].Multiply), Screen: rgb(kf[0].Screen),
			}
		}
		if len(p.BlendShapes) > 0 {
			l.newBlends()
			def := l.defaultBlend(p.Axes, len(kf), 8, func(k int, d []float64) {
				c := kf[k]
				d[0], d[1] = float64(c.DrawOrder), float64(c.Opacity)
				colorValues(d[2:8], c.Multiply, c.Screen)
			})
			out.Shapes = make([]p2lrt.Binding[p2lrt.PartShape], 0, len(p.BlendShapes))
			for _, b := range p.BlendShapes {
				out.Shapes = append(out.Shapes, lowerShape(l, b, func(k, base moc3.PartKeyform) p2lrt.PartShape {
					return p2lrt.PartShape{
						DrawOrder: float32(def[0] + float64(k.DrawOrder) - float64(base.DrawOrder)),
						Opacity:   float32(def[1] + float64(k.Opacity) - float64(base.Opacity)),
						Multiply:  shapeColor(def[2:5], k.Multiply, base.Multiply),
						Screen:    shapeColor(def[5:8], k.Screen, base.Screen),
					}
				}))
			}
		}
		l.m.Parts = append(l.m.Parts, out)
	}
	// Children lists are carved from one array, each part's sized first.
	kids := make([]int, len(moc.Parts))
	for _, p := range moc.Parts {
		if p.Parent >= 0 {
			kids[p.Parent]++
		}
	}
	for _, a := range moc.ArtMeshes {
		if a.ParentPart >= 0 {
			kids[a.ParentPart]++
		}
	}
	all := make([]p2lrt.PartChild, 0, len(moc.Parts)+len(moc.ArtMeshes))
	for i, n := range kids {
		if n > 0 {
			l.m.Parts[i].Children = all[len(all) : len(all) : len(all)+n]
			all = all[:len(all)+n]
		}
	}
	for i, p := range moc.Parts {
		if p.Parent >= 0 {
			l.m.Parts[p.Parent].Children = append(l.m.Parts[p.Parent].Children, p2lrt.PartChild{Kind: p2lrt.ChildPart, Index: i})
		}
	}
	for i, a := range moc.ArtMeshes {
		if a.ParentPart >= 0 {
			l.m.Parts[a.ParentPart].Children = append(l.m.Parts[a.ParentPart].Children, p2lrt.PartChild{Kind: p2lrt.ChildMesh, Index: i})
		}
	}
	return nil
}

// colorValues writes a keyform's multiply and screen colours into dst[0:6]
// for defaultBlend, in the order shapeColor reads them back.
func colorValues(dst []float64, mul, scr moc3.RGB) {
	dst[0], dst[1], dst[2] = float64(mul.R), float64(mul.G), float64(mul.B)
	dst[3], dst[4], dst[5] = float64(scr.R), float64(scr.G), float64(scr.B)
}

// shapeColor is a blend shape's colour target: the default-pose colour def
// plus the keyform's difference from the base keyform's.
func shapeColor(def []float64, k, base moc3.RGB) p2lrt.Color {
	return p2lrt.Color{
		float32(def[0] + float64(k.R) - float64(base.R)),
		float32(def[1] + float64(k.G) - float64(base.G)),
		float32(def[2] + float64(k.B) - float64(base.B)),
	}
}

// meshes lowers the art meshes: rest positions zero and every keyform an
// absolute offset (so a keyform blend is the Core's sum of weighted
// keyforms), UVs as stored (v down, as the positions), masks, flags and
// blend modes.
func (l *lowering) meshes() error {
	pages := 0
	if len(l.moc.ArtMeshes) > 0 {
		l.m.Meshes = make([]p2lrt.Mesh, 0, len(l.moc.ArtMeshes))
	}
	// Every mesh's rest positions are zeros: one array serves them all
	// (the model is immutable), and the meshes' triangle indices share one
	// array too.
	most, nIndices := 0, 0
	for _, a := range l.moc.ArtMeshes {
		most = max(most, a.VertexCount)
		nIndices += len(a.Indices)
	}
	zeros := make([]float32, 2*most)
	indices := make([]uint32, nIndices)
	for i, a := range l.moc.ArtMeshes {
		if len(a.Keyforms) == 0 {
			return mocError("art mesh", i, a.ID, "no keyform")
		}
		s := l.spaceOf(a.ParentDeformer)
		n := a.VertexCount
		kf := a.Keyforms
		out := p2lrt.Mesh{ID: a.ID, Name: a.ID, Parent: -1, Blend: p2lrt.BlendMode(a.BlendMode.Color()), AlphaBlend: p2lrt.AlphaMode(a.BlendMode.Alpha()),
			Masks: slices.Clone(a.Masks), TexturePage: a.Texture,
			DrawOrder: kf[0].DrawOrder, Opacity: kf[0].Opacity, Multiply: rgb(kf[0].Multiply), Screen: rgb(kf[0].Screen)}
		if a.ParentDeformer >= 0 {
			out.Parent = l.defIndex[a.ParentDeformer]
		}
		if a.Texture >= 0 {
			pages = max(pages, a.Texture+1)
		}
		if a.Flags&moc3.FlagInvertedMask != 0 {
			out.Flags |= p2lrt.MeshInvertMask
		}
		if a.Flags&moc3.FlagDoubleSided == 0 {
			out.Flags |= p2lrt.MeshCulling
		}
		if a.Enabled && l.partEnabled(a.ParentPart) {
			out.Flags |= p2lrt.MeshVisible
		}
		if n > 0 {
			out.Flags |= p2lrt.MeshGeometry
			out.Positions = zeros[: 2*n : 2*n]
			out.UVs = a.UVs[: 2*n : 2*n]
			if k := len(a.Indices); k > 0 {
				out.Indices = indices[:k:k]
				indices = indices[k:]
				frontFaces(out.Indices, a.Indices)
			}
		}
		lay := l.layoutOf(a.Binding, a.Axes, len(kf))
		out.Keyforms = gridIn(&l.pointGrids, &l.pointCells, lay, func(k int) []float32 { return l.points(s, kf[k].Positions, n) })
		out.Channels = objectChannels(lay,
			func(k int) float32 { return kf[k].Opacity },
			func(k int) float32 { return kf[k].DrawOrder },
			func(k int) (moc3.RGB, moc3.RGB) { return kf[k].Multiply, kf[k].Screen })
		if len(a.BlendShapes) > 0 {
			l.newBlends()
			def := l.defaultBlend(a.Axes, len(kf), 2*n+8, func(k int, d []float64) {
				pointsInto(l, s, kf[k].Positions[:2*n], d)
				c := kf[k]
				d[2*n], d[2*n+1] = float64(c.DrawOrder), float64(c.Opacity)
				colorValues(d[2*n+2:2*n+8], c.Multiply, c.Screen)
			})
			out.Shapes = make([]p2lrt.Binding[p2lrt.MeshShape], 0, len(a.BlendShapes))
			for _, b := range a.BlendShapes {
				out.Shapes = append(out.Shapes, lowerShape(l, b, func(k, base moc3.ArtMeshKeyform) p2lrt.MeshShape {
					d := l.floats.take(2 * n)
					for j := range n {
						dx, dy := l.vector(s, float64(k.Positions[2*j])-float64(base.Positions[2*j]), float64(k.Positions[2*j+1])-float64(base.Positions[2*j+1]))
						d[2*j], d[2*j+1] = float32(def[2*j]+dx), float32(def[2*j+1]+dy)
					}
					return p2lrt.MeshShape{Deltas: d,
						DrawOrder: float32(def[2*n] + float64(k.DrawOrder) - float64(base.DrawOrder)),
						Opacity:   float32(def[2*n+1] + float64(k.Opacity) - float64(base.Opacity)),
						Multiply:  shapeColor(def[2*n+2:2*n+5], k.Multiply, base.Multiply),
						Screen:    shapeColor(def[2*n+5:2*n+8], k.Screen, base.Screen),
					}
				}))
			}
		}
		l.m.Meshes = append(l.m.Meshes, out)
	}
	for k := range pages {
		l.m.Textures = append(l.m.Textures, p2lrt.TexturePage{Kind: p2lrt.TextureExternal, URI: fmt.Sprintf("texture_%02d.png", k)})
	}
	return nil
}

// frontFaces copies the triangles of src (a multiple of 3 indices, as
// moc3.Parse checks) into dst, each (a, b, c) as (a, c, b). A triangle the
// Editor draws facing the viewer has (b − a) × (c − a) > 0 in the moc's
// y-down space, and so in canvas pixels (the lowering scales by ppu > 0 and
// does not mirror); the .p2lrt rule that culling keeps (docs/RENDERING.md,
// step 4) is the opposite sign. Evidence that the first is Cubism's front
// face: every triangle of Live2D's Wanko sample has that sign, every one of
// its art meshes but the hit area is culled (not double sided), and every
// Cubism runtime shows the whole dog; moc3-rs's renderer culls back faces
// with front = clockwise after a y-flipping projection, the same faces.
// Reversing each triangle lets the renderers keep one rule and a converted
// file play right in any .p2lrt player.
func frontFaces(dst []uint32, src []uint16) {
	dst = dst[:len(src)]
	for len(src) >= 12 {
		// Four triangles written out: Go does not unroll a loop, and this
		// runs on every index of the model.
		d, s := (*[12]uint32)(dst), (*[12]uint16)(src)
		d[0], d[1], d[2] = uint32(s[0]), uint32(s[2]), uint32(s[1])
		d[3], d[4], d[5] = uint32(s[3]), uint32(s[5]), uint32(s[4])
		d[6], d[7], d[8] = uint32(s[6]), uint32(s[8]), uint32(s[7])
		d[9], d[10], d[11] = uint32(s[9]), uint32(s[11]), uint32(s[10])
		dst, src = dst[12:], src[12:]
	}
	for len(src) >= 3 {
		d, s := (*[3]uint32)(dst), (*[3]uint16)(src)
		d[0], d[1], d[2] = uint32(s[0]), uint32(s[2]), uint32(s[1])
		dst, src = dst[3:], src[3:]
	}
}

// glues lowers the glues; the intensity varies over the glue's keyforms
// and blend shapes as a GlueIntensity channel (glueIntensity).
func (l *lowering) glues() error {
	if len(l.moc.Glues) > 0 {
		l.m.Glues = make([]p2lrt.Glue, 0, len(l.moc.Glues))
	}
	for i, g := range l.moc.Glues {
		out := p2lrt.Glue{ID: g.ID, MeshA: g.MeshA, MeshB: g.MeshB}
		if len(g.Intensities) > 0 {
			out.Intensity = g.Intensities[0]
		}
		if len(g.Pairs) > 0 {
			out.Pairs = make([]p2lrt.GluePair, len(g.Pairs))
		}
		for j, p := range g.Pairs {
			out.Pairs[j] = p2lrt.GluePair{A: uint32(p.A), B: uint32(p.B), WeightA: p.WeightA, WeightB: p.WeightB}
		}
		ch, err := glueIntensity(&g)
		if err != nil {
			return mocError("glue", i, g.ID, "%s", err)
		}
		if ch != nil {
			out.Channels = []p2lrt.Channel{*ch}
		}
		l.m.Glues = append(l.m.Glues, out)
	}
	return nil
}

// maxGlueCells bounds the grid glueIntensity builds.
const maxGlueCells = 1 << 16

// glueIntensity returns the GlueIntensity channel of a glue whose intensity
// varies (nil when it does not). p2l glue has no blend shapes; the Core
// adds each blend shape's difference from its base keyform, weighted by
// the blend-shape parameter and by the least of its constraints' weights,
// to the keyform blend. A sum of terms each depending on other axes is
// blended exactly by a multilinear grid over all of them (the weights of
// each axis sum to 1), so the channel's grid has the glue's axes, then per
// blend shape its parameter's axis and its constraints' axes, and a cell
// holds base + Σ difference × constraint weight at its keys. Exact for a
// blend shape with at most one constraint (piecewise linear, as the grid
// between keys); with several, the least of them is exact at the keys and
// blended linearly between them.
func glueIntensity(g *moc3.Glue) (*p2lrt.Channel, error) {
	if len(g.Intensities) == 0 || (len(g.BlendShapes) == 0 && (len(g.Axes) == 0 || len(g.Intensities) < 2)) {
		return nil, nil
	}
	axes := slices.Clone(g.Axes)
	type term struct {
		axis   int // the blend-shape parameter's axis
		cons   []int
		deltas []float64
	}
	var terms []term
	for _, b := range g.BlendShapes {
		if b.BaseKey < 0 || b.BaseKey >= len(b.Keyforms) || len(b.Keyforms) < len(b.Keys) {
			return nil, fmt.Errorf("blend shape of parameter %d: base key %d or keyforms out of range", b.Parameter, b.BaseKey)
		}
		t := term{axis: len(axes)}
		axes = append(axes, moc3.Axis{Parameter: b.Parameter, Keys: b.Keys})
		for k := range b.Keys {
			t.deltas = append(t.deltas, float64(b.Keyforms[k])-float64(b.Keyforms[b.BaseKey]))
		}
		for _, c := range b.Constraints {
			t.cons = append(t.cons, len(axes))
			axes = append(axes, moc3.Axis{Parameter: c.Parameter, Keys: c.Keys})
		}
		terms = append(terms, t)
	}
	n := 1
	for _, a := range axes {
		if len(a.Keys) == 0 || n > maxGlueCells/len(a.Keys) {
			return nil, fmt.Errorf("intensity grid with its blend shapes has an empty axis or more than %d cells", maxGlueCells)
		}
		n *= len(a.Keys)
	}
	base := len(g.Intensities) // keyforms of the glue's own grid
	own := 1
	for _, a := range g.Axes {
		own *= len(a.Keys)
	}
	grid := gridOf(newLayout(axes, n), func(k int) p2lrt.ChannelValue {
		coord := make([]int, len(axes))
		rest := k
		for a := range axes {
			coord[a] = rest % len(axes[a].Keys)
			rest /= len(axes[a].Keys)
		}
		kf := k % own
		v := 0.0
		if kf < base {
			v = float64(g.Intensities[kf])
		}
		for bi, t := range terms {
			w := 1.0 // moc3-rs: the least constraint weight, from 1
			for ci, a := range t.cons {
				if ws := g.BlendShapes[bi].Constraints[ci].Weights; coord[a] < len(ws) {
					w = min(w, float64(ws[coord[a]]))
				}
			}
			v += t.deltas[coord[t.axis]] * w
		}
		return p2lrt.ChannelValue{float32(v)}
	})
	return &p2lrt.Channel{ID: p2lrt.ChannelGlueIntensity, Kind: p2lrt.ChannelScalar, Grid: grid}, nil
}

// drawTree lowers the draw order groups: group 0 is the root; a part
// object owning a group becomes a child group naming the part (sorted by
// the part's draw order), an art mesh a mesh child. An offscreen part's
// group carries its composite (an isolated group). Each group's minimum and
// maximum draw order go to META (p2l.MetaDrawOrderRanges).
func (l *lowering) drawTree() error {
	gs := l.moc.DrawOrderGroups
	if len(gs) == 0 {
		l.m.Draw = p2lrt.DrawGroup{Part: -1}
		return nil
	}
	seen := make([]bool, len(gs))
	var ranges []string // MetaDrawOrderRanges, in the order groups are built
	var build func(gi, part int) (*p2lrt.DrawGroup, error)
	build = func(gi, part int) (*p2lrt.DrawGroup, error) {
		if gi < 0 || gi >= len(gs) || seen[gi] {
			return nil, &Error{File: mocFile, Field: fmt.Sprintf("draw order group %d", gi), Msg: "out of range or owned twice"}
		}
		seen[gi] = true
		ranges = append(ranges, strconv.FormatUint(uint64(gs[gi].MinDrawOrder), 10)+":"+strconv.FormatUint(uint64(gs[gi].MaxDrawOrder), 10))
		g := &p2lrt.DrawGroup{Part: part}
		if n := len(gs[gi].Objects); n > 0 {
			g.Children = make([]p2lrt.DrawNode, 0, n)
		}
		if part >= 0 {
			g.DrawOrder = l.m.Parts[part].DrawOrder
			if l.m.Parts[part].GroupMode == p2lrt.GroupIsolated {
				c := l.m.Parts[part].Composite
				g.Composite = &c
				for _, ch := range l.m.Parts[part].Channels {
					if ch.ID != p2lrt.ChannelDrawOrder {
						g.Channels = append(g.Channels, ch)
					}
				}
			}
		}
		for _, o := range gs[gi].Objects {
			switch o.Kind {
			case moc3.DrawArtMesh:
				g.Children = append(g.Children, p2lrt.DrawNode{Mesh: o.Index})
			case moc3.DrawPart:
				if o.Group < 0 {
					continue // a part that draws nothing
				}
				child, err := build(o.Group, o.Index)
				if err != nil {
					return nil, err
				}
				g.Children = append(g.Children, p2lrt.DrawNode{Group: child})
			}
		}
		return g, nil
	}
	root, err := build(0, -1)
	if err != nil {
		return err
	}
	l.m.Draw = *root
	for i := range l.m.Meta {
		if l.m.Meta[i].Key == p2l.MetaDrawOrderRanges {
			l.m.Meta[i].Value = strings.Join(ranges, ",")
		}
	}
	return nil
}
