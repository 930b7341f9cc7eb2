// Command mascot puts the default character on the desktop: no window
// around her, always on top, dragged with the left button, clicks beside
// her pass through to the desktop, a tap on her head or body plays a
// reaction, and she greets you with the bundled speech. Right-click
// toggles always-on-top; Shift+right-click, Q or Esc quit. Package
// ebitenp2l/mascot says which platforms let clicks through.
package main

import (
	"log"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/ebitenp2l/mascot"
)

func main() {
	model, err := assets.DefaultModel()
	if err != nil {
		log.Fatal(err)
	}
	err = mascot.Run(ebitenp2l.NewCharacter(model), &mascot.Options{
		Greeting: "Greeting", // played at start, with its voice
		Voices:   map[string][]byte{"Greeting": assets.Speech},
	})
	if err != nil {
		log.Fatal(err)
	}
}
