package ebitenp2l

import (
	"fmt"
	"image"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

// mergeModel builds models for the tests of the draw merges: untextured
// meshes (the white block, tinted by their multiply colour) placed in
// canvas pixels, at the top level or in isolated groups.
type mergeModel struct {
	m p2lrt.File
}

func newMergeModel(w, h float32) *mergeModel {
	return &mergeModel{m: p2lrt.File{Canvas: p2lrt.Canvas{Width: w, Height: h, PixelsPerUnit: -1}, Draw: p2lrt.DrawGroup{Part: -1}}}
}

// mesh adds a mesh of the given vertices (x, y pairs) and triangles, of
// colour rgb at opacity op, and returns the draw node that draws it.
func (mm *mergeModel) mesh(blend p2lrt.BlendMode, alpha p2lrt.AlphaMode, rgb p2lrt.Color, op float32, pos []float32, idx []uint32) p2lrt.DrawNode {
	uv := make([]float32, len(pos))
	for i := range uv {
		uv[i] = 0.5
	}
	i := len(mm.m.Meshes)
	mm.m.Meshes = append(mm.m.Meshes, p2lrt.Mesh{ID: fmt.Sprint("m", i), Parent: -1, TexturePage: -1,
		Flags: p2lrt.MeshGeometry | p2lrt.MeshVisible, Blend: blend, AlphaBlend: alpha,
		Positions: pos, UVs: uv, Indices: idx, Opacity: op, Multiply: rgb})
	return p2lrt.DrawNode{Mesh: i}
}

// rect adds a rectangle mesh (two triangles).
func (mm *mergeModel) rect(blend p2lrt.BlendMode, alpha p2lrt.AlphaMode, rgb p2lrt.Color, op float32, x0, y0, x1, y1 float32) p2lrt.DrawNode {
	return mm.mesh(blend, alpha, rgb, op, []float32{x0, y0, x1, y0, x0, y1, x1, y1}, []uint32{0, 1, 2, 1, 3, 2})
}

// folded adds a rectangle with a third triangle over half of it: the mesh
// overlaps itself there.
func (mm *mergeModel) folded(blend p2lrt.BlendMode, alpha p2lrt.AlphaMode, rgb p2lrt.Color, op float32, x0, y0, x1, y1 float32) p2lrt.DrawNode {
	return mm.mesh(blend, alpha, rgb, op, []float32{x0, y0, x1, y0, x0, y1, x1, y1}, []uint32{0, 1, 2, 1, 3, 2, 0, 1, 3})
}

// group returns an isolated group (a new part) of the given children,
// composited Normal + Over.
func (mm *mergeModel) group(children ...p2lrt.DrawNode) p2lrt.DrawNode {
	part := len(mm.m.Parts)
	comp := p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}
	mm.m.Parts = append(mm.m.Parts, p2lrt.Part{ID: fmt.Sprint("g", part), Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated, Composite: comp})
	return p2lrt.DrawNode{Group: &p2lrt.DrawGroup{Part: part, Composite: &comp, Children: children}}
}

// compareWithCPU draws the model's rest pose on the GPU over an opaque
// grey target and with the CPU reference renderer over the same, requires
// every channel to agree within parityTolerance, and returns the draws the
// GPU frame took.
func compareWithCPU(t *testing.T, m *p2l.Model) int {
	t.Helper()
	w, h := int(m.Canvas().Width), int(m.Canvas().Height)
	grey := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(grey.Pix); i += 4 {
		grey.Pix[i], grey.Pix[i+1], grey.Pix[i+2], grey.Pix[i+3] = 101, 131, 77, 255
	}
	var gpu []byte
	var rig *p2l.Rig
	n := 0
	onGame(func() {
		c := NewCharacter(m)
		defer c.Deallocate()
		if err := c.Rig().Err(); err != nil {
			t.Fatal(err)
		}
		rig = c.Rig()
		dst := ebiten.NewImageFromImage(grey)
		defer dst.Deallocate()
		n = calls(func() { c.Draw(dst, nil) })
		gpu = pixels(dst)
	})
	want := image.NewRGBA(grey.Bounds())
	copy(want.Pix, grey.Pix)
	var cpu render.Renderer
	if err := cpu.Render(rig, want, &render.Options{Keep: true}); err != nil {
		t.Fatal(err)
	}
	d, at, _ := maxDiff(gpu, want.Pix, w, func(int, int) bool { return false })
	if d > parityTolerance {
		t.Errorf("GPU and CPU differ by %d/255 at %v (GPU %v, CPU %v)", d, at, gpu[4*(at.Y*w+at.X):][:4], want.Pix[4*(at.Y*w+at.X):][:4])
	}
	return n
}

