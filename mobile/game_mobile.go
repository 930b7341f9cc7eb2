//go:build android || ios || p2lmobilecheck

package mobile

import (
	ebitenmobile "github.com/hajimehoshi/ebiten/v2/mobile"

	"github.com/psd2live/p2l-ebiten/mobile/internal/game"
)

// init registers the character's game with the EbitenView. SetGame panics
// outside Android and iOS, hence the build constraint; the p2lmobilecheck
// tag only lets `go vet -tags p2lmobilecheck` type-check this file on the
// desktop (never run a binary built with it).
func init() {
	ebitenmobile.SetGame(game.New(std))
}
