package ebitenp2l

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/assets"
)

// TestDragTap feeds synthetic pointer ticks: a press that stays within the
// threshold is a tap, one that leaves it (in either axis, strictly beyond
// it) is a drag from that tick on, and the release ends it.
func TestDragTap(t *testing.T) {
	type tick struct {
		pressed bool
		x, y    float64
		want    Gesture
	}
	for _, c := range []struct {
		name      string
		threshold float64
		ticks     []tick
	}{
		{"tap", 0, []tick{
			{false, 10, 10, GestureNone},
			{true, 10, 10, GesturePress},
			{true, 14, 6, GestureNone}, // 4 px each way: still a tap (default 4)
			{false, 14, 6, GestureTap},
			{false, 14, 6, GestureNone},
		}},
		{"drag", 0, []tick{
			{true, 10, 10, GesturePress},
			{true, 12, 10, GestureNone},
			{true, 10, 14.5, GestureDragStart}, // 4.5 px down
			{true, 10, 10, GestureDrag},        // back at the start: still dragging
			{true, 50, 60, GestureDrag},
			{false, 50, 60, GestureDragEnd},
			{true, 50, 60, GesturePress}, // a new press
			{false, 50, 60, GestureTap},
		}},
		{"larger threshold", 10, []tick{
			{true, 0, 0, GesturePress},
			{true, -9, 9, GestureNone},
			{true, -10.5, 0, GestureDragStart},
			{false, 0, 0, GestureDragEnd},
		}},
	} {
		d := DragTap{Threshold: c.threshold}
		for i, k := range c.ticks {
			if got := d.Update(k.pressed, k.x, k.y); got != k.want {
				t.Errorf("%s: tick %d (%v, %g, %g) = %v, want %v", c.name, i, k.pressed, k.x, k.y, got, k.want)
			}
		}
	}
	var d DragTap
	d.Update(true, 1, 2)
	d.Update(true, 100, 2)
	if !d.Pressed() || !d.Dragging() {
		t.Error("Pressed/Dragging false during a drag")
	}
	if x, y := d.Start(); x != 1 || y != 2 {
		t.Errorf("Start = %g, %g, want 1, 2", x, y)
	}
	d.Cancel()
	if d.Pressed() || d.Dragging() {
		t.Error("Cancel left the press")
	}
	if g := d.Update(true, 100, 2); g != GesturePress {
		t.Errorf("after Cancel: %v, want a new press", g)
	}
}

// TestCharacterHitByPixels: MeshAt, HitTest and Tap map the screen point
// through the last Draw's GeoM; with HitOptions.Pixels a point inside the
// head area's triangles where nothing is drawn hits nothing, and Tap plays
// the area's tap group only where she is drawn. Canvas (500, 580) is the
// default character's chin (the Face mesh, HitAreaHead; Nod is the TapHead
// clip), canvas (1, 1) an empty corner (README's screenshot,
// docs/screenshot.png).
func TestCharacterHitByPixels(t *testing.T) {
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	var c *Character
	onGame(func() {
		c = NewCharacter(m)
		dst := ebiten.NewImage(600, 700)
		var o DrawOptions
		o.GeoM.Scale(0.5, 0.5)
		o.GeoM.Translate(10, 20)
		c.Draw(dst, &o)
	})
	defer onGame(c.Deallocate)
	screen := func(cx, cy float64) (float64, float64) { return 10 + cx/2, 20 + cy/2 }

	chinX, chinY := screen(500, 580)
	if mi := c.MeshAt(chinX, chinY); mi < 0 || m.Meshes().At(mi).ID != "Face" {
		t.Errorf("MeshAt(chin) = %d, want the Face mesh", mi)
	}
	if mi := c.MeshAt(screen(1, 1)); mi != -1 {
		t.Errorf("MeshAt(corner) = %d, want -1", mi)
	}
	head := m.HitAreaIndex("HitAreaHead")
	if head < 0 {
		t.Fatal("no HitAreaHead")
	}
	// A point of the head area's triangles where nothing is drawn: the
	// triangle test hits it, the pixel test does not.
	var ex, ey float64
	found := false
	r := c.Rig()
	for y := 0.0; y < float64(m.Canvas().Height) && !found; y += 8 {
		for x := 0.0; x < float64(m.Canvas().Width) && !found; x += 8 {
			if r.HitTest(float32(x), float32(y)) == head && c.MeshAt(screen(x, y)) < 0 {
				ex, ey, found = x, y, true
			}
		}
	}
	if !found {
		t.Fatal("no transparent point in the head area's triangles")
	}
	if got := c.HitTest(screen(ex, ey)); got != head {
		t.Errorf("triangle HitTest at (%g, %g) = %d, want %d", ex, ey, got, head)
	}
	c.SetHitOptions(HitOptions{Pixels: true})
	if got := c.HitTest(screen(ex, ey)); got != -1 {
		t.Errorf("pixel HitTest at transparent (%g, %g) = %d, want -1", ex, ey, got)
	}
	if area, clip := c.Tap(screen(ex, ey)); area != -1 || clip != -1 {
		t.Errorf("pixel Tap at transparent point = %d, %d, want -1, -1", area, clip)
	}
	if area, clip := c.Tap(chinX, chinY); area != head || clip < 0 || m.Clips().At(clip).ID != "Nod" {
		t.Errorf("pixel Tap on the chin = %d, %d, want %d and the Nod clip", area, clip, head)
	}
	// A threshold above every alpha: nothing is drawn "enough".
	c.SetHitOptions(HitOptions{Pixels: true, Threshold: 1.5})
	if got := c.HitTest(chinX, chinY); got != -1 {
		t.Errorf("threshold 1.5: HitTest = %d, want -1", got)
	}
	c.SetHitOptions(HitOptions{Pixels: true})
	if n := testing.AllocsPerRun(20, func() {
		c.MeshAt(chinX, chinY)
		c.HitTest(chinX, chinY)
	}); n != 0 {
		t.Errorf("%v allocations per hit test, want 0", n)
	}
}
