package sandbox

import (
	"context"
	"sync"
)

// Options are how a Host runs programs. The zero value is what a judge
// uses; the others are for tests that compare a machine's ways.
type Options struct {
	// NoReuse gives every program a sandbox of its own, never one made
	// ready ahead and reused (pool.go).
	NoReuse bool
	// SlotFault, when not nil, is the error every build of a ready
	// sandbox gives: what a machine that refuses them sees.
	SlotFault error
	// NoSeccomp runs programs without the seccomp filter: what holds on
	// a machine that has none.
	NoSeccomp bool
}

// Host is what a process that runs sandboxed programs holds for them:
// what the machine offers (Probe, found once), its cgroups, and the
// sandboxes kept ready for reuse. A program makes one (NewHost), passes
// it to what starts programs, and closes it before it exits (Close).
// Its methods may be called from several goroutines at once.
type Host struct {
	opts Options

	probeMu sync.Mutex
	report  *Report // nil until probed

	hostSys // what Linux's sandboxes keep (host_linux.go)
}

// NewHost makes a Host. It examines nothing yet: the machine is probed
// the first time a program starts or Probe is called.
func NewHost(o Options) *Host {
	h := &Host{opts: o}
	h.initSys()
	return h
}

// Probe examines the machine, once per Host, and reports what the
// sandbox can enforce here. It starts one sandbox to try the namespaces.
func (h *Host) Probe() *Report {
	r, _ := h.probe(context.Background())
	return r
}

// probe is Probe, given up (with ctx's error, and nothing kept) when
// ctx ends first.
func (h *Host) probe(ctx context.Context) (*Report, error) {
	h.probeMu.Lock()
	defer h.probeMu.Unlock()
	if h.report != nil {
		return h.report, nil
	}
	r, err := h.runProbe(ctx)
	if err != nil {
		return nil, err
	}
	h.report = r
	return r, nil
}
