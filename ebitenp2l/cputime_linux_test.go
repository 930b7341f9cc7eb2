//go:build linux

package ebitenp2l

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time of the calling OS thread (getrusage
// RUSAGE_THREAD): on a shared, loaded machine wall time also counts the
// time other processes hold the core, so the benchmarks report both.
func threadCPU() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
