package bots

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// memoryStatus is Windows's MEMORYSTATUSEX.
type memoryStatus struct {
	Length, MemoryLoad           uint32
	TotalPhys, AvailPhys         uint64
	TotalPageFile, AvailPageFile uint64
	TotalVirtual, AvailVirtual   uint64
	AvailExtendedVirtual         uint64
}

var globalMemoryStatusEx = windows.NewLazySystemDLL("kernel32.dll").NewProc("GlobalMemoryStatusEx")

// machineMemory is the machine's memory in bytes, or 0 when it cannot
// tell.
func machineMemory() int64 {
	m := memoryStatus{Length: uint32(unsafe.Sizeof(memoryStatus{}))}
	if ok, _, _ := globalMemoryStatusEx.Call(uintptr(unsafe.Pointer(&m))); ok == 0 {
		return 0
	}
	return int64(m.TotalPhys)
}

// exeSuffix ends the name of a program the judge builds.
const exeSuffix = ".exe"
