// Package examples holds runnable programs (go run ./examples/NAME); this
// test builds each one, runs it on the X display of the test (xvfb-run),
// grabs the screen and checks that it drew a character, and checks that
// the README's game snippet is examples/hello; hello's eyes follow the X
// pointer; mascot's window is undecorated and fitted to her.
package examples

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
)

// TestREADMESnippet: the README's "In a game" block is exactly the source
// of examples/hello, which this package's test builds and runs.
func TestREADMESnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, "## In a game")
	if i < 0 {
		t.Fatal("README has no \"## In a game\" section")
	}
	s = s[i:]
	a := strings.Index(s, "```go\n")
	if a < 0 {
		t.Fatal("no go block in \"In a game\"")
	}
	s = s[a+len("```go\n"):]
	b := strings.Index(s, "```")
	if b < 0 {
		t.Fatal("unterminated go block")
	}
	snippet := s[:b]
	hello, err := os.ReadFile("hello/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if snippet != string(hello) {
		t.Errorf("README's snippet differs from examples/hello/main.go (keep them identical; the test builds hello)")
	}
}

// TestExamplesDraw builds and runs each example, grabs its window and
// checks that the window was filled with the example's background colour and
// that enough pixels differ from it to be characters (the screenshots are
// written to $P2L_EXAMPLE_SHOTS when set, for looking at them).
func TestExamplesDraw(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no X display: run under xvfb-run")
	}
	bin := t.TempDir()
	out := os.Getenv("P2L_EXAMPLE_SHOTS")
	for _, c := range []struct {
		name      string
		bg        color.RGBA
		minPixels int // of a 1/4 sample of the window
		// args returns the example's arguments (skipping t when what
		// they need is absent).
		args func(t *testing.T) []string
	}{
		{"hello", color.RGBA{0xea, 0xee, 0xf4, 0xff}, 8000, nil},
		{"talk", color.RGBA{0xf4, 0xee, 0xe8, 0xff}, 8000, nil},
		{"crowd", color.RGBA{0xe8, 0xec, 0xf2, 0xff}, 20000, nil},
		// cubism plays a Cubism sample (skipped without the samples).
		{"cubism", color.RGBA{0xe8, 0xf0, 0xe8, 0xff}, 5000, func(t *testing.T) []string {
			return []string{cubismsamples.Model(t, "Hiyori")}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var args []string
			if c.args != nil {
				args = c.args(t)
			}
			exe := filepath.Join(bin, c.name)
			if b, err := exec.Command("go", "build", "-o", exe, "./"+c.name).CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, b)
			}
			img := runAndGrab(t, exe, args, c.bg, c.minPixels)
			if out != "" {
				if f, err := os.Create(filepath.Join(out, c.name+".png")); err == nil {
					png.Encode(f, img)
					f.Close()
				}
			}
			n, bg := drawnPixels(img)
			if !near(bg, c.bg) {
				t.Errorf("window background %v, want the example's %v", bg, c.bg)
			}
			if n < c.minPixels {
				t.Errorf("only %d sampled pixels differ from the background: no character drawn", n)
			}
		})
	}
}

func near(a, b color.RGBA) bool {
	d := func(x, y uint8) bool { return x+3 >= y && y+3 >= x }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// runAndGrab starts exe, waits until its window shows the background bg
// and at least minPixels character pixels (or 90 s pass) and returns the
// window's image.
func runAndGrab(t *testing.T, exe string, args []string, bg color.RGBA, minPixels int) *image.RGBA {
	t.Helper()
	return runAndDo(t, exe, args, bg, minPixels, nil)
}

// runAndDo is runAndGrab that, once the window shows, calls then with the
// window's title (while the example still runs) instead of grabbing again
// after a pause.
func runAndDo(t *testing.T, exe string, args []string, bg color.RGBA, minPixels int, then func(x *xgb.Conn, title string) *image.RGBA) *image.RGBA {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "NO_AUDIO=1")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Kill()
		<-exited
	}()
	x, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	title := filepath.Base(exe) // each example's window title is its name
	var img *image.RGBA
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("%s exited early: %v\n%s", filepath.Base(exe), err, stderr.String())
		case <-time.After(time.Second):
		}
		if img, err = grabWindow(x, title); err != nil {
			continue // not mapped yet
		}
		if n, b := drawnPixels(img); near(b, bg) && n >= minPixels {
			if then != nil {
				return then(x, title)
			}
			// A moment more: animations settle in.
			time.Sleep(2 * time.Second)
			if next, err := grabWindow(x, title); err == nil {
				img = next
			}
			break
		}
	}
	if img == nil {
		t.Fatalf("no window appeared\n%s", stderr.String())
	}
	return img
}

