// Command viewer opens a character in a window: a .p2lrt, or a Cubism
// model (its NAME.model3.json, its folder or a zip of it); the embedded
// default character when no file is given.
//
//	go run ./viewer [flags] [FILE.p2lrt | NAME.model3.json | FOLDER | FILE.zip]
//
// Drop any of these on the window to open it (or a Cubism model's files
// together), or a WAV/OGG/MP3 file to make the character speak it. The left window holds the parameter sliders (from the
// model's PGUI tree), the right one clips, expressions, pose, behaviors,
// advanced mode, lip sync and view settings. The character looks at the
// mouse; clicking a hit area shows its name and plays a reaction clip; the
// wheel zooms and the right button pans.
//
// The same program runs in browsers (make web; docs/WEB.md): there the
// page's query parameters are the flags, and files can also be chosen in
// the page's file picker.
//
// Flags:
//
//	-screenshot out.png  render -frames frames (fixed 1/60 s steps) and save
//	                     the last one, then exit
//	-frames N            frames before the screenshot (default 60)
//	-lookat x,y          fix the look-at target (−1..1, right and up)
//	-noui                hide the UI windows
//	-bare                only the character: no UI windows and no text; in
//	                     a browser no file bar either, and the page is
//	                     transparent around her; messages go to the
//	                     standard error (the browser's console)
//	-noaudio             no audio output; lip sync runs on a silent clock
//	                     (also NO_AUDIO=1, and automatic without a device)
//	-clip ID             play a clip at start
//	-expression ID       show an expression at start
//	-speak               play the bundled speech clip at start
//	-size WxH            window size (default 1280x800)
//	-model FILE          the model to open, as the argument; in a browser the
//	                     page's ?model=URL (relative to the page): a .p2lrt,
//	                     a NAME.model3.json or a zip, with the files they
//	                     name fetched beside them
//	-mascot              the character on the desktop instead: a transparent,
//	                     undecorated, always-on-top window fitted to her
//	                     (package ebitenp2l/mascot; -size's height is the
//	                     window's when given; with -screenshot the window's
//	                     pixels are saved, transparent beside her, and its
//	                     state printed)
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
)

func main() { os.Exit(exitCode(run(os.Args[1:]), os.Stderr)) }

// exitCode prints err and returns the process exit code: 0 without an
// error and for -h (the usage was printed), 1 otherwise (a screenshot
// whose model failed to load included).
func exitCode(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "viewer:", err)
	return 1
}

func run(args []string) error {
	fs := flag.NewFlagSet("viewer", flag.ContinueOnError)
	var o options
	var look, size string
	fs.StringVar(&o.screenshot, "screenshot", "", "save a screenshot to this PNG file after -frames frames and exit")
	fs.IntVar(&o.frames, "frames", 60, "frames to run before the screenshot")
	fs.StringVar(&look, "lookat", "", "fixed look-at target x,y in [-1, 1] instead of the mouse")
	fs.BoolVar(&o.noUI, "noui", false, "hide the UI")
	fs.BoolVar(&o.bare, "bare", false, "only the character: no UI and no text (for a page that embeds the viewer); messages go to the standard error")
	fs.BoolVar(&o.noAudio, "noaudio", false, "no audio output (lip sync on a silent clock)")
	fs.BoolVar(&o.speak, "speak", false, "play the bundled speech at start")
	fs.StringVar(&size, "size", "1280x800", "window size WxH")
	fs.StringVar(&o.clip, "clip", "", "clip id to play at start")
	fs.StringVar(&o.expression, "expression", "", "expression id to show at start")
	fs.BoolVar(&o.mascot, "mascot", false, "put the character on the desktop (transparent, undecorated, always-on-top window)")
	fs.StringVar(&o.file, "model", "", "the model to open, as the argument (in a browser, ?model=URL: a URL relative to the page)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: viewer [flags] [model.p2lrt | NAME.model3.json | folder | zip]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 1 || (fs.NArg() == 1 && o.file != "") {
		return fmt.Errorf("one model file at most (the argument or -model)")
	}
	if fs.NArg() == 1 {
		o.file = fs.Arg(0)
	}
	if look != "" {
		var x, y float32
		if _, err := fmt.Sscanf(look, "%g,%g", &x, &y); err != nil {
			return fmt.Errorf("-lookat %q: want x,y", look)
		}
		o.lookAt = &[2]float32{x, y}
	}
	if _, err := fmt.Sscanf(size, "%dx%d", &o.width, &o.height); err != nil || o.width < 64 || o.height < 64 || o.width > 8192 || o.height > 8192 {
		return fmt.Errorf("-size %q: want WxH between 64 and 8192", size)
	}
	if o.frames < 1 {
		return fmt.Errorf("-frames %d: want at least 1", o.frames)
	}
	sizeGiven := false
	fs.Visit(func(f *flag.Flag) { sizeGiven = sizeGiven || f.Name == "size" })
	g, err := newGame(o)
	if err != nil {
		return err
	}
	if o.mascot {
		return runMascot(g, sizeGiven)
	}
	ebiten.SetWindowSize(o.width, o.height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	if o.screenshot != "" {
		// Run as fast as possible; the steps are fixed anyway.
		ebiten.SetVsyncEnabled(false)
		ebiten.SetTPS(ebiten.SyncWithFPS)
	}
	return ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{ScreenTransparent: g.transparent})
}
