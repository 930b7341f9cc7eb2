package moc3

import "testing"

// TestBitSet checks the range operations against ranges written out by
// hand, across word boundaries (64 members a word).
func TestBitSet(t *testing.T) {
	s := make(bitSet, 3) // members 0–191
	s.addRange(60, 70)   // the end of word 0 and the start of word 1
	s.addRange(128, 192) // all of word 2
	s.addRange(5, 5)     // empty
	for _, c := range []struct{ lo, hi, want int }{
		{0, 60, 60},    // nothing below 60
		{0, 61, 60},    // 60 itself
		{61, 192, 61},  // starts inside the range
		{70, 128, 128}, // 70–127 are free
		{70, 127, 127}, // none: hi
		{0, 5, 5},      // none below 5, hi returned
		{5, 5, 5},      // empty range
		{100, 191, 128},
		{190, 192, 190},
		{64, 65, 64}, // the first member of word 1
	} {
		if got := s.firstIn(c.lo, c.hi); got != c.want {
			t.Errorf("firstIn(%d, %d) = %d, want %d", c.lo, c.hi, got, c.want)
		}
	}
	// Word 0 holds 60–63 (bits 60–63: 0xF << 60), word 1 holds 64–69
	// (bits 0–5: 0x3F), word 2 everything.
	if want := (bitSet{0xF << 60, 0x3F, ^uint64(0)}); s[0] != want[0] || s[1] != want[1] || s[2] != want[2] {
		t.Errorf("words %#x, want %#x", s, want)
	}
}
