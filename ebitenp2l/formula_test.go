package ebitenp2l

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// refComposite is the drawing rules' compositing, written here from the
// formulas (RUNTIME.md drawing rules; cubism-semantics §6.3-6.4: W3C blend
// functions, blend_equation_advanced overlap weights, Cubism's fixed
// function formulas for Normal+Over and the Compatible modes), in float64,
// independently of the shader. s and d are premultiplied RGBA.
func refComposite(b p2lrt.BlendMode, a p2lrt.AlphaMode, s, d [4]float64) [4]float64 {
	switch {
	case b == p2lrt.BlendNormal && a == p2lrt.AlphaOver:
		var o [4]float64
		for i := range 4 {
			o[i] = s[i] + d[i]*(1-s[3])
		}
		return o
	case b == p2lrt.BlendAddCompatible:
		return [4]float64{min(s[0]+d[0], 1), min(s[1]+d[1], 1), min(s[2]+d[2], 1), d[3]}
	case b == p2lrt.BlendMultiplyCompatible:
		var o [4]float64
		for i := range 3 {
			o[i] = s[i]*d[i] + d[i]*(1-s[3])
		}
		o[3] = d[3]
		return o
	}
	as, ad := s[3], d[3]
	var cs, cd [3]float64
	for i := range 3 {
		if as > 0 {
			cs[i] = s[i] / as
		}
		if ad > 0 {
			cd[i] = d[i] / ad
		}
	}
	var p0, p1, p2 float64
	switch a {
	case p2lrt.AlphaOver:
		p0, p1, p2 = as*ad, as*(1-ad), ad*(1-as)
	case p2lrt.AlphaAtop:
		p0, p1, p2 = as*ad, 0, ad*(1-as)
	case p2lrt.AlphaOut:
		p0, p1, p2 = 0, 0, ad*(1-as)
	case p2lrt.AlphaConjointOver:
		p0, p1, p2 = min(as, ad), max(as-ad, 0), max(ad-as, 0)
	case p2lrt.AlphaDisjointOver:
		p0, p1, p2 = max(as+ad-1, 0), min(as, 1-ad), min(ad, 1-as)
	}
	bc := refBlend(b, cs, cd)
	var o [4]float64
	for i := range 3 {
		o[i] = bc[i]*p0 + cs[i]*p1 + cd[i]*p2
	}
	o[3] = p0 + p1 + p2
	return o
}

func refBlend(b p2lrt.BlendMode, s, d [3]float64) [3]float64 {
	var o [3]float64
	lum := func(c [3]float64) float64 { return 0.3*c[0] + 0.59*c[1] + 0.11*c[2] }
	clip := func(c [3]float64) [3]float64 {
		l := lum(c)
		n := min(c[0], c[1], c[2])
		x := max(c[0], c[1], c[2])
		if n < 0 {
			for i := range 3 {
				c[i] = l + (c[i]-l)*l/(l-n)
			}
		}
		if x > 1 {
			for i := range 3 {
				c[i] = l + (c[i]-l)*(1-l)/(x-l)
			}
		}
		return c
	}
	setLum := func(c [3]float64, l float64) [3]float64 {
		dl := l - lum(c)
		return clip([3]float64{c[0] + dl, c[1] + dl, c[2] + dl})
	}
	switch b {
	case p2lrt.BlendHue, p2lrt.BlendColor:
		c := s
		if b == p2lrt.BlendHue {
			// SetSat(s, Sat(d)): max → Sat(d), min → 0, mid scaled.
			sat := max(d[0], d[1], d[2]) - min(d[0], d[1], d[2])
			mx, mn := max(s[0], s[1], s[2]), min(s[0], s[1], s[2])
			for i := range 3 {
				if mx > mn {
					c[i] = (s[i] - mn) * sat / (mx - mn)
				} else {
					c[i] = 0
				}
			}
		}
		return setLum(c, lum(d))
	}
	for i := range 3 {
		x, y := s[i], d[i]
		var r float64
		switch b {
		case p2lrt.BlendNormal:
			r = x
		case p2lrt.BlendAdd:
			r = min(x+y, 1)
		case p2lrt.BlendAddGlow:
			r = x + y
		case p2lrt.BlendDarken:
			r = min(x, y)
		case p2lrt.BlendMultiply:
			r = x * y
		case p2lrt.BlendColorBurn:
			switch {
			case y >= 1:
				r = 1
			case x <= 0:
				r = 0
			default:
				r = 1 - min(1, (1-y)/x)
			}
		case p2lrt.BlendLinearBurn:
			r = max(0, x+y-1)
		case p2lrt.BlendLighten:
			r = max(x, y)
		case p2lrt.BlendScreen:
			r = x + y - x*y
		case p2lrt.BlendColorDodge:
			switch {
			case y <= 0:
				r = 0
			case x >= 1:
				r = 1
			default:
				r = min(1, y/(1-x))
			}
		case p2lrt.BlendOverlay:
			if y <= 0.5 {
				r = 2 * x * y
			} else {
				r = 1 - 2*(1-x)*(1-y)
			}
		case p2lrt.BlendHardLight:
			if x <= 0.5 {
				r = 2 * x * y
			} else {
				r = 1 - 2*(1-x)*(1-y)
			}
		case p2lrt.BlendSoftLight:
			switch {
			case x <= 0.5:
				r = y - (1-2*x)*y*(1-y)
			case y <= 0.25:
				r = y + (2*x-1)*y*((16*y-12)*y+3)
			default:
				r = y + (2*x-1)*(math.Sqrt(y)-y)
			}
		case p2lrt.BlendLinearLight:
			if x < 0.5 {
				r = max(0, 2*x+y-1)
			} else {
				r = min(1, 2*(x-0.5)+y)
			}
		}
		o[i] = r
	}
	return o
}

