//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// waited is how a started command ended.
type waited struct {
	status syscall.WaitStatus
	cpu    time.Duration // user + system
	maxRSS int64         // bytes
	ok     bool          // the fields are known
}

// waitCmd waits for cmd's process to end and reaps it, without keeping a
// thread in a blocking wait: it waits for the process's pidfd to become
// readable in the runtime's poller. exec.Cmd.Wait blocks in waitid, and a
// goroutine blocked in a system call keeps its P until the scheduler's
// monitor takes it back, up to 10 ms later: with a bot or two per match
// and GOMAXPROCS = 2, the judge's own goroutines then stall.
func waitCmd(cmd *exec.Cmd) waited {
	pid := cmd.Process.Pid
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return waitBlocking(cmd)
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return waitBlocking(cmd)
	}
	var (
		w    waited
		ws   unix.WaitStatus
		ru   unix.Rusage
		werr error
	)
	err = rc.Read(func(uintptr) bool {
		got, err := unix.Wait4(pid, &ws, unix.WNOHANG, &ru)
		switch {
		case err == unix.EINTR:
			return false
		case err != nil:
			werr = err
			return true
		}
		return got == pid
	})
	if err != nil || werr != nil {
		return waitBlocking(cmd)
	}
	w.status = syscall.WaitStatus(ws)
	w.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	w.maxRSS = ru.Maxrss * 1024
	w.ok = true
	return w
}

// waitBlocking is waitCmd for kernels without pidfds.
func waitBlocking(cmd *exec.Cmd) waited {
	_ = cmd.Wait()
	ps := cmd.ProcessState
	if ps == nil {
		return waited{}
	}
	w := waited{ok: true, cpu: ps.UserTime() + ps.SystemTime()}
	w.status, _ = ps.Sys().(syscall.WaitStatus)
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		w.maxRSS = ru.Maxrss * 1024
	}
	return w
}
