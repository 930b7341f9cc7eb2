package mobile

import (
	"math"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/mobile/internal/core"
	"github.com/psd2live/p2l-ebiten/p2l"
)

// fresh gives the test its own character state.
func fresh(t *testing.T) {
	t.Helper()
	old := std
	std = core.New()
	t.Cleanup(func() { std = old })
}

func TestBadBytesAreErrors(t *testing.T) {
	fresh(t)
	for _, data := range [][]byte{
		nil,
		{},
		[]byte("P2LR"),
		[]byte("this is not a model at all, just text"),
		make([]byte, 4096),
	} {
		err := LoadModel(data)
		if err == nil {
			t.Errorf("LoadModel(%q...) succeeded", data[:min(len(data), 8)])
		}
	}
	if Loaded() {
		t.Error("Loaded after failed loads")
	}
}

func TestNoModel(t *testing.T) {
	fresh(t)
	if ClipCount() != 0 || ClipID(0) != "" || ClipSound(0) != "" || !math.IsNaN(ClipDuration(0)) ||
		ExpressionCount() != 0 || HitAreaCount() != 0 || ParameterCount() != 0 ||
		!math.IsNaN(ParameterMin(0)) || AdvancedFeatures() != 0 {
		t.Error("accessors without a model are not empty")
	}
	for name, err := range map[string]error{
		"PlayClip":      PlayClip("idle"),
		"PlayClipLayer": PlayClipLayer(1, "idle", PriorityNormal),
		"StopClips":     StopClips(),
		"SetExpression": SetExpression("smile"),
		"LookAt":        LookAt(0, 0),
		"SetLipSync":    SetLipSync(0.5),
		"LipSyncPCM":    LipSyncPCM([]byte{0, 0}, 44100),
		"SetParameter":  SetParameter("ParamAngleX", 1),
		"SetAdvanced":   errOf(SetAdvanced(AdvancedSkin)),
	} {
		if err == nil || !strings.Contains(err.Error(), "no model") {
			t.Errorf("%s without a model: %v, want a no-model error", name, err)
		}
	}
	if id, err := HitTest(0.5, 0.5); id != "" || err == nil {
		t.Errorf("HitTest without a model = %q, %v", id, err)
	}
	// Calls that do not need a model work.
	if err := SetBackground(0.2, 0.4, 0.6, 1); err != nil {
		t.Error(err)
	}
	if got := std.Background(); got != (core.Color{R: 0.2, G: 0.4, B: 0.6, A: 1}) {
		t.Errorf("background %v", got)
	}
	Pause()
	if !Paused() {
		t.Error("not paused after Pause")
	}
	Resume()
	if Paused() {
		t.Error("paused after Resume")
	}
	SetListener(nil)
}

// TestMobileEntryCompiles type-checks game_mobile.go, the file only Android
// and iOS builds compile, against the desktop's view of its imports (the
// same API: ebiten/v2/mobile.SetGame exists everywhere and panics off
// mobile, so the file is vetted but never run).
func TestMobileEntryCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goCmd, "vet", "-tags", "p2lmobilecheck", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go vet -tags p2lmobilecheck: %v\n%s", err, out)
	}
}

// hitRecorder records OnHit calls.
type hitRecorder struct{ hits []string }

func (r *hitRecorder) OnHit(id string)        { r.hits = append(r.hits, id) }
func (r *hitRecorder) OnEvent(clip, v string) {}
func (r *hitRecorder) OnError(message string) {}

