package cubism

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// processCPU returns the CPU time consumed by the whole process, every
// thread (CLOCK_PROCESS_CPUTIME_ID): reading and preparing a moc
// allocates, so the garbage collector's workers count too. On a shared
// machine CPU time is far steadier than wall time, which also counts the
// time other processes hold the cores.
func processCPU() time.Duration { return clock(2) }

// threadCPU returns the CPU time consumed by the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID), for loops that allocate nothing and run on a
// locked thread (lockThread).
func threadCPU() time.Duration { return clock(3) }

func clock(id uintptr) time.Duration {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
