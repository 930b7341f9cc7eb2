package ebitenp2l

import (
	"sync"
	"sync/atomic"
	"weak"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// Lifetimes follow Ebitengine's rule for images: what nothing uses any
// more is released, and Deallocate only releases it sooner. Nothing
// requires Character.Deallocate.
//
//   - A model's resources (modelRes: its pages on the GPU, its pages on the
//     CPU for pixel hit tests, its mask sets and index lists) are held by
//     the model's characters. The table that finds them for the next
//     character of the model (shared) holds the model and the resources
//     weakly: it keeps neither alive.
//   - When the last character holding them becomes unreachable, so do the
//     resources; their cleanup (runtime.AddCleanup) hands their images to
//     the reclaim queue. Each character's own cleanup hands over a weak
//     pointer to its resources, which counts it out of their refs (the
//     resources of a model whose other characters live on stay) and out of
//     liveCharacters.
//   - Cleanups run on a goroutine of the runtime, and Ebitengine images are
//     deallocated on the game goroutine, like every drawing call: the queue
//     is drained there, at the start of the next Character.Draw, Batch.Draw
//     or Character.Deallocate of any character. Not at NewCharacter: the
//     mobile binding makes characters on the host's threads. A program
//     that stops drawing characters altogether keeps the queued images
//     until it draws one again.
//   - Character.Deallocate does the same at once for one character: it
//     counts it out, releasing the resources when it held the last
//     reference; the character takes them again at its next Draw.
//   - The offscreen pool (pool.go) lives while any character holds
//     resources: it is released when liveCharacters drops to zero.

var (
	// resMu guards shared, liveCharacters, every modelRes's refs and
	// cpuPages. Taken after rd.mu when both are needed.
	resMu sync.Mutex
	// shared finds the resources of a model for its next character.
	shared = map[weak.Pointer[p2l.Model]]weak.Pointer[modelRes]{}
	// liveCharacters counts the characters holding resources.
	liveCharacters int
)

// collectedRes is what the cleanup of a collected modelRes hands over: its
// images, and its entry in shared.
type collectedRes struct {
	key  weak.Pointer[p2l.Model]
	self weak.Pointer[modelRes]
	imgs []*ebiten.Image
}

// reclaim is the hand-over from cleanups (the runtime's goroutine) to the
// game goroutine.
var reclaim struct {
	mu sync.Mutex
	// pending is set while chars or models is not empty: a Draw tests it
	// without the mutex.
	pending atomic.Bool
	// chars holds, per character collected while it held resources, a
	// weak pointer to those resources (nil once they are collected too).
	chars []weak.Pointer[modelRes]
	// models holds the resources collected.
	models []collectedRes
}

// reclaimed is what releaseCollected took from the queue, kept between
// drains so that a drain allocates nothing once it has grown. Used under
// rd.mu only.
var reclaimed struct {
	chars  []weak.Pointer[modelRes]
	models []collectedRes
}

// characterCollected is the cleanup of a character holding resources r.
func characterCollected(r weak.Pointer[modelRes]) {
	reclaim.mu.Lock()
	reclaim.chars = append(reclaim.chars, r)
	reclaim.pending.Store(true)
	reclaim.mu.Unlock()
}

// resCollected is the cleanup of a modelRes.
func resCollected(c collectedRes) {
	reclaim.mu.Lock()
	reclaim.models = append(reclaim.models, c)
	reclaim.pending.Store(true)
	reclaim.mu.Unlock()
}

// releaseCollected releases what the cleanups handed over since the last
// call. It runs on the game goroutine with rd.mu held (the pool is the
// renderer's).
func releaseCollected() {
	if !reclaim.pending.Load() {
		return
	}
	reclaim.mu.Lock()
	reclaimed.chars = append(reclaimed.chars[:0], reclaim.chars...)
	reclaimed.models = append(reclaimed.models[:0], reclaim.models...)
	clear(reclaim.chars)
	clear(reclaim.models)
	reclaim.chars, reclaim.models = reclaim.chars[:0], reclaim.models[:0]
	reclaim.pending.Store(false)
	reclaim.mu.Unlock()

	resMu.Lock()
	defer resMu.Unlock()
	for _, m := range reclaimed.models {
		for _, img := range m.imgs {
			img.Deallocate()
		}
		if shared[m.key] == m.self {
			delete(shared, m.key)
		}
		if counters != nil {
			counters.reclaimedImages += len(m.imgs)
		}
	}
	for _, w := range reclaimed.chars {
		characterGone(w.Value())
	}
	clear(reclaimed.chars)
	clear(reclaimed.models)
}

// characterGone counts out a character that held resources r (nil: r was
// collected too) and releases r when that was its last character, and the
// pool when that was the last character of all. resMu and rd.mu are held.
func characterGone(r *modelRes) {
	liveCharacters--
	if r != nil {
		if r.refs--; r.refs == 0 {
			r.release()
		}
	}
	if liveCharacters == 0 {
		pool.dispose()
	}
}
