package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/internal/conformance"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// The expected values below come from the conformance models' texels
// (package conformance) and their UV mapping, by hand:
//
// SourceTexel's alpha depends on the column i only: round(255·(0.25 +
// 0.75·(i mod 8)/7)) = 64, 91, 118, 146, 173, 200, 228, 255 for
// i mod 8 = 0…7. softMask(i, j) = round(255·clamp(1.5 − 1.5·d)) with
// d = hypot(i − 15.5, j − 15.5)/16: 255 at (15|16, 15|16), 36 at (30, 15)
// and (30, 16) (d = 0.907), 12 at (31, 15) and (31, 16) (d = 0.969), 0 in
// the corners (d > 1).
//
// A quad of side s canvas pixels over a page of n texels maps canvas x to
// the texel coordinate (x − x0)·n/s − 0.5: texel i's centre is at
// coordinate i, the boundary between texels i and i+1 at i + 0.5, where
// bilinear sampling gives their mean.

// rigAt evaluates m at the parameter values and returns it with a renderer
// reading the conformance pages (the external one from the folder).
func rigAt(t *testing.T, m *p2l.Model, values map[string]float32) (*p2l.Rig, *Renderer) {
	t.Helper()
	rig := m.NewRig()
	for id, v := range values {
		i := m.ParameterIndex(id)
		if i < 0 {
			t.Fatalf("no parameter %s", id)
		}
		rig.SetParameter(i, v)
	}
	rig.Evaluate()
	if err := rig.Err(); err != nil {
		t.Fatal(err)
	}
	return rig, &Renderer{TextureOptions: texture.Options{FS: os.DirFS(conformanceDir)}}
}

