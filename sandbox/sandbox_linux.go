//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/inside"
)

// Sandboxed reports whether this system has the sandbox: only Linux
// does. Elsewhere every program runs at level None.
const Sandboxed = true

// initCalled is set by Init, so that Start can refuse to run an init that
// would not recognize itself.
var initCalled bool

// runInit runs the sandbox's init when the program was started as one.
func runInit() {
	initCalled = true
	inside.Main()
}

// signalName is the name of sig ("SIGSEGV"), or "".
func signalName(sig syscall.Signal) string { return unix.SignalName(sig) }

// processCPU is the CPU time of process pid so far, from its process CPU
// clock: all its threads.
func processCPU(pid int) (time.Duration, error) {
	var ts unix.Timespec
	clock := int32((^pid)<<3 | 2) // MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)
	if err := unix.ClockGettime(clock, &ts); err != nil {
		return 0, fmt.Errorf("sandbox: cpu clock of %d: %w", pid, err)
	}
	return time.Duration(ts.Nano()), nil
}

// blocked is Process.Blocked of process pid.
func blocked(pid int) string {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return ""
	}
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/syscall", pid, t.Name()))
		if err != nil {
			continue
		}
		var nr, fd uint64
		if _, err := fmt.Sscanf(string(b), "%d 0x%x", &nr, &fd); err != nil {
			continue
		}
		if fd == 0 && (nr == unix.SYS_READ || nr == unix.SYS_READV || nr == unix.SYS_PREAD64) {
			return "read stdin"
		}
	}
	// A frozen or stopped program sleeps elsewhere; the wait channel of
	// the main thread still names a pipe read.
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", pid)); err == nil && strings.Contains(string(b), "pipe_read") {
		return "read stdin"
	}
	return ""
}
