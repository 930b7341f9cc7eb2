package p2l

import (
	"fmt"
	"math"
	"slices"
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
}

// corner is one weighted cell of a grid blend; cell −1 is a missing cell of
// a sparse grid, which contributes the zero shape with its full weight (the
// spec forbids re-weighting the present cells).
type corner struct {
	cell int32
	w    float64
}

// compileGrid prepares axes and coordinates of a grid whose cell count is n
// and whose coordinates are given by coord(i). nparams is the parameter count.
func compileGrid(axes []Axis, n int, coord func(int) []uint16, nparams int) (cgrid, error) {
	var g cgrid
	if len(axes) > maxGridAxes {
		return g, fmt.Errorf("grid has %d axes, more than %d", len(axes), maxGridAxes)
	}
	if len(axes) == 0 && n > 1 {
		return g, fmt.Errorf("grid without axes has %d cells, at most 1 allowed", n)
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
			if !(ax.Keys[k] > ax.Keys[k-1]) {
				return g, fmt.Errorf("grid axis %d: keys not strictly ascending", a)
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
	if total <= maxDenseCells && total <= 8*n+64 {
		g.dense = make([]int32, total)
		for i := range g.dense {
			g.dense[i] = -1
		}
		for i := n - 1; i >= 0; i-- { // first cell wins on duplicates
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
// fraction towards the next key. A value within snapEpsilon of a key snaps to
// it (t = 0); values outside the keys clamp to the end keys.
func locate(keys []float32, v float32) (int, float64) {
	n := len(keys)
	fv := float64(v)
	for i, k := range keys {
		if math.Abs(fv-float64(k)) < snapEpsilon {
			return i, 0
		}
	}
	if fv <= float64(keys[0]) {
		return 0, 0
	}
	if fv >= float64(keys[n-1]) {
		return n - 1, 0
	}
	i := 0
	for i+1 < n && float64(keys[i+1]) < fv {
		i++
	}
	k0, k1 := float64(keys[i]), float64(keys[i+1])
	return i, (fv - k0) / (k1 - k0)
}

// floorKey returns the index of the key not above v (after snapping), the
// rule for flag channels; values below every key take the first key.
func floorKey(keys []float32, v float32) int {
	i, _ := locate(keys, v)
	return i
}

// weights appends to out[:0] the cells to blend for the parameter values cur,
// with their multilinear weights. Axes whose value sits on a key add no
// corners, so a pose on keys blends exactly one cell. out must have capacity
// 1 << len(g.params).
func (g *cgrid) weights(cur []float32, out []corner) []corner {
	out = append(out[:0], corner{cell: 0, w: 1}) // cell holds the linear index until the end
	for a, p := range g.params {
		i, t := locate(g.keys[a], cur[p])
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
		l += floorKey(g.keys[a], cur[p]) * g.stride[a]
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
}

// climit is a limit: a piecewise-linear weight of another parameter, points
// sorted by value.
type climit struct {
	param int32
	vals  []float64
	wts   []float64
}

func compileBind(param int, keys []float32, neutral int, present []bool, nshapes int, limits []Limit, nparams int) (cbind, error) {
	var b cbind
	if param < 0 || param >= nparams {
		return b, fmt.Errorf("parameter %d out of range", param)
	}
	if len(keys) == 0 {
		return b, fmt.Errorf("no keys")
	}
	for k := 1; k < len(keys); k++ {
		if !(keys[k] > keys[k-1]) {
			return b, fmt.Errorf("keys not strictly ascending")
		}
	}
	if len(present) != len(keys) || nshapes != len(keys) {
		return b, fmt.Errorf("%d keys but %d presence flags and %d shapes", len(keys), len(present), nshapes)
	}
	if neutral < -1 || neutral >= len(keys) {
		neutral = -1 // any value outside the keys means "no neutral key"
	}
	b = cbind{param: int32(param), keys: keys, neutral: neutral, present: present}
	for li, l := range limits {
		if l.Parameter < 0 || l.Parameter >= nparams {
			return b, fmt.Errorf("limit %d: parameter %d out of range", li, l.Parameter)
		}
		pts := slices.Clone(l.Points)
		slices.SortStableFunc(pts, func(a, b LimitPoint) int {
			switch {
			case a.Value < b.Value:
				return -1
			case a.Value > b.Value:
				return 1
			}
			return 0
		})
		cl := climit{param: int32(l.Parameter)}
		for _, p := range pts {
			cl.vals = append(cl.vals, float64(p.Value))
			cl.wts = append(cl.wts, float64(p.Weight))
		}
		b.limits = append(b.limits, cl)
	}
	return b, nil
}

// factor evaluates the limit at value v: linear between points, constant
// beyond the end points; a limit without points does not restrict (1).
func (l *climit) factor(v float32) float64 {
	n := len(l.vals)
	if n == 0 {
		return 1
	}
	x := float64(v)
	if x <= l.vals[0] {
		return l.wts[0]
	}
	if x >= l.vals[n-1] {
		return l.wts[n-1]
	}
	i := 0
	for i+1 < n && l.vals[i+1] <= x {
		i++
	}
	if l.vals[i+1] == l.vals[i] {
		return l.wts[i+1]
	}
	t := (x - l.vals[i]) / (l.vals[i+1] - l.vals[i])
	return l.wts[i] + t*(l.wts[i+1]-l.wts[i])
}

// keyWeights returns the (at most two) contributing keys of the binding at
// the current parameter values and their weights, limits applied. Keys
// blend linearly between neighbours without snapping; the neutral key and
// keys without a shape contribute nothing. k < 0 marks an unused slot.
func (b *cbind) keyWeights(cur []float32) (k0 int, w0 float64, k1 int, w1 float64) {
	k0, k1 = -1, -1
	v := float64(cur[b.param])
	n := len(b.keys)
	switch {
	case v <= float64(b.keys[0]):
		k0, w0 = 0, 1
	case v >= float64(b.keys[n-1]):
		k0, w0 = n-1, 1
	default:
		i := 0
		for i+1 < n && float64(b.keys[i+1]) <= v {
			i++
		}
		t := (v - float64(b.keys[i])) / (float64(b.keys[i+1]) - float64(b.keys[i]))
		k0, w0 = i, 1-t
		if t > 0 {
			k1, w1 = i+1, t
		}
	}
	if k0 >= 0 && (k0 == b.neutral || !b.present[k0] || w0 == 0) {
		k0 = -1
	}
	if k1 >= 0 && (k1 == b.neutral || !b.present[k1]) {
		k1 = -1
	}
	if k0 < 0 && k1 < 0 {
		return
	}
	f := 1.0
	for i := range b.limits {
		f *= b.limits[i].factor(cur[b.limits[i].param])
	}
	w0 *= f
	w1 *= f
	return
}
