package render

import (
	"errors"
	"image"
	"image/color"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestDegeneratePagesDrawNothing: caller-supplied pages that cannot be
// sampled — 0×0, 0×N, Pix shorter than its rectangle, a stride too small —
// are unavailable pages (the mesh draws and masks nothing, so the pixel
// hit test finds nothing there), never a panic.
func TestDegeneratePagesDrawNothing(t *testing.T) {
	short := image.NewRGBA(image.Rect(0, 0, 4, 4))
	short.Pix = short.Pix[:20]
	narrow := image.NewRGBA(image.Rect(0, 0, 4, 4))
	narrow.Stride = 8
	offset := image.NewRGBA(image.Rect(3, 5, 7, 9)) // a valid page not at the origin
	for i := range offset.Pix {
		offset.Pix[i] = 255
	}
	for _, tc := range []struct {
		name string
		page *image.RGBA
		draw bool
	}{
		{"0x0", image.NewRGBA(image.Rectangle{}), false},
		{"0x4", image.NewRGBA(image.Rect(0, 0, 0, 4)), false},
		{"4x0", image.NewRGBA(image.Rect(0, 0, 4, 0)), false},
		{"short Pix", short, false},
		{"small stride", narrow, false},
		{"empty struct", &image.RGBA{}, false},
		{"offset rectangle", offset, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeFrame{}
			v, uv, idx := quad(0, 0, 4, 4)
			f.addMesh(p2lrt.Mesh{TexturePage: 0}, v, uv, idx)                            // drawn with the page
			f.addMesh(p2lrt.Mesh{TexturePage: -1, Masks: []int{0}}, v, uv, idx)          // masked by it
			f.addMesh(p2lrt.Mesh{TexturePage: 0, Blend: p2lrt.BlendOverlay}, v, uv, idx) // advanced path
			f.m.HitAreas = []p2lrt.HitArea{{ID: "a", Meshes: []int{0}}}
			r := Renderer{Pages: []*image.RGBA{tc.page}}
			img := renderFrame(t, &r, f, 4, 4, nil)
			got := img.RGBAAt(1, 1)
			if drawn := got != (color.RGBA{}); drawn != tc.draw {
				t.Errorf("pixel = %v, drawn %v, want %v", got, drawn, tc.draw)
			}
			// The usable page is opaque white: the overlay mesh (2) is the
			// topmost drawn; otherwise nothing is drawn (mesh 1's mask
			// covers nothing), so no area is hit.
			wantMesh, wantArea := -1, -1
			if tc.draw {
				wantMesh, wantArea = 2, 0
			}
			if mi := r.meshAt(f, 1, 1, 0.5); mi != wantMesh {
				t.Errorf("MeshAt = %d, want %d", mi, wantMesh)
			}
			if a := r.hitTestAlpha(f, 1, 1, 0.5); a != wantArea {
				t.Errorf("HitTestAlpha = %d, want %d", a, wantArea)
			}
		})
	}
}

// nestedFrame returns n groups nested in one another, each holding one
// opaque quad of the given size at the origin, drawn before the next
// group opens.
func nestedFrame(n int, size float32) *fakeFrame {
	f := &fakeFrame{}
	v, uv, idx := quad(0, 0, size, size)
	f.addMesh(p2lrt.Mesh{TexturePage: -1}, v, uv, idx)
	f.cmds = nil
	f.groups = map[int]p2lrt.Composite{}
	for g := 0; g < n; g++ {
		f.m.Parts = append(f.m.Parts, p2lrt.Part{})
		f.groups[g] = p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}
		f.cmds = append(f.cmds, p2l.OpenGroup(g), p2l.RenderCommand(0))
	}
	for g := 0; g < n; g++ {
		f.cmds = append(f.cmds, p2l.CloseGroup)
	}
	return f
}

