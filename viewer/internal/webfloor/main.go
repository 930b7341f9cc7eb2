// Command webfloor is the floor of the browser frame-time measurement
// (cd viewer/web && go test -run FrameTimes -args -frametimes): an Ebitengine
// game that only fills its screen with the viewer's background, so that
// the viewer's frame time can be given as a ratio to the cost of an empty
// Ebitengine frame in the same browser.
package main

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
)

type game struct{}

func (game) Update() error { return nil }

func (game) Draw(screen *ebiten.Image) { screen.Fill(color.RGBA{234, 239, 247, 255}) }

func (game) Layout(w, h int) (int, int) { return w, h }

func main() {
	if err := ebiten.RunGame(game{}); err != nil {
		panic(err)
	}
}
