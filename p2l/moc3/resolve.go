package moc3

import (
	"math"
	"math/bits"

	"github.com/psd2live/p2l-ebiten/p2l/internal/largest"
)

// builder turns the validated arrays into the Moc. Every loop below visits
// each file element a bounded number of times: ranges that would be walked
// element by element (keyforms, triangle indices, glue pairs, blend-shape
// bindings) may be claimed by one object only, so a hostile file cannot make
// the work quadratic.
type builder struct {
	r *reader
	m *Moc

	keys      []float32
	keysRun   []int32   // keysRun[i]: length of the finite, strictly ascending run starting at keys[i]
	positions []float32 // x,y pairs
	uvs       []float32 // u,v pairs
	indices   []uint16
	masks     []int
	multiply  []RGB
	screen    []RGB

	pbOwner   []int32 // parameter binding → parameter
	bspbOwner []int32 // blend-shape parameter binding → parameter
	axes      []Axis  // one per parameter binding index entry
	gridSize  []int   // keyform binding → ∏ key counts

	partKF []PartKeyform
	warpKF []WarpKeyform
	rotKF  []RotationKeyform
	artKF  []ArtMeshKeyform
	glueKF []float32

	// claimed marks elements already given to an object.
	claimedKF      [numKinds][]bool
	claimedIndices bitSet // one bit per position index: the largest table
	claimedGlue    []bool
	claimedBSKB    []bool

	constraints []BlendShapeConstraint // one per blend-shape constraint index entry
}

// bitSet is a set of small integers, one bit each.
type bitSet []uint64

// firstIn returns the smallest member of the set in [lo, hi), or hi when
// there is none, a word (64 members) at a time.
func (s bitSet) firstIn(lo, hi int) int {
	for i := lo; i < hi; {
		n := min(64-i&63, hi-i) // members of [i, hi) in i's word
		if w := s[i>>6] >> (i & 63) & (1<<n - 1); w != 0 {
			return i + bits.TrailingZeros64(w)
		}
		i += n
	}
	return hi
}

// addRange adds [lo, hi) to the set.
func (s bitSet) addRange(lo, hi int) {
	for i := lo; i < hi; {
		n := min(64-i&63, hi-i) // members of [i, hi) in i's word
		s[i>>6] |= (1<<n - 1) << (i & 63)
		i += n
	}
}

// kind names the objects that own keyforms.
type kind uint8

const (
	kindPart kind = iota
	kindWarp
	kindRotation
	kindArtMesh
	kindGlue
	numKinds
)

var kindNames = [numKinds]string{"part", "warp deformer", "rotation deformer", "art mesh", "glue"}

