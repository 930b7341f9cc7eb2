//go:build !linux

package cubism

import "time"

// CPU times are not measured here: the benchmarks leave out their CPU
// metrics.
func processCPU() time.Duration { return 0 }
func threadCPU() time.Duration  { return 0 }
func lockThread() func()        { return func() {} }
