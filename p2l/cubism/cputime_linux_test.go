package cubism

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has consumed, every thread
// (the garbage collector's, parallel decoders') counted. Benchmarks report
// it next to wall time: on a shared machine wall time also counts the time
// other processes hold the cores.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
