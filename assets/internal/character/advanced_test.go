package character

import (
	"bytes"
	"image"
	"math"
	"sync"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/render"
)

// The character is built once (painting takes a while) and written; each
// test loads its own models from the bytes, so chunks can be removed before
// a model is first used.
var (
	fileOnce  sync.Once
	fileBytes []byte
	fileErr   error
)

func loadCharacter(t *testing.T, withExtensions bool) *p2l.Model {
	t.Helper()
	fileOnce.Do(func() {
		var buf bytes.Buffer
		fileErr = Write(&buf)
		fileBytes = buf.Bytes()
	})
	if fileErr != nil {
		t.Fatal(fileErr)
	}
	m, err := p2l.Load(fileBytes)
	if err != nil {
		t.Fatal(err)
	}
	if !withExtensions {
		// The same file as a Cubism-only runtime sees it.
		f := m.File()
		f.Bones, f.Skins, f.Simulations, f.Collision = nil, nil, nil, nil
		if m, err = p2l.NewModel(f); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func setParams(t *testing.T, r *p2l.Rig, kv map[string]float32) {
	t.Helper()
	for id, v := range kv {
		if i := r.Model().ParameterIndex(id); i < 0 {
			t.Fatalf("no parameter %s", id)
		} else {
			r.SetParameter(i, v)
		}
	}
}

func TestAdvancedFeatures(t *testing.T) {
	m := loadCharacter(t, true)
	want := p2l.Features(p2lrt.FeatureSkin | p2lrt.FeatureSim | p2lrt.FeatureCollision) // no arcs: exact links not carried
	if got := m.AdvancedAvailable(); got != want {
		t.Fatalf("AdvancedAvailable = %04b, want %04b", got, want)
	}
	if err := m.PrepareAdvanced(); err != nil {
		t.Fatalf("PrepareAdvanced: %v", err)
	}
	r := m.NewRig()
	if got := r.SetAdvanced(0xF); got != want {
		t.Errorf("SetAdvanced(all) = %04b, want %04b", got, want)
	}
	if got := r.Advanced(); got != want {
		t.Errorf("Advanced = %04b", got)
	}
	if got := r.SetAdvanced(p2lrt.FeatureCollision); got != 0 {
		t.Errorf("collision without simulation: SetAdvanced = %04b, want 0", got)
	}
	if loadCharacter(t, false).AdvancedAvailable() != 0 {
		t.Error("model without extension chunks reports features")
	}

	// The waving hand is an attachable bone: the forearm's frame, at the
	// elbow, turned by the forearm angle (−30° at ParamArmRElbow 1).
	r.SetAdvanced(0)
	if bones, _ := r.Model().Bones(); len(bones.Attachable) != 1 || bones.Attachable[0].ID != "HandR" {
		t.Fatalf("bones: %+v", bones.Attachable)
	}
	setParams(t, r, map[string]float32{"ParamArmRElbow": 1})
	r.Evaluate()
	tr, ok := r.BoneTransform(0)
	if !ok {
		t.Fatal("BoneTransform not ok after Evaluate")
	}
	s, c := math.Sincos(-30 * math.Pi / 180)
	want6 := [6]float64{c, -s, s, c, elbowR.X, elbowR.Y}
	got6 := [6]float64{tr.A, tr.B, tr.C, tr.D, tr.TX, tr.TY}
	for i := range want6 {
		if math.Abs(got6[i]-want6[i]) > 1e-3 {
			t.Errorf("HandR transform = %v, want %v", got6, want6)
			break
		}
	}
}

// TestSkinnedSleeve: between the elbow keys the skinned sleeve lies on the
// arc of the two-bone blend, Cubism mode on the chord of the keyforms; at
// every key combination the two are bit-identical (skin correction 0).
func TestSkinnedSleeve(t *testing.T) {
	m := loadCharacter(t, true)
	sleeve := m.MeshIndex("ArmRWaveFore")
	cub, skin := m.NewRig(), m.NewRig()
	if skin.SetAdvanced(p2lrt.FeatureSkin) != p2lrt.FeatureSkin {
		t.Fatal("skinning not enabled")
	}
	// Rest positions (every parameter at its default: the body warp and
	// the arm rotations are identities, so these are the painted canvas
	// positions).
	cub.Evaluate()
	rest := append([]float32(nil), cub.Mesh(sleeve).Vertices()...)

	// At the keys, with the upper arm turned (a parameter off the skin's
	// axes, between its own keys) and the body leaning.
	for _, wave := range keys3 {
		for _, elbow := range keys01 {
			for _, arm := range []float32{0, 6} {
				p := map[string]float32{"ParamArmRWave": 1, "ParamHandWave": wave, "ParamArmRElbow": elbow, "ParamArmRA": arm, "ParamBodyAngleX": 4}
				setParams(t, cub, p)
				setParams(t, skin, p)
				cub.Evaluate()
				skin.Evaluate()
				a, b := cub.Mesh(sleeve).Vertices(), skin.Mesh(sleeve).Vertices()
				for i := range a {
					if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
						t.Fatalf("wave %v elbow %v arm %v: coordinate %d skinned %v, Cubism %v (correction must be 0 at keys)", wave, elbow, arm, i, b[i], a[i])
					}
				}
			}
		}
	}

	// Halfway between the elbow keys: the forearm is at −15°. Arc: each
	// vertex is (1−w)·p + w·(e + R(−15°)(p − e)); chord: the mean of the
	// keyforms at 0° and −30°, p + w·((e + R(−30°)(p − e)) − p)/2.
	p := map[string]float32{"ParamArmRWave": 1, "ParamHandWave": 0, "ParamArmRElbow": 0.5, "ParamArmRA": 0, "ParamBodyAngleX": 0}
	setParams(t, cub, p)
	setParams(t, skin, p)
	cub.Evaluate()
	skin.Evaluate()
	a, b := cub.Mesh(sleeve).Vertices(), skin.Mesh(sleeve).Vertices()
	rot := func(q pt, deg float64) pt {
		s, c := math.Sincos(deg * math.Pi / 180)
		r := q.sub(elbowR)
		return pt{c*r.X - s*r.Y, s*r.X + c*r.Y}.add(elbowR)
	}
	maxDiff := 0.0
	for v := 0; v < len(rest)/2; v++ {
		q := pt{float64(rest[2*v]), float64(rest[2*v+1])}
		w := sleeveWeight(q.Y)
		arc := q.mul(1 - w).add(rot(q, -15).mul(w))
		chord := q.add(rot(q, -30).sub(q).mul(w / 2))
		gs := pt{float64(b[2*v]), float64(b[2*v+1])}
		gc := pt{float64(a[2*v]), float64(a[2*v+1])}
		if d := gs.sub(arc).len(); d > 0.01 {
			t.Errorf("vertex %d (w %.3f): skinned %v, arc %v (off by %.4f px)", v, w, gs, arc, d)
		}
		if d := gc.sub(chord).len(); d > 0.01 {
			t.Errorf("vertex %d: Cubism %v, chord %v (off by %.4f px)", v, gc, chord, d)
		}
		maxDiff = math.Max(maxDiff, gs.sub(gc).len())
	}
	// The cuff is about 270 px from the elbow: the arc and the chord part
	// by 270·(1 − cos 15°) ≈ 9 px there.
	if maxDiff < 8 {
		t.Errorf("skinned and Cubism sleeve differ by at most %.2f px at mid bend; want the arc visibly off the chord", maxDiff)
	}
}

// usedVertices lists the vertices of mesh mi that some triangle uses.
func usedVertices(m *p2l.Model, mi int) []int {
	used := map[uint32]bool{}
	var out []int
	for _, i := range m.Meshes().At(mi).Indices {
		if !used[i] {
			used[i] = true
			out = append(out, int(i))
		}
	}
	return out
}

func allFinite(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// TestRibbonSimulation: the tails start at rest on the pose, lag behind a
// body lean, stay finite and near their painted shape, settle back, and
// never enter the arm capsule when blown against it.
func TestRibbonSimulation(t *testing.T) {
	m := loadCharacter(t, true)
	mi := m.MeshIndex(ribbonTailsID)
	cub, sim := m.NewRig(), m.NewRig()
	if sim.SetAdvanced(p2lrt.FeatureSim|p2lrt.FeatureCollision) != p2lrt.FeatureSim|p2lrt.FeatureCollision {
		t.Fatal("simulation not enabled")
	}
	const dt = 1.0 / 60
	step := func(n int) {
		for i := 0; i < n; i++ {
			sim.UpdateStages(dt, p2l.StageSimulation)
		}
		cub.Evaluate()
		sim.Evaluate()
	}
	dist := func() (maxD float64) {
		a, b := cub.Mesh(mi).Vertices(), sim.Mesh(mi).Vertices()
		for i := 0; i < len(a); i += 2 {
			maxD = math.Max(maxD, math.Hypot(float64(a[i]-b[i]), float64(a[i+1]-b[i+1])))
		}
		return
	}
	// The first update starts at rest on the pose (and steps nothing): no
	// vertex can be further from it than g·h² = 980/60² ≈ 0.27 px.
	step(1)
	if d := dist(); d > 0.28 {
		t.Errorf("first update: tails %.4f px from the pose; want them starting at rest on it", d)
	}
	// Lean: the knot slides 11 px sideways within a few frames; the free
	// tails lag behind the target.
	setParams(t, cub, map[string]float32{"ParamBodyAngleX": 10})
	setParams(t, sim, map[string]float32{"ParamBodyAngleX": 10})
	step(6)
	if d := dist(); d < 1 || !allFinite(sim.Mesh(mi).Vertices()) {
		t.Errorf("after a lean: tails %.3f px from the keyform pose (want a visible lag), finite %v", d, allFinite(sim.Mesh(mi).Vertices()))
	}
	// Pinned top row follows the body exactly (kinematic on its target).
	a, b := cub.Mesh(mi).Vertices(), sim.Mesh(mi).Vertices()
	for v := 0; v <= ribbonCols; v++ {
		if math.Abs(float64(a[2*v]-b[2*v])) > 1e-3 || math.Abs(float64(a[2*v+1]-b[2*v+1])) > 1e-3 {
			t.Errorf("pinned vertex %d at (%v, %v), target (%v, %v)", v, b[2*v], b[2*v+1], a[2*v], a[2*v+1])
		}
	}
	// Settled under the lean, the tails hang plumb where the keyforms shear
	// them with the body: a few pixels apart, not more.
	step(300)
	if d := dist(); d > 10 || !allFinite(sim.Mesh(mi).Vertices()) {
		t.Errorf("tails settled under a lean %.3f px from the keyform pose; want < 10", d)
	}
	// Upright again, weak goals and gravity keep the painted shape within
	// a few pixels.
	setParams(t, cub, map[string]float32{"ParamBodyAngleX": 0})
	setParams(t, sim, map[string]float32{"ParamBodyAngleX": 0})
	step(300)
	if d := dist(); d > 3 || !allFinite(sim.Mesh(mi).Vertices()) {
		t.Errorf("settled tails %.3f px from the painted pose; want < 3", d)
	}

	// A gale to the right blows the tails against the left arm's capsule
	// (ArmLInner: (−8, 50)→(6, 330) from the shoulder at (700, 770), radius
	// 12→16, the arm at rest). The solver pushes particles out before its
	// last stretch pass (the editor's order, docs/ADVANCED.md), which under
	// a gale of 100 g may pull one back in a little: no drawn vertex may be
	// more than 2 px inside it (1.42 px seen).
	setParams(t, sim, map[string]float32{"ParamBodyAngleX": 0})
	sim.Simulation().SetWind(1e5, 0)
	ax, ay, bx, by := 692.0, 820.0, 706.0, 1100.0
	closest := math.Inf(1)
	for f := 0; f < 120; f++ {
		step(1)
		v := sim.Mesh(mi).Vertices()
		if !allFinite(v) {
			t.Fatalf("frame %d: non-finite vertex", f)
		}
		for _, i := range usedVertices(m, mi) {
			px, py := float64(v[2*i]), float64(v[2*i+1])
			dx, dy := bx-ax, by-ay
			s := math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/(dx*dx+dy*dy)))
			gap := math.Hypot(px-ax-s*dx, py-ay-s*dy) - (12 + 4*s)
			if gap < -2 {
				t.Fatalf("frame %d: vertex %d is %.4f px inside the arm capsule", f, i, -gap)
			}
			closest = math.Min(closest, gap)
		}
	}
	if closest > 0.5 {
		t.Errorf("the gale never brought the tails to the capsule (closest %.2f px): the test shows nothing", closest)
	}
}

