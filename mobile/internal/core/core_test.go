package core

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// fakeRig records what the core asks of it. Its hit test knows two
// rectangles in canvas pixels: area 0 ("head") x∈[10,50], y∈[10,50] and
// area 1 ("body") x∈[10,90], y∈[60,190].
type fakeRig struct {
	updates   int
	dt        float64
	plays     [][3]int
	looks     [][2]float32
	lip       []float32
	vowels    [5]float32
	params    map[int]float32
	current   func(i int) float32
	busy      bool
	events    []string
	panicHit  bool
	exprs     []string
	advanced  int
	hitPoints [][2]float32
	behaviors int
}

func (f *fakeRig) Update(dt float64) { f.updates++; f.dt += dt }
func (f *fakeRig) PlayLayer(l, c, p int) bool {
	f.plays = append(f.plays, [3]int{l, c, p})
	return true
}

// Play is recorded with priority −1 ("whatever plays").
func (f *fakeRig) Play(c int) bool     { return f.PlayLayer(0, c, -1) }
func (f *fakeRig) Stop()               {}
func (f *fakeRig) Busy() bool          { return f.busy }
func (f *fakeRig) SetExpression(i int) { f.exprs = append(f.exprs, "set"+string(rune('0'+i+1))) }
func (f *fakeRig) AddExpression(i int) { f.exprs = append(f.exprs, "add"+string(rune('0'+i+1))) }
func (f *fakeRig) RemoveExpression(i int) {
	f.exprs = append(f.exprs, "remove"+string(rune('0'+i+1)))
}
func (f *fakeRig) LookAt(x, y float32) { f.looks = append(f.looks, [2]float32{x, y}) }
func (f *fakeRig) LipSync(l float32)   { f.lip = append(f.lip, l) }
func (f *fakeRig) LipSyncVowels(l float32, v [5]float32) {
	f.lip = append(f.lip, l)
	f.vowels = v
}
func (f *fakeRig) SetBehaviors(b int) { f.behaviors = b }
func (f *fakeRig) HitTest(x, y float32) int {
	if f.panicHit {
		panic("boom")
	}
	f.hitPoints = append(f.hitPoints, [2]float32{x, y})
	switch {
	case x >= 10 && x <= 50 && y >= 10 && y <= 50:
		return 0
	case x >= 10 && x <= 90 && y >= 60 && y <= 190:
		return 1
	}
	return -1
}
func (f *fakeRig) SetParameter(i int, v float32) {
	if f.params == nil {
		f.params = map[int]float32{}
	}
	f.params[i] = v
}
func (f *fakeRig) Parameter(i int) float32 { return f.params[i] }
func (f *fakeRig) Current(i int) float32 {
	if f.current != nil {
		return f.current(i)
	}
	return f.params[i]
}

// SetAdvanced: the fake model has data for bits 1 and 2 only.
func (f *fakeRig) SetAdvanced(b int) int {
	f.advanced = b & 3
	return f.advanced
}
func (f *fakeRig) Advanced() int { return f.advanced }
func (f *fakeRig) Events(fn func(int, string)) {
	for _, e := range f.events {
		fn(1, e)
	}
	f.events = nil
}
func (f *fakeRig) Err() error { return nil }

// testModel is a 100×200 canvas with two hit areas and clips following the
// Tap<Name> convention.
func testModel() *p2l.Model {
	return synth.MustModel(&p2lrt.File{
		Canvas: p2lrt.Canvas{Width: 100, Height: 200},
		Draw:   p2lrt.DrawGroup{Part: -1},
		Parameters: []p2lrt.Parameter{
			{ID: "ParamAngleX", Min: -30, Max: 30},
			{ID: "ParamHairFront", Min: -1, Max: 1},
		},
		Clips: []p2lrt.Clip{
			{ID: "idle", Group: "Idle"},
			{ID: "nod", Group: "TapHead"},
			{ID: "wave1", Group: "TapBody"},
			{ID: "wave2", Group: "tapbody"},
		},
		Expressions: []p2lrt.Expression{{ID: "smile"}, {ID: "angry"}},
		HitAreas: []p2lrt.HitArea{
			{ID: "HitAreaHead", Name: "Head"},
			{ID: "HitAreaBody"}, // no name: the id minus "HitArea" gives the group
		},
		Physics: p2lrt.Physics{Groups: []p2lrt.PhysicsGroup{{
			Outputs: []p2lrt.PhysicsOutput{{Parameter: 1}},
		}}},
	})
}

