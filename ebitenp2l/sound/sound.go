// Package sound reads the audio files a character speaks (WAV, Ogg Vorbis,
// MP3) into the PCM stream that ebitenp2l.NewVoice and Ebitengine's audio
// players take, refusing hostile files before a decoder allocates what
// they declare, and tells whether the machine has a sound output at all.
//
// It is the audio side of package ebitenp2l, kept out of the drawing
// package: ebitenp2l.Voice uses Available to decide between playing and
// its silent clock, and games use Decode for the sounds they give a
// Voice. docs/LIMITS.md ("Audio files") states Decode's bounds.
package sound

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/hajimehoshi/ebiten/v2/audio/mp3"
	"github.com/hajimehoshi/ebiten/v2/audio/vorbis"
	"github.com/hajimehoshi/ebiten/v2/audio/wav"
)

// Decode decodes a WAV, Ogg Vorbis or MP3 file (told apart by their first
// bytes) into the stream ebitenp2l.NewVoice and audio players take: 16-bit
// stereo PCM at sampleRate. A corrupt file gives an error, at once or from
// the stream's Read or Seek: the third-party decoders can panic on hostile
// bytes (FuzzDecode found one in the Ogg reader), and the panic is turned
// into that error. Before a decoder runs, the sizes the file's headers
// declare are checked against the file (WAV chunks, the ID3 tag, Vorbis
// comment and setup headers), the Vorbis codebook tables against 16 MiB
// and the sample rate against 768 kHz, so that Decode allocates at most
// 3 × len(data) + 18 MiB (docs/LIMITS.md, "Audio files").
func Decode(data []byte, sampleRate int) (s io.ReadSeeker, err error) {
	defer func() {
		if v := recover(); v != nil {
			s, err = nil, fmt.Errorf("sound: corrupt audio file: %v", v)
		}
	}()
	r := bytes.NewReader(data)
	switch {
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WAVE":
		if err := checkWAVChunks(data); err != nil {
			return nil, err
		}
		s, err = wav.DecodeWithSampleRate(sampleRate, r)
	case len(data) >= 4 && string(data[:4]) == "OggS":
		if _, err := checkVorbisHeaders(data); err != nil {
			return nil, err
		}
		s, err = vorbis.DecodeWithSampleRate(sampleRate, r)
	case len(data) >= 3 && string(data[:3]) == "ID3",
		len(data) >= 2 && data[0] == 0xFF && data[1]&0xE0 == 0xE0:
		if err := checkID3(data); err != nil {
			return nil, err
		}
		s, err = mp3.DecodeWithSampleRate(sampleRate, r)
	default:
		return nil, errors.New("sound: not a WAV, Ogg Vorbis or MP3 file")
	}
	if err != nil {
		return nil, err
	}
	return guardedStream{s}, nil
}

// guardedStream turns a panic of a decoder's Read or Seek into an error.
type guardedStream struct{ s io.ReadSeeker }

func (g guardedStream) Read(p []byte) (n int, err error) {
	defer func() {
		if v := recover(); v != nil {
			n, err = 0, fmt.Errorf("sound: corrupt audio data: %v", v)
		}
	}()
	return g.s.Read(p)
}

func (g guardedStream) Seek(off int64, whence int) (n int64, err error) {
	defer func() {
		if v := recover(); v != nil {
			n, err = 0, fmt.Errorf("sound: corrupt audio data: %v", v)
		}
	}()
	return g.s.Seek(off, whence)
}

// Available guesses whether the default sound output can be opened, and
// says why not. Ebitengine's audio opens the device a moment after
// RunGame starts and, when that fails, ends RunGame with the error; no
// later check can catch it, so a game (and ebitenp2l.NewVoice) asks first
// before it makes an audio context.
//
// NO_AUDIO (any value) in the environment says no. On Linux and the BSDs
// (ALSA) it says yes when a sound server or an ALSA configuration is
// reachable (PULSE_SERVER, ALSA_CONFIG_PATH, ~/.asoundrc, a PulseAudio or
// PipeWire socket under XDG_RUNTIME_DIR) or /dev/snd exists; elsewhere
// yes.
func Available() (ok bool, why string) {
	if os.Getenv("NO_AUDIO") != "" {
		return false, "NO_AUDIO is set"
	}
	switch runtime.GOOS {
	case "linux", "freebsd", "netbsd", "openbsd", "dragonfly":
	default:
		return true, ""
	}
	if os.Getenv("PULSE_SERVER") != "" || os.Getenv("ALSA_CONFIG_PATH") != "" {
		return true, ""
	}
	var files []string
	if home, err := os.UserHomeDir(); err == nil {
		files = append(files, filepath.Join(home, ".asoundrc"))
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		files = append(files, filepath.Join(d, "pulse", "native"), filepath.Join(d, "pipewire-0"))
	}
	files = append(files, "/dev/snd")
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			return true, ""
		}
	}
	return false, "no sound device (/dev/snd) or sound server"
}
