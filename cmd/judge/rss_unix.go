//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// peakRSS is the judge's own peak resident memory, in MiB.
func peakRSS() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return float64(ru.Maxrss) / (1 << 20) // bytes there, KiB on Linux
	}
	return float64(ru.Maxrss) / 1024
}