func premul8(c color.NRGBA) [4]float64 {
	p := func(v uint8) float64 { return math.Floor(float64(v)*float64(c.A)/255+0.5) / 255 }
	return [4]float64{p(c.R), p(c.G), p(c.B), float64(c.A) / 255}
}

// TestCompositeFormulas draws one full-target mesh of every blend × alpha
// combination over a backdrop and compares the GPU pixel with refComposite.
func TestCompositeFormulas(t *testing.T) {
	onGame(func() {
		pairs := []struct{ s, d color.NRGBA }{
			{color.NRGBA{200, 100, 50, 255}, color.NRGBA{60, 120, 240, 255}},
			{color.NRGBA{30, 220, 160, 128}, color.NRGBA{180, 40, 90, 200}},
			{color.NRGBA{250, 250, 10, 64}, color.NRGBA{10, 200, 130, 255}},
			{color.NRGBA{90, 160, 230, 255}, color.NRGBA{240, 200, 20, 96}},
		}
		dst := ebiten.NewImage(4, 4)
		defer dst.Deallocate()
		worst := 0.0
		for pi, pr := range pairs {
			src := premul8(pr.s)
			bd := premul8(pr.d)
			for b := p2lrt.BlendMode(0); b < p2lrt.NumBlendModes; b++ {
				for a := p2lrt.AlphaMode(0); a < p2lrt.NumAlphaModes; a++ {
					// A model of its own for each combination: a Model
					// does not change once characters use it.
					s := newScene(4, 4)
					pg := s.page(solid(pr.s))
					mi := s.quad(pg, 0, 0, 4, 4, p2lrt.Mesh{Blend: b, AlphaBlend: a})
					s.pose.cmds = []p2l.RenderCommand{p2l.RenderCommand(mi)}
					c := s.character(t)
					dst.Fill(color.RGBA{uint8(bd[0]*255 + 0.5), uint8(bd[1]*255 + 0.5), uint8(bd[2]*255 + 0.5), uint8(bd[3]*255 + 0.5)})
					c.Draw(dst, nil)
					got := at(pixels(dst), 4, 2, 2)
					want := refComposite(b, a, src, bd)
					for i := range 4 {
						want[i] = min(max(want[i], 0), 1)
						diff := math.Abs(got[i] - want[i])
						worst = max(worst, diff)
						if diff > 1.5/255 {
							t.Errorf("pair %d %v+%v channel %d: got %.4f, want %.4f (%s)", pi, b, a, i, got[i], want[i], fmt.Sprint(got))
						}
					}
					c.Deallocate()
				}
			}
		}
		t.Logf("max channel difference %.2f/255", worst*255)
	})
}
