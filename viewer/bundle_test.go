package main

import (
	"image"
	"image/color"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/bundletest"
	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

// newTestGame is the viewer without a window, on the default character.
func newTestGame(t *testing.T) *game {
	t.Helper()
	g, err := newGame(options{noUI: true, noAudio: true, frames: 1})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestOpenBundle opens the synthetic bundle every way a user can: by its
// model3.json, its folder or its zip on the command line; dropped as a
// folder, a zip, the files of its folder, or the same files without their
// folders (as a browser's multiple-file picker gives them). Each time the
// viewer's lists show what bundletest's model3.json and cdi3.json say.
func TestOpenBundle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Tiny")
	if err := bundletest.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	zipPath := filepath.Join(t.TempDir(), "Tiny.zip")
	if err := os.WriteFile(zipPath, bundletest.Zip("Tiny"), 0o644); err != nil {
		t.Fatal(err)
	}
	flat := fstest.MapFS{}
	for name, data := range bundletest.Files() {
		flat[path.Base(name)] = &fstest.MapFile{Data: data}
	}
	for _, c := range []struct {
		how  string
		open func(g *game) error
	}{
		{"command line: model3.json", func(g *game) error { return g.openFile(filepath.Join(dir, bundletest.Model3)) }},
		{"command line: folder", func(g *game) error { return g.openFile(dir) }},
		{"command line: zip", func(g *game) error { return g.openFile(zipPath) }},
		{"drop: folder", dropping(bundletest.MapFS("Tiny"))},
		{"drop: the folder's files", dropping(bundletest.MapFS("."))},
		{"drop: zip", dropping(fstest.MapFS{"Tiny.zip": {Data: bundletest.Zip("")}})},
		{"drop: files without their folders", dropping(flat)},
	} {
		t.Run(c.how, func(t *testing.T) {
			g := newTestGame(t)
			if err := c.open(g); err != nil {
				t.Fatal(err)
			}
			if g.name != bundletest.Model3 {
				t.Fatalf("shows %q, want %s (message %q)", g.name, bundletest.Model3, g.message)
			}
			if g.message != "" {
				t.Errorf("message %q; the bundle is complete", g.message)
			}
			if g.voice != nil {
				t.Errorf("the bundle's sound %s was played as a dropped voice", bundletest.Sound)
			}
			checkBundleLists(t, g)
		})
	}
}

// dropping returns a function that drops files on the viewer.
func dropping(files fstest.MapFS) func(g *game) error {
	return func(g *game) error {
		g.openDropped(files)
		return nil
	}
}

// checkBundleLists checks the viewer's lists against bundletest's JSON:
// motion groups with their clips, expressions and hit areas under their
// model3 names, the parameter panel with the cdi3 names and group.
func checkBundleLists(t *testing.T, g *game) {
	t.Helper()
	m := g.model
	var groups []string
	for _, gr := range clipGroups(m) {
		groups = append(groups, gr.name)
		want := slices.IndexFunc(bundletest.Groups, func(w struct {
			Name  string
			Clips int
		}) bool {
			return w.Name == gr.name
		})
		if want < 0 || len(gr.clips) != bundletest.Groups[want].Clips {
			t.Errorf("group %q has %d clips; bundletest: %+v", gr.name, len(gr.clips), bundletest.Groups)
		}
	}
	if len(groups) != len(bundletest.Groups) || groups[0] != bundletest.Groups[0].Name {
		t.Errorf("clip groups %q, want %+v in that order", groups, bundletest.Groups)
	}
	var exprs []string
	for _, e := range m.Expressions {
		label := e.Name
		if label == "" {
			label = e.ID
		}
		exprs = append(exprs, label)
	}
	if !slices.Equal(exprs, bundletest.Expressions) {
		t.Errorf("expressions %q, want %q", exprs, bundletest.Expressions)
	}
	if len(m.HitAreas) != 1 || hitAreaLabel(m, 0) != bundletest.HitArea || m.TapGroup(0) != "TapBody" {
		t.Errorf("hit areas %+v, want one named %s playing TapBody", m.HitAreas, bundletest.HitArea)
	}
	// The panel: ParamSwing under the group "Movement", ParamShade at the
	// top level, each labelled with its cdi3 name; none left over.
	p := newPanel(m)
	if len(p.missing) != 0 {
		t.Errorf("parameters outside the panel's tree: %v", p.missing)
	}
	var labels []string
	var walk func(ns []p2l.GUINode, group string)
	walk = func(ns []p2l.GUINode, group string) {
		for _, n := range ns {
			if n.Kind == p2l.GUIParameter {
				labels = append(labels, group+"/"+paramLabel(m, n.Parameter))
				continue
			}
			walk(n.Children, group+"/"+groupLabel(n))
		}
	}
	walk(p.tree, "")
	want := []string{"/" + bundletest.ParameterGroup + "/" + bundletest.ParameterNames[0], "/" + bundletest.ParameterNames[1]}
	if !slices.Equal(labels, want) {
		t.Errorf("parameter panel %q, want %q", labels, want)
	}
}

// TestBundleControls uses the lists: the hit area's button and a click on
// the body play a TapBody clip; the expression buttons' rig call shows the
// expression.
func TestBundleControls(t *testing.T) {
	g := newTestGame(t)
	g.openDropped(bundletest.MapFS("Tiny"))
	if g.name != bundletest.Model3 {
		t.Fatalf("shows %q (message %q)", g.name, g.message)
	}
	g.tapArea(0)
	if c := g.rig.PlayingClip(); c < 0 || g.model.Clips[c].Group != "TapBody" || g.hitName != bundletest.HitArea {
		t.Errorf("the hit area's button: clip %d, hit %q; want a TapBody clip and %q", c, g.hitName, bundletest.HitArea)
	}
	g.rig.Stop()
	g.hitName = ""
	// Before any Draw the screen is the canvas; the quad covers canvas
	// pixels 20..180 × 30..270 (bundletest.mocModel).
	g.click(100, 150)
	if c := g.rig.PlayingClip(); c < 0 || g.model.Clips[c].Group != "TapBody" || g.hitName != bundletest.HitArea {
		t.Errorf("a click on the body: clip %d, hit %q", c, g.hitName)
	}
}

// TestBundleWarnings: what the loader skips is said on the message line
// (and the bundle opens); a bundle whose moc is missing does not open and
// says why, and the files of a bundle without its model3.json say what
// they are.
func TestBundleWarnings(t *testing.T) {
	g := newTestGame(t)
	files := bundletest.MapFS("Tiny")
	delete(files, "Tiny/motions/tap_b.motion3.json")
	g.openDropped(files)
	if g.name != bundletest.Model3 || !strings.Contains(g.message, "1 warning") || !strings.Contains(g.message, "tap_b.motion3.json") {
		t.Errorf("a missing motion: shows %q, message %q; want the bundle and a warning naming the file", g.name, g.message)
	}
	var ws []cubism.Warning
	for i := range 5 {
		ws = append(ws, cubism.Warning{File: "x.json", Field: "Motions", Msg: string(rune('a' + i))})
	}
	if msg := warningsMessage("x.model3.json", ws); strings.Count(msg, "x.json") != maxWarningsShown || !strings.Contains(msg, "5 warnings") || !strings.Contains(msg, "2 more") {
		t.Errorf("5 warnings: message %q", msg)
	}

	g = newTestGame(t)
	files = bundletest.MapFS("Tiny")
	delete(files, "Tiny/Tiny.moc3")
	g.openDropped(files)
	if g.name != "default character" || !strings.Contains(g.message, "cannot open "+bundletest.Model3) {
		t.Errorf("no moc: shows %q, message %q", g.name, g.message)
	}
	g.openDropped(fstest.MapFS{"Tiny.moc3": bundletest.MapFS(".")["Tiny.moc3"], "a.motion3.json": {Data: []byte("{}")}})
	if g.name != "default character" || !strings.Contains(g.message, "part of a Cubism bundle") {
		t.Errorf("a moc alone: shows %q, message %q", g.name, g.message)
	}
	if err := g.openFile(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Errorf("an empty folder: %v", err)
	}
}

// TestBundleScreenshot runs the viewer on the bundle's model3.json and
// compares its screenshot with the CPU renderer drawing the same bundle at
// rest (nothing in it idles, blinks or breathes: no Idle group, no
// standard parameter ids), and with the page's colours where the quad's
// quadrants are: the window is 400 × 728, the 200 × 300 canvas is scaled
// by min(400/200, 728/300) = 2 and centred, so canvas (x, y) is screen
// (2x, 64 + 2y); 64 rows above it hold the overlay's text.
func TestBundleScreenshot(t *testing.T) {
	dir := t.TempDir()
	if err := bundletest.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	const w, h, top = 400, 728, 64
	got := shotFile(t, filepath.Join(dir, bundletest.Model3), "-size", "400x728", "-frames", "10", "-lookat", "0,0")
	// The quadrants' centres: canvas x 60 or 140, y 90 or 210.
	for i, pt := range []image.Point{{60, 90}, {140, 90}, {60, 210}, {140, 210}} {
		want := bundletest.PageColors[i]
		if c := got.RGBAAt(2*pt.X, top+2*pt.Y); !near(c, color.RGBA{want.R, want.G, want.B, 255}, 2) {
			t.Errorf("quadrant %d at canvas %v: %v, want %v", i, pt, c, want)
		}
	}
	if !isBackground(got, 2*10, top+2*20) {
		t.Errorf("canvas (10, 20), outside the quad: %v, want the background", got.At(20, top+40))
	}
	m, _, err := cubism.Load(os.DirFS(dir), bundletest.Model3)
	if err != nil {
		t.Fatal(err)
	}
	if d, at := compareCPU(t, got, m, top); d > 2 {
		t.Errorf("the viewer differs from the CPU renderer by %d/255 at %v", d, at)
	}
}

// TestSampleBundles opens the official samples present (skipped without
// them) by their folders, as a user dropping one would: each opens, with
// its model3 groups and hit areas in the viewer's lists.
func TestSampleBundles(t *testing.T) {
	samples := cubismsamples.Require(t)
	for _, name := range cubismsamples.Names {
		t.Run(name, func(t *testing.T) {
			g := newTestGame(t)
			if err := g.openFile(filepath.Join(samples, name)); err != nil {
				t.Fatal(err)
			}
			if g.name != name+".model3.json" {
				t.Fatalf("shows %q", g.name)
			}
			if strings.Contains(g.message, "cannot") || strings.Contains(g.message, "unavailable") {
				t.Errorf("message %q", g.message)
			}
			var groups []string
			for _, gr := range clipGroups(g.model) {
				groups = append(groups, gr.name)
			}
			var areas []string
			for i := range g.model.HitAreas {
				areas = append(areas, hitAreaLabel(g.model, i))
			}
			t.Logf("groups %q, expressions %d, hit areas %q, GUI groups %d, message %q", groups, len(g.model.Expressions), areas, len(g.panel.tree), g.message)
			if !slices.Contains(groups, "Idle") {
				t.Errorf("no Idle group in %q", groups)
			}
		})
	}
}

// shotFile runs the viewer without its UI on file for a screenshot.
func shotFile(t *testing.T, file string, args ...string) *image.RGBA {
	t.Helper()
	return shot(t, append(args, file)...)
}

// compareCPU renders m at rest with the CPU renderer over the viewer's
// background, framed as the viewer frames it without its UI (canvas
// scaled by min(W/width, H/height) and centred), and returns the largest
// channel difference from img below row top, and where.
func compareCPU(t *testing.T, img *image.RGBA, m *p2l.Model, top int) (int, image.Point) {
	t.Helper()
	w, h := img.Rect.Dx(), img.Rect.Dy()
	cw, ch := float64(m.Canvas.Width), float64(m.Canvas.Height)
	s := fitScale(cw, ch, float64(w), float64(h))
	rig := m.NewRig()
	rig.Evaluate()
	want := image.NewRGBA(img.Rect)
	var r render.Renderer
	if err := r.Render(rig, want, &render.Options{
		Transform:  &p2l.Affine{A: s, D: s, TX: float64(w)/2 - s*cw/2, TY: float64(h)/2 - s*ch/2},
		Background: color.RGBA{background[0], background[1], background[2], 255},
	}); err != nil {
		t.Fatal(err)
	}
	worst, at := 0, image.Point{}
	for y := top; y < h; y++ {
		for x := 0; x < w; x++ {
			o := img.PixOffset(x, y)
			for c := range 3 {
				d := int(img.Pix[o+c]) - int(want.Pix[o+c])
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

// near reports whether a and b differ by at most tol in each colour
// channel.
func near(a, b color.RGBA, tol int) bool {
	for _, d := range []int{int(a.R) - int(b.R), int(a.G) - int(b.G), int(a.B) - int(b.B)} {
		if d < -tol || d > tol {
			return false
		}
	}
	return true
}
