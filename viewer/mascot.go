package main

import (
	"fmt"
	"image"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l/mascot"
)

// runMascot shows the viewer's character on the desktop (-mascot): the
// model, texture pages, -clip, -expression and -speak as the viewer set
// them up, then package ebitenp2l/mascot. The default character greets
// with the bundled speech; any model plays its "Greeting" group, if it
// has one, at start. With -screenshot the mascot runs -frames frames, saves
// the window's pixels (transparent beside her) and prints the window's
// state, and keeps no position.
func runMascot(g *game, sizeGiven bool) error {
	o := &mascot.Options{
		Title:    "p2l mascot - " + g.name,
		Greeting: "Greeting",
		Silent:   g.opts.noAudio || g.opts.screenshot != "",
	}
	if sizeGiven {
		o.Height = g.opts.height
	}
	if g.name == defaultName {
		o.Voices = map[string][]byte{"Greeting": assets.Speech}
	}
	var shotErr error
	if g.opts.screenshot != "" {
		o.Frames = g.opts.frames
		o.PositionFile = "-"
		o.Done = func(s mascot.State, img *image.RGBA) {
			fmt.Println("mascot window:", s)
			shotErr = writePNG(img, g.opts.screenshot)
		}
	}
	if err := mascot.Run(g.char, o); err != nil {
		return err
	}
	return shotErr
}
