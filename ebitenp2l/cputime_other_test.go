//go:build !linux

package ebitenp2l

import "time"

// threadCPU is not measured outside Linux.
func threadCPU() time.Duration { return 0 }

// processCPU is not measured outside Linux.
func processCPU() time.Duration { return 0 }

// rasterCPU is not measured outside Linux.
func rasterCPU() time.Duration { return 0 }
