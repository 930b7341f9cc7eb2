package sound

import (
	"io"
	"os"
	"runtime"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to Decode (WAV, Ogg Vorbis and
// MP3, told apart by their first bytes) and reads up to 1 MiB of the
// decoded stream: nothing may panic, and Decode allocates at most
// 3 × the input + maxVorbisTables + 2 MiB (docs/LIMITS.md, "Audio
// files"). (The bound on what a voice reads is the caller's.)
func FuzzDecode(f *testing.F) {
	if data, err := os.ReadFile("../../assets/speech.ogg"); err == nil {
		f.Add(data[:min(len(data), 8192)])
	}
	f.Add([]byte("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x44\xac\x00\x00\x88\x58\x01\x00\x02\x00\x10\x00data\x00\x00\x00\x00"))
	f.Add([]byte("ID3\x03\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := Decode(data, 44100)
		runtime.ReadMemStats(&after)
		if a, limit := after.TotalAlloc-before.TotalAlloc, uint64(3*len(data)+maxVorbisTables+2<<20); a > limit {
			t.Fatalf("Decode of %d bytes allocated %d bytes, limit %d", len(data), a, limit)
		}
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(s, 1<<20))
	})
}
