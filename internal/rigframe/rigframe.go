// Package rigframe reads a rig's last evaluation through per-mesh methods:
// the shape of the frame interfaces of p2l/render and ebitenp2l, whose
// tests feed hand-made frames in its place (a rig's views, Rig.Mesh and
// Rig.Part, are concrete types a test cannot make).
package rigframe

import (
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Frame is a rig read method by method. A struct of one pointer, it goes
// into an interface without allocating.
type Frame struct{ *p2l.Rig }

func (f Frame) MeshVertices(i int) []float32 { return f.Mesh(i).Vertices() }
func (f Frame) MeshUVs(i int) []float32      { return f.Mesh(i).UVs() }
func (f Frame) MeshIndices(i int) []uint32   { return f.Mesh(i).Indices() }
func (f Frame) MeshOpacity(i int) float32    { return f.Mesh(i).Opacity() }
func (f Frame) MeshRevision(i int) uint64    { return f.Mesh(i).Revision() }
func (f Frame) MeshColors(i int) (multiply, screen p2lrt.Color) {
	return f.Mesh(i).Colors()
}
func (f Frame) GroupComposite(part int) p2lrt.Composite { return f.Part(part).Composite() }
