package ebitenp2l

import (
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

// blendFactor evaluates an ebiten.BlendFactor for one channel: c is the
// channel's index (3 = alpha) in the source s and destination d.
func blendFactor(f ebiten.BlendFactor, s, d [4]float64, c int) float64 {
	switch f {
	case ebiten.BlendFactorZero:
		return 0
	case ebiten.BlendFactorOne:
		return 1
	case ebiten.BlendFactorSourceColor:
		return s[c]
	case ebiten.BlendFactorOneMinusSourceColor:
		return 1 - s[c]
	case ebiten.BlendFactorSourceAlpha:
		return s[3]
	case ebiten.BlendFactorOneMinusSourceAlpha:
		return 1 - s[3]
	case ebiten.BlendFactorDestinationColor:
		return d[c]
	case ebiten.BlendFactorOneMinusDestinationColor:
		return 1 - d[c]
	case ebiten.BlendFactorDestinationAlpha:
		return d[3]
	case ebiten.BlendFactorOneMinusDestinationAlpha:
		return 1 - d[3]
	}
	panic("unknown blend factor")
}

// applyBlend is the fixed-function blend unit: the shader's output s over
// the destination d, clamped as an 8-bit target clamps.
func applyBlend(b ebiten.Blend, s, d [4]float64) [4]float64 {
	var o [4]float64
	for c := range 4 {
		fs, fd, op := b.BlendFactorSourceRGB, b.BlendFactorDestinationRGB, b.BlendOperationRGB
		if c == 3 {
			fs, fd, op = b.BlendFactorSourceAlpha, b.BlendFactorDestinationAlpha, b.BlendOperationAlpha
		}
		x, y := s[c]*blendFactor(fs, s, d, c), d[c]*blendFactor(fd, s, d, c)
		switch op {
		case ebiten.BlendOperationAdd:
			o[c] = x + y
		case ebiten.BlendOperationSubtract:
			o[c] = x - y
		case ebiten.BlendOperationReverseSubtract:
			o[c] = y - x
		case ebiten.BlendOperationMin:
			o[c] = min(s[c], d[c])
		case ebiten.BlendOperationMax:
			o[c] = max(s[c], d[c])
		}
		o[c] = min(max(o[c], 0), 1)
	}
	return o
}

// TestFixedFunctionTable checks every combination that fixedFunction draws
// without a backdrop copy against the CPU reference renderer's
// render.Composite, over sources and destinations of many colours and
// alphas (valid premultiplied colours; transparent destinations black). If
// a formula of render.Composite changes, this names the entries to drop
// (from both tables: render.FixedFunction must list the same ones).
func TestFixedFunctionTable(t *testing.T) {
	var colors [][3]float64
	for _, v := range []float64{0, 0.25, 0.6, 1} {
		for _, w := range []float64{0, 0.5, 1} {
			colors = append(colors, [3]float64{v, w, 1 - v})
		}
	}
	alphas := []float64{0, 0.1, 0.5, 0.9, 1}
	premul := func(c [3]float64, a float64) [4]float64 { return [4]float64{c[0] * a, c[1] * a, c[2] * a, a} }
	fixed := 0
	for b := range p2lrt.BlendMode(p2lrt.NumBlendModes) {
		for a := range p2lrt.AlphaMode(p2lrt.NumAlphaModes) {
			f, ok := fixedFunction(b, a)
			if ok != render.FixedFunction(b, a) {
				// The two must agree: a fixed-function mesh overlapping
				// itself blends triangle after triangle, a backdrop-reading
				// one lets its last triangle win.
				t.Errorf("%v+%v: fixed-function on the GPU %v, in render.FixedFunction %v", b, a, ok, !ok)
			}
			if !ok {
				continue
			}
			fixed++
			worst := 0.0
			for _, cs := range colors {
				for _, as := range alphas {
					for _, cd := range colors {
						for _, ad := range alphas {
							s, d := premul(cs, as), premul(cd, ad)
							out := s
							if f.zeroAlpha {
								out[3] = 0
							}
							got := applyBlend(f.blend, out, d)
							w := render.Composite(render.Premul{R: float32(s[0]), G: float32(s[1]), B: float32(s[2]), A: float32(s[3])},
								render.Premul{R: float32(d[0]), G: float32(d[1]), B: float32(d[2]), A: float32(d[3])}, b, a)
							want := [4]float64{float64(w.R), float64(w.G), float64(w.B), float64(w.A)}
							for c := range 4 {
								worst = max(worst, math.Abs(got[c]-want[c]))
							}
						}
					}
				}
			}
			if worst > 1e-5 {
				t.Errorf("%v+%v: fixed-function blend differs from render.Composite by %.3g", b, a, worst)
			}
		}
	}
	t.Logf("%d of %d combinations drawn with fixed-function blending", fixed, int(p2lrt.NumBlendModes)*int(p2lrt.NumAlphaModes))
}
