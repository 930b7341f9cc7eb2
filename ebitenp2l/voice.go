package ebitenp2l

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"

	"github.com/hajimehoshi/ebiten/v2/audio"

	"github.com/psd2live/p2l-ebiten/ebitenp2l/sound"
	"github.com/psd2live/p2l-ebiten/p2l/lipsync"
)

// Voice plays a sound and moves a character's mouth with it: every
// Character.Update it takes the samples audible at the player's position
// (not those the player has buffered ahead), estimates the level and the
// vowel (package p2l/lipsync) and calls Rig.LipSync, which drives
// the LipSync parameters (ParamMouthOpenY), MouthForm and the vowel
// parameters where the model has them.
//
// Without a sound device (or with VoiceOptions.Silent, or NO_AUDIO set in
// the environment) the voice plays nothing and the mouth follows the
// elapsed time instead; the first such voice of the process says so once
// through the log package. A Voice belongs to the game goroutine, like its
// Character.
type Voice struct {
	char    *Character
	ctx     *audio.Context
	player  *audio.Player // nil: the silent clock
	started bool          // the player was started (the context was ready)
	src     *teeReader
	rate    int
	window  int // samples analysed per tick

	clock   float64 // silent clock, seconds
	scratch []byte  // silent reading buffer
	mono    []float32
	an      lipsync.Analyzer
	last    lipsync.Frame
	paused  bool
	done    bool
	why     string // why the voice is silent, "" when it plays
}

// VoiceOptions configure a Voice. The zero value plays through the
// process's audio context and analyses 1/25 s windows with the default
// lip-sync options.
type VoiceOptions struct {
	// Context plays the sound. nil: audio.CurrentContext(), or a new
	// context at SampleRate when there is none and a sound device is
	// present (see Voice). Ebitengine allows one context per process: a
	// game that plays other sounds makes its context before its first
	// voice (audio.NewContext panics once one exists).
	Context *audio.Context
	// SampleRate of the stream when no context exists (0: 44100).
	SampleRate int
	// Silent plays nothing: the mouth follows the stream by elapsed time.
	Silent bool
	// Window is the span of audio analysed each tick, in seconds (0:
	// lipsync.DefaultWindow, 1/25).
	Window float64
	// LipSync sets the analysis: Gain (level = RMS × Gain), FormantScale,
	// vowel smoothing, or no vowels at all.
	LipSync lipsync.Options
}

// maxVoiceWindow bounds VoiceOptions.Window.
const maxVoiceWindow = 0.2

// ringBytes is how much recently read PCM a voice keeps: the player reads
// about half a second ahead of what is heard, the window lies behind that.
const ringBytes = 1 << 18

// NewVoice starts playing src for c and replaces the character's previous
// voice (which stops). src is 16-bit little-endian stereo PCM at the
// context's sample rate: what the decoders of ebiten/v2/audio (wav, vorbis,
// mp3: DecodeWithSampleRate) return, sound.Decode's result, or raw PCM in a
// bytes.Reader. If src is an io.Seeker, Player().SetPosition works. The
// error is the audio player's, or a bad option.
func NewVoice(c *Character, src io.Reader, opts *VoiceOptions) (*Voice, error) {
	if c == nil || src == nil {
		return nil, errors.New("ebitenp2l: NewVoice needs a character and a stream")
	}
	var o VoiceOptions
	if opts != nil {
		o = *opts
	}
	if !(o.Window >= 0 && o.Window <= maxVoiceWindow) {
		return nil, fmt.Errorf("ebitenp2l: voice window %v s out of range [0, %v]", o.Window, maxVoiceWindow)
	}
	if o.Window == 0 {
		o.Window = lipsync.DefaultWindow
	}
	ctx := o.Context
	why := ""
	if ctx == nil {
		ctx = audio.CurrentContext()
	}
	if o.Silent {
		why, ctx = "VoiceOptions.Silent", nil
	} else if ctx == nil {
		rate := o.SampleRate
		if rate == 0 {
			rate = 44100
		}
		ctx, why = newAudioContext(rate)
	}
	rate := o.SampleRate
	if ctx != nil {
		rate = ctx.SampleRate()
	}
	if rate == 0 {
		rate = 44100
	}
	if rate < 8000 || rate > 384000 {
		return nil, fmt.Errorf("ebitenp2l: voice sample rate %d out of range [8000, 384000]", rate)
	}
	v := &Voice{
		char:   c,
		src:    newTeeReader(src),
		rate:   rate,
		window: max(1, int(o.Window*float64(rate))),
		why:    why,
	}
	v.an.Options = o.LipSync
	v.mono = make([]float32, 0, v.window)
	if ctx != nil {
		var err error
		var r io.Reader = v.src
		if _, ok := src.(io.Seeker); ok {
			r = &teeSeeker{v.src}
		}
		if v.player, err = ctx.NewPlayer(r); err != nil {
			return nil, fmt.Errorf("ebitenp2l: voice: %w", err)
		}
		v.ctx = ctx
		v.startIfReady()
	} else {
		v.scratch = make([]byte, 4096)
		sayOnce(why)
	}
	if c.voice != nil {
		c.voice.Stop()
	}
	c.voice = v
	return v, nil
}

