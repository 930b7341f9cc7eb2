// Package shaders holds the Kage sources of the ebitenp2l renderer.
//
// The sources are embedded .kage files: mesh.kage (draws with a
// fixed-function blend, masked or not, clears and copies), composite.kage
// (blend modes that read the backdrop), coverage.kage (mask coverage
// renders) and sample.kage (the filtering, colour and mask functions all
// use, appended to each). They are in pixel units (//kage:unit pixels).
// ebitenp2l compiles each once per process; compiling a source twice would
// give two *ebiten.Shader values, and draws with different shaders never
// batch.
package shaders

import _ "embed"

var (
	//go:embed mesh.kage
	mesh []byte
	//go:embed composite.kage
	composite []byte
	//go:embed coverage.kage
	coverage []byte
	//go:embed sample.kage
	sample []byte
)

// Mesh returns the complete source of the fixed-function program.
func Mesh() []byte { return join(mesh, sample) }

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
