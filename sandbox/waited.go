package sandbox

import (
	"errors"
	"time"
)

// ErrNoSchedstat is returned by Waited on kernels without per-task
// scheduler statistics (CONFIG_SCHED_INFO).
var ErrNoSchedstat = errors.New("sandbox: no scheduler statistics (/proc/PID/schedstat) on this kernel")

// Waited is how long the program's processes and threads have been
// runnable but not running, waiting for a CPU the machine gave to
// something else: the second field of /proc/PID/task/TID/schedstat,
// summed over every thread of every process of the sandbox (the
// cgroup's processes where there is a cgroup, else the descendants of
// the sandbox's init, or at level None of the program). It counts the
// waits of the program's threads behind each other too: what the
// machine kept the program waiting takes each thread's (WaitedBy).
//
// It is a sum over the tasks alive now: a thread that has ended takes
// its share with it, so between two calls the difference may be
// negative when threads ended; the sandbox's init is not counted.
// After the process has ended it is an error.
//
// It is read twice a turn of every bot: the processes and threads are
// listed again every relist (a process or thread started meanwhile is
// counted from then on, with all its wait), and each thread's file is
// kept open, so that a call costs a read a thread.
func (p *Process) Waited() (time.Duration, error) { return p.WaitedBy(nil) }

// Times is what the scheduler says of one thread so far: its time on a
// CPU and its time runnable but waiting for one (schedstat's first two
// fields). Ran+Waited is the time the thread wanted a CPU.
type Times struct{ Ran, Waited time.Duration }

// WaitedBy is Waited, and fills byThread, when it is not nil, with the
// Times of each thread counted, by thread id (what was in it is
// dropped). A program's own threads make each other wait for a CPU as
// much as the machine does; these are what tells them apart (see the
// judge's clock).
func (p *Process) WaitedBy(byThread map[int]Times) (time.Duration, error) {
	select {
	case <-p.done:
		return 0, errors.New("sandbox: the process has ended")
	default:
	}
	p.waitMu.Lock()
	if p.waitPids == nil {
		p.waits.Relist = relist // before its first use
	}
	if p.waitPids == nil || time.Since(p.waitListed) > relist {
		p.waitPids, p.waitListed = p.waitedPids(), time.Now()
	}
	pids := p.waitPids
	p.waitMu.Unlock()
	return p.waits.By(byThread, pids...)
}

// relist is how long Waited uses a list of processes and threads.
const relist = 100 * time.Millisecond

// waitedPids lists the processes whose waits Waited counts.
func (p *Process) waitedPids() []int { return p.b.pids() }

// Waits reads the run-queue wait of processes (the sum over their
// threads of schedstat's second field) with a few system calls a
// thread: each thread's schedstat file is opened once and read again
// from its start on every call, which is what a turn's clock can afford
// twice a turn. Its zero value is ready; it is safe for concurrent use.
type Waits struct {
	// Relist is how long a list of threads is used before the threads
	// are listed again; 0 lists them on every call. A thread started
	// meanwhile is counted from the next listing, with all its wait.
	Relist time.Duration

	waitFiles // what it keeps open
}

// Of is the run-queue wait so far of every thread of the processes pids.
// Threads that ended take theirs with them.
func (w *Waits) Of(pids ...int) (time.Duration, error) { return w.By(nil, pids...) }
