//go:build !linux

package render_test

import "time"

// threadCPU is unavailable here; the benchmark then omits cpu-ms/frame.
func threadCPU() time.Duration { return 0 }

func lockThread() func() { return func() {} }
