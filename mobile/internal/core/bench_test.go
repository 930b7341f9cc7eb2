package core

import (
	"testing"

	"github.com/psd2live/p2l-ebiten/assets"
)

// defaultCore is a core showing the default character in a 1080×1920 view.
func defaultCore(tb testing.TB) *Core {
	tb.Helper()
	c := New()
	if err := c.Load(assets.DefaultModelBytes); err != nil {
		tb.Fatal(err)
	}
	c.SetViewSize(1080, 1920)
	return c
}

// TestTickAllocs: a tick allocates nothing in steady state, busy (a looping
// clip, a finger dragging) or idle.
func TestTickAllocs(t *testing.T) {
	c := defaultCore(t)
	if err := c.PlayClip("Idle"); err != nil {
		t.Fatal(err)
	}
	touches := []Touch{{ID: 1, X: 100, Y: 100}}
	for range 120 {
		c.Tick(tick, touches)
	}
	x := 100.0
	if a := testing.AllocsPerRun(100, func() {
		x += 3
		touches[0].X = x
		c.Tick(tick, touches)
	}); a != 0 {
		t.Errorf("busy tick: %v allocations", a)
	}
	c.Tick(tick, nil)
	_ = c.StopClips()
	for range 300 {
		c.Tick(tick, nil)
	}
	if a := testing.AllocsPerRun(100, func() { c.Tick(tick, nil) }); a != 0 {
		t.Errorf("idle tick: %v allocations", a)
	}
}

// BenchmarkTickBusy is one full-rate tick of the default character with a
// looping clip: update and evaluation.
func BenchmarkTickBusy(b *testing.B) {
	c := defaultCore(b)
	_ = c.PlayClip("Idle")
	b.ReportAllocs()
	for b.Loop() {
		c.Tick(tick, nil)
	}
}

// BenchmarkTickIdle is the average tick of the idle character at the
// default idle rate (one update every third tick).
func BenchmarkTickIdle(b *testing.B) {
	c := defaultCore(b)
	for range 600 {
		c.Tick(tick, nil)
	}
	b.ReportAllocs()
	for b.Loop() {
		c.Tick(tick, nil)
	}
}
