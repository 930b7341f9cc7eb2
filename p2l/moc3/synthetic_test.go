package moc3_test

// Round trips through internal/moc3write, a writer made from the public
// format descriptions independently of this reader: every field Parse
// returns is compared with what was written. Expected values are the
// writer's input (what the descriptions say the bytes mean), never the
// reader's output.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/moc3write"
	"github.com/psd2live/p2l-ebiten/p2l/moc3"
)

// syntheticCase is one model written at every version that can hold it.
type syntheticCase struct {
	name  string
	model func(v uint8) *moc3write.Model
	from  uint8 // oldest version the model needs
}

func syntheticCases() []syntheticCase {
	return []syntheticCase{
		{"empty", func(uint8) *moc3write.Model { return &moc3write.Model{} }, moc3write.V30},
		{"example", moc3write.Example, moc3write.V30},
		{"parameters only", func(uint8) *moc3write.Model {
			return &moc3write.Model{Parameters: []moc3write.Parameter{{ID: "A", Min: -1, Max: 1}, {ID: "B", Max: 10, Default: 10, Repeat: true, DecimalPlaces: 3}}}
		}, moc3write.V30},
		{"64-byte ids", func(uint8) *moc3write.Model {
			id := strings.Repeat("x", 64) // fills the field: no NUL terminator
			return &moc3write.Model{
				Parameters: []moc3write.Parameter{{ID: id}},
				Parts:      []moc3write.Part{{ID: id, Parent: -1, Keyforms: []moc3write.PartKeyform{{DrawOrder: 1}}}},
			}
		}, moc3write.V30},
		{"one-parameter grids and shared bindings", sharedBindings, moc3write.V30},
		{"three-parameter grid", threeAxes, moc3write.V30},
		{"single-key blend shape without constraints", bareBlendShape, moc3write.V42},
		{"offscreens of nested parts", nestedOffscreens, moc3write.V53},
	}
}

// sharedBindings: three parts and a mesh on the same one-parameter axis
// (one keyform binding), objects in a different parameter order than the
// parameters.
func sharedBindings(uint8) *moc3write.Model {
	ax := []moc3write.Axis{{Parameter: 1, Keys: []float32{-1, 0, 1}}}
	three := []moc3write.PartKeyform{{DrawOrder: 1}, {DrawOrder: 2}, {DrawOrder: 3}}
	tri := [][2]float32{{0, 0}, {1, 0}, {0, 1}}
	return &moc3write.Model{
		Parameters: []moc3write.Parameter{{ID: "P0", Max: 1}, {ID: "P1", Min: -1, Max: 1}},
		Parts: []moc3write.Part{
			{ID: "a", Parent: -1, Axes: ax, Keyforms: three},
			{ID: "b", Parent: 0, Axes: ax, Keyforms: three},
			{ID: "c", Parent: 1, Visible: true, Keyforms: []moc3write.PartKeyform{{DrawOrder: 7}}},
		},
		ArtMeshes: []moc3write.ArtMesh{{ID: "m", ParentPart: 2, ParentDeformer: -1, UVs: tri, Indices: []uint16{0, 1, 2},
			Axes: ax, Keyforms: []moc3write.ArtMeshKeyform{{Positions: tri}, {Opacity: 0.5, Positions: tri}, {Opacity: 1, Positions: tri}}}},
		DrawOrderGroups: []moc3write.DrawOrderGroup{{Objects: []moc3write.DrawOrderObject{{Index: 0, Self: -1}}, MaxDrawOrder: 1000}},
	}
}

// threeAxes: a warp deformer on a 2×3×2 grid (12 keyforms).
func threeAxes(uint8) *moc3write.Model {
	var kfs []moc3write.WarpKeyform
	for k := range 12 {
		kfs = append(kfs, moc3write.WarpKeyform{Opacity: float32(k) / 12,
			Positions: [][2]float32{{float32(k), 0}, {float32(k), 1}, {0, float32(k)}, {1, float32(k)}}})
	}
	return &moc3write.Model{
		Parameters: []moc3write.Parameter{{ID: "X"}, {ID: "Y"}, {ID: "Z"}},
		Deformers: []moc3write.Deformer{{ID: "w", ParentPart: -1, ParentDeformer: -1, Axes: []moc3write.Axis{
			{Parameter: 2, Keys: []float32{0, 1}}, {Parameter: 0, Keys: []float32{-1, 0, 1}}, {Parameter: 1, Keys: []float32{0, 10}},
		}, Warp: &moc3write.WarpDeformer{Rows: 1, Columns: 1, Keyforms: kfs}}},
	}
}

