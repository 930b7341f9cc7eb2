package p2l_test

import (
	"bytes"
	"math"
	"sync"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

const allBits = p2lrt.FeatureSkin | p2lrt.FeatureExactLinks | p2lrt.FeatureSim | p2lrt.FeatureCollision

func newAdvRig(t *testing.T, opt synth.AdvancedOptions) (*p2l.Model, *p2l.Rig) {
	t.Helper()
	m := p2l.ModelForTest(synth.Advanced(opt))
	r := m.NewRig()
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return m, r
}

func verts(r *p2l.Rig, mesh int) []float32 {
	return append([]float32(nil), r.Mesh(mesh).Vertices()...)
}

func TestAdvancedAvailableAndDependencies(t *testing.T) {
	m, r := newAdvRig(t, synth.AdvancedOptions{})
	if got := m.AdvancedAvailable(); got != allBits {
		t.Fatalf("available %b, want %b", got, allBits)
	}
	if got := r.SetAdvanced(p2lrt.FeatureCollision); got != 0 {
		t.Errorf("collision alone gave %b, want 0 (needs simulation)", got)
	}
	if got := r.SetAdvanced(p2lrt.FeatureSim | p2lrt.FeatureCollision); got != p2lrt.FeatureSim|p2lrt.FeatureCollision {
		t.Errorf("sim+collision gave %b", got)
	}
	if got := r.SetAdvanced(allBits | 0x100); got != allBits {
		t.Errorf("all bits gave %b, want %b", got, allBits)
	}
	// Without BONE the skin (which depends on it) and the arcs go.
	f := m.File()
	f.Bones = nil
	nb := p2l.ModelForTest(f)
	if got := nb.AdvancedAvailable(); got != p2lrt.FeatureSim|p2lrt.FeatureCollision {
		t.Errorf("without BONE available %b, want sim+collision", got)
	}
}

// poses runs f at a few poses covering keys and values between them.
var poses = [][3]float32{{0, 0, 0}, {22.5, 0, 0}, {45, 1, 10}, {70, -0.5, -7}, {90, 0.3, 3}}

func setPose(r *p2l.Rig, p [3]float32) {
	for i, v := range p {
		r.SetParameter(i, v)
	}
}

func TestCubismModeBitIdenticalAndNoResidue(t *testing.T) {
	m, withExt := newAdvRig(t, synth.AdvancedOptions{})
	plain := p2l.ModelForTest(synth.WithoutExtensions(m.File())).NewRig()
	toggled := m.NewRig()
	toggled.SetAdvanced(allBits)
	for _, p := range poses {
		setPose(toggled, p)
		toggled.Update(1.0 / 30)
	}
	toggled.Simulation().SetWind(500, 0)
	toggled.SetAdvanced(0)
	for _, p := range poses {
		for _, r := range []*p2l.Rig{withExt, plain, toggled} {
			setPose(r, p)
			r.Evaluate()
		}
		for mesh := range m.Meshes().Len() {
			a, b, c := withExt.Mesh(mesh).Vertices(), plain.Mesh(mesh).Vertices(), toggled.Mesh(mesh).Vertices()
			for i := range b {
				if math.Float32bits(a[i]) != math.Float32bits(b[i]) || math.Float32bits(c[i]) != math.Float32bits(b[i]) {
					t.Fatalf("pose %v mesh %d value %d: with chunks %v, without %v, after on/off %v", p, mesh, i, a[i], b[i], c[i])
				}
			}
		}
		for i := range m.Parameters().Len() {
			if toggled.ParameterCurrent(i) != plain.ParameterCurrent(i) {
				t.Fatalf("parameter %d differs after on/off", i)
			}
		}
	}
}

// upperToCanvas maps the upper arm's space to the canvas: its frame is a
// translation to (100, 100).
func upperToCanvas(x, y float64) (float64, float64) { return x + 100, y + 100 }

func TestSkinnedArmFollowsArcAndIsExactAtKeys(t *testing.T) {
	for _, given := range []bool{false, true} {
		m, r := newAdvRig(t, synth.AdvancedOptions{SkinWeights: given})
		if err := m.PrepareAdvanced(); err != nil {
			t.Fatal(err)
		}
		cub := m.NewRig()
		if got := r.SetAdvanced(p2lrt.FeatureSkin); got != p2lrt.FeatureSkin {
			t.Fatalf("skin gave %b", got)
		}
		n := len(m.Meshes().At(synth.AdvArmMesh).Positions) / 2
		// Between keys the skinned arm is the exact two-bone blend: the
		// wrist on the circle around the elbow, not on the chord.
		for _, deg := range []float32{10, 22.5, 33, 60, 81} {
			r.SetParameter(synth.AdvParamElbow, deg)
			r.Evaluate()
			cub.SetParameter(synth.AdvParamElbow, deg)
			cub.Evaluate()
			got, chord := r.Mesh(synth.AdvArmMesh).Vertices(), cub.Mesh(synth.AdvArmMesh).Vertices()
			for v := 0; v < n; v++ {
				x, y := upperToCanvas(synth.AdvArmAt(v, float64(deg)))
				if math.Abs(float64(got[2*v])-x) > 2e-4 || math.Abs(float64(got[2*v+1])-y) > 2e-4 {
					t.Fatalf("weights given %v, elbow %v, vertex %d at (%v, %v), want (%v, %v)", given, deg, v, got[2*v], got[2*v+1], x, y)
				}
			}
			// The wrist (last vertex, rigid on the forearm) is 40+ px
			// from the elbow at (160, 100): on the arc the distance is the
			// rest distance; the chord cuts inside.
			w := n - 1
			ex, ey := upperToCanvas(synth.AdvElbowX, 0)
			rest := math.Hypot(100-synth.AdvElbowX, 8)
			onArc := math.Hypot(float64(got[2*w])-ex, float64(got[2*w+1])-ey)
			inChord := math.Hypot(float64(chord[2*w])-ex, float64(chord[2*w+1])-ey)
			if math.Abs(onArc-rest) > 2e-4 || inChord > rest-0.05 {
				t.Fatalf("elbow %v: wrist %v from the elbow skinned, %v baked; rest %v", deg, onArc, inChord, rest)
			}
		}
		// At every key the correction is exactly zero: bit-identical to the
		// Cubism mode.
		maxErr := 0.0
		for _, deg := range []float32{0, 45, 90} {
			r.SetParameter(synth.AdvParamElbow, deg)
			r.Evaluate()
			cub.SetParameter(synth.AdvParamElbow, deg)
			cub.Evaluate()
			a, b := r.Mesh(synth.AdvArmMesh).Vertices(), cub.Mesh(synth.AdvArmMesh).Vertices()
			for i := range a {
				maxErr = math.Max(maxErr, math.Abs(float64(a[i]-b[i])))
				if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
					t.Fatalf("key %v value %d: skinned %v, baked %v", deg, i, a[i], b[i])
				}
			}
		}
		t.Logf("weights given %v: SKIN correction at keys, max error %v", given, maxErr)
	}
}

