package character

import (
	"image"
	"testing"
)

// TestStrokeCapsHaveNoHoles: a stroke's round caps overlap its polygon; the
// two must wind the same way, or the overlap cancels and a hole shows (the
// white specks once seen at the outer eye corners, where the lash stroke
// ends thick, and at the brow ends). Both directions of travel are checked.
func TestStrokeCapsHaveNoHoles(t *testing.T) {
	pa := newPainter(200, 100)
	for _, pts := range [][]pt{{{50, 50}, {100, 50}, {150, 50}}, {{150, 50}, {100, 50}, {50, 50}}} {
		m := pa.stroke(pts, constant(6))
		for _, p := range []image.Point{{50, 50}, {52, 50}, {47, 50}, {148, 50}, {153, 50}, {100, 50}} {
			if a := m.AlphaAt(p.X, p.Y).A; a != 255 {
				t.Errorf("stroke %v: alpha %d at %v, want 255", pts[0], a, p)
			}
		}
	}
}

// TestWavingArmJoins checks the shapes issue 16 found broken: the raised
// upper sleeve covers the shoulder line where it meets the collar (no
// point sticking out over the hair); the cuff is not wider than the sleeve
// (no cuff pixel outside the sleeve's shape); each raised hand's wrist
// reaches into its cuff, and the hand is drawn under its forearm so the
// cuff covers the wrist.
func TestWavingArmJoins(t *testing.T) {
	pa := newPainter(W, H)
	upper := paintUpperArmWave(pa)
	for _, p := range []image.Point{{318, 750}, {300, 752}, {330, 800}, {275, 790}} {
		if a := upper.RGBAAt(p.X, p.Y).A; a != 255 {
			t.Errorf("upper sleeve alpha %d at %v (the shoulder it must cover)", a, p)
		}
	}
	fore := paintForearmWave(pa)
	hand := paintHand(pa)
	// Cuff pixels (navy) lie inside the sleeve: every row of the cuff band
	// is no wider than the sleeve just below it.
	width := func(y int) (n int) {
		for x := 150; x < 350; x++ {
			if fore.RGBAAt(x, y).A > 128 {
				n++
			}
		}
		return n
	}
	if wc, ws := width(720), width(760); wc > ws+2 {
		t.Errorf("cuff %d px wide, sleeve below it %d", wc, ws)
	}
	overlap := 0
	for y := 700; y < 745; y++ {
		for x := 200; x < 290; x++ {
			if hand.RGBAAt(x, y).A == 255 && fore.RGBAAt(x, y).A == 255 {
				overlap++
			}
		}
	}
	if overlap < 200 {
		t.Errorf("wrist and cuff overlap in %d pixels: the hand floats above the cuff", overlap)
	}
	m, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	order := map[string]float32{}
	for _, me := range m.Meshes {
		order[me.ID] = me.DrawOrder
	}
	for _, c := range [][2]string{{"HandR", "ArmRWaveFore"}, {"HandLV", "ArmLVFore"}} {
		if order[c[0]] >= order[c[1]] {
			t.Errorf("%s drawn at %v, not under %s (%v)", c[0], order[c[0]], c[1], order[c[1]])
		}
	}
}
