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

// Mallocs returns the number of heap allocations one call of f makes
// (runtime.MemStats.Mallocs), for a call that cannot be repeated as
// testing.AllocsPerRun does. It counts the whole process: a stray
// allocation of another goroutine can add to it.
func Mallocs(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.Mallocs - a.Mallocs
}