func TestArcPivotAndVirtualBone(t *testing.T) {
	m, r := newAdvRig(t, synth.AdvancedOptions{})
	bones, _ := m.Bones()
	if b := bones.Attachable; len(b) != 2 || b[0].ID != "Forearm" || b[1].ID != "Hand" {
		t.Fatalf("bones %+v", b)
	}
	if msg := p2l.PanicMessage(func() { r.BoneTransform(2) }); msg != "p2l: bone index 2 out of range [0:2]" {
		t.Fatalf("BoneTransform(2): panic %q", msg)
	}
	if _, ok := r.BoneTransform(0); ok {
		t.Fatal("bone transform before any evaluation")
	}
	// Elbow 15°: halfway between the hand's keys at 0° and 30°.
	r.SetParameter(synth.AdvParamElbow, 15)
	r.Evaluate()
	s15, c15 := math.Sincos(15 * math.Pi / 180)
	s30, c30 := math.Sincos(30 * math.Pi / 180)
	hand, ok := r.BoneTransform(1)
	ex, ey := upperToCanvas(synth.AdvElbowX, 0)
	// Cubism mode: the chord's midpoint.
	wantX, wantY := ex+synth.AdvHandRadius*(1+c30)/2, ey+synth.AdvHandRadius*s30/2
	if !ok || math.Abs(hand.TX-wantX) > 1e-4 || math.Abs(hand.TY-wantY) > 1e-4 {
		t.Fatalf("baked hand pivot (%v, %v), want chord midpoint (%v, %v)", hand.TX, hand.TY, wantX, wantY)
	}
	if got := r.SetAdvanced(p2lrt.FeatureExactLinks); got != p2lrt.FeatureExactLinks {
		t.Fatalf("exact links gave %b", got)
	}
	hand, _ = r.BoneTransform(1)
	wantX, wantY = ex+synth.AdvHandRadius*c15, ey+synth.AdvHandRadius*s15
	// The keyed pivots are float32 in the file: 1e-5 px covers their
	// rounding.
	if math.Abs(hand.TX-wantX) > 1e-5 || math.Abs(hand.TY-wantY) > 1e-5 {
		t.Fatalf("exact hand pivot (%v, %v), want on the arc at 15° (%v, %v)", hand.TX, hand.TY, wantX, wantY)
	}
	// Rotation frames are float32, as eval.rs computes them.
	if math.Abs(hand.A-c15) > 1e-7 || math.Abs(hand.C-s15) > 1e-7 {
		t.Fatalf("hand rotation (%v, %v), want cos/sin 15°", hand.A, hand.C)
	}
	// The virtual forearm: elbow at (160, 100), turned by the elbow angle.
	r.SetParameter(synth.AdvParamElbow, 30)
	r.Evaluate()
	fa, ok := r.BoneTransform(0)
	want := p2l.Affine{A: c30, B: -s30, C: s30, D: c30, TX: ex, TY: ey}
	// float32 rotation frames, as eval.rs: 1e-7 covers their rounding.
	if !ok || math.Abs(fa.A-want.A) > 1e-7 || math.Abs(fa.B-want.B) > 1e-7 || math.Abs(fa.C-want.C) > 1e-7 ||
		math.Abs(fa.D-want.D) > 1e-7 || math.Abs(fa.TX-want.TX) > 1e-9 || math.Abs(fa.TY-want.TY) > 1e-9 {
		t.Fatalf("forearm %+v, want %+v", fa, want)
	}
	// The same in Cubism mode (virtual bones are data, not a feature).
	r.SetAdvanced(0)
	if fb, _ := r.BoneTransform(0); fb != fa {
		t.Fatalf("forearm in Cubism mode %+v, advanced %+v", fb, fa)
	}
	_ = m
}