// TestMascotExample builds and runs examples/mascot (with a configuration
// folder of its own, so that no position is kept for the user) and checks
// its window as X sees it: titled "mascot", undecorated (_MOTIF_WM_HINTS
// with the decorations flag and no decorations), of a fixed size
// DefaultHeight (480) tall and narrower than tall, showing her in the
// middle. Xvfb has no compositor, so the transparent pixels show black
// (the corners), and no window manager, so the always-on-top request
// leaves no trace in X: package ebitenp2l/mascot's TestMascotWindow checks
// transparency, decorations and floating through Ebitengine's getters.
func TestMascotExample(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no X display: run under xvfb-run")
	}
	exe := filepath.Join(t.TempDir(), "mascot")
	if b, err := exec.Command("go", "build", "-o", exe, "./mascot").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	runAndDo(t, exe, nil, color.RGBA{}, 8000, func(x *xgb.Conn, title string) *image.RGBA {
		win, w, h, err := exampleWindow(x, title)
		if err != nil {
			t.Fatal(err)
		}
		if h != 480 || w < 100 || w >= h {
			t.Errorf("window %d×%d, want 480 tall and narrower", w, h)
		}
		atom, err := xproto.InternAtom(x, true, uint16(len("_MOTIF_WM_HINTS")), "_MOTIF_WM_HINTS").Reply()
		if err != nil || atom.Atom == 0 {
			t.Fatalf("no _MOTIF_WM_HINTS atom: %v", err)
		}
		p, err := xproto.GetProperty(x, false, win, atom.Atom, xproto.GetPropertyTypeAny, 0, 5).Reply()
		if err != nil || p.Format != 32 || len(p.Value) < 12 {
			t.Fatalf("_MOTIF_WM_HINTS: %v, %+v", err, p)
		}
		// flags (bit 1: decorations given), functions, decorations.
		flags, decorations := xgb.Get32(p.Value[0:]), xgb.Get32(p.Value[8:])
		if flags&2 == 0 || decorations != 0 {
			t.Errorf("_MOTIF_WM_HINTS flags %#x decorations %#x: want decorations given and none", flags, decorations)
		}
		img, err := grabWindow(x, title)
		if err != nil {
			t.Fatal(err)
		}
		black := color.RGBA{0, 0, 0, 255}
		if c := img.RGBAAt(0, 0); c != black {
			t.Errorf("corner %v, want black (transparent without a compositor)", c)
		}
		if c := img.RGBAAt(w/2, h/2); c == black {
			t.Error("nothing drawn in the middle of the window")
		}
		return img
	})
}

// TestHelloFollowsPointer moves the X pointer to the left and to the right
// of hello's window and checks that the irises follow it
// (Character.LookAtScreen).
func TestHelloFollowsPointer(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no X display: run under xvfb-run")
	}
	exe := filepath.Join(t.TempDir(), "hello")
	if b, err := exec.Command("go", "build", "-o", exe, "./hello").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	var left, right float64
	runAndDo(t, exe, nil, color.RGBA{0xea, 0xee, 0xf4, 0xff}, 8000, func(x *xgb.Conn, title string) *image.RGBA {
		left = irisesAt(t, x, title, 0, 300)
		right = irisesAt(t, x, title, 499, 300)
		return nil
	})
	t.Logf("iris centre x: %.1f with the pointer at the left edge, %.1f at the right", left, right)
	// The eyes are about 40 px wide in the 500×600 window; the irises
	// and the head move by tens of pixels between the two extremes (54 px
	// when written); breathing and sway move them by a few.
	if right-left < 15 {
		t.Errorf("irises at x %.1f (pointer left) and %.1f (pointer right): they do not follow the pointer", left, right)
	}
}

