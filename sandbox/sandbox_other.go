//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Sandboxed reports whether this system has the sandbox: only Linux
// does. Elsewhere every program runs at level None.
const Sandboxed = false

// Off Linux there is no sandbox: namespaces, cgroups, Landlock and
// seccomp are Linux's. Programs run at level None whatever level is
// asked for (Report.Notice says so), so that bots can be tried on macOS
// and Windows before they are submitted to a judge on Linux.

// Report says what protection this machine gives sandboxed programs.
type Report struct {
	Level  Level   // the strongest level available: None
	Checks []Check // each protection, active or not
}

// hostSys is what a Host keeps off Linux: nothing.
type hostSys struct{}

func (h *Host) initSys() {}

// runProbe reports what the sandbox can enforce here: nothing but level
// None, off Linux.
func (h *Host) runProbe(context.Context) (*Report, error) {
	r := &Report{Level: None}
	r.Checks = append(r.Checks, Check{
		Name:   "sandbox",
		Detail: "the sandbox needs Linux (namespaces, cgroups, Landlock, seccomp); on " + runtime.GOOS + " bots run at level none: " + plainDoes,
		Advice: "to run bots as a judge on Linux does, use Linux (on Windows, WSL2)",
	})
	r.Checks = append(r.Checks, ptyCheck)
	return r, nil
}

// String prints the report for a person, one protection a line.
func (r *Report) String() string {
	var b strings.Builder
	writeChecks(&b, r.Level, r.Checks)
	return b.String()
}

// Summary is the level and its protections in one line, as stored in
// replays.
func (r *Report) Summary() string { return noneSummary }

// noneSummary says in one line what level None enforces.
const noneSummary = "none: NOT SANDBOXED (" + plainDoes + ")"

// Notice is one line to print when programs run at level l: off Linux,
// that they run at level None whatever l is.
func (r *Report) Notice(l Level) string {
	return "no sandbox on " + runtime.GOOS + ": bots run at level none, as you, with your files and network; " +
		"fine to try your own bots, but the sandbox needs Linux (on Windows, WSL2)"
}

// runInit does nothing: there is no sandbox's init off Linux.
func runInit() {}

// startIsolated is never called off Linux: Start runs every program at
// level None.
func (h *Host) startIsolated(_ context.Context, spec Spec, level Level, _ *Report) (*Process, error) {
	return nil, fmt.Errorf("sandbox: level %s needs Linux", level)
}

// TmpFull reports whether the program filled its temporary directory:
// never, off Linux (no level has one).
func (p *Process) TmpFull() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tmpFull
}

// ReuseProblem says why bots cannot start in sandboxes made ready ahead.
func (h *Host) ReuseProblem() error { return errors.New("the sandbox needs Linux") }

// ReleaseIdle does nothing: off Linux no sandbox is kept ready.
func (h *Host) ReleaseIdle() {}

// Close does nothing: off Linux no sandbox is kept ready.
func (h *Host) Close() {}

// Prewarm does nothing: off Linux no sandbox is kept ready.
func (h *Host) Prewarm(context.Context, Spec, int) error { return nil }

// CheckReuse does nothing: there is no sandbox.
func (h *Host) CheckReuse(Level) {}

// waitFiles is what a Waits keeps: no files, off Linux.
type waitFiles struct {
	mu     sync.Mutex
	closed bool
}

// By is Of, and fills byThread, when it is not nil, with the Times of
// each thread read: off Linux there are no scheduler statistics, and it
// is ErrNoSchedstat.
func (w *Waits) By(byThread map[int]Times, pids ...int) (time.Duration, error) {
	clear(byThread)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, errors.New("sandbox: closed")
	}
	return 0, ErrNoSchedstat
}

// Close makes Of fail from now on.
func (w *Waits) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
}

// blocked is Process.Blocked, which cannot tell off Linux.
func blocked(int) string { return "" }