// ribbonTarget is where the evaluated pose puts ribbon vertex v with the
// simulation on: the rest position moved by 2·body, the baked swing held at
// its default (0) and the static correction removed.
func ribbonTarget(v int, body float64) (float64, float64) {
	return float64(synth.AdvRibbonX+10*(v%2)) + 2*body, float64(synth.AdvRibbonTop + synth.AdvRibbonStep*(v/2))
}

func TestSimulationTargetStepsAndRest(t *testing.T) {
	m, r := newAdvRig(t, synth.AdvancedOptions{})
	if got := r.SetAdvanced(p2lrt.FeatureSim); got != p2lrt.FeatureSim {
		t.Fatalf("sim gave %b", got)
	}
	r.SetParameter(synth.AdvParamSwing, 1)
	r.SetParameter(synth.AdvParamBody, 10)
	r.Evaluate()
	n := len(m.Meshes().At(synth.AdvRibbonMesh).Positions) / 2
	got := r.Mesh(synth.AdvRibbonMesh).Vertices()
	for v := 0; v < n; v++ {
		x, y := ribbonTarget(v, 10)
		if math.Abs(float64(got[2*v])-x) > 1e-4 || math.Abs(float64(got[2*v+1])-y) > 1e-4 {
			t.Fatalf("before any update vertex %d at (%v, %v), want the target (%v, %v)", v, got[2*v], got[2*v+1], x, y)
		}
	}
	if p := r.ParameterCurrent(synth.AdvParamSwing); p != 0 {
		t.Fatalf("replaced parameter at %v, want held at its default 0", p)
	}
	// The pendulum that drove the swing is skipped: in Cubism mode it
	// moves the swing when the body moves, with the simulation on it does
	// not run.
	cub := m.NewRig()
	for _, rr := range []*p2l.Rig{cub, r} {
		for f := 0; f < 20; f++ {
			rr.SetParameter(synth.AdvParamBody, float32(f%2)*10)
			rr.Update(1.0 / 30)
		}
	}
	if cub.ParameterCurrent(synth.AdvParamSwing) == 0 || r.ParameterCurrent(synth.AdvParamSwing) != 0 {
		t.Fatalf("swing %v in Cubism mode (want moving), %v simulated (want 0)", cub.ParameterCurrent(synth.AdvParamSwing), r.ParameterCurrent(synth.AdvParamSwing))
	}
	r.SetParameter(synth.AdvParamBody, 10)
	r.Simulation().Reset()
	r.Update(1) // the first update after a reset starts at rest: no step
	if s := r.SimStepsForTest(); s[0] != 0 {
		t.Fatalf("the starting update ran %d steps, want 0", s[0])
	}
	r.Update(1)
	if s := r.SimStepsForTest(); s[0] != 4 {
		t.Fatalf("one 1-second update ran %d steps, want at most 4", s[0])
	}
	for i := 0; i < 240; i++ {
		r.Update(1.0 / 60)
	}
	got = verts(r, synth.AdvRibbonMesh)
	// The top row is kinematic on its target; every column segment ends
	// near its rest length (hard stretch, soft compression).
	for v := 0; v < 2; v++ {
		x, y := ribbonTarget(v, 10)
		if math.Abs(float64(got[2*v])-x) > 1e-3 || math.Abs(float64(got[2*v+1])-y) > 1e-3 {
			t.Fatalf("top vertex %d at (%v, %v), want its target (%v, %v)", v, got[2*v], got[2*v+1], x, y)
		}
	}
	for v := 0; v+2 < n; v++ {
		l := math.Hypot(float64(got[2*v+4]-got[2*v]), float64(got[2*v+5]-got[2*v+1]))
		if math.Abs(l-synth.AdvRibbonStep) > 0.5 {
			t.Errorf("segment %d–%d length %v, want %v ± 0.5", v, v+2, l, synth.AdvRibbonStep)
		}
	}
	// Evaluate draws the simulation as the last update left it; it does
	// not advance.
	before := r.SimStepsForTest()[0]
	r.Evaluate()
	r.Evaluate()
	if r.SimStepsForTest()[0] != before {
		t.Fatal("Evaluate advanced the simulation")
	}
	// SimReset: the next update starts at rest in the current pose.
	r.SetParameter(synth.AdvParamBody, -10)
	r.Simulation().Reset()
	r.Update(0.001) // less than a step: nothing to show yet
	got = r.Mesh(synth.AdvRibbonMesh).Vertices()
	for v := 0; v < n; v++ {
		x, y := ribbonTarget(v, -10)
		if math.Abs(float64(got[2*v])-x) > 1e-4 || math.Abs(float64(got[2*v+1])-y) > 1e-4 {
			t.Fatalf("after reset vertex %d at (%v, %v), want the target (%v, %v)", v, got[2*v], got[2*v+1], x, y)
		}
	}
}

