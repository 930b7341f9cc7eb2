package moc3

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/internal/moc3write"
)

// allocBound is the most Parse may allocate for a file of n bytes
// (docs/LIMITS.md, "moc3").
func allocBound(n int) uint64 { return 16*uint64(n) + 64<<10 }

// FuzzParse feeds Parse damaged files: it must not panic or hang, must
// stay within allocBound, and any Moc it returns must be consistent.
//
// Seeds: the hand-built files of every version (both byte orders), the
// synthetic writer's seeds, and — only when the samples folder is present,
// never committed — the official samples.
func FuzzParse(f *testing.F) {
	for v := V30; v <= V53; v++ {
		for _, be := range []bool{false, true} {
			m := minimal(v)
			m.bigEndian = be
			data, _ := m.encode(f)
			f.Add(data)
		}
	}
	for _, s := range moc3write.Seeds() {
		f.Add(s)
	}
	if dir, ok := cubismsamples.Dir(); ok {
		for _, name := range cubismsamples.Names {
			if data, err := os.ReadFile(filepath.Join(dir, name, name+".moc3")); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m *Moc
		var err error
		// TotalAlloc counts the whole process, including the fuzzing
		// engine's own goroutines; Parse allocates the same on every run,
		// so only a bound exceeded three times in a row is Parse's.
		for try := 0; ; try++ {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			m, err = Parse(data)
			runtime.ReadMemStats(&after)
			got := after.TotalAlloc - before.TotalAlloc
			if got <= allocBound(len(data)) {
				break
			}
			if try == 2 {
				t.Fatalf("Parse of %d bytes allocated %d bytes, more than %d", len(data), got, allocBound(len(data)))
			}
		}
		if err != nil {
			if _, ok := err.(*FormatError); !ok {
				t.Fatalf("error %v is a %T, not a *FormatError", err, err)
			}
			return
		}
		checkConsistent(t, m)
	})
}
