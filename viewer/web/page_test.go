package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

var shots = flag.String("shots", "", "directory to save the browser tests' screenshots to")

// The page is shotW×shotH CSS pixels at device scale 1; with ?noui the
// viewer fits the default character's 1000×1200 canvas into it, scaled by
// min(W/1000, H/1200) = 0.64 and centred (viewer/game.go, geoM).
const shotW, shotH = 640, 800

// toScreen maps a point of the default character's canvas to the page.
func toScreen(x, y float64) (float64, float64) {
	const cw, ch = 1000.0, 1200.0
	s := math.Min(shotW/cw, shotH/ch)
	return shotW/2 + (x-cw/2)*s, shotH/2 + (y-ch/2)*s
}

// viewerState is window.p2lViewer (viewer/state_js.go).
type viewerState struct {
	Model    string  `json:"model"`
	Clip     string  `json:"clip"`
	Hit      string  `json:"hit"`
	Message  string  `json:"message"`
	Speaking bool    `json:"speaking"`
	Voice    float64 `json:"voice"`
	Mouth    float64 `json:"mouth"`
	Frames   int     `json:"frames"`
}

// TestViewerInBrowser builds the viewer as make web does, serves it as
// make serve-web does and uses it in Chromium as a person would: the
// default character is drawn, follows the pointer, reacts to a click and
// to a finger's tap on a hit area, and speaks a dropped voice through Web
// Audio once the first click started the audio; files open from the
// page's file picker and by a drop on the canvas, and each conformance
// model's screenshot is compared with the CPU renderer. It logs the
// page's frame times.
func TestViewerInBrowser(t *testing.T) {
	chromium(t) // skip before building
	dir := t.TempDir()
	start := time.Now()
	if err := build(dir); err != nil {
		t.Fatal(err)
	}
	wasm, _ := os.Stat(filepath.Join(dir, "viewer.wasm"))
	gz, _ := os.Stat(filepath.Join(dir, "viewer.wasm.gz"))
	t.Logf("build: %v; viewer.wasm %d bytes, gzip %d bytes", time.Since(start).Round(time.Second), wasm.Size(), gz.Size())
	srv := httptest.NewServer(handler(http.Dir(dir)))
	t.Cleanup(srv.Close)

	ctx := newTab(t, shotW, shotH, 5*time.Minute)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(shotW, shotH), chromedp.Navigate(srv.URL+"/?noui")); err != nil {
		t.Fatal(err)
	}
	st := waitFrames(t, ctx, 30, time.Minute)
	t.Logf("loaded: %+v", st)
	if st.Model != "default character" {
		t.Fatalf("the page shows %q, want the default character", st.Model)
	}

	// Drawn: the character over the background.
	img := screenshot(t, ctx, "default")
	checkCharacter(t, img)

	// Follows the pointer: the irises move towards it.
	left := irisesAt(t, ctx, 0, shotH*0.35, "pointer-left")
	right := irisesAt(t, ctx, shotW-1, shotH*0.35, "pointer-right")
	t.Logf("iris centre x: pointer left %.1f, pointer right %.1f; %+v", left, right, waitFrames(t, ctx, 1, time.Minute))
	if right-left < 4 {
		t.Errorf("the irises moved %.1f px when the pointer went from left to right; want at least 4", right-left)
	}

	// The page says the bundled line (-speak), but waits for the first
	// gesture, when the browser lets audio start.
	if st := waitFrames(t, ctx, 1, time.Minute); !st.Speaking || st.Voice != 0 {
		t.Errorf("before any click the voice should wait at 0 s: speaking %v at %.2f s", st.Speaking, st.Voice)
	}

	// A click on the head: hit area Head, a clip of group TapHead. The
	// click is the page's first gesture: the audio starts and so does the
	// line, through Web Audio; the play head advances, the mouth follows.
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	hx, hy := toScreen(500, 420)
	click(t, ctx, hx, hy)
	st = poll(t, ctx, "p2lViewer.hit !== ''", 20*time.Second)
	if st.Hit != "Head" {
		t.Errorf("tap on the head hit %q", st.Hit)
	}
	if c := m.ClipIndex(st.Clip); c < 0 || m.Clips().At(c).Group != "TapHead" {
		t.Errorf("tap on the head plays clip %q, want one of group TapHead", st.Clip)
	}
	checkSpeech(t, ctx, "the bundled line after the first click")

	// A voice dropped on the page speaks too.
	speech, err := filepath.Abs(filepath.Join(repoRoot, "assets", "speech.ogg"))
	if err != nil {
		t.Fatal(err)
	}
	dropFiles(t, ctx, []string{speech})
	poll(t, ctx, "p2lViewer.message === 'lip sync: speech.ogg'", time.Minute)
	checkSpeech(t, ctx, "a dropped voice")

	// A finger's tap on the body: hit area Body, a clip of group TapBody.
	bx, by := toScreen(560, 1000)
	touch(t, ctx, bx, by)
	st = poll(t, ctx, "p2lViewer.hit === 'Body'", 20*time.Second)
	if c := m.ClipIndex(st.Clip); c < 0 || m.Clips().At(c).Group != "TapBody" {
		t.Errorf("a touch on the body plays clip %q, want one of group TapBody", st.Clip)
	}

	logFrameTimes(t, ctx)

	// Files from the page's picker (a model with its external page) and
	// from a drop on the canvas (ebiten.DroppedFiles): the conformance
	// models, each compared with the CPU renderer.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.getElementById("p2l-bar").style.visibility = "hidden") && true`)); err != nil {
		t.Fatal(err)
	}
	conf, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	// The features model is picked as a.p2lrt, a name that sorts before
	// its page's: the page must not be tried as a model (a "cannot open
	// features-ext.png" message).
	picked := t.TempDir()
	for from, to := range map[string]string{"features.p2lrt": "a.p2lrt", "features-ext.png": "features-ext.png"} {
		b, err := os.ReadFile(filepath.Join(conf, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(picked, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		dir   string
		files []string
		drop  bool
		scale int
	}{
		{picked, []string{"a.p2lrt", "features-ext.png"}, false, 4},
		{conf, []string{"groups.p2lrt"}, true, 3},
		{conf, []string{"blend-matrix.p2lrt"}, false, 2},
	} {
		var paths []string
		for _, f := range c.files {
			paths = append(paths, filepath.Join(c.dir, f))
		}
		if c.drop {
			dropFiles(t, ctx, paths)
		} else if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("p2l-open"), paths)); err != nil {
			t.Fatal(err)
		}
		st := poll(t, ctx, fmt.Sprintf("p2lViewer.model === %q", c.files[0]), time.Minute)
		if strings.Contains(st.Message, "cannot open") {
			t.Errorf("%s: message %q after the model opened", c.files[0], st.Message)
		}
		m, err := p2l.LoadFile(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		d, at := comparePage(t, ctx, m.NewRig(), c.files[0], c.scale)
		how := "picked"
		if c.drop {
			how = "dropped"
		}
		t.Logf("%s (%s), scale %d: page vs CPU renderer: max channel difference %d/255 at %v", c.files[0], how, c.scale, d, at)
		if d > pageTolerance {
			t.Errorf("%s: the page differs from the CPU renderer by %d/255 at %v", c.files[0], d, at)
		}
	}

	openBundles(t, ctx)
	openURLs(t, ctx, srv.URL, dir)
}

// openURLs opens models by URL, as a page that hosts the viewer shows its
// own character (?model=URL, relative to the page): the conformance model
// with an external page (fetched beside it) and internal/cubismbundle's
// bundle by its model3.json (every file it names fetched beside it), each
// compared with the CPU renderer; the bundle zipped; and a URL that does
// not exist, which leaves the default character with the reason.
func openURLs(t *testing.T, ctx context.Context, srvURL, dir string) {
	t.Helper()
	models := filepath.Join(dir, "models")
	conf := filepath.Join(repoRoot, "testdata", "conformance")
	if err := os.MkdirAll(models, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"features.p2lrt", "features-ext.png"} {
		copyFile(t, filepath.Join(models, f), filepath.Join(conf, f))
	}
	if err := os.CopyFS(models, cubismbundle.Files()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(models, "bundle.zip"), cubismbundle.MustZip(cubismbundle.Files()), 0o644); err != nil {
		t.Fatal(err)
	}
	features, err := p2l.LoadFile(filepath.Join(conf, "features.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	bundle, _, err := cubism.Load(cubismbundle.Files(), cubismbundle.Model3)
	if err != nil {
		t.Fatal(err)
	}
	settled := bundle.NewRig() // as in openBundles: the pose fades in over 0.5 s
	for range 60 {
		settled.Update(1.0 / 60)
	}
	bundleName := path.Base(cubismbundle.Model3)
	for _, c := range []struct {
		url, name string
		rig       *p2l.Rig // compared with the page when set
		scale     int
		bare      bool
	}{
		{"models/features.p2lrt", "features.p2lrt", features.NewRig(), 4, false},
		{"models/" + cubismbundle.Model3, bundleName, settled, 3, true},
		{"models/bundle.zip", bundleName, nil, 0, false},
	} {
		open(t, ctx, srvURL, c.url, c.bare)
		// The features model always notes its KTX2 page, which does not
		// decode here; a model that failed to open says "cannot".
		st := poll(t, ctx, fmt.Sprintf("p2lViewer.model === %q || p2lViewer.message.includes(%q)", c.name, "cannot"), time.Minute)
		if st.Model != c.name || strings.Contains(st.Message, "cannot") {
			t.Errorf("?model=%s: the page shows %q with message %q", c.url, st.Model, st.Message)
			continue
		}
		if c.rig == nil {
			continue
		}
		// ?bare: no text and no file bar, so the whole page is compared,
		// over a page of the viewer's background colour (the canvas is
		// transparent around the character: checkTransparent).
		top := overlayHeight
		if c.bare {
			top = 0
			checkTransparent(t, ctx, c.rig, c.scale)
		}
		d, at := comparePageFrom(t, ctx, c.rig, c.name, c.scale, top)
		t.Logf("%s by URL (bare %v), scale %d: page vs CPU renderer: max channel difference %d/255 at %v", c.name, c.bare, c.scale, d, at)
		if d > pageTolerance {
			t.Errorf("?model=%s: the page differs from the CPU renderer by %d/255 at %v", c.url, d, at)
		}
	}
	open(t, ctx, srvURL, "models/none.p2lrt", false)
	st := poll(t, ctx, "p2lViewer.message !== ''", time.Minute)
	if st.Model != "default character" || !strings.Contains(st.Message, "none.p2lrt") || !strings.Contains(st.Message, "404") {
		t.Errorf("?model= of a missing file: the page shows %q with message %q; want the default character and the 404", st.Model, st.Message)
	}
}

// checkTransparent checks that the page shows through the viewer's canvas
// around the character (?bare): over a red page the band above the canvas
// (the page is overlayHeight taller than the canvas at scale, above and
// below) is red and the canvas's centre is not; then it paints the page in
// the viewer's background colour, so that the page compares with the CPU
// renderer as a filled canvas would.
func checkTransparent(t *testing.T, ctx context.Context, rig *p2l.Rig, scale int) {
	t.Helper()
	m := rig.Model()
	w, h := int(float32(scale)*m.Canvas().Width), int(float32(scale)*m.Canvas().Height)+2*overlayHeight
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), int64(h))); err != nil {
		t.Fatal(err)
	}
	paint := func(css string) {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.documentElement.style.background = %q) && true`, css))); err != nil {
			t.Fatal(err)
		}
		waitFrames(t, ctx, 3, time.Minute)
	}
	paint("rgb(255, 0, 0)")
	img := screenshot(t, ctx, "bare-over-red")
	if o := img.PixOffset(w/2, overlayHeight/2); img.Pix[o] != 255 || img.Pix[o+1] != 0 || img.Pix[o+2] != 0 {
		t.Errorf("?bare: the band above the canvas is %v over a red page, want red", img.Pix[o:o+3])
	}
	if o := img.PixOffset(w/2, h/2); img.Pix[o] == 255 && img.Pix[o+1] == 0 && img.Pix[o+2] == 0 {
		t.Errorf("?bare: the character's centre is the page's red")
	}
	paint(fmt.Sprintf("rgb(%d, %d, %d)", background[0], background[1], background[2]))
}

// open loads the viewer's page anew with ?model=loc, no speech and no UI,
// and hides the page's file bar; with bare, ?bare, and the page must have
// removed the bar itself.
func open(t *testing.T, ctx context.Context, srvURL, loc string, bare bool) {
	t.Helper()
	q := "?noui&quiet&model=" + url.QueryEscape(loc)
	if bare {
		q = "?bare&quiet&model=" + url.QueryEscape(loc)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srvURL+"/"+q)); err != nil {
		t.Fatal(err)
	}
	waitFrames(t, ctx, 1, time.Minute)
	hide := `(document.getElementById("p2l-bar").style.visibility = "hidden") && true`
	if bare {
		hide = `document.getElementById("p2l-bar") === null`
	}
	if gone, err := chromedp.Run(ctx, chromedp.Evaluate[bool](hide)); err != nil {
		t.Fatal(err)
	} else if !gone {
		t.Errorf("?bare: the page still has its file bar")
	}
}

// openBundles opens internal/cubismbundle's Cubism bundle in the page
// every way a person can: a zip from the file picker, a folder from the
// folder picker (webkitdirectory), the folder dropped on the canvas, and
// the bundle's files chosen together in the file picker, without their
// folders. The model3.json has another name each time, so that the page
// shows when each one opened. Each is compared with the CPU renderer
// drawing the bundle as cubism.Load reads it, after the updates that
// settle its pose (nothing else in it moves a mesh until it speaks); then
// a click on the body plays a clip of its TapBody group.
func openBundles(t *testing.T, ctx context.Context) {
	t.Helper()
	// bundle is the bundle's folder with its model3.json named
	// NAME.model3.json.
	bundle := func(name string) fstest.MapFS {
		files := fstest.MapFS{}
		for p, f := range cubismbundle.Files() {
			p = strings.TrimPrefix(p, path.Dir(cubismbundle.Model3)+"/")
			if p == path.Base(cubismbundle.Model3) {
				p = name + ".model3.json"
			}
			files[p] = f
		}
		return files
	}
	folder := func(name string) string {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.CopyFS(dir, bundle(name)); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	zipped := filepath.Join(t.TempDir(), "Zipped.zip")
	if err := os.WriteFile(zipped, cubismbundle.MustZip(bundle("Zipped")), 0o644); err != nil {
		t.Fatal(err)
	}
	// The flat choice: every file of the bundle, all in one folder.
	flat := t.TempDir()
	var flatPaths []string
	for p, f := range bundle("Flat") {
		flatPaths = append(flatPaths, filepath.Join(flat, path.Base(p)))
		if err := os.WriteFile(flatPaths[len(flatPaths)-1], f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, _, err := cubism.Load(cubismbundle.Files(), cubismbundle.Model3)
	if err != nil {
		t.Fatal(err)
	}
	// The pose fades in over 0.5 s (pose3 FadeInTime): settled after 60
	// updates of 1/60 s, as in the page long before the screenshot.
	settled := m.NewRig()
	for range 60 {
		settled.Update(1.0 / 60)
	}
	for _, c := range []struct {
		name, how string
		open      func() error
	}{
		{"Zipped", "zip picked", func() error {
			return chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("p2l-open"), []string{zipped}))
		}},
		{"Picked", "folder picked", func() error {
			return chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("p2l-open-folder"), []string{folder("Picked")}))
		}},
		{"Dropped", "folder dropped", func() error {
			dropFiles(t, ctx, []string{folder("Dropped")})
			return nil
		}},
		{"Flat", "files picked without folders", func() error {
			return chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("p2l-open"), flatPaths))
		}},
	} {
		if err := c.open(); err != nil {
			t.Fatalf("%s: %v", c.how, err)
		}
		name := c.name + ".model3.json"
		st := poll(t, ctx, fmt.Sprintf("p2lViewer.model === %q || p2lViewer.message.includes(%q)", name, "cannot"), time.Minute)
		if st.Model != name || st.Message != "" {
			t.Errorf("%s: the page shows %q with message %q", c.how, st.Model, st.Message)
			continue
		}
		d, at := comparePage(t, ctx, settled, name, 3)
		t.Logf("%s (%s), scale 3: page vs CPU renderer: max channel difference %d/255 at %v", name, c.how, d, at)
		if d > pageTolerance {
			t.Errorf("%s: the page differs from the CPU renderer by %d/255 at %v", c.how, d, at)
		}
	}
	// MeshBody, the Body hit area, covers the canvas, centred in the page.
	size, err := chromedp.Run(ctx, chromedp.Evaluate[[2]float64]("[innerWidth, innerHeight]"))
	if err != nil {
		t.Fatal(err)
	}
	click(t, ctx, size[0]/2, size[1]/2)
	st := poll(t, ctx, "p2lViewer.hit !== ''", 20*time.Second)
	if c := m.ClipIndex(st.Clip); st.Hit != "Body" || c < 0 || m.Clips().At(c).Group != "TapBody" {
		t.Errorf("a click on the bundle's body: hit %q, clip %q; want Body and a TapBody clip", st.Hit, st.Clip)
	}
	t.Logf("a click on the body: %+v", st)
}

// pageTolerance is the largest channel difference allowed between the
// page and the CPU renderer, in 1/255 steps: the desktop parity bound.
const pageTolerance = 2

// overlayHeight is the height of the viewer's text lines at the top of
// the page (stats and a message of up to two lines, 16 px each), left out
// of the comparison; the "hit: …" line a tap adds for 2 s can fall below
// it, so comparePage waits until that line is gone.
const overlayHeight = 64

// dropFiles drops files on the middle of the page, as a person dragging
// them from a file manager does.
func dropFiles(t *testing.T, ctx context.Context, paths []string) {
	t.Helper()
	data := &input.DragData{Files: paths, DragOperationsMask: 1}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tgt *chromedp.Target) error {
		for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
			if _, err := cdp.Call(ctx, tgt, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: shotW / 2, Y: shotH / 2, Data: data}); err != nil {
				return err
			}
		}
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
}

// comparePage sizes the page so that the viewer (?noui) shows the rig's
// model (opened from the file name) at an integer scale (the scales of the desktop parity test: at
// others, bilinear sampling between texels differs by more than 2/255
// under ColorDodge/ColorBurn, on the desktop too; docs/WEB.md), with room
// above for the overlay's text. It compares a screenshot with the CPU
// renderer drawing the rig as it is over the viewer's
// background, framed as the viewer does (canvas scaled by
// min(W/width, H/height) and centred), and returns the largest channel
// difference below the text and where it is.
func comparePage(t *testing.T, ctx context.Context, rig *p2l.Rig, name string, scale int) (int, image.Point) {
	t.Helper()
	return comparePageFrom(t, ctx, rig, name, scale, overlayHeight)
}

// comparePageFrom is comparePage from row top down: 0 for a page with no
// text (?bare).
func comparePageFrom(t *testing.T, ctx context.Context, rig *p2l.Rig, name string, scale, top int) (int, image.Point) {
	t.Helper()
	m := rig.Model()
	w, h := int(float32(scale)*m.Canvas().Width), int(float32(scale)*m.Canvas().Height)+2*overlayHeight
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), int64(h))); err != nil {
		t.Fatal(err)
	}
	// A tap's "hit: …" line may reach below overlayHeight (see there).
	poll(t, ctx, `p2lViewer.hit === ""`, time.Minute)
	waitFrames(t, ctx, 3, time.Minute)
	got := screenshot(t, ctx, strings.TrimSuffix(strings.TrimSuffix(name, ".p2lrt"), ".model3.json"))
	if got.Rect.Dx() != w || got.Rect.Dy() != h {
		t.Fatalf("screenshot is %v, want %dx%d", got.Rect.Size(), w, h)
	}
	cw, ch := float64(m.Canvas().Width), float64(m.Canvas().Height)
	s := math.Min(float64(w)/cw, float64(h)/ch)
	rig.Evaluate()
	want := image.NewRGBA(got.Rect)
	var r render.Renderer
	if err := r.Render(rig, want, &render.Options{
		Transform:  &p2l.Affine{A: s, D: s, TX: float64(w)/2 - s*cw/2, TY: float64(h)/2 - s*ch/2},
		Background: color.RGBA{uint8(background[0]), uint8(background[1]), uint8(background[2]), 255},
	}); err != nil {
		t.Fatal(err)
	}
	worst, at := 0, image.Point{}
	for y := top; y < h; y++ {
		for x := 0; x < w; x++ {
			o := got.PixOffset(x, y)
			for c := range 3 {
				d := int(got.Pix[o+c]) - int(want.Pix[o+c])
				if d < 0 {
					d = -d
				}
				if d > worst {
					worst, at = d, image.Pt(x, y)
				}
			}
		}
	}
	return worst, at
}

// touch puts a finger on the page at (x, y) for a few frames and lifts it
// (touch events, as a phone's browser sends them).
func touch(t *testing.T, ctx context.Context, x, y float64) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{
		Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: x, Y: y}},
	}); err != nil {
		t.Fatal(err)
	}
	waitFrames(t, ctx, 3, time.Minute)
	if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{
		Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{},
	}); err != nil {
		t.Fatal(err)
	}
}

// checkSpeech follows the voice that has just started for 60 updates (one
// second of the game's 60 Hz clock, or 30 s) and checks that its play head
// advances (the sound plays) and that the mouth opens with it. Fewer updates
// would not do: p2lViewer.frames counts updates, so 20 of them are a third of
// a second, under the 0.5 s the play head must reach.
func checkSpeech(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	st, err := chromedp.Run(ctx, chromedp.Evaluate[viewerState](`new Promise((resolve) => {
		const from = p2lViewer.frames, t0 = performance.now();
		let mouth = 0, voice = 0;
		const step = () => {
			mouth = Math.max(mouth, p2lViewer.mouth);
			voice = Math.max(voice, p2lViewer.voice);
			const frames = p2lViewer.frames - from;
			if (frames >= 60 || performance.now() - t0 > 30000) resolve({mouth, voice, frames});
			else requestAnimationFrame(step);
		};
		step();
	})`, chromedp.EvalAsValue, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: play head at %.2f s after %d updates, mouth open up to %.2f", what, st.Voice, st.Frames, st.Mouth)
	if st.Voice < 0.5 {
		t.Errorf("%s: the play head reached %.2f s; the sound does not play", what, st.Voice)
	}
	if st.Mouth < 0.3 {
		t.Errorf("%s: the mouth opened to %.2f at most; want above 0.3", what, st.Mouth)
	}
}

// logFrameTimes logs the intervals between 30 animation frames of the
// page: the viewer's frame rate in this browser.
func logFrameTimes(t *testing.T, ctx context.Context) {
	t.Helper()
	ms := frames(t, ctx, 30)
	sum := 0.0
	for _, v := range ms {
		sum += v
	}
	t.Logf("frame time over %d frames: mean %.1f ms, median %.1f ms, max %.1f ms", len(ms), sum/float64(len(ms)), ms[len(ms)/2], ms[len(ms)-1])
}

// click presses the left button at (x, y) for a few frames (the viewer
// reads the button once per frame) and releases it.
func click(t *testing.T, ctx context.Context, x, y float64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1))); err != nil {
		t.Fatal(err)
	}
	waitFrames(t, ctx, 3, time.Minute)
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1))); err != nil {
		t.Fatal(err)
	}
}

// waitFrames waits until the viewer has updated n more frames and returns
// its state.
func waitFrames(t *testing.T, ctx context.Context, n int, timeout time.Duration) viewerState {
	t.Helper()
	from := 0
	if st, err := chromedp.Run(ctx, chromedp.Evaluate[*viewerState]("window.p2lViewer || null")); err == nil && st != nil {
		from = st.Frames
	}
	return poll(t, ctx, fmt.Sprintf("p2lViewer.frames >= %d", from+n), timeout)
}

// poll waits until cond (JavaScript, about window.p2lViewer) holds and
// returns the state.
func poll(t *testing.T, ctx context.Context, cond string, timeout time.Duration) viewerState {
	t.Helper()
	st, err := chromedp.Run(ctx, chromedp.Poll[viewerState](fmt.Sprintf("window.p2lViewer && (%s) && p2lViewer", cond),
		chromedp.WithPollingTimeout(timeout)))
	if err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
	return st
}

// screenshot captures the page; with -shots it is saved as name.png.
func screenshot(t *testing.T, ctx context.Context, name string) *image.RGBA {
	t.Helper()
	data, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if *shots != "" {
		if err := os.WriteFile(filepath.Join(*shots, name+".png"), data, 0o644); err != nil {
			t.Error(err)
		}
	}
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(src.Bounds())
	draw.Draw(img, img.Rect, src, src.Bounds().Min, draw.Src)
	return img
}

// background is the viewer's background color (0.92, 0.94, 0.97) × 255,
// truncated.
var background = [3]int{234, 239, 247}

func isBackground(img *image.RGBA, x, y int) bool {
	o := img.PixOffset(x, y)
	for c := range 3 {
		if d := int(img.Pix[o+c]) - background[c]; d < -2 || d > 2 {
			return false
		}
	}
	return true
}

// checkCharacter checks that a screenshot of the default character is not
// blank: background in the corners, the head covered, and many colors.
func checkCharacter(t *testing.T, img *image.RGBA) {
	t.Helper()
	for _, p := range []image.Point{{2, 2}, {shotW - 3, 2}, {2, shotH - 3}, {shotW - 3, shotH - 3}} {
		if !isBackground(img, p.X, p.Y) {
			t.Errorf("corner %v is %v, not the background", p, img.At(p.X, p.Y))
		}
	}
	x0, y0 := toScreen(380, 300)
	x1, y1 := toScreen(620, 560)
	n, bg := 0, 0
	for y := int(y0); y < int(y1); y++ {
		for x := int(x0); x < int(x1); x++ {
			n++
			if isBackground(img, x, y) {
				bg++
			}
		}
	}
	if bg > n/100 {
		t.Errorf("head region: %d of %d pixels are background", bg, n)
	}
	colors := map[[3]uint8]bool{}
	for i := 0; i < len(img.Pix); i += 4 {
		colors[[3]uint8(img.Pix[i:i+3])] = true
	}
	if len(colors) < 500 {
		t.Errorf("the screenshot has %d colors; a drawn character has thousands", len(colors))
	}
}

// irisesAt moves the pointer to (x, y), lets the head follow for 30
// frames and returns the mean x of the iris-blue pixels of the face (again
// a few frames later while the character blinks).
func irisesAt(t *testing.T, ctx context.Context, x, y float64, name string) float64 {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)); err != nil {
		t.Fatal(err)
	}
	waitFrames(t, ctx, 30, time.Minute)
	x0, y0 := toScreen(300, 350)
	x1, y1 := toScreen(700, 500)
	for try := 0; try < 5; try++ {
		img := screenshot(t, ctx, name)
		sum, n := 0.0, 0
		for py := int(y0); py < int(y1); py++ {
			for px := int(x0); px < int(x1); px++ {
				o := img.PixOffset(px, py)
				if r, b := int(img.Pix[o]), int(img.Pix[o+2]); b > 120 && b > r+60 {
					sum += float64(px)
					n++
				}
			}
		}
		if n >= 200 {
			return sum / float64(n)
		}
		waitFrames(t, ctx, 3, time.Minute)
	}
	t.Fatalf("%s: no open eyes in 5 screenshots", name)
	return 0
}