// TestCubismModeUnchangedByExtensions: with every feature bit off, and
// after switching on, running and off again, the character evaluates and
// renders bit-identically to the same file without its extension chunks.
func TestCubismModeUnchangedByExtensions(t *testing.T) {
	plainM, extM := loadCharacter(t, false), loadCharacter(t, true)
	plain, off, cycled := plainM.NewRig(), extM.NewRig(), extM.NewRig()
	// The same history for all three (physics keeps time), advanced mode
	// on for the third only.
	cycled.SetAdvanced(0xF)
	cycled.Simulation().SetWind(300, 0)
	for i := 0; i < 10; i++ {
		for _, r := range []*p2l.Rig{plain, off, cycled} {
			r.Update(1.0 / 60)
		}
	}
	cycled.SetAdvanced(0)
	poses := []map[string]float32{
		{},
		{"ParamArmRWave": 1, "ParamHandWave": 0.5, "ParamArmRElbow": 0.5, "ParamBodyAngleX": 3},
		{"ParamArmRWave": 0.7, "ParamHandWave": -1, "ParamArmRElbow": 1, "ParamAngleX": 20, "ParamArmRA": 6},
	}
	rigs := []*p2l.Rig{plain, off, cycled}
	for pi, pose := range poses {
		for _, r := range rigs {
			setParams(t, r, pose)
			for i := 0; i < 5; i++ {
				r.Update(1.0 / 60) // physics and the idle pipeline run too
			}
		}
		for mi := range plainM.Meshes().Len() {
			want := plain.Mesh(mi).Vertices()
			for k, r := range rigs[1:] {
				got := r.Mesh(mi).Vertices()
				if len(got) != len(want) {
					t.Fatalf("pose %d mesh %d: %d vs %d coordinates", pi, mi, len(got), len(want))
				}
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("pose %d, rig %d, mesh %s coordinate %d: %v, without chunks %v", pi, k+1, plainM.Meshes().At(mi).ID, i, got[i], want[i])
					}
				}
				if math.Float32bits(r.Mesh(mi).Opacity()) != math.Float32bits(plain.Mesh(mi).Opacity()) {
					t.Fatalf("pose %d mesh %d: opacity differs", pi, mi)
				}
			}
		}
	}
	// The rendered images, at the last pose.
	var imgs [][]byte
	for _, r := range rigs {
		img := image.NewRGBA(image.Rect(0, 0, W/4, H/4))
		tr := p2l.Affine{A: 0.25, D: 0.25}
		if err := render.Render(r, img, &render.Options{Transform: &tr}); err != nil {
			t.Fatal(err)
		}
		imgs = append(imgs, img.Pix)
	}
	if !bytes.Equal(imgs[0], imgs[1]) || !bytes.Equal(imgs[0], imgs[2]) {
		t.Error("rendered images differ from the model without extension chunks")
	}
}

