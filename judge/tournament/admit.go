package tournament

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// admission holds back the start of a match while the machine cannot
// serve one more without its run queue growing: while more tasks are
// runnable than there are CPUs. Bots then wait for a CPU, and their
// turns' wall time is the machine's lateness, not theirs. A match is
// always admitted when none is playing, so that other work on the
// machine slows a tournament down but never stops it.
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
	if d := a.settle - time.Since(a.last); d > 0 && a.playingNow() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	held := false
	for a.playingNow() > 0 {
		q, err := a.runnable()
		if err != nil || q <= a.cpus {
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
// fourth field of /proc/loadavg, "runnable/total"), less the caller, as
// the median of a few samples a millisecond apart: one sample is noisy.
func runQueue() (int, error) {
	const n = 5
	var s [n]int
	for i := range s {
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
		s[i] = v - 1
		if i < n-1 {
			time.Sleep(time.Millisecond)
		}
	}
	// Median of five.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[n/2], nil
}
