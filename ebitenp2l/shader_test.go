package ebitenp2l

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// variantScene is a scene drawn by TestMeshVariants: n characters of a
// model tiled over a w×h destination, at a pose, with a filter.
type variantScene struct {
	name   string
	model  *p2l.Model
	topts  texture.Options
	pose   []float32 // nil: the model's defaults
	n      int
	scale  float64 // of a single character; crowds are tiled
	filter Filter
}

// draw draws s into a new unmanaged destination (nothing recorded: new
// characters, a new Batch) and returns its pixels.
func (s *variantScene) draw() []byte {
	var pix []byte
	onGame(func() {
		w, h := int(float64(s.model.Canvas().Width)*s.scale+0.5), int(float64(s.model.Canvas().Height)*s.scale+0.5)
		if s.n > 1 {
			w, h = 512, 512
		}
		dst := ownImage(w, h)
		defer dst.Deallocate()
		var b Batch
		opts := make([]DrawOptions, s.n)
		for i := range s.n {
			c := NewCharacterWithOptions(s.model, &Options{Textures: s.topts})
			defer c.Deallocate()
			if s.pose != nil {
				c.Rig().SetParameterValues(s.pose)
			}
			c.Rig().Evaluate()
			if s.n > 1 {
				opts[i].GeoM = tileGeoM(s.model, s.n, i)
			} else {
				opts[i].GeoM.Scale(s.scale, s.scale)
			}
			opts[i].Filter = s.filter
			b.Add(c, &opts[i])
		}
		b.Draw(dst)
		pix = pixels(dst)
	})
	return pix
}

// TestMeshVariants: the mesh program's variants (shader.go meshShaders),
// chosen per call, draw exactly the pixels of the full program drawing
// every call. Scenes: every conformance model (masks, inverted and soft
// masks, isolated and nested groups, every blend mode) at three poses and
// two scales, with both filters; the default and the synthetic character
// alone and in crowds of 10 and 100. The check can fail: with the masked
// variants swapped for unmasked ones the masked models differ, and with
// the layer variants swapped for ones without the layer source the models
// with groups.
func TestMeshVariants(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(conformanceDir, "*.p2lrt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance models in %s (%v)", conformanceDir, err)
	}
	var scenes []variantScene
	for _, file := range files {
		m, err := p2l.LoadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".p2lrt")
		topts := texture.Options{FS: os.DirFS(conformanceDir)}
		for _, pose := range parityPoses(m) {
			for _, s := range []float64{1, 2} {
				for _, f := range []Filter{FilterLinear, FilterNearest} {
					scenes = append(scenes, variantScene{name: name, model: m, topts: topts, pose: pose, n: 1, scale: s, filter: f})
				}
			}
		}
	}
	for _, m := range benchModels(t) {
		for _, n := range []int{1, 10, 100} {
			for _, f := range []Filter{FilterLinear, FilterNearest} {
				scenes = append(scenes, variantScene{name: m.name, model: m.model, n: n, scale: 512 / float64(max(m.model.Canvas().Width, m.model.Canvas().Height)), filter: f})
			}
		}
	}
	if err := loadShaders(); err != nil {
		t.Fatal(err)
	}
	variants := meshShaders
	defer func() { meshShaders = variants }()
	differs := map[string]bool{}
	// with returns the variants with variant [s][l][m] replaced by
	// [pick(s, l, m)].
	with := func(pick func(s, l, m int) (int, int, int)) (v [2][2][2]meshVariant) {
		for s := range 2 {
			for l := range 2 {
				for m := range 2 {
					a, b, c := pick(s, l, m)
					v[s][l][m] = variants[a][b][c]
				}
			}
		}
		return v
	}
	for _, s := range scenes {
		meshShaders = variants
		got := s.draw()
		meshShaders = with(func(int, int, int) (int, int, int) { return 1, 1, 1 })
		want := s.draw()
		if !bytes.Equal(got, want) {
			t.Errorf("%s ×%d, scale %g, filter %d: the variants draw other pixels than the full mesh program", s.name, s.n, s.scale, s.filter)
		}
		// Masked calls drawn by an unmasked variant, layer calls by one
		// without the layer source, calls with a screen colour by a
		// packed variant: must be seen.
		meshShaders = with(func(sc, l, _ int) (int, int, int) { return sc, l, 0 })
		if !bytes.Equal(s.draw(), want) {
			differs["mask "+s.name] = true
		}
		meshShaders = with(func(sc, _, m int) (int, int, int) { return sc, 0, m })
		if !bytes.Equal(s.draw(), want) {
			differs["layer "+s.name] = true
		}
		meshShaders = with(func(_, l, m int) (int, int, int) { return 0, l, m })
		if !bytes.Equal(s.draw(), want) {
			differs["screen "+s.name] = true
		}
	}
	for _, c := range []string{"mask features", "mask groups", "mask default", "layer groups", "layer synth", "screen features", "screen groups"} {
		if !differs[c] {
			t.Errorf("%s: drawing those calls with the smaller variant changed no pixel (the comparison would miss a wrong variant)", c)
		}
	}
	t.Logf("wrong variants seen in: %v", differs)
}

// TestMeshWords: the packed colour words give back, decoded as
// shaders/mesh_packed.kage decodes them (in float32), every flags value
// the mesh program has (below 4096) and the opacity the variant with the
// screen colour reads, within the documented rounding of the opacity.
func TestMeshWords(t *testing.T) {
	ops := []float32{0, 1, 0.5, 1.0 / 255, 254.0 / 255, 0.1, 0.3333333, 1e-7, math.Nextafter32(1, 0)}
	var other renderer // its call is none of the mesh program's: words as they are
	for f := range 4096 {
		for _, o := range ops {
			col := [8]float32{0.25, 0.5, 1, o, 0, 0, 0, float32(f)}
			packed, screen := meshWords(col, true), meshWords(col, false)
			a := packed[3]
			gotF := float32(math.Floor(float64(a / 4)))
			gotO := a - 4*gotF - 1
			if gotF != float32(f) || gotO != screen[3] {
				t.Fatalf("flags %d, opacity %g: packed %g decodes to flags %g, opacity %g; the screen variant reads %g", f, o, a, gotF, gotO, screen[3])
			}
			bound := 1.0 / 2048
			if f < 16 {
				bound = 1.0 / (1 << 19)
			}
			if d := math.Abs(float64(gotO - o)); d > bound {
				t.Errorf("flags %d, opacity %g: read as %g (error %g > %g)", f, o, gotO, d, bound)
			}
			if packed[0] != col[0] || packed[7] != col[7] || other.words(col) != col {
				t.Fatalf("flags %d, opacity %g: words other than ColorA changed", f, o)
			}
		}
	}
}
