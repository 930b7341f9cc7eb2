package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/bitmapfont/v4"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/ebitenp2l/sound"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/lipsync"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// options are the command-line settings of the viewer.
type options struct {
	file       string
	screenshot string
	frames     int
	lookAt     *[2]float32 // fixed look-at target instead of the mouse
	noUI       bool
	bare       bool // only the character: noUI, no overlay text (messages to stderr)
	noAudio    bool
	speak      bool // play the bundled speech at start
	clip       string
	expression string
	width      int
	height     int
	mascot     bool // on the desktop (mascot.go)
}

// game is the viewer: one character, its UI state, the camera and lip sync.
type game struct {
	opts options
	// transparent: the screen is not filled, the page shows through
	// (-bare in a browser, main.go).
	transparent bool

	model *p2l.Model
	name  string
	char  *ebitenp2l.Character
	rig   *p2l.Rig
	panel *panel

	ui        debugui.DebugUI
	capturing bool
	touches   []ebiten.TouchID // reused by handleInput

	// Camera: the canvas is fitted into the window, then zoomed about the
	// window centre and panned (screen pixels).
	zoom       float64
	panX, panY float64
	dragging   bool
	dragX      int
	dragY      int
	screenW    int
	screenH    int
	bg         [3]float64

	// Messages on screen: message until it is replaced, notice (a
	// bundle's warnings, also in the log) until noticeUntil.
	message     string
	notice      string
	noticeUntil float64
	hitName     string
	hitUntil    float64
	events      []string
	loopClip    bool
	lastClip    int
	physics     bool
	lipManual   float64
	lipShown    float64 // lipManual as last given to the rig
	lipGain     float64

	prepErr *atomic.Pointer[string] // why PrepareAdvanced failed, per model

	voice     *ebitenp2l.Voice
	voiceName string

	// Timing.
	now       float64 // seconds of animation
	lastWall  time.Time
	evalTime  time.Duration
	frame     int
	shotDone  bool
	shotError error
}

// defaultName is the name the viewer shows for the embedded character.
const defaultName = "default character"

// fixedDT is the time step in screenshot mode, so runs are reproducible.
const fixedDT = 1.0 / 60

func newGame(opts options) (*game, error) {
	opts.noUI = opts.noUI || opts.bare
	g := &game{opts: opts, zoom: 1, bg: [3]float64{0.92, 0.94, 0.97}, physics: true, lipGain: lipsync.DefaultGain, lastClip: -1}
	// In a browser, -bare puts the character over the embedding page: the
	// canvas is transparent where she is not (a desktop window keeps its
	// background; a transparent one is -mascot).
	g.transparent = opts.bare && runtime.GOOS == "js"
	if opts.file != "" {
		if err := g.openLocation(opts.file); err != nil {
			if opts.screenshot != "" {
				// A screenshot of the default character instead of the
				// file asked for would pass for success.
				return nil, err
			}
			g.message = err.Error()
			if opts.bare {
				fmt.Fprintln(os.Stderr, "viewer:", err) // nothing shows it on screen
			}
		}
	}
	if g.model == nil {
		m, err := assets.DefaultModel()
		if err != nil {
			return nil, fmt.Errorf("embedded default model: %w", err)
		}
		g.setModel(m, defaultName, nil)
	}
	if opts.speak {
		if err := g.speak("speech.ogg", assets.Speech); err != nil {
			return nil, err
		}
	}
	if opts.clip != "" {
		c := g.model.ClipIndex(opts.clip)
		if c < 0 {
			return nil, fmt.Errorf("-clip %q: no such clip in %s (clips: %s)", opts.clip, g.name, clipIDs(g.model))
		}
		g.rig.Layer(0).Start(c)
	}
	if opts.expression != "" {
		e := g.model.ExpressionIndex(opts.expression)
		if e < 0 {
			return nil, fmt.Errorf("-expression %q: no such expression in %s", opts.expression, g.name)
		}
		g.rig.Expressions().Set(e)
		g.panel.stacked[e] = true
	}
	return g, nil
}

// clipIDs lists the clip ids of m, for error messages.
func clipIDs(m *p2l.Model) string {
	ids := make([]string, m.Clips().Len())
	for i, c := range m.Clips().All() {
		ids[i] = c.ID
	}
	return strings.Join(ids, ", ")
}