func loadConformanceModel(t *testing.T, name string) *p2l.Model {
	t.Helper()
	m, err := p2l.LoadFile(filepath.Join(conformanceDir, name+".p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// meshByID finds a mesh of a model being built without preparing it
// (Model.MeshIndex would, fixing its flags).
func meshByID(t *testing.T, m *p2lrt.File, id string) int {
	t.Helper()
	for i := range m.Meshes {
		if m.Meshes[i].ID == id {
			return i
		}
	}
	t.Fatalf("no mesh %s", id)
	return -1
}

type hitCase struct {
	name      string
	x, y      float32
	threshold float32
	want      string // mesh id; "" for none
}

func checkMeshAt(t *testing.T, r *Renderer, rig *p2l.Rig, cases []hitCase) {
	t.Helper()
	m := rig.Model()
	for _, c := range cases {
		got := r.MeshAt(rig, c.x, c.y, c.threshold)
		gotID := ""
		if got >= 0 {
			gotID = m.Meshes().At(got).ID
		}
		if gotID != c.want {
			t.Errorf("%s: MeshAt(%g, %g, %g) = %d %q, want %q", c.name, c.x, c.y, c.threshold, got, gotID, c.want)
		}
	}
}

// TestMeshAtTexels: the blend matrix's bottom row holds, in cell (0, 5)
// (x 0..16, y 80..96), an isolated Normal group over the transparent
// canvas: a backdrop at opacity 0.6 on x 0..8 and the source quad over the
// whole cell, one texel per canvas pixel. On x 8..16 only the source is
// drawn, so the point hits or misses by the source's alpha alone. At
// y = 84.5 the texel row coordinate is 4 exactly (no vertical blend).
func TestMeshAtTexels(t *testing.T) {
	rig, r := rigAt(t, loadConformanceModel(t, "blend-matrix"), nil)
	const y = 84.5
	checkMeshAt(t, r, rig, []hitCase{
		// Texel 8's centre: alpha 64/255 ≈ 0.25.
		{"translucent texel", 8.5, y, 0.5, ""},
		{"translucent texel, low threshold", 8.5, y, 0.25, "gsource_0_0"},
		{"translucent texel, threshold 0", 8.5, y, 0, "gsource_0_0"},
		// Texel 14's centre: 228/255.
		{"opaque texel", 14.5, y, 0.5, "gsource_0_0"},
		{"opaque texel, threshold 1", 14.5, y, 1, ""},
		// Texel 15: 255, hit even at threshold 1.
		{"full texel", 15.5, y, 1, "gsource_0_0"},
		// The boundary of texels 10 (118) and 11 (146) at x = 11: their
		// mean 132/255; a quarter pixel before it 118 + 28/4 = 125, after
		// it 139.
		{"boundary, just below", 11, y, 131.5 / 255, "gsource_0_0"},
		{"boundary, just above", 11, y, 132.5 / 255, ""},
		{"before the boundary", 10.75, y, 131.5 / 255, ""},
		{"before the boundary, its value", 10.75, y, 124.5 / 255, "gsource_0_0"},
		{"after the boundary", 11.25, y, 132.5 / 255, "gsource_0_0"},
		{"after the boundary, its value", 11.25, y, 139.5 / 255, ""},
		// Left half: the backdrop (opaque texels × 0.6) under the source
		// (texel 3: 146/255 ≈ 0.57).
		{"source over backdrop", 3.5, y, 0.5, "gsource_0_0"},
		{"backdrop under a translucent source", 0.5, y, 0.5, "gbackdrop_0_0"},
		{"backdrop at its opacity", 0.5, y, 0.61, ""},
		// The cell's right edge belongs to cell 1's quads too, drawn later
		// but below 0.9 there (its source's texel 0, 64/255, and its
		// backdrop, 0.6); cell 0's source gives texel 15 (255).
		{"shared edge", 16, y, 0.9, "gsource_0_0"},
		// Top half, cell (0, 0): the source's texel 0 (64/255) over the
		// opaque backdrop.
		{"canvas corner", 0, 0, 0.5, "backdrop_0_0"},
		{"outside the canvas", -1, y, 0, ""},
	})
	// The triangle test hits the source where the pixel test does not.
	if hit := rig.HitTest(8.5, y); hit != -1 {
		t.Fatalf("model has hit areas: %d", hit)
	}
}

// TestMeshAtMasksAndCulling uses the features model with its third mask
// mesh (a soft disc over x 70..102, y 8..40, one texel per canvas pixel)
// made visible, so that a transparent texel inside a drawn triangle can be
// pointed at; the backdrop (16×16 opaque tiles) lies under everything.
func TestMeshAtMasksAndCulling(t *testing.T) {
	c := conformance.Features()
	m := c.Model
	m.Meshes[meshByID(t, m, "mask3")].Flags |= p2lrt.MeshVisible
	rig, r := rigAt(t, synth.MustModel(m), nil)
	checkMeshAt(t, r, rig, []hitCase{
		// mask3 at (101, 9): texel coordinates (30.5, 0.5), texels 30–31
		// × 0–1, all alpha 0: the backdrop tile under it.
		{"transparent texel", 101, 9, 0, "backdrop_96_0"},
		// At (101, 24): (30.5, 15.5), mean of 36, 12, 36, 12 = 24/255.
		{"soft edge", 101, 24, 0.09, "mask3"},
		{"soft edge, higher threshold", 101, 24, 0.1, "backdrop_96_16"},
		// masked_inverted (x 64..100, white × 0.8, inverted mask3): at the
		// disc centre (86, 24) coverage 1 − 1 = 0, so mask3 (alpha 255)
		// under it; outside the disc's quad (65, 5) coverage 1 − 0: 0.8.
		{"inverted mask, centre", 86, 24, 0.5, "mask3"},
		{"inverted mask, outside", 65, 5, 0.5, "masked_inverted"},
		{"inverted mask, at its opacity", 65, 5, 0.81, "backdrop_64_0"},
		// masked (x 4..60 over the 16-texel source, masks mask1 and mask2):
		// at (5, 5) no mask covers it; at (24, 24) mask1's centre covers 1
		// and the source column coordinate is 20·16/56 − 0.5 = 5.214:
		// 200 + 0.214·28 = 206/255.
		{"mask covers nothing", 5, 5, 0, "backdrop_0_0"},
		{"mask centre", 24, 24, 0.8, "masked"},
		{"mask centre, above its alpha", 24, 24, 0.81, "backdrop_16_16"},
		// cull_off and cull_on: the same back face (104,y)(124,y)(104,y+20)
		// and front face (132,y)(132,y+20)(152,y), y = 32 and 56, white.
		{"back face, no culling", 108, 36, 1, "cull_off"},
		{"back face, culled", 108, 60, 0, "backdrop_96_48"},
		{"front face, culled mesh", 136, 60, 1, "cull_on"},
		{"on the hypotenuse", 114, 42, 1, "cull_off"},
		{"just beyond it", 114.01, 42.01, 1, "backdrop_112_32"},
		// Pages: page_4 is BC1 KTX2 (unavailable: draws nothing); page_3
		// has none (white × multiply).
		{"unavailable page", 90, 60, 0, "backdrop_80_48"},
		{"no page", 70, 60, 1, "page_3"},
	})
}

// TestMeshAtGroups: the groups model's isolated groups scale their
// meshes' fragments by their opacity (channel-driven) and mask coverage.
func TestMeshAtGroups(t *testing.T) {
	m := loadConformanceModel(t, "groups")
	for _, p := range []struct {
		opacity float32 // GroupOpacity: group "channels" at 0.25 + 0.75·p
		want    string  // a_red at (10, 10), threshold 0.5
	}{
		{1, "a_red"},   // 1
		{0.5, "a_red"}, // 0.625
		{0, "backdrop_0_0"},
	} {
		rig, r := rigAt(t, m, map[string]float32{"GroupOpacity": p.opacity})
		checkMeshAt(t, r, rig, []hitCase{{"channel opacity", 10, 10, 0.5, p.want}})
	}
	rig, r := rigAt(t, m, map[string]float32{"GroupOpacity": 0})
	checkMeshAt(t, r, rig, []hitCase{{"opacity 0.25", 10, 10, 0.25, "a_red"}})

	rig, r = rigAt(t, m, nil)
	checkMeshAt(t, r, rig, []hitCase{
		// Group "masked" (b_green, x 56..88) is masked by the soft disc
		// over the same square: at (57, 9) texels 0–1 × 0–1, alpha 0; at
		// the centre (72, 24) texels 15–16, alpha 1.
		{"group mask edge", 57, 9, 0, "backdrop_48_0"},
		{"group mask centre", 72, 24, 1, "b_green"},
		// Group "masked_inverted" (c_yellow, x 64..96, y 16..48, drawn
		// after b_green): at the disc centre coverage 1 − 1 = 0, so b_green
		// under it; beyond the disc's quad (92, 44) coverage 1.
		{"inverted group mask, centre", 72, 24, 0.5, "b_green"},
		{"inverted group mask, outside", 92, 44, 1, "c_yellow"},
	})
}

// TestHitTestAlphaByPixels: a hit area over the blend matrix's source
// quad of cell (0, 5) is hit by the triangle test everywhere in the cell,
// by the pixel test only where something is drawn.
func TestHitTestAlphaByPixels(t *testing.T) {
	f := conformance.BlendMatrix().Model
	f.HitAreas = []p2lrt.HitArea{{ID: "HitAreaSource", Meshes: []int{meshByID(t, f, "gsource_0_0")}}}
	m := synth.MustModel(f)
	rig, r := rigAt(t, m, nil)
	for _, c := range []struct {
		x, y float32
		tri  int // Rig.HitTest
		pix  int // HitTestAlpha at DefaultHitThreshold
	}{
		{8.5, 84.5, 0, -1},   // texel alpha 64/255
		{14.5, 84.5, 0, 0},   // 228/255
		{0.5, 84.5, 0, 0},    // the group's backdrop is drawn there (0.6)
		{8.5, 100, -1, -1},   // the next row's cell (5 + 1): not the area
		{20.5, 84.5, -1, -1}, // cell (1, 5)
	} {
		if got := rig.HitTest(c.x, c.y); got != c.tri {
			t.Errorf("HitTest(%g, %g) = %d, want %d", c.x, c.y, got, c.tri)
		}
		if got := r.HitTestAlpha(rig, c.x, c.y, DefaultHitThreshold); got != c.pix {
			t.Errorf("HitTestAlpha(%g, %g) = %d, want %d", c.x, c.y, got, c.pix)
		}
	}
	// MeshAlphaAt: the fragment alpha itself, 228/255 at texel 14's
	// centre; 0.6 for the backdrop (opaque texel × opacity).
	if a, in := r.MeshAlphaAt(rig, m.MeshIndex("gsource_0_0"), 14.5, 84.5); !in || a != 228*float32(1.0/255) {
		t.Errorf("MeshAlphaAt(source) = %v, %v, want 228/255, true", a, in)
	}
	if a, in := r.MeshAlphaAt(rig, m.MeshIndex("gbackdrop_0_0"), 0.5, 84.5); !in || a != 0.6 {
		t.Errorf("MeshAlphaAt(backdrop) = %v, %v, want 0.6, true", a, in)
	}
	if a, in := r.MeshAlphaAt(rig, m.MeshIndex("gbackdrop_0_0"), 9, 84.5); in || a != 0 {
		t.Errorf("MeshAlphaAt(outside) = %v, %v, want 0, false", a, in)
	}
}

// TestMeshAtAllocs: hit testing allocates nothing once the pages are
// decoded, also through groups and masks.
func TestMeshAtAllocs(t *testing.T) {
	for _, name := range []string{"groups", "features", "blend-matrix"} {
		rig, r := rigAt(t, loadConformanceModel(t, name), nil)
		r.MeshAt(rig, 1, 1, 0.5)
		n := testing.AllocsPerRun(50, func() {
			r.MeshAt(rig, 72, 24, 0.5)
			r.MeshAt(rig, 10, 10, 0.99)
			r.HitTestAlpha(rig, 57, 9, DefaultHitThreshold)
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, n)
		}
	}
}
