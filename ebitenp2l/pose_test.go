package ebitenp2l

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// fakePose is a hand-made evaluation result, so the renderer can be tested
// without the evaluator.
type fakePose struct {
	cmds  []p2l.RenderCommand
	verts [][]float32
	uvs   [][]float32
	idx   [][]uint32
	op    []float32
	mul   []p2lrt.Color
	scr   []p2lrt.Color
	comps map[int]p2lrt.Composite
}

func (f *fakePose) RenderCommands() []p2l.RenderCommand { return f.cmds }
func (f *fakePose) MeshVertices(i int) []float32        { return f.verts[i] }
func (f *fakePose) MeshUVs(i int) []float32             { return f.uvs[i] }
func (f *fakePose) MeshIndices(i int) []uint32          { return f.idx[i] }
func (f *fakePose) MeshOpacity(i int) float32           { return f.op[i] }
func (f *fakePose) MeshColors(i int) (p2lrt.Color, p2lrt.Color) {
	return f.mul[i], f.scr[i]
}
func (f *fakePose) GroupComposite(part int) p2lrt.Composite { return f.comps[part] }

// scene builds a model and a pose mesh by mesh.
type scene struct {
	model p2lrt.File
	// built is the model of model, made by the first character (NewModel
	// copies the file: a change after it needs built = nil).
	built *p2l.Model
	pose  fakePose
	pages []image.Image
}

func newScene(w, h float32) *scene {
	s := &scene{}
	s.model.Canvas = p2lrt.Canvas{Width: w, Height: h}
	s.model.Draw.Part = -1
	s.pose.comps = map[int]p2lrt.Composite{}
	return s
}

// page adds a texture page and returns its index.
func (s *scene) page(img image.Image) int {
	s.pages = append(s.pages, img)
	b := img.Bounds()
	s.model.Textures = append(s.model.Textures, p2lrt.TexturePage{Kind: p2lrt.TexturePNG, Width: uint32(b.Dx()), Height: uint32(b.Dy())})
	return len(s.pages) - 1
}

// solid returns a 4×4 page of one straight-alpha color.
func solid(c color.NRGBA) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// quad adds a rectangle mesh covering (x0,y0)-(x1,y1) with the whole page,
// triangles wound clockwise on screen (y down), and returns its index.
func (s *scene) quad(page int, x0, y0, x1, y1 float32, m p2lrt.Mesh) int {
	m.TexturePage = page
	m.Parent = -1
	s.model.Meshes = append(s.model.Meshes, m)
	s.pose.verts = append(s.pose.verts, []float32{x0, y0, x1, y0, x0, y1, x1, y1})
	s.pose.uvs = append(s.pose.uvs, []float32{0, 0, 1, 0, 0, 1, 1, 1})
	s.pose.idx = append(s.pose.idx, []uint32{0, 1, 2, 1, 3, 2})
	s.pose.op = append(s.pose.op, 1)
	s.pose.mul = append(s.pose.mul, p2lrt.White)
	s.pose.scr = append(s.pose.scr, p2lrt.Black)
	return len(s.model.Meshes) - 1
}

func (s *scene) part() int {
	s.model.Parts = append(s.model.Parts, p2lrt.Part{GroupMode: p2lrt.GroupIsolated})
	return len(s.model.Parts) - 1
}

func (s *scene) character(t testing.TB) *Character {
	t.Helper()
	opts := &Options{Textures: texture.Options{Resolve: func(i int, _ *p2lrt.TexturePage) (image.Image, error) {
		return s.pages[i], nil
	}}}
	if s.built == nil {
		m, err := p2l.NewModel(&s.model)
		if err != nil {
			t.Fatal(err)
		}
		s.built = m
	}
	c := newCharacter(s.built, opts, nil, &s.pose)
	t.Cleanup(func() { onGame(c.Deallocate) })
	return c
}

// pixels reads img back as premultiplied RGBA bytes.
func pixels(img *ebiten.Image) []byte {
	b := img.Bounds()
	p := make([]byte, 4*b.Dx()*b.Dy())
	img.ReadPixels(p)
	return p
}

func at(p []byte, w, x, y int) [4]float64 {
	o := 4 * (y*w + x)
	return [4]float64{float64(p[o]) / 255, float64(p[o+1]) / 255, float64(p[o+2]) / 255, float64(p[o+3]) / 255}
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return png.Encode(f, img)
}