func TestSimulationDeterministicAndCollides(t *testing.T) {
	run := func() ([]uint32, float64) {
		m, r := newAdvRig(t, synth.AdvancedOptions{})
		if got := r.SetAdvanced(p2lrt.FeatureSim | p2lrt.FeatureCollision); got != p2lrt.FeatureSim|p2lrt.FeatureCollision {
			t.Fatalf("sim+collision gave %b", got)
		}
		coll, _ := m.Collision()
		post := coll.Colliders[0]
		r.Simulation().SetWind(4000, 0) // blow the ribbon right, into the post
		var bits []uint32
		worst := 0.0
		touched := false
		for f := 0; f < 240; f++ {
			r.SetParameter(synth.AdvParamBody, float32(8*math.Sin(float64(f)/20)))
			r.Update(1.0/60 + float64(f%4)*0.003)
			v := r.Mesh(synth.AdvRibbonMesh).Vertices()
			for i := 0; i+1 < len(v); i += 2 {
				bits = append(bits, math.Float32bits(v[i]), math.Float32bits(v[i+1]))
				// Distance to the capsule's axis against its radius there.
				ax, ay, bx, by := float64(post.AX), float64(post.AY), float64(post.BX), float64(post.BY)
				px, py := float64(v[i]), float64(v[i+1])
				t := ((px-ax)*(bx-ax) + (py-ay)*(by-ay)) / ((bx-ax)*(bx-ax) + (by-ay)*(by-ay))
				t = math.Max(0, math.Min(1, t))
				rad := float64(post.RadiusA) + t*float64(post.RadiusB-post.RadiusA)
				d := math.Hypot(px-(ax+t*(bx-ax)), py-(ay+t*(by-ay)))
				worst = math.Max(worst, rad-d)
				if d < rad+1 {
					touched = true
				}
			}
		}
		if !touched {
			t.Fatal("the ribbon never reached the post; the test proves nothing")
		}
		return bits, worst
	}
	a, worst := run()
	b, _ := run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("trajectories differ at value %d", i)
		}
	}
	// Collisions come before the last stretch pass of each substep (the
	// editor's order), which may pull a particle back in a little, and the
	// output is interpolated between two steps: a fraction of a pixel.
	if worst > 0.5 {
		t.Fatalf("capsule penetrated by %v px", worst)
	}
	t.Logf("deepest capsule penetration of drawn vertices: %v px", math.Max(worst, 0))
}

