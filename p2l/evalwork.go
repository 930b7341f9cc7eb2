package p2l

import (
	"fmt"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

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
	w, _ := evalWorkTop(m)
	return w
}

// workShare is one grid's part of evalWork: its record, and the channel
// holding the grid (−1: the record's keyforms).
type workShare struct {
	tag, kind, id  string
	index, channel int
	work           int64
}

// field is the grid's field path within its record.
func (s workShare) field() string {
	if s.channel < 0 {
		return "keyforms"
	}
	return fmt.Sprintf("channels[%d].grid", s.channel)
}

// evalWorkTop is evalWork and the grid that takes the largest share of it.
func evalWorkTop(m *Model) (int64, workShare) {
	var w int64
	var top, at workShare
	axes := func(ax []p2lrt.Axis, floats int, channel int) {
		corners := int64(1)
		for _, a := range ax {
			if len(a.Keys) > 1 {
				corners *= 2
			}
		}
		n := corners * int64(floats+1)
		w += n
		if n > top.work {
			top = at
			top.channel, top.work = channel, n
		}
	}
	chans := func(cs []p2lrt.Channel) {
		for k, c := range cs {
			if c.Grid != nil {
				axes(c.Grid.Axes, 3, k)
			}
		}
	}
	for i := range m.file.Deformers {
		d := &m.file.Deformers[i]
		at = workShare{tag: "DEFM", kind: "deformer", id: d.ID, index: i}
		chans(d.Channels)
		if d.Warp != nil && d.Warp.Keyforms != nil {
			axes(d.Warp.Keyforms.Axes, 2*(max(d.Warp.Columns, 0)+1)*(max(d.Warp.Rows, 0)+1), -1)
		}
		if d.Rotation != nil && d.Rotation.Keyforms != nil {
			axes(d.Rotation.Keyforms.Axes, 4, -1)
		}
	}
	for i := range m.file.Meshes {
		me := &m.file.Meshes[i]
		at = workShare{tag: "MESH", kind: "mesh", id: me.ID, index: i}
		chans(me.Channels)
		if me.Keyforms != nil {
			axes(me.Keyforms.Axes, len(me.Positions), -1)
		}
	}
	for i := range m.file.Parts {
		at = workShare{tag: "PART", kind: "part", id: m.file.Parts[i].ID, index: i}
		chans(m.file.Parts[i].Channels)
	}
	for i := range m.file.Glues {
		at = workShare{tag: "GLUE", kind: "glue", id: m.file.Glues[i].ID, index: i}
		chans(m.file.Glues[i].Channels)
	}
	at = workShare{tag: "DRAW", index: -1}
	var groups func(g *p2lrt.DrawGroup, depth int)
	groups = func(g *p2lrt.DrawGroup, depth int) {
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
	groups(&m.file.Draw, 0)
	return w, top
}

// checkEvalWork refuses a model whose evaluations would cost more than
// maxEvalWork, naming the grid with the largest share.
func checkEvalWork(m *Model) error {
	w, top := evalWorkTop(m)
	if w <= maxEvalWork {
		return nil
	}
	msg := fmt.Sprintf("the model's keyform and channel grids blend up to %d floats per evaluation, more than %d (docs/LIMITS.md); the largest share, %d, is this grid's",
		w, maxEvalWork, top.work)
	if top.index < 0 {
		return &recordError{tag: "DRAW", field: top.field(), msg: "p2l: draw tree: " + msg}
	}
	return recordFail(top.tag, top.kind, top.index, top.id, top.field(), "%s", msg)
}
