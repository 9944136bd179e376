// Package sandbox starts untrusted programs, measures what they use and
// stops them: a whole process tree, never a stray child left behind. It
// knows nothing of games or protocols.
//
// By default a program runs isolated with the strongest protection the
// machine allows (see Level and Probe): its own user, PID, mount, network,
// IPC and UTS namespaces under a tiny init, cgroup limits on memory and
// processes, Landlock and a seccomp filter. A program that embeds this
// package must call Init first thing in main (and in TestMain), since the
// init is the program itself, run again; it then makes a Host, starts
// programs with it, and closes it before it exits.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

// Level is how strongly a program is isolated. Higher levels include what
// the lower ones enforce.
type Level string

// The levels, from the strongest.
const (
	// Auto picks the strongest level the machine allows.
	Auto Level = ""
	// Full is Namespaces with cgroup limits: real memory, processes and
	// threads, CPU accounting and freezing by cgroup.
	Full Level = "full"
	// Namespaces runs the program in its own user, PID, mount, network,
	// IPC and UTS namespaces, with Landlock and seccomp where available;
	// memory and processes are bounded by rlimits.
	Namespaces Level = "namespaces"
	// Basic has no namespaces: rlimits, Landlock and seccomp (and cgroups
	// where the machine has them), a private temporary directory whose
	// size the judge enforces, no view of other processes in /proc where
	// Landlock works. Report.Notice says what it lacks.
	Basic Level = "basic"
	// None is no sandbox at all: a process group and rlimits (on
	// Windows, a job object). For debugging only, and the only level
	// off Linux.
	None Level = "none"
)

// rank orders the levels; higher is stronger.
func (l Level) rank() int {
	switch l {
	case Full:
		return 3
	case Namespaces:
		return 2
	case Basic:
		return 1
	}
	return 0
}

// ParseLevel checks a level name ("" and "auto" mean Auto).
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case Auto, Full, Namespaces, Basic, None:
		return l, nil
	case "auto":
		return Auto, nil
	}
	return "", fmt.Errorf("unknown sandbox level %q (want auto, full, namespaces, basic or none)", s)
}

// Spec says what to run and how.
type Spec struct {
	// Argv[0] is looked up in PATH when it has no slash: among the
	// directories the sandbox shows, when it is isolated.
	Argv []string
	// Dir is the working directory; empty for the current one. When
	// isolated it must be visible (see ReadOnly).
	Dir string
	Env []string // the whole environment, nothing inherited

	// The child's standard files. Nil means /dev/null.
	Stdin, Stdout, Stderr *os.File

	Limits Limits

	// Level caps the isolation: Auto for the strongest available; a
	// level the machine cannot give is an error.
	Level Level
	// ReadOnly are files and directories shown read-only at the same
	// path, besides the system directories (/usr, /bin, /lib*, /sbin,
	// /etc): the program's own directory, interpreters installed
	// elsewhere. Arguments that name existing files inside them are made
	// absolute, so that relative paths keep working.
	ReadOnly []string
	// Writable are directories shown writable at the same path (a
	// compiler's output directory).
	Writable []string
}

// Limits bound what a process may use. Zero means no limit.
type Limits struct {
	Memory    int64         // bytes of real memory (cgroup), else of data segment (RLIMIT_DATA)
	Procs     int           // processes and threads
	FileSize  int64         // bytes in one written file
	OpenFiles int           // open file descriptors
	TmpSize   int64         // bytes in the private /tmp (isolated levels)
	Wall      time.Duration // the program is killed after this long, whatever it does
}

// DefaultLimits are the limits of a bot.
var DefaultLimits = Limits{
	Memory:    256 << 20,
	Procs:     64,
	FileSize:  64 << 20,
	OpenFiles: 256,
	TmpSize:   64 << 20,
}

// CompileLimits are the limits of a compiler building a submission.
var CompileLimits = Limits{
	Memory:    1 << 30,
	Procs:     256,
	FileSize:  256 << 20,
	OpenFiles: 1024,
	TmpSize:   512 << 20,
	Wall:      2 * time.Minute,
}

