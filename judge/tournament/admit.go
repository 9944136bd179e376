package tournament

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// perMatch is how many tasks a match playing keeps runnable now and
// then: its judge's thread and a bot handing lines to each other, the
// bots' sandboxes' inits freezing and starting them.
const perMatch = 2

// admission holds back the start of a match while the machine cannot
// serve one more without its run queue growing: while more tasks are
// runnable than there are CPUs, beyond perMatch for each match playing
// (up to one match per CPU: past that, matches share CPUs). Bots
// then wait for a CPU, and their turns' wall time is the machine's
// lateness, not theirs. A match is always admitted when none is
// playing, so that other work on the machine slows a tournament down but
// never stops it.
type admission struct {
	cpus     int
	runnable func() (int, error) // tasks runnable now, machine-wide, not counting the caller
	poll     time.Duration       // between checks while holding back
	settle   time.Duration       // between two admissions, for a match's bots to show up in the queue
	progress *Progress

	mu      sync.Mutex // one admission at a time
	playing int        // matches admitted and not yet done; under mu
	last    time.Time  // the last admission
	pmu     sync.Mutex // guards playing for done
}

func newAdmission(p *Progress) *admission {
	return &admission{cpus: runtime.NumCPU(), runnable: runQueue, poll: 50 * time.Millisecond, settle: 20 * time.Millisecond, progress: p}
}

// wait returns once a match may start (or ctx is done); the match then
// calls done when it ends.
func (a *admission) wait(ctx context.Context) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	// Matches admitted a moment ago may not show in the queue yet: once
	// the judge's own matches could fill the CPUs, the next waits for
	// them to show. Below that, one match more is always room.
	if d := a.settle - time.Since(a.last); d > 0 && a.playingNow() >= a.cpus {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	held := false
	for n := a.playingNow(); n > 0; n = a.playingNow() {
		room := a.cpus + perMatch*min(n, a.cpus)
		q, err := a.queue(room)
		if err != nil || q <= room {
			break
		}
		held = true
		a.progress.holding(fmt.Sprintf("holding back: %d tasks runnable on %d CPUs", q, a.cpus))
		select {
		case <-ctx.Done():
			a.progress.holding("")
			return ctx.Err()
		case <-time.After(a.poll):
		}
	}
	if held {
		a.progress.holding("")
	}
	a.pmu.Lock()
	a.playing++
	a.pmu.Unlock()
	a.last = time.Now()
	return nil
}

// queue is the run queue: one sample when it is at most room, which
// costs microseconds, else the median of five a millisecond apart, for
// one sample is noisy.
func (a *admission) queue(room int) (int, error) {
	q, err := a.runnable()
	if err != nil || q <= room {
		return q, err
	}
	const n = 5
	s := [n]int{q}
	for i := 1; i < n; i++ {
		time.Sleep(time.Millisecond)
		if s[i], err = a.runnable(); err != nil {
			return 0, err
		}
	}
	slices.Sort(s[:])
	return s[n/2], nil
}

func (a *admission) done() {
	a.pmu.Lock()
	a.playing--
	a.pmu.Unlock()
}

func (a *admission) playingNow() int {
	a.pmu.Lock()
	defer a.pmu.Unlock()
	return a.playing
}

// runQueue is the number of tasks runnable on the machine now (the
// fourth field of /proc/loadavg, "runnable/total"), less the caller.
func runQueue() (int, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 4 {
		return 0, fmt.Errorf("/proc/loadavg: %q", b)
	}
	r, _, ok := strings.Cut(f[3], "/")
	v, err := strconv.Atoi(r)
	if !ok || err != nil {
		return 0, fmt.Errorf("/proc/loadavg: %q", b)
	}
	return v - 1, nil
}
