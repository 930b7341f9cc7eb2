package p2l

import (
	"fmt"
	"math"
)

// recordError is a rig failure that one record of the model causes: a
// model that cannot be prepared for evaluation, or an evaluation whose
// outputs overflow. Rig.Err reports it as it is; Load's trial evaluation
// turns it into a *FormatError naming the chunk, the record and the field.
type recordError struct {
	tag   string // the record's chunk, such as "MESH"
	field string // the field's path, such as `meshes[3].positions`
	msg   string // the whole message
}

func (e *recordError) Error() string { return e.msg }

// recordFail builds a recordError: the message is "p2l: " followed by the
// record's kind, index and id, then what is wrong.
func recordFail(tag, kind string, i int, id, field, format string, args ...any) *recordError {
	path := fmt.Sprintf("%s[%d]", recordLists[tag], i)
	if field != "" {
		path += "." + field
	}
	return &recordError{tag: tag, field: path,
		msg: fmt.Sprintf("p2l: %s %d (%q): ", kind, i, id) + fmt.Sprintf(format, args...)}
}

// recordLists names the record list of each chunk in field paths, as the
// reader names them.
var recordLists = map[string]string{
	"DEFM": "deformers", "PART": "parts", "MESH": "meshes", "GLUE": "glues",
	"HITA": "hitAreas", "BONE": "attachable",
}

// largest tracks the field holding the value of largest magnitude.
type largest struct {
	tag, id, field string
	v              float32
	mag            float64
}

// scan looks at the values of field (a path) of the record id of chunk tag.
func (l *largest) scan(tag, id, field string, vs ...float32) {
	for _, v := range vs {
		if a := math.Abs(float64(v)); a > l.mag || l.field == "" {
			l.tag, l.id, l.field, l.v, l.mag = tag, id, field, v, a
		}
	}
}

// overflowSource names the input that most likely made mesh mi's vertices
// overflow: the value of largest magnitude among the numbers its
// evaluation multiplies and adds — its rest positions, keyform and shape
// deltas, the glues that pull it, and the keyforms and shapes of every
// deformer above it. Files hold finite numbers only, so an overflow is
// finite extremes combined, and the largest of them is the one to look at
// first. Only the failure path runs it.
func overflowSource(m *Model, mi int) (tag, id, field string, v float32) {
	var l largest
	me := &m.file.Meshes[mi]
	path := fmt.Sprintf("meshes[%d]", mi)
	l.scan("MESH", me.ID, path+".positions", me.Positions...)
	if me.Keyforms != nil {
		for k, c := range me.Keyforms.Cells {
			l.scan("MESH", me.ID, fmt.Sprintf("%s.keyforms.cells[%d]", path, k), c.Value...)
		}
	}
	for b := range me.Shapes {
		for k, s := range me.Shapes[b].Shapes {
			l.scan("MESH", me.ID, fmt.Sprintf("%s.shapes[%d].shapes[%d].deltas", path, b, k), s.Deltas...)
		}
	}
	for g := range m.file.Glues {
		gl := &m.file.Glues[g]
		if gl.MeshA != mi && gl.MeshB != mi {
			continue
		}
		l.scan("GLUE", gl.ID, fmt.Sprintf("glues[%d].intensity", g), gl.Intensity)
		for k, pr := range gl.Pairs {
			l.scan("GLUE", gl.ID, fmt.Sprintf("glues[%d].pairs[%d]", g, k), pr.WeightA, pr.WeightB)
		}
	}
	// Parents come before children, so the walk up ends (bounded anyway).
	for d, n := me.Parent, 0; d >= 0 && d < len(m.file.Deformers) && n <= len(m.file.Deformers); d, n = m.file.Deformers[d].Parent, n+1 {
		df := &m.file.Deformers[d]
		dp := fmt.Sprintf("deformers[%d]", d)
		switch {
		case df.Warp != nil:
			if df.Warp.Keyforms != nil {
				for k, c := range df.Warp.Keyforms.Cells {
					l.scan("DEFM", df.ID, fmt.Sprintf("%s.keyforms.cells[%d]", dp, k), c.Value...)
				}
			}
			for b := range df.Warp.Shapes {
				for k, s := range df.Warp.Shapes[b].Shapes {
					l.scan("DEFM", df.ID, fmt.Sprintf("%s.shapes[%d].shapes[%d].points", dp, b, k), s.Points...)
				}
			}
		case df.Rotation != nil:
			if df.Rotation.Keyforms != nil {
				for k, c := range df.Rotation.Keyforms.Cells {
					l.scan("DEFM", df.ID, fmt.Sprintf("%s.keyforms.cells[%d]", dp, k), c.Value.X, c.Value.Y, c.Value.Scale)
				}
			}
			for b := range df.Rotation.Shapes {
				for k, s := range df.Rotation.Shapes[b].Shapes {
					l.scan("DEFM", df.ID, fmt.Sprintf("%s.shapes[%d].shapes[%d]", dp, b, k), s.X, s.Y, s.Scale)
				}
			}
		}
	}
	return l.tag, l.id, l.field, l.v
}
