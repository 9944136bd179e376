//go:build linux

package inside

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSignalRules: with the rules for kernels without Landlock's signal
// scope, a thread cannot signal pid 1 (its sandbox's init, inside one)
// by any call that names it, nor a thread by tkill, nor through a pidfd;
// it still signals its own process. Signal 0: nothing is sent.
func TestSignalRules(t *testing.T) {
	type result struct {
		name string
		err  error
	}
	ch := make(chan []result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		var rs []result
		add := func(name string, err error) { rs = append(rs, result{name, err}) }
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			add("no_new_privs", err)
			ch <- rs
			return
		}
		if err := installFilter(false, true, refuseClone3); err != nil {
			add("seccomp", err)
			ch <- rs
			return
		}
		add("kill 1", unix.Kill(1, 0))
		add("tgkill 1", unix.Tgkill(1, 1, 0))
		_, _, e := unix.RawSyscall(unix.SYS_TKILL, uintptr(unix.Gettid()), 0, 0)
		add("tkill", errnoErr(e))
		fd, _, e := unix.RawSyscall(unix.SYS_PIDFD_OPEN, 1, 0, 0)
		if e == 0 {
			unix.Close(int(fd))
		}
		add("pidfd_open 1", errnoErr(e))
		_, _, e = unix.RawSyscall6(unix.SYS_PIDFD_SEND_SIGNAL, 0, 0, 0, 0, 0, 0)
		add("pidfd_send_signal", errnoErr(e))
		add("kill self", unix.Kill(unix.Getpid(), 0))
		ch <- rs
	}()
	for _, r := range <-ch {
		want := unix.EPERM
		if r.name == "kill self" {
			want = 0
		}
		if r.name == "no_new_privs" || r.name == "seccomp" {
			t.Skipf("%s: %v", r.name, r.err)
		}
		if want == 0 && r.err != nil || want != 0 && r.err != want {
			t.Errorf("%s: %v, want %v", r.name, r.err, want)
		}
	}
}

func errnoErr(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}
