// Package evalfloor is the memory floor of an evaluation, for benchmarks
// (docs/PERFORMANCE.md, "Evaluation" and "Cubism models"): one pass that
// reads, from one contiguous buffer, as many bytes as an evaluation of a
// model at a pose must read — rest positions and the keyform cells of the
// mesh and warp grids its parameters select: one cell per axis on a key,
// two between keys — and writes the evaluated vertices once (8 bytes per
// vertex). Deformer, parameter, blend-shape and index data are not
// counted, so it is a lower bound of what an evaluation that recomputes
// everything does.
package evalfloor

import (
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// KeyformBytes counts the keyform bytes one evaluation of m at pose reads:
// rest positions plus every present cell of the mesh and warp grids whose
// keys bracket the pose (a value on a key reads that key's cell only).
func KeyformBytes(m *p2l.Model, pose []float32) int {
	used := func(axes []p2lrt.Axis, coord []uint16) bool {
		for a, ax := range axes {
			k := int(coord[a])
			v := pose[ax.Parameter]
			lo := 0
			for lo+1 < len(ax.Keys) && ax.Keys[lo+1] <= v {
				lo++
			}
			if k != lo && (k != lo+1 || v == ax.Keys[lo]) {
				return false // a value on a key reads that key's cell only
			}
		}
		return true
	}
	n := 0
	for _, me := range m.Meshes().All() {
		n += 4 * len(me.Positions)
		if me.Keyforms == nil {
			continue
		}
		for _, c := range me.Keyforms.Cells {
			if used(me.Keyforms.Axes, c.Coord) {
				n += 4 * len(c.Value)
			}
		}
	}
	for _, d := range m.Deformers().All() {
		if d.Warp == nil {
			continue
		}
		for _, c := range d.Warp.Keyforms.Cells {
			if used(d.Warp.Keyforms.Axes, c.Coord) {
				n += 4 * len(c.Value)
			}
		}
	}
	return n
}

// Floor holds the buffers of the floor pass of one model at one pose.
type Floor struct {
	in, out []float32
}

// New returns the floor of evaluating m at pose.
func New(m *p2l.Model, pose []float32) *Floor {
	in := make([]float32, KeyformBytes(m, pose)/4)
	for i := range in {
		in[i] = float32(i & 1023)
	}
	nv := 0
	for _, me := range m.Meshes().All() {
		nv += len(me.Positions)
	}
	return &Floor{in: in, out: make([]float32, nv)}
}

// Bytes is how many bytes a pass reads and writes.
func (f *Floor) Bytes() int { return 4 * (len(f.in) + len(f.out)) }

// Pass reads the input buffer (four independent sums) and writes every
// output float once; its result keeps the compiler from dropping it.
func (f *Floor) Pass() float64 {
	in, out := f.in, f.out
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(in); j += 4 {
		s0 += float64(in[j])
		s1 += float64(in[j+1])
		s2 += float64(in[j+2])
		s3 += float64(in[j+3])
	}
	k := float32(s0 + s1 + s2 + s3)
	for i := range out {
		out[i] = k
	}
	if len(out) == 0 {
		return float64(k)
	}
	return float64(out[len(out)-1])
}
