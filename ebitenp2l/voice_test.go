package ebitenp2l

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2/audio"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/ebitenp2l/sound"
	"github.com/psd2live/p2l-ebiten/internal/cputime"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/lipsync"
)

// speechPCM decodes the bundled speech to 16-bit stereo at 44.1 kHz and
// its mono mix.
func speechPCM(t testing.TB) ([]byte, []float32) {
	t.Helper()
	s, err := sound.Decode(assets.Speech, 44100)
	if err != nil {
		t.Fatal(err)
	}
	pcm, err := io.ReadAll(s)
	if err != nil {
		t.Fatal(err)
	}
	return pcm, monoOf(pcm)
}

func monoOf(pcm []byte) []float32 {
	mono := make([]float32, len(pcm)/4)
	for i := range mono {
		l := int16(binary.LittleEndian.Uint16(pcm[4*i:]))
		r := int16(binary.LittleEndian.Uint16(pcm[4*i+2:]))
		mono[i] = (float32(l) + float32(r)) / (2 * 32768)
	}
	return mono
}

// TestTeeWindow: a reader that runs ahead of the play head (as the audio
// player does) still gets the window ending at the head, and seeking
// restarts the offsets.
func TestTeeWindow(t *testing.T) {
	pcm := make([]byte, 4*100000) // beyond the ring (ringBytes)
	for i := 0; i < 100000; i++ {
		binary.LittleEndian.PutUint16(pcm[4*i:], uint16(int16(i%30000)))
		binary.LittleEndian.PutUint16(pcm[4*i+2:], uint16(int16(i%30000)))
	}
	tee := &teeSeeker{newTeeReader(bytes.NewReader(pcm))}
	buf := make([]byte, 3000) // not a multiple of 4
	for tee.pos < 4*90000 {
		if _, err := tee.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	head := int64(4 * 80000) // heard now; read up to ~90000
	w := tee.window(head, 100, nil)
	if len(w) != 100 {
		t.Fatalf("%d samples, want 100", len(w))
	}
	for k, x := range w {
		want := float32((80000-100+k)%30000) / 32768
		if x != want {
			t.Fatalf("sample %d = %v, want %v", k, x, want)
		}
	}
	// Older than the ring: nothing.
	if w := tee.window(4*1000, 100, nil); len(w) != 0 {
		t.Errorf("window behind the ring: %d samples", len(w))
	}
	// Beyond what was read: cut at the read position.
	if w := tee.window(tee.pos+4000, 100, nil); len(w) != 100 {
		t.Errorf("window past the read position: %d samples", len(w))
	}
	if _, err := tee.Seek(4*10, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if _, err := tee.Read(buf[:400]); err != nil {
		t.Fatal(err)
	}
	if w := tee.window(4*110, 100, nil); len(w) != 100 || w[0] != float32(10)/32768 {
		t.Errorf("after seek: %d samples, first %v", len(w), w[0])
	}
}

// TestVoiceSilent plays the bundled speech on the silent clock (no sound
// device here) through Character.Update and checks the mouth against the
// rule computed in the test from the decoded PCM: without vowels,
// ParamMouthOpenY = clamp(RMS(last 1/25 s before the head) × gain, 0, 1);
// with vowels MouthForm moves both ways; at the end the voice stops and
// the mouth closes.
func TestVoiceSilent(t *testing.T) {
	_, mono := speechPCM(t)
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	open, form := m.ParameterIndex("ParamMouthOpenY"), m.ParameterIndex("ParamMouthForm")
	var c *Character
	onGame(func() { c = NewCharacter(m) })
	defer onGame(c.Deallocate)
	const gain, dt = 4, 1.0 / 60
	s, _ := sound.Decode(assets.Speech, 44100)
	v, err := NewVoice(c, s, &VoiceOptions{Silent: true, LipSync: lipsync.Options{Gain: gain, NoVowels: true}})
	if err != nil {
		t.Fatal(err)
	}
	if silent, why := v.Silent(); !silent || why == "" {
		t.Errorf("Silent() = %v, %q", silent, why)
	}
	clock, checked := 0.0, 0
	for v.Playing() && checked < 2000 {
		c.Update(dt)
		if !v.Playing() {
			break
		}
		clock += dt
		head := int(clock * 44100)
		win := mono[max(0, head-44100/25):min(head, len(mono))]
		sum := 0.0
		for _, x := range win {
			sum += float64(x) * float64(x)
		}
		want := math.Min(1, gain*math.Sqrt(sum/float64(len(win))))
		if got := c.Rig().ParameterCurrent(open); math.Abs(float64(got)-want) > 1e-5 {
			t.Fatalf("t=%.3f: mouth %v, want %v", clock, got, want)
		}
		checked++
	}
	if d := float64(len(mono)) / 44100; math.Abs(clock-d) > 2*dt {
		t.Errorf("voice ended at %.3f s, the speech lasts %.3f s", clock, d)
	}
	c.Update(dt)
	if got := c.Rig().ParameterCurrent(open); got != 0 || c.voice != nil {
		t.Errorf("after the end: mouth %v, voice %v", got, c.voice)
	}
	// With vowels: the form goes both ways while she speaks.
	s, _ = sound.Decode(assets.Speech, 44100)
	if _, err := NewVoice(c, s, &VoiceOptions{Silent: true}); err != nil {
		t.Fatal(err)
	}
	lo, hi := 0.0, 0.0
	for c.voice != nil {
		c.Update(dt)
		f := float64(c.Rig().ParameterCurrent(form))
		lo, hi = math.Min(lo, f), math.Max(hi, f)
	}
	if lo > -0.3 || hi < 0.3 {
		t.Errorf("MouthForm stayed in [%.2f, %.2f] during the speech", lo, hi)
	}
	// A new voice replaces the old one; Stop closes the mouth.
	s1, _ := sound.Decode(assets.Speech, 44100)
	s2, _ := sound.Decode(assets.Speech, 44100)
	a, _ := NewVoice(c, s1, &VoiceOptions{Silent: true})
	b, _ := NewVoice(c, s2, &VoiceOptions{Silent: true})
	if a.Playing() || c.voice != b {
		t.Error("the second voice did not replace the first")
	}
	for range 60 {
		c.Update(dt)
	}
	b.Stop()
	c.Update(dt)
	if got := c.Rig().ParameterCurrent(open); got != 0 {
		t.Errorf("after Stop: mouth %v", got)
	}
	if _, err := NewVoice(c, s2, &VoiceOptions{Window: 1}); err == nil {
		t.Error("a 1 s window was accepted")
	}
}

// TestSpeechVowels runs the analysis over the bundled speech ("Hello! I am
// the default character of p2l ebiten. Nice to meet you! Drop a model file
// here to see it move.", espeak-ng en-us) in 1/60 s steps and checks what
// the text implies (raw weights, no smoothing; a vowel counts where its
// weight is above 0.3): voiced frames get a vowel, all five vowels occur, the
// first word "Hello" (/həˈloʊ/) shows E then O, and the last vowel, of
// "move" (/muːv/), is U.
func TestSpeechVowels(t *testing.T) {
	_, mono := speechPCM(t)
	var a lipsync.Analyzer
	var seq []byte
	loud, voiced := 0, 0
	count := map[byte]int{}
	for end := 735; end <= len(mono); end += 735 {
		f := a.Analyze(mono[max(0, end-1764):end], 44100, 0)
		best, bw := byte('.'), float32(0.3)
		for k, w := range f.Vowels {
			if w > bw {
				best, bw = "AIUEO"[k], w
			}
		}
		if f.Level > 0.3 {
			loud++
			if best != '.' {
				voiced++
			}
		}
		if f.Level == 0 && best != '.' {
			t.Errorf("a vowel in silence at %.2f s", float64(end)/44100)
		}
		count[best]++
		seq = append(seq, best)
	}
	t.Logf("dominant vowel per 1/60 s: %s", seq)
	t.Logf("%d of %d loud frames (level > 0.3) have a vowel; frames per vowel A %d I %d U %d E %d O %d, none %d",
		voiced, loud, count['A'], count['I'], count['U'], count['E'], count['O'], count['.'])
	if voiced < loud*7/10 {
		t.Errorf("%d of %d loud frames have a vowel", voiced, loud)
	}
	for _, v := range []byte("AIUEO") {
		if count[v] < len(seq)/100 {
			t.Errorf("vowel %c in %d of %d frames", v, count[v], len(seq))
		}
	}
	// Runs of at least 4 frames, in order.
	var runs []byte
	for i := 0; i < len(seq); {
		j := i
		for j < len(seq) && seq[j] == seq[i] {
			j++
		}
		if j-i >= 4 && seq[i] != '.' {
			runs = append(runs, seq[i])
		}
		i = j
	}
	first := string(runs)
	if k := strings.IndexByte(first, 'O'); k < 0 || !strings.Contains(first[:k], "E") || k > 4 {
		t.Errorf("runs %s: Hello should open with E and reach O within its first runs", runs)
	}
	if runs[len(runs)-1] != 'U' {
		t.Errorf("runs %s: the last vowel (move) should be U", runs)
	}
}

// TestVoiceTickAllocs: the per-tick work of a voice allocates nothing.
func TestVoiceTickAllocs(t *testing.T) {
	v := benchVoice(t, false)
	head := int64(4 * 44100)
	if n := testing.AllocsPerRun(50, func() { v.mouthAt(head, 1.0/60) }); n != 0 {
		t.Errorf("%v allocations per tick", n)
	}
}

// benchVoice is a voice over the speech with its ring filled up to 2 s, as
// an audible voice's is by the player, on a rig without a character.
func benchVoice(t testing.TB, noVowels bool) *Voice {
	pcm, _ := speechPCM(t)
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	c := &Character{rig: m.NewRig()}
	v := &Voice{char: c, src: newTeeReader(bytes.NewReader(pcm)), rate: 44100, window: 44100 / 25}
	v.an.Options.NoVowels = noVowels
	v.mono = make([]float32, 0, v.window)
	buf := make([]byte, 4096)
	v.src.readUntil(4*2*44100, buf)
	v.mouthAt(4*44100, 1.0/60)
	return v
}

// BenchmarkVoiceTick is what an audible voice costs per tick (window,
// level and vowel analysis, Rig.LipSyncVowels); BenchmarkVoiceTickLevel is
// the level alone and BenchmarkRigUpdateDefault a whole Rig.Update of the
// default character, the floors it is compared with.
func BenchmarkVoiceTick(b *testing.B) {
	v := benchVoice(b, false)
	benchTick(b, v)
}

func BenchmarkVoiceTickLevel(b *testing.B) {
	v := benchVoice(b, true)
	benchTick(b, v)
}

func benchTick(b *testing.B, v *Voice) {
	// cputime.Thread reads the calling thread's clock: without the lock the
	// goroutine may move between threads and the difference is meaningless
	// (negative figures were reported).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	head := int64(4 * 44100)
	start := cputime.Thread()
	for b.Loop() {
		v.mouthAt(head, 1.0/60)
		head += 4 * 735
		if head > 4*2*44100 {
			head = 4 * 44100
		}
	}
	b.ReportMetric(float64(cputime.Thread()-start)/float64(b.N), "cpu-ns/op")
}

func BenchmarkRigUpdateDefault(b *testing.B) {
	m, err := assets.DefaultModel()
	if err != nil {
		b.Fatal(err)
	}
	r := m.NewRig()
	r.SetBehaviors(p2l.AllBehaviors)
	r.Layer(0).Start(m.ClipIndex("Idle"))
	r.Update(1.0 / 60)
	runtime.LockOSThread() // cputime.Thread is per thread (see benchTick)
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	start := cputime.Thread()
	for b.Loop() {
		r.Update(1.0 / 60)
	}
	b.ReportMetric(float64(cputime.Thread()-start)/float64(b.N), "cpu-ns/op")
}

// TestVoiceWithoutDevice: on a machine without a sound device (CI, this
// one) a voice asked to play makes no audio context (Ebitengine's device
// error would end RunGame a moment later), plays on the silent clock, says
// why, and the game loop this test runs in keeps running.
func TestVoiceWithoutDevice(t *testing.T) {
	if ok, _ := sound.Available(); ok {
		t.Skip("a sound device is present: the voice would play")
	}
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	var c *Character
	onGame(func() { c = NewCharacter(m) })
	defer onGame(c.Deallocate)
	s, _ := sound.Decode(assets.Speech, 44100)
	v, err := NewVoice(c, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if silent, why := v.Silent(); !silent || why == "" {
		t.Errorf("Silent() = %v, %q", silent, why)
	}
	if audio.CurrentContext() != nil {
		t.Error("an audio context was made without a sound device")
	}
	for range 60 { // a second of frames: RunGame must still be running
		onGame(func() { c.Update(1.0 / 60) })
	}
	if v.Position() < 0.9 || !v.Playing() {
		t.Errorf("after 60 frames: position %v, playing %v", v.Position(), v.Playing())
	}
}
