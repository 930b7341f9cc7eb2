package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// The viewer's window tests run the viewer in a child process (RunGame runs
// once per process): the test binary re-executes itself with the viewer's
// arguments in P2L_VIEWER_ARGS. They need a display: run them under
// xvfb-run.

func TestMain(m *testing.M) {
	if a := os.Getenv("P2L_VIEWER_ARGS"); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			panic(err)
		}
		os.Exit(exitCode(run(args), os.Stderr))
	}
	os.Exit(m.Run())
}

// runViewer runs the viewer with args in a child process and returns its
// combined output.
func runViewer(t *testing.T, args ...string) string {
	t.Helper()
	out, err := runViewerExit(args...)
	if err != nil {
		t.Fatalf("viewer %v: %v\n%s", args, err, out)
	}
	return out
}

// runViewerExit runs the viewer with args in a child process and returns
// its combined output and exit error.
func runViewerExit(args ...string) (string, error) {
	a, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "P2L_VIEWER_ARGS="+string(a), "NO_AUDIO=1")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// shot runs the viewer headless-style for a few frames and returns the
// screenshot.
func shot(t *testing.T, extra ...string) *image.RGBA {
	t.Helper()
	name := filepath.Join(t.TempDir(), "shot.png")
	args := append([]string{"-screenshot", name, "-frames", "30", "-noui", "-size", shotW0 + "x" + shotH0}, extra...)
	runViewer(t, args...)
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	rgba, ok := img.(*image.RGBA)
	if !ok {
		b := img.Bounds()
		rgba = image.NewRGBA(b)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				rgba.Set(x, y, img.At(x, y))
			}
		}
	}
	return rgba
}

const (
	shotW, shotH   = 640, 800
	shotW0, shotH0 = "640", "800"
)

// toScreen maps a canvas point of the default model to the screenshot, by
// the viewer's documented framing: the canvas is scaled by
// min(W/width, H/height) and centred in the window.
func toScreen(x, y float64) image.Point {
	const cw, ch = 1000.0, 1200.0
	s := math.Min(shotW/cw, shotH/ch)
	return image.Pt(int(shotW/2+(x-cw/2)*s), int(shotH/2+(y-ch/2)*s))
}

// region is a canvas rectangle mapped to the screenshot.
func region(x0, y0, x1, y1 float64) image.Rectangle {
	return image.Rectangle{toScreen(x0, y0), toScreen(x1, y1)}
}

// background is the viewer's default background color (0.92, 0.94, 0.97)
// times 255, truncated.
var background = [3]uint8{234, 239, 247}

func isBackground(img *image.RGBA, x, y int) bool {
	o := img.PixOffset(x, y)
	for c := 0; c < 3; c++ {
		d := int(img.Pix[o+c]) - int(background[c])
		if d < -2 || d > 2 {
			return false
		}
	}
	return true
}

func TestScreenshotDrawsCharacter(t *testing.T) {
	checkDefaultCharacter(t, shot(t, "-lookat", "0,0"))
}

// checkDefaultCharacter checks a -noui screenshot of the default character
// looking ahead: background corners, the head, blue irises, a skin cheek.
func checkDefaultCharacter(t *testing.T, img *image.RGBA) {
	t.Helper()
	if !isBackground(img, 2, 2) || !isBackground(img, shotW-3, 2) {
		t.Fatalf("corners are not the background color: %v", img.At(2, 2))
	}
	// The face: canvas x 380..620, y 300..560 lies inside the head.
	head := region(380, 300, 620, 560)
	n, bg := 0, 0
	for y := head.Min.Y; y < head.Max.Y; y++ {
		for x := head.Min.X; x < head.Max.X; x++ {
			n++
			if isBackground(img, x, y) {
				bg++
			}
		}
	}
	if bg > n/100 {
		t.Errorf("head region %v: %d of %d pixels are background", head, bg, n)
	}
	// Eyes: the irises are blue (b well above r), the face around them is
	// skin (r above b).
	for _, ex := range []float64{414, 586} {
		eye := region(ex-25, 405, ex+25, 455)
		blue := 0
		for y := eye.Min.Y; y < eye.Max.Y; y++ {
			for x := eye.Min.X; x < eye.Max.X; x++ {
				o := img.PixOffset(x, y)
				r, b := int(img.Pix[o]), int(img.Pix[o+2])
				if b > 120 && b > r+60 {
					blue++
				}
			}
		}
		if blue < eye.Dx()*eye.Dy()/8 {
			t.Errorf("eye at canvas x %v: only %d iris-blue pixels in %v", ex, blue, eye)
		}
	}
	cheek := toScreen(400, 520)
	o := img.PixOffset(cheek.X, cheek.Y)
	if r, b := img.Pix[o], img.Pix[o+2]; r < 200 || r <= b {
		t.Errorf("cheek pixel %v is not skin-colored", img.Pix[o:o+4])
	}
}

