package tournament

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// admission holds back the start of a match while the machine cannot
// serve one more without its bots waiting for a CPU: while this judge's
// bots spent more than maxLate of their recent turns' time limits
// runnable but not running (their run-queue time, as the fair clock
// measures it: Options.Lateness). Bots that wait for a CPU have their turns' wall time
// stretched by the machine; the clock does not blame them for it, but a
// turn is cut at the hard cap, and the tournament gets no faster by
// starting matches the machine cannot run. A match is always admitted
// when none is playing, so that other work on the machine slows a
// tournament down but never stops it.
//
// The run queue of the whole machine was tried first: the Go runtime's
// threads that spin looking for work, the judge's and the sandboxes'
// inits', count in it, and it held back matches on an idle machine.
type admission struct {
	cpus     int
	lateness func() (share float64, over time.Duration) // Options.Lateness
	poll     time.Duration                              // between checks while holding back
	settle   time.Duration                              // between two admissions, for a match's bots to be measured
	progress *Progress

	mu      sync.Mutex // one admission at a time
	playing int        // matches admitted and not yet done; under pmu
	last    time.Time  // the last admission
	pmu     sync.Mutex // guards playing for done
}

// maxLate is the share of their turns' time limits bots may spend
// waiting for a CPU before new matches are held back; minOver is how
// much time limit the share must be taken over to count.
const (
	maxLate = 0.10
	minOver = 50 * time.Millisecond
)

func newAdmission(p *Progress, lateness func() (float64, time.Duration)) *admission {
	if lateness == nil {
		lateness = func() (float64, time.Duration) { return 0, 0 }
	}
	return &admission{cpus: runtime.NumCPU(), lateness: lateness, poll: 50 * time.Millisecond, settle: 20 * time.Millisecond, progress: p}
}

// wait returns once a match may start (or ctx is done); the match then
// calls done when it ends.
func (a *admission) wait(ctx context.Context) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	// A match started a moment ago has not been measured yet: once the
	// judge's own matches could fill the CPUs, the next waits a little.
	if d := a.settle - time.Since(a.last); d > 0 && a.playingNow() >= a.cpus {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	held := false
	for a.playingNow() > 0 {
		share, over := a.lateness()
		if share <= maxLate || over < minOver {
			break
		}
		held = true
		a.progress.holding(fmt.Sprintf("holding back: bots waited for a CPU %.0f%% of their time limits", 100*share))
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