func newTestCore(t *testing.T) (*Core, *fakeRig) {
	t.Helper()
	c := New()
	f := &fakeRig{}
	c.newRig = func(*p2l.Model) (Rig, error) { return f, nil }
	if err := c.SetModel(testModel()); err != nil {
		t.Fatal(err)
	}
	c.SetViewSize(200, 400) // scale 2, no letterbox
	return c, f
}

type recorder struct {
	mu     sync.Mutex
	hits   []string
	events []string
	errs   []string
	onHit  func(string)
}

func (r *recorder) OnHit(id string) {
	r.mu.Lock()
	r.hits = append(r.hits, id)
	f := r.onHit
	r.mu.Unlock()
	if f != nil {
		f(id)
	}
}
func (r *recorder) OnEvent(clip, v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, clip+":"+v)
}
func (r *recorder) OnError(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, msg)
}

const tick = 1.0 / 60

// tap presses one finger at (x, y) for three ticks and lifts it.
func tap(c *Core, x, y float64) {
	for range 3 {
		c.Tick(tick, []Touch{{ID: 7, X: x, Y: y}})
	}
	c.Tick(tick, nil)
}

func TestTapReportsHitAreaAndPlaysReaction(t *testing.T) {
	c, f := newTestCore(t)
	rec := &recorder{}
	c.SetListener(rec)
	// View (60, 60) at scale 2 is canvas (30, 30): inside the head.
	tap(c, 60, 60)
	if len(rec.hits) != 1 || rec.hits[0] != "HitAreaHead" {
		t.Fatalf("hits = %v, want [HitAreaHead]", rec.hits)
	}
	if got := f.hitPoints[len(f.hitPoints)-1]; got != [2]float32{30, 30} {
		t.Errorf("hit test at canvas %v, want (30, 30)", got)
	}
	// The head's reaction is group TapHead = clip 1, on layer 0, priority 2.
	if len(f.plays) != 1 || f.plays[0] != [3]int{0, 1, ReactionPriority} {
		t.Fatalf("plays = %v, want [[0 1 2]]", f.plays)
	}
	// The body has no name: its id "HitAreaBody" gives group "TapBody",
	// matched case-insensitively (clips 2 and 3), played in turn.
	for range 3 {
		tap(c, 100, 200) // canvas (50, 100)
	}
	want := [][3]int{{0, 1, 2}, {0, 2, 2}, {0, 3, 2}, {0, 2, 2}}
	if len(f.plays) != len(want) {
		t.Fatalf("plays = %v, want %v", f.plays, want)
	}
	for i := range want {
		if f.plays[i] != want[i] {
			t.Fatalf("plays = %v, want %v", f.plays, want)
		}
	}
	// An explicit reaction replaces the group.
	if err := c.SetTapReaction("HitAreaBody", "idle"); err != nil {
		t.Fatal(err)
	}
	tap(c, 100, 200)
	if got := f.plays[len(f.plays)-1]; got != [3]int{0, 0, 2} {
		t.Errorf("reaction after SetTapReaction = %v, want [0 0 2]", got)
	}
	// A tap outside every area reports nothing and plays nothing.
	n := len(f.plays)
	tap(c, 190, 20) // canvas (95, 10)
	if len(rec.hits) != 5 || len(f.plays) != n {
		t.Errorf("tap outside: hits %v, plays %d (want 5 hits, %d plays)", rec.hits, len(f.plays), n)
	}
	// The tap and the API hit test take the same path: view fractions
	// (0.3, 0.15) of 200×400 are (60, 60).
	id, err := c.HitTest(0.3, 0.15)
	if err != nil || id != "HitAreaHead" {
		t.Errorf("HitTest(0.3, 0.15) = %q, %v; want HitAreaHead", id, err)
	}
	if id, _ := c.HitTest(0.95, 0.05); id != "" {
		t.Errorf("HitTest outside = %q, want empty", id)
	}
}