// TestBare: -bare draws the character alone; -noui still writes the
// stats line at the top left (x 10, y 8, 16 px a line).
func TestBare(t *testing.T) {
	text := image.Rect(10, 8, 310, 24)
	marked := func(img *image.RGBA) int {
		n := 0
		for y := text.Min.Y; y < text.Max.Y; y++ {
			for x := text.Min.X; x < text.Max.X; x++ {
				if !isBackground(img, x, y) {
					n++
				}
			}
		}
		return n
	}
	if n := marked(shot(t, "-lookat", "0,0")); n == 0 {
		t.Fatalf("-noui: no text in %v, the check below would prove nothing", text)
	}
	bare := shot(t, "-lookat", "0,0", "-bare")
	if n := marked(bare); n != 0 {
		t.Errorf("-bare: %d pixels of text in %v", n, text)
	}
	checkDefaultCharacter(t, bare)
}

func TestLookAtMovesHead(t *testing.T) {
	a := shot(t, "-lookat", "0,0")
	b := shot(t, "-lookat", "1,0")
	head := region(300, 150, 700, 600)
	diff := 0
	for y := head.Min.Y; y < head.Max.Y; y++ {
		for x := head.Min.X; x < head.Max.X; x++ {
			oa, ob := a.PixOffset(x, y), b.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				if d := int(a.Pix[oa+c]) - int(b.Pix[ob+c]); d > 24 || d < -24 {
					diff++
					break
				}
			}
		}
	}
	if total := head.Dx() * head.Dy(); diff < total/20 {
		t.Errorf("LookAt(1, 0) changed %d of %d head pixels; the head should turn", diff, total)
	}
	// Outside the character (top corners) nothing changes.
	if !isBackground(b, 2, 2) {
		t.Error("background changed")
	}
}