func TestDefaultModel(t *testing.T) {
	fresh(t)
	if err := LoadModel(assets.DefaultModelBytes); err != nil {
		t.Fatal(err)
	}
	want, err := p2l.Load(assets.DefaultModelBytes)
	if err != nil {
		t.Fatal(err)
	}
	if !Loaded() || ClipCount() != want.Clips().Len() || ExpressionCount() != want.Expressions().Len() ||
		HitAreaCount() != want.HitAreas().Len() || ParameterCount() != want.Parameters().Len() {
		t.Fatalf("counts: clips %d expressions %d hit areas %d parameters %d; want %d %d %d %d",
			ClipCount(), ExpressionCount(), HitAreaCount(), ParameterCount(),
			want.Clips().Len(), want.Expressions().Len(), want.HitAreas().Len(), want.Parameters().Len())
	}
	for i, c := range want.Clips().All() {
		if ClipID(i) != c.ID || ClipGroup(i) != c.Group || ClipDuration(i) != float64(c.Duration) {
			t.Errorf("clip %d: %q %q %v, want %q %q %v", i, ClipID(i), ClipGroup(i), ClipDuration(i), c.ID, c.Group, c.Duration)
		}
	}
	for i, a := range want.HitAreas().All() {
		if HitAreaID(i) != a.ID || HitAreaName(i) != a.Name {
			t.Errorf("hit area %d: %q %q, want %q %q", i, HitAreaID(i), HitAreaName(i), a.ID, a.Name)
		}
	}
	p := want.Parameters().At(0)
	if ParameterID(0) != p.ID || ParameterMin(0) != float64(p.Min) || ParameterMax(0) != float64(p.Max) ||
		ParameterDefault(0) != float64(p.Default) {
		t.Errorf("parameter 0 = %q [%v, %v] %v, want %q [%v, %v] %v", ParameterID(0), ParameterMin(0),
			ParameterMax(0), ParameterDefault(0), p.ID, p.Min, p.Max, p.Default)
	}
	if err := SetParameter(p.ID, float64(p.Max)); err != nil {
		t.Error(err)
	}
	if AdvancedFeatures() != int(want.AdvancedAvailable()) {
		t.Errorf("AdvancedFeatures = %d, want %d", AdvancedFeatures(), want.AdvancedAvailable())
	}
}

// TestHitTestAndTap finds, with a separately evaluated rig, a canvas point
// inside a mesh of each hit area and the area p2l reports there, maps it to
// the view by hand and checks that both HitTest and a tap (the touch
// handler's path, through the core's Tick) report that area.
func TestHitTestAndTap(t *testing.T) {
	fresh(t)
	if err := LoadModel(assets.DefaultModelBytes); err != nil {
		t.Fatal(err)
	}
	m, _ := p2l.Load(assets.DefaultModelBytes)
	r := m.NewRig()
	r.Evaluate()
	// View 500×900, canvas 1000×1200: scale min(0.5, 0.75) = 0.5, the
	// canvas is 500×600 and centred vertically: y offset (900 − 600)/2.
	const vw, vh, scale, oy = 500.0, 900.0, 0.5, 150.0
	std.SetViewSize(vw, vh)
	rec := &hitRecorder{}
	SetListener(rec)
	tested := 0
	for a, area := range m.HitAreas().All() {
		cx, cy, ok := pointIn(r, area.Meshes)
		if !ok {
			continue
		}
		wantArea := r.HitTest(float32(cx), float32(cy))
		if wantArea < 0 {
			t.Fatalf("area %d: p2l finds no area at its own triangle's centroid (%v, %v)", a, cx, cy)
		}
		want := m.HitAreas().At(wantArea).ID
		vx, vy := cx*scale, cy*scale+oy
		if got, err := HitTest(vx/vw, vy/vh); err != nil || got != want {
			t.Errorf("HitTest at canvas (%v, %v) = %q, %v; want %q", cx, cy, got, err, want)
		}
		rec.hits = nil
		std.Tick(1.0/60, []core.Touch{{ID: 3, X: vx, Y: vy}})
		std.Tick(1.0/60, []core.Touch{{ID: 3, X: vx + 2, Y: vy - 2}}) // within the slop
		std.Tick(1.0/60, nil)
		if len(rec.hits) != 1 || rec.hits[0] != want {
			t.Errorf("tap at canvas (%v, %v): hits %v, want [%s]", cx, cy, rec.hits, want)
		}
		tested++
	}
	if tested == 0 {
		t.Fatal("no hit area has a visible triangle")
	}
	// Far outside the canvas: nothing.
	if got, err := HitTest(0.5, 0.01); err != nil || got != "" {
		t.Errorf("HitTest above the canvas = %q, %v", got, err)
	}
}

