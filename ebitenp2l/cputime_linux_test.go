//go:build linux

package ebitenp2l

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU is the CPU time of the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID, nanosecond resolution): on a shared, loaded
// machine wall time also counts the time other processes hold the core, so
// the benchmarks report both.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