func TestBadFileShowsMessage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.p2lrt")
	if err := os.WriteFile(bad, []byte("P2LRT\x00\x00\x00garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "shot.png")
	// A screenshot of a file that does not load fails (it would show the
	// default character instead) and says why; the window mode shows the
	// default model and the reason (openModel below keeps the model).
	out, err := runViewerExit("-screenshot", name, "-frames", "2", "-noui", bad)
	if err == nil {
		t.Errorf("screenshot of a bad file exited 0:\n%s", out)
	}
	if !strings.Contains(out, "bad.p2lrt") || strings.Count(out, "viewer:") != 1 {
		t.Errorf("output %q does not name the file once", out)
	}
	if _, err := os.Stat(name); err == nil {
		t.Error("a screenshot was written for a file that did not load")
	}
	// -model names the model as the argument does (in a browser it is
	// the page's ?model=); one of the two, not both.
	if out, err := runViewerExit("-screenshot", name, "-frames", "2", "-noui", "-model", bad); err == nil || !strings.Contains(out, "bad.p2lrt") {
		t.Errorf("-model of a bad file: %v\n%s", err, out)
	}
	if out, err := runViewerExit("-model", bad, bad); err == nil || !strings.Contains(out, "one model file at most") {
		t.Errorf("-model and an argument: %v\n%s", err, out)
	}
	// -h prints the usage and exits 0.
	if out, err := runViewerExit("-h"); err != nil || !strings.Contains(out, "usage: viewer") {
		t.Errorf("-h: %v\n%s", err, out)
	}
	g := &game{}
	if err := g.openModel(bad, []byte("P2LRT\x00\x00\x00garbage"), nil); err == nil {
		t.Error("openModel accepted garbage")
	} else if g.model != nil {
		t.Error("a bad file replaced the model")
	}
	// A file from the command line is read within p2l's file bound: a
	// sparse file one byte over the bound is refused before it is read
	// (os.ReadFile read any size), by its name or in a folder given
	// instead (opened as a drop of its files is).
	huge := filepath.Join(dir, "huge.p2lrt")
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else if err := f.Truncate(p2lrt.DefaultMaxFileSize + 1); err != nil {
		f.Close()
		t.Skip(err)
	} else {
		f.Close()
	}
	for name, want := range map[string]string{dir: "huge.p2lrt: file of 536870913 bytes exceeds", huge: "exceeds the 536870912-byte limit"} {
		if err := g.openFile(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("openFile(%s) = %v, want %q", filepath.Base(name), err, want)
		} else if g.model != nil {
			t.Errorf("openFile(%s) replaced the model", filepath.Base(name))
		}
	}
}

// TestSpeakDroppedAudio: a dropped WAV speaks through the character's
// voice (silent with -noaudio, the mouth following the elapsed time); a bad
// one names the file. The lip-sync rule itself is tested in ebitenp2l.
// toneWAV is half a second of a loud 220 Hz tone, 16-bit mono WAV.
func toneWAV() []byte {
	var wav bytes.Buffer
	n := 44100 / 2
	wav.WriteString("RIFF")
	for _, f := range []any{uint32(36 + 2*n), [4]byte{'W', 'A', 'V', 'E'}, [4]byte{'f', 'm', 't', ' '}, uint32(16), uint16(1), uint16(1), uint32(44100), uint32(88200), uint16(2), uint16(16), [4]byte{'d', 'a', 't', 'a'}, uint32(2 * n)} {
		binary.Write(&wav, binary.LittleEndian, f)
	}
	for i := 0; i < n; i++ {
		binary.Write(&wav, binary.LittleEndian, int16(12000*math.Sin(2*math.Pi*220*float64(i)/44100)))
	}
	return wav.Bytes()
}

func TestSpeakDroppedAudio(t *testing.T) {
	g, err := newGame(options{noUI: true, noAudio: true, frames: 1})
	if err != nil {
		t.Fatal(err)
	}
	g.openDropped(fstest.MapFS{"hello.wav": {Data: toneWAV()}})
	if g.voice == nil || g.message != "lip sync: hello.wav" {
		t.Fatalf("dropping a WAV: voice %v, message %q", g.voice, g.message)
	}
	if silent, _ := g.voice.Silent(); !silent {
		t.Error("-noaudio voice is not silent")
	}
	mouth := g.model.ParameterIndex("ParamMouthOpenY")
	open := float32(0)
	for range 20 {
		g.char.UpdateStages(1.0/60, p2l.AllStages) // what Update does per frame
		open = max(open, g.rig.ParameterCurrent(mouth))
	}
	if open < 0.5 {
		t.Errorf("mouth opened to %v at most while the tone played", open)
	}
	g.openDropped(fstest.MapFS{"bad.mp3": {Data: []byte("not audio")}})
	if !strings.Contains(g.message, "bad.mp3") {
		t.Errorf("bad audio: message %q", g.message)
	}
}

func TestPanelFromPGUI(t *testing.T) {
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	p := newPanel(m)
	// ParamCheek is not in the default model's tree: it is listed last.
	if len(p.missing) != 1 || m.Parameters().At(p.missing[0]).ID != "ParamCheek" {
		t.Errorf("missing = %v", p.missing)
	}
	form := m.ParameterIndex("ParamMouthForm")
	// Snap keys −1, 0, 1 over a range of 2: within 0.08 snaps.
	if got := p.snap(m, form, 0.05); got != 0 {
		t.Errorf("snap(0.05) = %v, want 0", got)
	}
	if got := p.snap(m, form, 0.5); got != 0.5 {
		t.Errorf("snap(0.5) = %v, want 0.5", got)
	}
	if p.joyOf[m.ParameterIndex("ParamAngleX")] != m.ParameterIndex("ParamAngleY") {
		t.Error("AngleX/AngleY joystick missing")
	}
	// The default character carries BONE without arcs: exact links are
	// unavailable, and the panel says why.
	if m.AdvancedAvailable()&p2lrt.FeatureExactLinks != 0 {
		t.Error("default character offers exact links; the reason below is untested")
	}
	if r := unavailableReason(m, p2lrt.FeatureExactLinks); r != "the BONE chunk has no arcs" {
		t.Errorf("exact-links reason = %q", r)
	}
	f := m.File()
	f.Skins = nil
	noSkin, err := p2l.NewModel(f)
	if err != nil {
		t.Fatal(err)
	}
	if r := unavailableReason(noSkin, p2lrt.FeatureSkin); r != "the file has no SKIN chunk" {
		t.Errorf("skin reason = %q", r)
	}
	gs := clipGroups(m)
	if len(gs) != 4 || gs[0].name != "Idle" {
		t.Errorf("clip groups = %+v", gs)
	}
}

// TestClickHitArea clicks the head and the body through the viewer's input
// path (screen → canvas through the last Draw's transform, here the
// identity) and checks the hit name and the reaction clip.
func TestClickHitArea(t *testing.T) {
	g, err := newGame(options{noUI: true, noAudio: true, frames: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := g.model
	for _, c := range []struct {
		x, y  float64
		name  string
		group string
	}{{500, 420, "Head", "TapHead"}, {560, 1100, "Body", "TapBody"}} {
		g.click(c.x, c.y)
		if g.hitName != c.name {
			t.Errorf("click at (%v, %v): hit %q, want %q", c.x, c.y, g.hitName, c.name)
		}
		if p := g.rig.Layer(0).Clip(); p < 0 || m.Clips().At(p).Group != c.group {
			t.Errorf("click on %s: playing clip %d, want one of group %s", c.name, p, c.group)
		}
	}
	g.hitName = ""
	g.click(30, 30) // empty canvas corner
	if g.hitName != "" {
		t.Errorf("click on the background hit %q", g.hitName)
	}
}

// TestDropFiles drops files on the viewer through the path ebiten's
// DroppedFiles feeds: a model opens with its external page found beside it
// in the drop; a bad model keeps the current one and names the file.
func TestDropFiles(t *testing.T) {
	g, err := newGame(options{noUI: true, noAudio: true, frames: 1})
	if err != nil {
		t.Fatal(err)
	}
	features, err := os.ReadFile("../testdata/conformance/features.p2lrt")
	if err != nil {
		t.Fatal(err)
	}
	ext, err := os.ReadFile("../testdata/conformance/features-ext.png")
	if err != nil {
		t.Fatal(err)
	}
	want, err := p2l.Load(features)
	if err != nil {
		t.Fatal(err)
	}
	// The model sorts before its page ("a" < "features-ext"), as with any
	// page named after its model: the page is not tried as a model.
	g.openDropped(fstest.MapFS{
		"drop/a.p2lrt":          {Data: features},
		"drop/features-ext.png": {Data: ext},
	})
	// features.p2lrt has a compressed KTX2 page the viewer cannot decode:
	// setModel's note on it is the only message.
	if !strings.HasPrefix(g.message, "unavailable texture pages") || strings.Contains(g.message, "features-ext.png") {
		t.Fatalf("dropping a.p2lrt + features-ext.png: message %q", g.message)
	}
	if g.name != "a.p2lrt" || g.model.Meshes().Len() != want.Meshes().Len() || g.model.Meshes().At(0).ID != want.Meshes().At(0).ID {
		t.Fatalf("the dropped model is not the one shown (%s)", g.name)
	}
	for i, tp := range g.model.Textures().All() {
		if tp.Kind == p2lrt.TextureExternal {
			if err := g.char.TextureInfo(i); err != nil {
				t.Errorf("external page %d beside the dropped model: %v", i, err)
			}
		}
	}
	opened := g.model
	g.openDropped(fstest.MapFS{"bad.p2lrt": {Data: []byte("P2LRT\x00\x00\x00garbage")}})
	if g.model != opened {
		t.Error("a dropped bad file replaced the model")
	}
	if !strings.Contains(g.message, "bad.p2lrt") {
		t.Errorf("message after a bad drop = %q, want it to name the file", g.message)
	}

	// A bad candidate beside a good model: the good one opens, no message.
	g.openDropped(fstest.MapFS{
		"a-broken.p2lrt":   {Data: []byte("P2LRT\x00\x00\x00garbage")},
		"features.p2lrt":   {Data: features},
		"features-ext.png": {Data: ext},
	})
	if g.name != "features.p2lrt" || !strings.HasPrefix(g.message, "unavailable texture pages") {
		t.Errorf("broken + good model: shows %s, message %q", g.name, g.message)
	}

	// A page alone opens nothing and says so.
	g.openDropped(fstest.MapFS{"features-ext.png": {Data: ext}})
	if g.name != "features.p2lrt" || !strings.Contains(g.message, "texture page") {
		t.Errorf("a page alone: shows %s, message %q", g.name, g.message)
	}

	// A voice dropped with a model speaks through the new character, even
	// when its name sorts first.
	g.openDropped(fstest.MapFS{"a.wav": {Data: toneWAV()}, "groups.p2lrt": {Data: readFile(t, "../testdata/conformance/groups.p2lrt")}})
	if g.name != "groups.p2lrt" || g.voice == nil || g.message != "lip sync: a.wav" {
		t.Errorf("voice + model: shows %s, voice %v, message %q", g.name, g.voice, g.message)
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSortDrop sorts drops by file names and first bytes.
func TestSortDrop(t *testing.T) {
	pngHead := []byte("\x89PNG\r\n\x1a\n....")
	ktxHead := []byte("\xabKTX 20\xbb\r\n\x1a\n....")
	for _, c := range []struct {
		files                      fstest.MapFS
		models, audio, page, parts []string
	}{
		{fstest.MapFS{"a.p2lrt": {}, "b.png": {Data: pngHead}}, []string{"a.p2lrt"}, nil, []string{"b.png"}, nil},
		{fstest.MapFS{"features.p2lrt": {}, "features-ext.png": {Data: pngHead}}, []string{"features.p2lrt"}, nil, []string{"features-ext.png"}, nil},
		// Pages are known by their signature whatever their name; models
		// with the .p2lrt extension are tried first, then the others.
		{fstest.MapFS{"model.bin": {}, "tex.dat": {Data: pngHead}, "z.P2LRT": {}, "voice.MP3": {}, "page.ktx2": {Data: ktxHead}},
			[]string{"z.P2LRT", "model.bin"}, []string{"voice.MP3"}, []string{"page.ktx2", "tex.dat"}, nil},
		// A .png that is no PNG is neither page nor skipped: it is tried.
		{fstest.MapFS{"fake.png": {Data: []byte("P2LRT")}}, []string{"fake.png"}, nil, nil, nil},
		{fstest.MapFS{"d/sub/m.p2lrt": {}, "d/sub/m.png": {Data: pngHead}, "d/x.oga": {}, "d/y.wav": {}},
			[]string{"d/sub/m.p2lrt"}, []string{"d/x.oga", "d/y.wav"}, []string{"d/sub/m.png"}, nil},
		// Cubism: model3.json files after .p2lrt files, then zips, then
		// the rest; the files a model3.json names are not candidates.
		{fstest.MapFS{"a.zip": {}, "b/B.model3.json": {}, "b/B.moc3": {}, "b/m/x.Motion3.json": {}, "b/B.cdi3.json": {},
			"b/B.physics3.json": {}, "b/B.pose3.json": {}, "b/B.userdata3.json": {}, "b/e.exp3.json": {}, "c.p2lrt": {}, "d.json": {}},
			[]string{"c.p2lrt", "b/B.model3.json", "a.zip", "d.json"}, nil, nil,
			[]string{"b/B.cdi3.json", "b/B.moc3", "b/B.physics3.json", "b/B.pose3.json", "b/B.userdata3.json", "b/e.exp3.json", "b/m/x.Motion3.json"}},
		// A folder zipped on macOS: its __MACOSX folder and "._NAME"
		// AppleDouble files are nothing of the drop.
		{fstest.MapFS{"h/H.model3.json": {}, "h/._H.model3.json": {}, "h/._t.png": {Data: pngHead}, "__MACOSX/h/._H.model3.json": {},
			"__MACOSX/h/._v.wav": {}, "h/H.moc3": {}},
			[]string{"h/H.model3.json"}, nil, nil, []string{"h/H.moc3"}},
	} {
		d := sortDrop(c.files)
		if !slices.Equal(d.models, c.models) || !slices.Equal(d.audio, c.audio) || !slices.Equal(d.pages, c.page) || !slices.Equal(d.parts, c.parts) {
			t.Errorf("sortDrop(%v) = models %q audio %q pages %q parts %q, want %q %q %q %q", slices.Sorted(maps.Keys(c.files)), d.models, d.audio, d.pages, d.parts, c.models, c.audio, c.page, c.parts)
		}
	}
	// Base names: unique ones map to their path, repeated ones to "".
	d := sortDrop(fstest.MapFS{"a/x.png": {}, "b/x.png": {}, "a/y.json": {}})
	if d.byBase["y.json"] != "a/y.json" || d.byBase["x.png"] != "" || len(d.byBase) != 2 {
		t.Errorf("byBase = %q", d.byBase)
	}
	// A drop of more than maxDropFiles files is sorted up to there.
	big := fstest.MapFS{}
	for i := range maxDropFiles + 1 {
		big[fmt.Sprintf("f%05d.bin", i)] = &fstest.MapFile{}
	}
	if d := sortDrop(big); !d.truncated || len(d.models) != maxDropFiles {
		t.Errorf("%d files: truncated %v after %d", len(big), d.truncated, len(d.models))
	}
}

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		s    string
		cols int
		want []string
	}{
		{"short", 20, []string{"short"}},
		{"texture format not supported", 20, []string{"texture format not", "supported"}},
		{"abcdefghijklmnopqrstuvwxyz", 10, []string{"abcdefghij", "klmnopqrst", "uvwxyz"}},
		{"ab cdefghijklmno", 10, []string{"ab cdefghi", "jklmno"}}, // the space is too early
		{"héllo wörld ünïcode", 12, []string{"héllo wörld", "ünïcode"}},
		// CJK characters are two columns wide: 5 to a line of 10. Below,
		// the columns end at 2, 4, 5 (space), 6, 7 (space), 9; 目 would
		// end at 11: the line is cut at the last space after column 5,
		// the one after X.
		{"日本語のテキスト", 10, []string{"日本語のテ", "キスト"}},
		{"角度 X 左目 開閉", 10, []string{"角度 X", "左目 開閉"}},
	} {
		if got := wrap(c.s, c.cols); !slices.Equal(got, c.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.s, c.cols, got, c.want)
		}
	}
}

// TestMascotMode runs the viewer with -mascot and -screenshot: the window
// state it prints (Ebitengine's getters) is undecorated, floating and
// -size's height tall, and the saved window pixels are transparent in the
// corners and opaque in the middle (her chest), for the default character
// and for a model file.
func TestMascotMode(t *testing.T) {
	for _, args := range [][]string{nil, {"../assets/default.p2lrt"}} {
		out := filepath.Join(t.TempDir(), "mascot.png")
		a := append([]string{"-mascot", "-screenshot", out, "-frames", "20", "-size", "400x300"}, args...)
		log := runViewer(t, a...)
		if !strings.Contains(log, "mascot window: decorated=false floating=true") {
			t.Errorf("%v: window state not undecorated, floating:\n%s", args, log)
		}
		if !strings.Contains(log, "x300") {
			t.Errorf("%v: window not 300 tall (-size):\n%s", args, log)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		if b.Dy() != 300 {
			t.Errorf("%v: screenshot %v, want 300 tall", args, b)
		}
		if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
			t.Errorf("%v: corner alpha %d, want transparent", args, a)
		}
		if _, _, _, a := img.At(b.Dx()/2, b.Dy()/2).RGBA(); a != 0xffff {
			t.Errorf("%v: middle alpha %d, want opaque", args, a)
		}
	}
}
