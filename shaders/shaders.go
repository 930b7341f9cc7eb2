// Package shaders holds the Kage sources of the ebitenp2l renderer.
//
// The sources are embedded .kage files: mesh.kage (plain draws: no uniform,
// hardware blending), composite.kage (mask coverage and backdrop-reading
// blend modes) and sample.kage (the filtering and color functions both use,
// appended to each). They are in pixel units (//kage:unit pixels). ebitenp2l
// compiles each once per process; compiling a source twice would give two
// *ebiten.Shader values, and draws with different shaders never batch.
package shaders

import _ "embed"

var (
	//go:embed mesh.kage
	mesh []byte
	//go:embed composite.kage
	composite []byte
	//go:embed sample.kage
	sample []byte
)

// Mesh returns the complete source of the plain shader.
func Mesh() []byte { return join(mesh, sample) }

// Composite returns the complete source of the compositing shader.
func Composite() []byte { return join(composite, sample) }

func join(a, b []byte) []byte {
	s := make([]byte, 0, len(a)+len(b)+1)
	s = append(s, a...)
	s = append(s, '\n')
	return append(s, b...)
}
