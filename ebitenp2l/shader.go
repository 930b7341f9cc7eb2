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
	// meshShaders[s][l][m] is the mesh program with (s = 1) or without
	// the screen colour, with (l = 1) or without the group-layer source
	// and with (m = 1) or without the mask read (shaders.Mesh): a call
	// takes the smallest variant its vertices need (meshVariantFor), which
	// draws the same pixels with fewer texel fetches and, without the
	// screen colour, fewer values per vertex.
	meshShaders     [2][2][2]meshVariant
	compositeShader *ebiten.Shader
	coverageShader  *ebiten.Shader
	shaderErr       error
)

// meshVariant is a variant of the mesh program and how its vertices carry
// their colour words (meshWords).
type meshVariant struct {
	shader *ebiten.Shader
	packed bool // no screen colour; flags and opacity packed in ColorA
	// position: Custom0 and Custom1 carry the vertex's target-local
	// position (a packed masked variant's mask read).
	position bool
}

// meshVariantFor returns the mesh program variant for a call that has
// vertices with a screen colour or an opacity above 1 (screen), with the
// layer flag (layer) and masked vertices (masked).
func meshVariantFor(screen, layer, masked bool) meshVariant {
	return meshShaders[b2i(screen)][b2i(layer)][b2i(masked)]
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
		for s := range 2 {
			for l := range 2 {
				for m := range 2 {
					v := &meshShaders[s][l][m]
					v.packed = s == 0
					v.position = v.packed && m == 1
					src := shaders.Mesh(l == 1, m == 1, s == 1)
					if v.shader, shaderErr = compile(fmt.Sprintf("mesh (screen %d, layer %d, masked %d)", s, l, m), src); shaderErr != nil {
						return
					}
				}
			}
		}
		if compositeShader, shaderErr = compile("composite", shaders.Composite()); shaderErr != nil {
			return
		}
		coverageShader, shaderErr = compile("coverage", shaders.Coverage())
	})
	return shaderErr
}

func compile(name string, src []byte) (*ebiten.Shader, error) {
	s, err := ebiten.NewShader(src)
	if err != nil {
		return nil, fmt.Errorf("ebitenp2l: compiling %s shader: %w", name, err)
	}
	return s, nil
}

// meshProgram returns the mesh program variant for batch b of target t:
// with the screen colour if a member needs it (op.needsScreen), with the
// layer source if a member reads a group layer, with the mask read if a
// member it draws is masked (masked members of a target whose coverage
// did not fit are not drawn). place keeps the members' needs in the batch
// as the ops join it.
func meshProgram(t *target, b *batch) meshVariant {
	return meshVariantFor(b.screen, b.layer, t.covOK && b.masked)
}

// readsLayer and slot decode an op's vertex flags as the programs decode
// them (shaders/sample.kage: bit, mask): whether it samples a group's
// layer, and its coverage slot (0: unmasked).
func (o *op) readsLayer() bool { return int(o.col[7])/flagLayer%2 == 1 }

func (o *op) slot() int { return int(o.col[7]) / flagSlot % 256 }

// needsScreen reports whether op o needs a mesh program variant that reads
// the custom data: it has a screen colour, or an opacity that the packed
// colour words cannot hold (above 1; meshWords).
func (o *op) needsScreen() bool {
	return o.col[4] != 0 || o.col[5] != 0 || o.col[6] != 0 || !(o.col[3] <= 1)
}
