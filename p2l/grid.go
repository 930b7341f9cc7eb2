package p2l

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// snapEpsilon is the spec's key snapping distance: a parameter value closer
// than this to a key counts as exactly that key.
const snapEpsilon = 0.001

// maxGridAxes bounds the number of axes of one keyform grid. A grid with k
// axes that all sit between keys blends 2^k cells; the bound keeps the
// per-rig corner scratch small and rejects absurd files.
const maxGridAxes = 16

// maxDenseCells bounds the size of the dense coordinate → cell table of one
// grid; larger (very sparse) grids use a sorted table and binary search.
const maxDenseCells = 1 << 16

// cgrid is a keyform grid prepared for evaluation: the axes, the strides of
// the mixed-radix linear cell index, and a lookup from linear index to the
// cell's position in the file's cell list (−1 for a missing cell).
type cgrid struct {
	params []int32
	keys   [][]float32
	stride []int
	dense  []int32 // linear index → cell, when the grid is small enough
	lin    []int32 // sorted linear indices of present cells (sparse lookup)
	cell   []int32 // cell for lin[i]
	ncells int
	// snap is the distance under which a value counts as sitting on a
	// key: snapEpsilon for reference evaluation, 0 (no snapping) for
	// Cubism evaluation.
	snap float32
	// axis numbers each axis among the model's distinct keyform axes
	// (prepared.axes, shareAxes), for the evaluation's located segments;
	// nil for grids without them (channels).
	axis []int32
	// shared is 1 + the grid's number among the model's distinct keyform
	// grids with axes (shareAxes; records sharing a compiled grid share
	// it), whose corner weights an evaluation computes once for all of
	// them (Rig.gridWeights); 0, as in grids shareAxes does not number
	// (channels'), for none. cornerOff is the offset of its corners in
	// Rig.corners.
	shared, cornerOff int32
}

// maxSharedAxes is the most axes of a grid whose corner weights an
// evaluation keeps for the records sharing it (2^6 corners, 512 bytes a
// grid per rig): the grids of real models have up to three or four.
const maxSharedAxes = 6

// located is the key segment of a parameter value on an axis (locate32):
// the lower key index and the fraction towards the next key.
type located struct {
	i int
	t float32
}

// gridAxis is a keyform axis as located: parameter, keys and snapping
// distance. Grids of a model share few of them (every mesh keyed on the head
// angles has the same three keys), so an evaluation locates each once.
type gridAxis struct {
	param int32
	keys  []float32
	snap  float32
}

// shareAxes numbers the axes of the deformers' and meshes' keyform grids
// (cgrid.axis) by distinct parameter, keys and snap, in prepared.axes.
func (p *prepared) shareAxes() {
	ids := map[string]int32{}
	// A compiled grid by its parameters' array (compileGrid makes one for
	// each grid it compiles; records sharing the grid share the array) →
	// its number.
	grids := map[*int32]int32{}
	var key []byte
	number := func(g *cgrid) {
		g.shared, g.cornerOff = 0, 0
		if n := len(g.params); n > 0 && n <= maxSharedAxes {
			id, ok := grids[&g.params[0]]
			if !ok {
				id = int32(len(p.gridOffs))
				grids[&g.params[0]] = id
				p.gridOffs = append(p.gridOffs, int32(p.gridCorners))
				p.gridCorners += 1 << n
			}
			g.shared, g.cornerOff = id+1, p.gridOffs[id]
		}
		g.axis = make([]int32, len(g.params))
		for a, pr := range g.params {
			key = binary.LittleEndian.AppendUint32(key[:0], uint32(pr))
			key = binary.LittleEndian.AppendUint32(key, math.Float32bits(g.snap))
			for _, k := range g.keys[a] {
				key = binary.LittleEndian.AppendUint32(key, math.Float32bits(k))
			}
			id, ok := ids[string(key)]
			if !ok {
				id = int32(len(p.axes))
				ids[string(key)] = id
				p.axes = append(p.axes, gridAxis{param: pr, keys: g.keys[a], snap: g.snap})
			}
			g.axis[a] = id
		}
	}
	for i := range p.defs {
		number(&p.defs[i].g)
	}
	for i := range p.meshes {
		number(&p.meshes[i].g)
	}
}

