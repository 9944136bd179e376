package procbot

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"judge/sandbox"
)

// Init runs the sandbox's init when the program was started as one, and
// never returns then; otherwise it returns at once. A program that runs
// bots calls it first thing in main, before it makes its Host.
func Init() { sandbox.Init() }

// HostOptions are how a Host runs programs (see sandbox.Options): the
// zero value is what a judge uses.
type HostOptions = sandbox.Options

// Host is what a program that runs bots holds for them, made once (in
// main, or by a test) and passed to what starts bots (Options.Host): the
// sandbox's Host, with its sandboxes kept ready, and what the judge
// measures of the machine as its bots meet it (Lateness, its own
// threads' waits), the CPUs its matches are served on (OneCPU) and what
// it found of bots' programs. Closing it ends what it keeps. Its methods
// may be called from several goroutines at once.
type Host struct {
	sb *sandbox.Host

	late  lateness  // lateness.go
	self  selfWaits // clock.go
	cpus  cpuSet    // cpu.go
	progs sync.Map  // progKey → whether libstdbuf cannot reach the program (stdio.go)
}

// NewHost makes a Host. It examines nothing yet: the machine is probed
// the first time a bot starts or the level is asked for.
func NewHost(o HostOptions) *Host {
	h := &Host{sb: sandbox.NewHost(o)}
	h.self.w.Relist = selfRelist
	return h
}

// Close releases what the sandboxes kept ready hold (their inits and
// cgroups), waiting for those being built; a program closes its Host
// before it exits.
func (h *Host) Close() {
	h.sb.Close()
	h.self.close()
}

// Sandbox is the sandbox's Host, for what starts other programs than
// bots in the sandbox.
func (h *Host) Sandbox() *sandbox.Host { return h.sb }

// Doctor says, for this machine, which protections the sandbox gives bots,
// the level matches run at by default, what to do about what is missing,
// and whether bots start in sandboxes made ready ahead.
func (h *Host) Doctor() string {
	var b strings.Builder
	pr := h.sb.Probe()
	b.WriteString(pr.String())
	switch err := h.sb.ReuseProblem(); {
	case pr.Level != sandbox.Full && pr.Level != sandbox.Namespaces:
		fmt.Fprintln(&b, "reused sandboxes: none at this level; every bot gets a sandbox of its own")
	case err != nil:
		fmt.Fprintf(&b, "reused sandboxes: NO, every bot gets a sandbox of its own (about 12 ms a start instead of 1.5): %v\n", err)
	default:
		fmt.Fprintln(&b, "reused sandboxes: yes, bots start in sandboxes made ready ahead (docs/sandbox.md)")
	}
	if ls := lineBuffering(); ls.err != nil {
		fmt.Fprintf(&b, "line-buffered pipes: NO, every bot writes to a pty (slower per line): %v\n", ls.err)
	} else {
		fmt.Fprintf(&b, "line-buffered pipes: yes, bots write to pipes with C stdio line-buffered (%s), Python and Ruby too; static programs that are not Go to a pty\n", ls.stdbuf)
	}
	return b.String()
}

// Notice is one line to print when bots run at level l, saying what the
// level lacks on this machine, or "" when there is nothing to say.
func (h *Host) Notice(l Level) string { return h.sb.Probe().Notice(l) }

// errNoHost is a program started with no Host (a nil one): a bot whose
// Options have none, tools of Languages that were given none.
var errNoHost = errors.New("procbot: no Host to start the program with")
