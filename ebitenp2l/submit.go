package ebitenp2l

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"
)

// The call being built and its submission (phases 4 and 5; draw.go).

// begin starts a call into dst. Sources left nil get a small white image:
// the programs declare their sources whether a call reads them or not, and
// an unbound texture unit keeps whatever the driver bound there last,
// which WebGL refuses as a feedback loop when that is the destination (a
// layer page bound as a source in one frame, drawn into in the next).
func (r *renderer) begin(dst *ebiten.Image, s *ebiten.Shader, blend ebiten.Blend, src0, src1, src2 *ebiten.Image) {
	r.flush()
	r.counted = false
	r.call.dst, r.call.shader, r.call.mesh = dst, s, meshVariant{}
	r.opts.Blend = blend
	r.opts.Images = [4]*ebiten.Image{src0, src1, src2, nil}
	r.fillSources()
	r.opts.Uniforms = nil
}

// beginMesh starts a call of mesh program variant v into dst, whose
// target-local positions are relative to origin (begin).
func (r *renderer) beginMesh(dst *ebiten.Image, origin image.Point, v meshVariant, blend ebiten.Blend, src0, src1, src2 *ebiten.Image) {
	r.begin(dst, v.shader, blend, src0, src1, src2)
	r.call.mesh, r.call.origin = v, origin
}

// localOrigin returns, when the call's vertices carry their target-local
// positions in Custom0 and Custom1 (the fragment's position for the mask
// read of a packed masked variant, shaders/mesh_packed_masked.kage), the
// origin those are relative to; else nil. The op colour words of such a
// call have no screen colour, so nothing else is kept in those two.
func (r *renderer) localOrigin() *image.Point {
	if !r.call.mesh.position {
		return nil
	}
	return &r.call.origin
}

// localPositions writes the target-local positions of quad vertices vs
// when the call asks for them (localOrigin; buildVertices does it for
// meshes).
func (r *renderer) localPositions(vs []ebiten.Vertex) {
	if o := r.localOrigin(); o != nil {
		ox, oy := float32(o.X), float32(o.Y)
		for i := range vs {
			vs[i].Custom0, vs[i].Custom1 = vs[i].DstX-ox, vs[i].DstY-oy
		}
	}
}

// words returns op colour words col = (M, opacity, S, flags) as the
// call's vertices carry them: as they are for the composite and coverage
// programs, else as meshWords gives them for the call's variant.
func (r *renderer) words(col [8]float32) [8]float32 {
	if r.call.mesh.shader == nil {
		return col
	}
	return meshWords(col, r.call.mesh.packed)
}

// meshWords returns colour words col as a call of the mesh program reads
// them: for a packed variant (shaders/mesh_packed.kage), ColorA =
// 4·flags + 1 + opacity, which holds the flags (below 4096) and an
// opacity in [0, 1] rounded to the float32 spacing of that sum (an error
// of at most 2⁻¹¹ for the largest flags, 2⁻¹⁹ for the unmasked ones,
// below 16: TestMeshWords); for a variant with the
// screen colour, the same rounded opacity, so that both variants draw the
// same pixels whichever a batch takes.
func meshWords(col [8]float32, packed bool) [8]float32 {
	base := float32(4*int(col[7]) + 1)
	a := base + col[3]
	if packed {
		col[3] = a
	} else {
		col[3] = a - base
	}
	return col
}

// fillSources puts the white image in the call's empty source slots.
func (r *renderer) fillSources() {
	for i, img := range r.opts.Images {
		if img == nil {
			r.opts.Images[i] = whiteImage()
		}
	}
}

// quad appends rectangle q of the destination, sampling source image 0 at
// q + srcOff, with vertex colours col.
func (r *renderer) quad(q image.Rectangle, srcOff image.Point, col [8]float32) {
	if len(r.verts)+4 > chunkVertices {
		r.flush()
	}
	col = r.words(col)
	base := uint16(len(r.verts))
	x, y, w, h := float32(q.Min.X), float32(q.Min.Y), float32(q.Dx()), float32(q.Dy())
	sx, sy := x+float32(srcOff.X), y+float32(srcOff.Y)
	for j := range 4 {
		dx, dy := float32(j&1)*w, float32(j>>1)*h
		r.verts = append(r.verts, ebiten.Vertex{
			DstX: x + dx, DstY: y + dy, SrcX: sx + dx, SrcY: sy + dy,
			ColorR: col[0], ColorG: col[1], ColorB: col[2], ColorA: col[3],
			Custom0: col[4], Custom1: col[5], Custom2: col[6], Custom3: col[7],
		})
	}
	r.localPositions(r.verts[len(r.verts)-4:])
	r.inds = append(r.inds, base, base+1, base+2, base+1, base+3, base+2)
}

// flush submits the call being built, if it has triangles; the first
// submission of a state run counts as a draw.
func (r *renderer) flush() {
	if len(r.inds) > 0 && r.call.dst != nil {
		r.call.dst.DrawTrianglesShader(r.verts, r.inds, r.call.shader, &r.opts)
		if counters != nil {
			counters.submits++
		}
		first := !r.counted
		if first {
			r.drawCalls++
			r.counted = true
		}
		if r.rec != nil {
			r.rec.record(r, first)
		}
	}
	r.verts, r.inds = r.verts[:0], r.inds[:0]
}
