package bots

import "golang.org/x/sys/unix"

// machineMemory is the machine's memory in bytes, or 0 when it cannot
// tell.
func machineMemory() int64 {
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}

// exeSuffix ends the name of a program the judge builds.
const exeSuffix = ""
