package render

import (
	"image"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// hitFrame is what hit testing reads from a rig.
type hitFrame interface {
	frame
	RenderOrder() []int
}

// HitTestAlpha is the pixel-accurate hit test: it returns the index of the
// first hit area (in file order) with a drawn mesh (in the render order,
// opacity > 0) that contains the canvas point (x, y) — edges included, as
// in the spec's triangle hit test — and whose texture alpha there is at
// least threshold. A point over a transparent texel does not count
// (desktop-pet click-through). It returns −1 when no area is hit.
//
// Texture alpha is sampled like drawing samples it (bilinear, premultiplied
// pages). A mesh without a texture page counts as opaque; a mesh whose page
// is unavailable falls back to the plain triangle test.
func (r *Renderer) HitTestAlpha(rig *p2l.Rig, x, y, threshold float32) int {
	if rig == nil {
		return -1
	}
	return r.hitTestAlpha(rig, x, y, threshold)
}

func (r *Renderer) hitTestAlpha(f hitFrame, x, y, threshold float32) int {
	m := f.Model()
	if m == nil || f.Err() != nil {
		return -1
	}
	r.usePages(m, false)
	if cap(r.drawn) < len(m.Meshes) {
		r.drawn = make([]bool, len(m.Meshes))
	}
	r.drawn = r.drawn[:len(m.Meshes)]
	clear(r.drawn)
	for _, mi := range f.RenderOrder() {
		if mi >= 0 && mi < len(r.drawn) {
			r.drawn[mi] = true
		}
	}
	for ai := range m.HitAreas {
		for _, mi := range m.HitAreas[ai].Meshes {
			if mi < 0 || mi >= len(r.drawn) || !r.drawn[mi] || !(f.MeshOpacity(mi) > 0) {
				continue
			}
			if a, in := r.meshAlphaAt(f, m, mi, x, y); in && a >= threshold {
				return ai
			}
		}
	}
	return -1
}

// MeshAlphaAt returns the texture alpha of mesh mi at the canvas point
// (x, y) — the largest over the mesh's triangles containing the point,
// edges included — and whether any triangle contains it. Culling, opacity
// and visibility are not considered. A mesh without a page has alpha 1
// inside; one whose page is unavailable also reports 1 inside.
func (r *Renderer) MeshAlphaAt(rig *p2l.Rig, mi int, x, y float32) (alpha float32, inside bool) {
	if rig == nil || rig.Model() == nil {
		return 0, false
	}
	r.usePages(rig.Model(), false)
	return r.meshAlphaAt(rig, rig.Model(), mi, x, y)
}

func (r *Renderer) meshAlphaAt(f frame, m *p2l.Model, mi int, x, y float32) (float32, bool) {
	if mi < 0 || mi >= len(m.Meshes) {
		return 0, false
	}
	var page *image.RGBA
	if p := m.Meshes[mi].TexturePage; p >= 0 && p < len(r.pages) {
		page = r.pages[p]
	}
	verts := f.MeshVertices(mi)
	uvs := f.MeshUVs(mi)
	idx := f.MeshIndices(mi)
	n := uint32(min(len(verts), len(uvs)) / 2)
	px, py := float64(x), float64(y)
	best, inside := float32(0), false
	for k := 0; k+2 < len(idx); k += 3 {
		i0, i1, i2 := idx[k], idx[k+1], idx[k+2]
		if i0 >= n || i1 >= n || i2 >= n {
			continue
		}
		ax, ay := float64(verts[2*i0]), float64(verts[2*i0+1])
		bx, by := float64(verts[2*i1]), float64(verts[2*i1+1])
		cx, cy := float64(verts[2*i2]), float64(verts[2*i2+1])
		area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
		if area == 0 || area != area {
			continue
		}
		// Barycentric weights; the point is inside (edges included) when
		// all three have the sign of the area or are zero.
		wa := ((bx-px)*(cy-py) - (by-py)*(cx-px)) / area
		wb := ((cx-px)*(ay-py) - (cy-py)*(ax-px)) / area
		wc := 1 - wa - wb
		const eps = -1e-9
		if wa < eps || wb < eps || wc < eps {
			continue
		}
		inside = true
		if page == nil {
			return 1, true
		}
		u := wa*float64(uvs[2*i0]) + wb*float64(uvs[2*i1]) + wc*float64(uvs[2*i2])
		v := wa*float64(uvs[2*i0+1]) + wb*float64(uvs[2*i1+1]) + wc*float64(uvs[2*i2+1])
		if a := sampleAlpha(page, u, v); a > best {
			best = a
		}
	}
	return best, inside
}
