package ebitenp2l

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// Phases 1 and 2 of a frame (see renderer, draw.go): plan each
// character's items and bounds, then lay the isolated groups out on the
// layer pages.

// plan runs phases 1 and 2 (plan, layout) for a frame of entries into
// dst; it reports false when nothing is visible.
func (r *renderer) plan(dst *ebiten.Image, entries []entry) bool {
	r.stamp++
	if r.stamp == 0 { // wrapped: old stamps could collide
		for i := range r.chars {
			clear(r.chars[i].meshStamp)
		}
		r.stamp = 1
	}
	r.dst, r.dstB = dst, dst.Bounds()
	for len(r.chars) < len(entries) {
		r.chars = append(r.chars, charPlan{})
	}
	visible := false
	for k := range entries {
		if r.planChar(k, &entries[k]) {
			visible = true
		}
	}
	if !visible {
		return false
	}
	r.layout(len(entries))
	return true
}

// planChar flattens character k's render commands and computes bounds; it
// reports false when nothing of it is visible.
func (r *renderer) planChar(k int, e *entry) bool {
	cp := &r.chars[k]
	cp.items, cp.groups, cp.stack, cp.post = cp.items[:0], cp.groups[:0], cp.stack[:0], cp.post[:0]
	cp.foot = image.Rectangle{}
	c := e.c
	if c == nil || c.res == nil {
		return false
	}
	cp.res, cp.rig, cp.vc, cp.fc = c.res, c.pose, &c.vc, &c.fc
	cp.revs = c.meshRevs
	g := e.opts.GeoM
	cs := e.opts.ColorScale
	cp.flags = 0
	if e.opts.Filter == FilterNearest {
		cp.flags = flagNearest
	}
	cp.geo = [6]float64{g.Element(0, 0), g.Element(0, 1), g.Element(1, 0), g.Element(1, 1), g.Element(0, 2), g.Element(1, 2)}
	cp.minScale = minStretch(cp.geo[0], cp.geo[1], cp.geo[2], cp.geo[3])
	cp.cs = [4]float32{cs.R(), cs.G(), cs.B(), cs.A()}
	if !(cp.cs[3] > 0) {
		return false // a zero alpha scale draws nothing
	}
	m := cp.res.model
	n := m.Meshes().Len()
	if len(cp.meshStamp) < n {
		cp.meshStamp = append(cp.meshStamp, make([]uint32, n-len(cp.meshStamp))...)
		cp.meshB = append(cp.meshB, make([]image.Rectangle, n-len(cp.meshB))...)
	}
	cp.vc.grow(n)
	cp.fc.grow(n)

	skip := 0 // > 0 inside a group that is not drawn
	for _, cmd := range cp.rig.RenderCommands() {
		if skip > 0 {
			if _, ok := cmd.Group(); ok {
				skip++
			} else if cmd == p2l.CloseGroup {
				skip--
			}
			continue
		}
		if mi, ok := cmd.Mesh(); ok {
			if mi >= n || !cp.visibleMesh(mi) {
				continue
			}
			b := r.meshBounds(cp, mi)
			if !b.Overlaps(r.dstB) {
				continue
			}
			cp.items = append(cp.items, item{mesh: int32(mi), group: -1})
			if len(cp.stack) > 0 {
				top := &cp.groups[cp.stack[len(cp.stack)-1]]
				top.full = top.full.Union(b)
			} else {
				cp.foot = cp.foot.Union(b.Intersect(r.dstB))
			}
			continue
		}
		if part, ok := cmd.Group(); ok {
			if !(cp.rig.GroupComposite(part).Opacity > 0) {
				// A transparent group leaves its target as it is in every
				// mode: neither its layer nor its masks are drawn.
				skip = 1
				continue
			}
			gi := len(cp.groups)
			cp.items = append(cp.items, item{mesh: -1, group: int32(gi)})
			ms := -1
			if part < len(cp.res.partMask) {
				ms = cp.res.partMask[part]
			}
			cp.groups = append(cp.groups, group{part: part, depth: len(cp.stack), first: len(cp.items), maskSet: ms, target: -1})
			cp.stack = append(cp.stack, gi)
			continue
		}
		r.closeGroup(cp)
	}
	for len(cp.stack) > 0 {
		r.closeGroup(cp)
	}
	return len(cp.items) > 0
}

// closeGroup ends the innermost open group: its bounds are final, so they
// join its parent's.
func (r *renderer) closeGroup(cp *charPlan) {
	if len(cp.stack) == 0 {
		return // an unbalanced close: ignored
	}
	gi := cp.stack[len(cp.stack)-1]
	cp.stack = cp.stack[:len(cp.stack)-1]
	g := &cp.groups[gi]
	g.last = len(cp.items)
	g.clip = g.full.Intersect(r.dstB)
	cp.post = append(cp.post, gi)
	if g.clip.Empty() {
		return
	}
	g.comp = cp.rig.GroupComposite(g.part)
	if len(cp.stack) > 0 {
		p := &cp.groups[cp.stack[len(cp.stack)-1]]
		p.full = p.full.Union(g.full)
	} else {
		cp.foot = cp.foot.Union(g.clip)
	}
}