var silentOnce sync.Once

// sayOnce logs, once per process, that voices play silently.
func sayOnce(why string) {
	silentOnce.Do(func() {
		log.Printf("ebitenp2l: voices play silently (%s); the mouth follows the elapsed time", why)
	})
}

// Player returns the audio player, nil for a silent voice: set its volume,
// position or pause it there (or with Pause).
func (v *Voice) Player() *audio.Player { return v.player }

// Analyzer is the voice's analysis: change its Options (gain, formant
// scale, smoothing, vowels off) while it speaks.
func (v *Voice) Analyzer() *lipsync.Analyzer { return &v.an }

// Silent reports whether the voice plays nothing (no sound device, NO_AUDIO,
// VoiceOptions.Silent) and why.
func (v *Voice) Silent() (bool, string) { return v.player == nil, v.why }

// Position returns the play position in seconds.
func (v *Voice) Position() float64 {
	if v.player != nil {
		return v.player.Position().Seconds()
	}
	return v.clock
}

// Playing reports whether the voice has neither ended nor been stopped
// (a paused voice, or one waiting for the audio context to become ready,
// is playing).
func (v *Voice) Playing() bool { return !v.done }

// Last returns the analysis of the last tick: level, vowel weights, F1 and
// F2 (for meters and debugging).
func (v *Voice) Last() lipsync.Frame { return v.last }

// startIfReady starts the player once the audio context is ready. In
// browsers it becomes ready at the first click, key or touch; some let the
// sound play earlier while the player's position stays 0, so a voice
// started at load would be heard with the mouth closed: the voice waits
// for the context instead (its mouth stays closed until then).
func (v *Voice) startIfReady() {
	if !v.started && v.ctx.IsReady() {
		v.started = true
		v.player.Play()
	}
}

// Pause stops the sound and closes the mouth until Resume.
func (v *Voice) Pause() {
	if v.done || v.paused {
		return
	}
	v.paused = true
	if v.player != nil && v.started {
		v.player.Pause()
	}
	v.char.rig.LipSync(0, [5]float32{})
}

// Resume continues after Pause.
func (v *Voice) Resume() {
	if v.done || !v.paused {
		return
	}
	v.paused = false
	if v.player != nil && v.started {
		v.player.Play()
	}
}

// Stop ends the voice: the sound stops, the mouth closes and the character
// has no voice any more. Stopping twice does nothing.
func (v *Voice) Stop() {
	if v.done {
		return
	}
	v.done = true
	if v.player != nil {
		v.player.Pause()
		_ = v.player.Close()
	}
	if v.char.voice == v {
		v.char.voice = nil
		v.char.rig.LipSync(0, [5]float32{})
	}
}

// update is called by Character.Update before the rig updates.
func (v *Voice) update(dt float64) {
	if v.done || v.paused {
		return
	}
	var head int64 // byte offset of what is heard now
	if v.player != nil {
		if v.startIfReady(); !v.started {
			return // waiting for the audio context (a browser's first click)
		}
		if !v.player.IsPlaying() {
			v.Stop()
			return
		}
		head = int64(v.player.Position().Seconds()*float64(v.rate)) * 4
	} else {
		if dt > 0 {
			v.clock += min(dt, 1)
		}
		head = int64(v.clock*float64(v.rate)) * 4
		if !v.src.readUntil(head, v.scratch) {
			v.Stop()
			return
		}
	}
	v.mouthAt(head, dt)
}

