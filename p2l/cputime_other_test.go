//go:build !linux

package p2l_test

import "time"

// threadCPU is unavailable here; benchmarks then omit the cpu-ns/op metric.
func threadCPU() time.Duration { return 0 }

func lockThread() func() { return func() {} }