// openFile opens what the command line names: a .p2lrt (its external
// pages beside it), a Cubism bundle by its .model3.json, or a folder or a
// zip holding a model, opened as a drop of it is (drop.go).
func (g *game) openFile(name string) error {
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		folder := os.DirFS(name)
		if _, err := g.openFirst(folder, sortDrop(folder), true); err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(name), err)
		}
		return nil
	}
	return g.openCandidate(os.DirFS(filepath.Dir(name)), droppedFiles{}, filepath.Base(name), true)
}

// openModel loads a .p2lrt from memory; external texture pages resolve in
// dir. A bad file leaves the current model in place and says why.
func (g *game) openModel(name string, data []byte, dir fs.FS) error {
	m, err := p2l.Load(data)
	if err != nil {
		return fmt.Errorf("cannot open %s: %w", filepath.Base(name), err)
	}
	g.setModel(m, filepath.Base(name), dir)
	return nil
}

// setModel replaces the character.
func (g *game) setModel(m *p2l.Model, name string, dir fs.FS) {
	if g.char != nil {
		g.char.Deallocate() // its voice stops, its pages go now rather than at a later collection
	}
	// Clip sounds (a Cubism motion's Sound) speak through the character's
	// voice as the viewer's own voices do (speak); they resolve in the
	// model's folder.
	opts := &ebitenp2l.Options{
		Textures:   texture.Options{FS: dir},
		ClipSounds: ebitenp2l.ClipSounds{FS: dir, Voice: g.voiceOptions()},
	}
	g.model, g.name = m, name
	g.notice = ""
	ebiten.SetWindowTitle("p2l viewer - " + name)
	g.prepErr = &atomic.Pointer[string]{}
	if m.AdvancedAvailable() != 0 {
		// Fit skin weights and build bone frames off the game loop, so
		// that switching a feature on later does not stall a frame.
		prep := g.prepErr
		go func() {
			if err := m.PrepareAdvanced(); err != nil {
				s := err.Error()
				prep.Store(&s)
			}
		}()
	}
	g.char = ebitenp2l.NewCharacterWithOptions(m, opts)
	g.rig = g.char.Rig()
	g.rig.SetBehaviors(p2l.AllBehaviors)
	g.rig.SetBehaviorSeed(1)
	// Clips switch arm poses as in Cubism; the Idle group, if any, plays
	// whenever nothing else does.
	g.rig.SetClipPose(true)
	_ = g.rig.SetIdleGroup("Idle") // no Idle group: nothing idles
	g.voice = nil
	g.lipShown = -1
	g.panel = newPanel(m)
	g.events = g.events[:0]
	var bad []string
	for i := range m.Textures().Len() {
		if err := g.char.TextureInfo(i); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if len(bad) > 0 {
		g.message = "unavailable texture pages (their meshes are not drawn): " + strings.Join(bad, "; ")
	}
	g.resetCamera()
}

func (g *game) resetCamera() { g.zoom, g.panX, g.panY = 1, 0, 0 }

// reset returns the character to its rest state.
func (g *game) reset() {
	g.rig.ResetParameters()
	g.rig.Layer(0).Stop()
	g.rig.Expressions().Clear()
	g.rig.Physics().Reset()
	pose, _ := g.model.Pose()
	for i := range pose.Groups {
		g.rig.ShowPose(i, 0)
	}
	g.panel.reset(g.model)
	g.lipManual = 0
	if g.voice != nil {
		g.voice.Stop()
		g.voice = nil
	}
	g.resetCamera()
}

// speak plays a WAV, Ogg Vorbis or MP3 file through the character's voice
// (ebitenp2l.Voice: level and vowel lip sync). Without a sound device, with
// -noaudio or in screenshot mode the voice is silent and the mouth follows
// the elapsed time.
func (g *game) speak(name string, data []byte) error {
	s, err := sound.Decode(data, 44100)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(name), err)
	}
	v, err := ebitenp2l.NewVoice(g.char, s, g.voiceOptions())
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(name), err)
	}
	g.voice, g.voiceName = v, filepath.Base(name)
	return nil
}

// voiceOptions are the options of the character's voices: silent without
// audio output or in screenshot mode, with the lip-sync gain of the
// Controls window.
func (g *game) voiceOptions() *ebitenp2l.VoiceOptions {
	return &ebitenp2l.VoiceOptions{
		Silent:  g.opts.noAudio || g.opts.screenshot != "",
		LipSync: lipsync.Options{Gain: float32(g.lipGain)},
	}
}

