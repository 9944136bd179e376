package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// plainDoes is what level None does on macOS.
const plainDoes = "a process group, killed whole; no limits but the wall-clock one"

// ptyCheck is the pseudo-terminal line of judge doctor.
var ptyCheck = Check{Name: "pty", Active: true, Detail: "bots write to a pseudo-terminal, so that C and Python flush every line"}

// plainProc is a program run with no sandbox: a process group of its own.
type plainProc struct {
	p   *Process
	cmd *exec.Cmd
	pid int
}

// startPlain runs spec.Argv in a process group of its own, at level None.
// macOS cannot set another process's rlimits: of spec.Limits only Wall
// binds.
func startPlain(spec Spec) (*Process, error) {
	cmd, err := plainCmd(spec, &syscall.SysProcAttr{Setpgid: true})
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sandbox: start %s: %w", spec.Argv[0], err)
	}
	pp := &plainProc{cmd: cmd, pid: cmd.Process.Pid}
	p := &Process{pid: pp.pid, level: None, desc: noneSummary, done: make(chan struct{}), b: pp}
	pp.p = p
	go pp.wait()
	p.wallTimer(spec.Limits.Wall)
	return p, nil
}

func (pp *plainProc) wait() {
	_ = pp.cmd.Wait()
	e := Exit{Code: -1}
	if ps := pp.cmd.ProcessState; ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
			if ws.Signaled() {
				e.Signal = ws.Signal()
			} else {
				e.Code = ws.ExitStatus()
			}
		}
		e.CPU = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			e.MaxRSS = ru.Maxrss // bytes, on macOS
		}
	}
	// The group may still hold children that left; end them too.
	_ = unix.Kill(-pp.pid, unix.SIGKILL)
	pp.p.finish(e)
}

func (pp *plainProc) cpuTime() (time.Duration, bool) { return 0, false }

func (pp *plainProc) countsAll() bool { return false }

func (pp *plainProc) pids() []int { return []int{pp.pid} }

func (pp *plainProc) leftovers() []string { return nil }

// signalName is the name of sig ("SIGSEGV"), or "".
func signalName(sig syscall.Signal) string { return unix.SignalName(sig) }

// processCPU is the CPU time of a running process: macOS has no way to
// read another process's without privileges, and the judge's clock uses
// wall time instead.
func processCPU(int) (time.Duration, error) {
	return 0, errors.New("sandbox: a running program's CPU time is not measured on macOS")
}
