package character

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func TestBuildContents(t *testing.T) {
	m, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for i, p := range m.Parameters {
		ids[p.ID] = i
		if p.Default < p.Min || p.Default > p.Max {
			t.Errorf("%s: default %v outside [%v, %v]", p.ID, p.Default, p.Min, p.Max)
		}
	}
	for _, id := range []string{"ParamAngleX", "ParamAngleY", "ParamAngleZ", "ParamEyeLOpen", "ParamEyeROpen",
		"ParamEyeBallX", "ParamEyeBallY", "ParamBrowLY", "ParamBrowRY", "ParamMouthOpenY", "ParamMouthForm",
		"ParamBodyAngleX", "ParamBreath", "ParamHairFront", "ParamHairSide", "ParamHairBack"} {
		if _, ok := ids[id]; !ok {
			t.Errorf("standard parameter %s missing", id)
		}
	}
	roles := map[string][]int{}
	for _, r := range m.Roles {
		roles[r.Name] = r.Parameters
	}
	// Every role the behaviors drive, on its standard parameters (the
	// runtime reads nothing else), and no other.
	wantRoles := map[string][]string{
		"EyeBlink": {"ParamEyeLOpen", "ParamEyeROpen"}, "LipSync": {"ParamMouthOpenY"}, "Breath": {"ParamBreath"},
		"AngleX": {"ParamAngleX"}, "AngleY": {"ParamAngleY"}, "AngleZ": {"ParamAngleZ"}, "BodyAngleX": {"ParamBodyAngleX"},
		"EyeBallX": {"ParamEyeBallX"}, "EyeBallY": {"ParamEyeBallY"},
	}
	if len(m.Roles) != len(wantRoles) {
		t.Errorf("%d roles, want %d", len(m.Roles), len(wantRoles))
	}
	for name, want := range wantRoles {
		got := roles[name]
		ok := len(got) == len(want)
		for k := 0; ok && k < len(want); k++ {
			ok = got[k] == ids[want[k]]
		}
		if !ok {
			t.Errorf("%s role = %v, want %v", name, got, want)
		}
	}

	// Deformer kinds and parent order.
	var warps, rots int
	for i, d := range m.Deformers {
		if d.Parent >= i {
			t.Errorf("deformer %s: parent %d not before it", d.ID, d.Parent)
		}
		switch d.Kind {
		case p2lrt.WarpDeformer:
			warps++
			n := 2 * (d.Warp.Columns + 1) * (d.Warp.Rows + 1)
			checkGrid(t, d.ID, d.Warp.Keyforms, func(v []float32) bool { return len(v) == n })
		case p2lrt.RotationDeformer:
			rots++
			checkGrid(t, d.ID, d.Rotation.Keyforms, func(p2lrt.RotationKey) bool { return true })
		}
	}
	if warps < 2 || rots < 3 {
		t.Errorf("%d warps, %d rotations; want head-turn warps and tilt/arm rotations", warps, rots)
	}

	// Meshes: geometry sizes, keyform sizes, indices in range, blend modes.
	blends := map[p2lrt.BlendMode]int{}
	for _, ms := range m.Meshes {
		nv := len(ms.Positions) / 2
		if len(ms.UVs) != len(ms.Positions) || len(ms.Indices)%3 != 0 || len(ms.Indices) == 0 {
			t.Errorf("mesh %s: %d positions, %d uvs, %d indices", ms.ID, len(ms.Positions), len(ms.UVs), len(ms.Indices))
		}
		for _, x := range ms.Indices {
			if int(x) >= nv {
				t.Errorf("mesh %s: index %d out of %d vertices", ms.ID, x, nv)
				break
			}
		}
		for _, uv := range ms.UVs {
			if uv < 0 || uv > 1 {
				t.Errorf("mesh %s: uv %v outside [0, 1]", ms.ID, uv)
				break
			}
		}
		checkGrid(t, ms.ID, ms.Keyforms, func(v []float32) bool { return len(v) == 2*nv })
		blends[ms.Blend]++
	}
	// Cubism's legacy Add/Multiply (fixed-function on the GPU, no backdrop
	// copy), as Cubism artists use for blush and highlights.
	if blends[p2lrt.BlendMultiplyCompatible] == 0 || blends[p2lrt.BlendAddCompatible] == 0 {
		t.Errorf("blend modes used: %v; want multiply-compatible (blush) and add-compatible (highlights)", blends)
	}
	masked := false
	for _, ms := range m.Meshes {
		if len(ms.Masks) > 0 {
			masked = true
		}
	}
	if !masked {
		t.Error("no masked mesh; the irises should be masked by the eye whites")
	}

	isolated := 0
	for _, p := range m.Parts {
		if p.GroupMode == p2lrt.GroupIsolated {
			isolated++
		}
	}
	if isolated != 1 {
		t.Errorf("%d isolated parts, want 1", isolated)
	}
	if m.Pose == nil || len(m.Pose.Groups) != 1 || len(m.Pose.Groups[0].Entries) != 2 {
		t.Errorf("pose = %+v, want one group of two arm poses", m.Pose)
	}
	if len(m.Physics.Groups) < 1 || len(m.Expressions) != 4 || len(m.Clips) < 3 || len(m.HitAreas) != 2 {
		t.Errorf("physics %d, expressions %d, clips %d, hit areas %d", len(m.Physics.Groups), len(m.Expressions), len(m.Clips), len(m.HitAreas))
	}
	events := 0
	for _, c := range m.Clips {
		events += len(c.Events)
	}
	if events == 0 {
		t.Error("no clip carries an event")
	}
	if m.GUI == nil || len(m.GUI.Joysticks) == 0 || m.GUI.Joysticks[0] != (p2lrt.Joystick{Horizontal: ids["ParamAngleX"], Vertical: ids["ParamAngleY"]}) {
		t.Error("PGUI joystick AngleX/AngleY missing")
	}

	// The texture decodes and has the stated size.
	if len(m.Textures) != 1 {
		t.Fatalf("%d texture pages", len(m.Textures))
	}
	img, err := png.Decode(bytes.NewReader(m.Textures[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != int(m.Textures[0].Width) || b.Dy() != int(m.Textures[0].Height) {
		t.Errorf("page is %v, record says %dx%d", b, m.Textures[0].Width, m.Textures[0].Height)
	}
	if n := len(m.Textures[0].Data); n > 1<<20 {
		t.Errorf("texture page is %d bytes; the model must stay well under 2 MB", n)
	}
}

func checkGrid[T any](t *testing.T, id string, g *p2lrt.Grid[T], ok func(T) bool) {
	t.Helper()
	if g == nil {
		return
	}
	n := 1
	for _, a := range g.Axes {
		n *= len(a.Keys)
		for i := 1; i < len(a.Keys); i++ {
			if a.Keys[i] <= a.Keys[i-1] {
				t.Errorf("%s: keys %v not ascending", id, a.Keys)
			}
		}
	}
	if len(g.Cells) != n {
		t.Errorf("%s: %d cells, want %d", id, len(g.Cells), n)
	}
	seen := map[string]bool{}
	for _, c := range g.Cells {
		if len(c.Coord) != len(g.Axes) {
			t.Errorf("%s: coord %v for %d axes", id, c.Coord, len(g.Axes))
			continue
		}
		k := string(rune(0))
		for i, x := range c.Coord {
			if int(x) >= len(g.Axes[i].Keys) {
				t.Errorf("%s: coord %v out of range", id, c.Coord)
			}
			k += string(rune(x + 1))
		}
		if seen[k] {
			t.Errorf("%s: duplicate cell %v", id, c.Coord)
		}
		seen[k] = true
		if !ok(c.Value) {
			t.Errorf("%s: cell %v has the wrong size", id, c.Coord)
		}
	}
}
