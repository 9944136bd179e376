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
	s := &initState{}
	var err error
	if s.limits, err = kernel.LimitsOf(0); err != nil {
		return nil, err
	}
	if s.thread, err = threadOf(unix.Gettid()); err != nil {
		return nil, err
	}
	b, _ := os.ReadFile("/proc/self/oom_score_adj")
	s.oomAdj = strings.TrimSpace(string(b))
	return s, nil
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
	b, _ := os.ReadFile("/proc/self/oom_score_adj")
	if v := strings.TrimSpace(string(b)); v != s.oomAdj {
		return fmt.Errorf("%w: oom_score_adj is %s, was %s", errSpoiled, v, s.oomAdj)
	}
	for _, tid := range kernel.Tasks(os.Getpid(), nil) {
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