// bareBlendShape: an art mesh blend shape with a single key (one keyform,
// no constraints), and a second one on another blend-shape parameter.
func bareBlendShape(uint8) *moc3write.Model {
	tri := [][2]float32{{0, 0}, {1, 0}, {0, 1}}
	return &moc3write.Model{
		Parameters: []moc3write.Parameter{{ID: "S", BlendShape: true}, {ID: "T", BlendShape: true, Keys: []float32{0, 1}}},
		ArtMeshes: []moc3write.ArtMesh{{ID: "m", ParentPart: -1, ParentDeformer: -1, UVs: tri, Indices: []uint16{0, 1, 2},
			Keyforms: []moc3write.ArtMeshKeyform{{Opacity: 1, Positions: tri}},
			BlendShapes: []moc3write.BlendShape[moc3write.ArtMeshKeyform]{
				{Parameter: 0, Keys: []float32{0}, Keyforms: []moc3write.ArtMeshKeyform{{Opacity: 0.25, Positions: tri}}},
				{Parameter: 1, Keys: []float32{0, 1}, BaseKey: 1, Keyforms: []moc3write.ArtMeshKeyform{{Opacity: 0.5, Positions: tri}, {Opacity: 1, Positions: tri}}},
			}}},
	}
}

// nestedOffscreens: a part with an offscreen inside another one, listed in
// reverse owner order, with masks and several keyforms.
func nestedOffscreens(uint8) *moc3write.Model {
	tri := [][2]float32{{0, 0}, {1, 0}, {0, 1}}
	m := &moc3write.Model{
		Parameters: []moc3write.Parameter{{ID: "P", Max: 1}},
		Parts: []moc3write.Part{
			{ID: "outer", Parent: -1, Visible: true, Enabled: true, Keyforms: []moc3write.PartKeyform{{DrawOrder: 500}}},
			{ID: "inner", Parent: 0, Visible: true, Enabled: true, Axes: []moc3write.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
				Keyforms: []moc3write.PartKeyform{{DrawOrder: 400}, {DrawOrder: 450}}},
		},
		ArtMeshes: []moc3write.ArtMesh{
			{ID: "clip", ParentPart: 0, ParentDeformer: -1, UVs: tri, Indices: []uint16{0, 1, 2}, Keyforms: []moc3write.ArtMeshKeyform{{Opacity: 1, Positions: tri}}},
			{ID: "body", ParentPart: 1, ParentDeformer: -1, UVs: tri, Indices: []uint16{0, 1, 2}, Masks: []int32{0},
				Blend: moc3write.Blend{Color: 3, Alpha: 3}, Keyforms: []moc3write.ArtMeshKeyform{{Opacity: 1, Positions: tri}}},
		},
		Offscreens: []moc3write.Offscreen{
			{OwnerPart: 1, Blend: moc3write.Blend{Color: 12, Alpha: 0}, Masks: []int32{0},
				Keyforms: []moc3write.OffscreenKeyform{{Opacity: 0.25, Colors: &moc3write.Colors{Multiply: [3]float32{0.5, 0.5, 0.5}}}, {Opacity: 0.75}}},
			{OwnerPart: 0, Blend: moc3write.Blend{Color: 0, Alpha: 4}, DoubleSided: true,
				Keyforms: []moc3write.OffscreenKeyform{{Opacity: 1, Colors: &moc3write.Colors{Multiply: [3]float32{1, 1, 1}, Screen: [3]float32{0.2, 0.1, 0}}}}},
		},
		DrawOrderGroups: []moc3write.DrawOrderGroup{
			{Objects: []moc3write.DrawOrderObject{{Part: true, Index: 0, Self: 1}}, MaxDrawOrder: 1000},
			{Objects: []moc3write.DrawOrderObject{{Index: 0, Self: -1}, {Part: true, Index: 1, Self: 2}}, MaxDrawOrder: 1000},
			{Objects: []moc3write.DrawOrderObject{{Index: 1, Self: -1}}, MaxDrawOrder: 1000},
		},
	}
	return m
}

