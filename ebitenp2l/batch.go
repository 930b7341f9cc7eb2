package ebitenp2l

import "github.com/hajimehoshi/ebiten/v2"

// Batch draws several characters into one destination in one go: the
// result is that of calling Character.Draw for each, in the order they
// were added (a later character over an earlier one), but characters share
// draw calls. Characters of one model that do not overlap on the
// destination draw in about the calls of a single one, however many there
// are: their mask coverage, group layers and backdrop copies share pooled
// images and calls, and their meshes join the same batches. Overlapping
// characters keep their order and share what order allows.
//
// The zero value is ready to use. Reuse one Batch every frame: it keeps its
// memory, so a steady frame allocates nothing, and a frame whose inputs are
// those of the frame before (the same characters in the same order, their
// rigs' outputs, options and the destination all unchanged) submits its
// recorded draws again instead of planning and building them, less its
// mask coverage and group layers when no other Batch or Character.Draw has
// drawn since (see docs/EBITEN.md "Replay").
//
//	var crowd ebitenp2l.Batch // in the game struct
//
//	func (g *Game) Draw(screen *ebiten.Image) {
//		for i, c := range g.characters {
//			crowd.Add(c, &g.options[i])
//		}
//		crowd.Draw(screen)
//	}
type Batch struct {
	entries []entry
	calls   int
	rec     recorder // its last frame, for replay (replay.go)
}

// Add queues character c with opts (copied; nil means the zero value) for
// the next Draw. A nil character is ignored.
func (b *Batch) Add(c *Character, opts *DrawOptions) {
	if c == nil {
		return
	}
	e := entry{c: c}
	if opts != nil {
		e.opts = *opts
	}
	b.entries = append(b.entries, e)
}

// Len returns the number of characters queued.
func (b *Batch) Len() int { return len(b.entries) }

// Draw draws the queued characters into dst and empties the batch. Each
// character's last GeoM (ScreenToCanvas, HitTest, LookAtScreen) and
// DrawCalls (the batch's calls) are updated as by Character.Draw, and,
// as there, characters collected since are released and deallocated
// characters take their resources again. Call it from the game's Draw.
func (b *Batch) Draw(dst *ebiten.Image) {
	defer b.reset()
	if dst == nil {
		return
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	releaseCollected()
	before := rd.drawCalls
	for i := range b.entries {
		e := &b.entries[i]
		e.c.acquire()
		e.c.geoM = e.opts.GeoM
	}
	rd.drawFrame(dst, b.entries, &b.rec)
	b.calls = rd.drawCalls - before
	for _, e := range b.entries {
		e.c.calls = b.calls
	}
}

// DrawCalls returns how many draws the last Draw made (as
// Character.DrawCalls counts them).
func (b *Batch) DrawCalls() int { return b.calls }

// reset empties the batch, dropping its references to characters.
func (b *Batch) reset() {
	clear(b.entries)
	b.entries = b.entries[:0]
}
