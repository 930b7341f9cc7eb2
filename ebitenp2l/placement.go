package ebitenp2l

import (
	"image"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
)

// Phase 3 of a frame, continued (see renderer, draw.go): which batch of
// its target an op joins.

type keyList struct {
	key     batchKey
	batches []int32 // ascending
}

// batchKey is the state that must be equal for ops of one target to share
// a call.
type batchKey struct {
	src      *ebiten.Image
	blend    ebiten.Blend
	backdrop bool // the composite program over a backdrop copy
}

type batch struct {
	key         batchKey
	first, last int32
	scope       int32 // scope of the newest member
	scopeFirst  int32 // its first member from that scope
	// screen, layer and masked say whether a member needs the screen
	// colour, reads a group's layer or has a coverage slot (meshProgram).
	screen, layer, masked bool
}

// scopeWindow is how many of a scope's latest ops are compared one by one
// with a new op (older ones count as overlapping it).
const scopeWindow = 16

// scope is the placement state of one character's ops in one target.
type scope struct {
	id   int32
	ring [scopeWindow]struct {
		b     image.Rectangle
		batch int32
	}
	n      int
	older  int32 // highest batch of the ops that left the ring
	lbChar int32 // highest batch of overlapping characters' ops (caller's image)
}

// place puts op x into a batch of target ti with state k: the first batch
// with that state at or after lb, the highest batch holding an op that x
// must follow (an earlier op of its scope that it overlaps, any older op
// of its scope, and the ops of overlapping characters); a batch that reads
// the backdrop also needs x disjoint from all its members (each reads the
// copy taken before the call). A fixed-function op (o.formula > 0) may
// instead join an earlier backdrop-reading batch of its source, computing
// its blend there, when it lies flat (flat.go); a backdrop-reading op that
// finds no batch may turn the last batch, of flat fixed-function ops, into
// one (convert). Otherwise a new batch at the end. It returns the batch.
// (A new batch right after lb would be valid too, x overlaps no op of the
// later ones, but merges less: the synthetic character took 61 calls
// instead of 56, the seven characters of TestBatchMatchesDraws 163
// instead of 111.)
func (r *renderer) place(ti int32, x int32, k batchKey, sc *scope) int32 {
	t := &r.targets[ti]
	o := &r.ops[x]
	lb := sc.lowerBound(o.bounds)
	kl := r.keyList(t, k)
	chosen := r.firstFit(t.keys[kl].batches, lb, o.bounds, sc, k.backdrop)
	if o.formula > 0 {
		if i := t.keyIndex(batchKey{src: k.src, blend: blendReplace, backdrop: true}); i >= 0 {
			alt := r.firstFit(t.keys[i].batches, lb, o.bounds, sc, true)
			if alt >= 0 && (chosen < 0 || alt < chosen) && r.flat(o) {
				chosen = alt
				r.readsBackdrop(t, o)
			}
		}
	}
	if chosen < 0 && k.backdrop {
		chosen = r.convert(t, kl, lb, o, sc)
	}
	if chosen < 0 {
		chosen = r.openBatch(t, kl)
	}
	b := &r.batches[chosen]
	if b.last >= 0 {
		r.ops[b.last].next = x
	} else {
		b.first = x
	}
	b.last = x
	b.screen = b.screen || o.needsScreen()
	b.layer = b.layer || o.readsLayer()
	b.masked = b.masked || o.slot() != 0
	if b.scope != sc.id {
		b.scope, b.scopeFirst = sc.id, x
	}
	// The ring keeps the scope's latest ops.
	slot := sc.n % scopeWindow
	if sc.n >= scopeWindow {
		sc.older = max(sc.older, sc.ring[slot].batch)
	}
	sc.ring[slot].b, sc.ring[slot].batch = o.bounds, chosen
	sc.n++
	return chosen
}

// noBatch reports whether target t has no batch with state k yet.
func (r *renderer) noBatch(t *target, k batchKey) bool {
	i := t.keyIndex(k)
	return i < 0 || len(t.keys[i].batches) == 0
}

// keyIndex returns the index of t's list of batches with state k, −1 for
// none.
func (t *target) keyIndex(k batchKey) int {
	for i := range t.keys {
		if t.keys[i].key == k {
			return i
		}
	}
	return -1
}

// firstFit returns the first batch of list (ascending) at or after lb that
// an op with bounds a of scope sc may join, −1 for none.
func (r *renderer) firstFit(list []int32, lb int32, a image.Rectangle, sc *scope, backdrop bool) int32 {
	j, _ := slices.BinarySearch(list, max(lb, 0))
	for ; j < len(list); j++ {
		bi := list[j]
		if backdrop && !r.disjoint(&r.batches[bi], sc.id, a, sc.lbChar, bi) {
			continue
		}
		return bi
	}
	return -1
}

