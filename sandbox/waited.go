package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
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
// the sandbox's init, or at level None of the program). A turn's own
// time is its wall time minus what Waited grew by during it.
//
// It is a sum over the tasks alive now: a thread that has ended takes
// its share with it, so between two calls the difference may be
// negative when threads ended; the sandbox's init is not counted.
// After the process has ended it is an error.
func (p *Process) Waited() (time.Duration, error) {
	select {
	case <-p.done:
		return 0, errors.New("sandbox: the process has ended")
	default:
	}
	var pids []int
	switch {
	case p.cg != nil:
		for _, pid := range p.cg.pidList() {
			if p.init == nil || pid != p.init.Pid {
				pids = append(pids, pid)
			}
		}
	case p.init != nil:
		pids = descendants(p.init.Pid)
	default:
		pids = append([]int{p.pid}, descendants(p.pid)...)
	}
	var total time.Duration
	seen := false
	for _, pid := range pids {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if err != nil {
			continue // ended meanwhile
		}
		for _, t := range tasks {
			d, err := taskWaited(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
			if errors.Is(err, ErrNoSchedstat) {
				return 0, err
			}
			if err == nil {
				total += d
				seen = true
			}
		}
	}
	if !seen && len(pids) > 0 {
		if _, err := os.Stat("/proc/self/schedstat"); err != nil {
			return 0, ErrNoSchedstat
		}
	}
	return total, nil
}

// taskWaited reads the run-queue wait of one task from its schedstat
// file ("time on CPU, time waiting, timeslices", in nanoseconds).
func taskWaited(path string) (time.Duration, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			if _, serr := os.Stat("/proc/self/schedstat"); serr != nil {
				return 0, ErrNoSchedstat
			}
		}
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("sandbox: %s: %q", path, b)
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("sandbox: %s: %w", path, err)
	}
	return time.Duration(ns), nil
}
