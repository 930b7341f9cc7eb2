package ebitenp2l

import (
	"errors"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func mesh(i int) p2l.RenderCommand { return p2l.RenderCommand(i) }

// check compares pixel (x, y) of p (w wide) with want within tol (0..1).
func check(t *testing.T, p []byte, w, x, y int, want [4]float64, tol float64, what string) {
	t.Helper()
	got := at(p, w, x, y)
	for i := range 4 {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("%s at (%d,%d): got %.4f, want %.4f", what, x, y, got, want)
			return
		}
	}
}

func blackImage(w, h int) *ebiten.Image {
	img := ebiten.NewImage(w, h)
	img.Fill(color.Black)
	return img
}

// TestMasks: coverage is the maximum of the mask meshes' texture alpha (not
// their union 1 − Π(1 − α)); inverted masks use 1 − coverage; mask meshes
// are drawn only into the coverage, whatever their opacity.
func TestMasks(t *testing.T) {
	onGame(func() {
		s := newScene(30, 10)
		white := s.page(solid(color.NRGBA{255, 255, 255, 255}))
		a40 := s.page(solid(color.NRGBA{255, 0, 0, 102})) // α 0.4
		a70 := s.page(solid(color.NRGBA{0, 255, 0, 178})) // α ≈ 0.698
		ma := s.quad(a40, 0, 0, 20, 10, p2lrt.Mesh{})
		mb := s.quad(a70, 10, 0, 30, 10, p2lrt.Mesh{})
		s.pose.op[ma], s.pose.op[mb] = 0, 0 // hidden masks still mask
		masked := s.quad(white, 0, 0, 30, 5, p2lrt.Mesh{Masks: []int{ma, mb}})
		inverted := s.quad(white, 0, 5, 30, 10, p2lrt.Mesh{Masks: []int{mb, ma}, Flags: p2lrt.MeshInvertMask})
		s.pose.cmds = []p2l.RenderCommand{mesh(ma), mesh(mb), mesh(masked), mesh(inverted)}
		c := s.character(t)
		if got := len(c.res.maskSets); got != 1 {
			t.Errorf("mask sets: %d, want 1 (same set in another order)", got)
		}
		dst := blackImage(30, 10)
		c.Draw(dst, nil)
		p := pixels(dst)
		g := func(v float64) [4]float64 { return [4]float64{v, v, v, 1} }
		a7 := 178.0 / 255
		check(t, p, 30, 5, 2, g(0.4), 1.5/255, "mask A only")
		check(t, p, 30, 15, 2, g(a7), 1.5/255, "masks A and B (max)")
		check(t, p, 30, 25, 2, g(a7), 1.5/255, "mask B only")
		check(t, p, 30, 5, 7, g(0.6), 1.5/255, "inverted A")
		check(t, p, 30, 15, 7, g(1-a7), 1.5/255, "inverted A and B")
	})
}

// TestIsolatedGroup: a group's meshes composite among themselves first, then
// the layer is composited with the group's opacity and colors: at opacity
// 0.5 the lower mesh does not show through the upper one.
func TestIsolatedGroup(t *testing.T) {
	onGame(func() {
		s := newScene(20, 10)
		red := s.page(solid(color.NRGBA{255, 0, 0, 255}))
		blue := s.page(solid(color.NRGBA{0, 0, 255, 255}))
		a := s.quad(red, 0, 0, 15, 10, p2lrt.Mesh{})
		b := s.quad(blue, 5, 0, 20, 10, p2lrt.Mesh{})
		gp := s.part()
		s.pose.comps[gp] = p2lrt.Composite{Opacity: 0.5, Multiply: p2lrt.White, Screen: p2lrt.Color{0, 1, 0}}
		s.pose.cmds = []p2l.RenderCommand{p2l.OpenGroup(gp), mesh(a), mesh(b), p2l.CloseGroup}
		c := s.character(t)
		dst := blackImage(20, 10)
		c.Draw(dst, nil)
		p := pixels(dst)
		// Layer red (1,0,0,1) → screen green: (1, 1, 0) → ×0.5 over black.
		check(t, p, 20, 2, 5, [4]float64{0.5, 0.5, 0, 1}, 1.5/255, "red in group")
		check(t, p, 20, 10, 5, [4]float64{0, 0.5, 0.5, 1}, 1.5/255, "blue over red in group")
	})
}

