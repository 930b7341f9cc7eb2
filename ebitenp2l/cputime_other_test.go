//go:build !linux

package ebitenp2l

import "time"

// threadCPU is not measured outside Linux.
func threadCPU() time.Duration { return 0 }
