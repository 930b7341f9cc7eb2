package p2l

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortNearlySorted: the insertion sort evalDraw starts from the last
// order gives exactly the order of sorting by key then tree position (the
// stable sort of the items by key, taken in tree order), for orders a few
// swaps away, shuffled and reversed (which exhaust its budget and finish
// with slices.SortFunc), with ties among the keys.
func TestSortNearlySorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 400 {
		n := rng.IntN(40)
		items := make([]sortItem, n)
		for k := range items {
			items[k] = sortItem{key: float64(rng.IntN(8)), pos: int32(k), node: cnode{mesh: int32(k)}}
		}
		want := slices.Clone(items) // in tree order
		slices.SortStableFunc(want, func(a, b sortItem) int {
			switch {
			case a.key < b.key:
				return -1
			case a.key > b.key:
				return 1
			}
			return 0
		})
		got := slices.Clone(want)
		switch trial % 4 {
		case 0: // a few neighbours swapped
			for range 3 {
				if n > 1 {
					k := rng.IntN(n - 1)
					got[k], got[k+1] = got[k+1], got[k]
				}
			}
		case 1:
			rng.Shuffle(n, func(i, j int) { got[i], got[j] = got[j], got[i] })
		case 2:
			slices.Reverse(got)
		}
		sortNearlySorted(got)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d): got %v, want %v", trial, n, got, want)
		}
	}
}
