// Package shaders holds the Kage sources of the ebitenp2l renderer.
//
// The sources are embedded .kage files: mesh.kage (draws with a
// fixed-function blend, masked or not, clears and copies; its entry point
// is mesh_screen.kage, mesh_packed.kage or mesh_packed_masked.kage),
// composite.kage (blend modes that read the backdrop), coverage.kage (mask
// coverage renders) and sample.kage (the filtering, colour and mask
// functions all use, appended to each). They are in pixel units
// (//kage:unit pixels).
// ebitenp2l compiles each once per process; compiling a source twice would
// give two *ebiten.Shader values, and draws with different shaders never
// batch.
package shaders

import (
	_ "embed"
	"fmt"
)

var (
	//go:embed mesh.kage
	mesh []byte
	//go:embed mesh_screen.kage
	meshScreen []byte
	//go:embed mesh_packed.kage
	meshPacked []byte
	//go:embed mesh_packed_masked.kage
	meshPackedMasked []byte
	//go:embed composite.kage
	composite []byte
	//go:embed coverage.kage
	coverage []byte
	//go:embed sample.kage
	sample []byte
)

// Mesh returns the complete source of a variant of the fixed-function
// program: with layer, vertices flagged as reading a group layer read it
// (without, they sample the pages as every other vertex); with masked,
// masked vertices read their coverage (without, every vertex is drawn
// unmasked); with screen, the vertices carry a screen colour and the
// flags in their custom data (without, they carry no screen colour, the
// flags packed with the opacity, and, when masked, their target-local
// position in the custom data: mesh_packed.kage, mesh_packed_masked.kage).
// The full program is Mesh(true, true, true).
func Mesh(layer, masked, screen bool) []byte {
	consts := fmt.Sprintf("const meshLayer = %d\nconst meshMasked = %d\n", b2i(layer), b2i(masked))
	entry := meshPacked
	switch {
	case screen:
		entry = meshScreen
	case masked:
		entry = meshPackedMasked
	}
	return join(join(join(mesh, entry), sample), []byte(consts))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Composite returns the complete source of the compositing program.
func Composite() []byte { return join(composite, sample) }

// Coverage returns the complete source of the mask coverage program.
func Coverage() []byte { return join(coverage, sample) }

func join(a, b []byte) []byte {
	s := make([]byte, 0, len(a)+len(b)+1)
	s = append(s, a...)
	s = append(s, '\n')
	return append(s, b...)
}
