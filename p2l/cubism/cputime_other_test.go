//go:build !linux

package cubism

import "time"

// processCPU is unavailable here; benchmarks then report 0.
func processCPU() time.Duration { return 0 }