func TestLetterboxAndFraming(t *testing.T) {
	c, f := newTestCore(t)
	// 300×400 view, 100×200 canvas: scale min(3, 2) = 2, the canvas is
	// 200 wide and centred, so x offset (300 − 200)/2 = 50.
	c.SetViewSize(300, 400)
	id, _ := c.HitTest(110.0/300, 60.0/400)
	if id != "HitAreaHead" || f.hitPoints[len(f.hitPoints)-1] != [2]float32{30, 30} {
		t.Errorf("letterboxed hit = %q at %v, want HitAreaHead at (30, 30)", id, f.hitPoints)
	}
	// Zoom 2 around canvas (0.3, 0.15) = (30, 30): scale 4, and that point
	// sits at the view centre (150, 200). View (150+40, 200−20) is then
	// canvas (30+10, 30−5).
	if err := c.SetFraming(2, 0.3, 0.15); err != nil {
		t.Fatal(err)
	}
	c.HitTest(190.0/300, 180.0/400)
	if got := f.hitPoints[len(f.hitPoints)-1]; got != [2]float32{40, 25} {
		t.Errorf("framed hit at %v, want (40, 25)", got)
	}
	if err := c.SetFraming(0, 0.5, 0.5); err == nil {
		t.Error("zoom 0 accepted")
	}
}

func TestDragDrivesLookAt(t *testing.T) {
	c, f := newTestCore(t)
	rec := &recorder{}
	c.SetListener(rec)
	c.Tick(tick, []Touch{{ID: 1, X: 100, Y: 200}}) // canvas centre
	// 5 px is within the 8 px slop: no gaze yet.
	c.Tick(tick, []Touch{{ID: 1, X: 104, Y: 203}})
	if len(f.looks) != 0 {
		t.Fatalf("gaze moved within the slop: %v", f.looks)
	}
	// View (200, 0) is canvas (100, 0): the right edge and top, so (1, 1).
	c.Tick(tick, []Touch{{ID: 1, X: 200, Y: 0}})
	// A second finger is ignored.
	c.Tick(tick, []Touch{{ID: 2, X: 0, Y: 0}, {ID: 1, X: 150, Y: 300}})
	// Beyond the view the target clamps to the range.
	c.Tick(tick, []Touch{{ID: 1, X: -500, Y: 900}})
	c.Tick(tick, nil)
	want := [][2]float32{
		{1, 1},
		// canvas (75, 150): ((75−50)/50, (100−150)/100)
		{0.5, -0.5},
		{-1, -1},
		{0, 0}, // release: back to the front
	}
	if len(f.looks) != len(want) {
		t.Fatalf("looks = %v, want %v", f.looks, want)
	}
	for i := range want {
		if f.looks[i] != want[i] {
			t.Fatalf("looks = %v, want %v", f.looks, want)
		}
	}
	if len(rec.hits) != 0 || len(f.plays) != 0 {
		t.Errorf("a drag tapped: hits %v plays %v", rec.hits, f.plays)
	}
}