// readsBackdrop makes fixed-function op o of target t a member of a
// backdrop-reading batch: its blend computed by the compositing program.
func (r *renderer) readsBackdrop(t *target, o *op) {
	o.col[7] += float32(flagFixed * int(o.formula))
	t.bdArea = t.bdArea.Union(o.bounds)
}

// convert looks, for backdrop-reading op o that found no batch to join,
// at target t's last batch: when it is a fixed-function batch at or after
// lb whose members all lie flat, are disjoint from each other and from o,
// it becomes a backdrop-reading batch (list kl) for o to join: one copy
// more instead of a new copy and draw. (Any such batch at or after lb
// would do; converting earlier ones too saved no draw more on the
// synthetic character and cost a crowd of overlapping characters more,
// since a converted batch takes no overlapping ops any more: 93 draws
// instead of 86 in TestBatchMatchesDraws.) It returns the batch, −1 for
// none.
func (r *renderer) convert(t *target, kl int, lb int32, o *op, sc *scope) int32 {
	const maxConvert = 16
	if j := len(t.batches) - 1; j >= 0 && t.batches[j] >= max(lb, 0) {
		bi := t.batches[j]
		b := &r.batches[bi]
		if b.key.backdrop || b.key.blend == blendReplace || b.key.src != t.keys[kl].key.src || !r.disjoint(b, sc.id, o.bounds, sc.lbChar, bi) {
			return -1
		}
		// Its members pairwise: only a short batch is tried.
		ok, n := true, 0
		for x := b.first; ok && x >= 0; x = r.ops[x].next {
			if n++; n > maxConvert {
				return -1
			}
			m := &r.ops[x]
			ok = m.formula > 0 && r.flat(m)
			for y := r.ops[x].next; ok && y >= 0; y = r.ops[y].next {
				ok = !m.bounds.Overlaps(r.ops[y].bounds)
			}
		}
		if !ok {
			return -1
		}
		old := r.keyList(t, b.key)
		if i, found := slices.BinarySearch(t.keys[old].batches, bi); found {
			t.keys[old].batches = slices.Delete(t.keys[old].batches, i, i+1)
		}
		list := t.keys[kl].batches
		i, _ := slices.BinarySearch(list, bi)
		t.keys[kl].batches = slices.Insert(list, i, bi)
		b.key = t.keys[kl].key
		for x := b.first; x >= 0; x = r.ops[x].next {
			r.readsBackdrop(t, &r.ops[x])
		}
		return bi
	}
	return -1
}

// lowerBound returns the highest batch holding an op of the scope that an
// op with bounds b must follow (−1: none), as place describes.
func (sc *scope) lowerBound(b image.Rectangle) int32 {
	lb := max(sc.older, sc.lbChar)
	for i := range min(sc.n, scopeWindow) {
		if e := &sc.ring[i]; e.batch > lb && e.b.Overlaps(b) {
			lb = e.batch
		}
	}
	return lb
}

// keyList returns the index of target t's list of batches with state k,
// adding an empty one.
func (r *renderer) keyList(t *target, k batchKey) int {
	if i := t.keyIndex(k); i >= 0 {
		return i
	}
	kl := len(t.keys)
	if kl < cap(t.keys) {
		t.keys = t.keys[:kl+1]
		t.keys[kl].key = k
		t.keys[kl].batches = t.keys[kl].batches[:0]
	} else {
		t.keys = append(t.keys, keyList{key: k})
	}
	return kl
}

// openBatch appends an empty batch to target t's list kl and returns it.
func (r *renderer) openBatch(t *target, kl int) int32 {
	bi := int32(len(r.batches))
	r.batches = append(r.batches, batch{key: t.keys[kl].key, first: -1, last: -1, scope: -1})
	t.batches = append(t.batches, bi)
	t.keys[kl].batches = append(t.keys[kl].batches, bi)
	return bi
}

// disjoint reports whether area a may join backdrop batch b (index bi):
// b holds no op of an overlapping character (bi > lbChar) and none of the
// scope's ops in b overlaps a.
func (r *renderer) disjoint(b *batch, sc int32, a image.Rectangle, lbChar, bi int32) bool {
	if bi <= lbChar {
		return false
	}
	if b.scope != sc {
		return true
	}
	for x := b.scopeFirst; x >= 0; x = r.ops[x].next {
		if r.ops[x].bounds.Overlaps(a) {
			return false
		}
	}
	return true
}
