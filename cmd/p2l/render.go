package main

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/render"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// Bounds of render (docs/LIMITS.md): the number of updates one image may
// need (stepping to --time, or through an expression's fade-in), the frames
// of --gif and --frames, and the memory --gif holds (every frame as 8-bit
// RGBA until the palette is chosen).
const (
	maxRenderSteps  = 100_000
	maxRenderFrames = 100_000
	maxGIFBytes     = 1 << 30
	maxRenderSize   = 8192
)

func init() {
	register(&command{
		name: "render",
		usage: "FILE -o out.png [--size 1024] [--param Id=value ...] [--clip NAME [--time T]] [--expression NAME] [--background RRGGBBAA] [--behaviors LIST [--seed S]]\n" +
			"      | FILE --clip NAME (--gif out.gif [--dither] [--matte RRGGBB] | --frames DIR) [--fps 30] [--physics on|off]",
		summary: "render a pose, a clip frame, a GIF or a frame sequence with the CPU reference renderer",
		run:     runRender,
	})
}

// paramFlags collects repeated --param Id=value flags.
type paramFlags []string

func (p *paramFlags) String() string     { return strings.Join(*p, ",") }
func (p *paramFlags) Set(v string) error { *p = append(*p, v); return nil }

type renderArgs struct {
	out, gifOut, framesDir string
	dir                    string // the model file's directory
	size                   int
	params                 paramFlags
	clip, expression       string
	time                   float64
	background             color.RGBA
	fps                    float64
	physics                bool
	dither                 bool
	matte                  *color.NRGBA // --matte: GIF edge pixels blend onto it
	behaviors              p2l.Behavior
	seed                   uint64
}

func runRender(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	var a renderArgs
	var bg, physics, matte, behaviors string
	fs.StringVar(&a.out, "o", "", "output PNG file")
	fs.StringVar(&a.gifOut, "gif", "", "render the whole --clip into this animated GIF")
	fs.StringVar(&a.framesDir, "frames", "", "render the whole --clip as numbered PNG files into this directory")
	fs.IntVar(&a.size, "size", 1024, "longer side of the image in pixels")
	fs.Var(&a.params, "param", "set a parameter, Id=value (repeatable)")
	fs.StringVar(&a.clip, "clip", "", "clip id or name")
	fs.Float64Var(&a.time, "time", 0, "time in the clip or of the behaviors, seconds (with -o)")
	fs.StringVar(&a.expression, "expression", "", "expression id or name")
	fs.StringVar(&bg, "background", "00000000", "background colour RRGGBBAA (straight alpha)")
	fs.Float64Var(&a.fps, "fps", 30, "frames per second for --gif, --frames and for stepping to --time")
	fs.StringVar(&physics, "physics", "on", "physics while playing a clip: on or off")
	fs.BoolVar(&a.dither, "dither", false, "Floyd–Steinberg dithering for --gif")
	fs.StringVar(&behaviors, "behaviors", "none", behaviorsUsage+"; default none here: the host's pose alone")
	fs.Uint64Var(&a.seed, "seed", 1, "behavior seed (SetBehaviorSeed; the blink timeline)")
	fs.StringVar(&matte, "matte", "", "--gif: blend translucent pixels onto this colour RRGGBB (default: keep them as an ordered-dither pattern over transparency)")
	pos, code := parseArgs(fs, commands["render"], args, 1, stdout, stderr)
	if code >= 0 {
		return code
	}
	fail := func(format string, v ...any) int {
		fmt.Fprintf(stderr, "p2l render: "+format+"\n", v...)
		return 2
	}
	var err error
	if a.background, err = parseBackground(bg); err != nil {
		return fail("%v", err)
	}
	if matte != "" {
		if m, err := parseBackground(matte); err != nil || len(strings.TrimPrefix(matte, "#")) != 6 {
			return fail("--matte %q is not RRGGBB hex", matte)
		} else {
			a.matte = &color.NRGBA{m.R, m.G, m.B, 255}
		}
	}
	if a.behaviors, err = parseBehaviors(behaviors); err != nil {
		return fail("%v", err)
	}
	switch physics {
	case "on":
		a.physics = true
	case "off":
	default:
		return fail("--physics must be on or off, not %q", physics)
	}
	outputs := 0
	for _, o := range []string{a.out, a.gifOut, a.framesDir} {
		if o != "" {
			outputs++
		}
	}
	if outputs != 1 {
		return fail("give exactly one of -o, --gif, --frames")
	}
	if (a.gifOut != "" || a.framesDir != "") && a.clip == "" {
		return fail("--gif and --frames need --clip")
	}
	if a.size < 1 || a.size > maxRenderSize {
		return fail("--size %d is out of range 1..%d", a.size, maxRenderSize)
	}
	if !(a.fps > 0 && a.fps <= 240) {
		return fail("--fps %g is out of range (0, 240]", a.fps)
	}
	if !(a.time >= 0) || math.IsInf(a.time, 0) {
		return fail("--time %g must be a time ≥ 0", a.time)
	}
	a.dir = filepath.Dir(pos[0])
	src, err := openModel(pos[0], "p2l render", stderr)
	if err != nil {
		printError(stderr, "p2l render", err)
		return 1
	}
	m := src.model
	if code := renderModel(m, &a, stdout, stderr); code != 0 {
		return code
	}
	return 0
}