func TestSynthetic(t *testing.T) {
	for _, tc := range syntheticCases() {
		for _, v := range moc3write.Versions {
			if v < tc.from {
				continue
			}
			for _, big := range []bool{false, true} {
				name := fmt.Sprintf("%s/v%d", tc.name, v)
				write := moc3write.Write
				if big {
					name += "/big-endian"
					write = moc3write.WriteBigEndian
				}
				t.Run(name, func(t *testing.T) {
					m := tc.model(v)
					data, err := write(m, v)
					if err != nil {
						t.Fatal(err)
					}
					got, err := moc3.Parse(data)
					if err != nil {
						t.Fatal(err)
					}
					if got.Version != moc3.Version(v) || got.BigEndian != big {
						t.Errorf("version %d big-endian %v, wrote %d %v", got.Version, got.BigEndian, v, big)
					}
					c := &comparer{t: t, v: v, want: m, got: got}
					c.model()
				})
			}
		}
	}
}

// comparer compares one parsed Moc with the model written.
type comparer struct {
	t    *testing.T
	v    uint8
	want *moc3write.Model
	got  *moc3.Moc
}

func (c *comparer) errorf(path, format string, args ...any) {
	c.t.Helper()
	c.t.Errorf("%s: "+format, append([]any{path}, args...)...)
}

func eq[T comparable](c *comparer, path string, got, want T) {
	c.t.Helper()
	if got != want {
		c.errorf(path, "got %v, want %v", got, want)
	}
}

func eqSlice[T comparable](c *comparer, path string, got, want []T) {
	c.t.Helper()
	if !slices.Equal(got, want) {
		c.errorf(path, "got %v, want %v", got, want)
	}
}

func sameLen(c *comparer, path string, got, want int) bool {
	c.t.Helper()
	if got != want {
		c.errorf(path, "%d entries, want %d", got, want)
		return false
	}
	return true
}

// flatPoints flattens points into x,y pairs, as moc3 holds them.
func flatPoints(p [][2]float32) []float32 {
	out := make([]float32, 0, 2*len(p))
	for _, q := range p {
		out = append(out, q[0], q[1])
	}
	return out
}

func ints[T ~int32](v []T) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// colors returns the multiply and screen colours a keyform written with c
// has: the neutral ones when none were written (moc3write writes nothing
// before 4.2 and the neutral colours from 4.2 on).
func colors(c *moc3write.Colors) (moc3.RGB, moc3.RGB) {
	if c == nil {
		return moc3.RGB{R: 1, G: 1, B: 1}, moc3.RGB{}
	}
	return moc3.RGB{R: c.Multiply[0], G: c.Multiply[1], B: c.Multiply[2]}, moc3.RGB{R: c.Screen[0], G: c.Screen[1], B: c.Screen[2]}
}

func (c *comparer) colors(path string, mul, scr moc3.RGB, want *moc3write.Colors) {
	c.t.Helper()
	wm, ws := colors(want)
	eq(c, path+" multiply", mul, wm)
	eq(c, path+" screen", scr, ws)
}

func (c *comparer) axes(path string, got []moc3.Axis, binding int, want []moc3write.Axis) {
	c.t.Helper()
	if !sameLen(c, path+" axes", len(got), len(want)) {
		return
	}
	for i, a := range want {
		eq(c, fmt.Sprintf("%s axis %d parameter", path, i), got[i].Parameter, a.Parameter)
		eqSlice(c, fmt.Sprintf("%s axis %d keys", path, i), got[i].Keys, a.Keys)
	}
	if binding < 0 || binding >= len(c.got.KeyformBindings) {
		c.errorf(path, "binding %d out of range [0,%d)", binding, len(c.got.KeyformBindings))
		return
	}
	kb := c.got.KeyformBindings[binding].Axes
	if !sameLen(c, path+" binding axes", len(kb), len(want)) {
		return
	}
	for i, a := range want {
		eq(c, fmt.Sprintf("%s binding axis %d parameter", path, i), kb[i].Parameter, a.Parameter)
		eqSlice(c, fmt.Sprintf("%s binding axis %d keys", path, i), kb[i].Keys, a.Keys)
	}
}

