//go:build linux

package sandbox

import (
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/wire"
)

// plainProc is a program run with no sandbox: a process group and rlimits.
type plainProc struct {
	p   *Process
	cmd *exec.Cmd
	pid int
}

// startPlain runs spec.Argv in a process group of its own, at level None.
func startPlain(spec Spec) (*Process, error) {
	cmd, err := plainCmd(spec, &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL})
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sandbox: start %s: %w", spec.Argv[0], err)
	}
	pp := &plainProc{cmd: cmd, pid: cmd.Process.Pid}
	p := &Process{pid: pp.pid, level: None, desc: describe(None, nil, nil), done: make(chan struct{}), b: pp}
	pp.p = p
	// The child runs a few instructions before these apply.
	for _, r := range rlimitsFor(spec.Limits, false, false) {
		lim := unix.Rlimit{Cur: r.Value, Max: r.Value}
		if err := unix.Prlimit(pp.pid, r.Resource, &lim, nil); err != nil {
			pp.kill()
			_ = cmd.Wait()
			return nil, fmt.Errorf("sandbox: prlimit: %w", err)
		}
	}
	go pp.wait()
	p.wallTimer(spec.Limits.Wall)
	return p, nil
}

func (pp *plainProc) wait() {
	p := pp.p
	w := waitCmd(pp.cmd)
	e := Exit{Code: -1}
	if w.ok {
		e.Code, e.Signal = fromWaitStatus(w.status)
		e.CPU = w.cpu
		e.MaxRSS = w.maxRSS
	}
	// The group may still hold children that left; end them too.
	_ = unix.Kill(-p.pid, unix.SIGKILL)
	p.finish(e)
}

// fromWaitStatus splits a wait status into an exit code (-1 when killed)
// and a signal.
func fromWaitStatus(ws syscall.WaitStatus) (int, syscall.Signal) {
	if ws.Signaled() {
		return -1, ws.Signal()
	}
	return ws.ExitStatus(), 0
}

// rlimitsFor lists the rlimits that enforce l. With cgroups for memory
// or processes, those are left to the cgroup; RLIMIT_NPROC only makes
// sense in a user namespace of its own (it counts every process of the
// user).
func rlimitsFor(l Limits, cgMemory, nprocOK bool) []wire.Rlimit {
	rs := []wire.Rlimit{{Resource: unix.RLIMIT_CORE, Value: 0}}
	if l.Memory > 0 && !cgMemory {
		// Never RLIMIT_AS: Java and Go reserve far more address space
		// than they use.
		rs = append(rs, wire.Rlimit{Resource: unix.RLIMIT_DATA, Value: uint64(l.Memory)})
	}
	if l.Procs > 0 && nprocOK {
		rs = append(rs, wire.Rlimit{Resource: unix.RLIMIT_NPROC, Value: uint64(l.Procs)})
	}
	if l.FileSize > 0 {
		rs = append(rs, wire.Rlimit{Resource: unix.RLIMIT_FSIZE, Value: uint64(l.FileSize)})
	}
	if l.OpenFiles > 0 {
		rs = append(rs, wire.Rlimit{Resource: unix.RLIMIT_NOFILE, Value: uint64(l.OpenFiles)})
	}
	return rs
}

func (pp *plainProc) cpuTime() (time.Duration, bool) { return 0, false }

func (pp *plainProc) countsAll() bool { return false }

func (pp *plainProc) pids() []int { return append([]int{pp.pid}, descendants(pp.pid)...) }

func (pp *plainProc) leftovers() []string { return nil }
