package ebitenp2l

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
	"weak"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// TestDeallocate: characters of one model share its pages; Deallocate of
// one keeps them for the other, the last one releases them, and the pool
// goes when no character holds resources. A deallocated character still
// works: its next Draw takes the model's pages again (uploaded anew, since
// no character held them) and draws what it drew before.
func TestDeallocate(t *testing.T) {
	m, err := p2l.LoadFile(filepath.Join(conformanceDir, "groups.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	key := weak.Make(m)
	onGame(func() {
		a, b := NewCharacter(m), NewCharacter(m)
		if a.res != b.res || a.res.pageImg[0] == nil {
			t.Error("two characters of one model do not share its pages")
		}
		dst := blackImage(64, 64)
		defer dst.Deallocate()
		a.Draw(dst, nil) // fills the pool (the model has groups)
		if len(pool.layers) == 0 || pool.layers[0].img == nil {
			t.Error("no layer page after drawing groups")
		}
		before := pixels(dst)
		shared0 := a.res
		a.Deallocate()
		a.Deallocate() // no more
		if a.res != nil || shared[key].Value() != shared0 || b.res.refs != 1 {
			t.Error("deallocating one character released the shared pages")
		}
		b.Deallocate()
		if shared[key].Value() != nil {
			t.Error("pages of a model kept after its last character")
		}
		if liveCharacters == 0 && (len(pool.layers) != 0 || pool.coverage.img != nil || pool.scratch.img != nil) {
			t.Error("pool kept after the last character")
		}
		dst.Fill(color.Black)
		a.Draw(dst, nil)
		if a.res == nil || a.res == shared0 || shared[key].Value() != a.res {
			t.Error("a deallocated character drew without taking its model's pages again")
		}
		if !bytes.Equal(pixels(dst), before) {
			t.Error("a deallocated character draws other pixels than before")
		}
		a.Deallocate()
	})
}

// TestCollected: characters the game drops without Deallocate are
// released when the collector finds them unreachable. A model's pages stay
// while one of its characters is reachable, and that character draws as
// before; once none is, the cleanups queue the pages, the next Draw of any
// character deallocates them on the game goroutine, and the model itself is
// collected (nothing in this package keeps it).
func TestCollected(t *testing.T) {
	other, err := p2l.LoadFile(filepath.Join(conformanceDir, "features.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	var drainer, kept *Character // drainer's Draws drain the queue
	var want []byte
	var dst *ebiten.Image
	model, res, images := collectable(t, func(m *p2l.Model) {
		dst = blackImage(64, 64)
		drainer = NewCharacter(other)
		kept = NewCharacter(m)
		NewCharacter(m).Draw(dst, nil) // dropped at once
		dst.Fill(color.Black)
		kept.Draw(dst, nil)
		want = pixels(dst)
	})
	live := liveCharacters

	// One character of the model was dropped: it is counted out, the pages
	// stay for the other.
	collect(t, "the dropped character", func() bool { return queued(res, false) })
	onGame(func() {
		drainer.Draw(dst, nil)
		if r := res.Value(); r == nil || r.refs != 1 || liveCharacters > live-1 {
			t.Errorf("after the dropped character: resources %v, live characters %d of %d", r != nil, liveCharacters, live)
		}
		dst.Fill(color.Black)
		kept.Draw(dst, nil)
		if !bytes.Equal(pixels(dst), want) {
			t.Error("the reachable character draws other pixels after the other one was collected")
		}
	})

	// Now the last one.
	kept = nil
	collect(t, "the last character", func() bool { return queued(res, true) })
	if got := queuedImages(res); got != images {
		t.Errorf("%d images of the collected resources queued, want their %d", got, images)
	}
	released := counters.reclaimedImages
	onGame(func() { drainer.Draw(dst, nil) })
	if queued(res, true) || counters.reclaimedImages-released < images {
		t.Errorf("after the next Draw: still queued %v, %d images deallocated, want ≥ %d",
			queued(res, true), counters.reclaimedImages-released, images)
	}
	resMu.Lock()
	_, inTable := shared[model]
	resMu.Unlock()
	if inTable {
		t.Error("the collected model is still in the table of shared resources")
	}
	collect(t, "the model", func() bool { return model.Value() == nil })
	onGame(func() { drainer.Deallocate(); dst.Deallocate() })
}

// collectable makes a fresh model of the conformance groups and calls
// build with it, on the game goroutine, keeping nothing of it: it returns
// weak pointers to the model and the resources of its characters, and how
// many images those hold.
func collectable(t *testing.T, build func(m *p2l.Model)) (model weak.Pointer[p2l.Model], res weak.Pointer[modelRes], images int) {
	m, err := p2l.LoadFile(filepath.Join(conformanceDir, "groups.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	model = weak.Make(m)
	onGame(func() {
		build(m)
		resMu.Lock()
		r := shared[model].Value()
		resMu.Unlock()
		if r == nil {
			t.Error("build made no character of the model")
			return
		}
		res, images = r.self, len(r.imgs)
	})
	return model, res, images
}

// collect runs the collector until done (cleanups run on a goroutine of
// their own after the cycle that found their object unreachable).
func collect(t *testing.T, what string, done func() bool) {
	t.Helper()
	for range 200 {
		runtime.GC()
		if done() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s was not collected", what)
}

// queued reports whether the reclaim queue holds a collected character of
// resources res (model false) or res itself (model true).
func queued(res weak.Pointer[modelRes], model bool) bool {
	reclaim.mu.Lock()
	defer reclaim.mu.Unlock()
	if model {
		return slices.ContainsFunc(reclaim.models, func(c collectedRes) bool { return c.self == res })
	}
	return slices.Contains(reclaim.chars, res)
}

// queuedImages returns the images queued with the collected resources res.
func queuedImages(res weak.Pointer[modelRes]) int {
	reclaim.mu.Lock()
	defer reclaim.mu.Unlock()
	for _, c := range reclaim.models {
		if c.self == res {
			return len(c.imgs)
		}
	}
	return -1
}

// TestTextureInfo: pages that cannot be decoded are reported, not fatal;
// external pages resolve through Options.Textures.FS.
func TestTextureInfo(t *testing.T) {
	m, err := p2l.LoadFile(filepath.Join(conformanceDir, "features.p2lrt"))
	if err != nil {
		t.Fatal(err)
	}
	onGame(func() {
		c := NewCharacterWithOptions(m, &Options{Textures: texture.Options{FS: os.DirFS(conformanceDir)}})
		defer c.Deallocate()
		unsupported, external := 0, 0
		for i, p := range m.Textures().All() {
			err := c.TextureInfo(i)
			if errors.Is(err, texture.ErrUnsupported) {
				unsupported++
			}
			if p.Kind == p2lrt.TextureExternal && err == nil {
				external++
			}
		}
		if unsupported == 0 || external == 0 {
			t.Errorf("features model: %d unsupported pages reported, %d external pages decoded; want ≥ 1 each", unsupported, external)
		}
		if c.TextureInfo(m.Textures().Len()) == nil {
			t.Error("TextureInfo of a page out of range: nil")
		}
	})
}

// TestFilterNearest: FilterNearest samples the nearest texel; the default
// filters bilinearly.
func TestFilterNearest(t *testing.T) {
	onGame(func() {
		s := newScene(4, 1)
		img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
		img.SetNRGBA(0, 0, color.NRGBA{0, 0, 0, 255})
		img.SetNRGBA(1, 0, color.NRGBA{255, 255, 255, 255})
		pg := s.page(img)
		m := s.quad(pg, 0, 0, 4, 1, p2lrt.Mesh{})
		s.pose.cmds = []p2l.RenderCommand{mesh(m)}
		c := s.character(t)
		dst := blackImage(4, 1)
		defer dst.Deallocate()
		// Pixel 1's center is at u = 1.5/4 = 0.375: texel coordinate 0.75,
		// a quarter of the way from texel 0's center to texel 1's.
		c.Draw(dst, &DrawOptions{Filter: FilterNearest})
		check(t, pixels(dst), 4, 1, 0, [4]float64{0, 0, 0, 1}, 0, "nearest")
		c.Draw(dst, nil)
		check(t, pixels(dst), 4, 1, 0, [4]float64{0.25, 0.25, 0.25, 1}, 1.0/255, "bilinear")
	})
}