// gridWeights returns the corner weights of keyform grid g at the current
// values (weightsAt with the located axes). Records sharing a compiled
// grid (a lowered moc's records over one keyform binding: Ren's typical
// frame blends 172 grids, 20 distinct) share the weights: the first
// record of an evaluation to blend it computes them into Rig.corners, the
// others read them. markMoved forgets them at every evaluation.
func (r *Rig) gridWeights(g *cgrid) []corner {
	if g.shared == 0 {
		return g.weightsAt(r.current, r.located, r.sc)
	}
	id, off := g.shared-1, int(g.cornerOff)
	if n := r.gridN[id]; n > 0 {
		return r.corners[off : off+int(n)]
	}
	w := g.weightsAt(r.current, r.located, r.corners[off:off:off+1<<len(g.params)])
	r.gridN[id] = int32(len(w))
	return w
}

// locateAxes brings r.located up to date: the segment of every shared axis
// whose parameter moved (all of them when every parameter counts as moved);
// the others' values, and so their segments, are the last evaluation's.
func (r *Rig) locateAxes() {
	for a := range r.p.axes {
		ax := &r.p.axes[a]
		if r.allMoved || r.moved[ax.param>>6]&(1<<(ax.param&63)) != 0 {
			i, t := locate32(ax.keys, r.current[ax.param], ax.snap)
			r.located[a] = located{i: i, t: t}
		}
	}
}

// corner is one weighted cell of a grid blend; cell −1 is a missing cell of
// a sparse grid, which contributes the zero shape with its full weight (the
// spec forbids re-weighting the present cells).
type corner struct {
	cell int32
	w    float32
}

// compileGrid prepares axes and coordinates of a grid whose cell count is n
// and whose coordinates are given by coord(i). nparams is the parameter count;
// snap the key snapping distance (cgrid.snap).
func compileGrid(axes []p2lrt.Axis, n int, coord func(int) []uint16, nparams int, snap float32) (cgrid, error) {
	g := cgrid{snap: snap}
	if len(axes) > maxGridAxes {
		return g, fmt.Errorf("grid has %d axes, more than %d", len(axes), maxGridAxes)
	}
	g.params = make([]int32, len(axes))
	g.keys = make([][]float32, len(axes))
	g.stride = make([]int, len(axes))
	total := 1
	for a := len(axes) - 1; a >= 0; a-- {
		ax := axes[a]
		if ax.Parameter < 0 || ax.Parameter >= nparams {
			return g, fmt.Errorf("grid axis %d: parameter %d out of range", a, ax.Parameter)
		}
		if len(ax.Keys) == 0 {
			return g, fmt.Errorf("grid axis %d has no keys", a)
		}
		for k := 1; k < len(ax.Keys); k++ {
			if ax.Keys[k] < ax.Keys[k-1] {
				return g, fmt.Errorf("grid axis %d: keys decrease", a)
			}
		}
		g.params[a] = int32(ax.Parameter)
		g.keys[a] = ax.Keys
		g.stride[a] = total
		if total > math.MaxInt32/len(ax.Keys) {
			return g, fmt.Errorf("grid has more than 2^31 key combinations")
		}
		total *= len(ax.Keys)
	}
	g.ncells = n
	lins := make([]int32, n)
	for i := 0; i < n; i++ {
		c := coord(i)
		if len(c) != len(axes) {
			return g, fmt.Errorf("grid cell %d has %d coordinates for %d axes", i, len(c), len(axes))
		}
		l := 0
		for a, k := range c {
			if int(k) >= len(axes[a].Keys) {
				return g, fmt.Errorf("grid cell %d: coordinate %d on axis %d out of range", i, k, a)
			}
			l += int(k) * g.stride[a]
		}
		lins[i] = int32(l)
	}
	if len(axes) == 0 {
		// Without axes the first cell is the static keyform, whatever
		// follows it (eval.rs weights: cell 0).
		g.dense = []int32{-1}
		if n > 0 {
			g.dense[0] = 0
		}
		return g, nil
	}
	if total <= maxDenseCells && total <= 8*n+64 {
		g.dense = make([]int32, total)
		for i := range g.dense {
			g.dense[i] = -1
		}
		for i := range n { // the last cell wins on duplicates (rig.rs Grid::new)
			g.dense[lins[i]] = int32(i)
		}
		return g, nil
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return int(lins[a]) - int(lins[b]) })
	for _, i := range order {
		if len(g.lin) > 0 && g.lin[len(g.lin)-1] == lins[i] {
			g.cell[len(g.cell)-1] = i // the last cell wins on duplicates
			continue
		}
		g.lin = append(g.lin, lins[i])
		g.cell = append(g.cell, i)
	}
	return g, nil
}

