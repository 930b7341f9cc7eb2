package ebitenp2l

import (
	"os"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// The tests run inside Ebitengine's game loop, as Ebitengine's own
// internal/testing.MainWithRunLoop arranges: m.Run runs on its own goroutine
// and every piece of GPU work is handed to the loop with onGame, which runs
// it inside Update. Unlike running m.Run inside one Update, frames keep
// ending, so Ebitengine flushes and recycles its command queue as in a game:
// benchmarks measure steady frames.
type testGame struct {
	m     *testing.M
	code  int
	start bool
	done  chan struct{}
}

var jobs = make(chan func())

func (g *testGame) Update() error {
	if !g.start {
		g.start = true
		go func() {
			g.code = g.m.Run()
			close(g.done)
		}()
	}
	// One job per frame: a benchmark iteration is one frame.
	select {
	case f := <-jobs:
		f()
	case <-g.done:
		return ebiten.Termination
	}
	return nil
}

func (*testGame) Draw(*ebiten.Image) {}

func (*testGame) Layout(int, int) (int, int) { return 320, 240 }

// onGame runs f inside the game loop's Update and waits for it. f must not
// call t.Fatal (FailNow must run on the test's goroutine); use t.Error.
func onGame(f func()) {
	done := make(chan struct{})
	jobs <- func() {
		defer close(done)
		f()
	}
	<-done
}

func TestMain(m *testing.M) {
	counters = &testCounters{}
	g := &testGame{m: m, code: 1, done: make(chan struct{})}
	ebiten.SetWindowSize(320, 240)
	ebiten.SetVsyncEnabled(false)
	ebiten.SetTPS(ebiten.SyncWithFPS)
	if err := ebiten.RunGame(g); err != nil {
		panic(err)
	}
	os.Exit(g.code)
}