// pointIn returns the centroid of the first non-degenerate triangle of a
// visible mesh among meshes.
func pointIn(r *p2l.Rig, meshes []int) (x, y float64, ok bool) {
	m := r.Model()
	for _, mi := range meshes {
		if !r.Mesh(mi).Visible() || r.Mesh(mi).Opacity() <= 0 {
			continue
		}
		v, idx := r.Mesh(mi).Vertices(), m.Meshes().At(mi).Indices
		for t := 0; t+2 < len(idx); t += 3 {
			a, b, c := 2*int(idx[t]), 2*int(idx[t+1]), 2*int(idx[t+2])
			area := (float64(v[b])-float64(v[a]))*(float64(v[c+1])-float64(v[a+1])) -
				(float64(v[b+1])-float64(v[a+1]))*(float64(v[c])-float64(v[a]))
			if math.Abs(area) < 1 {
				continue
			}
			return (float64(v[a]) + float64(v[b]) + float64(v[c])) / 3,
				(float64(v[a+1]) + float64(v[b+1]) + float64(v[c+1])) / 3, true
		}
	}
	return 0, 0, false
}

func TestCorruptModelBytes(t *testing.T) {
	fresh(t)
	good := assets.DefaultModelBytes
	for _, n := range []int{8, 64, len(good) / 2, len(good) - 1} {
		if err := LoadModel(good[:n]); err == nil {
			t.Errorf("LoadModel of the first %d bytes succeeded", n)
		}
	}
	// Flip bytes in the chunk directory and in a chunk.
	for _, at := range []int{40, 100, 2000, 6000} {
		b := append([]byte(nil), good...)
		b[at] ^= 0xA5
		_ = LoadModel(b) // an error or a valid model; never a panic
	}
	if err := LoadModel(good); err != nil {
		t.Fatal(err)
	}
	// A later bad load keeps the good model.
	if err := LoadModel([]byte("junk")); err == nil || !Loaded() || ClipCount() == 0 {
		t.Errorf("bad load after a good one: err %v, loaded %v", err, Loaded())
	}
}

func errOf(_ int, err error) error { return err }

// recorder collects listener calls.
type recorder struct{ hits, events, errs []string }

func (r *recorder) OnHit(id string)        { r.hits = append(r.hits, id) }
func (r *recorder) OnEvent(clip, v string) { r.events = append(r.events, clip+":"+v) }
func (r *recorder) OnError(msg string)     { r.errs = append(r.errs, msg) }

// run ticks the character for the given seconds at 60 Hz with no finger.
func run(seconds float64) {
	for n := int(math.Round(seconds * 60)); n > 0; n-- {
		std.Tick(1.0/60, nil)
	}
}

func loadDefault(t *testing.T) *recorder {
	t.Helper()
	fresh(t)
	if err := LoadModel(assets.DefaultModelBytes); err != nil {
		t.Fatal(err)
	}
	std.SetViewSize(500, 900)
	rec := &recorder{}
	SetListener(rec)
	return rec
}

