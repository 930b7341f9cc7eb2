package main

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"
	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
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

// The synthetic bundle of internal/cubismbundle, as its model3.json and
// cdi3.json describe it: model3 name, motion groups in model3 order with
// their clip counts, expressions and hit areas by their model3 Names. The
// parameter panel follows cubism.Load's GUI tree: the cdi3's groups
// nested by their GroupId (Mouth within Face, each created where its
// first parameter comes), parameters with their cdi3 names, then the
// parameters the cdi3 leaves out (ParamBreath, ParamHair) at the top
// level in moc order, by id.
const bundleName = "tiny.model3.json"

var (
	bundleGroups      = []clipGroup{{name: "TapBody", clips: make([]int, 2)}, {name: "Idle", clips: make([]int, 1)}}
	bundleExpressions = []string{"Smile"}
	bundlePanel       = []string{"/Face/Mouth/Mouth open", "/Face/Angle X", "/Face/Left eye", "/ParamBreath", "/ParamHair"}
)

// TestOpenBundle opens the synthetic bundle every way a user can: by its
// model3.json, its folder or its zip on the command line; dropped as a
// folder, a zip, the files of its folder, or the same files without their
// folders (as a browser's multiple-file picker gives them). Each time the
// viewer's lists show what cubismbundle's model3.json and cdi3.json say.
func TestOpenBundle(t *testing.T) {
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, cubismbundle.Files()); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "tiny")
	zipPath := filepath.Join(tmp, "tiny.zip")
	if err := os.WriteFile(zipPath, zipOf(t, cubismbundle.Files()), 0o644); err != nil {
		t.Fatal(err)
	}
	flat := fstest.MapFS{}
	for name, f := range cubismbundle.Files() {
		flat[path.Base(name)] = f
	}
	folderFiles, err := fs.Sub(cubismbundle.Files(), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		how  string
		open func(g *game) error
	}{
		{"command line: model3.json", func(g *game) error { return g.openFile(filepath.Join(dir, bundleName)) }},
		{"command line: folder", func(g *game) error { return g.openFile(dir) }},
		{"command line: zip", func(g *game) error { return g.openFile(zipPath) }},
		{"drop: folder", dropping(cubismbundle.Files())},
		{"drop: the folder's files", dropping(folderFiles)},
		{"drop: zip", dropping(fstest.MapFS{"tiny.zip": {Data: zipOf(t, cubismbundle.Files())}})},
		{"drop: files without their folders", dropping(flat)},
	} {
		t.Run(c.how, func(t *testing.T) {
			g := newTestGame(t)
			if err := c.open(g); err != nil {
				t.Fatal(err)
			}
			if g.name != bundleName {
				t.Fatalf("shows %q, want %s (message %q)", g.name, bundleName, g.message)
			}
			if notes := g.notes(nil); len(notes) != 0 {
				t.Errorf("notes %q; the bundle is complete", notes)
			}
			if g.voice != nil {
				t.Errorf("the bundle's sound %s was played as a dropped voice", cubismbundle.Sound)
			}
			checkBundleLists(t, g)
		})
	}
}