// blendShapes compares blend shapes, their keyforms through kf.
func blendShapes[W, G any](c *comparer, path string, got []moc3.BlendShape[G], want []moc3write.BlendShape[W], kf func(string, G, W)) {
	c.t.Helper()
	if !sameLen(c, path+" blend shapes", len(got), len(want)) {
		return
	}
	for i, w := range want {
		g, p := got[i], fmt.Sprintf("%s blend shape %d", path, i)
		eq(c, p+" parameter", g.Parameter, w.Parameter)
		eqSlice(c, p+" keys", g.Keys, w.Keys)
		eq(c, p+" base key", g.BaseKey, int(w.BaseKey))
		if sameLen(c, p+" keyforms", len(g.Keyforms), len(w.Keyforms)) {
			for k := range w.Keyforms {
				kf(fmt.Sprintf("%s keyform %d", p, k), g.Keyforms[k], w.Keyforms[k])
			}
		}
		if sameLen(c, p+" constraints", len(g.Constraints), len(w.Constraints)) {
			for k, wc := range w.Constraints {
				gc, cp := g.Constraints[k], fmt.Sprintf("%s constraint %d", p, k)
				eq(c, cp+" parameter", gc.Parameter, wc.Parameter)
				eqSlice(c, cp+" keys", gc.Keys, wc.Keys)
				eqSlice(c, cp+" weights", gc.Weights, wc.Weights)
			}
		}
	}
}

func (c *comparer) model() {
	w, g := c.want, c.got
	eq(c, "canvas", g.Canvas, moc3.Canvas{PixelsPerUnit: w.Canvas.PixelsPerUnit, OriginX: w.Canvas.OriginX, OriginY: w.Canvas.OriginY,
		Width: w.Canvas.Width, Height: w.Canvas.Height, Flags: w.Canvas.Flags})
	c.parameters()
	c.parts()
	c.deformers()
	c.artMeshes()
	c.glues()
	c.drawOrderGroups()
	c.offscreens()
}

func (c *comparer) parameters() {
	if !sameLen(c, "parameters", len(c.got.Parameters), len(c.want.Parameters)) {
		return
	}
	for i, w := range c.want.Parameters {
		g, p := c.got.Parameters[i], fmt.Sprintf("parameter %d", i)
		eq(c, p+" id", g.ID, w.ID)
		eq(c, p+" min", g.Min, w.Min)
		eq(c, p+" max", g.Max, w.Max)
		eq(c, p+" default", g.Default, w.Default)
		eq(c, p+" repeat", g.Repeat, w.Repeat)
		eq(c, p+" decimal places", g.DecimalPlaces, w.DecimalPlaces)
		typ := moc3.ParameterNormal
		if w.BlendShape {
			typ = moc3.ParameterBlendShape
		}
		eq(c, p+" type", g.Type, typ)
		eqSlice(c, p+" keys", g.Keys, w.Keys)
	}
}

// offscreenOf returns the offscreen index owning part p, or -1.
func (c *comparer) offscreenOf(p int) int {
	for i, o := range c.want.Offscreens {
		if o.OwnerPart == p {
			return i
		}
	}
	return -1
}

