package bots

import "golang.org/x/sys/unix"

// machineMemory is the machine's memory in bytes, or 0 when it cannot
// tell.
func machineMemory() int64 {
	n, err := unix.SysctlUint64("hw.memsize")
	if err != nil {
		return 0
	}
	return int64(n)
}

// exeSuffix ends the name of a program the judge builds.
const exeSuffix = ""
