//go:build linux

package kernel

import (
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"
)

// NumRlimits is the number of resource limits of a Linux process
// (RLIM_NLIMITS, the same on every architecture).
const NumRlimits = 16

var rlimitNames = [NumRlimits]string{
	"RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_STACK", "RLIMIT_CORE", "RLIMIT_RSS",
	"RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_MEMLOCK", "RLIMIT_AS", "RLIMIT_LOCKS",
	"RLIMIT_SIGPENDING", "RLIMIT_MSGQUEUE", "RLIMIT_NICE", "RLIMIT_RTPRIO", "RLIMIT_RTTIME",
}

// LimitSet is every resource limit of a process.
type LimitSet [NumRlimits]unix.Rlimit

// LimitsOf reads the resource limits of process pid (0 for this one).
func LimitsOf(pid int) (LimitSet, error) {
	var l LimitSet
	for r := range l {
		if err := unix.Prlimit(pid, r, nil, &l[r]); err != nil {
			return l, fmt.Errorf("prlimit %s: %w", rlimitNames[r], err)
		}
	}
	return l, nil
}

// Diff names the first limit that differs between l and want.
func (l *LimitSet) Diff(want *LimitSet) string {
	for r := range l {
		if l[r] != want[r] {
			return fmt.Sprintf("%s is %s, was %s", rlimitNames[r], limitText(l[r]), limitText(want[r]))
		}
	}
	return ""
}

func limitText(l unix.Rlimit) string {
	f := func(v uint64) string {
		if v == unix.RLIM_INFINITY {
			return "unlimited"
		}
		return strconv.FormatUint(v, 10)
	}
	return f(l.Cur) + "/" + f(l.Max)
}