func (c *comparer) parts() {
	if !sameLen(c, "parts", len(c.got.Parts), len(c.want.Parts)) {
		return
	}
	for i, w := range c.want.Parts {
		g, p := c.got.Parts[i], fmt.Sprintf("part %d", i)
		eq(c, p+" id", g.ID, w.ID)
		eq(c, p+" parent", g.Parent, w.Parent)
		eq(c, p+" visible", g.Visible, w.Visible)
		eq(c, p+" enabled", g.Enabled, w.Enabled)
		c.axes(p, g.Axes, g.Binding, w.Axes)
		off := c.offscreenOf(i)
		eq(c, p+" offscreen", g.Offscreen, off)
		if sameLen(c, p+" keyforms", len(g.Keyforms), len(w.Keyforms)) {
			for k, wk := range w.Keyforms {
				gk, kp := g.Keyforms[k], fmt.Sprintf("%s keyform %d", p, k)
				eq(c, kp+" draw order", gk.DrawOrder, wk.DrawOrder)
				// Opacity and colours: the offscreen keyform's, else 1 and
				// the neutral colours (the type's documented default).
				opacity, cols := float32(1), (*moc3write.Colors)(nil)
				if off >= 0 {
					ok := c.want.Offscreens[off].Keyforms[k]
					opacity, cols = ok.Opacity, ok.Colors
				}
				eq(c, kp+" opacity", gk.Opacity, opacity)
				c.colors(kp, gk.Multiply, gk.Screen, cols)
			}
		}
		blendShapes(c, p, g.BlendShapes, w.BlendShapes, func(kp string, gk moc3.PartKeyform, wk moc3write.PartKeyform) {
			eq(c, kp+" draw order", gk.DrawOrder, wk.DrawOrder)
		})
	}
}

func (c *comparer) deformers() {
	w, g := c.want, c.got
	var nw, nr int
	for _, d := range w.Deformers {
		if d.Warp != nil {
			nw++
		} else {
			nr++
		}
	}
	if !sameLen(c, "deformers", len(g.Deformers), len(w.Deformers)) ||
		!sameLen(c, "warp deformers", len(g.WarpDeformers), nw) ||
		!sameLen(c, "rotation deformers", len(g.RotationDeformers), nr) {
		return
	}
	var iw, ir int
	for i, wd := range w.Deformers {
		gd, p := g.Deformers[i], fmt.Sprintf("deformer %d", i)
		eq(c, p+" id", gd.ID, wd.ID)
		eq(c, p+" visible", gd.Visible, wd.Visible)
		eq(c, p+" enabled", gd.Enabled, wd.Enabled)
		eq(c, p+" parent part", gd.ParentPart, wd.ParentPart)
		eq(c, p+" parent deformer", gd.ParentDeformer, wd.ParentDeformer)
		if wd.Warp != nil {
			eq(c, p+" kind", gd.Kind, moc3.Warp)
			eq(c, p+" index", gd.Index, iw)
			c.axes(p+" (list binding)", g.KeyformBindings[gd.ListBinding].Axes, gd.ListBinding, wd.Axes)
			c.warp(fmt.Sprintf("warp deformer %d", iw), g.WarpDeformers[iw], wd.Warp, i, wd.Axes)
			iw++
		} else {
			eq(c, p+" kind", gd.Kind, moc3.Rotation)
			eq(c, p+" index", gd.Index, ir)
			c.axes(p+" (list binding)", g.KeyformBindings[gd.ListBinding].Axes, gd.ListBinding, wd.Axes)
			c.rotation(fmt.Sprintf("rotation deformer %d", ir), g.RotationDeformers[ir], wd.Rotation, i, wd.Axes)
			ir++
		}
	}
}

func (c *comparer) warp(p string, g moc3.WarpDeformer, w *moc3write.WarpDeformer, deformer int, axes []moc3write.Axis) {
	eq(c, p+" deformer", g.Deformer, deformer)
	eq(c, p+" rows", g.Rows, w.Rows)
	eq(c, p+" columns", g.Columns, w.Columns)
	eq(c, p+" quad", g.Quad, w.QuadSource)
	c.axes(p, g.Axes, g.Binding, axes)
	kf := func(kp string, gk moc3.WarpKeyform, wk moc3write.WarpKeyform) {
		eq(c, kp+" opacity", gk.Opacity, wk.Opacity)
		eqSlice(c, kp+" points", gk.Points, flatPoints(wk.Positions))
		c.colors(kp, gk.Multiply, gk.Screen, wk.Colors)
	}
	if sameLen(c, p+" keyforms", len(g.Keyforms), len(w.Keyforms)) {
		for k := range w.Keyforms {
			kf(fmt.Sprintf("%s keyform %d", p, k), g.Keyforms[k], w.Keyforms[k])
		}
	}
	blendShapes(c, p, g.BlendShapes, w.BlendShapes, kf)
}

