package ebitenp2l

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"
)

// Phase 5 of a frame (see renderer, draw.go): the targets' batches,
// deepest layer page first, the caller's image last.

// renderTargets draws the layer pages from the deepest nesting to the
// shallowest, then the caller's image.
func (r *renderer) renderTargets(n int) {
	for d := len(r.pageTgtDepths()) - 1; d >= 0; d-- {
		for ti := range r.targets {
			if r.targets[ti].depth == d {
				r.renderTarget(int32(ti), n)
			}
		}
	}
	r.renderTarget(0, n)
}

// clearRegions appends, to the call being built, quads writing zeros over
// the layer regions of the groups drawn into target ti (the call has
// replace blending).
func (r *renderer) clearRegions(ti int32, n int) {
	for k := range n {
		cp := &r.chars[k]
		for i := range cp.groups {
			g := &cp.groups[i]
			if g.target != ti {
				continue
			}
			size := g.clip.Size()
			if g.pageMode {
				size = g.full.Size()
			}
			r.quad(image.Rectangle{Min: g.region.Min, Max: g.region.Min.Add(size)}, image.Point{}, [8]float32{})
		}
	}
}

// pageTgtDepths returns the layer pages in use (one per nesting depth).
func (r *renderer) pageTgtDepths() []*page {
	d := 0
	for i := range r.targets {
		d = max(d, r.targets[i].depth+1)
	}
	return pool.layers[:d]
}

// renderTarget issues target ti's batches in order; a layer target's
// first batch (a replace-blend one, see buildScope) begins with the clear
// of its regions.
func (r *renderer) renderTarget(ti int32, n int) {
	t := &r.targets[ti]
	r.pooled = t.depth >= 0 // a layer page: its draws and backdrop copies
	if len(t.batches) == 0 {
		return
	}
	r.covU[0] = float32(t.covShift.X + t.origin.X)
	r.covU[1] = float32(t.covShift.Y + t.origin.Y)
	r.covU[2] = float32(t.covArea.Dy())
	r.backU[0] = float32(t.bdShift.X + t.origin.X)
	r.backU[1] = float32(t.bdShift.Y + t.origin.Y)
	var cov, layer *ebiten.Image
	if t.covOK {
		cov = pool.coverage.img
	}
	if t.depth+1 < len(pool.layers) {
		layer = pool.layers[t.depth+1].img
	}
	for j, bi := range t.batches {
		b := &r.batches[bi]
		if b.key.backdrop {
			if !t.bdOK {
				continue
			}
			r.copyBackdrop(t, b)
			r.begin(t.img, compositeShader, blendReplace, b.key.src, cov, pool.scratch.img)
			r.opts.Images[3] = layer
			r.fillSources()
			r.opts.Uniforms = r.compU
		} else {
			r.beginMesh(t.img, t.origin, meshProgram(t, b), b.key.blend, b.key.src, cov, layer)
			r.opts.Uniforms = r.meshU
			if j == 0 && t.depth >= 0 {
				r.clearRegions(ti, n)
			}
		}
		for x := b.first; x >= 0; x = r.ops[x].next {
			o := &r.ops[x]
			if !t.covOK && o.slot() != 0 {
				continue // its coverage did not fit: not drawn
			}
			if o.mesh >= 0 {
				r.emitMesh(&r.chars[o.char], int(o.mesh), o.off, o.col, o.cull)
				continue
			}
			r.quad(o.bounds, o.off, o.col)
		}
		r.flush()
	}
}

// copyBackdrop copies the target under the members of backdrop batch b to
// the scratch page (nearest sampling at texel centres: an exact copy).
func (r *renderer) copyBackdrop(t *target, b *batch) {
	r.beginMesh(pool.scratch.img, image.Point{}, meshVariantFor(false, false, false), blendReplace, t.img, nil, nil)
	col := [8]float32{1, 1, 1, 1, 0, 0, 0, flagNearest}
	for x := b.first; x >= 0; x = r.ops[x].next {
		q := r.ops[x].bounds
		r.quad(q.Add(t.bdShift), t.bdShift.Mul(-1), col)
	}
	r.flush()
}
