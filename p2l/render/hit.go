package render

import (
	"math"

	"github.com/psd2live/p2l-ebiten/internal/rigframe"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// DefaultHitThreshold is the alpha threshold hosts pass to MeshAt and
// HitTestAlpha when they have no reason to choose another: a point counts
// as on the character where the topmost fragment covers at least half of
// the pixel, so the soft fringe of anti-aliased edges, glows and shadows
// lets clicks through while every solid part catches them.
const DefaultHitThreshold = 0.5

// hitFrame is what hit testing reads from a rig.
type hitFrame interface {
	frame
	HitTest(x, y float32) int
}

// MeshAt is the pixel-exact hit test: it returns the topmost mesh (in the
// draw order of RenderCommands) whose fragment at the canvas point (x, y)
// has an alpha of at least threshold (and above zero), or −1 when the
// point is on no drawn part of the character.
//
// A mesh's fragment alpha at a point is what the renderer would draw there
// before compositing, with the same rules and the same sampler:
//
//   - the point must lie in one of the mesh's triangles, edges included
//     (degenerate triangles contain nothing; with culling on, only front
//     faces count, decided in canvas coordinates as for drawing);
//   - the texel alpha is sampled bilinearly at the point's interpolated
//     texture coordinates (texel centres at (i + 0.5)/size, clamp to edge:
//     on the boundary between two texels the alpha is their mean); where
//     several triangles of the mesh contain the point, the largest alpha
//     counts; a mesh without a page (−1) has alpha 1, one whose page is
//     unavailable draws nothing and is never hit;
//   - times the mesh's evaluated opacity (capped at 1) and its mask
//     coverage at the point (the maximum texel alpha of its mask meshes,
//     1 − that when inverted; mask meshes culled as for drawing: only
//     when the model culls masks, p2l.Model.CullsMasks);
//   - times the opacity and mask coverage of every isolated group around
//     the mesh (PartState.Composite).
//
// Blend modes do not change the test: a fragment counts by its own alpha.
// The point is taken where it lies, not snapped to a pixel centre. The
// renderer's texture pages are used (Pages, or the pages it decodes
// itself, as for Render); after the first call for a model MeshAt
// allocates nothing.
func (r *Renderer) MeshAt(rig *p2l.Rig, x, y, threshold float32) int {
	if rig == nil {
		return -1
	}
	return r.meshAt(rigframe.Frame{Rig: rig}, x, y, threshold)
}

// HitTestAlpha is the hit-area test by drawn pixels: the hit area
// Rig.HitTest finds at the canvas point (x, y) (the first in file order
// with a mesh containing the point, by that method's rules), provided the
// character is drawn there (MeshAt(rig, x, y, threshold) ≥ 0); −1
// otherwise. A click on a transparent corner of a hair mesh, with nothing
// drawn under it, hits nothing; the areas keep their shapes, so hit-area
// meshes that are themselves transparent (as Cubism models draw them)
// still work.
func (r *Renderer) HitTestAlpha(rig *p2l.Rig, x, y, threshold float32) int {
	if rig == nil {
		return -1
	}
	return r.hitTestAlpha(rigframe.Frame{Rig: rig}, x, y, threshold)
}

func (r *Renderer) hitTestAlpha(f hitFrame, x, y, threshold float32) int {
	if r.meshAt(f, x, y, threshold) < 0 {
		return -1
	}
	return f.HitTest(x, y)
}

// MeshAlphaAt returns the fragment alpha of mesh mi at the canvas point
// (x, y) by MeshAt's rules — texel alpha × opacity × mask coverage, the
// isolated groups around the mesh left out — and whether one of its
// triangles contains the point. It does not check that the mesh is drawn.
func (r *Renderer) MeshAlphaAt(rig *p2l.Rig, mi int, x, y float32) (alpha float32, inside bool) {
	if rig == nil || rig.Model() == nil || rig.Err() != nil {
		return 0, false
	}
	r.usePages(rig.Model(), false)
	return r.fragmentAlphaAt(rigframe.Frame{Rig: rig}, rig.Model(), mi, float64(x), float64(y))
}

func (r *Renderer) meshAt(f frame, x, y, threshold float32) int {
	m := f.Model()
	if m == nil || f.Err() != nil || !finite32(x) || !finite32(y) {
		return -1
	}
	r.usePages(m, false)
	cmds := f.RenderCommands()
	r.planHitGroups(cmds)
	px, py := float64(x), float64(y)
	for k := len(cmds) - 1; k >= 0; k-- {
		mi, ok := cmds[k].Mesh()
		if !ok {
			continue
		}
		a, _ := r.fragmentAlphaAt(f, m, mi, px, py)
		for g := r.hit.meshGroup[k]; g >= 0 && a > 0 && a >= threshold; g = r.hit.parent[g] {
			a *= r.groupScaleAt(f, m, g, px, py)
		}
		if a > 0 && a >= threshold {
			return mi
		}
	}
	return -1
}

// hitGroups is MeshAt's view of the isolated groups of one call: per
// render command, the innermost group around it; per group (ordinal of its
// OpenGroup), its part, the group around it and its scale at the point
// (NaN until needed).
type hitGroups struct {
	meshGroup []int
	part      []int
	parent    []int
	scale     []float32
	stack     []int
}

// planHitGroups finds the group around every command as draw walks them:
// a stray close is ignored, groups left open end with the commands.
func (r *Renderer) planHitGroups(cmds []p2l.RenderCommand) {
	h := &r.hit
	h.meshGroup = h.meshGroup[:0]
	h.part, h.parent, h.scale, h.stack = h.part[:0], h.parent[:0], h.scale[:0], h.stack[:0]
	for _, c := range cmds {
		top := -1
		if n := len(h.stack); n > 0 {
			top = h.stack[n-1]
		}
		h.meshGroup = append(h.meshGroup, top)
		if part, ok := c.Group(); ok {
			h.stack = append(h.stack, len(h.part))
			h.part = append(h.part, part)
			h.parent = append(h.parent, top)
			h.scale = append(h.scale, float32(math.NaN()))
		} else if _, ok := c.Mesh(); !ok && len(h.stack) > 0 {
			h.stack = h.stack[:len(h.stack)-1]
		}
	}
}

// groupScaleAt is what closeGroup scales group g's layer by at the point:
// its opacity (capped at 1) times its mask coverage.
func (r *Renderer) groupScaleAt(f frame, m *p2l.Model, g int, x, y float64) float32 {
	if s := r.hit.scale[g]; s == s {
		return s
	}
	comp := f.GroupComposite(r.hit.part[g])
	s := float32(0)
	if comp.Opacity > 0 {
		s = min(comp.Opacity, 1)
		if len(comp.MaskMeshes) > 0 {
			s *= r.coverageAt(f, m, comp.MaskMeshes, comp.InvertMask, x, y)
		}
	}
	r.hit.scale[g] = s
	return s
}

// fragmentAlphaAt is MeshAlphaAt for mesh mi of frame f.
func (r *Renderer) fragmentAlphaAt(f frame, m *p2l.Model, mi int, x, y float64) (float32, bool) {
	if mi < 0 || mi >= m.Meshes().Len() {
		return 0, false
	}
	mesh := m.Meshes().At(mi)
	page, white, ok := r.pageOf(mesh.TexturePage)
	if !ok {
		return 0, false // draws nothing
	}
	tex, inside := float32(0), false
	verts, uvs, idx := f.MeshVertices(mi), f.MeshUVs(mi), f.MeshIndices(mi)
	cull := mesh.Flags&p2lrt.MeshCulling != 0
	for k := 0; k+2 < len(idx); k += 3 {
		u, v, in := triangleAt(verts, uvs, idx[k:k+3:k+3], cull, x, y)
		if !in {
			continue
		}
		inside = true
		if white {
			tex = 1
			break
		}
		// The renderer's sampler (sample, not sampleAlpha), so that the
		// alpha is the drawn fragment's to the bit at the same (u, v).
		if a := sample(page, u, v).A; a > tex {
			tex = a
		}
	}
	op := f.MeshOpacity(mi)
	if !inside || tex == 0 || !(op > 0) {
		return 0, inside
	}
	scale := min(op, 1)
	if len(mesh.Masks) > 0 {
		scale *= r.coverageAt(f, m, mesh.Masks, mesh.Flags&p2lrt.MeshInvertMask != 0, x, y)
	}
	// Shade's alpha: texel alpha × opacity × coverage.
	return tex * scale, true
}

// coverageAt is the mask coverage of masks at the point, as coverage
// computes it at a pixel centre: the maximum texel alpha of the mask
// meshes there (sampleAlpha, as coverSpan samples, culled as coverage
// culls them), or, when the model unites masks, the union of each mask
// mesh's alpha there (a point on an edge two of its triangles share
// counts once, as the rasterizer draws it once); 1 − that when invert.
func (r *Renderer) coverageAt(f frame, m *p2l.Model, masks []int, invert bool, x, y float64) float32 {
	cov := float32(0)
	cullMasks, unite := m.CullsMasks(), m.UnitesMasks()
	for _, mi := range masks {
		if mi < 0 || mi >= m.Meshes().Len() || cov >= 1 {
			continue
		}
		mesh := m.Meshes().At(mi)
		page, white, ok := r.pageOf(mesh.TexturePage)
		if !ok {
			continue
		}
		cull := cullMasks && mesh.Flags&p2lrt.MeshCulling != 0
		verts, uvs, idx := f.MeshVertices(mi), f.MeshUVs(mi), f.MeshIndices(mi)
		meshCov := float32(0)
		for k := 0; k+2 < len(idx); k += 3 {
			u, v, in := triangleAt(verts, uvs, idx[k:k+3:k+3], cull, x, y)
			if !in {
				continue
			}
			a := float32(1)
			if !white {
				a = sampleAlpha(page, u, v)
			}
			meshCov = max(meshCov, a)
		}
		if unite {
			cov += meshCov - cov*meshCov
		} else {
			cov = max(cov, meshCov)
		}
	}
	if invert {
		return 1 - cov
	}
	return cov
}

// triangleAt reports whether the triangle of canvas vertices verts at
// indices tri contains the point (x, y), edges included, and returns the
// texture coordinates interpolated there. Degenerate triangles, indices
// beyond the vertices or texture coordinates, non-finite vertices and,
// with cull, back faces ((b − a) × (c − a) ≥ 0 in canvas coordinates, as
// meshTriangles culls) contain nothing.
func triangleAt(verts, uvs []float32, tri []uint32, cull bool, x, y float64) (u, v float64, ok bool) {
	n := uint32(min(len(verts), len(uvs)) / 2)
	i0, i1, i2 := tri[0], tri[1], tri[2]
	if i0 >= n || i1 >= n || i2 >= n {
		return 0, 0, false
	}
	ax, ay := float64(verts[2*i0]), float64(verts[2*i0+1])
	bx, by := float64(verts[2*i1]), float64(verts[2*i1+1])
	cx, cy := float64(verts[2*i2]), float64(verts[2*i2+1])
	area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
	if !(area != 0) || math.IsInf(area, 0) || (cull && area >= 0) {
		return 0, 0, false // also NaN
	}
	// Edge functions: each is twice the area of the sub-triangle opposite
	// a vertex, so dividing by the area gives that vertex's barycentric
	// weight. Inside (edges included) when none has the opposite sign of
	// the area.
	wa := (cx-bx)*(y-by) - (cy-by)*(x-bx)
	wb := (ax-cx)*(y-cy) - (ay-cy)*(x-cx)
	wc := (bx-ax)*(y-ay) - (by-ay)*(x-ax)
	if area > 0 && (wa < 0 || wb < 0 || wc < 0) || area < 0 && (wa > 0 || wb > 0 || wc > 0) {
		return 0, 0, false
	}
	wa, wb, wc = wa/area, wb/area, wc/area
	u = wa*float64(uvs[2*i0]) + wb*float64(uvs[2*i1]) + wc*float64(uvs[2*i2])
	v = wa*float64(uvs[2*i0+1]) + wb*float64(uvs[2*i1+1]) + wc*float64(uvs[2*i2+1])
	return u, v, true
}

func finite32(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }
