// Package mascot puts a character on the desktop: a transparent,
// undecorated, always-on-top window fitted to her, which she can be dragged
// in with the left button; clicks where she is not drawn pass through to
// the desktop (where the platform allows it, see below); a tap plays the
// tap group of the hit area under it (with its voice, if the host gives
// one); she idles, blinks, breathes and looks at the pointer wherever it is
// on the screen. Right-click toggles always-on-top, Shift+right-click, Q
// or Esc quit. The window's position is kept between runs in a small file
// under os.UserConfigDir().
//
//	c := ebitenp2l.NewCharacter(model)
//	err := mascot.Run(c, nil)
//
// The decisions (what a pointer tick means, when clicks pass through, where
// the window goes) are in a display-free controller, unit-tested with
// synthetic pointer input; the hit test is the library's
// (ebitenp2l.Character.MeshAt, drawn pixels), the tap-or-drag decision
// ebitenp2l.DragTap.
//
// Platforms. Transparency needs a compositor: under X11 without one
// (a bare window manager, Xvfb) the transparent pixels show black. Click
// pass-through uses GLFW's mouse pass-through (an empty X11 input shape,
// WS_EX_TRANSPARENT on Windows, ignoresMouseEvents on macOS) and the cursor
// position Ebitengine polls even outside the window. Under Wayland
// Ebitengine runs through XWayland, which reports the pointer only over
// X11 windows, so a pass-through window would never learn that the pointer
// came back over her: there pass-through stays off (the window's whole
// rectangle takes clicks) and she follows the pointer only over X11
// windows. Always-on-top and window positions are requests to the window
// manager, which may refuse them (some Wayland compositors place XWayland
// windows themselves). Browsers and mobile have no desktop: Run works
// there as a plain game.
package mascot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/ebitenp2l/sound"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// DefaultHeight is the window height in pixels when Options.Height is 0.
const DefaultHeight = 480

// Options configure Run. The zero value (or nil) is a 480-pixel-tall
// mascot that remembers its position in DefaultPositionFile.
type Options struct {
	// Height is the window's height in pixels (0: DefaultHeight); the
	// width follows the character's bounds.
	Height int
	// Title is the window's title, shown in taskbars (empty: "mascot").
	Title string
	// Greeting is a clip group played once at start ("" or a group the
	// model lacks: none).
	Greeting string
	// Voices are sounds (WAV, Ogg Vorbis or MP3) by clip id: when a clip
	// with a voice starts (the greeting, a tap), the character says it,
	// her mouth following the sound (ebitenp2l.NewVoice).
	Voices map[string][]byte
	// Silent plays voices without a sound device (the mouth follows the
	// elapsed time).
	Silent bool
	// PositionFile is where the window position is kept: "" means
	// DefaultPositionFile(), "-" keeps none.
	PositionFile string
	// PassThrough decides whether clicks beside her go to the desktop:
	// PassThroughAuto (default) everywhere but under Wayland.
	PassThrough PassThroughMode
	// Frames, when above 0, ends Run after that many frames, calling Done
	// first (tests, screenshots).
	Frames int
	// Done receives, at the last of Frames frames, the window's state as
	// Ebitengine reports it and the screen's pixels (premultiplied,
	// transparent where she is not drawn).
	Done func(s State, screen *image.RGBA)
}

// PassThroughMode says when clicks beside the character pass through.
type PassThroughMode int

const (
	// PassThroughAuto passes clicks through except under Wayland (see
	// the package documentation).
	PassThroughAuto PassThroughMode = iota
	// PassThroughOn passes clicks through wherever she is not drawn.
	PassThroughOn
	// PassThroughOff keeps the whole window clickable.
	PassThroughOff
)

// State is the window as Ebitengine's getters report it. (Whether the
// screen is transparent has only a deprecated getter, which reports what
// Run asked for; the screen's pixels show it.)
type State struct {
	Decorated, Floating, MousePassthrough bool
	X, Y, Width, Height                   int
}

func (s State) String() string {
	return fmt.Sprintf("decorated=%v floating=%v passthrough=%v position=%d,%d size=%dx%d",
		s.Decorated, s.Floating, s.MousePassthrough, s.X, s.Y, s.Width, s.Height)
}

// Run shows c as a desktop mascot until she is told to quit (or Frames
// pass) and returns RunGame's error. It enables the character's
// behaviors (blink, breath, look-at, lip sync), plays the model's "Idle"
// group whenever nothing else plays, and makes HitTest and Tap count drawn
// pixels (ebitenp2l.HitOptions.Pixels). Like ebiten.RunGame it can run once
// per process.
func Run(c *ebitenp2l.Character, opts *Options) error {
	if c == nil {
		return errors.New("mascot: nil character")
	}
	m := newMascot(c, opts)
	ebiten.SetWindowTitle(m.o.Title)
	ebiten.SetWindowDecorated(false)
	ebiten.SetWindowFloating(true)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeDisabled)
	ebiten.SetWindowSize(m.w, m.h)
	if p, ok := m.loadPosition(); ok {
		ebiten.SetWindowPosition(p.X, p.Y)
	}
	return ebiten.RunGameWithOptions(m, &ebiten.RunGameOptions{ScreenTransparent: true})
}

