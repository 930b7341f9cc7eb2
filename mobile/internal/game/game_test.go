package game

import (
	"image/color"
	"os"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/mobile/internal/core"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// The game is checked in a real Ebitengine loop (run the tests under
// xvfb-run -a without a display): TestMain runs a scripted harness around
// the Game for a few hundred ticks, recording what each frame showed, and
// the tests then examine the record.

// frame is what one Draw left on the screen at pixel (1, 1).
type frame struct {
	tick int // ticks so far
	px   color.RGBA
}

type harness struct {
	g          *Game
	c          *core.Core
	ticks      int
	frames     []frame
	paint      bool  // paint a red marker after the next Draw
	paintTicks []int // ticks at which markers were painted
	marker     *ebiten.Image
	layoutW    int
	layoutH    int
	isChar     bool
	loadErr    error
	shoot      bool
	shot       []byte // RGBA of the screen at tickShot
	shotW      int
	loadTime   time.Duration
}

// Script (ticks at 60 TPS): the model loads at tick 0 with a blue
// background and idle rate 0. Until 2 s (1.5 s of wake after loading, then
// 0.5 s quiet) every tick redraws; after that nothing changes, so the game
// skips drawing and the screen keeps its content. At tick 60 and tick 200
// the harness paints a red marker over the frame it just drew; at tick 230
// the background turns green; at tick 260 the default character is loaded
// and at tick 270 the screen is read back.
const (
	tickPaintAwake = 60
	tickPaintIdle  = 200
	tickGreen      = 230
	tickLoad       = 260 // the default character replaces the empty model
	tickShot       = 270 // the screen is read back
	tickEnd        = 275
)

var h = &harness{}

func (h *harness) setup() error {
	h.c = core.New()
	h.g = New(h.c)
	if err := h.c.SetModel(synth.MustModel(&p2lrt.File{Canvas: p2lrt.Canvas{Width: 100, Height: 100}, Draw: p2lrt.DrawGroup{Part: -1}})); err != nil {
		return err
	}
	h.c.SetViewSize(100, 100)
	h.c.Draw(func(m *p2l.Model, r core.Rig, t core.Transform, bg core.Color) {
		_, h.isChar = core.CompanionOf(r).(*ebitenp2l.Character)
	})
	_ = h.c.SetBackground(0, 0, 1, 1)
	_ = h.c.SetIdleRate(0)
	h.marker = ebiten.NewImage(4, 4)
	h.marker.Fill(color.RGBA{R: 255, A: 255})
	return nil
}

func (h *harness) Update() error {
	switch h.ticks {
	case tickPaintAwake, tickPaintIdle:
		h.paint = true
	case tickGreen:
		_ = h.c.SetBackground(0, 1, 0, 1)
	case tickLoad:
		start := time.Now()
		h.loadErr = h.c.Load(assets.DefaultModelBytes)
		h.loadTime = time.Since(start)
	case tickShot:
		h.shoot = true
	case tickEnd:
		return ebiten.Termination
	}
	h.ticks++
	return h.g.Update()
}

func (h *harness) Draw(screen *ebiten.Image) {
	h.g.Draw(screen)
	if h.shoot && h.shot == nil {
		b := screen.Bounds()
		h.shot = make([]byte, 4*b.Dx()*b.Dy())
		screen.ReadPixels(h.shot)
		h.shotW = b.Dx()
	}
	px := screen.At(1, 1).(color.RGBA)
	h.frames = append(h.frames, frame{tick: h.ticks, px: px})
	if h.paint {
		screen.DrawImage(h.marker, nil)
		h.paint = false
		h.paintTicks = append(h.paintTicks, h.ticks)
	}
}

func (h *harness) Layout(w, ht int) (int, int) {
	h.layoutW, h.layoutH = h.g.Layout(w, ht)
	return h.layoutW, h.layoutH
}

func TestMain(m *testing.M) {
	ebiten.SetWindowSize(320, 240)
	if err := h.setup(); err != nil {
		panic(err)
	}
	if err := ebiten.RunGame(h); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

var (
	blue  = color.RGBA{B: 255, A: 255}
	red   = color.RGBA{R: 255, A: 255}
	green = color.RGBA{G: 255, A: 255}
)

func TestRigComesFromCharacter(t *testing.T) {
	if !h.isChar {
		t.Error("the loaded model's rig is not an ebitenp2l.Character's")
	}
}

func TestLayoutAndBackground(t *testing.T) {
	// Xvfb's device scale factor is 1: layout = outside size.
	if h.layoutW != 320 || h.layoutH != 240 {
		t.Errorf("layout %d×%d, want 320×240", h.layoutW, h.layoutH)
	}
	if len(h.frames) < 100 {
		t.Fatalf("only %d frames", len(h.frames))
	}
	if f := h.frames[5]; f.px != blue {
		t.Errorf("frame 5 pixel %v, want the blue background", f.px)
	}
}

func TestIdleFramesAreNotRedrawn(t *testing.T) {
	// Draw may run several times per tick; a redraw can only follow a tick.
	// The marker is painted during a Draw of tick p (p = the tick count when
	// painted); frames of later ticks show whether the game redrew.
	var awake, idle []color.RGBA
	for _, f := range h.frames {
		switch {
		case f.tick > h.paintTicks[0] && f.tick < h.paintTicks[1]:
			awake = append(awake, f.px)
		case f.tick > h.paintTicks[1] && f.tick < tickGreen:
			idle = append(idle, f.px)
		}
	}
	// While awake every tick redraws: the marker is gone.
	if len(awake) == 0 || awake[0] != blue {
		t.Errorf("awake: first frame of the next tick after the marker shows %v, want blue (redrawn)", awake[:min(len(awake), 1)])
	}
	// Idle with rate 0: no redraw, the marker stays on every later frame.
	if len(idle) < 10 {
		t.Fatalf("only %d idle frames recorded", len(idle))
	}
	for i, px := range idle {
		if px != red {
			t.Fatalf("idle frame %d shows %v, want the red marker kept (not redrawn)", i, px)
		}
	}
	// A background change redraws.
	if last := h.frames[len(h.frames)-1]; last.px != green {
		t.Errorf("after SetBackground: %v, want green", last.px)
	}
}

// TestDrawsCharacterInItsBox: the default character (canvas 1000×1200) in
// the 320×240 view is scaled by min(320/1000, 240/1200) = 0.2 into a
// 200×240 box centred horizontally, x ∈ [60, 260). Inside the box the
// character covers a good part of the green background; outside it (the
// letterbox) every pixel is background.
func TestDrawsCharacterInItsBox(t *testing.T) {
	if h.loadErr != nil {
		t.Fatal(h.loadErr)
	}
	if h.shot == nil || h.shotW != 320 {
		t.Fatalf("no screenshot (width %d)", h.shotW)
	}
	inside, outside := 0, 0
	for i := 0; i+3 < len(h.shot); i += 4 {
		x := (i / 4) % h.shotW
		px := color.RGBA{h.shot[i], h.shot[i+1], h.shot[i+2], h.shot[i+3]}
		if px == green {
			continue
		}
		if x >= 60 && x < 260 {
			inside++
		} else {
			outside++
		}
	}
	if outside != 0 {
		t.Errorf("%d pixels drawn outside the character's box", outside)
	}
	if inside < 200*240/20 {
		t.Errorf("only %d character pixels in the 200×240 box, want at least 5%%", inside)
	}
	t.Logf("character pixels: %d of %d in the box; LoadModel took %v", inside, 200*240, h.loadTime)
}
