// Package alloctest measures allocation for the memory-bound tests of
// p2l, p2l/texture and p2l/render.
package alloctest

import "runtime"

// Bytes returns the bytes f allocates (runtime.MemStats.TotalAlloc after a
// GC): an upper bound on what f adds to the heap at its peak.
func Bytes(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}
