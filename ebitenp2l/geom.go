package ebitenp2l

import (
	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// GeoM returns the ebiten.GeoM of an affine canvas transform (for example a
// bone transform from Rig.BoneTransform): both map x' = A·x + B·y + TX,
// y' = C·x + D·y + TY.
func GeoM(a p2l.Affine) ebiten.GeoM {
	var g ebiten.GeoM
	g.SetElement(0, 0, a.A)
	g.SetElement(0, 1, a.B)
	g.SetElement(0, 2, a.TX)
	g.SetElement(1, 0, a.C)
	g.SetElement(1, 1, a.D)
	g.SetElement(1, 2, a.TY)
	return g
}

// BoneGeoM returns the GeoM that draws in the local space of attachable bone
// i (Rig.BoneTransform) onto the destination of the last Draw: the bone's
// canvas transform followed by that Draw's GeoM. Use it as
// DrawImageOptions.GeoM (after the sprite's own placement) to attach a hat
// or a weapon to the bone. ok is false when the rig has not been evaluated;
// a bone index out of range panics, as Rig.BoneTransform does.
func (c *Character) BoneGeoM(i int) (g ebiten.GeoM, ok bool) {
	if c.rig == nil {
		return g, false
	}
	a, ok := c.rig.BoneTransform(i)
	if !ok {
		return g, false
	}
	g = GeoM(a)
	g.Concat(c.geoM)
	return g, true
}
