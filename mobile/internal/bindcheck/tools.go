//go:build tools

// Package bindcheck pins the gomobile binding generator and ebitenmobile
// used by check.sh and docs/MOBILE.md. It is a separate module so that the
// golang.org/x/tools bump that Go 1.26 needs (the version gomobile and
// ebiten v2.8.8 pin, v0.25.0, does not compile with it) does not reach the
// main module.
package bindcheck

import (
	_ "github.com/ebitengine/gomobile/cmd/gobind"
	_ "github.com/ebitengine/gomobile/cmd/gomobile"
	_ "github.com/hajimehoshi/ebiten/v2/cmd/ebitenmobile"
)