func (c *comparer) rotation(p string, g moc3.RotationDeformer, w *moc3write.RotationDeformer, deformer int, axes []moc3write.Axis) {
	eq(c, p+" deformer", g.Deformer, deformer)
	eq(c, p+" base angle", g.BaseAngle, w.BaseAngle)
	c.axes(p, g.Axes, g.Binding, axes)
	kf := func(kp string, gk moc3.RotationKeyform, wk moc3write.RotationKeyform) {
		eq(c, kp+" opacity", gk.Opacity, wk.Opacity)
		eq(c, kp+" angle", gk.Angle, wk.Angle)
		eq(c, kp+" origin x", gk.OriginX, wk.OriginX)
		eq(c, kp+" origin y", gk.OriginY, wk.OriginY)
		eq(c, kp+" scale", gk.Scale, wk.Scale)
		eq(c, kp+" reflect x", gk.ReflectX, wk.ReflectX)
		eq(c, kp+" reflect y", gk.ReflectY, wk.ReflectY)
		c.colors(kp, gk.Multiply, gk.Screen, wk.Colors)
	}
	if sameLen(c, p+" keyforms", len(g.Keyforms), len(w.Keyforms)) {
		for k := range w.Keyforms {
			kf(fmt.Sprintf("%s keyform %d", p, k), g.Keyforms[k], w.Keyforms[k])
		}
	}
	blendShapes(c, p, g.BlendShapes, w.BlendShapes, kf)
}

// drawableFlags is the flags byte moc3.hexpat's DrawableFlags describes:
// blendMode in bits 0-1, isDoubleSided bit 2, isInverted bit 3.
func drawableFlags(blend uint8, doubleSided, inverted bool) moc3.DrawableFlags {
	f := moc3.DrawableFlags(blend)
	if doubleSided {
		f |= 1 << 2
	}
	if inverted {
		f |= 1 << 3
	}
	return f
}

func (c *comparer) artMeshes() {
	if !sameLen(c, "art meshes", len(c.got.ArtMeshes), len(c.want.ArtMeshes)) {
		return
	}
	for i, w := range c.want.ArtMeshes {
		g, p := c.got.ArtMeshes[i], fmt.Sprintf("art mesh %d", i)
		eq(c, p+" id", g.ID, w.ID)
		eq(c, p+" visible", g.Visible, w.Visible)
		eq(c, p+" enabled", g.Enabled, w.Enabled)
		eq(c, p+" parent part", g.ParentPart, w.ParentPart)
		eq(c, p+" parent deformer", g.ParentDeformer, w.ParentDeformer)
		eq(c, p+" texture", g.Texture, int(w.Texture))
		eq(c, p+" flags", g.Flags, drawableFlags(w.BlendMode, w.DoubleSided, w.InvertedMask))
		// 5.3 stores the mode; older files' additive/multiplicative flags
		// are the Compatible types with alpha Over (research notes,
		// cubism-semantics.md 6.2).
		blend := moc3.BlendMode(w.Blend.Color) | moc3.BlendMode(w.Blend.Alpha)<<8
		if c.v < moc3write.V53 {
			blend = moc3.BlendMode(w.BlendMode) // 0 Normal, 1 AddCompatible, 2 MultiplyCompatible
		}
		eq(c, p+" blend mode", g.BlendMode, blend)
		eq(c, p+" vertex count", g.VertexCount, len(w.UVs))
		eqSlice(c, p+" uvs", g.UVs, flatPoints(w.UVs))
		eqSlice(c, p+" indices", g.Indices, w.Indices)
		eqSlice(c, p+" masks", g.Masks, ints(w.Masks))
		c.axes(p, g.Axes, g.Binding, w.Axes)
		kf := func(kp string, gk moc3.ArtMeshKeyform, wk moc3write.ArtMeshKeyform) {
			eq(c, kp+" opacity", gk.Opacity, wk.Opacity)
			eq(c, kp+" draw order", gk.DrawOrder, wk.DrawOrder)
			eqSlice(c, kp+" positions", gk.Positions, flatPoints(wk.Positions))
			c.colors(kp, gk.Multiply, gk.Screen, wk.Colors)
		}
		if sameLen(c, p+" keyforms", len(g.Keyforms), len(w.Keyforms)) {
			for k := range w.Keyforms {
				kf(fmt.Sprintf("%s keyform %d", p, k), g.Keyforms[k], w.Keyforms[k])
			}
		}
		blendShapes(c, p, g.BlendShapes, w.BlendShapes, kf)
	}
}

