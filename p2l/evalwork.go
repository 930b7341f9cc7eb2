package p2l

import "fmt"

// maxEvalWork bounds what one evaluation of a model can cost in its grids
// (docs/LIMITS.md): a grid of a axes with two keys or more blends up to 2^a
// cells, each of the record's floats, every evaluation. Files are small
// for this work: a grid of 16 axes and one sparse cell takes a few hundred
// bytes, and 300 of them (163 KB) made each evaluation blend 1.4e8 floats
// (0.76 s). 2^25 floats is about 30 ms; real models, whose grids have a
// few axes, stay far below (the default character: 7 126).
const maxEvalWork = 1 << 25

// evalWork is the most floats one evaluation of m blends through keyform
// and channel grids (every axis between two keys). It reads the model,
// not its prepared form, so that a model beyond the bound is refused
// before any grid is compiled or blended.
func evalWork(m *Model) int64 {
	var w int64
	axes := func(ax []Axis, floats int) {
		corners := int64(1)
		for _, a := range ax {
			if len(a.Keys) > 1 {
				corners *= 2
			}
		}
		w += corners * int64(floats+1)
	}
	chans := func(cs []Channel) {
		for _, c := range cs {
			if c.Grid != nil {
				axes(c.Grid.Axes, 3)
			}
		}
	}
	for i := range m.Deformers {
		d := &m.Deformers[i]
		chans(d.Channels)
		if d.Warp != nil && d.Warp.Keyforms != nil {
			axes(d.Warp.Keyforms.Axes, 2*(max(d.Warp.Columns, 0)+1)*(max(d.Warp.Rows, 0)+1))
		}
		if d.Rotation != nil && d.Rotation.Keyforms != nil {
			axes(d.Rotation.Keyforms.Axes, 4)
		}
	}
	for i := range m.Meshes {
		me := &m.Meshes[i]
		chans(me.Channels)
		if me.Keyforms != nil {
			axes(me.Keyforms.Axes, len(me.Positions))
		}
	}
	for i := range m.Parts {
		chans(m.Parts[i].Channels)
	}
	for i := range m.Glues {
		chans(m.Glues[i].Channels)
	}
	var groups func(g *DrawGroup, depth int)
	groups = func(g *DrawGroup, depth int) {
		if depth > 1<<12 {
			return // buildDraw refuses it
		}
		chans(g.Channels)
		for _, c := range g.Children {
			if c.Group != nil {
				groups(c.Group, depth+1)
			}
		}
	}
	groups(&m.Draw, 0)
	return w
}

// checkEvalWork refuses a model whose evaluations would cost more than
// maxEvalWork.
func checkEvalWork(m *Model) error {
	if w := evalWork(m); w > maxEvalWork {
		return fmt.Errorf("p2l: the model's keyform and channel grids blend up to %d floats per evaluation, more than %d (docs/LIMITS.md)", w, maxEvalWork)
	}
	return nil
}
