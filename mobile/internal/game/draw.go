package game

import (
	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/mobile/internal/core"
	"github.com/psd2live/p2l-ebiten/p2l"
)

type p2lModel = p2l.Model

// artist draws the rig's pose. This is the one place that knows the
// renderer.
//
// PENDING: ebitenp2l (the "ebiten" helper's package) has not landed; until
// it does, the character itself is not drawn, only the background.
type artist struct{}

func (a *artist) draw(dst *ebiten.Image, m *p2l.Model, r *p2l.Rig, t core.Transform) {
}
