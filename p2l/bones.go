package p2l

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// This file runs the arcs of the BONE chunk at hook H2 (exact links,
// FeatureExactLinks): a rotation deformer whose pivot is keyed on one
// parameter with every key on one circle moves between adjacent keys along
// the circle, by angle and radius, instead of along the chord the keyforms
// interpolate.

// arcRun is one arc ready to evaluate: the parameter, its keys and the
// pivot at each key, in the parent's space.
type arcRun struct {
	param  int
	keys   []float32
	px, py []float64
	cx, cy float64
}

// newArcRun reads the pivots of arc from its deformer's keyforms. It
// returns nil when the arc cannot apply: not a rotation deformer, no grid
// axis on the arc's parameter, fewer than two keys, or a key without a
// keyform (a missing cell would be the zero keyform, not on the circle).
func newArcRun(m *Model, arc p2lrt.Arc) *arcRun {
	if arc.Deformer < 0 || arc.Deformer >= len(m.file.Deformers) {
		return nil
	}
	d := &m.file.Deformers[arc.Deformer]
	if d.Kind != p2lrt.RotationDeformer || d.Rotation == nil || d.Rotation.Keyforms == nil {
		return nil
	}
	g := d.Rotation.Keyforms
	axis := -1
	for i, ax := range g.Axes {
		if ax.Parameter == arc.Parameter {
			axis = i
			break
		}
	}
	if axis < 0 || len(g.Axes[axis].Keys) < 2 {
		return nil
	}
	keys := g.Axes[axis].Keys
	a := &arcRun{param: arc.Parameter, keys: keys, px: make([]float64, len(keys)), py: make([]float64, len(keys)),
		cx: float64(arc.CX), cy: float64(arc.CY)}
	found := make([]bool, len(keys))
	// The pivot is keyed on this axis only, so any cell at a key carries
	// that key's pivot; the first one in file order is taken.
	for _, c := range g.Cells {
		if len(c.Coord) != len(g.Axes) {
			return nil
		}
		k := int(c.Coord[axis])
		if k < len(keys) && !found[k] {
			found[k] = true
			a.px[k], a.py[k] = float64(c.Value.X), float64(c.Value.Y)
		}
	}
	for _, f := range found {
		if !f {
			return nil
		}
	}
	return a
}

// initArcs prepares the arcs of m's BONE chunk; arcs stays nil when none
// applies.
func (ad *advRig) initArcs(m *Model) {
	if m.file.Bones == nil {
		return
	}
	for _, arc := range m.file.Bones.Arcs {
		run := newArcRun(m, arc)
		if run == nil {
			continue
		}
		if ad.arcs == nil {
			ad.arcs = make([]*arcRun, len(m.file.Deformers))
		}
		ad.arcs[arc.Deformer] = run
	}
}

// arcPivot is hook H2 for deformer d: given the pivot (x, y) the core
// computed (keyforms and blend shapes), it adds the difference between the
// arc and the chord at the current value. On a key the difference is not
// computed at all, so the frame is bit-identical to the core's there.
func (ad *advRig) arcPivot(d int, x, y float64, cur []float32) (float64, float64) {
	a := ad.arcs[d]
	if a == nil {
		return x, y
	}
	k, t := locate(a.keys, cur[a.param])
	if t == 0 {
		return x, y
	}
	ax, ay := arcPoint(a.px[k], a.py[k], a.px[k+1], a.py[k+1], a.cx, a.cy, t)
	chx := a.px[k] + (a.px[k+1]-a.px[k])*t
	chy := a.py[k] + (a.py[k+1]-a.py[k])*t
	return x + (ax - chx), y + (ay - chy)
}
