package cubism

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// bigUnrestrictedMotion is a motion3 of 40 curves of smooth
// unrestricted Bezier segments with handles at random times, as Cubism
// Editor 4+ writes them (no AreBeziersRestricted).
func bigUnrestrictedMotion(segsPerCurve int) ([]byte, *p2lrt.File) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := &p2lrt.File{}
	var b strings.Builder
	b.WriteString(`{"Version": 3, "Meta": {"Duration": 1000, "Fps": 30}, "Curves": [`)
	for c := range 40 {
		m.Parameters = append(m.Parameters, p2lrt.Parameter{ID: fmt.Sprintf("P%d", c), Min: -30, Max: 30})
		if c > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"Target": "Parameter", "Id": "P%d", "Segments": [0, 0`, c)
		t, v := 0.0, 0.0
		for range segsPerCurve {
			d := 0.2 + rng.Float64()
			nv := rng.Float64()*50 - 25
			fmt.Fprintf(&b, ", 1, %.3f, %.3f, %.3f, %.3f, %.3f, %.3f",
				t+d*(0.1+0.4*rng.Float64()), v, t+d*(0.5+0.4*rng.Float64()), nv, t+d, nv)
			t, v = t+d, nv
		}
		b.WriteString("]}")
	}
	b.WriteString("]}")
	return []byte(b.String()), m
}

// TestUnrestrictedMotionMemory measures the imported form of a long
// unrestricted motion (issue 15: the 64 linear pieces per segment of the
// first importer cost 290× memory): segments per Bezier, the clip's
// retained bytes and its written size against the JSON's size. The bound
// (at most 8 pieces per segment on average, 4× the JSON) would fail with
// the old 64 linear pieces.
func TestUnrestrictedMotionMemory(t *testing.T) {
	// 100 segments per curve: 215 KB (P2L_BIG_MOTION=1: 800, 1.7 MB; the
	// ratios are the same).
	segsPerCurve := 100
	if os.Getenv("P2L_BIG_MOTION") != "" {
		segsPerCurve = 800
	}
	data, m := bigUnrestrictedMotion(segsPerCurve)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c, warns, err := ImportMotion(m, "big.motion3.json", data)
	runtime.ReadMemStats(&after)
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	beziers, segs := 40*segsPerCurve, 0
	for _, cv := range c.Curves {
		segs += len(cv.Segments)
	}
	retained := segs * int(unsafe.Sizeof(p2lrt.Segment{}))
	m.Canvas = p2lrt.Canvas{Width: 1, Height: 1, PixelsPerUnit: -1}
	m.Draw = p2lrt.DrawGroup{Part: -1}
	m.Clips = []p2lrt.Clip{c}
	var file bytes.Buffer
	if err := m.Write(&file, nil); err != nil {
		t.Fatal(err)
	}
	old := 64 * beziers * int(unsafe.Sizeof(p2lrt.Segment{}))
	t.Logf("JSON %d bytes, %d Bezier segments → %d restricted pieces (%.2f per segment); segments %d bytes = %.2f× the JSON (64 linear pieces: %d bytes = %.1f×); written file %d bytes = %.2f×; import allocated %d bytes = %.1f× the JSON",
		len(data), beziers, segs, float64(segs)/float64(beziers), retained, float64(retained)/float64(len(data)),
		old, float64(old)/float64(len(data)), file.Len(), float64(file.Len())/float64(len(data)),
		after.TotalAlloc-before.TotalAlloc, float64(after.TotalAlloc-before.TotalAlloc)/float64(len(data)))
	if float64(segs) > 8*float64(beziers) || retained > 4*len(data) {
		t.Errorf("%d pieces for %d segments, %d bytes for a %d-byte file", segs, beziers, retained, len(data))
	}
}

// TestFileSizeBounded: a file over MaxFileSize is refused by every entry
// point before its JSON is decoded (decoding costs up to 120× the file),
// with an error naming the size and the bound; one at the bound is read.
func TestFileSizeBounded(t *testing.T) {
	m := baseModel()
	big := bytes.Repeat([]byte(" "), MaxFileSize+1)
	copy(big, "{}")
	want := fmt.Sprintf("big.motion3.json: file of %d bytes exceeds the %d-byte limit (cubism.MaxFileSize)", MaxFileSize+1, MaxFileSize)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := importModel(m, "", File{Name: "big.motion3.json", Data: big})
	runtime.ReadMemStats(&after)
	if err == nil || err.Error() != want {
		t.Errorf("Import: %v, want %q", err, want)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 64<<10 {
		t.Errorf("refusing a %d-byte file allocated %d bytes", len(big), a)
	}
	if _, _, err := ImportMotion(m, "big.motion3.json", big); err == nil || err.Error() != want {
		t.Errorf("ImportMotion: %v, want %q", err, want)
	}
	if _, _, err := ImportPhysics(m, "big.motion3.json", big); err == nil || !strings.Contains(err.Error(), "cubism.MaxFileSize") {
		t.Errorf("ImportPhysics: %v", err)
	}
	// At the bound the file is read (blanks after an empty motion).
	at := big[:MaxFileSize]
	copy(at, `{"Version": 3, "Meta": {"Duration": 1, "Fps": 30}, "Curves": []}`)
	if _, _, err := ImportMotion(m, "at.motion3.json", at); err != nil {
		t.Errorf("a file at the bound: %v", err)
	}
}
