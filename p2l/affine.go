package p2l

import "math"

// Affine is a 2D affine transform in canvas pixels (y down):
//
//	x' = A*x + B*y + TX
//	y' = C*x + D*y + TY
//
// The element layout is that of ebiten.GeoM (SetElement(0,0)=A, (0,1)=B,
// (0,2)=TX, (1,0)=C, (1,1)=D, (1,2)=TY), so a host turns a bone transform
// into a GeoM with one SetElement call per element. It is the type of
// Rig.BoneTransform and of the bone frames the advanced mode uses.
type Affine struct {
	A, B, C, D, TX, TY float64
}

// Identity is the transform that leaves every point where it is.
var Identity = Affine{A: 1, D: 1}

// Apply maps the point (x, y).
func (t Affine) Apply(x, y float64) (float64, float64) {
	return t.A*x + t.B*y + t.TX, t.C*x + t.D*y + t.TY
}

// ApplyVector maps the direction (x, y): the linear part only.
func (t Affine) ApplyVector(x, y float64) (float64, float64) {
	return t.A*x + t.B*y, t.C*x + t.D*y
}

// Mul returns t·u, the transform that applies u first and then t.
func (t Affine) Mul(u Affine) Affine {
	return Affine{
		A:  t.A*u.A + t.B*u.C,
		B:  t.A*u.B + t.B*u.D,
		C:  t.C*u.A + t.D*u.C,
		D:  t.C*u.B + t.D*u.D,
		TX: t.A*u.TX + t.B*u.TY + t.TX,
		TY: t.C*u.TX + t.D*u.TY + t.TY,
	}
}

// Det returns the determinant of the linear part.
func (t Affine) Det() float64 { return t.A*t.D - t.B*t.C }

// Invert returns the inverse of t and true, or Identity and false when t is
// singular (its determinant is zero or not finite).
func (t Affine) Invert() (Affine, bool) {
	det := t.Det()
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return Identity, false
	}
	inv := 1 / det
	a, b, c, d := t.D*inv, -t.B*inv, -t.C*inv, t.A*inv
	return Affine{A: a, B: b, C: c, D: d, TX: -(a*t.TX + b*t.TY), TY: -(c*t.TX + d*t.TY)}, true
}
