package ebitenp2l

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Phase 4 of a frame (see renderer, draw.go): mask coverage.

// slotShift maps use u's target coordinates to its plane of the coverage
// page.
func (r *renderer) slotShift(u *covUse) image.Point {
	t := &r.targets[u.target]
	plane := int(u.slot-1) / 4
	return t.covShift.Add(image.Pt(0, plane*t.covArea.Dy()))
}

// renderCoverage clears every coverage use's area, then renders each use's
// mask meshes into its plane and channel: the maximum of their texture
// alpha at each pixel centre, or their union for a model that unites
// masks (blendUnion; a change of rule between uses is a new call).
func (r *renderer) renderCoverage(n int) {
	if len(r.uses) == 0 {
		return
	}
	p := &pool.coverage
	r.pooled = true
	r.quads = r.quads[:0]
	for i := range r.uses {
		u := &r.uses[i]
		if u.slot > 0 && r.targets[u.target].covOK {
			r.quads = append(r.quads, u.rect.Add(r.slotShift(u)))
		}
	}
	if len(r.quads) == 0 {
		return
	}
	r.clearQuads(p.img, r.quads)
	r.begin(p.img, coverageShader, blendMax, nil, nil, nil)
	for i := range r.uses {
		u := &r.uses[i]
		if u.slot == 0 || !r.targets[u.target].covOK {
			continue
		}
		cp := &r.chars[u.char]
		if blend := coverageBlend(cp.res.uniteMasks); blend != r.opts.Blend {
			r.flush()
			r.opts.Blend = blend
			r.counted = false // a new state
		}
		shift := r.slotShift(u).Add(u.off)
		clipR := u.rect.Add(r.slotShift(u))
		clipV := [4]float32{float32(clipR.Min.X), float32(clipR.Min.Y), float32(clipR.Max.X), float32(clipR.Max.Y)}
		ch := float32((u.slot - 1) % 4)
		nearest := float32(0)
		if cp.flags == flagNearest {
			nearest = 1
		}
		for _, mi := range cp.res.maskSets[u.set] {
			src, _, _, _, _, ok := cp.page(mi)
			if !ok || r.meshBounds(cp, mi).Empty() {
				continue
			}
			if r.opts.Images[0] != src {
				r.flush()
				r.opts.Images[0] = src
				r.counted = false // a new state
			}
			col := [8]float32{ch, nearest, 0, 0, clipV[0], clipV[1], clipV[2], clipV[3]}
			r.emitMesh(cp, mi, shift, col, cp.res.cullMasks && cp.res.meshes[mi].flags&p2lrt.MeshCulling != 0)
		}
	}
	r.flush()
}

// clearQuads clears rectangles of img (replace blending of zeros).
func (r *renderer) clearQuads(img *ebiten.Image, rects []image.Rectangle) {
	r.beginMesh(img, image.Point{}, meshVariantFor(false, false, false), blendReplace, whiteImage(), nil, nil)
	for _, q := range rects {
		r.quad(q, image.Point{}, [8]float32{})
	}
	r.flush()
}

// coverageBlend is how mask meshes join a coverage channel: their union
// when the model unites masks, else their maximum.
func coverageBlend(unite bool) ebiten.Blend {
	if unite {
		return blendUnion
	}
	return blendMax
}
