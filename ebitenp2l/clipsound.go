package ebitenp2l

import (
	"fmt"
	"io/fs"
	"log"
	"math"

	"github.com/hajimehoshi/ebiten/v2/audio"

	"github.com/psd2live/p2l-ebiten/ebitenp2l/sound"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file plays clip sounds (p2l.Model.ClipSound: a Cubism motion's
// Sound) through the character's Voice, so the mouth follows them. The
// rig has no callback for a clip start: after each update the character
// compares every layer's clip and clip time with the previous update's.

// MaxClipSoundSize bounds a clip sound file (a minute of 44.1 kHz 16-bit
// stereo WAV is 10 MB).
const MaxClipSoundSize = 64 << 20

// ClipSounds configures how a character plays the sounds of its model's
// clips (Options.ClipSounds). The zero value plays them from the model's
// directory with the default voice options.
type ClipSounds struct {
	// FS holds the sound files, at the paths ClipSound gives. nil: the
	// model's Dir (the model3.json's folder for p2l/cubism.Load, the
	// file's folder for p2l.LoadFile and LoadFS).
	FS fs.FS
	// Off does not play clip sounds.
	Off bool
	// Voice configures each clip's voice (nil: the defaults).
	Voice *VoiceOptions
}

// clipSounds is a character's clip-sound state.
type clipSounds struct {
	fsys   fs.FS
	opts   *VoiceOptions
	sounds []string // per clip; nil when no clip has a sound (nothing to watch)
	failed []bool   // per clip: its sound failed once (logged once)
	clip   [p2l.MaxLayers]int
	time   [p2l.MaxLayers]float64
	voice  *Voice // the voice of the last clip sound started
	layer  int    // voice's clip's layer
}

// init prepares the state for model m; nothing is watched when no clip
// has a sound, Off is set or there is no file system.
func (s *clipSounds) init(m *p2l.Model, o ClipSounds) {
	s.fsys, s.opts = o.FS, o.Voice
	if s.fsys == nil {
		s.fsys = m.Dir()
	}
	if o.Off || s.fsys == nil {
		return
	}
	for i := range m.Clips().Len() {
		if snd := m.ClipSound(i); snd != "" {
			if s.sounds == nil {
				s.sounds = make([]string, m.Clips().Len())
				s.failed = make([]bool, m.Clips().Len())
			}
			s.sounds[i] = snd
		}
	}
	for l := range s.clip {
		s.clip[l], s.time[l] = -1, math.NaN()
	}
}

// update runs after each rig update: a clip started on a layer (another
// clip, or the same one from an earlier time) replaces the voice of the
// clip it replaces, and starts its own sound if it has one. A clip that
// ends or is stopped leaves its sound playing to its end, as the Cubism
// framework's sound, which is independent of the motion once started.
// Known limit: a looping clip started again while it plays is taken for
// its next lap (its time wraps the same way), so its sound is not
// restarted.
func (s *clipSounds) update(c *Character) {
	if s.sounds == nil {
		return
	}
	r := c.rig
	m := r.Model()
	for l := range s.clip {
		ci, t := r.Layer(l).Clip(), r.Layer(l).Time()
		prev, pt := s.clip[l], s.time[l]
		s.clip[l], s.time[l] = ci, t
		started := ci >= 0 && (ci != prev || (t < pt && !m.Clips().At(ci).Loop))
		if !started {
			continue
		}
		if s.voice != nil && s.layer == l && c.voice == s.voice {
			s.voice.Stop()
		}
		if snd := s.sounds[ci]; snd != "" {
			s.start(c, ci, snd, l)
		}
	}
}

// start plays clip ci's sound; a failure is logged once per clip.
func (s *clipSounds) start(c *Character, ci int, snd string, layer int) {
	v, err := s.play(c, snd)
	if err != nil {
		if !s.failed[ci] {
			s.failed[ci] = true
			msg := fmt.Sprintf("ebitenp2l: sound %q of clip %q: %v", snd, c.rig.Model().Clips().At(ci).ID, err)
			if lg := c.rig.Model().Logger(); lg != nil {
				lg.Warn(msg)
			} else {
				log.Print(msg)
			}
		}
		return
	}
	s.voice, s.layer = v, layer
}

func (s *clipSounds) play(c *Character, snd string) (*Voice, error) {
	data, err := p2lrt.ReadFS(s.fsys, snd, &p2lrt.DecodeOptions{MaxFileSize: MaxClipSoundSize})
	if err != nil {
		return nil, err
	}
	var o VoiceOptions
	if s.opts != nil {
		o = *s.opts
	}
	rate := o.SampleRate
	if ctx := o.Context; ctx != nil {
		rate = ctx.SampleRate()
	} else if ctx := audio.CurrentContext(); ctx != nil && !o.Silent {
		rate = ctx.SampleRate()
	}
	if rate == 0 {
		rate = 44100
	}
	o.SampleRate = rate
	stream, err := sound.Decode(data, rate)
	if err != nil {
		return nil, err
	}
	return NewVoice(c, stream, &o)
}