// Exit is how a process ended.
type Exit struct {
	Code   int            // exit code when it exited by itself, else -1
	Signal syscall.Signal // the signal that killed it, when one did
	OOM    bool           // the memory limit stopped it (read from the cgroup)
	Wall   bool           // it was killed for running longer than Limits.Wall
	CPU    time.Duration  // user + system time of the process and all its descendants
	MaxRSS int64          // peak resident memory, bytes
	// Err is set when the sandbox itself failed while the program ran
	// (its init died): how the program ended is unknown, and the failure
	// is the judge's, not the program's. It wraps ErrSandbox.
	Err error
}

// ErrSandbox marks a failure of the sandbox itself, not of the program
// run in it: Exit.Err, and Start's error when a reused sandbox was found
// spoiled and no other could be built.
var ErrSandbox = errors.New("sandbox failure")

// Signaled reports whether a signal ended the process.
func (e Exit) Signaled() bool { return e.Signal != 0 }

// SignalName is the name of the signal that ended the process ("SIGSEGV"),
// or "".
func (e Exit) SignalName() string {
	if e.Signal == 0 {
		return ""
	}
	if n := signalName(e.Signal); n != "" {
		return n
	}
	return fmt.Sprintf("signal %d", int(e.Signal))
}

// String describes the exit for a person: "exit code 3",
// "killed by SIGSEGV (segmentation fault)", "killed by SIGKILL (killed):
// out of memory".
func (e Exit) String() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	var s string
	if e.Signaled() {
		s = fmt.Sprintf("killed by %s (%s)", e.SignalName(), e.Signal)
	} else {
		s = fmt.Sprintf("exit code %d", e.Code)
	}
	switch {
	case e.OOM:
		s += ": out of memory"
	case e.Wall:
		s += ": ran out of wall-clock time"
	}
	return s
}

// Process is a started program with everything it started.
type Process struct {
	pid   int // the program's pid, as the judge sees it
	level Level
	desc  string
	done  chan struct{}
	b     backend // how it runs: isolated, pooled or plain

	waits      Waits // for Waited
	waitMu     sync.Mutex
	waitPids   []int // for Waited, listed at waitListed
	waitListed time.Time

	mu      sync.Mutex
	exit    Exit
	tmpFull bool // level Basic: the program filled its temporary directory
	frozen  bool
	wall    bool
	killed  bool

	warm bool // it started in a sandbox that was ready
}

// Warm reports whether the program started in a sandbox that was ready
// (one Prewarm built, or one a program before it left), not one built
// for it.
func (p *Process) Warm() bool { return p.warm }

// backend is how a Process's program runs: under an init of its own
// (isolated, isolated.go), in a reused sandbox (pooled, pool.go), or with
// no sandbox at all (plainProc, plain.go). Process does what they share;
// each does the rest its own way.
type backend interface {
	// kill ends the program and everything it started, at once.
	kill()
	// freeze stops (on) or lets run again every process of the sandbox.
	freeze(on bool) error
	// cpuTime is the CPU time used so far by every process of the
	// sandbox, when a cgroup counts it (ok).
	cpuTime() (d time.Duration, ok bool)
	// countsAll reports whether cpuTime counts every process (at its
	// last call, where that changes).
	countsAll() bool
	// pids lists the processes whose waits Waited counts.
	pids() []int
	// leftovers lists what of the sandbox still exists on the machine.
	leftovers() []string
}

// Pid is the process id of the started program (not of the sandbox's
// init), as seen from outside the sandbox.
func (p *Process) Pid() int { return p.pid }

// Level is the level the process runs at.
func (p *Process) Level() Level { return p.level }

// Protection describes the protection the process runs under, for replays
// and logs: "full: namespaces (user, pid, mount, net, ipc, uts), cgroup v1
// (memory, pids, freezer, cpuacct), landlock v7, seccomp, no_new_privs".
func (p *Process) Protection() string { return p.desc }

// Done is closed once the process and all it started have ended.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit returns how the process ended; valid after Done is closed.
func (p *Process) Exit() Exit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exit
}

// Leftovers lists what of the sandbox still exists on the machine: its
// cgroup directories and its private tmp directory. Empty once the
// process has ended and been cleaned up, which a test can check.
func (p *Process) Leftovers() []string { return p.b.leftovers() }

// Init must be called first thing in main (and in TestMain of every test
// binary that starts sandboxed processes): when the program was started
// as a sandbox's init it runs the init (package sandbox/inside) and never
// returns; otherwise it returns at once.
func Init() { runInit() }

