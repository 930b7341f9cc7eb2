//go:build !linux

package ebitenp2l

import "time"

// rasterCPU is not measured outside Linux.
func rasterCPU() time.Duration { return 0 }