func (b *builder) build() error {
	steps := []func() error{
		b.canvas, b.arrays, b.parameters, b.bindings, b.keyforms,
		b.parts, b.deformers, b.artMeshes, b.glues, b.drawOrder,
		b.constraintTable, b.blendShapes, b.offscreens, b.trees,
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

// errAt reports a problem with element i of field f of object (sec, idx).
func (b *builder) errAt(sec string, idx int, id string, f fieldID, i int, format string, args ...any) error {
	off := int64(-1)
	if b.r.sec[f].n > i && i >= 0 {
		off = int64(b.r.at(f, i))
	}
	return b.r.fail(sec, idx, id, fields[f].name+elemSuffix(f, i, idx), off, format, args...)
}

// elemSuffix names the element when it is not the object's own entry.
func elemSuffix(f fieldID, i, idx int) string {
	if i == idx {
		return ""
	}
	return "[" + itoa(i) + "]"
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var buf [20]byte
	p := len(buf)
	for i > 0 {
		p--
		buf[p] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		p--
		buf[p] = '-'
	}
	return string(buf[p:])
}

// span checks that [begin, begin+count) lies within [0, limit). An empty
// range is valid wherever it begins: the Editor writes −1+0 for an object
// with nothing in a table (Wanko's PARAM_MOUTH_FORM, bound to no keyform,
// has parameter binding range −1+0), and nothing is read from it.
func span(begin, count int32, limit int) (int, int, bool) {
	if count == 0 {
		return 0, 0, true
	}
	if begin < 0 || count < 0 || int64(begin)+int64(count) > int64(limit) {
		return 0, 0, false
	}
	return int(begin), int(begin) + int(count), true
}

// index checks a reference: −1 (when allowed) or within [0, limit).
func index(v int32, limit int, none bool) bool {
	return (none && v == -1) || (v >= 0 && int64(v) < int64(limit))
}

func finite(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

func (b *builder) canvas() error {
	r := b.r
	at := int(r.u32(tableOffset + 4))
	f := func(k int) float32 { return math.Float32frombits(r.u32(at + 4*k)) }
	b.m.Canvas = Canvas{PixelsPerUnit: f(0), OriginX: f(1), OriginY: f(2), Width: f(3), Height: f(4), Flags: r.data[at+20]}
	return nil
}

// floats reads a whole f32 array (r.f32Array: possibly a view of the
// file).
func (b *builder) floats(f fieldID) []float32 {
	return b.r.f32Array(b.r.sec[f].off, b.r.sec[f].n)
}

// ints reads a whole i32 array (r.i32Array: possibly a view of the file).
func (b *builder) ints(f fieldID) []int32 {
	return b.r.i32Array(b.r.sec[f].off, b.r.sec[f].n)
}

// points reads an f32 array of x,y pairs; an odd trailing float is
// dropped (no begin index may reach it: begins are checked to be even).
func (b *builder) points(f fieldID) []float32 {
	return b.r.f32Array(b.r.sec[f].off, b.r.sec[f].n/2*2)
}

// ascendingRuns returns, for each key, the length of the finite strictly
// ascending run that starts there (0 for a non-finite key), so that any
// range can be checked in constant time.
func ascendingRuns(keys []float32) []int32 {
	run := make([]int32, len(keys))
	for i := len(keys) - 1; i >= 0; i-- {
		switch {
		case !finite(keys[i]):
			run[i] = 0
		case i+1 < len(keys) && run[i+1] > 0 && keys[i] < keys[i+1]:
			run[i] = run[i+1] + 1
		default:
			run[i] = 1
		}
	}
	return run
}

// keyRange resolves a key range: at least one key, finite, strictly
// ascending.
func (b *builder) keyRange(begin, count int32) ([]float32, string) {
	lo, hi, ok := span(begin, count, len(b.keys))
	switch {
	case !ok:
		return nil, "keys " + itoa(int(begin)) + "+" + itoa(int(count)) + " are outside the " + itoa(len(b.keys)) + " keys"
	case count == 0:
		return nil, "has no keys"
	case b.keysRun[lo] < count:
		return nil, "keys " + itoa(lo) + "+" + itoa(int(count)) + " are not finite and strictly ascending"
	}
	return b.keys[lo:hi:hi], ""
}

func (b *builder) arrays() error {
	r := b.r
	b.keys = b.floats(fKeys)
	b.keysRun = ascendingRuns(b.keys)
	b.positions = b.points(fKeyformPositions)
	b.uvs = b.points(fUVs)
	if n := r.sec[fPositionIndices].n; n > 0 {
		b.indices = r.u16Array(r.sec[fPositionIndices].off, n)
		b.claimedIndices = make(bitSet, (n+63)/64)
	}
	if n := r.sec[fDrawableMasks].n; n > 0 {
		b.masks = make([]int, n)
		for i := range b.masks {
			v := r.i32(fDrawableMasks, i)
			if !index(v, r.count[cArtMeshes], false) {
				return b.errAt("drawable masks", -1, "", fDrawableMasks, i, "art mesh %d out of range (%d art meshes)", v, r.count[cArtMeshes])
			}
			b.masks[i] = int(v)
		}
	}
	if r.has(fMultiplyR) {
		b.multiply = b.colors(fMultiplyR, fMultiplyG, fMultiplyB)
		b.screen = b.colors(fScreenR, fScreenG, fScreenB)
	}
	return nil
}

func (b *builder) colors(fr, fg, fb fieldID) []RGB {
	n := b.r.sec[fr].n
	if n == 0 {
		return nil
	}
	// The three component arrays (views of the file, or decoded), then
	// the colours without an accessor call per value.
	rs, gs, bs := b.floats(fr), b.floats(fg), b.floats(fb)
	out := make([]RGB, n)
	for i := range out {
		out[i] = RGB{rs[i], gs[i], bs[i]}
	}
	return out
}

// owners gives each element of a range-partitioned table its owner, and
// refuses ranges that overlap or leave the table.
func (b *builder) owners(sec string, n int, fBegin, fCount fieldID, table int, tableName string, ids func(int) string) ([]int32, error) {
	own := make([]int32, table)
	for i := range own {
		own[i] = -1
	}
	for p := range n {
		lo, hi, ok := span(b.r.i32(fBegin, p), b.r.i32(fCount, p), table)
		if !ok {
			return nil, b.errAt(sec, p, ids(p), fBegin, p, "range %d+%d is outside the %d %s", b.r.i32(fBegin, p), b.r.i32(fCount, p), table, tableName)
		}
		for j := lo; j < hi; j++ {
			if own[j] >= 0 {
				return nil, b.errAt(sec, p, ids(p), fBegin, p, "%s %d also belongs to %s %d", tableName, j, sec, own[j])
			}
			own[j] = int32(p)
		}
	}
	return own, nil
}

func (b *builder) parameters() error {
	r := b.r
	n := r.count[cParameters]
	ps := make([]Parameter, n)
	b.m.Parameters = ps
	for i := range ps {
		p := &ps[i]
		p.ID = r.id(fParameterIDs, i)
		p.Max = r.f32(fParameterMax, i)
		p.Min = r.f32(fParameterMin, i)
		p.Default = r.f32(fParameterDefault, i)
		p.Repeat = r.bool32(fParameterRepeat, i)
		p.DecimalPlaces = uint32(r.i32(fParameterDecimals, i))
		if r.has(fParameterType) {
			switch t := r.i32(fParameterType, i); t {
			case 0, 1:
				p.Type = ParameterType(t)
			default:
				return b.errAt("parameter", i, p.ID, fParameterType, i, "type %d is neither 0 (normal) nor 1 (blend shape)", t)
			}
			if keys, msg := b.keyRange(r.i32(fParameterKeysBegin, i), r.i32(fParameterKeysCount, i)); msg == "" {
				p.Keys = keys
			} else if r.i32(fParameterKeysCount, i) != 0 {
				return b.errAt("parameter", i, p.ID, fParameterKeysBegin, i, "%s", msg)
			}
		}
	}
	id := func(i int) string { return ps[i].ID }
	var err error
	b.pbOwner, err = b.owners("parameter", n, fParameterBindingBegin, fParameterBindingCount, r.count[cParameterBindings], "parameter bindings", id)
	if err != nil {
		return err
	}
	if r.has(fParameterBlendShapeBegin) {
		b.bspbOwner, err = b.owners("parameter", n, fParameterBlendShapeBegin, fParameterBlendShapeCount, r.count[cBlendShapeParameterBindings], "blend shape parameter bindings", id)
	}
	return err
}

// bindings resolves the keyform bindings: each entry of the parameter
// binding index table becomes an axis, each keyform binding a range of them.
func (b *builder) bindings() error {
	r := b.r
	if n := r.count[cParameterBindingIndices]; n > 0 {
		b.axes = make([]Axis, n)
	}
	for j := range b.axes {
		pb := r.i32(fParameterBindingIndices, j)
		if !index(pb, r.count[cParameterBindings], false) {
			return b.errAt("parameter binding indices", -1, "", fParameterBindingIndices, j, "parameter binding %d out of range (%d)", pb, r.count[cParameterBindings])
		}
		owner := b.pbOwner[pb]
		if owner < 0 {
			return b.errAt("parameter binding", int(pb), "", fParameterBindingKeysBegin, int(pb), "belongs to no parameter")
		}
		keys, msg := b.keyRange(r.i32(fParameterBindingKeysBegin, int(pb)), r.i32(fParameterBindingKeysCount, int(pb)))
		if msg != "" {
			return b.errAt("parameter binding", int(pb), "", fParameterBindingKeysBegin, int(pb), "%s", msg)
		}
		b.axes[j] = Axis{Parameter: int(owner), Keys: keys}
	}
	n := r.count[cKeyformBindings]
	kbs := make([]KeyformBinding, n)
	b.gridSize = make([]int, n)
	b.m.KeyformBindings = kbs
	for i := range kbs {
		lo, hi, ok := span(r.i32(fKeyformBindingBegin, i), r.i32(fKeyformBindingCount, i), len(b.axes))
		if !ok {
			return b.errAt("keyform binding", i, "", fKeyformBindingBegin, i, "range %d+%d is outside the %d parameter binding indices", r.i32(fKeyformBindingBegin, i), r.i32(fKeyformBindingCount, i), len(b.axes))
		}
		if hi-lo > MaxAxes {
			return b.errAt("keyform binding", i, "", fKeyformBindingCount, i, "%d parameters, more than %d", hi-lo, MaxAxes)
		}
		if hi > lo {
			kbs[i].Axes = b.axes[lo:hi:hi]
		}
		size := 1
		for _, a := range kbs[i].Axes {
			size *= len(a.Keys)
			if size > MaxFileSize { // more keyforms than any file holds
				size = MaxFileSize + 1
			}
		}
		b.gridSize[i] = size
	}
	return nil
}

// keyforms decodes the keyform tables; positions and, before 5.0, colours
// depend on the owner and are filled when it claims them.
func (b *builder) keyforms() error {
	r := b.r
	for k := range numKinds {
		var n int
		switch k {
		case kindPart:
			n = r.count[cPartKeyforms]
		case kindWarp:
			n = r.count[cWarpKeyforms]
		case kindRotation:
			n = r.count[cRotationKeyforms]
		case kindArtMesh:
			n = r.count[cArtMeshKeyforms]
		case kindGlue:
			n = r.count[cGlueKeyforms]
		}
		if n > 0 {
			b.claimedKF[k] = make([]bool, n)
		}
	}
	if n := r.count[cPartKeyforms]; n > 0 {
		b.partKF = make([]PartKeyform, n)
		for i := range b.partKF {
			kf := &b.partKF[i]
			*kf = PartKeyform{DrawOrder: r.f32(fPartKeyformDrawOrder, i), Opacity: 1, Multiply: White, Screen: Black}
			if !r.has(fPartKeyformOffscreenKeyform) {
				continue
			}
			o := r.i32(fPartKeyformOffscreenKeyform, i)
			if o == -1 {
				continue
			}
			if !index(o, r.count[cOffscreenKeyforms], false) {
				return b.errAt("part keyform", i, "", fPartKeyformOffscreenKeyform, i, "offscreen keyform %d out of range (%d)", o, r.count[cOffscreenKeyforms])
			}
			kf.Opacity = r.f32(fOffscreenKeyformOpacity, int(o))
			var err error
			if kf.Multiply, err = b.colorAt(b.multiply, "offscreen keyform", int(o), fOffscreenKeyformMultiplyBegin); err != nil {
				return err
			}
			if kf.Screen, err = b.colorAt(b.screen, "offscreen keyform", int(o), fOffscreenKeyformScreenBegin); err != nil {
				return err
			}
		}
	}
	perKeyform := r.v >= V50
	if n := r.count[cWarpKeyforms]; n > 0 {
		b.warpKF = make([]WarpKeyform, n)
		op := b.floats(fWarpKeyformOpacity)[:n]
		for i := range b.warpKF {
			// Field by field: a composite literal would store the nil
			// Points too, through the garbage collector's write barrier.
			kf := &b.warpKF[i]
			kf.Opacity, kf.Multiply, kf.Screen = op[i], White, Black
		}
		if perKeyform {
			if err := b.keyformColorTable("warp keyform", n, fWarpKeyformMultiplyBegin, fWarpKeyformScreenBegin, func(i int, m, s RGB) {
				b.warpKF[i].Multiply, b.warpKF[i].Screen = m, s
			}); err != nil {
				return err
			}
		}
	}
	if n := r.count[cRotationKeyforms]; n > 0 {
		b.rotKF = make([]RotationKeyform, n)
		for i := range b.rotKF {
			kf := &b.rotKF[i]
			*kf = RotationKeyform{
				Opacity: r.f32(fRotationKeyformOpacity, i), Angle: r.f32(fRotationKeyformAngle, i),
				OriginX: r.f32(fRotationKeyformOriginX, i), OriginY: r.f32(fRotationKeyformOriginY, i),
				Scale:    r.f32(fRotationKeyformScale, i),
				ReflectX: r.bool32(fRotationKeyformReflectX, i), ReflectY: r.bool32(fRotationKeyformReflectY, i),
				Multiply: White, Screen: Black,
			}
			if perKeyform {
				if err := b.keyformColors(&kf.Multiply, &kf.Screen, "rotation keyform", i, fRotationKeyformMultiplyBegin, fRotationKeyformScreenBegin); err != nil {
					return err
				}
			}
		}
	}
	if n := r.count[cArtMeshKeyforms]; n > 0 {
		b.artKF = make([]ArtMeshKeyform, n)
		op, do := b.floats(fArtMeshKeyformOpacity)[:n], b.floats(fArtMeshKeyformDrawOrder)[:n]
		for i := range b.artKF {
			kf := &b.artKF[i] // field by field, as warp keyforms
			kf.Opacity, kf.DrawOrder = op[i], do[i]
			kf.Multiply, kf.Screen = White, Black
		}
		if perKeyform {
			if err := b.keyformColorTable("art mesh keyform", n, fArtMeshKeyformMultiplyBegin, fArtMeshKeyformScreenBegin, func(i int, m, s RGB) {
				b.artKF[i].Multiply, b.artKF[i].Screen = m, s
			}); err != nil {
				return err
			}
		}
	}
	b.glueKF = b.floats(fGlueKeyformIntensity)
	return nil
}

func (b *builder) colorAt(table []RGB, sec string, i int, f fieldID) (RGB, error) {
	c := b.r.i32(f, i)
	if !index(c, len(table), false) {
		return RGB{}, b.errAt(sec, i, "", f, i, "color %d out of range (%d)", c, len(table))
	}
	return table[c], nil
}

func (b *builder) keyformColors(mul, scr *RGB, sec string, i int, fm, fs fieldID) error {
	var err error
	if *mul, err = b.colorAt(b.multiply, sec, i, fm); err != nil {
		return err
	}
	*scr, err = b.colorAt(b.screen, sec, i, fs)
	return err
}

// keyformColorTable fills the colours of the n keyforms of a table whose
// colour indices are the arrays fm and fs (5.0+), set(i, mul, scr) taking
// keyform i's: the index arrays are read once (views of the file), not
// value by value.
func (b *builder) keyformColorTable(sec string, n int, fm, fs fieldID, set func(i int, mul, scr RGB)) error {
	ms, ss := b.ints(fm)[:n], b.ints(fs)[:n]
	for i := range n {
		m, s := ms[i], ss[i]
		if !index(m, len(b.multiply), false) {
			return b.errAt(sec, i, "", fm, i, "color %d out of range (%d)", m, len(b.multiply))
		}
		if !index(s, len(b.screen), false) {
			return b.errAt(sec, i, "", fs, i, "color %d out of range (%d)", s, len(b.screen))
		}
		set(i, b.multiply[m], b.screen[s])
	}
	return nil
}

// claim gives keyforms [begin, begin+count) of a kind to one object, after
// checking the count against want, which what names (built only for an
// error: claim runs for every object).
func (b *builder) claim(k kind, sec string, idx int, id string, fBegin, fCount fieldID, i int, want int, what func() string) (int, int, error) {
	begin, count := b.r.i32(fBegin, i), b.r.i32(fCount, i)
	claimed := b.claimedKF[k]
	lo, hi, ok := span(begin, count, len(claimed))
	if !ok {
		return 0, 0, b.errAt(sec, idx, id, fBegin, i, "keyforms %d+%d are outside the %d %s keyforms", begin, count, len(claimed), kindNames[k])
	}
	if hi-lo != want {
		return 0, 0, b.errAt(sec, idx, id, fCount, i, "%d keyforms, %s needs %d", hi-lo, what(), want)
	}
	for j := lo; j < hi; j++ {
		if claimed[j] {
			return 0, 0, b.errAt(sec, idx, id, fBegin, i, "%s keyform %d is already used by another object", kindNames[k], j)
		}
		claimed[j] = true
	}
	return lo, hi, nil
}

// binding resolves an object's keyform binding index.
func (b *builder) binding(sec string, idx int, id string, f fieldID) (int, error) {
	v := b.r.i32(f, idx)
	if !index(v, len(b.m.KeyformBindings), false) {
		return 0, b.errAt(sec, idx, id, f, idx, "keyform binding %d out of range (%d)", v, len(b.m.KeyformBindings))
	}
	return int(v), nil
}

// gridKeyforms claims an object's own keyforms: as many as its binding's
// grid has cells.
func (b *builder) gridKeyforms(k kind, sec string, idx int, id string, kb int, fBegin, fCount fieldID) (int, int, error) {
	return b.claim(k, sec, idx, id, fBegin, fCount, idx, b.gridSize[kb], func() string { return "its keyform binding " + itoa(kb) })
}

// placePoints sets the points of keyforms [lo, hi) of a table of
// position-bearing keyforms to vc positions each.
func (b *builder) placePoints(sec string, idx int, id string, f fieldID, lo, hi, vc int, set func(j int, p []float32)) error {
	for j := lo; j < hi; j++ {
		pb := b.r.i32(f, j)
		if pb < 0 || pb%2 != 0 || int64(pb)+2*int64(vc) > int64(len(b.positions)) {
			return b.errAt(sec, idx, id, f, j, "keyform %d: %d points from float %d are outside the %d keyform positions (or the start is odd)", j-lo, vc, pb, len(b.positions))
		}
		s := int(pb)
		set(j, b.positions[s:s+2*vc:s+2*vc])
	}
	return nil
}

// ownColors sets the colours of an object's own keyforms in a 4.2 file,
// where the object names where its run of colours begins.
func (b *builder) ownColors(sec string, idx int, id string, f fieldID, lo, hi int, set func(j int, mul, scr RGB)) error {
	if b.r.v != V42 {
		return nil
	}
	c := b.r.i32(f, idx)
	if _, _, ok := span(c, int32(hi-lo), min(len(b.multiply), len(b.screen))); !ok {
		return b.errAt(sec, idx, id, f, idx, "colors %d+%d are outside the %d colors", c, hi-lo, min(len(b.multiply), len(b.screen)))
	}
	for j := lo; j < hi; j++ {
		set(j, b.multiply[int(c)+j-lo], b.screen[int(c)+j-lo])
	}
	return nil
}

func (b *builder) parts() error {
	r := b.r
	n := r.count[cParts]
	ps := make([]Part, n)
	b.m.Parts = ps
	for i := range ps {
		p := &ps[i]
		p.ID = r.id(fPartIDs, i)
		p.Visible = r.bool32(fPartVisible, i)
		p.Enabled = r.bool32(fPartEnabled, i)
		p.Offscreen = -1
		if v := r.i32(fPartParent, i); index(v, n, true) {
			p.Parent = int(v)
		} else {
			return b.errAt("part", i, p.ID, fPartParent, i, "parent part %d out of range (%d parts)", v, n)
		}
		kb, err := b.binding("part", i, p.ID, fPartBinding)
		if err != nil {
			return err
		}
		p.Binding, p.Axes = kb, b.m.KeyformBindings[kb].Axes
		lo, hi, err := b.gridKeyforms(kindPart, "part", i, p.ID, kb, fPartKeyformBegin, fPartKeyformCount)
		if err != nil {
			return err
		}
		p.Keyforms = b.partKF[lo:hi:hi]
		if r.has(fPartOffscreen) {
			if v := r.i32(fPartOffscreen, i); index(v, r.count[cOffscreens], true) {
				p.Offscreen = int(v)
			} else {
				return b.errAt("part", i, p.ID, fPartOffscreen, i, "offscreen %d out of range (%d offscreens)", v, r.count[cOffscreens])
			}
		}
	}
	return nil
}

func (b *builder) deformers() error {
	r := b.r
	n := r.count[cDeformers]
	ds := make([]Deformer, n)
	ws := make([]WarpDeformer, r.count[cWarpDeformers])
	rs := make([]RotationDeformer, r.count[cRotationDeformers])
	b.m.Deformers, b.m.WarpDeformers, b.m.RotationDeformers = ds, ws, rs
	for i := range ws {
		ws[i].Deformer = -1
	}
	for i := range rs {
		rs[i].Deformer = -1
	}
	for i := range ds {
		d := &ds[i]
		d.ID = r.id(fDeformerIDs, i)
		d.Visible = r.bool32(fDeformerVisible, i)
		d.Enabled = r.bool32(fDeformerEnabled, i)
		if v := r.i32(fDeformerParentPart, i); index(v, r.count[cParts], true) {
			d.ParentPart = int(v)
		} else {
			return b.errAt("deformer", i, d.ID, fDeformerParentPart, i, "parent part %d out of range (%d parts)", v, r.count[cParts])
		}
		if v := r.i32(fDeformerParentDeformer, i); index(v, n, true) {
			d.ParentDeformer = int(v)
		} else {
			return b.errAt("deformer", i, d.ID, fDeformerParentDeformer, i, "parent deformer %d out of range (%d deformers)", v, n)
		}
		lb := r.i32(fDeformerBinding, i)
		if !index(lb, len(b.m.KeyformBindings), false) {
			return b.errAt("deformer", i, d.ID, fDeformerBinding, i, "keyform binding %d out of range (%d)", lb, len(b.m.KeyformBindings))
		}
		d.ListBinding = int(lb)
		spec := r.i32(fDeformerSpecific, i)
		switch t := r.i32(fDeformerType, i); t {
		case 0:
			d.Kind = Warp
			if !index(spec, len(ws), false) || ws[spec].Deformer >= 0 {
				return b.errAt("deformer", i, d.ID, fDeformerSpecific, i, "warp deformer %d out of range (%d) or already used", spec, len(ws))
			}
			ws[spec].Deformer = i
		case 1:
			d.Kind = Rotation
			if !index(spec, len(rs), false) || rs[spec].Deformer >= 0 {
				return b.errAt("deformer", i, d.ID, fDeformerSpecific, i, "rotation deformer %d out of range (%d) or already used", spec, len(rs))
			}
			rs[spec].Deformer = i
		default:
			return b.errAt("deformer", i, d.ID, fDeformerType, i, "type %d is neither 0 (warp) nor 1 (rotation)", t)
		}
		d.Index = int(spec)
	}
	for i := range ws {
		if err := b.warp(i); err != nil {
			return err
		}
	}
	for i := range rs {
		if err := b.rotation(i); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) warp(i int) error {
	r := b.r
	w := &b.m.WarpDeformers[i]
	if w.Deformer < 0 {
		return b.errAt("warp deformer", i, "", fWarpBinding, i, "no deformer entry refers to it")
	}
	id := b.m.Deformers[w.Deformer].ID
	rows, cols, vc := r.i32(fWarpRows, i), r.i32(fWarpColumns, i), r.i32(fWarpVertexCount, i)
	if rows < 0 || cols < 0 || vc < 0 || (int64(rows)+1)*(int64(cols)+1) != int64(vc) {
		return b.errAt("warp deformer", i, id, fWarpVertexCount, i, "%d points do not make a grid of %d rows × %d columns of cells", vc, rows, cols)
	}
	w.Rows, w.Columns = int(rows), int(cols)
	if r.has(fWarpQuad) {
		w.Quad = r.bool32(fWarpQuad, i)
	}
	kb, err := b.binding("warp deformer", i, id, fWarpBinding)
	if err != nil {
		return err
	}
	w.Binding, w.Axes = kb, b.m.KeyformBindings[kb].Axes
	lo, hi, err := b.gridKeyforms(kindWarp, "warp deformer", i, id, kb, fWarpKeyformBegin, fWarpKeyformCount)
	if err != nil {
		return err
	}
	if err := b.placePoints("warp deformer", i, id, fWarpKeyformPositionBegin, lo, hi, int(vc), func(j int, p []float32) { b.warpKF[j].Points = p }); err != nil {
		return err
	}
	if err := b.ownColors("warp deformer", i, id, fWarpColorBegin, lo, hi, func(j int, m, s RGB) { b.warpKF[j].Multiply, b.warpKF[j].Screen = m, s }); err != nil {
		return err
	}
	w.Keyforms = b.warpKF[lo:hi:hi]
	return nil
}

func (b *builder) rotation(i int) error {
	r := b.r
	d := &b.m.RotationDeformers[i]
	if d.Deformer < 0 {
		return b.errAt("rotation deformer", i, "", fRotationBinding, i, "no deformer entry refers to it")
	}
	id := b.m.Deformers[d.Deformer].ID
	d.BaseAngle = r.f32(fRotationBaseAngle, i)
	kb, err := b.binding("rotation deformer", i, id, fRotationBinding)
	if err != nil {
		return err
	}
	d.Binding, d.Axes = kb, b.m.KeyformBindings[kb].Axes
	lo, hi, err := b.gridKeyforms(kindRotation, "rotation deformer", i, id, kb, fRotationKeyformBegin, fRotationKeyformCount)
	if err != nil {
		return err
	}
	if err := b.ownColors("rotation deformer", i, id, fRotationColorBegin, lo, hi, func(j int, m, s RGB) { b.rotKF[j].Multiply, b.rotKF[j].Screen = m, s }); err != nil {
		return err
	}
	d.Keyforms = b.rotKF[lo:hi:hi]
	return nil
}

func (b *builder) artMeshes() error {
	r := b.r
	n := r.count[cArtMeshes]
	ms := make([]ArtMesh, n)
	b.m.ArtMeshes = ms
	for i := range ms {
		m := &ms[i]
		m.ID = r.id(fArtMeshIDs, i)
		m.Visible = r.bool32(fArtMeshVisible, i)
		m.Enabled = r.bool32(fArtMeshEnabled, i)
		if v := r.i32(fArtMeshParentPart, i); index(v, r.count[cParts], true) {
			m.ParentPart = int(v)
		} else {
			return b.errAt("art mesh", i, m.ID, fArtMeshParentPart, i, "parent part %d out of range (%d parts)", v, r.count[cParts])
		}
		if v := r.i32(fArtMeshParentDeformer, i); index(v, r.count[cDeformers], true) {
			m.ParentDeformer = int(v)
		} else {
			return b.errAt("art mesh", i, m.ID, fArtMeshParentDeformer, i, "parent deformer %d out of range (%d deformers)", v, r.count[cDeformers])
		}
		switch t := r.i32(fArtMeshTexture, i); {
		case t < 0:
			return b.errAt("art mesh", i, m.ID, fArtMeshTexture, i, "texture number %d is negative", t)
		case t > MaxTexture:
			return b.errAt("art mesh", i, m.ID, fArtMeshTexture, i, "texture number %d is more than %d (moc3.MaxTexture)", t, MaxTexture)
		default:
			m.Texture = int(t)
		}
		m.Flags = DrawableFlags(r.u8(fArtMeshFlags, i))
		switch {
		case r.has(fArtMeshBlendMode):
			m.BlendMode = BlendMode(uint32(r.i32(fArtMeshBlendMode, i)))
		case m.Flags&FlagBlendAdditive != 0:
			m.BlendMode = BlendAddCompatible
		case m.Flags&FlagBlendMultiplicative != 0:
			m.BlendMode = BlendMultiplyCompatible
		}
		vc := r.i32(fArtMeshVertexCount, i)
		if vc < 0 {
			return b.errAt("art mesh", i, m.ID, fArtMeshVertexCount, i, "vertex count %d is negative", vc)
		}
		m.VertexCount = int(vc)
		uv := r.i32(fArtMeshUVBegin, i)
		if uv < 0 || uv%2 != 0 || int64(uv)+2*int64(vc) > int64(len(b.uvs)) {
			return b.errAt("art mesh", i, m.ID, fArtMeshUVBegin, i, "%d uvs from float %d are outside the %d uv floats (or the start is odd)", vc, uv, len(b.uvs))
		}
		if vc > 0 {
			m.UVs = b.uvs[uv : uv+2*vc : uv+2*vc]
		}
		lo, hi, ok := span(r.i32(fArtMeshIndexBegin, i), r.i32(fArtMeshIndexCount, i), len(b.indices))
		if !ok || (hi-lo)%3 != 0 {
			return b.errAt("art mesh", i, m.ID, fArtMeshIndexBegin, i, "triangle indices %d+%d are outside the %d position indices or not a multiple of 3", r.i32(fArtMeshIndexBegin, i), r.i32(fArtMeshIndexCount, i), len(b.indices))
		}
		// Index by index, the first fault is reported: an index already
		// used (at or after taken) or, before it, one out of range.
		taken := b.claimedIndices.firstIn(lo, hi)
		if idx := b.indices[lo:taken]; len(idx) > 0 && int(largest.Of(idx)) >= m.VertexCount {
			for k, x := range idx {
				if int(x) >= m.VertexCount {
					return b.errAt("art mesh", i, m.ID, fPositionIndices, lo+k, "triangle index %d out of range (%d vertices)", x, m.VertexCount)
				}
			}
		}
		if taken < hi {
			return b.errAt("art mesh", i, m.ID, fPositionIndices, taken, "already used by another art mesh")
		}
		b.claimedIndices.addRange(lo, hi)
		if hi > lo {
			m.Indices = b.indices[lo:hi:hi]
		}
		mlo, mhi, ok := span(r.i32(fArtMeshMaskBegin, i), r.i32(fArtMeshMaskCount, i), len(b.masks))
		if !ok {
			return b.errAt("art mesh", i, m.ID, fArtMeshMaskBegin, i, "masks %d+%d are outside the %d drawable masks", r.i32(fArtMeshMaskBegin, i), r.i32(fArtMeshMaskCount, i), len(b.masks))
		}
		if mhi > mlo {
			m.Masks = b.masks[mlo:mhi:mhi]
		}
		kb, err := b.binding("art mesh", i, m.ID, fArtMeshBinding)
		if err != nil {
			return err
		}
		m.Binding, m.Axes = kb, b.m.KeyformBindings[kb].Axes
		klo, khi, err := b.gridKeyforms(kindArtMesh, "art mesh", i, m.ID, kb, fArtMeshKeyformBegin, fArtMeshKeyformCount)
		if err != nil {
			return err
		}
		if err := b.placePoints("art mesh", i, m.ID, fArtMeshKeyformPositionBegin, klo, khi, m.VertexCount, func(j int, p []float32) { b.artKF[j].Positions = p }); err != nil {
			return err
		}
		if err := b.ownColors("art mesh", i, m.ID, fArtMeshColorBegin, klo, khi, func(j int, mu, s RGB) { b.artKF[j].Multiply, b.artKF[j].Screen = mu, s }); err != nil {
			return err
		}
		m.Keyforms = b.artKF[klo:khi:khi]
	}
	return nil
}

func (b *builder) glues() error {
	r := b.r
	n := r.count[cGlues]
	gs := make([]Glue, n)
	b.m.Glues = gs
	if r.count[cGlueInfos] > 0 {
		b.claimedGlue = make([]bool, r.count[cGlueInfos])
	}
	for i := range gs {
		g := &gs[i]
		g.ID = r.id(fGlueIDs, i)
		for k, f := range [2]fieldID{fGlueMeshA, fGlueMeshB} {
			v := r.i32(f, i)
			if !index(v, len(b.m.ArtMeshes), false) {
				return b.errAt("glue", i, g.ID, f, i, "art mesh %d out of range (%d)", v, len(b.m.ArtMeshes))
			}
			if k == 0 {
				g.MeshA = int(v)
			} else {
				g.MeshB = int(v)
			}
		}
		lo, hi, ok := span(r.i32(fGlueInfoBegin, i), r.i32(fGlueInfoCount, i), len(b.claimedGlue))
		if !ok || (hi-lo)%2 != 0 {
			return b.errAt("glue", i, g.ID, fGlueInfoBegin, i, "infos %d+%d are outside the %d glue infos or not pairs", r.i32(fGlueInfoBegin, i), r.i32(fGlueInfoCount, i), len(b.claimedGlue))
		}
		if hi > lo {
			g.Pairs = make([]GluePair, (hi-lo)/2)
		}
		va, vb := b.m.ArtMeshes[g.MeshA].VertexCount, b.m.ArtMeshes[g.MeshB].VertexCount
		for j := lo; j < hi; j++ {
			if b.claimedGlue[j] {
				return b.errAt("glue", i, g.ID, fGlueInfoPositionIndex, j, "already used by another glue")
			}
			b.claimedGlue[j] = true
			v, limit := r.u16(fGlueInfoPositionIndex, j), va
			if (j-lo)%2 == 1 {
				limit = vb
			}
			if int(v) >= limit {
				return b.errAt("glue", i, g.ID, fGlueInfoPositionIndex, j, "vertex %d out of range (%d vertices)", v, limit)
			}
			p := &g.Pairs[(j-lo)/2]
			if (j-lo)%2 == 0 {
				p.A, p.WeightA = v, r.f32(fGlueInfoWeight, j)
			} else {
				p.B, p.WeightB = v, r.f32(fGlueInfoWeight, j)
			}
		}
		kb, err := b.binding("glue", i, g.ID, fGlueBinding)
		if err != nil {
			return err
		}
		g.Binding, g.Axes = kb, b.m.KeyformBindings[kb].Axes
		klo, khi, err := b.gridKeyforms(kindGlue, "glue", i, g.ID, kb, fGlueKeyformBegin, fGlueKeyformCount)
		if err != nil {
			return err
		}
		g.Intensities = b.glueKF[klo:khi:khi]
	}
	return nil
}

func (b *builder) drawOrder() error {
	r := b.r
	objs := make([]DrawOrderObject, r.count[cDrawOrderGroupObjects])
	ng := r.count[cDrawOrderGroups]
	for i := range objs {
		o := &objs[i]
		idx, self := r.i32(fDrawOrderObjectIndex, i), r.i32(fDrawOrderObjectSelf, i)
		switch t := r.i32(fDrawOrderObjectType, i); t {
		case 0:
			o.Kind = DrawArtMesh
			if !index(idx, r.count[cArtMeshes], false) {
				return b.errAt("draw order group object", i, "", fDrawOrderObjectIndex, i, "art mesh %d out of range (%d)", idx, r.count[cArtMeshes])
			}
		case 1:
			o.Kind = DrawPart
			if !index(idx, r.count[cParts], false) {
				return b.errAt("draw order group object", i, "", fDrawOrderObjectIndex, i, "part %d out of range (%d)", idx, r.count[cParts])
			}
		default:
			return b.errAt("draw order group object", i, "", fDrawOrderObjectType, i, "type %d is neither 0 (art mesh) nor 1 (part)", t)
		}
		if !index(self, ng, true) {
			return b.errAt("draw order group object", i, "", fDrawOrderObjectSelf, i, "draw order group %d out of range (%d)", self, ng)
		}
		o.Index, o.Group = int(idx), int(self)
	}
	gs := make([]DrawOrderGroup, ng)
	b.m.DrawOrderGroups = gs
	for i := range gs {
		g := &gs[i]
		lo, hi, ok := span(r.i32(fDrawOrderGroupObjectBegin, i), r.i32(fDrawOrderGroupObjectCount, i), len(objs))
		if !ok {
			return b.errAt("draw order group", i, "", fDrawOrderGroupObjectBegin, i, "objects %d+%d are outside the %d draw order group objects", r.i32(fDrawOrderGroupObjectBegin, i), r.i32(fDrawOrderGroupObjectCount, i), len(objs))
		}
		if hi > lo {
			g.Objects = objs[lo:hi:hi]
		}
		g.TotalObjects = int(r.i32(fDrawOrderGroupObjectTotal, i))
		g.MaxDrawOrder = uint32(r.i32(fDrawOrderGroupMaxDrawOrder, i))
		g.MinDrawOrder = uint32(r.i32(fDrawOrderGroupMinDrawOrder, i))
	}
	return nil
}

// constraintTable resolves every blend-shape constraint index entry.
func (b *builder) constraintTable() error {
	r := b.r
	if !r.has(fBSConstraintIndices) || r.count[cBlendShapeConstraintIndices] == 0 {
		return nil
	}
	ckeys := b.floats(fBSConstraintValueKey)
	cweights := b.floats(fBSConstraintValueWeight)
	run := ascendingRuns(ckeys)
	b.constraints = make([]BlendShapeConstraint, r.count[cBlendShapeConstraintIndices])
	for j := range b.constraints {
		c := r.i32(fBSConstraintIndices, j)
		if !index(c, r.count[cBlendShapeConstraints], false) {
			return b.errAt("blend shape constraint indices", -1, "", fBSConstraintIndices, j, "constraint %d out of range (%d)", c, r.count[cBlendShapeConstraints])
		}
		ci := int(c)
		p := r.i32(fBSConstraintParameter, ci)
		if !index(p, len(b.m.Parameters), false) {
			return b.errAt("blend shape constraint", ci, "", fBSConstraintParameter, ci, "parameter %d out of range (%d)", p, len(b.m.Parameters))
		}
		lo, hi, ok := span(r.i32(fBSConstraintValueBegin, ci), r.i32(fBSConstraintValueCount, ci), len(ckeys))
		if !ok || hi == lo || run[lo] < int32(hi-lo) {
			return b.errAt("blend shape constraint", ci, "", fBSConstraintValueBegin, ci, "values %d+%d are empty, outside the %d constraint values, or their keys are not finite and strictly ascending", r.i32(fBSConstraintValueBegin, ci), r.i32(fBSConstraintValueCount, ci), len(ckeys))
		}
		b.constraints[j] = BlendShapeConstraint{Parameter: int(p), Keys: ckeys[lo:hi:hi], Weights: cweights[lo:hi:hi]}
	}
	return nil
}

// blendShapeSet names the fields of one target kind's blend-shape table.
type blendShapeSet struct {
	kind                    kind
	sec                     string
	count                   countID
	target, begin, nBinding fieldID
}

var blendShapeSets = [...]blendShapeSet{
	{kindWarp, "blend shape (warp deformer)", cBlendShapesWarp, fBSWarpTarget, fBSWarpBindingBegin, fBSWarpBindingCount},
	{kindArtMesh, "blend shape (art mesh)", cBlendShapesArtMesh, fBSArtMeshTarget, fBSArtMeshBindingBegin, fBSArtMeshBindingCount},
	{kindPart, "blend shape (part)", cBlendShapesPart, fBSPartTarget, fBSPartBindingBegin, fBSPartBindingCount},
	{kindRotation, "blend shape (rotation deformer)", cBlendShapesRotation, fBSRotationTarget, fBSRotationBindingBegin, fBSRotationBindingCount},
	{kindGlue, "blend shape (glue)", cBlendShapesGlue, fBSGlueTarget, fBSGlueBindingBegin, fBSGlueBindingCount},
}

func (b *builder) blendShapes() error {
	r := b.r
	if !r.has(fBSKeyformBindingParameterBinding) {
		return nil
	}
	if n := r.count[cBlendShapeKeyformBindings]; n > 0 {
		b.claimedBSKB = make([]bool, n)
	}
	for _, set := range blendShapeSets {
		if !r.has(set.target) {
			continue
		}
		for i := range r.count[set.count] {
			if err := b.blendShape(set, i); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *builder) blendShape(set blendShapeSet, i int) error {
	r := b.r
	t := r.i32(set.target, i)
	var targets int
	switch set.kind {
	case kindPart:
		targets = len(b.m.Parts)
	case kindWarp:
		targets = len(b.m.WarpDeformers)
	case kindRotation:
		targets = len(b.m.RotationDeformers)
	case kindArtMesh:
		targets = len(b.m.ArtMeshes)
	case kindGlue:
		targets = len(b.m.Glues)
	}
	if !index(t, targets, false) {
		return b.errAt(set.sec, i, "", set.target, i, "target %d out of range (%d)", t, targets)
	}
	lo, hi, ok := span(r.i32(set.begin, i), r.i32(set.nBinding, i), len(b.claimedBSKB))
	if !ok {
		return b.errAt(set.sec, i, "", set.begin, i, "bindings %d+%d are outside the %d blend shape keyform bindings", r.i32(set.begin, i), r.i32(set.nBinding, i), len(b.claimedBSKB))
	}
	for j := lo; j < hi; j++ {
		if b.claimedBSKB[j] {
			return b.errAt(set.sec, i, "", set.begin, i, "blend shape keyform binding %d is already used", j)
		}
		b.claimedBSKB[j] = true
		if err := b.blendShapeBinding(set, int(t), j); err != nil {
			return err
		}
	}
	return nil
}

// blendShapeBinding resolves blend-shape keyform binding j of target t and
// appends it to the target.
func (b *builder) blendShapeBinding(set blendShapeSet, t, j int) error {
	r := b.r
	const sec = "blend shape keyform binding"
	pb := r.i32(fBSKeyformBindingParameterBinding, j)
	if !index(pb, len(b.bspbOwner), false) {
		return b.errAt(sec, j, "", fBSKeyformBindingParameterBinding, j, "blend shape parameter binding %d out of range (%d)", pb, len(b.bspbOwner))
	}
	owner := b.bspbOwner[pb]
	if owner < 0 {
		return b.errAt("blend shape parameter binding", int(pb), "", fBSParameterBindingKeysBegin, int(pb), "belongs to no parameter")
	}
	keys, msg := b.keyRange(r.i32(fBSParameterBindingKeysBegin, int(pb)), r.i32(fBSParameterBindingKeysCount, int(pb)))
	if msg != "" {
		return b.errAt("blend shape parameter binding", int(pb), "", fBSParameterBindingKeysBegin, int(pb), "%s", msg)
	}
	base := r.i32(fBSParameterBindingBaseKey, int(pb))
	if !index(base, len(keys), false) {
		return b.errAt("blend shape parameter binding", int(pb), "", fBSParameterBindingBaseKey, int(pb), "base key %d out of range (%d keys)", base, len(keys))
	}
	clo, chi, ok := span(r.i32(fBSKeyformBindingConstraintBegin, j), r.i32(fBSKeyformBindingConstraintCount, j), len(b.constraints))
	if !ok {
		return b.errAt(sec, j, "", fBSKeyformBindingConstraintBegin, j, "constraints %d+%d are outside the %d constraint indices", r.i32(fBSKeyformBindingConstraintBegin, j), r.i32(fBSKeyformBindingConstraintCount, j), len(b.constraints))
	}
	var cons []BlendShapeConstraint
	if chi > clo {
		cons = b.constraints[clo:chi:chi]
	}
	lo, hi, err := b.claim(set.kind, sec, j, "", fBSKeyformBindingKeyformBegin, fBSKeyformBindingKeyformCount, j, len(keys), func() string { return "its parameter binding's key count" })
	if err != nil {
		return err
	}
	param, baseKey := int(owner), int(base)
	switch set.kind {
	case kindPart:
		p := &b.m.Parts[t]
		p.BlendShapes = append(p.BlendShapes, BlendShape[PartKeyform]{param, keys, baseKey, b.partKF[lo:hi:hi], cons})
	case kindWarp:
		w := &b.m.WarpDeformers[t]
		vc := (w.Rows + 1) * (w.Columns + 1)
		if err := b.placePoints(sec, j, "", fWarpKeyformPositionBegin, lo, hi, vc, func(k int, p []float32) { b.warpKF[k].Points = p }); err != nil {
			return err
		}
		w.BlendShapes = append(w.BlendShapes, BlendShape[WarpKeyform]{param, keys, baseKey, b.warpKF[lo:hi:hi], cons})
	case kindRotation:
		d := &b.m.RotationDeformers[t]
		d.BlendShapes = append(d.BlendShapes, BlendShape[RotationKeyform]{param, keys, baseKey, b.rotKF[lo:hi:hi], cons})
	case kindArtMesh:
		m := &b.m.ArtMeshes[t]
		if err := b.placePoints(sec, j, "", fArtMeshKeyformPositionBegin, lo, hi, m.VertexCount, func(k int, p []float32) { b.artKF[k].Positions = p }); err != nil {
			return err
		}
		m.BlendShapes = append(m.BlendShapes, BlendShape[ArtMeshKeyform]{param, keys, baseKey, b.artKF[lo:hi:hi], cons})
	case kindGlue:
		g := &b.m.Glues[t]
		g.BlendShapes = append(g.BlendShapes, BlendShape[float32]{param, keys, baseKey, b.glueKF[lo:hi:hi], cons})
	}
	return nil
}

func (b *builder) offscreens() error {
	r := b.r
	n := r.count[cOffscreens]
	if !r.has(fOffscreenOwner) || n == 0 {
		for i, p := range b.m.Parts {
			if p.Offscreen >= 0 {
				return b.errAt("part", i, p.ID, fPartOffscreen, i, "names offscreen %d of none", p.Offscreen)
			}
		}
		return nil
	}
	os := make([]Offscreen, n)
	b.m.Offscreens = os
	for i := range os {
		o := &os[i]
		owner := r.i32(fOffscreenOwner, i)
		if !index(owner, len(b.m.Parts), false) || b.m.Parts[owner].Offscreen != i {
			return b.errAt("offscreen", i, "", fOffscreenOwner, i, "owner part %d is out of range (%d) or does not name this offscreen", owner, len(b.m.Parts))
		}
		o.Owner = int(owner)
		o.Flags = DrawableFlags(r.u8(fOffscreenFlags, i))
		o.BlendMode = BlendMode(uint32(r.i32(fOffscreenBlendMode, i)))
		lo, hi, ok := span(r.i32(fOffscreenMaskBegin, i), r.i32(fOffscreenMaskCount, i), len(b.masks))
		if !ok {
			return b.errAt("offscreen", i, "", fOffscreenMaskBegin, i, "masks %d+%d are outside the %d drawable masks", r.i32(fOffscreenMaskBegin, i), r.i32(fOffscreenMaskCount, i), len(b.masks))
		}
		if hi > lo {
			o.Masks = b.masks[lo:hi:hi]
		}
	}
	for i, p := range b.m.Parts {
		if p.Offscreen >= 0 && os[p.Offscreen].Owner != i {
			return b.errAt("part", i, p.ID, fPartOffscreen, i, "offscreen %d belongs to part %d", p.Offscreen, os[p.Offscreen].Owner)
		}
	}
	return nil
}

// trees refuses cycles in the part and deformer hierarchies.
func (b *builder) trees() error {
	if i := cycle(len(b.m.Parts), func(i int) int { return b.m.Parts[i].Parent }); i >= 0 {
		return b.errAt("part", i, b.m.Parts[i].ID, fPartParent, i, "the parent chain loops")
	}
	if i := cycle(len(b.m.Deformers), func(i int) int { return b.m.Deformers[i].ParentDeformer }); i >= 0 {
		return b.errAt("deformer", i, b.m.Deformers[i].ID, fDeformerParentDeformer, i, "the parent chain loops")
	}
	return nil
}

// cycle returns a node on a loop of the parent relation, or −1. Each node is
// walked once.
func cycle(n int, parent func(int) int) int {
	const (
		unseen = iota
		walking
		done
	)
	state := make([]uint8, n)
	for i := range n {
		j := i
		for j >= 0 && state[j] == unseen {
			state[j] = walking
			j = parent(j)
		}
		if j >= 0 && state[j] == walking {
			return j
		}
		for j = i; j >= 0 && state[j] == walking; j = parent(j) {
			state[j] = done
		}
	}
	return -1
}