// Start runs spec.Argv isolated at spec.Level (the strongest available by
// default). Where there is no sandbox (Sandboxed is false) it runs it at
// level None, whatever spec.Level. When ctx ends before the program has
// started (while the machine is probed, or a sandbox is built), Start
// gives up and returns an error that wraps ctx's; once started, the
// program does not depend on ctx.
func (h *Host) Start(ctx context.Context, spec Spec) (*Process, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("sandbox: empty command")
	}
	level, err := ParseLevel(string(spec.Level))
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	pr, err := h.probe(ctx)
	if err != nil {
		return nil, err
	}
	if level == Auto || !Sandboxed {
		level = pr.Level
	} else if level.rank() > pr.Level.rank() {
		return nil, fmt.Errorf("sandbox: level %s is not available here (the best is %s): run judge doctor", level, pr.Level)
	}
	if level == None {
		return startPlain(spec)
	}
	return h.startIsolated(ctx, spec, level, pr)
}

// Kill ends the process and everything it started, at once.
func (p *Process) Kill() {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	p.b.kill()
}

// Freeze stops every process of the sandbox until Thaw, so that it
// computes nothing while it is not its turn: in namespaces, the init
// stops every process of its PID namespace with SIGSTOP, each once it is
// not inside a write, which a stop would cut short (inside/stop.go);
// without them (level Basic), the cgroup v2 freezer where there is one,
// else SIGSTOP of the program's process group. It does not wait for
// every process to have stopped: on a loaded machine that may take a
// moment. Freezing an ended process does nothing.
func (p *Process) Freeze() error { return p.setFrozen(true) }

// Thaw lets a frozen process run again.
func (p *Process) Thaw() error { return p.setFrozen(false) }

func (p *Process) setFrozen(on bool) error {
	select {
	case <-p.done:
		return nil
	default:
	}
	p.mu.Lock()
	if p.frozen == on {
		p.mu.Unlock()
		return nil
	}
	p.frozen = on
	p.mu.Unlock()
	return p.b.freeze(on)
}

// sendFreeze tells an init on ctl to stop ('S') or continue ('C') every
// process of its sandbox, with SIGSTOP; the caller holds ctl's lock.
func (p *Process) sendFreeze(ctl *os.File, on bool) error {
	sig := byte('C')
	if on {
		sig = 'S'
	}
	if _, err := ctl.Write([]byte{sig}); err != nil {
		select {
		case <-p.done:
			return nil
		default:
		}
		return fmt.Errorf("sandbox: freeze: %w", err)
	}
	return nil
}

// CPUTime is the CPU time used so far by every process of the sandbox
// (from cgroup accounting when there is one, else from the program's
// process CPU clock), with at least microsecond resolution.
func (p *Process) CPUTime() (time.Duration, error) {
	select {
	case <-p.done:
		return p.Exit().CPU, nil
	default:
	}
	if d, ok := p.b.cpuTime(); ok {
		return d, nil
	}
	return processCPU(p.pid)
}

// Blocked tells what the program is waiting for when it sleeps in a
// system call: "read stdin" when one of its threads waits to read file
// descriptor 0 and its main thread is not running, or "".
func (p *Process) Blocked() string {
	return blocked(p.pid)
}

// CountsAll reports whether CPUTime counts every process of the
// sandbox, not only the program's own: a cgroup's accounting does; and
// in a reused sandbox without one (level namespaces), the last CPUTime
// did if the program was alone in its PID namespace then, with no child
// and no process adopted by its init (the children it reaped count).
func (p *Process) CountsAll() bool {
	return p.b.countsAll()
}

// finish records how the process ended and closes Done.
func (p *Process) finish(e Exit) {
	p.mu.Lock()
	e.Wall = p.wall && !e.OOM
	p.exit = e
	p.mu.Unlock()
	p.waits.Close()
	close(p.done)
}

// wallTimer kills p after d, marking the exit.
func (p *Process) wallTimer(d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	go func() {
		defer t.Stop()
		select {
		case <-t.C:
			p.mu.Lock()
			p.wall = true
			p.mu.Unlock()
			p.Kill()
		case <-p.done:
		}
	}()
}