// followVoice takes up the voice the character started for a clip's sound
// (ebitenp2l.ClipSounds), so that the overlay, the gain slider and the
// page's state follow it as they follow a dropped voice; it forgets a
// voice that ended.
func (g *game) followVoice() {
	if v := g.char.Voice(); v != nil && v != g.voice {
		g.voice, g.voiceName = v, "a clip's sound"
		if snd := g.model.ClipSound(g.rig.Layer(0).Clip()); snd != "" {
			g.voiceName = path.Base(snd)
		}
	}
	if g.voice != nil && !g.voice.Playing() {
		g.voice = nil
	}
}

// geoM maps canvas pixels to the screen: fit, zoom about the centre, pan.
// Without the UI the canvas is scaled by min(W/width, H/height) and centred.
func (g *game) geoM() ebiten.GeoM {
	cw, ch := float64(g.model.Canvas().Width), float64(g.model.Canvas().Height)
	// With the UI shown, fit between the two windows.
	w := float64(g.screenW)
	if !g.opts.noUI && g.screenW > 2*(panelWidth+20)+100 {
		w -= 2 * (panelWidth + 20)
	}
	s := fitScale(cw, ch, w, float64(g.screenH)) * g.zoom
	var m ebiten.GeoM
	m.Translate(-cw/2, -ch/2)
	m.Scale(s, s)
	m.Translate(float64(g.screenW)/2+g.panX, float64(g.screenH)/2+g.panY)
	return m
}

// fitScale is the scale that fits a cw×ch canvas into a w×h window.
func fitScale(cw, ch, w, h float64) float64 {
	if cw <= 0 || ch <= 0 {
		return 1
	}
	return math.Min(w/cw, h/ch)
}

func (g *game) Update() error {
	if g.shotDone {
		if g.shotError != nil {
			return g.shotError
		}
		return ebiten.Termination
	}
	dt := fixedDT
	if g.opts.screenshot == "" {
		now := time.Now()
		if !g.lastWall.IsZero() {
			dt = math.Min(now.Sub(g.lastWall).Seconds(), 0.1)
		}
		g.lastWall = now
	}
	g.now += dt

	g.handleDrops()
	if !g.opts.noUI {
		state, err := g.ui.Update(g.buildUI)
		if err != nil {
			return err
		}
		g.capturing = state != 0
	}
	g.handleInput()

	// Lip sync: the voice (Character.UpdateStages drives it), else the
	// manual slider when it moves (LipSync switches lip sync on, so it is
	// not called every frame: the behavior checkbox can switch it off).
	g.followVoice()
	if g.voice != nil {
		g.voice.Analyzer().Options.Gain = float32(g.lipGain)
	} else if g.lipManual != g.lipShown {
		g.rig.LipSync(float32(g.lipManual), [5]float32{})
		g.lipShown = g.lipManual
	}

	stages := p2l.AllStages
	if !g.physics {
		stages &^= p2l.StagePhysics
	}
	start := time.Now()
	g.char.UpdateStages(dt, stages)
	g.evalTime = time.Since(start)
	g.followVoice() // a clip that started may speak
	for _, e := range g.rig.Events() {
		name := fmt.Sprint(e.Clip)
		if e.Clip >= 0 && e.Clip < g.model.Clips().Len() {
			name = g.model.Clips().At(e.Clip).ID
		}
		if e.Finished {
			if g.loopClip && e.Layer == 0 {
				g.rig.Layer(0).Start(e.Clip) // replay the one-shot clip
			}
			g.events = append(g.events, fmt.Sprintf("%6.2fs  %s finished", g.now, name))
		} else {
			g.events = append(g.events, fmt.Sprintf("%6.2fs  %s: %q", g.now, name, e.Value))
		}
		if len(g.events) > 6 {
			g.events = g.events[1:]
		}
	}
	if err := g.rig.Err(); err != nil {
		g.message = "rig stopped: " + err.Error()
	}
	g.frame++
	publishState(g) // window.p2lViewer in the browser (state_js.go)
	return nil
}

// handleDrops opens dropped models and plays dropped audio.
func (g *game) handleDrops() {
	if dropped := ebiten.DroppedFiles(); dropped != nil {
		g.openDropped(dropped)
	}
	// In the browser, files chosen in the page's picker arrive as a drop.
	if picked, err := pickedFiles(); err != nil {
		g.message = err.Error()
	} else if picked != nil {
		g.openDropped(picked)
	}
}

