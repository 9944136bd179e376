//go:build linux

package procbot

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"judge/judge"

	"golang.org/x/sys/unix"
)

// OneCPU serves a two-player match of bot programs on one CPU (see below):
// it is judge.Match.Serve. Matches of other sizes, or with players that
// are not programs, are served as they come.
func OneCPU(players []judge.Player, play func()) {
	if len(players) != 2 {
		play()
		return
	}
	var pps []*Player
	for _, p := range players {
		pp, ok := p.(*Player)
		if !ok {
			play()
			return
		}
		pps = append(pps, pp)
	}
	// The bots' Host counts the matches on each CPU.
	cpus := &pps[0].host.cpus
	cpu := cpus.acquire()
	defer cpus.release(cpu)
	for _, pp := range pps {
		pinProcess(pp.Pid(), cpu)
		if cpu >= 0 {
			pp.clock.cpus = 1 // its clock's bound of its threads at once
		}
	}
	defer pinThread(cpu)()
	play()
}

// A two-player match runs on one CPU once its bots have started (they
// start in parallel, on any CPU): its bots and the judge's thread that
// serves them. Only one of them computes at a time, and a wake-up on
// the same CPU costs a few microseconds where one across CPUs costs from
// 15 to 35 on a virtual machine (BenchmarkQueryCost's floor with and
// without taskset). It is fairer too: a bot cannot take the CPU of another
// match's bots. Matches that run at once get different CPUs while there are
// enough. A Host keeps the count of its matches on each CPU.
type cpuSet struct {
	once    sync.Once
	allowed []int       // the CPUs this process may use
	running map[int]int // matches on each CPU
	next    int         // acquisitions so far
	mu      sync.Mutex
}

// acquire picks the allowed CPU with the fewest matches and counts one
// more on it. It returns -1 when there is nothing to choose from.
func (cpus *cpuSet) acquire() int {
	cpus.once.Do(func() {
		var set unix.CPUSet
		if unix.SchedGetaffinity(0, &set) == nil {
			for c := 0; c < len(set)*64; c++ {
				if set.IsSet(c) {
					cpus.allowed = append(cpus.allowed, c)
				}
			}
		}
		cpus.running = map[int]int{}
	})
	if len(cpus.allowed) < 2 {
		return -1
	}
	cpus.mu.Lock()
	defer cpus.mu.Unlock()
	// Ties go round the CPUs from a place that differs between judge
	// processes, so that two of them do not crowd one CPU.
	n := len(cpus.allowed)
	cpus.next++
	first := (os.Getpid() + cpus.next) % n
	best := cpus.allowed[first]
	for i := 1; i < n; i++ {
		c := cpus.allowed[(first+i)%n]
		if cpus.running[c] < cpus.running[best] {
			best = c
		}
	}
	cpus.running[best]++
	return best
}

func (cpus *cpuSet) release(c int) {
	if c < 0 {
		return
	}
	cpus.mu.Lock()
	cpus.running[c]--
	cpus.mu.Unlock()
}

// pinProcess puts every thread of process pid on cpu. Threads and
// processes it starts later inherit the CPU. Errors are ignored: pinning
// is an optimisation, and a process may end at any time.
func pinProcess(pid, cpu int) {
	if cpu < 0 {
		return
	}
	var one unix.CPUSet
	one.Set(cpu)
	setAffinity(pid, &one)
}

// setAffinity puts every thread of process pid on the CPUs of set. A
// thread takes its affinity from the thread that makes it: one made by a
// thread not yet moved, after the list was read, is found by the next
// look, which is repeated until it finds no thread it has not moved (a
// bot that starts its threads as it starts, as the judge pins it).
func setAffinity(pid int, set *unix.CPUSet) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	var moved []int
	for look := 0; look < 16; look++ {
		tasks, err := os.ReadDir(dir)
		if err != nil {
			if look == 0 {
				_ = unix.SchedSetaffinity(pid, set)
			}
			return
		}
		fresh := false
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil || slices.Contains(moved, tid) {
				continue
			}
			_ = unix.SchedSetaffinity(tid, set)
			moved = append(moved, tid)
			fresh = true
		}
		if !fresh {
			return
		}
	}
}

// nearCaller puts every thread of process pid on the CPUs the calling
// thread may run on: one CPU when it serves a two-player match (OneCPU),
// where a referee's wake-ups then stay; all of the judge's otherwise.
func nearCaller(pid int) {
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) == nil {
		setAffinity(pid, &set)
	}
}

// pinThread locks the calling goroutine to its thread and the thread to
// cpu; the returned function undoes both. With cpu < 0 it does nothing.
// Processes started from the thread meanwhile inherit the CPU.
func pinThread(cpu int) (unpin func()) {
	if cpu < 0 {
		return func() {}
	}
	runtime.LockOSThread()
	var old, one unix.CPUSet
	if unix.SchedGetaffinity(0, &old) != nil {
		runtime.UnlockOSThread()
		return func() {}
	}
	one.Set(cpu)
	if unix.SchedSetaffinity(0, &one) != nil {
		runtime.UnlockOSThread()
		return func() {}
	}
	return func() {
		_ = unix.SchedSetaffinity(0, &old)
		runtime.UnlockOSThread()
	}
}

// nap sleeps d in the calling thread. A time.Sleep shorter than a
// millisecond takes a millisecond once the judge has nothing else to do:
// the runtime then waits in epoll_wait, whose timeout is in milliseconds.
func nap(d time.Duration) {
	ts := unix.NsecToTimespec(d.Nanoseconds())
	_ = unix.Nanosleep(&ts, nil)
}

// seesBlocked: sandbox.Process.Blocked says when a bot waits for input.
const seesBlocked = true