func TestPrepareAdvancedConcurrentAndBadData(t *testing.T) {
	m := p2l.ModelForTest(synth.Advanced(synth.AdvancedOptions{}))
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = m.PrepareAdvanced()
			r := m.NewRig()
			r.SetAdvanced(allBits)
			r.SetParameter(synth.AdvParamElbow, 30)
			r.Update(1.0 / 60)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	badFile := synth.Advanced(synth.AdvancedOptions{})
	badFile.Simulations.Sims[0].Targets[0].VertexCount = 3
	bad := p2l.ModelForTest(badFile)
	if err := bad.PrepareAdvanced(); err == nil {
		t.Fatal("a wrong target vertex count was accepted")
	} else {
		t.Log(err)
	}
	if got := bad.NewRig().SetAdvanced(allBits); got != p2lrt.FeatureSkin|p2lrt.FeatureExactLinks {
		t.Fatalf("with a broken simulation SetAdvanced gave %b, want skin+exact links", got)
	}
}

func TestAdvancedUpdateAllocatesNothing(t *testing.T) {
	_, r := newAdvRig(t, synth.AdvancedOptions{})
	r.SetAdvanced(allBits)
	f := 0
	step := func() {
		f++
		r.SetParameter(synth.AdvParamElbow, float32(f%90)+0.5)
		r.SetParameter(synth.AdvParamBody, float32(f%20)-10)
		r.Update(1.0 / 60)
		r.BoneTransform(0)
	}
	for i := 0; i < 10; i++ {
		step()
	}
	if a := testing.AllocsPerRun(50, step); a != 0 {
		t.Fatalf("an advanced update allocates %v times", a)
	}
}

func BenchmarkSetAdvancedFit(b *testing.B) {
	// Each iteration fits the arm's weights on a fresh model (3 key
	// combinations × 16 vertices × 2 bones).
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m := p2l.ModelForTest(synth.Advanced(synth.AdvancedOptions{}))
		r := m.NewRig()
		if r.SetAdvanced(p2lrt.FeatureSkin) != p2lrt.FeatureSkin {
			b.Fatal("skin not enabled")
		}
	}
}

func BenchmarkAdvancedUpdate(b *testing.B) {
	for _, bits := range []p2l.Features{0, p2lrt.FeatureSkin | p2lrt.FeatureExactLinks, allBits} {
		b.Run(map[p2l.Features]string{0: "off", 3: "skin+links", allBits: "all"}[bits], func(b *testing.B) {
			m := p2l.ModelForTest(synth.Advanced(synth.AdvancedOptions{}))
			r := m.NewRig()
			r.SetAdvanced(bits)
			r.Update(1.0 / 60) // creates the animation state
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.SetParameter(synth.AdvParamElbow, float32(i%90)+0.5)
				r.Update(1.0 / 60)
			}
		})
	}
}

