package ebitenp2l

import (
	"fmt"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/shaders"
)

// The three programs are compiled once per process and shared by every
// character: draws with different *ebiten.Shader values never merge, even
// when their sources are equal.
var (
	shaderOnce      sync.Once
	meshShader      *ebiten.Shader
	compositeShader *ebiten.Shader
	coverageShader  *ebiten.Shader
	shaderErr       error
)

// loadShaders compiles the Kage programs on first use. A compile error is a
// bug in this package (the sources are fixed); it is kept and reported by
// every Draw through a panic with an ebitenp2l: prefix.
func loadShaders() error {
	shaderOnce.Do(func() {
		for _, s := range []struct {
			name string
			src  []byte
			dst  **ebiten.Shader
		}{
			{"mesh", shaders.Mesh(), &meshShader},
			{"composite", shaders.Composite(), &compositeShader},
			{"coverage", shaders.Coverage(), &coverageShader},
		} {
			var err error
			if *s.dst, err = ebiten.NewShader(s.src); err != nil {
				shaderErr = fmt.Errorf("ebitenp2l: compiling %s shader: %w", s.name, err)
				return
			}
		}
	})
	return shaderErr
}