func TestPacing(t *testing.T) {
	c, f := newTestCore(t)
	// Physics output parameter 1 oscillates for the first 2 s at 1 range/s
	// peak speed, then rests.
	now := 0.0
	f.current = func(i int) float32 {
		if i == 1 && now < 2 {
			return float32(0.3 * math.Sin(now*2*math.Pi/0.6*1))
		}
		return 0
	}
	run := func(seconds float64) int {
		before := f.updates
		for n := int(math.Round(seconds * 60)); n > 0; n-- {
			now += tick
			c.Tick(tick, nil)
		}
		return f.updates - before
	}
	// Moving physics: every tick updates.
	if n := run(2); n != 120 {
		t.Errorf("while physics moves: %d updates in 2 s, want 120", n)
	}
	// Physics rests; after quietTime (0.5 s) the rate drops to 20 Hz:
	// within [3 s, 4 s) exactly one update every third tick.
	run(1)
	if n := run(1); n != 20 {
		t.Errorf("idle: %d updates in 1 s, want %d", n, DefaultIdleHz)
	}
	// No time is lost: the rig got all elapsed time except what is still
	// accumulated (less than one idle period).
	if lag := now - f.dt; lag < -1e-9 || lag >= 1.0/DefaultIdleHz {
		t.Errorf("rig time lags by %v s", lag)
	}
	// A clip makes it busy again: full rate from the next tick.
	f.busy = true
	if n := run(0.5); n != 30 {
		t.Errorf("busy: %d updates in 0.5 s, want 30", n)
	}
	f.busy = false
	// Idle rate 0 freezes the pose once quiet.
	if err := c.SetIdleRate(0); err != nil {
		t.Fatal(err)
	}
	run(1)
	if n := run(1); n != 0 {
		t.Errorf("idle rate 0: %d updates, want 0", n)
	}
	// A tap wakes it up on the tick it is handled.
	before := f.updates
	c.Tick(tick, []Touch{{ID: 1, X: 60, Y: 60}})
	if f.updates != before+1 {
		t.Errorf("touch down did not update")
	}
	// Pause stops updates; the frame is not redrawn.
	c.Tick(tick, nil)
	c.SetPaused(true)
	c.Draw(func(*p2l.Model, Rig, Transform, Color) {})
	before = f.updates
	if c.Tick(tick, nil) || f.updates != before {
		t.Errorf("paused tick updated or asked for a redraw")
	}
	c.SetPaused(false)
	if !c.Tick(tick, nil) || f.updates != before+1 {
		t.Errorf("resume did not update")
	}
}

// TestLipSyncPCM: the level the rig gets is clamp(RMS × gain) of the last
// lipsync.DefaultWindow seconds of the block (computed here from the
// samples), with the default gain lipsync.DefaultGain or the one set.
func TestLipSyncPCM(t *testing.T) {
	c, f := newTestCore(t)
	pcm := binary.LittleEndian.AppendUint16(nil, 1638)
	pcm = binary.LittleEndian.AppendUint16(pcm, uint16(0x10000-1638)) // −1638
	if err := c.LipSyncPCM(pcm, 44100); err != nil {
		t.Fatal(err)
	}
	// RMS 1638/32768 = 0.04999, times the default gain 5.
	if got, want := float64(f.lip[len(f.lip)-1]), 5*1638.0/32768; math.Abs(got-want) > 1e-6 {
		t.Errorf("level %v, want %v", got, want)
	}
	// A long block: only the last 1/25 s (1764 samples at 44.1 kHz)
	// counts: samples 1236…2999 of a ramp.
	long := make([]byte, 2*3000)
	for i := range 3000 {
		binary.LittleEndian.PutUint16(long[2*i:], uint16(i))
	}
	_ = c.SetLipSyncGain(3)
	if err := c.LipSyncPCM(long, 44100); err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for i := 3000 - 1764; i < 3000; i++ {
		x := float64(i) / 32768
		sum += x * x
	}
	if got, want := float64(f.lip[len(f.lip)-1]), 3*math.Sqrt(sum/1764); math.Abs(got-want) > 1e-6 {
		t.Errorf("window level %v, want %v (gain 3)", got, want)
	}
	if allocs := testing.AllocsPerRun(50, func() { _ = c.LipSyncPCM(long, 44100) }); allocs > 1 {
		t.Errorf("LipSyncPCM allocates %v times per call", allocs)
	}
	for _, bad := range []struct {
		pcm  []byte
		rate int
		msg  string
	}{
		{pcm[:3], 44100, "odd"},
		{pcm, 0, "sample rate"},
		{pcm, 10_000_000, "sample rate"},
	} {
		if err := c.LipSyncPCM(bad.pcm, bad.rate); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("LipSyncPCM(%d bytes, %d) = %v, want error containing %q", len(bad.pcm), bad.rate, err, bad.msg)
		}
	}
	if err := c.SetLipSync(2); err != nil || f.lip[len(f.lip)-1] != 1 {
		t.Errorf("SetLipSync(2) = %v, level %v; want clamped to 1", err, f.lip)
	}
	if err := c.SetLipSync(math.NaN()); err == nil {
		t.Error("NaN lip sync accepted")
	}
}