// lookup maps a linear index to a cell, −1 when the cell is missing.
func (g *cgrid) lookup(l int) int32 {
	if g.dense != nil {
		return g.dense[l]
	}
	if i, ok := slices.BinarySearch(g.lin, int32(l)); ok {
		return g.cell[i]
	}
	return -1
}

// locate returns the key segment of v on keys: the lower key index and the
// fraction towards the next key. A value within snapEpsilon of a key takes
// that key's value (the first such key); values outside the keys clamp to
// the end keys. Then, as eval.rs span/span_exact: the segment is the last
// one whose lower key is ≤ v, so among equal keys the last but one is
// chosen and a zero-width segment has fraction 0.
func locate(keys []float32, v float32) (int, float64) {
	fv := float64(v)
	for _, k := range keys {
		if math.Abs(fv-float64(k)) < snapEpsilon {
			fv = float64(k)
			break
		}
	}
	return segment(keys, fv)
}

// segment is locate without snapping (blend-shape bindings do not snap).
func segment(keys []float32, fv float64) (int, float64) {
	last := len(keys) - 1
	if last == 0 || fv <= float64(keys[0]) {
		return 0, 0
	}
	if fv >= float64(keys[last]) {
		return last, 0
	}
	i := 0
	for i+1 < last && float64(keys[i+1]) <= fv {
		i++
	}
	k0, k1 := float64(keys[i]), float64(keys[i+1])
	if k1 > k0 {
		return i, (fv - k0) / (k1 - k0)
	}
	return i, 0
}

// locate32 is locate in float32, as eval.rs span computes it: the
// evaluation of keyform grids and bindings follows the reference runtime's
// float32 arithmetic step by step, so that vertices agree with it to the
// bit where the libraries agree.
func locate32(keys []float32, v, snap float32) (int, float32) {
	for _, k := range keys {
		if d := v - k; d < snap && -d < snap {
			v = k
			break
		}
	}
	return segment32(keys, v)
}

// segment32 is segment in float32 (eval.rs span_exact).
func segment32(keys []float32, v float32) (int, float32) {
	last := len(keys) - 1
	if last == 0 || v <= keys[0] {
		return 0, 0
	}
	if v >= keys[last] {
		return last, 0
	}
	i := 0
	for i+1 < last && keys[i+1] <= v {
		i++
	}
	if w := keys[i+1] - keys[i]; w > 0 {
		return i, (v - keys[i]) / w
	}
	return i, 0
}

// floorKey returns the index of the key not above v (after snapping), the
// rule for flag channels; values below every key take the first key.
func floorKey(keys []float32, v, snap float32) int {
	i, _ := locate32(keys, v, snap)
	return i
}

// weights appends to out[:0] the cells to blend for the parameter values cur,
// with their multilinear weights, in float32 as eval.rs weights: corner k
// takes the upper key on axis a when bit a of k is set, its weight the
// product over the axes in order. Axes whose value sits on a key add no
// corners, so a pose on keys blends exactly one cell. out must have capacity
// 1 << len(g.params).
func (g *cgrid) weights(cur []float32, out []corner) []corner {
	return g.weightsAt(cur, nil, out)
}

// weightsAt is weights with the axes' segments taken from loc (Rig.located,
// numbered by g.axis) when it is not nil, located from cur otherwise.
func (g *cgrid) weightsAt(cur []float32, loc []located, out []corner) []corner {
	out = append(out[:0], corner{cell: 0, w: 1}) // cell holds the linear index until the end
	for a, p := range g.params {
		var i int
		var t float32
		if loc != nil {
			l := loc[g.axis[a]]
			i, t = l.i, l.t
		} else {
			i, t = locate32(g.keys[a], cur[p], g.snap)
		}
		s := int32(i * g.stride[a])
		if t == 0 {
			for c := range out {
				out[c].cell += s
			}
			continue
		}
		n := len(out)
		next := int32(g.stride[a])
		for c := 0; c < n; c++ {
			w := out[c].w
			out = append(out, corner{cell: out[c].cell + s + next, w: w * t})
			out[c].cell += s
			out[c].w = w * (1 - t)
		}
	}
	for c := range out {
		out[c].cell = g.lookup(int(out[c].cell))
	}
	return out
}