func parseBackground(s string) (color.RGBA, error) {
	s = strings.TrimPrefix(s, "#")
	if len(s) == 6 {
		s += "ff"
	}
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 4 {
		return color.RGBA{}, fmt.Errorf("--background %q is not RRGGBBAA hex", s)
	}
	// Straight on the command line, premultiplied for the renderer.
	return color.RGBAModel.Convert(color.NRGBA{b[0], b[1], b[2], b[3]}).(color.RGBA), nil
}

func renderModel(m *p2l.Model, a *renderArgs, stdout, stderr io.Writer) int {
	rig := m.NewRig()
	for _, p := range a.params {
		id, val, ok := strings.Cut(p, "=")
		v, err := strconv.ParseFloat(val, 32)
		if !ok || err != nil {
			fmt.Fprintf(stderr, "p2l render: --param %q is not Id=value\n", p)
			return 2
		}
		i := m.ParameterIndex(id)
		if i < 0 {
			fmt.Fprintf(stderr, "p2l render: the model has no parameter %q\n", id)
			return 2
		}
		rig.SetParameter(i, float32(v))
	}
	clip := -1
	if a.clip != "" {
		clip = m.ClipIndex(a.clip) // id or name, p2l's lookup rule
		if clip < 0 {
			fmt.Fprintf(stderr, "p2l render: no clip %q; the model's clips are:\n", a.clip)
			if m.Clips().Len() == 0 {
				fmt.Fprintln(stderr, "  (none)")
			}
			for _, c := range m.Clips().All() {
				fmt.Fprintf(stderr, "  %s", c.ID)
				if c.Name != "" && c.Name != c.ID {
					fmt.Fprintf(stderr, " (%s)", c.Name)
				}
				fmt.Fprintf(stderr, " %.2fs", c.Duration)
				if c.Loop {
					fmt.Fprint(stderr, " loop")
				}
				fmt.Fprintln(stderr)
			}
			return 2
		}
	}
	expr := -1
	if a.expression != "" {
		expr = m.ExpressionIndex(a.expression)
		if expr < 0 {
			fmt.Fprintf(stderr, "p2l render: no expression %q; the model's expressions are:", a.expression)
			for _, e := range m.Expressions().All() {
				fmt.Fprintf(stderr, " %s", e.ID)
			}
			fmt.Fprintln(stderr)
			return 2
		}
	}
	stages := p2l.AllStages
	if !a.physics {
		stages &^= p2l.StagePhysics
	}
	// Behaviours only when asked for (--behaviors): a render shows the
	// host's pose, clip and expression alone by default. With a fixed seed
	// they are reproducible too.
	rig.SetBehaviors(a.behaviors)
	rig.SetBehaviorSeed(a.seed)
	w, h := imageSize(m.Canvas(), a.size)
	// External texture pages are relative to the model file (the
	// model3.json's folder for a bundle: its Dir).
	files := m.Dir()
	if files == nil {
		files = os.DirFS(a.dir)
	}
	r := &render.Renderer{TextureOptions: texture.Options{FS: files}}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	opts := &render.Options{Background: a.background}
	dt := 1 / a.fps

	if a.out != "" {
		switch {
		case clip >= 0 || expr >= 0 || a.behaviors != 0:
			if expr >= 0 {
				rig.Expressions().Set(expr)
			}
			if clip >= 0 {
				rig.Layer(0).Start(clip)
			}
			rig.UpdateStages(0, stages)
			t := a.time
			what := fmt.Sprintf("--time %g", t)
			if clip < 0 && expr >= 0 {
				// An expression alone: play its fade-in to the end.
				t = float64(max(m.Expressions().At(expr).FadeIn, 0)) + 1
				what = fmt.Sprintf("expression %q fades in over %g s, which", m.Expressions().At(expr).ID, m.Expressions().At(expr).FadeIn)
			}
			if steps := t * a.fps; steps > maxRenderSteps {
				fmt.Fprintf(stderr, "p2l render: %s needs %.4g updates at %g fps, more than %d (lower --time or --fps)\n", what, steps, a.fps, maxRenderSteps)
				return 2
			}
			for n := int(t * a.fps); n > 0; n-- {
				rig.UpdateStages(dt, stages)
			}
			if rest := t - float64(int(t*a.fps))/a.fps; rest > 1e-6 {
				rig.UpdateStages(rest, stages)
			}
		default:
			// No time passes, but the pose step runs, so a POSE group
			// shows its first entry only (Evaluate alone would draw every
			// entry).
			rig.UpdateStages(0, stages)
		}
		if err := r.Render(rig, img, opts); err != nil {
			printError(stderr, "p2l render", err)
			return 1
		}
		reportPages(r, stderr)
		if err := writePNG(a.out, img); err != nil {
			printError(stderr, "p2l render", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s (%d×%d)\n", a.out, w, h)
		return 0
	}

	// A whole clip: frame k at time k/fps; a looping clip renders one cycle.
	c := m.Clips().At(clip)
	if f := math.Floor(float64(c.Duration)*a.fps) + 1; !(f <= maxRenderFrames) {
		fmt.Fprintf(stderr, "p2l render: clip %q lasts %g s: %.4g frames at %g fps, more than %d (lower --fps)\n", c.ID, c.Duration, f, a.fps, maxRenderFrames)
		return 2
	}
	n := int(math.Floor(float64(c.Duration)*a.fps)) + 1
	if c.Loop && n > 1 && math.Abs(float64(n-1)/a.fps-float64(c.Duration)) < 1e-6 {
		n-- // the last frame would repeat the first
	}
	n = max(n, 1)
	if expr >= 0 {
		rig.Expressions().Set(expr)
	}
	rig.Layer(0).Start(clip)
	var frames []*image.NRGBA
	var hist *histogram
	if a.gifOut != "" {
		if b := int64(n) * int64(w) * int64(h) * 4; b > maxGIFBytes {
			fmt.Fprintf(stderr, "p2l render: a GIF of %d frames of %d×%d holds %d MiB while its palette is chosen, more than %d MiB (lower --size or --fps, or use --frames DIR)\n",
				n, w, h, b>>20, maxGIFBytes>>20)
			return 2
		}
		hist = newHistogram()
	} else if err := os.MkdirAll(a.framesDir, 0o755); err != nil {
		printError(stderr, "p2l render", err)
		return 1
	}
	for k := 0; k < n; k++ {
		if k == 0 {
			rig.UpdateStages(0, stages)
		} else {
			rig.UpdateStages(dt, stages)
		}
		if err := r.Render(rig, img, opts); err != nil {
			printError(stderr, "p2l render", err)
			return 1
		}
		if k == 0 {
			reportPages(r, stderr)
		}
		if hist != nil {
			flattenAlpha(img, a.matte)
			hist.add(img)
			frames = append(frames, image.NewNRGBA(img.Rect))
			copy(frames[k].Pix, img.Pix)
		} else {
			name := filepath.Join(a.framesDir, fmt.Sprintf("frame_%04d.png", k))
			if err := writePNG(name, img); err != nil {
				printError(stderr, "p2l render", err)
				return 1
			}
		}
		fmt.Fprintf(stderr, "\rframe %d/%d", k+1, n)
	}
	fmt.Fprintln(stderr)
	if hist == nil {
		fmt.Fprintf(stdout, "wrote %d frames to %s (%d×%d, %g fps)\n", n, a.framesDir, w, h, a.fps)
		return 0
	}
	if err := writeGIF(a.gifOut, frames, hist, a.fps, a.dither); err != nil {
		printError(stderr, "p2l render", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%d frames, %d×%d)\n", a.gifOut, n, w, h)
	return 0
}

// imageSize scales the canvas so that its longer side is size pixels.
func imageSize(c p2lrt.Canvas, size int) (int, int) {
	cw, ch := float64(c.Width), float64(c.Height)
	if !(cw > 0) || !(ch > 0) {
		return size, size
	}
	s := float64(size) / math.Max(cw, ch)
	return max(1, int(math.Round(cw*s))), max(1, int(math.Round(ch*s)))
}

func reportPages(r *render.Renderer, stderr io.Writer) {
	for _, in := range r.TextureInfo() {
		if in.Err != nil {
			fmt.Fprintf(stderr, "p2l render: warning: %v (meshes on it are not drawn)\n", in.Err)
		}
	}
}

func writePNG(name string, img image.Image) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeGIF writes the frames with one shared palette: index 0 transparent,
// up to 255 median-cut colours from every frame.
func writeGIF(name string, frames []*image.NRGBA, hist *histogram, fps float64, dither bool) error {
	pal := color.Palette{color.NRGBA{}}
	pal = append(pal, hist.medianCut(255)...)
	if len(pal) == 1 {
		pal = append(pal, color.NRGBA{0, 0, 0, 255})
	}
	mp := newMapper(pal)
	g := &gif.GIF{LoopCount: 0}
	// GIF delays are in hundredths of a second: accumulate the rounding so
	// the clip keeps its length.
	var shown float64
	for k, f := range frames {
		next := math.Round(float64(k+1) * 100 / fps)
		g.Image = append(g.Image, mp.paletted(f, dither))
		g.Delay = append(g.Delay, int(next-shown))
		g.Disposal = append(g.Disposal, gif.DisposalBackground)
		shown = next
	}
	if len(frames) == 0 {
		return errors.New("no frames")
	}
	out, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := gif.EncodeAll(out, g); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