func TestBadInputIsAnError(t *testing.T) {
	c := New()
	if err := c.PlayClip("idle"); !errors.Is(err, ErrNoModel) {
		t.Errorf("PlayClip without model = %v, want ErrNoModel", err)
	}
	if _, err := c.HitTest(0.5, 0.5); !errors.Is(err, ErrNoModel) {
		t.Errorf("HitTest without model = %v", err)
	}
	if err := c.Load([]byte("not a model")); err == nil {
		t.Error("Load of garbage succeeded")
	}
	if err := c.Load(nil); err == nil {
		t.Error("Load(nil) succeeded")
	}
	if c.Loaded() {
		t.Error("Loaded after failed loads")
	}
	c.Tick(tick, []Touch{{X: 1, Y: 1}}) // no model: nothing happens, no panic

	c, f := newTestCore(t)
	checks := []struct {
		err  error
		want string
	}{
		{c.PlayClip("nope"), `no clip "nope"`},
		{c.PlayClipLayer(0, "nope", 1), `no clip "nope"`},
		{c.PlayClipLayer(16, "idle", 1), "layer 16"},
		{c.PlayClipLayer(-1, "idle", 1), "layer -1"},
		{c.SetExpression("nope"), `no expression "nope"`},
		{c.AddExpression(""), `no expression ""`},
		{c.SetParameter("nope", 1), `no parameter "nope"`},
		{c.SetParameter("ParamAngleX", math.Inf(1)), "not finite"},
		{c.LookAt(math.NaN(), 0), "not finite"},
		{c.SetTapReaction("nope", "idle"), `no hit area "nope"`},
		{c.SetTapReaction("HitAreaHead", "nope"), `no clip "nope"`},
		{second(c.SetAdvanced(16)), "advanced bits 0x10"},
		{second(c.SetAdvanced(-1)), "advanced bits"},
		{c.SetBehaviors(16), "behavior bits"},
		{c.SetLipSyncGain(-1), "gain"},
		{c.SetBackground(0, 0, math.NaN(), 1), "not finite"},
		{c.SetIdleRate(-1), "idle rate"},
	}
	for i, ch := range checks {
		if ch.err == nil || !strings.Contains(ch.err.Error(), ch.want) {
			t.Errorf("check %d: err = %v, want %q", i, ch.err, ch.want)
		}
	}
	// Good calls reach the rig.
	if err := c.SetExpression("angry"); err != nil {
		t.Fatal(err)
	}
	_ = c.AddExpression("smile")
	_ = c.RemoveExpression("angry")
	_ = c.SetExpression("")
	if got := strings.Join(f.exprs, ","); got != "set2,add1,remove2,set0" {
		t.Errorf("expression calls %s, want set2,add1,remove2,set0", got)
	}
	if err := c.SetParameter("ParamAngleX", 12.5); err != nil || f.params[0] != 12.5 {
		t.Errorf("SetParameter: %v, %v", err, f.params)
	}
	if v, err := c.Parameter("ParamAngleX"); err != nil || v != 12.5 {
		t.Errorf("Parameter = %v, %v; want 12.5", v, err)
	}
	if on, err := c.SetAdvanced(3); err != nil || on != 3 {
		t.Errorf("SetAdvanced(3) = %d, %v; want 3", on, err)
	}
	if b, _ := c.Advanced(); b != 3 {
		t.Errorf("Advanced = %d, want 3", b)
	}
	// Bits without data are reported off, not an error.
	if on, err := c.SetAdvanced(8 | 1); err != nil || on != 1 {
		t.Errorf("SetAdvanced(9) = %d, %v; want 1", on, err)
	}
	// PlayClip plays on layer 0 whatever plays; PlayClipLayer passes the
	// layer and priority.
	f.plays = nil
	_ = c.PlayClip("wave1")
	_ = c.PlayClipLayer(3, "nod", 2)
	if len(f.plays) != 2 || f.plays[0] != [3]int{0, 2, -1} || f.plays[1] != [3]int{3, 1, 2} {
		t.Errorf("plays = %v, want [[0 2 -1] [3 1 2]]", f.plays)
	}
	if err := c.SetBehaviors(5); err != nil || f.behaviors != 5 {
		t.Errorf("SetBehaviors(5): %v, rig got %d", err, f.behaviors)
	}
}