// TestFirstDrawInLayer: in a layer, a backdrop-reading mesh, or a
// fixed-function one that lies flat, with nothing of its group under it is
// written with replace blending in the call that clears the layer (no
// copy), and one that changes nothing over transparency is not drawn; a
// mesh over another of its group still reads the backdrop, and a folded
// fixed-function one still blends triangle after triangle. Each case has a mesh that overlaps itself (its last triangle
// wins where a backdrop is read, both blend where it is not), and the
// pixels must be the CPU reference renderer's.
func TestFirstDrawInLayer(t *testing.T) {
	mm := newMergeModel(64, 32)
	orange, teal := p2lrt.Color{0.9, 0.5, 0.2}, p2lrt.Color{0.2, 0.7, 0.6}
	mm.m.Draw.Children = []p2lrt.DrawNode{
		mm.rect(p2lrt.BlendNormal, p2lrt.AlphaOver, p2lrt.Color{0.3, 0.3, 0.8}, 0.7, 0, 0, 64, 32),
		mm.group(
			// Over nothing: replaced, the fold's last triangle wins.
			mm.folded(p2lrt.BlendOverlay, p2lrt.AlphaOver, orange, 0.6, 2, 2, 20, 14),
			mm.rect(p2lrt.BlendDarken, p2lrt.AlphaConjointOver, teal, 0.8, 24, 2, 30, 14),
			// Over nothing and changing nothing there: not drawn.
			mm.rect(p2lrt.BlendScreen, p2lrt.AlphaAtop, teal, 1, 34, 2, 40, 14),
			mm.rect(p2lrt.BlendMultiplyCompatible, p2lrt.AlphaOver, teal, 1, 42, 2, 48, 14),
			// Over nothing but fixed-function and folded: it blends
			// triangle after triangle.
			mm.folded(p2lrt.BlendScreen, p2lrt.AlphaOver, orange, 0.5, 2, 18, 20, 30),
			// AddCompatible with Atop leaves colour over transparency.
			mm.rect(p2lrt.BlendAddCompatible, p2lrt.AlphaAtop, teal, 0.5, 50, 2, 56, 14),
			// Over the first mesh: reads the backdrop.
			mm.folded(p2lrt.BlendColorBurn, p2lrt.AlphaOver, teal, 0.7, 10, 6, 26, 12),
		),
	}
	n := compareWithCPU(t, synth.MustModel(&mm.m))
	// The layer: clear + the Overlay, Darken and AddCompatible meshes
	// (the last lies flat); the folded Screen mesh; a copy and a draw for
	// the ColorBurn mesh. The caller's image: the background and the group
	// composite (one call).
	if want := 5; n != want {
		t.Errorf("%d draws, want %d", n, want)
	}
}

