//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/inside"
	"judge/sandbox/internal/kernel"
)

// Sandboxed reports whether this system has the sandbox: only Linux
// does. Elsewhere every program runs at level None.
const Sandboxed = true

// initCalled is set by Init, so that Start can refuse to run an init that
// would not recognize itself. It is a fact of the process, not of a Host:
// whether this program's main called Init, set once before any Host is
// made and only read after.
var initCalled atomic.Bool

// runInit runs the sandbox's init when the program was started as one.
func runInit() {
	initCalled.Store(true)
	inside.Main()
}

// readsStdin says whether a syscall file of /proc ("NR 0xARG0 ...")
// shows a read of descriptor 0.
func readsStdin(b []byte) bool {
	nrText, rest, ok := bytes.Cut(b, []byte(" "))
	if !ok {
		return false
	}
	fdText, _, _ := bytes.Cut(rest, []byte(" "))
	fdText, ok = bytes.CutPrefix(fdText, []byte("0x"))
	if !ok {
		return false
	}
	nr, err1 := strconv.ParseUint(string(nrText), 10, 64)
	fd, err2 := strconv.ParseUint(string(fdText), 16, 64)
	return err1 == nil && err2 == nil && fd == 0 && (nr == unix.SYS_READ || nr == unix.SYS_READV || nr == unix.SYS_PREAD64)
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
	// The main thread first, with one read: most bots have no other, and
	// one whose main thread runs is computing, whatever its others do.
	var buf [256]byte
	b := kernel.ReadInto("/proc/"+strconv.Itoa(pid)+"/syscall", buf[:])
	if bytes.HasPrefix(b, []byte("running")) {
		return ""
	}
	if readsStdin(b) {
		return "read stdin"
	}
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return ""
	}
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/syscall", pid, t.Name()))
		if err != nil {
			continue
		}
		if readsStdin(b) {
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

// soleClock is the CPU time of a program run by an init in a PID
// namespace of its own where no cgroup counts it (a reused sandbox at
// level namespaces): the program's process CPU clock (all its threads)
// and the children it has reaped; and whether that is all that ran in
// the namespace: the program has no child now, and the init has adopted
// no process (an orphan goes to the init's main thread; the program is
// a child of another of its threads). A process made and reaped between
// two reads counts in the second, to the hundredth of a second. The
// files of /proc it reads are kept open, read again from their start.
type soleClock struct {
	initPid, pid int
	mu           sync.Mutex
	fds          [3]int // the program's stat and children, the init's children; -1 until opened
	closed       bool
}

func newSoleClock(initPid, pid int) *soleClock {
	return &soleClock{initPid: initPid, pid: pid, fds: [3]int{-1, -1, -1}}
}

// read is the CPU time, and whether the program is alone.
func (c *soleClock) read() (d time.Duration, alone bool, err error) {
	if d, err = processCPU(c.pid); err != nil {
		return 0, false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return d, false, nil
	}
	if c.fds[0] < 0 {
		for i, path := range []string{
			fmt.Sprintf("/proc/%d/stat", c.pid),
			fmt.Sprintf("/proc/%d/task/%d/children", c.pid, c.pid),
			fmt.Sprintf("/proc/%d/task/%d/children", c.initPid, c.initPid),
		} {
			fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
			if err != nil {
				c.closeFiles()
				return d, false, nil
			}
			c.fds[i] = fd
		}
	}
	var buf [1024]byte
	n, err := unix.Pread(c.fds[0], buf[:], 0)
	if err != nil {
		return d, false, nil
	}
	reaped, threads, ok := kernel.ParseStat(buf[:n])
	if !ok {
		return d, false, nil
	}
	alone = c.empty(2)
	if threads == 1 {
		alone = alone && c.empty(1)
	} else {
		alone = alone && len(kernel.Children(c.pid)) == 0
	}
	return d + reaped, alone, nil
}

// empty says whether the children file c.fds[i] lists no process.
func (c *soleClock) empty(i int) bool {
	var b [16]byte
	n, err := unix.Pread(c.fds[i], b[:], 0)
	return err == nil && n == 0
}

// close lets go of the files, once the program has ended.
func (c *soleClock) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.closeFiles()
}

func (c *soleClock) closeFiles() {
	for i, fd := range c.fds {
		if fd >= 0 {
			unix.Close(fd)
		}
		c.fds[i] = -1
	}
}
