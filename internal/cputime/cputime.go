// Package cputime reads the CPU-time clocks benchmarks report next to wall
// time: on a shared, loaded machine wall time also counts the time other
// processes hold the cores, CPU time does not. Where the clocks are
// unavailable (not Linux) every reading is 0 and benchmarks omit the
// metric.
package cputime

import (
	"runtime"
	"time"
)

// Thread is the CPU time the calling OS thread has consumed
// (CLOCK_THREAD_CPUTIME_ID): for loops that run on a locked thread (Lock).
func Thread() time.Duration { return clock(clockThread) }

// Process is the CPU time of the whole process, every thread
// (CLOCK_PROCESS_CPUTIME_ID): for work that allocates (the garbage
// collector's workers count) or runs on several threads.
func Process() time.Duration { return clock(clockProcess) }

// Lock locks the calling goroutine to its OS thread, so that Thread
// measures it, and returns the function that unlocks it.
func Lock() (unlock func()) {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
