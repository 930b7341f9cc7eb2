package mascot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l"
)

// Run opens Ebitengine's one game loop of a process, so the window test
// runs the mascot in a child process: the test binary re-executes itself
// with P2L_MASCOT_CHILD set (the position file's name), and the child
// prints the window state its Done received and writes its screen to
// P2L_MASCOT_SHOT. It needs a display: run it under xvfb-run.
func TestMain(m *testing.M) {
	if pos := os.Getenv("P2L_MASCOT_CHILD"); pos != "" {
		os.Exit(child(pos, os.Getenv("P2L_MASCOT_SHOT")))
	}
	os.Exit(m.Run())
}

const statePrefix = "mascot state: "

func child(pos, shot string) int {
	model, err := assets.DefaultModel()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c := ebitenp2l.NewCharacter(model)
	err = Run(c, &Options{
		Frames:       30,
		PositionFile: pos,
		Silent:       true,
		PassThrough:  PassThroughOn, // also when the test's session has WAYLAND_DISPLAY
		Greeting:     "Greeting",
		Voices:       map[string][]byte{"Greeting": assets.Speech},
		Done: func(s State, img *image.RGBA) {
			b, _ := json.Marshal(s)
			fmt.Printf("%s%s\n", statePrefix, b)
			if f, err := os.Create(shot); err == nil {
				png.Encode(f, img)
				f.Close()
			}
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// runChild runs the mascot with its position file at (x, y) and the X
// pointer at (px, py) of the screen, and returns the state and screen.
func runChild(t *testing.T, x, y int, px, py int16) (State, *image.RGBA) {
	t.Helper()
	dir := t.TempDir()
	pos, shot := filepath.Join(dir, "mascot.json"), filepath.Join(dir, "shot.png")
	if err := writePosition(pos, position{x, y}); err != nil {
		t.Fatal(err)
	}
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	if err := xproto.WarpPointerChecked(conn, 0, root, 0, 0, 0, 0, px, py).Check(); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "P2L_MASCOT_CHILD="+pos, "P2L_MASCOT_SHOT="+shot, "NO_AUDIO=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mascot: %v\n%s", err, stderr.String())
	}
	var s State
	_, line, ok := strings.Cut(stdout.String(), statePrefix)
	if !ok {
		t.Fatalf("no state in the output:\n%s\n%s", stdout.String(), stderr.String())
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(line)), &s); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	rgba := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			rgba.Set(x, y, img.At(x, y))
		}
	}
	if p, err := readPosition(pos); err != nil || p != (position{s.X, s.Y}) {
		t.Errorf("position file after the run: %+v, %v; want the window's %d, %d", p, err, s.X, s.Y)
	}
	return s, rgba
}

// TestMascotWindow runs the mascot under X (Xvfb: no window manager, no
// compositor) and checks through Ebitengine's getters that the window is
// undecorated and floating, at the remembered position, of DefaultHeight;
// that its screen is transparent beside her and opaque on her (the
// transparency Run asks for: its only getter is deprecated and reports
// the request); and that clicks pass through with the pointer beside her, not with
// the pointer on her.
func TestMascotWindow(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no X display: run under xvfb-run")
	}
	// The pointer far beside the window (Xvfb's screen is larger).
	s, img := runChild(t, 33, 44, 1200, 1000)
	t.Logf("pointer beside her: %v", s)
	if s.Decorated || !s.Floating {
		t.Errorf("window %v, want undecorated, floating", s)
	}
	if s.X != 33 || s.Y != 44 {
		t.Errorf("window at %d, %d, want the remembered 33, 44", s.X, s.Y)
	}
	if s.Height != DefaultHeight || s.Width < 100 || s.Width > s.Height {
		t.Errorf("window %d×%d, want %d tall and narrower than tall (a standing character)", s.Width, s.Height, DefaultHeight)
	}
	if !s.MousePassthrough {
		t.Error("pointer beside her: clicks do not pass through")
	}
	b := img.Bounds()
	if b.Dx() != s.Width || b.Dy() != s.Height {
		t.Errorf("screen %v, window %d×%d", b, s.Width, s.Height)
	}
	for _, p := range []image.Point{{0, 0}, {b.Dx() - 1, 0}, {0, b.Dy() - 1}, {b.Dx() - 1, b.Dy() - 1}} {
		if a := img.RGBAAt(p.X, p.Y).A; a != 0 {
			t.Errorf("corner %v alpha %d, want transparent", p, a)
		}
	}
	if a := img.RGBAAt(b.Dx()/2, b.Dy()/2).A; a != 255 {
		t.Errorf("centre alpha %d, want her, opaque", a)
	}
	// The pointer on her (the window's centre: her chest).
	s, _ = runChild(t, 33, 44, int16(33+s.Width/2), int16(44+s.Height/2))
	if s.MousePassthrough {
		t.Errorf("pointer on her: clicks pass through (%v)", s)
	}
}