func TestAdvancedModelRoundTrips(t *testing.T) {
	// Written and read back, the model plays the same in every mode (the
	// writer and reader keep all four chunks), and the v1 layout, which
	// keeps only the core, plays as Cubism mode.
	m := p2l.ModelForTest(synth.Advanced(synth.AdvancedOptions{}))
	var buf, buf1 bytes.Buffer
	if err := p2l.Write(&buf, m, nil); err != nil {
		t.Fatal(err)
	}
	back, err := p2l.Load(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := p2l.Write(&buf1, m, &p2lrt.WriteOptions{V1: true}); err != nil {
		t.Fatal(err)
	}
	v1, err := p2l.Load(buf1.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if v1.AdvancedAvailable() != 0 {
		t.Fatalf("v1 layout carries advanced bits %b", v1.AdvancedAvailable())
	}
	for _, bits := range []p2l.Features{0, allBits} {
		a, b := m.NewRig(), back.NewRig()
		if a.SetAdvanced(bits) != bits || b.SetAdvanced(bits) != bits {
			t.Fatalf("bits %b not enabled on both", bits)
		}
		c := v1.NewRig()
		for f := 0; f < 30; f++ {
			for _, r := range []*p2l.Rig{a, b, c} {
				r.SetParameter(synth.AdvParamElbow, float32(f*3))
				r.SetParameter(synth.AdvParamBody, float32(f%7-3))
				r.Update(1.0 / 60)
			}
			for mesh := range m.Meshes().Len() {
				va, vb, vc := a.Mesh(mesh).Vertices(), b.Mesh(mesh).Vertices(), c.Mesh(mesh).Vertices()
				for i := range va {
					if math.Float32bits(va[i]) != math.Float32bits(vb[i]) {
						t.Fatalf("bits %b frame %d mesh %d: read-back model differs", bits, f, mesh)
					}
					if bits == 0 && math.Float32bits(va[i]) != math.Float32bits(vc[i]) {
						t.Fatalf("frame %d mesh %d: v1 model differs from Cubism mode", f, mesh)
					}
				}
			}
		}
	}
}

func TestBrokenExtensionDataNeverPanics(t *testing.T) {
	// Each mutation breaks one reference or array; models built in code
	// skip the reader's checks. PrepareAdvanced may report an error and
	// SetAdvanced may leave features off, but the rig must keep working.
	muts := map[string]func(f *p2lrt.File){
		"skin mesh":          func(f *p2lrt.File) { f.Skins.Meshes[0].Mesh = 9 },
		"skin bone":          func(f *p2lrt.File) { f.Skins.Meshes[0].Bones[1] = 40 },
		"skin warp bone":     func(f *p2lrt.File) { f.Skins.Meshes[0].Bones = []int{-1} },
		"skin weights short": func(f *p2lrt.File) { f.Skins.Meshes[0].Weight = []float32{0.5} },
		"skin axis":          func(f *p2lrt.File) { f.Skins.Meshes[0].Axes[0].Parameter = 7 },
		"skin keys":          func(f *p2lrt.File) { f.Skins.Meshes[0].Axes[0].Keys = []float32{3, 1} },
		"no BONE":            func(f *p2lrt.File) { f.Bones = nil; f.Skins.Header.DependsOn = nil },
		"virtual parent":     func(f *p2lrt.File) { f.Bones.Virtual[0].Parent = 5 },
		"arc deformer":       func(f *p2lrt.File) { f.Bones.Arcs[0].Deformer = 0 },
		"arc parameter":      func(f *p2lrt.File) { f.Bones.Arcs[0].Parameter = 2 },
		"attachable":         func(f *p2lrt.File) { f.Bones.Attachable[0].Deformer = 99 },
		"sim stretch":        func(f *p2lrt.File) { f.Simulations.Sims[0].StretchB[0] = 1000 },
		"sim short array":    func(f *p2lrt.File) { f.Simulations.Sims[0].Damping = f.Simulations.Sims[0].Damping[:3] },
		"sim anchor": func(f *p2lrt.File) {
			f.Simulations.Sims[0].AnchorMesh[3] = 1
			f.Simulations.Sims[0].AnchorVertex[3] = 99
		},
		"sim fps":           func(f *p2lrt.File) { f.Simulations.Sims[0].Fps = 0; f.Simulations.Sims[0].Substeps = 0 },
		"sim NaN":           func(f *p2lrt.File) { f.Simulations.Sims[0].Rest[0] = float32(math.NaN()) },
		"sim collider":      func(f *p2lrt.File) { f.Simulations.Sims[0].Colliders = []int{7} },
		"sim correction":    func(f *p2lrt.File) { f.Simulations.Sims[0].Corrections[0].Meshes[0].Offsets = nil },
		"sim parameter":     func(f *p2lrt.File) { f.Simulations.Sims[0].Parameters = []int{-3, 77} },
		"collider vertex":   func(f *p2lrt.File) { f.Collision.Colliders[1].VertexA = 500 },
		"collider virtual":  func(f *p2lrt.File) { f.Collision.Colliders[0].Deformer = synth.AdvForearm },
		"collider deformer": func(f *p2lrt.File) { f.Collision.Colliders[0].Deformer = 12 },
	}
	for name, mut := range muts {
		f := synth.Advanced(synth.AdvancedOptions{})
		mut(f)
		m := p2l.ModelForTest(f)
		err := m.PrepareAdvanced()
		r := m.NewRig()
		got := r.SetAdvanced(allBits)
		for f := 0; f < 5; f++ {
			r.SetParameter(synth.AdvParamElbow, float32(f*20))
			r.Update(1.0 / 30)
			bones, _ := m.Bones()
			for i := range bones.Attachable {
				r.BoneTransform(i)
			}
		}
		if r.Err() != nil {
			t.Errorf("%s: rig failed: %v", name, r.Err())
		}
		t.Logf("%s: enabled %04b, PrepareAdvanced: %v", name, got, err)
	}
}

func TestClothSimulationBuilder(t *testing.T) {
	f := synth.Advanced(synth.AdvancedOptions{})
	s, err := p2l.ClothSimulation(f, synth.AdvRibbonMesh, p2l.ClothOptions{ID: "Built", Pinned: func(v int) bool { return v < 2 },
		Colliders: []int{0}, Parameters: []int{synth.AdvParamSwing}})
	if err != nil {
		t.Fatal(err)
	}
	// A 2×7 strip of 12 triangles: 7 rungs + 12 column segments + 6 cell
	// diagonals = 25 edges; 6 diagonals + 5 inner rungs = 11 bending
	// pairs; 12 free vertices each tied to the nearest top vertex.
	if len(s.StretchA) != 25 || len(s.TriA) != 12 || len(s.BendT1) != 11 || len(s.LongParticle) != 12 {
		t.Fatalf("stretch %d, triangles %d, bends %d, long-range %d; want 25, 12, 11, 12",
			len(s.StretchA), len(s.TriA), len(s.BendT1), len(s.LongParticle))
	}
	for i := range s.StretchA {
		a, b := s.StretchA[i], s.StretchB[i]
		want := float32(synth.AdvRibbonStep)
		switch {
		case b-a == 1 && a%2 == 0:
			want = 10 // a rung
		case b-a == 1:
			want = float32(math.Hypot(10, synth.AdvRibbonStep)) // a diagonal
		}
		if math.Abs(float64(s.Rest[i]-want)) > 1e-4 {
			t.Fatalf("edge %d–%d rest %v, want %v", a, b, s.Rest[i], want)
		}
	}
	if last := len(s.MaxDistance) - 1; s.LongRoot[last] != 1 || math.Abs(float64(s.MaxDistance[last])-6*synth.AdvRibbonStep*1.05) > 1e-3 {
		t.Fatalf("bottom-right vertex tied to %d at %v, want 1 at %v", s.LongRoot[last], s.MaxDistance[last], 6*synth.AdvRibbonStep*1.05)
	}
	// It runs: the built simulation replaces the hand-written one.
	f.Simulations.Sims = []p2lrt.Simulation{s}
	m := p2l.ModelForTest(f)
	if err := m.PrepareAdvanced(); err != nil {
		t.Fatal(err)
	}
	r := m.NewRig()
	if got := r.SetAdvanced(p2lrt.FeatureSim | p2lrt.FeatureCollision); got != p2lrt.FeatureSim|p2lrt.FeatureCollision {
		t.Fatalf("enabled %b", got)
	}
	for f := 0; f < 120; f++ {
		r.Update(1.0 / 60)
	}
	v := r.Mesh(synth.AdvRibbonMesh).Vertices()
	if l := math.Hypot(float64(v[26]-v[2]), float64(v[27]-v[3])); l > 6*synth.AdvRibbonStep*1.05+1e-3 {
		t.Fatalf("bottom vertex %v from the top, beyond its long-range limit", l)
	}
	if _, err := p2l.ClothSimulation(f, 9, p2l.ClothOptions{}); err == nil {
		t.Fatal("mesh 9 accepted")
	}
}

// underWarp returns synth.Advanced with a warp deformer, keyed on the body
// parameter, inserted as the parent of the upper arm (every deformer index
// shifts by one) and the body parameter added as a second skin axis: bone
// frames then come through a warp, rigidly at the upper arm's origin.
func underWarp() *p2l.Model {
	f := synth.Advanced(synth.AdvancedOptions{})
	shift := func(d *int) {
		if *d >= 0 {
			*d++
		}
	}
	for i := range len(f.Deformers) {
		shift(&f.Deformers[i].Parent)
	}
	for i := range f.Bones.Virtual {
		shift(&f.Bones.Virtual[i].Parent)
	}
	for i := range len(f.Meshes) {
		shift(&f.Meshes[i].Parent)
	}
	for i := range f.Bones.Attachable {
		shift(&f.Bones.Attachable[i].Deformer)
	}
	for i := range f.Bones.Arcs {
		shift(&f.Bones.Arcs[i].Deformer)
	}
	for i := range f.Bones.Header.Deformers {
		shift(&f.Bones.Header.Deformers[i])
	}
	for i := range f.Skins.Meshes[0].Bones {
		shift(&f.Skins.Meshes[0].Bones[i])
	}
	for i := range f.Collision.Colliders {
		shift(&f.Collision.Colliders[i].Deformer)
	}
	// A 2×2-cell warp over the canvas square 0..300, sheared by the body
	// parameter; the upper arm's origin at (1/3, 1/3) is canvas (100, 100)
	// at rest.
	grid := &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: synth.AdvParamBody, Keys: []float32{-10, 0, 10}}}}
	for k, body := range []float32{-10, 0, 10} {
		var pts []float32
		for j := 0; j <= 2; j++ {
			for i := 0; i <= 2; i++ {
				x, y := float32(150*i), float32(150*j)
				pts = append(pts, x+body*float32(j)*2, y+body*float32(i*i))
			}
		}
		grid.Cells = append(grid.Cells, p2lrt.Cell[[]float32]{Coord: []uint16{uint16(k)}, Value: pts})
	}
	warp := p2lrt.Deformer{Kind: p2lrt.WarpDeformer, ID: "BodyWarp", Parent: -1, Part: -1,
		Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled, Opacity: 1, Multiply: p2lrt.White, Screen: p2lrt.Black,
		Warp: &p2lrt.Warp{Columns: 2, Rows: 2, Keyforms: grid}}
	f.Deformers = append([]p2lrt.Deformer{warp}, f.Deformers...)
	f.Deformers[1].Parent = 0
	f.Deformers[1].Rotation.Keyforms.Cells[0].Value.X = 1.0 / 3
	f.Deformers[1].Rotation.Keyforms.Cells[0].Value.Y = 1.0 / 3
	f.Skins.Meshes[0].Axes = append(f.Skins.Meshes[0].Axes, p2lrt.Axis{Parameter: synth.AdvParamBody, Keys: []float32{-10, 0, 10}})
	return p2l.ModelForTest(f)
}

