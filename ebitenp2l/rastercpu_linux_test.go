//go:build linux

package ebitenp2l

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

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
