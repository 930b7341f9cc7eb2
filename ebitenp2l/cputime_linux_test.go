//go:build linux

package ebitenp2l

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// rasterCPU is the CPU time the process's Mesa llvmpipe rasterizer
// threads (named llvmpipe-N) have run, from each thread's schedstat
// (nanoseconds): the fragment work of the GPU side on this machine, which
// runs beside the game thread on the same cores. 0 without such threads.
func rasterCPU() time.Duration {
	tasks, _ := filepath.Glob("/proc/self/task/*")
	var sum time.Duration
	for _, t := range tasks {
		comm, err := os.ReadFile(filepath.Join(t, "comm"))
		if err != nil || !strings.HasPrefix(string(comm), "llvmpipe") {
			continue
		}
		st, err := os.ReadFile(filepath.Join(t, "schedstat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(st))
		if len(f) == 0 {
			continue
		}
		if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			sum += time.Duration(ns)
		}
	}
	return sum
}