// TestFlatMeshesJoinBackdropCalls: a fixed-function mesh that lies flat
// joins an earlier backdrop-reading call instead of opening a call of its
// own, its blend computed by the compositing program, and a call of such
// meshes becomes a backdrop-reading one for a backdrop-reading mesh that
// would otherwise open a call; a mesh that overlaps itself does neither. Pixels must be the CPU reference renderer's.
func TestFlatMeshesJoinBackdropCalls(t *testing.T) {
	orange, teal := p2lrt.Color{0.9, 0.5, 0.2}, p2lrt.Color{0.2, 0.7, 0.6}
	t.Run("every fixed-function blend", func(t *testing.T) {
		// In a layer over a half-transparent base, so that the alpha terms
		// matter: the base (the layer's first call), an Overlay mesh over
		// it (a copy and a draw), then one mesh of each fixed-function
		// combination beside it, over the base alone: each joins the
		// Overlay's call. The caller's image: the group composite.
		mm := newMergeModel(100, 20)
		kids := []p2lrt.DrawNode{
			mm.rect(p2lrt.BlendNormal, p2lrt.AlphaOver, p2lrt.Color{0.3, 0.6, 0.9}, 0.5, 0, 0, 100, 20),
			mm.rect(p2lrt.BlendOverlay, p2lrt.AlphaOver, orange, 0.8, 0, 0, 8, 20),
		}
		combos := [][2]int{
			{int(p2lrt.BlendNormal), int(p2lrt.AlphaOver)}, {int(p2lrt.BlendAddCompatible), int(p2lrt.AlphaOver)},
			{int(p2lrt.BlendMultiplyCompatible), int(p2lrt.AlphaAtop)}, {int(p2lrt.BlendScreen), int(p2lrt.AlphaOut)},
			{int(p2lrt.BlendNormal), int(p2lrt.AlphaAtop)}, {int(p2lrt.BlendMultiply), int(p2lrt.AlphaAtop)},
			{int(p2lrt.BlendAddGlow), int(p2lrt.AlphaOver)}, {int(p2lrt.BlendAddGlow), int(p2lrt.AlphaAtop)},
			{int(p2lrt.BlendScreen), int(p2lrt.AlphaOver)},
		}
		for i, c := range combos {
			x := float32(10 + 10*i)
			kids = append(kids, mm.rect(p2lrt.BlendMode(c[0]), p2lrt.AlphaMode(c[1]), teal, 0.7, x, 2, x+8, 18))
		}
		mm.m.Draw.Children = []p2lrt.DrawNode{mm.group(kids...)}
		if n, want := compareWithCPU(t, synth.MustModel(&mm.m)), 4; n != want {
			t.Errorf("%d draws, want %d", n, want)
		}
	})
	for _, fold := range []bool{false, true} {
		t.Run(fmt.Sprint("converted, folded ", fold), func(t *testing.T) {
			// Overlay A; Normal B over it (a call of its own after A's);
			// Darken D over A but beside B: instead of a third copy and
			// draw, B's call becomes a backdrop-reading one that D joins,
			// when B lies flat.
			mm := newMergeModel(20, 20)
			b := mm.rect
			if fold {
				b = mm.folded
			}
			mm.m.Draw.Children = []p2lrt.DrawNode{
				mm.rect(p2lrt.BlendOverlay, p2lrt.AlphaOver, orange, 0.8, 0, 0, 10, 10),
				b(p2lrt.BlendNormal, p2lrt.AlphaOver, teal, 0.6, 5, 5, 15, 15),
				mm.rect(p2lrt.BlendDarken, p2lrt.AlphaOver, teal, 0.9, 0, 0, 4, 4),
			}
			want := 4
			if fold {
				want = 5
			}
			if n := compareWithCPU(t, synth.MustModel(&mm.m)); n != want {
				t.Errorf("%d draws, want %d", n, want)
			}
		})
		t.Run(fmt.Sprint("not converted, members overlap, folded ", fold), func(t *testing.T) {
			// As above with a second Normal mesh in B's call, over B: read
			// from one copy it would not see B, so the call stays.
			mm := newMergeModel(20, 20)
			b := mm.rect
			if fold {
				b = mm.folded
			}
			mm.m.Draw.Children = []p2lrt.DrawNode{
				mm.rect(p2lrt.BlendOverlay, p2lrt.AlphaOver, orange, 0.8, 0, 0, 10, 10),
				mm.rect(p2lrt.BlendNormal, p2lrt.AlphaOver, teal, 0.6, 5, 5, 15, 15),
				b(p2lrt.BlendNormal, p2lrt.AlphaOver, orange, 0.5, 8, 8, 18, 18),
				mm.rect(p2lrt.BlendDarken, p2lrt.AlphaOver, teal, 0.9, 0, 0, 4, 4),
			}
			if n, want := compareWithCPU(t, synth.MustModel(&mm.m)), 5; n != want {
				t.Errorf("%d draws, want %d", n, want)
			}
		})
		t.Run(fmt.Sprint("folded ", fold), func(t *testing.T) {
			// On the caller's image: Overlay A, Normal B over it, Darken C
			// over B (a second copy and draw), then Screen E over A alone,
			// which can join C's call when it lies flat (not A's: it
			// overlaps A) and otherwise takes a call of its own.
			mm := newMergeModel(40, 20)
			e := mm.rect
			if fold {
				e = mm.folded
			}
			mm.m.Draw.Children = []p2lrt.DrawNode{
				mm.rect(p2lrt.BlendOverlay, p2lrt.AlphaOver, orange, 0.8, 0, 0, 10, 20),
				mm.rect(p2lrt.BlendNormal, p2lrt.AlphaOver, teal, 0.6, 5, 0, 15, 10),
				mm.rect(p2lrt.BlendDarken, p2lrt.AlphaOver, orange, 0.9, 12, 0, 22, 10),
				e(p2lrt.BlendScreen, p2lrt.AlphaOver, teal, 0.6, 2, 12, 9, 19),
			}
			want := 5
			if fold {
				want = 6
			}
			if n := compareWithCPU(t, synth.MustModel(&mm.m)); n != want {
				t.Errorf("%d draws, want %d", n, want)
			}
		})
	}
}