func param(t *testing.T, id string) float64 {
	t.Helper()
	v, err := Parameter(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTapReactionAndEvents: a tap on the head of the default character
// reports HitAreaHead and plays its TapHead clip "Nod", whose event "nod"
// at 0.3 s reaches the listener; PlayClip("Greeting") fires "hello" at
// 0.5 s and "wave_end" at 2.9 s.
func TestTapReactionAndEvents(t *testing.T) {
	rec := loadDefault(t)
	m, _ := p2l.Load(assets.DefaultModelBytes)
	r := m.NewRig()
	r.Evaluate()
	head := m.HitAreaIndex("HitAreaHead")
	cx, cy, ok := pointIn(r, m.HitAreas().At(head).Meshes)
	if !ok || r.HitTest(float32(cx), float32(cy)) != head {
		t.Fatal("no head point")
	}
	// Canvas to view as in TestHitTestAndTap: scale 0.5, y offset 150.
	vx, vy := cx*0.5, cy*0.5+150
	std.Tick(1.0/60, []core.Touch{{ID: 1, X: vx, Y: vy}})
	std.Tick(1.0/60, nil)
	if len(rec.hits) != 1 || rec.hits[0] != "HitAreaHead" {
		t.Fatalf("hits %v", rec.hits)
	}
	run(0.5)
	if len(rec.events) != 1 || rec.events[0] != "Nod:nod" {
		t.Errorf("events after the tap: %v, want [Nod:nod]", rec.events)
	}
	rec.events = nil
	if err := PlayClip("Greeting"); err != nil {
		t.Fatal(err)
	}
	run(3.2)
	if len(rec.events) != 2 || rec.events[0] != "Greeting:hello" || rec.events[1] != "Greeting:wave_end" {
		t.Errorf("events of Greeting: %v", rec.events)
	}
	if len(rec.errs) != 0 {
		t.Errorf("errors: %v", rec.errs)
	}
}

// TestLipSyncAndExpression checks the values the rig reaches, from the
// spec's rules: lip sync sets the LipSync parameter (ParamMouthOpenY,
// range [0, 1]) to the larger of its value (0) and the level mapped onto
// the range; LipSyncPCM's level is the RMS of the samples times the gain
// (default 5), and a square wave at the Nyquist rate is no vowel, so the
// opening is the level itself.
// The expression "Smile" adds 1 to ParamMouthForm (default 0).
func TestLipSyncAndExpression(t *testing.T) {
	loadDefault(t)
	if err := SetLipSync(0.8); err != nil {
		t.Fatal(err)
	}
	run(0.1)
	if v := param(t, "ParamMouthOpenY"); math.Abs(v-0.8) > 1e-6 {
		t.Errorf("mouth after SetLipSync(0.8) = %v", v)
	}
	// A square wave of amplitude 16384/32768 = 0.5 has RMS 0.5.
	pcm := make([]byte, 2*441)
	for i := 0; i < 441; i++ {
		v := int16(16384)
		if i%2 == 1 {
			v = -16384
		}
		pcm[2*i], pcm[2*i+1] = byte(v), byte(uint16(v)>>8)
	}
	if err := LipSyncPCM(pcm, 44100); err != nil {
		t.Fatal(err)
	}
	run(0.1)
	if v := param(t, "ParamMouthOpenY"); v != 1 {
		t.Errorf("mouth after PCM of RMS 0.5 at the default gain 5 = %v, want 1 (clamped)", v)
	}
	if err := SetLipSyncGain(1); err != nil {
		t.Fatal(err)
	}
	_ = LipSyncPCM(pcm, 44100)
	run(0.1)
	if v := param(t, "ParamMouthOpenY"); math.Abs(v-0.5) > 1e-6 {
		t.Errorf("mouth after PCM of RMS 0.5 at gain 1 = %v", v)
	}
	if err := SetLipSyncGain(1.5); err != nil {
		t.Fatal(err)
	}
	_ = LipSyncPCM(pcm, 44100)
	run(0.1)
	if v := param(t, "ParamMouthOpenY"); math.Abs(v-0.75) > 1e-6 {
		t.Errorf("mouth after PCM of RMS 0.5 at gain 1.5 = %v", v)
	}
	_ = SetLipSync(0)
	if err := SetExpression("Smile"); err != nil {
		t.Fatal(err)
	}
	run(2)
	if v := param(t, "ParamMouthForm"); math.Abs(v-1) > 1e-6 {
		t.Errorf("ParamMouthForm with Smile = %v, want 1", v)
	}
	if err := SetExpression(""); err != nil {
		t.Fatal(err)
	}
	run(2)
	if v := param(t, "ParamMouthForm"); math.Abs(v) > 1e-6 {
		t.Errorf("ParamMouthForm after clearing = %v, want 0", v)
	}
	if err := AddExpression("Smile"); err != nil {
		t.Fatal(err)
	}
	if err := AddExpression("Surprised"); err != nil { // MouthForm −0.3 on top
		t.Fatal(err)
	}
	run(2)
	if v := param(t, "ParamMouthForm"); math.Abs(v-0.7) > 1e-6 {
		t.Errorf("ParamMouthForm with Smile+Surprised = %v, want 1 − 0.3", v)
	}
}

// TestLookAtDrag: dragging a finger to the right edge of the character
// turns the head right (ParamAngleX > 0 and rising toward +30 at full
// look-at), and releasing it returns the target to the front.
func TestLookAtDrag(t *testing.T) {
	loadDefault(t)
	_ = SetBehaviors(BehaviorLookAt) // no breath sway in the angles
	std.Tick(1.0/60, []core.Touch{{ID: 1, X: 250, Y: 450}})
	for range 60 {
		std.Tick(1.0/60, []core.Touch{{ID: 1, X: 500, Y: 450}}) // canvas x = 1000: right edge
	}
	if v := param(t, "ParamAngleX"); !(v > 25) {
		t.Errorf("ParamAngleX after 1 s looking right = %v, want near 30", v)
	}
	std.Tick(1.0/60, nil)
	run(3)
	if v := param(t, "ParamAngleX"); math.Abs(v) > 0.5 {
		t.Errorf("ParamAngleX 3 s after release = %v, want near 0", v)
	}
}

// TestRealPacing: the default character with breathing and blinking goes
// idle (20 updates a second) half a second after the load's wake time, and
// a playing clip keeps every tick.
func TestRealPacing(t *testing.T) {
	loadDefault(t)
	run(4)
	before := std.Updates()
	run(1)
	if n := std.Updates() - before; n != DefaultIdleRate {
		t.Errorf("idle: %d updates in 1 s, want %d", n, DefaultIdleRate)
	}
	_ = PlayClip("Idle") // a looping clip
	before = std.Updates()
	run(1)
	if n := std.Updates() - before; n != 60 {
		t.Errorf("looping clip: %d updates in 1 s, want 60", n)
	}
}

func TestAdvancedOnDefaultModel(t *testing.T) {
	loadDefault(t)
	// The default character carries skinning, simulation and collision
	// (assets/README.md): asking for skin and simulation turns exactly those on.
	if got, want := AdvancedFeatures(), AdvancedSkin|AdvancedSim|AdvancedCollision; got != want {
		t.Errorf("AdvancedFeatures = %d, want %d", got, want)
	}
	on, err := SetAdvanced(AdvancedSkin | AdvancedSim)
	if err != nil || on != AdvancedSkin|AdvancedSim {
		t.Errorf("SetAdvanced = %d, %v; want %d", on, err, AdvancedSkin|AdvancedSim)
	}
	if b, _ := Advanced(); b != on {
		t.Errorf("Advanced = %d, want %d", b, on)
	}
}

// TestRandomCalls drives the API and the touch path with a deterministic
// random mix of valid and invalid calls on the default character. Every
// call must return (errors are fine), and since the API turns a panic
// inside into an inert character plus OnError, the character must still be
// live at the end with finite parameter values.
func TestRandomCalls(t *testing.T) {
	rec := loadDefault(t)
	rng := rand.New(rand.NewPCG(1, 2))
	ids := []string{"", "Idle", "Greeting", "Nod", "Surprise", "Smile", "Sad", "HitAreaHead",
		"ParamAngleX", "ParamMouthOpenY", "nope", "\x00\xff"}
	num := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return math.NaN()
		case 1:
			return math.Inf(1 - 2*rng.IntN(2))
		case 2:
			return 1e30 * (rng.Float64() - 0.5)
		}
		return 4 * (rng.Float64() - 0.5)
	}
	id := func() string { return ids[rng.IntN(len(ids))] }
	for range 3000 {
		switch rng.IntN(16) {
		case 0:
			_ = LookAt(num(), num())
		case 1:
			_ = SetLipSync(num())
		case 2:
			b := make([]byte, rng.IntN(9000))
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			_ = LipSyncPCM(b, rng.IntN(400000)-1000)
		case 3:
			_ = PlayClipLayer(rng.IntN(20)-2, id(), rng.IntN(6)-1)
		case 4:
			_ = PlayClip(id())
		case 5:
			switch rng.IntN(3) {
			case 0:
				_ = SetExpression(id())
			case 1:
				_ = AddExpression(id())
			default:
				_ = RemoveExpression(id())
			}
		case 6:
			_, _ = HitTest(num(), num())
		case 7:
			_ = SetParameter(id(), num())
		case 8:
			_ = SetFraming(num(), num(), num())
		case 9:
			_, _ = SetAdvanced(rng.IntN(40) - 4)
		case 10:
			_ = SetBehaviors(rng.IntN(20) - 2)
		case 11:
			_ = SetTapReaction(id(), id())
		case 12:
			_ = StopClips()
		case 13:
			std.SetViewSize(float64(rng.IntN(3000)), float64(rng.IntN(3000)))
		default:
			var touches []core.Touch
			for range rng.IntN(3) {
				touches = append(touches, core.Touch{ID: rng.IntN(3), X: 3000 * num(), Y: 3000 * num()})
			}
			std.Tick(1.0/60, touches)
		}
	}
	if len(rec.errs) != 0 {
		t.Fatalf("the character failed: %v", rec.errs)
	}
	_ = SetFraming(1, 0.5, 0.5)
	_ = StopClips()
	_ = SetLipSync(0)
	run(1)
	for i := range ParameterCount() {
		if v := param(t, ParameterID(i)); math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("%s = %v", ParameterID(i), v)
		}
	}
	if err := PlayClip("Greeting"); err != nil {
		t.Errorf("PlayClip after the random calls: %v", err)
	}
}