func TestSkinExactAtEveryKeyUnderWarp(t *testing.T) {
	m := underWarp()
	if err := m.PrepareAdvanced(); err != nil {
		t.Fatal(err)
	}
	r, cub := m.NewRig(), m.NewRig()
	if got := r.SetAdvanced(p2lrt.FeatureSkin | p2lrt.FeatureExactLinks); got != p2lrt.FeatureSkin|p2lrt.FeatureExactLinks {
		t.Fatalf("enabled %b", got)
	}
	maxErr, between := 0.0, 0.0
	for _, elbow := range []float32{0, 10, 45, 70, 90} {
		for _, body := range []float32{-10, -4, 0, 10} {
			for _, rr := range []*p2l.Rig{r, cub} {
				rr.SetParameter(synth.AdvParamElbow, elbow)
				rr.SetParameter(synth.AdvParamBody, body)
				rr.Evaluate()
			}
			a, b := r.Mesh(synth.AdvArmMesh).Vertices(), cub.Mesh(synth.AdvArmMesh).Vertices()
			onKey := (elbow == 0 || elbow == 45 || elbow == 90) && body != -4
			for i := range a {
				d := math.Abs(float64(a[i] - b[i]))
				if onKey {
					maxErr = math.Max(maxErr, d)
				} else {
					between = math.Max(between, d)
				}
			}
		}
	}
	if maxErr != 0 {
		t.Fatalf("SKIN correction at key combinations under a warp: max error %v, want 0", maxErr)
	}
	if between == 0 {
		t.Fatal("the skin never changed anything between keys; the test proves nothing")
	}
	t.Logf("under a warp, 2 skin axes: max error at the 9 key combinations 0, largest correction between keys %.3f px", between)
}
