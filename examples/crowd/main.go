// Command crowd draws 100 characters that share one model (its textures
// are on the GPU once), each with its own rig, clip and timing, through one
// ebitenp2l.Batch (side by side, they draw in about the calls of one), and
// shows the frame time. Click a character to make her react.
package main

import (
	"fmt"
	"image/color"
	"log"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/p2l"
)

const (
	cols, rows = 10, 10
	cell       = 96 // screen pixels per character
	scale      = cell / 1000.0
)

type game struct {
	crowd              []*ebitenp2l.Character
	batch              ebitenp2l.Batch // reused every frame
	update, draw       time.Duration   // of the last frame
	avgUpdate, avgDraw float64         // smoothed, milliseconds
}

func (g *game) Update() error {
	start := time.Now()
	x, y := ebiten.CursorPosition()
	click := inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	for _, c := range g.crowd {
		c.LookAtScreen(float64(x), float64(y))
		if click {
			c.Tap(float64(x), float64(y))
		}
		c.Update(1 / float64(ebiten.TPS()))
	}
	g.update = time.Since(start)
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	start := time.Now()
	screen.Fill(color.RGBA{0xe8, 0xec, 0xf2, 0xff})
	for i, c := range g.crowd {
		var op ebitenp2l.DrawOptions
		op.GeoM.Scale(scale, scale)
		op.GeoM.Translate(float64(i%cols*cell), float64(i/cols*cell)-8)
		g.batch.Add(c, &op)
	}
	g.batch.Draw(screen)
	g.draw = time.Since(start)
	if g.avgDraw == 0 { // first frame
		g.avgUpdate, g.avgDraw = g.update.Seconds()*1000, g.draw.Seconds()*1000
	}
	g.avgUpdate += (g.update.Seconds()*1000 - g.avgUpdate) * 0.05
	g.avgDraw += (g.draw.Seconds()*1000 - g.avgDraw) * 0.05
	ebitenutil.DebugPrintAt(screen, fmt.Sprintf("%d characters, one model   update %.2f ms   draw %.2f ms (CPU, %d calls)   FPS %.1f", len(g.crowd), g.avgUpdate, g.avgDraw, g.batch.DrawCalls(), ebiten.ActualFPS()), 8, rows*cell+4)
}

func (g *game) Layout(int, int) (int, int) { return cols * cell, rows*cell + 24 }

func main() {
	model, err := assets.DefaultModel() // loaded once, shared by all
	if err != nil {
		log.Fatal(err)
	}
	g := &game{}
	clips := []string{"Idle", "Greeting", "Nod", "Surprise"}
	for i := range cols * rows {
		c := ebitenp2l.NewCharacter(model)
		r := c.Rig()
		r.SetBehaviors(p2l.AllBehaviors)
		r.SetBehaviorSeed(uint64(i + 1))
		r.SetMotionSeed(uint64(i + 1))
		r.SetClipPose(true)
		if err := r.SetIdleGroup("Idle"); err != nil {
			log.Fatal(err)
		}
		clip := r.Model().ClipIndex(clips[i%len(clips)])
		if clip < 0 {
			log.Fatalf("no clip %q", clips[i%len(clips)])
		}
		r.Layer(0).Start(clip)
		r.Update(float64(i%17) * 0.37) // not all in step
		g.crowd = append(g.crowd, c)
	}
	ebiten.SetWindowSize(cols*cell, rows*cell+24)
	ebiten.SetWindowTitle("crowd")
	if err := ebiten.RunGame(g); err != nil {
		log.Fatal(err)
	}
}
