// Package sandbox starts untrusted programs, measures what they use and
// stops them: a whole process tree, never a stray child left behind. It
// knows nothing of games or protocols.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Spec says what to run and how.
type Spec struct {
	Argv []string // Argv[0] is looked up in PATH when it has no slash
	Dir  string   // working directory; empty for the current one
	Env  []string // the whole environment, nothing inherited

	// The child's standard files. Nil means /dev/null.
	Stdin, Stdout, Stderr *os.File

	Limits Limits
}

// Limits bound what a process may use. Zero means no limit.
type Limits struct {
	Memory    int64 // bytes of memory
	Procs     int   // processes and threads
	FileSize  int64 // bytes in one written file
	OpenFiles int   // open file descriptors
}

// Process is a started program and its process group.
type Process struct {
	cmd  *exec.Cmd
	pid  int
	done chan struct{}

	mu   sync.Mutex
	exit Exit
}

// Exit is how a process ended.
type Exit struct {
	Code   int            // exit code when it exited by itself, else -1
	Signal syscall.Signal // the signal that killed it, when one did
	CPU    time.Duration  // user + system time of the process and its waited-for children
	MaxRSS int64          // peak resident memory, bytes
}

// Signaled reports whether a signal ended the process.
func (e Exit) Signaled() bool { return e.Signal != 0 }

// String describes the exit for a person: "exit code 3",
// "killed by SIGSEGV (segmentation fault)".
func (e Exit) String() string {
	if e.Signaled() {
		return fmt.Sprintf("killed by %s (%s)", unix.SignalName(e.Signal), e.Signal)
	}
	return fmt.Sprintf("exit code %d", e.Code)
}

// Start runs spec.Argv in a process group of its own.
func Start(spec Spec) (*Process, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("sandbox: empty command")
	}
	path, err := exec.LookPath(spec.Argv[0])
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd := &exec.Cmd{
		Path:   path,
		Args:   spec.Argv,
		Dir:    spec.Dir,
		Env:    spec.Env,
		Stdin:  spec.Stdin,
		Stdout: spec.Stdout,
		Stderr: spec.Stderr,
		SysProcAttr: &syscall.SysProcAttr{
			Setpgid:   true,
			Pdeathsig: syscall.SIGKILL,
		},
	}
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sandbox: start %s: %w", spec.Argv[0], err)
	}
	p := &Process{cmd: cmd, pid: cmd.Process.Pid, done: make(chan struct{})}
	if err := applyRlimits(p.pid, spec.Limits); err != nil {
		p.Kill()
		<-p.Done()
		return nil, err
	}
	go p.wait()
	return p, nil
}

// applyRlimits sets the limits that rlimits can express on a started
// process. (The child runs a few instructions before they apply.)
func applyRlimits(pid int, l Limits) error {
	set := func(res int, v uint64) error {
		if err := unix.Prlimit(pid, res, &unix.Rlimit{Cur: v, Max: v}, nil); err != nil {
			return fmt.Errorf("sandbox: prlimit: %w", err)
		}
		return nil
	}
	if l.Memory > 0 {
		if err := set(unix.RLIMIT_DATA, uint64(l.Memory)); err != nil {
			return err
		}
	}
	if l.FileSize > 0 {
		if err := set(unix.RLIMIT_FSIZE, uint64(l.FileSize)); err != nil {
			return err
		}
	}
	if l.OpenFiles > 0 {
		if err := set(unix.RLIMIT_NOFILE, uint64(l.OpenFiles)); err != nil {
			return err
		}
	}
	return nil
}

func (p *Process) wait() {
	err := p.cmd.Wait()
	e := Exit{Code: -1}
	if ps := p.cmd.ProcessState; ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
			if ws.Signaled() {
				e.Signal = ws.Signal()
			} else {
				e.Code = ws.ExitStatus()
			}
		}
		e.CPU = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			e.MaxRSS = ru.Maxrss * 1024
		}
	} else if err != nil {
		e.Code = -1
	}
	// The group may still hold children that left; end them too.
	_ = unix.Kill(-p.pid, unix.SIGKILL)
	p.mu.Lock()
	p.exit = e
	p.mu.Unlock()
	close(p.done)
}

// Pid is the process id of the started program.
func (p *Process) Pid() int { return p.pid }

// Done is closed once the process has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit returns how the process ended; valid after Done is closed.
func (p *Process) Exit() Exit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exit
}

// Kill ends the whole process group at once.
func (p *Process) Kill() {
	_ = unix.Kill(-p.pid, unix.SIGKILL)
	_ = unix.Kill(p.pid, unix.SIGKILL)
}

// CPUTime is the CPU time the process (all its threads) has used so far,
// read from its process CPU clock with nanosecond resolution.
func (p *Process) CPUTime() (time.Duration, error) {
	select {
	case <-p.done:
		return p.Exit().CPU, nil
	default:
	}
	var ts unix.Timespec
	clock := int32((^p.pid)<<3 | 2) // MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)
	if err := unix.ClockGettime(clock, &ts); err != nil {
		return 0, fmt.Errorf("sandbox: cpu clock of %d: %w", p.pid, err)
	}
	return time.Duration(ts.Nano()), nil
}

// Blocked tells what the process is waiting for when it sleeps in a
// system call: "read stdin" when it waits to read file descriptor 0, or "".
func (p *Process) Blocked() string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/syscall", p.pid))
	if err != nil {
		return ""
	}
	var nr, fd uint64
	if _, err := fmt.Sscanf(string(b), "%d 0x%x", &nr, &fd); err != nil {
		return ""
	}
	if nr == unix.SYS_READ && fd == 0 {
		return "read stdin"
	}
	return ""
}