func TestPanicBecomesErrorAndOnError(t *testing.T) {
	c, f := newTestCore(t)
	rec := &recorder{}
	c.SetListener(rec)
	f.panicHit = true
	if _, err := c.HitTest(0.5, 0.5); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("HitTest with panicking rig = %v", err)
	}
	if err := c.PlayClip("idle"); err == nil || !strings.Contains(err.Error(), "failed") {
		t.Errorf("call after failure = %v, want a failed-character error", err)
	}
	c.Tick(tick, nil)
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "boom") {
		t.Errorf("OnError calls %v", rec.errs)
	}
	// The touch handler goes through the same path: still no panic.
	tap(c, 60, 60)
	// Loading a model again recovers.
	f.panicHit = false
	if err := c.SetModel(testModel()); err != nil {
		t.Fatal(err)
	}
	if err := c.PlayClip("idle"); err != nil {
		t.Errorf("after reload: %v", err)
	}
}

func TestListenerMayCallBack(t *testing.T) {
	c, f := newTestCore(t)
	rec := &recorder{}
	rec.onHit = func(id string) {
		// Called outside the mutex: no deadlock.
		if err := c.PlayClipLayer(1, "idle", 3); err != nil {
			t.Error(err)
		}
	}
	c.SetListener(rec)
	f.events = []string{"step"}
	tap(c, 60, 60)
	if len(f.plays) != 2 || f.plays[1] != [3]int{1, 0, 3} {
		t.Errorf("plays = %v", f.plays)
	}
	if len(rec.events) != 1 || rec.events[0] != "nod:step" {
		t.Errorf("events = %v, want [nod:step]", rec.events)
	}
}

func TestConcurrentCalls(t *testing.T) {
	c, _ := newTestCore(t)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 200 {
			c.Tick(tick, []Touch{{ID: 1, X: float64(i), Y: 60}})
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 200 {
			_ = c.LookAt(float64(i%3-1), 0)
			_, _ = c.HitTest(0.3, 0.15)
			_ = c.SetBackground(1, 1, 1, 1)
		}
	}()
	wg.Wait()
}

func second(_ int, err error) error { return err }

// TestLoadDoesNotStallTicks: while a new model's rig is being made (the
// game's maker decodes and uploads textures), ticks and API calls on the
// current character proceed.
func TestLoadDoesNotStallTicks(t *testing.T) {
	c, _ := newTestCore(t)
	release := make(chan struct{})
	next := &fakeRig{}
	c.newRig = func(*p2l.Model) (Rig, error) { <-release; return next, nil }
	loaded := make(chan error)
	go func() { loaded <- c.SetModel(testModel()) }()
	ticked := make(chan error)
	go func() {
		for range 10 {
			c.Tick(tick, nil)
		}
		_, err := c.HitTest(0.3, 0.15)
		ticked <- err
	}()
	select {
	case err := <-ticked:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ticks blocked while the rig was being made")
	}
	close(release)
	if err := <-loaded; err != nil {
		t.Fatal(err)
	}
	c.Tick(tick, nil)
	if next.updates != 1 {
		t.Errorf("the new rig got %d updates, want 1", next.updates)
	}
}
