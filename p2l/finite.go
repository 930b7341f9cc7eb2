package p2l

import (
	"fmt"

	"github.com/psd2live/p2l-ebiten/p2l/internal/nonfinite"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Numeric hygiene (docs/LIMITS.md): setters ignore values that are not
// finite, and an evaluation whose outputs are not all finite makes the rig
// fail instead of handing NaN or infinite vertices to a renderer.

// finite64 reports whether v is neither NaN nor ±Inf.
func finite64(v float64) bool { return v-v == 0 }

// allFinite reports whether every value of s is finite.
func allFinite(s []float32) bool { return zeroIfFinite(s) == 0 }

// finite reports whether f is neither NaN nor ±Inf.
func finite(f float32) bool { return nonfinite.Finite(f) }

// zeroIfFinite returns 0 when every value of s is finite and NaN otherwise
// (nonfinite.Probe).
func zeroIfFinite(s []float32) float32 { return nonfinite.Probe(s) }

// nonFinite returns the index of the first value of s that is NaN or ±Inf,
// or −1.
func nonFinite(s []float32) int { return nonfinite.Index(s) }

// unitColor clamps every component to [0, 1].
func unitColor(c p2lrt.Color) p2lrt.Color {
	for k, v := range c {
		c[k] = max(0, min(1, v))
	}
	return c
}

// checkOutputs fails the rig when the last evaluation produced a value that
// is not finite: a vertex, a mesh opacity, color or draw order, or a part's
// opacity, colors or draw order. Files hold finite numbers only, but finite
// extremes (keys near ±3.4e38, deep chains of large scales) can overflow.
// The common case is one pass of sums; the culprit is looked for only
// when the sums say there is one.
func (r *Rig) checkOutputs() {
	// Vertices of the meshes this evaluation recomputed (markMoved): the
	// kept ones passed this check when they were computed, and those
	// mapped through a lattice of small coordinates are finite by its
	// bound (latticeBound, widen) unless glue moved them (glueCheck).
	z := r.glueCheck
	out := r.verts[r.vcur]
	for i := range r.p.meshes {
		if c := &r.p.meshes[i]; r.meshMoved[i] && !r.finiteVerts[i] {
			z += zeroIfFinite(out[c.vOff : c.vOff+2*c.nv])
		}
	}
	z += zeroIfFinite(r.meshOpacity) + zeroIfFinite(r.meshDraw)
	for i := range r.meshMul {
		m, s := &r.meshMul[i], &r.meshScr[i]
		z += m[0] - m[0] + m[1] - m[1] + m[2] - m[2] + s[0] - s[0] + s[1] - s[1] + s[2] - s[2]
	}
	for i := range r.partProps {
		p := &r.partProps[i]
		d := float32(p.drawOrder)
		z += float32(p.opacity-p.opacity) + d - d
		for c := 0; c < 3; c++ {
			z += float32(p.mul[c] - p.mul[c] + p.scr[c] - p.scr[c])
		}
	}
	if z == 0 {
		return
	}
	if i := nonFinite(r.verts[r.vcur]); i >= 0 {
		mesh := 0
		for k := range r.p.meshes {
			if c := &r.p.meshes[k]; i >= c.vOff && i < c.vOff+2*c.nv {
				mesh = k
				break
			}
		}
		tag, id, field, v := overflowSource(r.model, mesh)
		r.fail(&recordError{tag: tag, field: field,
			msg: fmt.Sprintf("p2l: mesh %d (%q): evaluated vertex is not finite (%v); the model's values overflow at this pose (the largest value it takes in: %s %s of %q = %v)",
				mesh, r.model.file.Meshes[mesh].ID, r.verts[r.vcur][i], tag, field, id, v)})
		return
	}
	for i := range r.meshOpacity {
		m, c := &r.meshMul[i], &r.meshScr[i]
		if f := nonFiniteProps(float64(r.meshOpacity[i]), float64(r.meshDraw[i]),
			[3]float64{float64(m[0]), float64(m[1]), float64(m[2])}, [3]float64{float64(c[0]), float64(c[1]), float64(c[2])}); f != "" {
			r.fail(recordFail("MESH", "mesh", i, r.model.file.Meshes[i].ID, f, "evaluated opacity, color or draw order is not finite (%s); the model's values overflow at this pose", f))
			return
		}
	}
	for i := range r.partProps {
		p := &r.partProps[i]
		if f := nonFiniteProps(p.opacity, float64(float32(p.drawOrder)), p.mul, p.scr); f != "" {
			r.fail(recordFail("PART", "part", i, r.model.file.Parts[i].ID, f, "evaluated opacity, color or draw order is not finite (%s); the model's values overflow at this pose", f))
			return
		}
	}
}

// nonFiniteProps names the first of an evaluated opacity, draw order,
// multiply and screen color that is not finite, or returns "".
func nonFiniteProps(opacity, drawOrder float64, mul, scr [3]float64) string {
	switch {
	case !finite64(opacity):
		return "opacity"
	case !finite64(drawOrder):
		return "drawOrder"
	case !finite64(mul[0] + mul[1] + mul[2]):
		return "multiply"
	case !finite64(scr[0] + scr[1] + scr[2]):
		return "screen"
	}
	return ""
}

// finiteAffine reports whether every coefficient of a is finite.
func finiteAffine(a Affine) bool { return finite64(a.A + a.B + a.C + a.D + a.TX + a.TY) }