func (cp *charPlan) visibleMesh(mi int) bool {
	if _, _, _, _, _, ok := cp.page(mi); !ok {
		return false
	}
	return cp.rig.MeshOpacity(mi) > 0
}

// page returns the image mesh mi samples, the position of its texel (0, 0)
// there and its size without the border: a mesh without a page (−1)
// samples opaque white; ok is false for a page that is unavailable (the
// mesh draws nothing and masks nothing).
func (cp *charPlan) page(mi int) (img *ebiten.Image, x, y, w, h float32, ok bool) {
	res := cp.res
	p := res.meshes[mi].page
	if p < 0 {
		return res.white, res.whiteX, res.whiteY, 1, 1, true
	}
	if p >= len(res.pageImg) || res.pageImg[p] == nil {
		return nil, 0, 0, 0, 0, false
	}
	return res.pageImg[p], res.pageX[p], res.pageY[p], res.pageW[p], res.pageH[p], true
}

// meshBounds returns the pixels of the destination whose centres mesh mi
// can cover (not clipped), computed once per frame: the canvas bounds of
// its vertices (kept per mesh revision) through the GeoM (see destBounds).
func (r *renderer) meshBounds(cp *charPlan, mi int) image.Rectangle {
	if cp.meshStamp[mi] == r.stamp {
		return cp.meshB[mi]
	}
	cp.meshStamp[mi] = r.stamp
	bb := destBounds(&cp.geo, cp.canvasBox(mi))
	cp.meshB[mi] = bb
	return bb
}

// destBounds returns the pixels whose centres the canvas box x0, y0, x1,
// y1 covers through the GeoM geo (a, b, c, d, tx, ty): the floor and
// ceiling of its corners' extent, clamped to ±2^24 (exact for scales and
// translations, a superset under rotation); empty when the box or a
// corner is not finite. It runs for every drawn mesh of every character
// in every frame that moved, so the common GeoM without rotation or shear
// takes two corners instead of four, and the rounding is done with
// integer conversions (math.Floor and math.Ceil are calls on amd64's
// baseline).
func destBounds(geo *[6]float64, box [4]float32) image.Rectangle {
	x0, y0, x1, y1 := float64(box[0]), float64(box[1]), float64(box[2]), float64(box[3])
	a, b, c, d, tx, ty := geo[0], geo[1], geo[2], geo[3], geo[4], geo[5]
	if s := x0 + y0 + x1 + y1; s-s != 0 { // an infinity or NaN
		return image.Rectangle{}
	}
	var minX, minY, maxX, maxY float64
	if b == 0 && c == 0 {
		// The general corners' values (b·y and c·x are zeros), from two
		// of them.
		minX, maxX = a*x0+tx, a*x1+tx
		minY, maxY = d*y0+ty, d*y1+ty
		if minX > maxX {
			minX, maxX = maxX, minX
		}
		if minY > maxY {
			minY, maxY = maxY, minY
		}
	} else {
		minX, minY = math.Inf(1), math.Inf(1)
		maxX, maxY = math.Inf(-1), math.Inf(-1)
		for _, p := range [4][2]float64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
			sx, sy := a*p[0]+b*p[1]+tx, c*p[0]+d*p[1]+ty
			minX, maxX = min(minX, sx), max(maxX, sx)
			minY, maxY = min(minY, sy), max(maxY, sy)
		}
	}
	if s := minX + minY + maxX + maxY; s-s != 0 {
		return image.Rectangle{}
	}
	return image.Rectangle{
		Min: image.Point{floorClamp(minX), floorClamp(minY)},
		Max: image.Point{ceilClamp(maxX), ceilClamp(maxY)},
	}
}

// floorClamp and ceilClamp round a finite number down or up to an
// integer within ±2^24.
func floorClamp(f float64) int {
	f = max(min(f, 1<<24), -(1 << 24))
	i := int(f)
	if float64(i) > f {
		i--
	}
	return i
}

func ceilClamp(f float64) int {
	f = max(min(f, 1<<24), -(1 << 24))
	i := int(f)
	if float64(i) < f {
		i++
	}
	return i
}

// canvasBox returns the canvas bounding box x0, y0, x1, y1 of mesh mi's
// vertices (see vertexCache.box). Character.Update has usually computed it
// already, right after the evaluation (Character.keepBoxes).
func (cp *charPlan) canvasBox(mi int) [4]float32 {
	return cp.vc.box(cp.rig, cp.rev(mi), mi)
}