// mascot is the ebiten.Game of Run.
type mascot struct {
	c    *ebitenp2l.Character
	o    Options
	ctl  controller
	geoM ebiten.GeoM // canvas → window
	w, h int

	voice    *ebitenp2l.Voice
	through  bool // mouse pass-through as last set
	frame    int
	lastWall time.Time
	quit     bool
}

func newMascot(c *ebitenp2l.Character, opts *Options) *mascot {
	m := &mascot{c: c}
	if opts != nil {
		m.o = *opts
	}
	if m.o.Height <= 0 {
		m.o.Height = DefaultHeight
	}
	if m.o.Title == "" {
		m.o.Title = "mascot"
	}
	m.ctl.passThrough = passThroughAllowed(m.o.PassThrough, runtime.GOOS, os.Getenv("WAYLAND_DISPLAY"))
	r := c.Rig()
	r.SetBehaviors(p2l.AllBehaviors)
	r.SetClipPose(true)
	_ = r.SetIdleGroup("Idle") // a model without one does not idle
	c.SetHitOptions(ebitenp2l.HitOptions{Pixels: true})
	m.geoM, m.w, m.h = fit(r, m.o.Height)
	if m.o.Greeting != "" {
		if clip, err := r.Layer(0).PlayGroup(m.o.Greeting, -1, p2l.PriorityNormal); err == nil {
			m.speak(clip)
		}
	}
	return m
}

// passThroughAllowed applies PassThroughAuto's rule.
func passThroughAllowed(mode PassThroughMode, goos, waylandDisplay string) bool {
	switch mode {
	case PassThroughOn:
		return true
	case PassThroughOff:
		return false
	}
	return !(goos == "linux" || goos == "freebsd" || goos == "openbsd" || goos == "netbsd") || waylandDisplay == ""
}

// fit returns the GeoM that draws the character's current pose into a
// window height pixels tall, and the window's size: the bounds of the
// drawn meshes' vertices with a margin of a tenth of their larger side on
// every side, for the motions and physics that reach beyond the pose.
func fit(r *p2l.Rig, height int) (g ebiten.GeoM, w, h int) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, mi := range r.RenderOrder() {
		if !(r.Mesh(mi).Opacity() > 0) {
			continue
		}
		v := r.Mesh(mi).Vertices()
		for k := 0; k+1 < len(v); k += 2 {
			x, y := float64(v[k]), float64(v[k+1])
			if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
				continue
			}
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
	}
	if !(x1 > x0 && y1 > y0) { // nothing drawn: the canvas
		cv := r.Model().Canvas()
		x0, y0, x1, y1 = 0, 0, math.Max(float64(cv.Width), 1), math.Max(float64(cv.Height), 1)
	}
	margin := math.Max(x1-x0, y1-y0) / 10
	x0, y0, x1, y1 = x0-margin, y0-margin, x1+margin, y1+margin
	s := float64(height) / (y1 - y0)
	w = max(1, int(math.Ceil((x1-x0)*s)))
	// A very wide character still gets a window a monitor can hold.
	if w > 4*height {
		s *= float64(4*height) / float64(w)
		w = 4 * height
	}
	g.Translate(-x0, -y0)
	g.Scale(s, s)
	return g, w, height
}

func (m *mascot) Update() error {
	dt := 1 / float64(ebiten.TPS())
	if now := time.Now(); m.o.Frames <= 0 {
		if !m.lastWall.IsZero() {
			dt = math.Min(now.Sub(m.lastWall).Seconds(), 0.1)
		}
		m.lastWall = now
	}
	cx, cy := ebiten.CursorPosition() // relative to the window, also outside it
	wx, wy := ebiten.WindowPosition()
	x, y := float64(cx), float64(cy)
	in := input{
		x: x, y: y, winX: wx, winY: wy,
		left:  ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft),
		right: inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight),
		shift: ebiten.IsKeyPressed(ebiten.KeyShift),
		quit:  inpututil.IsKeyJustPressed(ebiten.KeyQ) || inpututil.IsKeyJustPressed(ebiten.KeyEscape),
		float: inpututil.IsKeyJustPressed(ebiten.KeyT),
	}
	d := m.ctl.tick(in, func(x, y float64) bool { return m.c.MeshAt(x, y) >= 0 })
	if d.passThrough != m.through {
		ebiten.SetWindowMousePassthrough(d.passThrough)
		m.through = d.passThrough
	}
	if d.move {
		ebiten.SetWindowPosition(d.winX, d.winY)
	}
	if d.tap {
		if _, clip := m.c.Tap(d.tapX, d.tapY); clip >= 0 {
			m.speak(clip)
		}
	}
	if d.toggleFloating {
		ebiten.SetWindowFloating(!ebiten.IsWindowFloating())
	}
	if d.save || d.quit {
		m.savePosition(ebiten.WindowPosition())
	}
	if d.quit || m.quit {
		return ebiten.Termination
	}
	m.c.LookAtScreen(x, y)
	if m.voice != nil && !m.voice.Playing() {
		m.voice = nil
	}
	m.c.Update(dt)
	return nil
}