// TestNestedGroups: an inner group with a backdrop-reading mode (Multiply
// over its parent's layer) inside an outer group at half opacity.
func TestNestedGroups(t *testing.T) {
	onGame(func() {
		s := newScene(20, 10)
		yellow := s.page(solid(color.NRGBA{255, 255, 0, 255}))
		cyan := s.page(solid(color.NRGBA{0, 255, 255, 255}))
		a := s.quad(yellow, 0, 0, 20, 10, p2lrt.Mesh{})
		b := s.quad(cyan, 10, 0, 20, 10, p2lrt.Mesh{})
		outer, inner := s.part(), s.part()
		s.pose.comps[outer] = p2lrt.Composite{Opacity: 0.5, Multiply: p2lrt.White}
		s.pose.comps[inner] = p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Blend: p2lrt.BlendMultiply}
		s.pose.cmds = []p2l.RenderCommand{p2l.OpenGroup(outer), mesh(a), p2l.OpenGroup(inner), mesh(b), p2l.CloseGroup, p2l.CloseGroup}
		c := s.character(t)
		dst := blackImage(20, 10)
		c.Draw(dst, nil)
		p := pixels(dst)
		check(t, p, 20, 5, 5, [4]float64{0.5, 0.5, 0, 1}, 1.5/255, "yellow")
		// yellow × cyan = green, at 0.5 over black.
		check(t, p, 20, 15, 5, [4]float64{0, 0.5, 0, 1}, 1.5/255, "multiply in nested group")
	})
}

// TestCulling: with culling on only front faces are drawn: the spec (its
// Godot paragraph) states them as (b − a) × (c − a) < 0 in canvas
// coordinates.
func TestCulling(t *testing.T) {
	onGame(func() {
		s := newScene(10, 10)
		white := s.page(solid(color.NRGBA{255, 255, 255, 255}))
		m := s.quad(white, 0, 0, 10, 10, p2lrt.Mesh{Flags: p2lrt.MeshCulling})
		// Triangle 0 (0,0)-(10,0)-(0,10): (b − a) × (c − a) = +100, a back
		// face; triangle 1 (10,0)-(0,10)-(10,10) = −100, a front face.
		s.pose.idx[m] = []uint32{0, 1, 2, 1, 2, 3}
		s.pose.cmds = []p2l.RenderCommand{mesh(m)}
		c := s.character(t)
		dst := blackImage(10, 10)
		c.Draw(dst, nil)
		p := pixels(dst)
		check(t, p, 10, 2, 2, [4]float64{0, 0, 0, 1}, 0, "back face")
		check(t, p, 10, 8, 8, [4]float64{1, 1, 1, 1}, 0, "front face")
		s.model.Meshes[m].Flags = 0
		s.built = nil
		c = s.character(t) // a model is immutable: a new one without culling
		c.Draw(dst, nil)
		check(t, pixels(dst), 10, 2, 2, [4]float64{1, 1, 1, 1}, 0, "back face without culling")
	})
}

// TestColorsAndScale: multiply, then screen, then opacity, then the
// caller's ColorScale.
func TestColorsAndScale(t *testing.T) {
	onGame(func() {
		s := newScene(4, 4)
		pg := s.page(solid(color.NRGBA{200, 100, 40, 255}))
		m := s.quad(pg, 0, 0, 4, 4, p2lrt.Mesh{})
		s.pose.mul[m] = p2lrt.Color{0.5, 1, 1}
		s.pose.scr[m] = p2lrt.Color{0, 0, 0.5}
		s.pose.op[m] = 0.8
		s.pose.cmds = []p2l.RenderCommand{mesh(m)}
		c := s.character(t)
		dst := ebiten.NewImage(4, 4)
		var o DrawOptions
		o.ColorScale.Scale(1, 0.5, 1, 0.5)
		c.Draw(dst, &o)
		// c = (200/255·0.5, 100/255, 40/255); screen b: c + 0.5 − c·0.5.
		r, g, b := 200.0/255*0.5, 100.0/255, 40.0/255
		b = b + 0.5 - b*0.5
		want := [4]float64{r * 0.8 * 1, g * 0.8 * 0.5, b * 0.8, 0.8 * 0.5}
		check(t, pixels(dst), 4, 2, 2, want, 1.5/255, "colors")
	})
}

// TestSplitLargeMesh: a mesh of more than 65,535 vertices is split across
// calls and still covers its area.
func TestSplitLargeMesh(t *testing.T) {
	onGame(func() {
		s := newScene(64, 64)
		white := s.page(solid(color.NRGBA{255, 255, 255, 255}))
		m := s.quad(white, 0, 0, 1, 1, p2lrt.Mesh{})
		// A 300×300-vertex grid over the 64×64 canvas: 90,000 vertices.
		const n = 300
		var v, uv []float32
		for y := range n {
			for x := range n {
				v = append(v, float32(x)*64/(n-1), float32(y)*64/(n-1))
				uv = append(uv, float32(x)/(n-1), float32(y)/(n-1))
			}
		}
		var idx []uint32
		for y := range n - 1 {
			for x := range n - 1 {
				i := uint32(y*n + x)
				idx = append(idx, i, i+1, i+n, i+1, i+n+1, i+n)
			}
		}
		s.pose.verts[m], s.pose.uvs[m], s.pose.idx[m] = v, uv, idx
		s.pose.cmds = []p2l.RenderCommand{mesh(m)}
		c := s.character(t)
		dst := blackImage(64, 64)
		before, sub := rd.drawCalls, counters.submits
		c.Draw(dst, nil)
		// Submissions of at most 65,536 vertices, one state run: one draw.
		if calls, subs := rd.drawCalls-before, counters.submits-sub; subs < 2 || calls != 1 {
			t.Errorf("90,000 vertices: %d submissions in %d draws, want ≥ 2 in 1", subs, calls)
		}
		p := pixels(dst)
		for y := range 64 {
			for x := range 64 {
				if at(p, 64, x, y) != [4]float64{1, 1, 1, 1} {
					t.Errorf("pixel (%d,%d) not covered: %v", x, y, at(p, 64, x, y))
					return
				}
			}
		}
	})
}