// TestAdvancedUpdateAllocatesNothing: with every feature on, a steady-state
// update of the character (clip, physics, skinning, simulation) allocates
// nothing.
func TestAdvancedUpdateAllocatesNothing(t *testing.T) {
	m := loadCharacter(t, true)
	r := m.NewRig()
	r.SetAdvanced(0xF)
	setParams(t, r, map[string]float32{"ParamArmRWave": 1, "ParamArmRElbow": 0.4, "ParamHandWave": 0.3})
	for i := 0; i < 10; i++ {
		r.Update(1.0 / 60)
	}
	if n := testing.AllocsPerRun(50, func() { r.Update(1.0 / 60) }); n != 0 {
		t.Errorf("%v allocations per update", n)
	}
}

// BenchmarkCharacterUpdate: one 60 Hz update of the character in Cubism
// mode and with the advanced features on; the weight fit (Load plus
// PrepareAdvanced, against Load alone).
func BenchmarkCharacterUpdate(b *testing.B) {
	var buf bytes.Buffer
	if err := Write(&buf); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		bits p2l.Features
	}{{"off", 0}, {"skin", p2lrt.FeatureSkin}, {"sim+coll", p2lrt.FeatureSim | p2lrt.FeatureCollision}, {"all", 0xF}} {
		b.Run(c.name, func(b *testing.B) {
			m, err := p2l.Load(buf.Bytes())
			if err != nil {
				b.Fatal(err)
			}
			r := m.NewRig()
			r.SetAdvanced(c.bits)
			r.SetParameter(r.Model().ParameterIndex("ParamArmRWave"), 1)
			r.SetParameter(r.Model().ParameterIndex("ParamArmRElbow"), 0.4)
			for i := 0; i < 10; i++ {
				r.Update(1.0 / 60)
			}
			// The head moves every frame, so every mode evaluates (Cubism
			// mode skips an evaluation whose inputs did not change).
			ax := m.ParameterIndex("ParamAngleX")
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.SetParameter(ax, float32(i%20))
				r.Update(1.0 / 60)
			}
		})
	}
	b.Run("fit", func(b *testing.B) {
		// Load plus PrepareAdvanced (fitting the sleeve's weights), minus
		// the load alone measured below.
		for i := 0; i < b.N; i++ {
			m, err := p2l.Load(buf.Bytes())
			if err != nil {
				b.Fatal(err)
			}
			if err := m.PrepareAdvanced(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := p2l.Load(buf.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
