package core

import (
	"fmt"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// Tick advances the character by one game tick of dt seconds with the
// fingers down this tick, then delivers the listener notifications it
// produced. It reports whether the frame must be redrawn.
func (c *Core) Tick(dt float64, touches []Touch) (redraw bool) {
	c.mu.Lock()
	c.tickLocked(dt, touches)
	redraw = c.view.dirty
	l := c.listener
	var notes []note
	if len(c.pending) > 0 { // notes are rare: a fresh slice each time is fine
		notes, c.pending = c.pending, nil
	}
	c.mu.Unlock()
	c.deliver(l, notes)
	return redraw
}

func (c *Core) tickLocked(dt float64, touches []Touch) {
	if c.model == nil || c.failed || c.paused || !(dt >= 0) {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			c.fail(fmt.Errorf("internal error: %v", v))
		}
	}()
	m, r := c.model, c.rig
	c.touch(m, r, touches)
	update, by := c.pace.step(dt, c.gesture.active || r.Busy())
	if !update {
		return
	}
	r.Update(by)
	if err := r.Err(); err != nil {
		c.fail(err)
		return
	}
	c.pace.observe(r, by)
	r.Events(c.onEvent)
	c.view.dirty = true
}

// addEvent queues the notification of a clip event. It is bound once to
// onEvent (New) so that passing it to Rig.Events allocates nothing per
// tick. The mutex must be held.
func (c *Core) addEvent(clip int, value string) {
	id := ""
	if m := c.model; m != nil && clip >= 0 && clip < m.Clips().Len() {
		id = m.Clips().At(clip).ID
	}
	c.pending = append(c.pending, note{kind: noteEvent, id: id, value: value})
}

// deliver calls the listener for each note, outside the mutex. A panic in
// the listener (a Java or Swift exception surfacing through gomobile) is
// contained so that the game loop survives it.
func (c *Core) deliver(l Listener, notes []note) {
	if l == nil || len(notes) == 0 {
		return
	}
	for _, n := range notes {
		func() {
			defer func() { _ = recover() }()
			switch n.kind {
			case noteHit:
				l.OnHit(n.id)
			case noteEvent:
				l.OnEvent(n.id, n.value)
			case noteError:
				l.OnError(n.value)
			}
		}()
	}
}

// Draw calls fn with the model, the rig, the canvas-to-view transform and
// the background, with the mutex held, and marks the frame drawn. Without a
// live character (none loaded, failed, or an empty view) fn gets a nil model
// and draws the background only.
func (c *Core) Draw(fn func(m *p2l.Model, r Rig, t Transform, bg Color)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.view.dirty = false
	m, r := c.model, c.rig
	t, ok := Transform{}, false
	if m != nil {
		t, ok = c.view.transform(m.Canvas())
	}
	if c.failed || !ok {
		m, r = nil, nil
	}
	defer func() {
		if v := recover(); v != nil && !c.failed {
			c.fail(fmt.Errorf("internal error while drawing: %v", v))
		}
	}()
	fn(m, r, t, c.background)
}

// Updates returns how many times the rig has been updated (pacing tests and
// figures).
func (c *Core) Updates() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pace.updates
}
