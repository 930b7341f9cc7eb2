package game

import (
	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/ebitenp2l"
	"github.com/psd2live/p2l-ebiten/mobile/internal/core"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// This file is the one place that knows the renderer.

// newCharacter is the core's rig maker: the model's rig is an
// ebitenp2l.Character's, so that the game can draw what the core animates.
// The character's own Update is never called; the core updates its rig.
func newCharacter(m *p2l.Model) (*p2l.Rig, core.Companion, error) {
	ch := ebitenp2l.NewCharacter(m)
	return ch.Rig(), ch, nil
}

// drawCharacter draws r's last pose into dst through the canvas-to-view
// transform t.
func drawCharacter(dst *ebiten.Image, r core.Rig, t core.Transform) {
	ch, ok := core.CompanionOf(r).(*ebitenp2l.Character)
	if !ok {
		return
	}
	var opts ebitenp2l.DrawOptions
	opts.GeoM.Scale(t.Scale, t.Scale)
	opts.GeoM.Translate(t.X, t.Y)
	ch.Draw(dst, &opts)
}