// mouthAt analyses the window ending at stream offset head and sets the
// mouth: the per-tick work of an audible voice (the audio goroutine does
// the reading).
func (v *Voice) mouthAt(head int64, dt float64) {
	v.mono = v.src.window(head, v.window, v.mono[:0])
	v.last = v.an.Analyze(v.mono, v.rate, dt)
	v.char.rig.LipSync(v.last.Level, v.last.Vowels)
}

// teeReader keeps the last ringBytes bytes read from a stream, with their
// stream offsets, for the window under the play head. The player reads
// from its own goroutine, the game reads the window: a mutex guards it.
type teeReader struct {
	mu   sync.Mutex
	src  io.Reader
	ring []byte
	pos  int64 // stream offset of the next byte
	have int64 // valid bytes behind pos (≤ len(ring))
	eof  bool
}

func newTeeReader(src io.Reader) *teeReader {
	return &teeReader{src: src, ring: make([]byte, ringBytes)}
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.src.Read(p)
	t.mu.Lock()
	t.record(p[:n])
	if err == io.EOF {
		t.eof = true
	}
	t.mu.Unlock()
	return n, err
}

// record appends b to the ring. The mutex is held.
func (t *teeReader) record(b []byte) {
	t.have = min(t.have+int64(len(b)), int64(len(t.ring)))
	if len(b) > len(t.ring) {
		t.pos += int64(len(b) - len(t.ring))
		b = b[len(b)-len(t.ring):]
	}
	for len(b) > 0 {
		i := int(t.pos % int64(len(t.ring)))
		k := copy(t.ring[i:], b)
		b = b[k:]
		t.pos += int64(k)
	}
}

// readUntil reads (silent clock) until the stream offset reaches head; it
// reports false once the stream has ended and head is past its end.
func (t *teeReader) readUntil(head int64, buf []byte) bool {
	for {
		t.mu.Lock()
		pos, eof := t.pos, t.eof
		t.mu.Unlock()
		if pos >= head {
			return true
		}
		if eof {
			return false
		}
		n := int(min(int64(len(buf)), head-pos+int64(len(buf))/2))
		if _, err := t.Read(buf[:n]); err != nil && err != io.EOF {
			t.mu.Lock()
			t.eof = true
			t.mu.Unlock()
		}
	}
}

// window appends to dst the mono samples (the mean of the two channels,
// in [−1, 1]) of the n sample frames ending at stream offset head, as far
// as the ring holds them.
func (t *teeReader) window(head int64, n int, dst []float32) []float32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	head = min(head, t.pos) &^ 3
	start := max(head-int64(4*n), t.pos-t.have, 0)
	start = (start + 3) &^ 3
	for off := start; off+4 <= head; off += 4 {
		i := int(off % int64(len(t.ring)))
		l := int16(binary.LittleEndian.Uint16(t.ring[i:]))
		r := int16(binary.LittleEndian.Uint16(t.ring[i+2:]))
		dst = append(dst, (float32(l)+float32(r))/(2*32768))
	}
	return dst
}

// teeSeeker is a teeReader over a seekable stream: seeking forgets the
// ring and restarts the offsets at the new position.
type teeSeeker struct{ *teeReader }

func (t *teeSeeker) Seek(offset int64, whence int) (int64, error) {
	p, err := t.src.(io.Seeker).Seek(offset, whence)
	if err != nil {
		return p, err
	}
	t.mu.Lock()
	t.pos, t.have, t.eof = p, 0, false
	t.mu.Unlock()
	return p, nil
}

// newAudioContext makes the process's audio context at rate when a sound
// device looks present, else it returns nil and why. Ebitengine's audio
// opens the device a moment after RunGame starts and, when that fails,
// ends RunGame with the error; no later check can catch it, so the device
// is looked for first.
func newAudioContext(rate int) (*audio.Context, string) {
	if ok, why := sound.Available(); !ok {
		return nil, why
	}
	return audio.NewContext(rate), ""
}