// flagCell returns the cell a flag channel takes: on every axis the key not
// above the value. −1 when that cell is missing.
func (g *cgrid) flagCell(cur []float32) int32 {
	l := 0
	for a, p := range g.params {
		l += floorKey(g.keys[a], cur[p], g.snap) * g.stride[a]
	}
	return g.lookup(l)
}

// cbind is a blend-shape binding prepared for evaluation.
type cbind struct {
	param   int32
	keys    []float32
	neutral int
	present []bool
	limits  []climit
	// minLimit: the limits combine by their minimum instead of their
	// product (Cubism evaluation; set by buildCubism).
	minLimit bool
}

// climit is a limit: a piecewise-linear weight of another parameter, its
// points in file order.
type climit struct {
	param int32
	vals  []float32
	wts   []float32
}

func compileBind(param int, keys []float32, neutral int, present []bool, nshapes int, limits []p2lrt.Limit, nparams int) (cbind, error) {
	var b cbind
	if param < 0 || param >= nparams {
		return b, fmt.Errorf("parameter %d out of range", param)
	}
	if len(keys) == 0 {
		return b, fmt.Errorf("no keys")
	}
	for k := 1; k < len(keys); k++ {
		if keys[k] < keys[k-1] {
			return b, fmt.Errorf("keys decrease")
		}
	}
	if len(present) != len(keys) || nshapes != len(keys) {
		return b, fmt.Errorf("%d keys but %d presence flags and %d shapes", len(keys), len(present), nshapes)
	}
	if neutral < -1 || neutral >= len(keys) {
		neutral = -1 // a model built in code: any value outside the keys means "no neutral key"
	}
	b = cbind{param: int32(param), keys: keys, neutral: neutral, present: present}
	for li, l := range limits {
		if l.Parameter < 0 || l.Parameter >= nparams {
			return b, fmt.Errorf("limit %d: parameter %d out of range", li, l.Parameter)
		}
		cl := climit{param: int32(l.Parameter)}
		for _, p := range l.Points {
			cl.vals = append(cl.vals, p.Value)
			cl.wts = append(cl.wts, p.Weight)
		}
		b.limits = append(b.limits, cl)
	}
	return b, nil
}

// factor evaluates the limit at value v as eval.rs piecewise: no points
// do not restrict (1); one point is constant; at or below the first point
// its weight; else linear within the first pair of neighbours whose upper
// value is ≥ v (a zero-width pair takes its upper weight); beyond the last
// point its weight. Points are taken in file order, unsorted.
func (l *climit) factor(v float32) float32 {
	n := len(l.vals)
	switch n {
	case 0:
		return 1
	case 1:
		return l.wts[0]
	}
	if v <= l.vals[0] {
		return l.wts[0]
	}
	for i := 0; i+1 < n; i++ {
		if v <= l.vals[i+1] {
			t := float32(1)
			if w := l.vals[i+1] - l.vals[i]; w > 0 {
				t = (v - l.vals[i]) / w
			}
			return l.wts[i] + float32((l.wts[i+1]-l.wts[i])*t)
		}
	}
	return l.wts[n-1]
}

// keyWeights returns the (at most two) contributing keys of the binding at
// the current parameter values and their weights, limits applied (eval.rs
// blend, in float32). Keys blend linearly between neighbours without
// snapping; the neutral key and keys without a shape contribute nothing; a
// limit product (Cubism: the least limit, at most 1) of 0 removes the
// binding. k < 0 marks an unused slot.
func (b *cbind) keyWeights(cur []float32) (k0 int, w0 float32, k1 int, w1 float32) {
	k0, k1 = -1, -1
	i, t := segment32(b.keys, cur[b.param])
	k0, w0 = i, 1-t
	if t > 0 {
		k1, w1 = i+1, t
	}
	if k0 >= 0 && (k0 == b.neutral || !b.present[k0] || w0 <= 0) {
		k0 = -1
	}
	if k1 >= 0 && (k1 == b.neutral || !b.present[k1]) {
		k1 = -1
	}
	if k0 < 0 && k1 < 0 {
		return
	}
	f := float32(1)
	for i := range b.limits {
		if l := b.limits[i].factor(cur[b.limits[i].param]); b.minLimit {
			f = min(f, l)
		} else {
			f *= l
		}
	}
	if f == 0 {
		return -1, 0, -1, 0
	}
	w0 *= f
	w1 *= f
	return
}
