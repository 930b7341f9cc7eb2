package ebitenp2l

import (
	"os"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// testGame runs the test binary inside Ebitengine's game loop, as
// Ebitengine's own internal/testing.MainWithRunLoop does: pixels can only be
// read back (ReadPixels, At) while the loop runs.
type testGame struct {
	m    *testing.M
	code int
}

func (g *testGame) Update() error {
	g.code = g.m.Run()
	return ebiten.Termination
}

func (*testGame) Draw(*ebiten.Image) {}

func (*testGame) Layout(int, int) (int, int) { return 320, 240 }

func TestMain(m *testing.M) {
	g := &testGame{m: m, code: 1}
	ebiten.SetWindowSize(320, 240)
	if err := ebiten.RunGame(g); err != nil {
		panic(err)
	}
	os.Exit(g.code)
}
