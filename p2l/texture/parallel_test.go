package texture

import (
	"bytes"
	"fmt"
	"image"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestParallelDecodeIsSequential: whatever the pages (valid, cut short,
// not PNG, declaring another size than their header), the budget and the
// Straight option, Decode gives the pages, errors and log lines that
// decoding them one after the other gives (the sequential path,
// decodeIndex in page order), including when it decodes them at the same
// time (decodeInParallel). The budgets are chosen around the pages' total
// size, where the parallel path must give way to the sequential one.
func TestParallelDecodeIsSequential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	parallel := 0
	for trial := range 300 {
		n := 2 + rng.IntN(4)
		m := &p2lrt.File{}
		total := 0
		for range n {
			w, h := 1+rng.IntN(24), 1+rng.IntN(24)
			img := image.NewNRGBA(image.Rect(0, 0, w, h))
			for i := range img.Pix {
				img.Pix[i] = uint8(rng.IntN(256))
			}
			data := encodePNG(t, img)
			page := p2lrt.TexturePage{Kind: p2lrt.TexturePNG, Width: uint32(w), Height: uint32(h), Data: data}
			switch rng.IntN(6) {
			case 0: // cut inside the pixel data: the header reads, decoding fails
				page.Data = data[:len(data)-12-rng.IntN(8)]
			case 1: // declares a larger size than its header
				page.Width, page.Height = uint32(w+rng.IntN(10)), uint32(h+rng.IntN(10))
			case 2: // declares a smaller one
				page.Width, page.Height = uint32(max(1, w-rng.IntN(4))), uint32(max(1, h-rng.IntN(4)))
			case 3: // not a PNG
				page.Data = []byte("not a png at all")
			}
			total += max(w*h, int(page.Width*page.Height))
			m.Textures = append(m.Textures, page)
		}
		budget := max(1, total+rng.IntN(7)-3) // around the boundary
		switch rng.IntN(4) {
		case 0:
			budget = max(1, total/2)
		case 1:
			budget = 2 * total
		}
		straight := rng.IntN(2) == 0
		if decodeInParallel(fileSource(m), &Options{MaxPixels: budget}, int64(budget)) {
			parallel++
		}
		var gotLog, wantLog bytes.Buffer
		got := decode(fileSource(m), &Options{MaxPixels: budget, Straight: straight, Logger: slog.New(slog.NewTextHandler(&gotLog, nil))})
		seq := &Options{MaxPixels: budget, Straight: straight, Logger: slog.New(slog.NewTextHandler(&wantLog, nil))}
		left := int64(budget)
		want := make([]Page, n)
		for i := range want {
			want[i] = decodeIndex(fileSource(m), i, seq, &left)
		}
		if !reflect.DeepEqual(describe(got), describe(want)) {
			t.Fatalf("trial %d (budget %d of %d texels): Decode gave\n%v\nin order:\n%v", trial, budget, total, describe(got), describe(want))
		}
		if stripTimes(gotLog.String()) != stripTimes(wantLog.String()) {
			t.Fatalf("trial %d: logs differ:\n%s\nin order:\n%s", trial, gotLog.String(), wantLog.String())
		}
	}
	if runtime.GOMAXPROCS(0) > 1 && parallel < 50 {
		t.Errorf("only %d of 300 trials took the parallel path", parallel)
	}
}

// describe is what a test compares of pages: infos (errors as text) and
// texels.
func describe(pages []Page) []string {
	var out []string
	for _, p := range pages {
		s := fmt.Sprintf("%d %v %dx%d %q %q err=%v", p.Index, p.Kind, p.Width, p.Height, p.URI, p.Format, p.Err)
		if p.Image != nil {
			s += fmt.Sprintf(" rgba %v %x", p.Image.Rect, p.Image.Pix)
		}
		if p.Straight != nil {
			s += fmt.Sprintf(" nrgba %v %x", p.Straight.Rect, p.Straight.Pix)
		}
		out = append(out, s)
	}
	return out
}

// stripTimes removes slog's time= fields.
func stripTimes(s string) string {
	var b bytes.Buffer
	for _, line := range bytes.Split([]byte(s), []byte("\n")) {
		if i := bytes.Index(line, []byte(" level=")); i >= 0 {
			line = line[i:]
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}