// irisesAt moves the pointer to (px, py) in the example's window, lets
// the gaze settle and returns the mean x of the iris-blue pixels in the
// eye band (grabbing again while the eyes blink).
func irisesAt(t *testing.T, x *xgb.Conn, title string, px, py int16) float64 {
	t.Helper()
	win, _, _, err := exampleWindow(x, title)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.WarpPointerChecked(x, 0, win, 0, 0, 0, 0, px, py).Check(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	for range 10 {
		img, err := grabWindow(x, title)
		if err != nil {
			t.Fatal(err)
		}
		sum, n := 0, 0
		// Eye band of the default character at scale 0.5: y 190–260 (the
		// navy collar starts below 330).
		for y := 190; y < 260; y++ {
			for x := 0; x < img.Rect.Dx(); x++ {
				c := img.RGBAAt(x, y)
				if int(c.B) > int(c.R)+60 && c.B > 120 {
					sum += x
					n++
				}
			}
		}
		if n > 100 {
			return float64(sum) / float64(n)
		}
		time.Sleep(300 * time.Millisecond) // a blink: look again
	}
	t.Fatal("no irises found in the eye band")
	return 0
}

// exampleWindow finds the viewable top-level window titled title (the
// example's: each sets its name as its title) and its size, and raises it
// above its siblings. Other packages' tests open Ebitengine windows on the
// same display while this one runs (go test runs packages in parallel),
// so neither "the largest window" nor what is on top is the example's;
// Xvfb has no window manager, and a raised window stays on top until
// another is mapped or raised, so each grab finds and raises it again.
func exampleWindow(x *xgb.Conn, title string) (xproto.Window, int, int, error) {
	scr := xproto.Setup(x).DefaultScreen(x)
	tree, err := xproto.QueryTree(x, scr.Root).Reply()
	if err != nil {
		return 0, 0, 0, err
	}
	for _, c := range tree.Children {
		a, err := xproto.GetWindowAttributes(x, c).Reply()
		if err != nil || a.MapState != xproto.MapStateViewable {
			continue
		}
		name, err := xproto.GetProperty(x, false, c, xproto.AtomWmName, xproto.GetPropertyTypeAny, 0, 64).Reply()
		if err != nil || string(name.Value) != title {
			continue
		}
		g, err := xproto.GetGeometry(x, xproto.Drawable(c)).Reply()
		if err != nil {
			continue
		}
		if err := xproto.ConfigureWindowChecked(x, c, xproto.ConfigWindowStackMode, []uint32{xproto.StackModeAbove}).Check(); err != nil {
			return 0, 0, 0, fmt.Errorf("raising %q: %w", title, err)
		}
		return c, int(g.Width), int(g.Height), nil
	}
	return 0, 0, 0, fmt.Errorf("no viewable window titled %q", title)
}

// grabWindow reads the window titled title from a 24- or 32-bit TrueColor
// screen.
func grabWindow(x *xgb.Conn, title string) (*image.RGBA, error) {
	win, w, h, err := exampleWindow(x, title)
	if err != nil {
		return nil, err
	}
	reply, err := xproto.GetImage(x, xproto.ImageFormatZPixmap, xproto.Drawable(win), 0, 0, uint16(w), uint16(h), 0xffffffff).Reply()
	if err != nil {
		return nil, fmt.Errorf("GetImage: %w", err)
	}
	if len(reply.Data) < 4*w*h {
		return nil, fmt.Errorf("GetImage: %d bytes for %d×%d (depth %d)", len(reply.Data), w, h, reply.Depth)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ { // BGRX
		img.Pix[4*i+0] = reply.Data[4*i+2]
		img.Pix[4*i+1] = reply.Data[4*i+1]
		img.Pix[4*i+2] = reply.Data[4*i+0]
		img.Pix[4*i+3] = 255
	}
	return img, nil
}

// drawnPixels returns the most common colour of img (every other pixel of
// every other row) and how many of those samples differ clearly from it.
func drawnPixels(img *image.RGBA) (int, color.RGBA) {
	b := img.Bounds()
	hist := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			hist[img.RGBAAt(x, y)]++
		}
	}
	var bg color.RGBA
	for c, n := range hist {
		if n > hist[bg] {
			bg = c
		}
	}
	d := func(a, b uint8) int {
		if a > b {
			return int(a - b)
		}
		return int(b - a)
	}
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			c := img.RGBAAt(x, y)
			if d(c.R, bg.R)+d(c.G, bg.G)+d(c.B, bg.B) > 60 {
				n++
			}
		}
	}
	return n, bg
}
