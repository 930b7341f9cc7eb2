package ebitenp2l

import (
	"image"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Phase 3 of a frame (see renderer, draw.go): the ops of every target,
// scope by scope, with their mask coverage uses; placement.go puts them
// in batches.

// op is one mesh or group composite of a target.
type op struct {
	char   int32
	mesh   int32           // ≥ 0: a mesh; < 0: composite of groups[−1 − mesh]
	next   int32           // next op of the same batch, −1
	bounds image.Rectangle // target coordinates, clipped to the target
	// Meshes: destination → target coordinates; group composites: target
	// → child layer page coordinates.
	off  image.Point
	col  [8]float32 // vertex Color and Custom: (M, o), (S, flags)
	cull bool
	// formula is its fixed-function blend as the compositing program
	// computes it, for a fixed-function op (0: it reads the backdrop, or
	// is a layer's first draw).
	formula uint8
}

// covUse is one mask set's coverage for the items of one scope (a
// character's top level, or one of its groups).
type covUse struct {
	char   int32
	set    int32
	target int32
	scope  int32
	off    image.Point     // destination → target coordinates
	rect   image.Rectangle // target coordinates
	slot   int32           // 1..maxSlots: 4·plane + channel + 1
}

// buildOps runs phase 3 (ops and batches) for the n planned characters
// and places the coverage and backdrop areas.
func (r *renderer) buildOps(n int) {
	r.ops, r.batches, r.uses = r.ops[:0], r.batches[:0], r.uses[:0]
	for k := range n {
		r.buildChar(k)
	}
	r.allocAreas()
}

// buildChar turns character k's items into ops, scope by scope: each
// group's contents in its layer target, then the top level in the
// caller's image.
func (r *renderer) buildChar(k int) {
	cp := &r.chars[k]
	cp.lastMain = -1
	cp.useFirst, cp.useEnd = int32(len(r.uses)), int32(len(r.uses))
	if len(cp.items) == 0 {
		return
	}
	for _, gi := range cp.post {
		g := &cp.groups[gi]
		if g.target >= 0 {
			r.buildScope(k, g.first, g.last, g.target, g.off, -1)
		}
	}
	// Characters drawn before this one whose area overlaps it: its ops
	// must follow all of theirs (lbChar).
	lb := int32(-1)
	r.overlap = r.overlap[:0]
	for j := range k {
		if o := &r.chars[j]; o.lastMain >= 0 && o.foot.Overlaps(cp.foot) {
			lb = max(lb, o.lastMain)
			r.overlap = append(r.overlap, int32(j))
		}
	}
	cp.useFirst = int32(len(r.uses))
	r.buildScope(k, 0, len(cp.items), 0, image.Point{}, lb)
	cp.useEnd = int32(len(r.uses))
}

// buildScope makes the ops of items [first, last) of character k (one
// group's contents, or the top level) in target ti, whose coordinates are
// the destination's plus off.
func (r *renderer) buildScope(k, first, last int, ti int32, off image.Point, lbChar int32) {
	cp := &r.chars[k]
	r.scopeID++
	sc := scope{id: r.scopeID, older: -1, lbChar: lbChar}
	top := ti == 0
	useStart := len(r.uses)

	// Mask sets in use, each with the union of the areas it masks here.
	for i := first; i < last; {
		set, b := r.itemMask(cp, i, off, ti)
		if set >= 0 && !b.Empty() {
			r.useMask(k, set, ti, sc.id, off, b, useStart)
		}
		i = cp.next(i)
	}
	r.assignSlots(k, useStart, top)

	t := &r.targets[ti]
	if !top && len(t.batches) == 0 {
		// A layer target's first call clears its groups' regions (see
		// renderTarget): a replace-blend call of the mesh program, which
		// the ops that draw over nothing join.
		r.openBatch(t, r.keyList(t, batchKey{src: cp.res.white, blend: blendReplace}))
	}
	for i := first; i < last; i = cp.next(i) {
		it := cp.items[i]
		var x op
		var key batchKey
		var mode [2]int
		var set int
		var invert bool
		if it.group < 0 {
			mi := int(it.mesh)
			x.bounds = cp.meshB[mi].Intersect(r.dstB).Add(off).Intersect(t.bounds)
			if x.bounds.Empty() {
				continue
			}
			mesh := &cp.res.meshes[mi]
			mul, scr := cp.rig.MeshColors(mi)
			M, S, o, ok := cp.colors(cp.rig.MeshOpacity(mi), mul, scr, top)
			if !ok {
				continue
			}
			set = cp.res.meshMask[mi]
			invert = mesh.flags&p2lrt.MeshInvertMask != 0
			x.mesh = int32(mi)
			x.off = off
			x.cull = mesh.flags&p2lrt.MeshCulling != 0
			src, _, _, _, _, _ := cp.page(mi)
			key.src = src
			x.col = [8]float32{M[0], M[1], M[2], o, S[0], S[1], S[2], cp.flags}
			mode = [2]int{int(mesh.blend), int(mesh.alpha)}
		} else {
			gi := int(it.group)
			g := &cp.groups[gi]
			if g.target < 0 {
				continue
			}
			x.bounds = g.clip.Add(off).Intersect(t.bounds)
			if x.bounds.Empty() {
				continue
			}
			M, S, o, ok := cp.colors(g.comp.Opacity, g.comp.Multiply, g.comp.Screen, top)
			if !ok {
				continue
			}
			set = g.maskSet
			invert = g.comp.InvertMask
			x.mesh = int32(-1 - gi)
			x.off = g.off.Sub(off)
			// The layer page is bound beside the model's pages (image 2 or
			// 3), so the composite shares the calls of the model's meshes.
			key.src = cp.res.white
			x.col = [8]float32{M[0], M[1], M[2], o, S[0], S[1], S[2], flagLayer}
			mode = [2]int{int(g.comp.Blend), int(g.comp.AlphaBlend)}
		}
		x.char = int32(k)
		x.next = -1
		flags := x.col[7]
		if set >= 0 {
			u := r.findUse(set, sc.id, useStart)
			if r.uses[u].slot == 0 {
				continue // no slot was left for its mask: not drawn (assignSlots)
			}
			flags += float32(flagSlot * r.uses[u].slot)
			if invert {
				flags += flagInvert
			}
		}
		blend, alpha := p2lrt.BlendMode(mode[0]), p2lrt.AlphaMode(mode[1])
		f, fixed := fixedFunction(blend, alpha)
		if fixed && f.zeroAlpha {
			flags += flagZeroAlpha
		}
		x.col[7] = flags
		if !top && sc.lowerBound(x.bounds) < 0 {
			// Nothing of the group is under it yet: it draws over the
			// cleared layer (see overClear), in the target's first call
			// when it writes its source as it is.
			if !overClear(blend, alpha) {
				continue
			}
			// A fixed-function one only when it would otherwise open a
			// call (the proof costs a pass over its vertices).
			if !fixed || r.noBatch(t, batchKey{src: key.src, blend: f.blend}) && r.flat(&x) {
				key.blend = blendReplace
				r.ops = append(r.ops, x)
				r.place(ti, int32(len(r.ops)-1), key, &sc)
				continue
			}
		}
		if fixed {
			key.blend = f.blend
			x.formula = uint8(f.formula)
		} else {
			key.backdrop = true
			key.blend = blendReplace
			x.col[7] += float32(flagBlend*int(blend) + flagAlpha*int(alpha))
			t.bdArea = t.bdArea.Union(x.bounds)
		}
		r.ops = append(r.ops, x)
		bi := r.place(ti, int32(len(r.ops)-1), key, &sc)
		if top {
			cp.lastMain = max(cp.lastMain, bi)
		}
	}
}

// next returns the item after item i at the same level (a group's
// composite is followed by the item after its contents).
func (cp *charPlan) next(i int) int {
	if g := cp.items[i].group; g >= 0 {
		return cp.groups[g].last
	}
	return i + 1
}

// itemMask returns the mask set of item i (−1 for none) and the area it
// masks in target ti's coordinates.
func (r *renderer) itemMask(cp *charPlan, i int, off image.Point, ti int32) (int, image.Rectangle) {
	it := cp.items[i]
	if it.group < 0 {
		s := cp.res.meshMask[it.mesh]
		if s < 0 {
			return -1, image.Rectangle{}
		}
		return s, cp.meshB[it.mesh].Intersect(r.dstB).Add(off).Intersect(r.targets[ti].bounds)
	}
	g := &cp.groups[it.group]
	if g.maskSet < 0 || g.target < 0 {
		return -1, image.Rectangle{}
	}
	return g.maskSet, g.clip.Add(off).Intersect(r.targets[ti].bounds)
}

// useMask records that mask set s masks area b of scope sc.
func (r *renderer) useMask(k, s int, ti, sc int32, off image.Point, b image.Rectangle, from int) {
	if u := r.findUse(s, sc, from); u >= 0 {
		r.uses[u].rect = r.uses[u].rect.Union(b)
		return
	}
	r.uses = append(r.uses, covUse{char: int32(k), set: int32(s), target: ti, scope: sc, off: off, rect: b})
}

func (r *renderer) findUse(s int, sc int32, from int) int {
	for u := from; u < len(r.uses); u++ {
		if r.uses[u].set == int32(s) && r.uses[u].scope == sc {
			return u
		}
	}
	return -1
}

// assignSlots gives each coverage use of the scope (uses[from:]) the first
// slot (plane and channel of the target's coverage area) that no
// overlapping use holds: uses of the same scope, and in the caller's image
// those of the overlapping characters drawn before.
func (r *renderer) assignSlots(k, from int, top bool) {
	for u := from; u < len(r.uses); u++ {
		var taken [4]uint64
		mark := func(o *covUse) {
			if o.slot > 0 && o.rect.Overlaps(r.uses[u].rect) {
				taken[o.slot/64] |= 1 << (o.slot % 64)
			}
		}
		for o := from; o < u; o++ {
			mark(&r.uses[o])
		}
		if top {
			for _, j := range r.overlap {
				o := &r.chars[j]
				for v := o.useFirst; v < o.useEnd; v++ {
					mark(&r.uses[v])
				}
			}
		}
		s := int32(1)
		for s <= maxSlots && taken[s/64]&(1<<(s%64)) != 0 {
			s++
		}
		use := &r.uses[u]
		if s > maxSlots {
			use.slot = 0 // unavailable: what it masks is not drawn
			continue
		}
		use.slot = s
		t := &r.targets[use.target]
		t.covArea = t.covArea.Union(use.rect)
		t.covPlanes = max(t.covPlanes, int(s-1)/4+1)
	}
}

// colors folds opacity, multiply, screen and (on the caller's target) the
// ColorScale into the vertex attributes M, S and o of the shaders:
// fragment = (t.rgb·M + t.a·S, t.a)·o.
//
// The rule is c' = c·mul, then c” = c' + s·a − c'·s = c'·(1 − s) + s·a,
// then ·opacity; so M = mul·(1 − s), S = s. A ColorScale k scales the
// premultiplied result per channel: rgb by k.rgb, alpha by k.a; that is
// o = opacity·k.a and M, S scaled by k.rgb/k.a.
func (cp *charPlan) colors(op float32, mul, scr p2lrt.Color, top bool) (M, S [3]float32, o float32, ok bool) {
	o = op
	for i := range 3 {
		M[i] = mul[i] * (1 - scr[i])
		S[i] = scr[i]
	}
	if top {
		o *= cp.cs[3]
		for i := range 3 {
			f := cp.cs[i] / cp.cs[3]
			M[i] *= f
			S[i] *= f
		}
	}
	return M, S, o, o > 0
}

// allocAreas places every target's coverage planes on the coverage page
// and its backdrop area on the scratch page, growing them when needed.
func (r *renderer) allocAreas() {
	alloc := func(p *page, size func(t *target) image.Point, set func(t *target, reg image.Rectangle, ok bool)) {
		for attempt := 0; ; attempt++ {
			p.reset()
			ok := true
			used := false
			for i := range r.targets {
				t := &r.targets[i]
				s := size(t)
				if s.X <= 0 || s.Y <= 0 {
					continue
				}
				used = true
				reg, fits := p.alloc(s.X, s.Y)
				set(t, reg, fits)
				ok = ok && fits
			}
			if ok || attempt == 3 || !used {
				break
			}
			p.grow()
		}
	}
	alloc(&pool.coverage, func(t *target) image.Point {
		if t.covPlanes == 0 {
			return image.Point{}
		}
		return image.Pt(t.covArea.Dx(), t.covArea.Dy()*t.covPlanes)
	}, func(t *target, reg image.Rectangle, ok bool) {
		t.covShift = reg.Min.Sub(t.covArea.Min)
		t.covOK = ok
	})
	alloc(&pool.scratch, func(t *target) image.Point { return t.bdArea.Size() }, func(t *target, reg image.Rectangle, ok bool) {
		t.bdShift = reg.Min.Sub(t.bdArea.Min)
		t.bdOK = ok
	})
	// A page that was grown above has a new image: the layout is final now.
	for i := range r.targets {
		t := &r.targets[i]
		t.covOK = t.covOK && pool.coverage.img != nil
		t.bdOK = t.bdOK && pool.scratch.img != nil
	}
}