// handleInput: look-at, hit areas, zoom and pan, unless the UI has the mouse.
func (g *game) handleInput() {
	mx, my := ebiten.CursorPosition()
	// On a touch screen (phones and tablets, in the browser too) the first
	// finger is the pointer while it touches, and every new touch taps.
	g.touches = ebiten.AppendTouchIDs(g.touches[:0])
	if len(g.touches) > 0 {
		mx, my = ebiten.TouchPosition(g.touches[0])
	}
	if g.opts.lookAt != nil {
		g.rig.LookAt(g.opts.lookAt[0], g.opts.lookAt[1])
	} else if g.screenW > 0 {
		// Measured from the face (the head hit area), as the library does.
		g.char.LookAtScreen(float64(mx), float64(my))
	}
	if g.capturing || g.opts.screenshot != "" {
		g.dragging = false
		return
	}
	if _, wy := ebiten.Wheel(); wy != 0 {
		f := math.Pow(1.15, wy)
		nz := math.Max(0.2, math.Min(8, g.zoom*f))
		f = nz / g.zoom
		// Zoom about the cursor: keep the canvas point under it fixed.
		cx, cy := float64(g.screenW)/2+g.panX, float64(g.screenH)/2+g.panY
		g.panX += (float64(mx) - cx) * (1 - f)
		g.panY += (float64(my) - cy) * (1 - f)
		g.zoom = nz
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight) {
		g.dragging, g.dragX, g.dragY = true, mx, my
	}
	if g.dragging {
		if !ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight) {
			g.dragging = false
		} else {
			g.panX += float64(mx - g.dragX)
			g.panY += float64(my - g.dragY)
			g.dragX, g.dragY = mx, my
		}
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		g.click(float64(mx), float64(my))
	}
	g.touches = inpututil.AppendJustPressedTouchIDs(g.touches[:0])
	for _, id := range g.touches {
		x, y := ebiten.TouchPosition(id)
		g.click(float64(x), float64(y))
	}
}

// click hit-tests a screen point and plays the area's tap group
// ("Tap" + the area's name: p2l.Model.TapGroup).
func (g *game) click(sx, sy float64) {
	if h, _ := g.char.Tap(sx, sy); h >= 0 {
		g.showHit(h)
	}
}

// tapArea does what a click on hit area i does (the Controls window's hit
// area buttons): it plays a clip of the area's tap group.
func (g *game) tapArea(i int) {
	if _, err := g.rig.Layer(0).PlayGroup(g.model.TapGroup(i), -1, p2l.PriorityNormal); err != nil {
		g.message = err.Error()
	}
	g.showHit(i)
}

// showHit names hit area i on screen for 2 s.
func (g *game) showHit(i int) {
	g.hitName = hitAreaLabel(g.model, i)
	g.hitUntil = g.now + 2
}

func (g *game) Draw(screen *ebiten.Image) {
	if !g.transparent {
		screen.Fill(color.RGBA{uint8(255 * g.bg[0]), uint8(255 * g.bg[1]), uint8(255 * g.bg[2]), 255})
	}
	g.char.Draw(screen, &ebitenp2l.DrawOptions{GeoM: g.geoM()})
	g.drawOverlay(screen)
	if !g.opts.noUI {
		g.ui.Draw(screen)
	}
	if g.opts.screenshot != "" && !g.shotDone && g.frame >= g.opts.frames {
		g.shotError = saveScreenshot(screen, g.opts.screenshot)
		g.shotDone = true
	}
}

