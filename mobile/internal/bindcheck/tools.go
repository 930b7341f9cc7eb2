//go:build tools

// Package bindcheck pins the gomobile binding generator used by
// check.sh. It is a separate module so that the x/tools bump that Go 1.26
// needs does not reach the main module.
package bindcheck

import _ "github.com/ebitengine/gomobile/cmd/gobind"
