// Package assets embeds the default p2l-ebiten character and a short speech
// clip for lip sync.
//
// The character is generated: assets/internal/character paints its textures
// with golang.org/x/image/vector and builds its rig in code, and
// assets/internal/gen writes default.p2lrt. Regenerate it after changing the
// generator with
//
//	go generate ./assets
//
// A test rebuilds the model and fails if the committed file differs.
package assets

import (
	_ "embed"

	"github.com/psd2live/p2l-ebiten/p2l"
)

//go:generate go run ./internal/gen

// DefaultModelBytes is the default character as a .p2lrt file.
//
//go:embed default.p2lrt
var DefaultModelBytes []byte

// Speech is a short spoken sentence (OGG Vorbis, 22.05 kHz mono) made with
// espeak-ng, for lip-sync demos; see LICENSES.md.
//
//go:embed speech.ogg
var Speech []byte

// DefaultModel loads the embedded default character. Each call returns a new
// Model; load it once and share it.
func DefaultModel() (*p2l.Model, error) {
	return p2l.Load(DefaultModelBytes)
}
