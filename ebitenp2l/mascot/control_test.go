package mascot

import (
	"os"
	"path/filepath"
	"testing"
)

// her is a synthetic character: drawn on the window rectangle x 40..60,
// y 20..80 (the pixel test's answer, here by hand).
func her(x, y float64) bool { return x >= 40 && x < 60 && y >= 20 && y < 80 }

// TestDragAndPassThrough feeds synthetic pointer ticks: the pointer beside
// her lets clicks through, on her it does not; a press on her that moves
// beyond the threshold drags the window by the cursor's offset from the
// press point (the cursor being relative to the window, which follows it)
// and saves the position at the release; a press that stays within it is
// a tap at the press point.
func TestDragAndPassThrough(t *testing.T) {
	c := controller{passThrough: true}
	type tick struct {
		in   input
		want decision
	}
	win := func(x, y float64, left bool, wx, wy int) input {
		return input{x: x, y: y, left: left, winX: wx, winY: wy}
	}
	for i, k := range []tick{
		{win(10, 10, false, 100, 100), decision{passThrough: true}},
		{win(50, 50, false, 100, 100), decision{}},
		// Press on her, move 3 px: no drag yet (threshold 4).
		{win(50, 50, true, 100, 100), decision{}},
		{win(53, 50, true, 100, 100), decision{}},
		// 10 px right, 5 down: the drag starts and the window follows.
		{win(60, 55, true, 100, 100), decision{move: true, winX: 110, winY: 105}},
		// The window moved; the cursor is back over the press point.
		{win(50, 50, true, 110, 105), decision{}},
		// Dragged beside her (the window lags): still no pass-through.
		{win(20, 50, true, 110, 105), decision{move: true, winX: 80, winY: 105}},
		{win(50, 50, false, 80, 105), decision{save: true}},
		// A tap: press and release within the threshold.
		{win(45, 30, true, 80, 105), decision{}},
		{win(47, 31, false, 80, 105), decision{tap: true, tapX: 45, tapY: 30}},
		// A press beside her (pass-through lagged a tick): ignored, no
		// drag, no tap, and it keeps the pointer until released.
		{win(5, 5, true, 80, 105), decision{}},
		{win(30, 40, true, 80, 105), decision{}},
		{win(30, 40, false, 80, 105), decision{passThrough: true}},
		// Right-click on her toggles always-on-top, with Shift it quits;
		// beside her (where it reached the window anyway) nothing.
		{input{x: 50, y: 50, right: true}, decision{toggleFloating: true}},
		{input{x: 50, y: 50, right: true, shift: true}, decision{quit: true}},
		{input{x: 5, y: 5, right: true}, decision{passThrough: true}},
		// Keys work anywhere.
		{input{x: 5, y: 5, float: true}, decision{passThrough: true, toggleFloating: true}},
		{input{x: 5, y: 5, quit: true}, decision{passThrough: true, quit: true}},
	} {
		if got := c.tick(k.in, her); got != k.want {
			t.Errorf("tick %d %+v:\n got %+v\nwant %+v", i, k.in, got, k.want)
		}
	}
	// Where pass-through is not allowed (Wayland), clicks never pass.
	c = controller{passThrough: false}
	if d := c.tick(win(10, 10, false, 0, 0), her); d.passThrough {
		t.Error("pass-through without permission")
	}
}

func TestPassThroughAllowed(t *testing.T) {
	for _, c := range []struct {
		mode          PassThroughMode
		goos, wayland string
		want          bool
	}{
		{PassThroughAuto, "linux", "", true},
		{PassThroughAuto, "linux", "wayland-0", false},
		{PassThroughAuto, "windows", "", true},
		{PassThroughAuto, "darwin", "", true},
		{PassThroughOn, "linux", "wayland-0", true},
		{PassThroughOff, "windows", "", false},
	} {
		if got := passThroughAllowed(c.mode, c.goos, c.wayland); got != c.want {
			t.Errorf("passThroughAllowed(%v, %s, %q) = %v, want %v", c.mode, c.goos, c.wayland, got, c.want)
		}
	}
}

// TestPositionFile: the position survives a write and a read, in a folder
// made for it; bad, oversized and missing files give errors; a position
// off the monitor comes back onto it.
func TestPositionFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "sub", "mascot.json")
	if _, err := readPosition(name); err == nil {
		t.Error("missing file read")
	}
	if err := writePosition(name, position{-12, 345}); err != nil {
		t.Fatal(err)
	}
	if p, err := readPosition(name); err != nil || p != (position{-12, 345}) {
		t.Errorf("read %+v, %v, want {-12 345}", p, err)
	}
	for _, bad := range []string{`{"X":1,"Y":"a"}`, `{"X":1,"Z":2}`, `[`, string(make([]byte, 2000))} {
		if err := os.WriteFile(name, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readPosition(name); err == nil {
			t.Errorf("%.20q read without error", bad)
		}
	}
	// A 200×400 window on a 1920×1080 monitor: at least half its width
	// (100), its top edge and a quarter of its height (100) stay on it.
	for _, c := range []struct{ in, want position }{
		{position{300, 200}, position{300, 200}},
		{position{-500, -50}, position{-100, 0}},
		{position{5000, 5000}, position{1820, 980}},
	} {
		if got := clampPosition(c.in, 200, 400, 1920, 1080); got != c.want {
			t.Errorf("clampPosition(%+v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// FuzzParsePosition: any content gives a position or an error, never a
// panic, and a position read back is the one written.
func FuzzParsePosition(f *testing.F) {
	f.Add([]byte(`{"X":-12,"Y":345}`))
	f.Add([]byte(`{"X":1e30}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePosition(data)
		if err != nil {
			return
		}
		name := filepath.Join(t.TempDir(), "p.json")
		if err := writePosition(name, p); err != nil {
			t.Fatal(err)
		}
		if q, err := readPosition(name); err != nil || q != p {
			t.Errorf("%+v written, %+v, %v read", p, q, err)
		}
	})
}
