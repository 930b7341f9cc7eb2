module github.com/psd2live/p2l-ebiten/mobile/internal/bindcheck

go 1.26.0

require (
	github.com/ebitengine/gomobile v0.0.0-20240911145611-4856209ac325
	github.com/hajimehoshi/ebiten/v2 v2.8.8
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	golang.org/x/tools/go/packages/packagestest v0.1.1-deprecated // indirect
)