// zipOf zips files.
func zipOf(t *testing.T, files fs.FS) []byte {
	t.Helper()
	data, err := cubismbundle.Zip(files)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// dropping returns a function that drops files on the viewer.
func dropping(files fs.FS) func(g *game) error {
	return func(g *game) error {
		g.openDropped(files)
		return nil
	}
}

// checkBundleLists checks the viewer's lists against the bundle's JSON
// (bundleGroups, bundleExpressions, bundlePanel): motion groups with their
// clips, expressions and hit areas under their model3 names, the
// parameter panel with the cdi3 names and groups.
func checkBundleLists(t *testing.T, g *game) {
	t.Helper()
	m := g.model
	groups := clipGroups(m)
	if len(groups) != len(bundleGroups) {
		t.Errorf("clip groups %+v, want %+v", groups, bundleGroups)
	}
	for i := range min(len(groups), len(bundleGroups)) {
		if groups[i].name != bundleGroups[i].name || len(groups[i].clips) != len(bundleGroups[i].clips) {
			t.Errorf("clip group %d: %q with %d clips, want %q with %d", i, groups[i].name, len(groups[i].clips), bundleGroups[i].name, len(bundleGroups[i].clips))
		}
	}
	var exprs []string
	for _, e := range m.Expressions().All() {
		label := e.Name
		if label == "" {
			label = e.ID
		}
		exprs = append(exprs, label)
	}
	if !slices.Equal(exprs, bundleExpressions) {
		t.Errorf("expressions %q, want %q", exprs, bundleExpressions)
	}
	if m.HitAreas().Len() != 1 || hitAreaLabel(m, 0) != "Body" || m.TapGroup(0) != "TapBody" {
		t.Errorf("hit areas %+v, want one named Body playing TapBody", m.File().HitAreas)
	}
	p := newPanel(m)
	if len(p.missing) != 0 {
		t.Errorf("parameters outside the panel's tree: %v", p.missing)
	}
	var labels []string
	var walk func(ns []p2lrt.GUINode, group string)
	walk = func(ns []p2lrt.GUINode, group string) {
		for _, n := range ns {
			if n.Kind == p2lrt.GUIParameter {
				labels = append(labels, group+"/"+paramLabel(m, n.Parameter))
				continue
			}
			walk(n.Children, group+"/"+groupLabel(n))
		}
	}
	walk(p.tree, "")
	if !slices.Equal(labels, bundlePanel) {
		t.Errorf("parameter panel %q, want %q", labels, bundlePanel)
	}
}

// TestBundleControls uses the lists: the hit area's button and a click on
// the body play a TapBody clip; the talking motion (TapBody's first, with
// a Sound) speaks through the character's voice, which the overlay
// follows, and the mouth moves with it.
func TestBundleControls(t *testing.T) {
	g := newTestGame(t)
	g.openDropped(cubismbundle.Files())
	if g.name != bundleName {
		t.Fatalf("shows %q (message %q)", g.name, g.message)
	}
	g.tapArea(0)
	if c := g.rig.Layer(0).Clip(); c < 0 || g.model.Clips().At(c).Group != "TapBody" || g.hitName != "Body" {
		t.Errorf("the hit area's button: clip %d, hit %q; want a TapBody clip and Body", c, g.hitName)
	}
	g.rig.Layer(0).Stop()
	g.hitName = ""
	// Before any Draw the screen is the canvas; MeshBody covers all of it.
	g.click(100, 150)
	if c := g.rig.Layer(0).Clip(); c < 0 || g.model.Clips().At(c).Group != "TapBody" || g.hitName != "Body" {
		t.Errorf("a click on the body: clip %d, hit %q", c, g.hitName)
	}

	g = newTestGame(t)
	g.openDropped(cubismbundle.Files())
	if _, err := g.rig.Layer(0).PlayGroup("TapBody", 0, p2l.PriorityNormal); err != nil {
		t.Fatal(err)
	}
	mouth := g.model.ParameterIndex("ParamMouthOpenY")
	open := float32(0)
	for range 12 { // 0.2 s: the loud part of the sound
		g.char.UpdateStages(1.0/60, p2l.AllStages) // what Update does per frame
		g.followVoice()
		open = max(open, g.rig.ParameterCurrent(mouth))
	}
	if g.voice == nil || g.voiceName != path.Base(cubismbundle.Sound) {
		t.Errorf("the talking motion: voice %v named %q, want %s", g.voice, g.voiceName, path.Base(cubismbundle.Sound))
	}
	// Gain 5 (lipsync.DefaultGain) times the tone's RMS 0.5/√2 = 1.77:
	// the level clamped to 1, of which the Cubism sample adds 0.8 to the
	// mouth (at 0 before; docs/ANIMATION.md §2b).
	if open < 0.8-1e-6 {
		t.Errorf("the mouth opened to %v at most while the motion's sound played", open)
	}
}

// TestBundleWarnings: what the loader skips is said on screen for
// noticeSeconds (and the bundle opens); a bundle whose moc is missing does
// not open and says why, and the files of a bundle without its model3.json
// say what they are.
func TestBundleWarnings(t *testing.T) {
	g := newTestGame(t)
	files := cubismbundle.Files()
	delete(files, "tiny/motions/idle.motion3.json")
	g.openDropped(files)
	// The idle motion is named twice (Idle, TapBody): two warnings.
	notes := strings.Join(g.notes(nil), "\n")
	if g.name != bundleName || !strings.Contains(notes, "2 warnings") || !strings.Contains(notes, "idle.motion3.json") {
		t.Errorf("a missing motion: shows %q, notes %q; want the bundle and warnings naming the file", g.name, notes)
	}
	g.now += noticeSeconds
	if notes := g.notes(nil); len(notes) != 0 {
		t.Errorf("%g s later the warnings are still on screen: %q", float64(noticeSeconds), notes)
	}
	var ws []cubism.Warning
	for i := range 5 {
		ws = append(ws, cubism.Warning{File: "x.json", Field: "Motions", Msg: string(rune('a' + i))})
	}
	if msg := warningsMessage("x.model3.json", ws); strings.Count(msg, "x.json") != maxWarningsShown || !strings.Contains(msg, "5 warnings") || !strings.Contains(msg, fmt.Sprintf("%d more", 5-maxWarningsShown)) {
		t.Errorf("5 warnings: message %q", msg)
	}

	g = newTestGame(t)
	files = cubismbundle.Files()
	delete(files, "tiny/tiny.moc3")
	g.openDropped(files)
	if g.name != "default character" || !strings.Contains(g.message, "cannot open "+bundleName) || g.voice != nil {
		t.Errorf("no moc: shows %q, message %q, voice %v", g.name, g.message, g.voice)
	}
	g.openDropped(fstest.MapFS{"tiny.moc3": {Data: cubismbundle.Moc()}, "a.motion3.json": {Data: []byte(cubismbundle.IdleMotion)}})
	if g.name != "default character" || !strings.Contains(g.message, "part of a Cubism bundle") {
		t.Errorf("a moc alone: shows %q, message %q", g.name, g.message)
	}
	if err := g.openFile(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Errorf("an empty folder: %v", err)
	}
}

// TestBundleScreenshot runs the viewer on the bundle's model3.json for 60
// frames and compares its screenshot with the CPU renderer drawing the
// bundle after as many updates. Only the pose (PartArmA or PartArmB) and
// the mouth (ParamMouthOpenY, 0 without a voice) change the picture; the
// idle motion, blink, breath, look-at and physics drive parameters that
// move nothing. The window is 400 × 528: the 200 × 200 canvas is scaled
// by min(400/200, 528/200) = 2 and centred, so canvas (x, y) is screen
// (2x, 64 + 2y); 64 rows above it hold the overlay's text. Colours by hand
// from the 4 × 4 page, texel (i, j) = (60i, 60j, 200), sampled at the
// pixel's centre:
//   - the body (the whole canvas, full page): canvas (25, 25) is texel
//     coordinate (0.5, 0.5), texel (0, 0)'s centre: (0, 0, 200);
//   - the pose shows a group's first entry, PartArmA (canvas x 0..50, y
//     100..150, full page): canvas (25, 125) is its texel coordinate
//     (2, 2), halfway between texels 1 and 2: (90, 90, 200);
//   - PartArmB hidden: canvas (175, 125) is the body's texel coordinate
//     (3.5, 2.5), texel (3, 2): (180, 120, 200).
func TestBundleScreenshot(t *testing.T) {
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, cubismbundle.Files()); err != nil {
		t.Fatal(err)
	}
	const top, frames = 64, 60
	got := shot(t, "-size", "400x528", "-frames", fmt.Sprint(frames), "-lookat", "0,0", filepath.Join(tmp, "tiny", bundleName))
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{{25, 25, color.RGBA{0, 0, 200, 255}}, {25, 125, color.RGBA{90, 90, 200, 255}}, {175, 125, color.RGBA{180, 120, 200, 255}}} {
		if px := got.RGBAAt(2*c.x, top+2*c.y); !near(px, c.want, 3) {
			t.Errorf("canvas (%d, %d): %v, want %v", c.x, c.y, px, c.want)
		}
	}
	if !isBackground(got, 200, top+400+10) {
		t.Errorf("below the canvas: %v, want the background", got.At(200, top+410))
	}
	m, _, err := cubism.Load(cubismbundle.Files(), cubismbundle.Model3)
	if err != nil {
		t.Fatal(err)
	}
	rig := m.NewRig()
	for range frames {
		rig.Update(fixedDT)
	}
	if d, at := compareCPU(t, got, rig, top); d > 2 {
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
			for i := range g.model.HitAreas().Len() {
				areas = append(areas, hitAreaLabel(g.model, i))
			}
			t.Logf("groups %q, expressions %d, hit areas %q, GUI groups %d, message %q", groups, g.model.Expressions().Len(), areas, len(g.panel.tree), g.message)
			// The groups are the model3.json's Motions keys.
			var m3 struct {
				FileReferences struct{ Motions map[string]json.RawMessage }
			}
			data, err := os.ReadFile(filepath.Join(samples, name, name+".model3.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &m3); err != nil {
				t.Fatal(err)
			}
			want := slices.Sorted(maps.Keys(m3.FileReferences.Motions))
			if got := slices.Sorted(slices.Values(groups)); !slices.Equal(got, want) {
				t.Errorf("groups %q, the model3.json's motion groups %q", got, want)
			}
		})
	}
}

// compareCPU renders the rig with the CPU renderer over the viewer's
// background, framed as the viewer frames it without its UI (canvas
// scaled by min(W/width, H/height) and centred), and returns the largest
// channel difference from img below row top, and where.
func compareCPU(t *testing.T, img *image.RGBA, rig *p2l.Rig, top int) (int, image.Point) {
	t.Helper()
	m := rig.Model()
	w, h := img.Rect.Dx(), img.Rect.Dy()
	cw, ch := float64(m.Canvas().Width), float64(m.Canvas().Height)
	s := fitScale(cw, ch, float64(w), float64(h))
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