// TestGroupLayersBounded: a group's layer covers its contents' bounding
// box, nested groups stack their layers in one arena, siblings reuse it,
// and nesting whose layers would exceed MaxGroupPixels is refused with
// ErrGroupLayers before anything is drawn.
func TestGroupLayersBounded(t *testing.T) {
	const W, H = 256, 256
	// 250 nested groups of a 4×4 quad: 250 · 16 pixels of layers, not 250
	// image-sized layers (the 2.5 GiB).
	f := nestedFrame(250, 4)
	var r Renderer
	img := renderFrame(t, &r, f, W, H, nil)
	if got, want := img.RGBAAt(2, 2), (color.RGBA{255, 255, 255, 255}); got != want {
		t.Errorf("nested result = %v, want %v", got, want)
	}
	if got := len(r.arena); got != 4*250*16 {
		t.Errorf("arena holds %d floats, want %d (250 layers of 4×4)", got, 4*250*16)
	}
	// 250 nested image-sized groups need 250·W·H pixels: refused with the
	// default limit, and the image is left as it was.
	f = nestedFrame(250, W)
	r = Renderer{}
	img = image.NewRGBA(image.Rect(0, 0, W, H))
	img.Pix[0] = 7
	err := r.render(f, img, &Options{Transform: &p2l.Identity})
	if !errors.Is(err, ErrGroupLayers) {
		t.Fatalf("err = %v, want ErrGroupLayers", err)
	}
	t.Log(err)
	if img.Pix[0] != 7 {
		t.Error("the image was changed by a refused render")
	}
	if len(r.arena) != 0 {
		t.Errorf("arena of %d floats allocated for a refused render", len(r.arena))
	}
	// The default: eight image-sized layers, at least 2²² pixels.
	if got := DefaultGroupPixels(1024, 768); got != 8*1024*768 {
		t.Errorf("DefaultGroupPixels(1024, 768) = %d", got)
	}
	if got := DefaultGroupPixels(W, H); got != 1<<22 {
		t.Errorf("DefaultGroupPixels(%d, %d) = %d", W, H, got)
	}
	// MaxGroupPixels 8·W·H: eight image-sized levels fit, nine do not.
	r.MaxGroupPixels = 8 * W * H
	if err := r.render(nestedFrame(8, W), img, &Options{Transform: &p2l.Identity}); err != nil {
		t.Errorf("8 levels: %v", err)
	}
	if err := r.render(nestedFrame(9, W), img, &Options{Transform: &p2l.Identity}); !errors.Is(err, ErrGroupLayers) {
		t.Errorf("9 levels: err = %v, want ErrGroupLayers", err)
	}
	// Sibling groups reuse the same memory: 20 image-sized groups side
	// by side need one layer.
	f = nestedFrame(1, W)
	for g := 1; g < 20; g++ {
		f.m.Parts = append(f.m.Parts, p2lrt.Part{})
		f.groups[g] = p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White}
		f.cmds = append(f.cmds, p2l.OpenGroup(g), p2l.RenderCommand(0), p2l.CloseGroup)
	}
	r = Renderer{}
	renderFrame(t, &r, f, W, H, nil)
	if got := len(r.arena); got != 4*W*H {
		t.Errorf("siblings: arena holds %d floats, want %d", got, 4*W*H)
	}
}

// TestGroupLayerExtentIsExact: a group drawn into a layer cut to its
// bounding box gives the same image as the same meshes with the group's
// box stretched to the whole image by a transparent mesh at the far
// corners: pixel for pixel, in every blend mode of the group.
func TestGroupLayerExtentIsExact(t *testing.T) {
	for b := p2lrt.BlendMode(0); b < p2lrt.NumBlendModes; b++ {
		build := func(stretch bool) *image.RGBA {
			f := &fakeFrame{}
			bv, buv, bidx := quad(0, 0, 16, 16)
			bg := f.addMesh(p2lrt.Mesh{TexturePage: 0}, bv, buv, bidx) // backdrop ramp
			v, uv, idx := quad(3.3, 2.6, 9.7, 11.2)
			a := f.addMesh(p2lrt.Mesh{TexturePage: 0, Opacity: 0.8}, v, uv, idx)
			v2, uv2, idx2 := quad(6.1, 5.2, 12.4, 13.9)
			c := f.addMesh(p2lrt.Mesh{TexturePage: -1, Blend: p2lrt.BlendOverlay, Opacity: 0.6}, v2, uv2, idx2)
			f.mul[c] = p2lrt.Color{0.2, 0.7, 0.4}
			f.m.Parts = []p2lrt.Part{{ID: "g"}}
			f.groups = map[int]p2lrt.Composite{0: {Blend: b, Opacity: 0.7, Multiply: p2lrt.Color{1, 0.8, 0.6}, Screen: p2lrt.Color{0.1, 0, 0.2}}}
			f.cmds = []p2l.RenderCommand{p2l.RenderCommand(bg), p2l.OpenGroup(0), p2l.RenderCommand(a)}
			if stretch {
				// Pixels at both far corners of the image, transparent.
				sv, _, sidx := quad(0, 0, 16, 16)
				s := f.addMesh(p2lrt.Mesh{TexturePage: 0}, sv, []float32{0, 0, 0, 0, 0, 0, 0, 0}, sidx)
				f.cmds = append(f.cmds[:3], p2l.RenderCommand(s))
			}
			f.cmds = append(f.cmds, p2l.RenderCommand(c), p2l.CloseGroup)
			r := Renderer{Pages: []*image.RGBA{softMaskPage()}}
			return renderFrame(t, &r, f, 16, 16, nil)
		}
		got, want := build(false), build(true)
		for i := range got.Pix {
			if got.Pix[i] != want.Pix[i] {
				t.Errorf("%v: pixel %d channel %d = %d, full-size layer %d", b, i/4, i%4, got.Pix[i], want.Pix[i])
				break
			}
		}
	}
}
