package ebitenp2l

import (
	"fmt"
	"math"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestGeoM: the GeoM maps points as the affine transform does, by its
// definition x' = A·x + B·y + TX, y' = C·x + D·y + TY.
func TestGeoM(t *testing.T) {
	a := p2l.Affine{A: 0.8, B: -0.6, C: 0.6, D: 0.8, TX: 12, TY: -7}
	g := GeoM(a)
	for _, p := range [][2]float64{{0, 0}, {1, 0}, {0, 1}, {3.5, -2}} {
		x, y := g.Apply(p[0], p[1])
		wx := 0.8*p[0] - 0.6*p[1] + 12
		wy := 0.6*p[0] + 0.8*p[1] - 7
		if math.Abs(x-wx) > 1e-12 || math.Abs(y-wy) > 1e-12 {
			t.Errorf("GeoM maps %v to (%g, %g), want (%g, %g)", p, x, y, wx, wy)
		}
	}
}

// TestBoneGeoM: BoneGeoM is the bone's canvas transform followed by the last
// Draw's GeoM.
func TestBoneGeoM(t *testing.T) {
	m := &p2lrt.File{
		Canvas: p2lrt.Canvas{Width: 100, Height: 100, PixelsPerUnit: -1},
		Deformers: []p2lrt.Deformer{{
			Kind: p2lrt.RotationDeformer, ID: "arm", Parent: -1, Part: -1,
			Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled, Opacity: 1,
			Multiply: p2lrt.White, Screen: p2lrt.Black,
			Rotation: &p2lrt.Rotation{Keyforms: &p2lrt.Grid[p2lrt.RotationKey]{
				Cells: []p2lrt.Cell[p2lrt.RotationKey]{{Value: p2lrt.RotationKey{X: 40, Y: 30, Angle: 30, Scale: 2}}},
			}},
		}},
		Draw: p2lrt.DrawGroup{Part: -1},
		Bones: &p2lrt.Bones{Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureExactLinks},
			Attachable: []p2lrt.AttachableBone{{Deformer: 0, ID: "arm"}}},
	}
	var c *Character
	onGame(func() {
		c = NewCharacter(synth.MustModel(m))
		var o DrawOptions
		o.GeoM.Scale(3, 3)
		o.GeoM.Translate(5, 7)
		dst := blackImage(8, 8)
		c.Draw(dst, &o)
		dst.Deallocate()
	})
	defer onGame(c.Deallocate)
	a, ok := c.Rig().BoneTransform(0)
	if !ok {
		t.Fatalf("no bone transform (rig error: %v)", c.Rig().Err())
	}
	g, ok := c.BoneGeoM(0)
	if !ok {
		t.Fatal("BoneGeoM: not ok")
	}
	for _, p := range [][2]float64{{0, 0}, {1, 0}, {0, 1}, {-2, 5}} {
		bx := a.A*p[0] + a.B*p[1] + a.TX
		by := a.C*p[0] + a.D*p[1] + a.TY
		wx, wy := 3*bx+5, 3*by+7
		x, y := g.Apply(p[0], p[1])
		if math.Abs(x-wx) > 1e-9 || math.Abs(y-wy) > 1e-9 {
			t.Errorf("BoneGeoM maps %v to (%g, %g), want (%g, %g)", p, x, y, wx, wy)
		}
	}
	func() {
		defer func() {
			if msg := fmt.Sprint(recover()); msg != "p2l: bone index 1 out of range [0:1]" {
				t.Errorf("BoneGeoM(1) of a model with one bone: panic %q", msg)
			}
		}()
		c.BoneGeoM(1)
	}()
}

// TestLookAtTarget: with the anchor at the canvas center and the default
// reach, the center looks straight ahead and the top-right corner is
// (1, 1) (x right, y up); from another anchor with a reach of 100 pixels,
// a point 50 pixels right of and 100 above the anchor is (0.5, 1).
func TestLookAtTarget(t *testing.T) {
	cv := p2lrt.Canvas{Width: 1000, Height: 1200}
	for _, c := range []struct{ ax, ay, reach, cx, cy, x, y float64 }{
		{500, 600, 0, 500, 600, 0, 0}, {500, 600, 0, 1000, 0, 1, 1}, {500, 600, 0, 0, 1200, -1, -1},
		{500, 600, 0, 750, 900, 0.5, -0.5},
		{400, 300, 100, 450, 200, 0.5, 1}, {400, 300, 100, 400, 300, 0, 0},
	} {
		x, y := lookAtTarget(cv, c.ax, c.ay, c.reach, c.cx, c.cy)
		if math.Abs(float64(x)-c.x) > 1e-6 || math.Abs(float64(y)-c.y) > 1e-6 {
			t.Errorf("anchor (%g, %g) reach %g, canvas (%g, %g): look-at (%g, %g), want (%g, %g)", c.ax, c.ay, c.reach, c.cx, c.cy, x, y, c.x, c.y)
		}
	}
}
