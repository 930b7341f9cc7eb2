package main

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func writeTiny(t *testing.T, m *p2lrt.File) string {
	t.Helper()
	var b bytes.Buffer
	if err := m.Write(&b, nil); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "tiny.p2lrt")
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// squareModel is tinyModel with its mesh a 10×10 square (UVs spanning the
// page) drawn with the given triangle indices.
func squareModel(indices ...uint32) *p2lrt.File {
	m := tinyModel()
	m.Meshes[0].Positions = []float32{0, 0, 10, 0, 10, 10, 0, 10}
	m.Meshes[0].UVs = []float32{0, 0, 1, 0, 1, 1, 0, 1}
	m.Meshes[0].Indices = indices
	return m
}

// readPNG decodes the PNG file name.
func readPNG(t *testing.T, name string) image.Image {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestRenderCommandStill(t *testing.T) {
	m := squareModel(0, 1, 2, 0, 2, 3)
	m.Meshes[0].Multiply = p2lrt.Color{1, 0, 0}
	m.Parts[0].Flags = p2lrt.PartVisible // hidden parts hide their meshes
	in := writeTiny(t, m)
	out := filepath.Join(t.TempDir(), "out.png")
	code, stdout, stderr := runCmd("render", in, "-o", out, "--size", "20", "--background", "0000ffff")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "20×20") {
		t.Errorf("stdout %q", stdout)
	}
	img := readPNG(t, out)
	// Page −1 is white, multiplied red; the square covers the canvas.
	if got := color.NRGBAModel.Convert(img.At(10, 10)).(color.NRGBA); got != (color.NRGBA{255, 0, 0, 255}) {
		t.Errorf("centre pixel %v, want opaque red", got)
	}
	// Bad arguments.
	for _, args := range [][]string{
		{"render", in},                          // no output
		{"render", in, "-o", out, "--gif", "x"}, // two outputs
		{"render", in, "--gif", "x.gif"},        // no clip
		{"render", in, "-o", out, "--param", "Nope=1"},
		{"render", in, "-o", out, "--background", "zz"},
		{"render", in, "-o", out, "--physics", "maybe"},
	} {
		if code, _, _ := runCmd(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestRenderCommandClipGIF(t *testing.T) {
	m := squareModel(0, 1, 2)
	m.Parts[0].Flags = p2lrt.PartVisible
	m.Clips = []p2lrt.Clip{{ID: "Wave", Name: "Wave", Duration: 0.5, Fps: 30, Curves: []p2lrt.ParameterCurve{{Parameter: 0, Curve: p2lrt.Curve{Start: p2lrt.Point{T: 0, V: 0}, Segments: []p2lrt.Segment{{Kind: p2lrt.SegmentLinear, End: p2lrt.Point{T: 0.5, V: 1}}}}}}}}
	in := writeTiny(t, m)
	code, _, stderr := runCmd("render", in, "--clip", "Nope", "-o", filepath.Join(t.TempDir(), "x.png"))
	if code != 2 || !strings.Contains(stderr, "Wave 0.50s") {
		t.Errorf("unknown clip: exit %d, stderr %q", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "wave.gif")
	code, _, stderr = runCmd("render", in, "--clip", "Wave", "--gif", out, "--size", "16", "--fps", "10", "--dither")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "frame 6/6") {
		t.Errorf("progress %q", stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	// 0.5 s at 10 fps, not looping: frames at 0, 0.1, …, 0.5.
	if len(g.Image) != 6 {
		t.Fatalf("%d frames, want 6", len(g.Image))
	}
	for i, d := range g.Delay {
		if d != 10 {
			t.Errorf("delay %d = %d, want 10", i, d)
		}
	}
	// One palette shared by every frame (median cut over the whole clip),
	// entry 0 the transparent colour.
	for i, fr := range g.Image {
		if !slices.Equal(fr.Palette, g.Image[0].Palette) {
			t.Errorf("frame %d has its own palette", i)
		}
	}
	if _, _, _, a := g.Image[0].Palette[0].RGBA(); a != 0 {
		t.Errorf("palette entry 0 is not transparent")
	}
	// Only the triangle (0,0)-(10,0)-(10,10) is drawn: the lower-left
	// corner is transparent (index 0), the upper-right one is not.
	if g.Image[0].ColorIndexAt(2, 14) != 0 || g.Image[0].ColorIndexAt(14, 2) == 0 {
		t.Errorf("transparency: outside %d, inside %d", g.Image[0].ColorIndexAt(2, 14), g.Image[0].ColorIndexAt(14, 2))
	}
	dir := t.TempDir()
	if code, _, stderr := runCmd("render", in, "--clip", "Wave", "--frames", dir, "--size", "8", "--fps", "4", "--physics", "off"); code != 0 {
		t.Fatalf("frames: exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "frame_*.png"))
	if len(files) != 3 { // 0, 0.25, 0.5
		t.Errorf("%d frame files, want 3", len(files))
	}
}

func TestMedianCutPalette(t *testing.T) {
	// Two colours in a 3:1 ratio plus transparent pixels: the palette of
	// two entries is exactly those colours; transparent pixels map to 0.
	img := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	cols := []color.NRGBA{{200, 10, 10, 255}, {200, 10, 10, 255}, {200, 10, 10, 255}, {10, 10, 200, 255}, {0, 0, 0, 0}, {5, 5, 5, 100}, {200, 10, 10, 255}, {10, 10, 200, 255}}
	for i, c := range cols {
		img.SetNRGBA(i%4, i/4, c)
	}
	h := newHistogram()
	h.add(img)
	pal := h.medianCut(255)
	if len(pal) != 2 {
		t.Fatalf("palette %v, want 2 colours", pal)
	}
	want := map[color.NRGBA]bool{{200, 10, 10, 255}: true, {10, 10, 200, 255}: true}
	for _, c := range pal {
		if !want[c.(color.NRGBA)] {
			t.Errorf("palette colour %v not in the image", c)
		}
	}
	full := append(color.Palette{color.NRGBA{}}, pal...)
	p := newMapper(full).paletted(img, false)
	for i, c := range cols {
		got := full[p.Pix[i]].(color.NRGBA)
		if c.A < 128 {
			if p.Pix[i] != 0 {
				t.Errorf("pixel %d: alpha %d not transparent", i, c.A)
			}
		} else if got != c {
			t.Errorf("pixel %d = %v, want %v", i, got, c)
		}
	}
	// Median cut over many colours keeps at most 255 and each is the mean
	// of a box: a grey ramp of 256 levels with 16 entries spans the ramp.
	ramp := image.NewNRGBA(image.Rect(0, 0, 256, 1))
	for x := 0; x < 256; x++ {
		ramp.SetNRGBA(x, 0, color.NRGBA{uint8(x), uint8(x), uint8(x), 255})
	}
	h = newHistogram()
	h.add(ramp)
	pal = h.medianCut(16)
	if len(pal) != 16 {
		t.Fatalf("%d entries, want 16", len(pal))
	}
	lo, hi := 255, 0
	for _, c := range pal {
		g := int(c.(color.NRGBA).G)
		lo, hi = min(lo, g), max(hi, g)
	}
	if lo > 16 || hi < 239 {
		t.Errorf("ramp palette spans %d..%d", lo, hi)
	}
}

// TestRenderCommandParamAndExpression: --param and --expression change the
// pose that is drawn. The mesh's opacity follows P (1 at P = 0, 0 at P = 1),
// so the centre pixel's alpha over a transparent background is 255·(1 − P).
func TestRenderCommandParamAndExpression(t *testing.T) {
	m := squareModel(0, 1, 2, 0, 2, 3)
	m.Parts[0].Flags = p2lrt.PartVisible
	m.Meshes[0].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: &p2lrt.Grid[p2lrt.ChannelValue]{
		Axes:  []p2lrt.Axis{{Parameter: 0, Keys: []float32{0, 1}}},
		Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{1}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{0}}}}}}
	m.Expressions = []p2lrt.Expression{{ID: "Quarter", FadeIn: 0.5, FadeOut: 0.5,
		Entries: []p2lrt.ExpressionEntry{{Parameter: 0, Blend: p2lrt.ExpressionOverwrite, Value: 0.75}}}}
	in := writeTiny(t, m)
	alpha := func(args ...string) uint8 {
		t.Helper()
		out := filepath.Join(t.TempDir(), "a.png")
		code, _, stderr := runCmd(append([]string{"render", in, "-o", out, "--size", "10"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		img := readPNG(t, out)
		return color.NRGBAModel.Convert(img.At(5, 5)).(color.NRGBA).A
	}
	for _, c := range []struct {
		args []string
		want uint8
	}{
		{nil, 255},                      // P = 0
		{[]string{"--param", "P=1"}, 0}, // fully transparent
		{[]string{"--param", "P=0.5"}, 128},
		// The expression overwrites P with 0.75 once its fade-in is over.
		{[]string{"--expression", "Quarter"}, 64},
	} {
		if got := int(alpha(c.args...)); got < int(c.want)-1 || got > int(c.want)+1 {
			t.Errorf("%v: alpha %d, want %d", c.args, got, c.want)
		}
	}
	if code, _, stderr := runCmd("render", in, "-o", filepath.Join(t.TempDir(), "x.png"), "--expression", "Nope"); code != 2 || !strings.Contains(stderr, "Quarter") {
		t.Errorf("unknown expression: exit %d, stderr %q", code, stderr)
	}
}

// TestRenderCommandPhysicsSwitch: with --physics off the pendulums do not
// run, so a clip that moves a physics input draws the hair (physics
// outputs) at rest; with physics on it swings, and the frames differ.
func TestRenderCommandPhysicsSwitch(t *testing.T) {
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[int]bool{}
	for _, g := range m.Physics().Groups {
		for _, in := range g.Inputs {
			inputs[in.Parameter] = true
		}
	}
	clip := ""
	for _, c := range m.Clips().All() {
		for _, pc := range c.Curves {
			if inputs[pc.Parameter] && clip == "" {
				clip = c.ID
			}
		}
	}
	if clip == "" {
		t.Skip("the default character has no clip moving a physics input")
	}
	name := filepath.Join(t.TempDir(), "default.p2lrt")
	if err := os.WriteFile(name, assets.DefaultModelBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	render := func(physics string) []byte {
		out := filepath.Join(t.TempDir(), physics+".png")
		if code, _, stderr := runCmd("render", name, "-o", out, "--size", "96", "--clip", clip, "--time", "0.7", "--physics", physics); code != 0 {
			t.Fatalf("--physics %s: exit %d: %s", physics, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	on, off := render("on"), render("off")
	if bytes.Equal(on, off) {
		t.Errorf("clip %s at 0.7 s: --physics on and off drew the same image", clip)
	}
	if !bytes.Equal(off, render("off")) {
		t.Error("two renders with --physics off differ")
	}
}

// TestFlattenAlpha: GIF frames keep soft edges. Without a matte, a
// translucent area becomes a pattern whose density of opaque pixels is its
// alpha; with a matte, pixels are composited onto the matte colour.
func TestFlattenAlpha(t *testing.T) {
	for _, a := range []uint8{0, 1, 32, 64, 128, 192, 250, 255} {
		img := image.NewNRGBA(image.Rect(0, 0, 16, 16))
		for i := 0; i < len(img.Pix); i += 4 {
			copy(img.Pix[i:], []uint8{200, 10, 10, a})
		}
		flattenAlpha(img, nil)
		opaque := 0
		for i := 0; i < len(img.Pix); i += 4 {
			switch img.Pix[i+3] {
			case 255:
				opaque++
				if img.Pix[i] != 200 || img.Pix[i+1] != 10 {
					t.Fatalf("alpha %d: opaque pixel changed colour: %v", a, img.Pix[i:i+4])
				}
			case 0:
			default:
				t.Fatalf("alpha %d: pixel left translucent: %v", a, img.Pix[i:i+4])
			}
		}
		// Each 8×8 tile holds each threshold 4·k+2 (k = 0..63) once: the
		// opaque count per tile is the number of k with 4k+2 < a.
		want := 0
		for k := 0; k < 64; k++ {
			if int(a) > 4*k+2 {
				want++
			}
		}
		if a == 255 {
			want = 64
		}
		if opaque != 4*want {
			t.Errorf("alpha %d: %d of 256 pixels opaque, want %d", a, opaque, 4*want)
		}
		if a > 0 && a < 255 {
			// coverage within one step of the alpha
			if f := float64(opaque) / 256; math.Abs(f-float64(a)/255) > 1.0/64+0.01 {
				t.Errorf("alpha %d: coverage %.3f", a, f)
			}
		}
	}
	// Matte: red at alpha 128 over white is (255·128 + 255·127)/255 = 255
	// red, (10·128 + 255·127)/255 ≈ 132 green and blue, opaque.
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	copy(img.Pix, []uint8{255, 10, 10, 128})
	flattenAlpha(img, &color.NRGBA{255, 255, 255, 255})
	if got := [4]uint8(img.Pix); got != [4]uint8{255, 132, 132, 255} {
		t.Errorf("matte: %v, want [255 132 132 255]", got)
	}
}

// TestRenderPoseStep: a plain -o render (no clip) runs the pose step, so
// only the first entry of a POSE group is drawn.
func TestRenderPoseStep(t *testing.T) {
	m := squareModel(0, 1, 2)
	m.Parts[0].Flags = p2lrt.PartVisible
	// A second part holding nothing, as the group's shown entry; the
	// square's part is the hidden second entry.
	m.Parts = append(m.Parts, p2lrt.Part{ID: "Other", Flags: p2lrt.PartVisible, Composite: m.Parts[0].Composite})
	m.Pose = &p2lrt.Pose{Groups: []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: 1}, {Part: 0}}}}}
	in := writeTiny(t, m)
	out := filepath.Join(t.TempDir(), "out.png")
	if code, _, stderr := runCmd("render", in, "-o", out, "--size", "20"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := color.NRGBAModel.Convert(readPNG(t, out).At(10, 10)).(color.NRGBA); got.A != 0 {
		t.Errorf("centre pixel %v: the hidden pose entry was drawn", got)
	}
}

// TestRenderBehaviors: a render shows the host's pose alone unless
// --behaviors asks for more (then stepped to --time with the behavior seed
// fixed, so two renders agree); the default character breathes at 1 s.
func TestRenderBehaviors(t *testing.T) {
	name := filepath.Join(t.TempDir(), "default.p2lrt")
	if err := os.WriteFile(name, assets.DefaultModelBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	render := func(args ...string) []byte {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out.png")
		if code, _, stderr := runCmd(append([]string{"render", name, "-o", out, "--size", "64"}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	still := render()
	if !bytes.Equal(still, render("--behaviors", "none", "--time", "1")) {
		t.Error("--behaviors none at 1 s differs from the plain render (the host's pose)")
	}
	breath := render("--behaviors", "breath", "--time", "1")
	if bytes.Equal(still, breath) {
		t.Error("--behaviors breath at 1 s drew the host's pose")
	}
	if !bytes.Equal(breath, render("--behaviors", "breath", "--time", "1")) {
		t.Error("two renders with --behaviors breath differ")
	}
	if code, _, errs := runCmd("render", name, "-o", filepath.Join(t.TempDir(), "x.png"), "--behaviors", "sneeze"); code != 2 || !strings.Contains(errs, "--behaviors") {
		t.Errorf("--behaviors sneeze: exit %d %q, want 2 naming the flag", code, errs)
	}
}
