package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hajimehoshi/ebiten/v2/audio"
	"github.com/hajimehoshi/ebiten/v2/audio/mp3"
	"github.com/hajimehoshi/ebiten/v2/audio/vorbis"
	"github.com/hajimehoshi/ebiten/v2/audio/wav"
)

// Lip sync from audio. A clip is decoded once to 16-bit stereo PCM at the
// audio context's rate and played from memory. Each frame the viewer takes
// the PCM under the player's current position (the samples being heard
// now, not the ones the player buffered ahead) and feeds them to
// Rig.LipSyncSamples. Without a sound device a silent clock stands in for
// the player and advances with the frame time, so the mouth still follows
// the voice.

// sampleRate is the audio context's rate.
const sampleRate = 44100

// maxAudioSeconds bounds the decoded size of a dropped audio file (about
// 31 MB of PCM): longer clips are refused rather than filling memory.
const maxAudioSeconds = 180

// track is a decoded clip: 16-bit little-endian stereo PCM at sampleRate.
type track struct {
	name string
	pcm  []byte
}

// duration returns the clip length in seconds.
func (t *track) duration() float64 { return float64(len(t.pcm)/4) / sampleRate }

// decodeAudio decodes a WAV, Ogg Vorbis or MP3 file, chosen by extension.
func decodeAudio(name string, data []byte) (*track, error) {
	var (
		s   io.Reader
		err error
	)
	r := bytes.NewReader(data)
	switch strings.ToLower(filepath.Ext(name)) {
	case ".wav":
		s, err = wav.DecodeWithSampleRate(sampleRate, r)
	case ".ogg", ".oga":
		s, err = vorbis.DecodeWithSampleRate(sampleRate, r)
	case ".mp3":
		s, err = mp3.DecodeWithSampleRate(sampleRate, r)
	default:
		return nil, fmt.Errorf("%s: not a WAV, OGG or MP3 file", filepath.Base(name))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(name), err)
	}
	const limit = maxAudioSeconds * sampleRate * 4
	pcm, err := io.ReadAll(io.LimitReader(s, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(name), err)
	}
	if len(pcm) > limit {
		return nil, fmt.Errorf("%s: longer than %d s", filepath.Base(name), maxAudioSeconds)
	}
	pcm = pcm[:len(pcm)&^3]
	if len(pcm) == 0 {
		return nil, fmt.Errorf("%s: no audio samples", filepath.Base(name))
	}
	return &track{name: filepath.Base(name), pcm: pcm}, nil
}

// voice plays one track and reports the samples under the play head.
type voice struct {
	tr      *track
	player  *audio.Player // nil: silent clock
	clock   float64       // silent clock position, seconds
	playing bool
	buf     []float32 // window of mono samples, reused every frame
}

// newVoice starts tr on ctx, or on the silent clock when ctx is nil.
func newVoice(ctx *audio.Context, tr *track) *voice {
	v := &voice{tr: tr, playing: true}
	if ctx != nil {
		v.player = ctx.NewPlayerFromBytes(tr.pcm)
		v.player.Play()
	}
	return v
}

// position is the play head in seconds.
func (v *voice) position() float64 {
	if v.player != nil {
		return v.player.Position().Seconds()
	}
	return v.clock
}

// advance moves the silent clock by dt and notices the end of the clip.
func (v *voice) advance(dt float64) {
	if !v.playing {
		return
	}
	if v.player == nil {
		v.clock += dt
		if v.clock >= v.tr.duration() {
			v.playing = false
		}
		return
	}
	if !v.player.IsPlaying() {
		v.playing = false
	}
}

// stop ends playback.
func (v *voice) stop() {
	if v.player != nil {
		v.player.Pause()
		_ = v.player.Close()
	}
	v.playing = false
}

// window returns the mono samples (−1..1) of the span seconds ending at the
// play head. The slice is reused by the next call.
func (v *voice) window(span float64) []float32 {
	end := int(v.position() * sampleRate)
	n := int(span * sampleRate)
	total := len(v.tr.pcm) / 4
	if end > total {
		end = total
	}
	start := end - n
	if start < 0 {
		start = 0
	}
	v.buf = v.buf[:0]
	for i := start; i < end; i++ {
		l := int16(binary.LittleEndian.Uint16(v.tr.pcm[4*i:]))
		r := int16(binary.LittleEndian.Uint16(v.tr.pcm[4*i+2:]))
		v.buf = append(v.buf, (float32(l)+float32(r))/(2*32768))
	}
	return v.buf
}

// audioDevicePresent guesses whether opening the default audio device can
// work. Without one, oto fails a moment after the game starts and ends
// RunGame; the viewer then uses the silent clock instead. NO_AUDIO=1 forces
// the silent clock.
func audioDevicePresent() (bool, string) {
	if os.Getenv("NO_AUDIO") != "" {
		return false, "NO_AUDIO is set"
	}
	if runtime.GOOS != "linux" {
		return true, ""
	}
	if os.Getenv("PULSE_SERVER") != "" || os.Getenv("ALSA_CONFIG_PATH") != "" {
		return true, ""
	}
	if home, err := os.UserHomeDir(); err == nil {
		if _, err := os.Stat(filepath.Join(home, ".asoundrc")); err == nil {
			return true, ""
		}
	}
	if _, err := os.Stat("/dev/snd"); errors.Is(err, os.ErrNotExist) {
		return false, "no sound device (/dev/snd)"
	}
	return true, ""
}
