// Command talk makes the default character say the bundled sentence with
// her mouth following the sound: its level opens the mouth and its vowels
// (A, I, U, E, O, from the formants) shape it. Click to say it again.
// Without a sound device the mouth follows the elapsed time (the log says
// so once).
package main

import (
	"fmt"
	"image/color"
	"log"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/ebitenp2l/sound"
	"github.com/psd2live/p2l-ebiten/p2l"
)

const sampleRate = 44100

type game struct {
	hero  *ebitenp2l.Character
	voice *ebitenp2l.Voice
	quiet int // ticks since the voice ended
}

// speak plays the bundled speech (OGG Vorbis) through the character.
func (g *game) speak() error {
	stream, err := sound.Decode(assets.Speech, sampleRate)
	if err != nil {
		return err
	}
	g.voice, err = ebitenp2l.NewVoice(g.hero, stream, nil)
	return err
}

func (g *game) Update() error {
	x, y := ebiten.CursorPosition()
	g.hero.LookAtScreen(float64(x), float64(y))
	if !g.voice.Playing() {
		g.quiet++
	}
	// Say it again on a click, or after two quiet seconds.
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) || g.quiet > 2*ebiten.TPS() {
		if err := g.speak(); err != nil {
			return err
		}
		g.quiet = 0
	}
	g.hero.Update(1 / float64(ebiten.TPS())) // also moves the mouth with the voice
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.RGBA{0xf4, 0xee, 0xe8, 0xff})
	var op ebitenp2l.DrawOptions
	op.GeoM.Scale(0.5, 0.5)
	g.hero.Draw(screen, &op)
	f := g.voice.Last()
	vowel, w := "-", float32(0.3)
	for k, x := range f.Vowels {
		if x > w {
			vowel, w = string("AIUEO"[k]), x
		}
	}
	msg := fmt.Sprintf("level %.2f  vowel %s  F1 %4.0f Hz  F2 %4.0f Hz", f.Level, vowel, f.Formants.F1, f.Formants.F2)
	if silent, why := g.voice.Silent(); silent {
		msg += "\nsilent: " + why
	}
	ebitenutil.DebugPrintAt(screen, msg, 8, 8)
}

func (g *game) Layout(int, int) (int, int) { return 500, 600 }

func main() {
	model, err := assets.DefaultModel()
	if err != nil {
		log.Fatal(err)
	}
	g := &game{hero: ebitenp2l.NewCharacter(model)}
	g.hero.Rig().SetBehaviors(p2l.BehaviorBlink | p2l.BehaviorBreath | p2l.BehaviorLookAt)
	if err := g.speak(); err != nil {
		log.Fatal(err)
	}
	ebiten.SetWindowSize(500, 600)
	ebiten.SetWindowTitle("talk")
	if err := ebiten.RunGame(g); err != nil {
		log.Fatal(err)
	}
}