// speak plays the voice of clip, if the host gave one.
func (m *mascot) speak(clip int) {
	mdl := m.c.Rig().Model()
	if clip < 0 || clip >= mdl.Clips().Len() {
		return
	}
	data, ok := m.o.Voices[mdl.Clips().At(clip).ID]
	if !ok {
		return
	}
	s, err := sound.Decode(data, 44100)
	if err != nil {
		return // a voice that does not decode: she moves without it
	}
	if m.voice != nil {
		m.voice.Stop()
	}
	m.voice, _ = ebitenp2l.NewVoice(m.c, s, &ebitenp2l.VoiceOptions{Silent: m.o.Silent})
}

func (m *mascot) Draw(screen *ebiten.Image) {
	m.c.Draw(screen, &ebitenp2l.DrawOptions{GeoM: m.geoM})
	m.frame++
	if m.o.Frames > 0 && m.frame >= m.o.Frames && !m.quit {
		m.quit = true
		if m.o.Done != nil {
			b := screen.Bounds()
			img := image.NewRGBA(b)
			screen.ReadPixels(img.Pix)
			m.o.Done(windowState(), img)
		}
	}
}

// windowState reads the window through Ebitengine's getters.
func windowState() State {
	s := State{
		Decorated:        ebiten.IsWindowDecorated(),
		Floating:         ebiten.IsWindowFloating(),
		MousePassthrough: ebiten.IsWindowMousePassthrough(),
	}
	s.X, s.Y = ebiten.WindowPosition()
	s.Width, s.Height = ebiten.WindowSize()
	return s
}

func (m *mascot) Layout(int, int) (int, int) { return m.w, m.h }

// position is the content of the position file.
type position struct {
	X, Y int
}

// DefaultPositionFile is where Run keeps the window position by default:
// p2l-ebiten/mascot.json under os.UserConfigDir().
func DefaultPositionFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "p2l-ebiten", "mascot.json"), nil
}

func (m *mascot) positionFile() string {
	switch m.o.PositionFile {
	case "-":
		return ""
	case "":
		f, err := DefaultPositionFile()
		if err != nil {
			return ""
		}
		return f
	}
	return m.o.PositionFile
}

// loadPosition reads the kept position, clamped onto the current monitor
// (clampPosition; the monitor may have changed since).
func (m *mascot) loadPosition() (position, bool) {
	name := m.positionFile()
	if name == "" {
		return position{}, false
	}
	p, err := readPosition(name)
	if err != nil {
		return position{}, false
	}
	if mon := ebiten.Monitor(); mon != nil {
		mw, mh := mon.Size()
		p = clampPosition(p, m.w, m.h, mw, mh)
	}
	return p, true
}

func (m *mascot) savePosition(x, y int) {
	if name := m.positionFile(); name != "" {
		_ = writePosition(name, position{x, y}) // best effort: a read-only home is no reason to fail
	}
}

// maxPositionFile bounds what readPosition reads: the file holds two
// integers.
const maxPositionFile = 1 << 10

func readPosition(name string) (position, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return position{}, err
	}
	p, err := parsePosition(data)
	if err != nil {
		return position{}, fmt.Errorf("mascot: %s: %w", name, err)
	}
	return p, nil
}

// parsePosition reads a position file's content: {"X": int, "Y": int}.
func parsePosition(data []byte) (position, error) {
	if len(data) > maxPositionFile {
		return position{}, fmt.Errorf("%d bytes, more than a position's %d", len(data), maxPositionFile)
	}
	var p position
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&p); err != nil {
		return position{}, err
	}
	return p, nil
}

func writePosition(name string, p position) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	// Written beside it and renamed: a crash never leaves half a file.
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// clampPosition keeps a w×h window on a mw×mh monitor enough to grab it
// again: at least half its width, its top edge and a quarter of its
// height.
func clampPosition(p position, w, h, mw, mh int) position {
	if mw <= 0 || mh <= 0 {
		return p
	}
	p.X = max(-w/2, min(p.X, mw-w/2))
	p.Y = max(0, min(p.Y, mh-h/4))
	return p
}