// boxOf returns the bounding box x0, y0, x1, y1 of the points of v (at
// least one; NaN when one is NaN). Even and odd points go to two sets of
// minima and maxima, which halves the chain of dependent min/max
// operations per point.
func boxOf(v []float32) [4]float32 {
	v = v[:len(v)&^1]
	ax0, ay0 := v[0], v[1]
	ax1, ay1, bx0, by0, bx1, by1 := ax0, ay0, ax0, ay0, ax0, ay0
	i := 2
	for ; i+4 <= len(v); i += 4 {
		p := v[i : i+4 : i+4]
		ax0, ax1 = min(ax0, p[0]), max(ax1, p[0])
		ay0, ay1 = min(ay0, p[1]), max(ay1, p[1])
		bx0, bx1 = min(bx0, p[2]), max(bx1, p[2])
		by0, by1 = min(by0, p[3]), max(by1, p[3])
	}
	if i < len(v) {
		ax0, ax1 = min(ax0, v[i]), max(ax1, v[i])
		ay0, ay1 = min(ay0, v[i+1]), max(ay1, v[i+1])
	}
	return [4]float32{min(ax0, bx0), min(ay0, by0), max(ax1, bx1), max(ay1, by1)}
}

// rev returns mesh mi's revision, 0 when the pose has none.
func (cp *charPlan) rev(mi int) uint64 {
	if cp.revs == nil {
		return 0
	}
	return cp.revs.MeshRevision(mi)
}

// minStretch returns the smaller singular value of the matrix (a b; c d):
// |det| over the larger one, which has no cancellation.
func minStretch(a, b, c, d float64) float64 {
	t := a*a + b*b + c*c + d*d
	det := a*d - b*c
	hi := math.Sqrt((t + math.Sqrt(max(0, t*t-4*det*det))) / 2)
	if !(hi > 0) {
		return 0
	}
	return math.Abs(det) / hi
}

// fitsPage reports whether group g is drawn into its layer page as a whole
// (its region then holds every triangle, so no clipping is needed and
// groups share calls): when it is at most about twice as large as its
// visible part. Larger groups (mostly off the destination) get a clipped
// sub-image of their own.
func (g *group) fitsPage() bool {
	const slack = 256
	return g.full.Dx() <= 2*g.clip.Dx()+slack && g.full.Dy() <= 2*g.clip.Dy()+slack
}

// layout gives every drawn group of the frame a region of the layer page
// of its depth and a target.
func (r *renderer) layout(n int) {
	for attempt := 0; ; attempt++ {
		ok := true
		for _, l := range pool.layers {
			l.reset()
		}
		for k := range n {
			cp := &r.chars[k]
			for i := range cp.groups {
				g := &cp.groups[i]
				if g.clip.Empty() {
					continue
				}
				g.pageMode = g.fitsPage()
				size := g.clip.Size()
				if g.pageMode {
					size = g.full.Size()
				}
				reg, fits := pool.layer(g.depth).alloc(size.X, size.Y)
				g.region = reg
				ok = ok && fits
			}
		}
		if ok || attempt == 3 {
			break
		}
		for _, l := range pool.layers {
			if l.overflow {
				l.grow()
			}
		}
	}
	r.targets = r.targets[:min(len(r.targets), 1)]
	r.addTarget(r.dst, -1)
	r.targets[0].bounds = r.dstB
	r.pageTgt = r.pageTgt[:0]
	for k := range n {
		cp := &r.chars[k]
		for i := range cp.groups {
			g := &cp.groups[i]
			g.target = -1
			l := pool.layer(g.depth)
			if g.clip.Empty() || g.region.Max.X > l.w || g.region.Max.Y > l.h {
				continue // does not fit even the largest page: not drawn
			}
			if g.pageMode {
				g.off = g.region.Min.Sub(g.full.Min)
				for len(r.pageTgt) <= g.depth {
					r.pageTgt = append(r.pageTgt, -1)
				}
				if r.pageTgt[g.depth] < 0 {
					r.pageTgt[g.depth] = r.addTarget(l.img, g.depth)
				}
				g.target = r.pageTgt[g.depth]
				continue
			}
			g.off = g.region.Min.Sub(g.clip.Min)
			sub := l.sub(image.Rectangle{Min: g.region.Min, Max: g.region.Min.Add(g.clip.Size())})
			g.target = r.addTarget(sub, g.depth)
		}
	}
}

// addTarget appends a target drawing into img (its bounds, or the caller's
// bounds for the main target) and returns its index. The first call of a
// frame makes target 0, the caller's image.
func (r *renderer) addTarget(img *ebiten.Image, depth int) int32 {
	i := len(r.targets)
	if depth < 0 {
		i = 0
	}
	if i == len(r.targets) {
		if i < cap(r.targets) {
			r.targets = r.targets[:i+1]
		} else {
			r.targets = append(r.targets, target{})
		}
	}
	t := &r.targets[i]
	keys, batches := t.keys[:0], t.batches[:0]
	*t = target{img: img, origin: img.Bounds().Min, bounds: img.Bounds(), depth: depth, keys: keys, batches: batches}
	return int32(i)
}
