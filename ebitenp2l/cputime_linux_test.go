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
func threadCPU() time.Duration { return clockCPU(3) }

// processCPU is the CPU time of the whole process
// (CLOCK_PROCESS_CPUTIME_ID): every thread, Mesa llvmpipe's rasterizer
// threads and Ebitengine's render thread included.
func processCPU() time.Duration { return clockCPU(2) }

// clockCPU reads CPU-time clock id (0 on error).
func clockCPU(id uintptr) time.Duration {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