// TestBadMaskIndex: a mask index out of range cannot reach the renderer:
// a model is made by p2l.NewModel, which refuses it with a FormatError
// naming the mask (before models were validated, the masked mesh drew
// nothing and its inverted twin fully).
func TestBadMaskIndex(t *testing.T) {
	for _, masks := range [][]int{{99}, {-3}} {
		s := newScene(4, 2)
		white := s.page(solid(color.NRGBA{255, 255, 255, 255}))
		s.quad(white, 0, 0, 4, 1, p2lrt.Mesh{Masks: masks})
		_, err := p2l.NewModel(&s.model)
		var fe *p2lrt.FormatError
		if !errors.As(err, &fe) || fe.Tag != "MESH" || fe.Field != "meshes[0].masks[0]" {
			t.Errorf("masks %v: NewModel error %v, want a FormatError on MESH meshes[0].masks[0]", masks, err)
		}
	}
}

// TestSubImageTarget: drawing into a sub-image (whose bounds do not start
// at 0, as Ebitengine keeps the parent's coordinates) gives the same pixels
// as drawing into an image of its own, with masks, groups and backdrop
// reads.
func TestSubImageTarget(t *testing.T) {
	onGame(func() {
		s := newScene(16, 16)
		pg := s.page(solid(color.NRGBA{200, 120, 40, 220}))
		mk := s.quad(pg, 2, 2, 12, 12, p2lrt.Mesh{})
		a := s.quad(pg, 0, 0, 16, 8, p2lrt.Mesh{Masks: []int{mk}})
		b := s.quad(pg, 4, 4, 16, 16, p2lrt.Mesh{Blend: p2lrt.BlendOverlay})
		g := s.part()
		s.pose.comps[g] = p2lrt.Composite{Opacity: 0.8, Multiply: p2lrt.White, Blend: p2lrt.BlendHardLight, MaskMeshes: []int{mk}, InvertMask: true}
		s.pose.cmds = []p2l.RenderCommand{mesh(a), p2l.OpenGroup(g), mesh(b), p2l.CloseGroup, mesh(b)}
		c := s.character(t)
		own := blackImage(16, 16)
		defer own.Deallocate()
		c.Draw(own, nil)
		want := pixels(own)

		parent := blackImage(40, 40)
		defer parent.Deallocate()
		sub := parent.SubImage(image.Rect(20, 10, 36, 26)).(*ebiten.Image)
		var o DrawOptions
		o.GeoM.Translate(20, 10)
		c.Draw(sub, &o)
		got := pixels(sub)
		if d, at, _ := maxDiff(got, want, 16, func(int, int) bool { return false }); d > 1 {
			t.Errorf("sub-image target differs by %d/255 at %v", d, at)
		}
	})
}

// TestMaskSlotsExhausted: a target's coverage has maxSlots slots; a masked
// mesh whose mask set finds no free slot (more than maxSlots distinct
// sets masking one area) is not drawn, rather than drawn unmasked. Here
// every mask is transparent, so no masked mesh may leave a mark.
func TestMaskSlotsExhausted(t *testing.T) {
	onGame(func() {
		s := newScene(10, 10)
		clear := s.page(solid(color.NRGBA{0, 0, 0, 0}))
		white := s.page(solid(color.NRGBA{255, 255, 255, 255}))
		var cmds []p2l.RenderCommand
		for range maxSlots + 1 {
			m := s.quad(clear, 0, 0, 10, 10, p2lrt.Mesh{})
			cmds = append(cmds, mesh(m), mesh(s.quad(white, 0, 0, 10, 10, p2lrt.Mesh{Masks: []int{m}})))
		}
		s.pose.cmds = cmds
		c := s.character(t)
		if got := len(c.res.maskSets); got != maxSlots+1 {
			t.Fatalf("mask sets: %d, want %d", got, maxSlots+1)
		}
		dst := blackImage(10, 10)
		c.Draw(dst, nil)
		check(t, pixels(dst), 10, 5, 5, [4]float64{0, 0, 0, 1}, 0, "under 256 transparent masks")
	})
}