func (g *game) drawOverlay(screen *ebiten.Image) {
	if g.opts.bare {
		return
	}
	x := 10
	if !g.opts.noUI {
		x = panelWidth + 20
	}
	stats := fmt.Sprintf("%s   FPS %.1f   eval %.3f ms   meshes %d", g.name, ebiten.ActualFPS(), float64(g.evalTime.Microseconds())/1000, len(g.rig.RenderOrder()))
	// Character.DrawCalls: the DrawTrianglesShader calls of the last Draw.
	if dc, ok := any(g.char).(interface{ DrawCalls() int }); ok {
		stats += fmt.Sprintf("   draw calls %d", dc.DrawCalls())
	}
	lines := []string{stats}
	if g.voice != nil {
		src := "audio"
		if silent, why := g.voice.Silent(); silent {
			src = "silent clock: " + why
		}
		f := g.voice.Last()
		v := "-"
		if k, w := dominant(f.Vowels); w > 0.3 {
			v = string("AIUEO"[k])
		}
		lines = append(lines, fmt.Sprintf("lip sync: %s %.1f s (%s)  level %.2f  vowel %s  F1 %.0f F2 %.0f Hz", g.voiceName, g.voice.Position(), src, f.Level, v, f.Formants.F1, f.Formants.F2))
	}
	lines = g.notes(lines)
	// Wrap to the space between the UI windows.
	width := g.screenW - x - 10
	if !g.opts.noUI {
		width -= panelWidth + 20
	}
	cols := max(20, width/glyphWidth)
	y := 8
	for _, l := range lines {
		for _, part := range wrap(l, cols) {
			drawLine(screen, part, x, y)
			y += lineStep
		}
	}
	for i, e := range g.events {
		drawLine(screen, "event "+e, x, g.screenH-lineStep*(len(g.events)-i)-8)
	}
}

// notes appends the messages on screen now to lines: the message, a
// notice until its time is up, the last hit for a moment.
func (g *game) notes(lines []string) []string {
	if g.message != "" {
		lines = append(lines, g.message)
	}
	if g.notice != "" && g.now < g.noticeUntil {
		lines = append(lines, g.notice)
	}
	if g.hitName != "" && g.now < g.hitUntil {
		lines = append(lines, "hit: "+g.hitName)
	}
	return lines
}

// The overlay's text uses the bitmap font debugui draws the UI with
// (hajimehoshi/bitmapfont through text/v2): its Latin glyphs are 6 px wide
// and 12 px tall. ebitenutil.DebugPrintAt would link net/http and crypto/tls
// into the browser build (2.2 MB of wasm; docs/PERFORMANCE.md).
const (
	glyphWidth = 6
	glyphH     = 12
	lineStep   = 16
)

// overlayBacking is drawn behind each line so that it reads on any
// background colour.
var overlayBacking = color.RGBA{20, 22, 30, 150}

// drawLine draws one line of light text on a translucent dark strip, with
// its top-left corner at (x, y).
func drawLine(screen *ebiten.Image, s string, x, y int) {
	w := text.Advance(s, overlayFace)
	vector.DrawFilledRect(screen, float32(x-3), float32(y-1), float32(w+6), glyphH+3, overlayBacking, false)
	op := &text.DrawOptions{}
	op.GeoM.Translate(float64(x), float64(y))
	op.ColorScale.ScaleWithColor(color.RGBA{245, 246, 250, 255})
	text.Draw(screen, s, overlayFace, op)
}

var overlayFace = text.NewGoXFace(bitmapfont.Face)

// wrap cuts s into lines of at most cols columns, at a space when one
// falls in the second half of the line. A wide character (CJK: 12 px in
// the bitmap font) takes two columns, any other one.
func wrap(s string, cols int) []string {
	var out []string
	r := []rune(s)
	at := make([]int, len(r)+1) // at[i]: the columns of r[:i]
	for {
		end := 0
		for end < len(r) && at[end]+runeCols(r[end]) <= cols {
			at[end+1] = at[end] + runeCols(r[end])
			end++
		}
		if end == len(r) {
			return append(out, string(r))
		}
		cut := max(end, 1)
		for i := end; i > 0 && at[i] > cols/2; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, string(r[:cut]))
		r = r[cut:]
		for len(r) > 0 && r[0] == ' ' {
			r = r[1:]
		}
	}
}

// runeCols is the width of r in the overlay's columns (glyphWidth).
func runeCols(r rune) int {
	if r >= 0x1100 && (unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		r >= 0x3000 && r <= 0x303f || r >= 0xff01 && r <= 0xff60) {
		return 2
	}
	return 1
}

func saveScreenshot(screen *ebiten.Image, name string) error {
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
	return writePNG(img, name)
}

// writePNG writes img to the file name.
func writePNG(img image.Image, name string) error {
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

func (g *game) Layout(w, h int) (int, int) {
	g.screenW, g.screenH = w, h
	return w, h
}

// dominant returns the vowel with the largest weight and the weight.
func dominant(w [5]float32) (int, float32) {
	k := 0
	for i := range w {
		if w[i] > w[k] {
			k = i
		}
	}
	return k, w[k]
}
