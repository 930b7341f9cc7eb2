package moc3

import (
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/moc3write"
)

// The synthetic writer (internal/moc3write, written apart from this reader
// from the same descriptions) produces files Parse must read, and whose
// content is consistent (every index in range).
func TestSyntheticWriterSeeds(t *testing.T) {
	for i, data := range moc3write.Seeds() {
		m, err := Parse(data)
		if err != nil {
			t.Errorf("seed %d (version byte %d): %v", i, data[4], err)
			continue
		}
		checkConsistent(t, m)
	}
}