func (c *comparer) glues() {
	if !sameLen(c, "glue", len(c.got.Glues), len(c.want.Glues)) {
		return
	}
	for i, w := range c.want.Glues {
		g, p := c.got.Glues[i], fmt.Sprintf("glue %d", i)
		eq(c, p+" id", g.ID, w.ID)
		eq(c, p+" mesh a", g.MeshA, int(w.MeshA))
		eq(c, p+" mesh b", g.MeshB, int(w.MeshB))
		// Glue info entries come in pairs, the first on mesh A, the second
		// on mesh B (moc3-rs deformer/glue.rs apply_glue).
		var pairs []moc3.GluePair
		for k := 0; k+1 < len(w.Points); k += 2 {
			a, b := w.Points[k], w.Points[k+1]
			pairs = append(pairs, moc3.GluePair{A: a.Vertex, B: b.Vertex, WeightA: a.Weight, WeightB: b.Weight})
		}
		eqSlice(c, p+" pairs", g.Pairs, pairs)
		c.axes(p, g.Axes, g.Binding, w.Axes)
		var intensities []float32
		for _, k := range w.Keyforms {
			intensities = append(intensities, k.Intensity)
		}
		eqSlice(c, p+" intensities", g.Intensities, intensities)
		blendShapes(c, p, g.BlendShapes, w.BlendShapes, func(kp string, gk float32, wk moc3write.GlueKeyform) {
			eq(c, kp+" intensity", gk, wk.Intensity)
		})
	}
}

func (c *comparer) drawOrderGroups() {
	w, g := c.want, c.got
	if !sameLen(c, "draw order groups", len(g.DrawOrderGroups), len(w.DrawOrderGroups)) {
		return
	}
	// A group's stored total: its art meshes, its part objects' groups'
	// totals and, in 5.3, one per part object owning an offscreen (the
	// convention of the official samples, internal/moc3write
	// TestSampleConventions).
	var total func(int) int
	total = func(i int) int {
		n := 0
		for _, o := range w.DrawOrderGroups[i].Objects {
			if !o.Part {
				n++
				continue
			}
			if o.Self >= 0 {
				n += total(int(o.Self))
			}
			if c.v >= moc3write.V53 && c.offscreenOf(int(o.Index)) >= 0 {
				n++
			}
		}
		return n
	}
	for i, wg := range w.DrawOrderGroups {
		gg, p := g.DrawOrderGroups[i], fmt.Sprintf("draw order group %d", i)
		eq(c, p+" total", gg.TotalObjects, total(i))
		eq(c, p+" min", gg.MinDrawOrder, wg.MinDrawOrder)
		eq(c, p+" max", gg.MaxDrawOrder, wg.MaxDrawOrder)
		if !sameLen(c, p+" objects", len(gg.Objects), len(wg.Objects)) {
			continue
		}
		for k, wo := range wg.Objects {
			kind := moc3.DrawArtMesh
			if wo.Part {
				kind = moc3.DrawPart
			}
			eq(c, fmt.Sprintf("%s object %d", p, k), gg.Objects[k], moc3.DrawOrderObject{Kind: kind, Index: int(wo.Index), Group: int(wo.Self)})
		}
	}
}

func (c *comparer) offscreens() {
	if !sameLen(c, "offscreens", len(c.got.Offscreens), len(c.want.Offscreens)) {
		return
	}
	for i, w := range c.want.Offscreens {
		g, p := c.got.Offscreens[i], fmt.Sprintf("offscreen %d", i)
		eq(c, p+" owner", g.Owner, w.OwnerPart)
		eq(c, p+" flags", g.Flags, drawableFlags(0, w.DoubleSided, w.InvertedMask))
		eq(c, p+" blend mode", g.BlendMode, moc3.BlendMode(w.Blend.Color)|moc3.BlendMode(w.Blend.Alpha)<<8)
		eqSlice(c, p+" masks", g.Masks, ints(w.Masks))
	}
}
