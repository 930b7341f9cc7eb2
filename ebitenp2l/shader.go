package ebitenp2l

import (
	"fmt"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/shaders"
)

// The programs are compiled once per process and shared by every
// character: draws with different *ebiten.Shader values never merge, even
// when their sources are equal.
var (
	shaderOnce sync.Once
	// meshShaders[l][m] is the mesh program with (l = 1) or without the
	// group-layer source and with (m = 1) or without the mask read
	// (shaders.Mesh): a call takes the smallest variant its vertices need
	// (meshShaderFor), which draws the same pixels with fewer texel
	// fetches.
	meshShaders     [2][2]*ebiten.Shader
	compositeShader *ebiten.Shader
	coverageShader  *ebiten.Shader
	shaderErr       error
)

// meshShaderFor returns the mesh program variant for a call that has
// vertices with the layer flag (layer) and masked vertices (masked).
func meshShaderFor(layer, masked bool) *ebiten.Shader {
	return meshShaders[b2i(layer)][b2i(masked)]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

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
			{"mesh", shaders.Mesh(false, false), &meshShaders[0][0]},
			{"mesh (masked)", shaders.Mesh(false, true), &meshShaders[0][1]},
			{"mesh (layer)", shaders.Mesh(true, false), &meshShaders[1][0]},
			{"mesh (layer, masked)", shaders.Mesh(true, true), &meshShaders[1][1]},
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

// meshProgram returns the mesh program variant for batch b of target t:
// with the layer source if a member reads a group layer, with the mask
// read if a member it draws is masked (masked members of a target whose
// coverage did not fit are not drawn). place keeps both of the members'
// flags in the batch as the ops join it.
func meshProgram(t *target, b *batch) *ebiten.Shader {
	return meshShaderFor(b.layer, t.covOK && b.masked)
}

// readsLayer and slot decode an op's vertex flags as the programs decode
// them (shaders/sample.kage: bit, mask): whether it samples a group's
// layer, and its coverage slot (0: unmasked).
func (o *op) readsLayer() bool { return int(o.col[7])/flagLayer%2 == 1 }

func (o *op) slot() int { return int(o.col[7]) / flagSlot % 256 }
