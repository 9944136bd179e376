//go:build linux

package inside

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
)

// A reused sandbox's init starts one program after another, and what a
// program can change of the init, the next program inherits: its
// resource limits (process-wide, copied at fork), and the nice value,
// scheduling policy and CPU affinity of the thread that forks it. The
// seccomp filter keeps a program from setting another process's limits
// (seccomp.go); the others a process of the same user may change. So the
// init notes all of them before it runs any program, and before each
// program checks that nothing has changed: if something has, the slot is
// spoiled, says so (a reply 'X' to the run request), and the judge builds
// another. The judge also reads the init's limits from outside after
// every program (package sandbox's slot.intact), against what it read
// when the slot was ready.

// initState is what of a slot's init its programs inherit and another
// process could change.
type initState struct {
	limits kernel.LimitSet
	thread threadState // of every thread
	oomAdj string      // /proc/self/oom_score_adj
	// Kept open for check, which runs before every program: a read
	// of a file already open, and no allocation, costs a third of an
	// open, a read and a close.
	oomFd, taskFd int
	buf           [4096]byte
	tids          []int
}

// threadState is what a forked process inherits of the thread that
// forks it.
type threadState struct {
	prio   int // getpriority's value: 20 - nice
	policy int
	cpus   unix.CPUSet
}

func threadOf(tid int) (threadState, error) {
	var t threadState
	var err error
	if t.prio, err = unix.Getpriority(unix.PRIO_PROCESS, tid); err != nil {
		return t, err
	}
	pol, _, e := unix.RawSyscall(unix.SYS_SCHED_GETSCHEDULER, uintptr(tid), 0, 0)
	if e != 0 {
		return t, e
	}
	t.policy = int(pol)
	return t, unix.SchedGetaffinity(tid, &t.cpus)
}

// captureState notes the init's state, from the calling thread, before
// it runs any program.
func captureState() (*initState, error) {
	s := &initState{oomFd: -1, taskFd: -1}
	var err error
	if s.limits, err = kernel.LimitsOf(0); err != nil {
		return nil, err
	}
	if s.thread, err = threadOf(unix.Gettid()); err != nil {
		return nil, err
	}
	if s.oomFd, err = unix.Open("/proc/self/oom_score_adj", unix.O_RDONLY|unix.O_CLOEXEC, 0); err != nil {
		return nil, fmt.Errorf("oom_score_adj: %w", err)
	}
	s.oomAdj = s.readOOM()
	if s.taskFd, err = unix.Open("/proc/self/task", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
		unix.Close(s.oomFd)
		return nil, fmt.Errorf("/proc/self/task: %w", err)
	}
	return s, nil
}

// readOOM reads the init's oom_score_adj from the file kept open.
func (s *initState) readOOM() string {
	n, err := unix.Pread(s.oomFd, s.buf[:], 0)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	return strings.TrimSpace(string(s.buf[:n]))
}

// threads lists the init's threads, from the directory kept open.
func (s *initState) threads() []int {
	s.tids = s.tids[:0]
	if _, err := unix.Seek(s.taskFd, 0, 0); err != nil {
		return kernel.Tasks(os.Getpid(), s.tids)
	}
	for {
		n, err := unix.Getdents(s.taskFd, s.buf[:])
		if err != nil || n <= 0 {
			return s.tids
		}
		s.tids = kernel.AppendDirentNumbers(s.tids, s.buf[:n])
	}
}

// errSpoiled marks a slot that a program changed.
var errSpoiled = errors.New("a program changed the sandbox's init")

// check says what has changed since s was captured, or nil.
func (s *initState) check() error {
	l, err := kernel.LimitsOf(0)
	if err != nil {
		return err
	}
	if d := l.Diff(&s.limits); d != "" {
		return fmt.Errorf("%w: %s", errSpoiled, d)
	}
	if v := s.readOOM(); v != s.oomAdj {
		return fmt.Errorf("%w: oom_score_adj is %s, was %s", errSpoiled, v, s.oomAdj)
	}
	for _, tid := range s.threads() {
		t, err := threadOf(tid)
		if err != nil {
			continue // a thread that ended
		}
		switch {
		case t.prio != s.thread.prio:
			return fmt.Errorf("%w: the nice value of thread %d is %d, was %d", errSpoiled, tid, 20-t.prio, 20-s.thread.prio)
		case t.policy != s.thread.policy:
			return fmt.Errorf("%w: the scheduling policy of thread %d is %d, was %d", errSpoiled, tid, t.policy, s.thread.policy)
		case t.cpus != s.thread.cpus:
			return fmt.Errorf("%w: the CPU affinity of thread %d changed", errSpoiled, tid)
		}
	}
	return nil
}

// baseLimits lists every limit of l, for a program's start to set
// before the program's own (config.Base).
func baseLimits(l *kernel.LimitSet) [][3]uint64 {
	out := make([][3]uint64, 0, kernel.NumRlimits)
	for r, v := range l {
		out = append(out, [3]uint64{uint64(r), v.Cur, v.Max})
	}
	return out
}
