package main

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// processMemoryCounters is Windows's PROCESS_MEMORY_COUNTERS.
type processMemoryCounters struct {
	Cb, PageFaultCount                                 uint32
	PeakWorkingSetSize, WorkingSetSize                 uintptr
	QuotaPeakPagedPoolUsage, QuotaPagedPoolUsage       uintptr
	QuotaPeakNonPagedPoolUsage, QuotaNonPagedPoolUsage uintptr
	PagefileUsage, PeakPagefileUsage                   uintptr
}

var getProcessMemoryInfo = windows.NewLazySystemDLL("kernel32.dll").NewProc("K32GetProcessMemoryInfo")

// peakRSS is the judge's own peak working set, in MiB.
func peakRSS() float64 {
	c := processMemoryCounters{Cb: uint32(unsafe.Sizeof(processMemoryCounters{}))}
	if ok, _, _ := getProcessMemoryInfo.Call(uintptr(windows.CurrentProcess()), uintptr(unsafe.Pointer(&c)), uintptr(c.Cb)); ok == 0 {
		return 0
	}
	return float64(c.PeakWorkingSetSize) / (1 << 20)
}
