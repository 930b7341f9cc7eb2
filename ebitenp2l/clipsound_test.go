package ebitenp2l

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
	"github.com/psd2live/p2l-ebiten/p2l/lipsync"
)

// TestClipSoundSpeaks: the synthetic bundle's TapBody motion has a Sound;
// playing it (by a tap on the body) speaks, and the mouth follows the
// sound. The WAV is 0.2 s of a 220 Hz tone at amplitude 0.5, 0.2 s of
// silence, 0.2 s at 0.25 (cubismbundle.SoundSamples). A sine's RMS is its
// amplitude/√2 (a 1/25 s window holds 8.8 periods: within 2 %), so with
// gain 2 and no vowels the level is 2·0.5/√2 = 0.707 in the loud part, 0
// in the silence and 0.354 in the quiet part, once the window lies inside
// each; the model is of Cubism origin, so its mouth (ParamMouthOpenY,
// [0, 1], at 0 before) gets 0.8 × the level added, as the Cubism sample
// adds it (docs/ANIMATION.md §2b): 0.566, 0 and 0.283.
func TestClipSoundSpeaks(t *testing.T) {
	m, _, err := cubism.Load(cubismbundle.Files(), cubismbundle.Model3)
	if err != nil {
		t.Fatal(err)
	}
	checkClipSound(t, m)
}

// TestClipSoundFromP2lrt: the same through a written .p2lrt next to the
// sound file: the sound resolves in the file's folder.
func TestClipSoundFromP2lrt(t *testing.T) {
	m, _, err := cubism.Load(cubismbundle.Files(), cubismbundle.Model3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "tiny.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p2l.Write(f, m, nil); err != nil {
		t.Fatal(err)
	}
	f.Close()
	snd := filepath.Join(dir, filepath.FromSlash(cubismbundle.Sound))
	os.MkdirAll(filepath.Dir(snd), 0o755)
	if err := os.WriteFile(snd, cubismbundle.WAV(cubismbundle.SoundSamples()), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := p2l.LoadFile(filepath.Join(dir, "tiny.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	checkClipSound(t, back)
}

func checkClipSound(t *testing.T, m *p2l.Model) {
	t.Helper()
	mouth := m.ParameterIndex("ParamMouthOpenY")
	opts := &Options{ClipSounds: ClipSounds{Voice: &VoiceOptions{Silent: true, LipSync: lipsync.Options{Gain: 2, NoVowels: true}}}}
	var c *Character
	onGame(func() { c = NewCharacterWithOptions(m, opts) })
	defer onGame(c.Deallocate)
	r := c.Rig()
	r.SetBehaviors(0)
	const dt = 1.0 / 100
	c.Update(dt)
	if c.Voice() != nil {
		t.Fatal("a voice before any clip")
	}
	// Tap the body: canvas (20, 20) is on MeshBody only.
	if area, clip := r.Tap(20, 20); area != 0 || clip != 0 {
		t.Fatalf("Tap = area %d, clip %d; want the body and the talking clip", area, clip)
	}
	c.Update(dt) // starts the clip, then its sound
	v := c.Voice()
	if v == nil {
		t.Fatal("the talking clip started no voice")
	}
	// The voice's clock advances from the next update: at update k after
	// this one the play head is at k·dt.
	for k := 1; k <= 58; k++ {
		c.Update(dt)
		head := float64(k) * dt
		want := -1.0
		switch {
		case head >= 0.1 && head <= 0.19:
			want = 0.8 * 2 * 0.5 / math.Sqrt2
		case head >= 0.26 && head <= 0.39:
			want = 0
		case head >= 0.46 && head <= 0.58:
			want = 0.8 * 2 * 0.25 / math.Sqrt2
		}
		got := float64(r.ParameterCurrent(mouth))
		if want >= 0 && math.Abs(got-want) > 0.02 {
			t.Errorf("t=%.2f s: mouth %.3f, want %.3f", head, got, want)
		}
	}
	for range 10 { // past the 0.6 s sound
		c.Update(dt)
	}
	if c.Voice() != nil || v.Playing() {
		t.Error("the voice outlived its sound")
	}
	if got := r.ParameterCurrent(mouth); got != 0 {
		t.Errorf("mouth %v after the sound", got)
	}
	// A clip replacing the talking one stops its voice; a clip without a
	// sound starts none.
	if _, err := r.Layer(0).PlayGroup("TapBody", 0, p2l.PriorityForce); err != nil {
		t.Fatal(err)
	}
	c.Update(dt)
	v = c.Voice()
	if v == nil {
		t.Fatal("playing the talking clip again started no voice")
	}
	c.Update(dt)
	if _, err := r.Layer(0).PlayGroup("Idle", 0, p2l.PriorityForce); err != nil {
		t.Fatal(err)
	}
	c.Update(dt)
	if v.Playing() || c.Voice() != nil {
		t.Error("the idle clip did not stop the talking clip's voice")
	}
	// Off plays nothing.
	var quiet *Character
	onGame(func() { quiet = NewCharacterWithOptions(m, &Options{ClipSounds: ClipSounds{Off: true}}) })
	defer onGame(quiet.Deallocate)
	quiet.Rig().Layer(0).PlayGroup("TapBody", 0, p2l.PriorityNormal)
	quiet.Update(dt)
	if quiet.Voice() != nil {
		t.Error("ClipSounds.Off: a voice")
	}
}

// TestClipSoundWatchAllocs: watching the layers for clip starts allocates
// nothing per update.
func TestClipSoundWatchAllocs(t *testing.T) {
	m, _, err := cubism.Load(cubismbundle.Files(), cubismbundle.Model3)
	if err != nil {
		t.Fatal(err)
	}
	c := &Character{rig: m.NewRig()}
	c.sound.init(m, ClipSounds{})
	if c.sound.sounds == nil {
		t.Fatal("the bundle's sound is not watched")
	}
	c.rig.Layer(0).PlayGroup("Idle", 0, p2l.PriorityIdle) // a clip without a sound
	c.rig.Update(0.01)
	c.sound.update(c)
	if n := testing.AllocsPerRun(50, func() { c.rig.Update(0.01); c.sound.update(c) }); n != 0 {
		t.Errorf("%v allocations per update", n)
	}
}
