//go:build linux

package inside

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/wire"
)

// runExec is the program's restricted parent: it applies rlimits,
// no_new_privs, Landlock, drops every capability, installs the seccomp
// filter and execs the program, all in one thread.
func runExec() {
	runtime.LockOSThread()
	errPipe := os.NewFile(4, "error")
	unix.CloseOnExec(3)
	unix.CloseOnExec(4)
	fail := func(err error) {
		_, _ = errPipe.WriteString(err.Error())
		os.Exit(127)
	}
	cfg, err := wire.ReadConfig(os.NewFile(3, "config"))
	if err != nil {
		fail(err)
	}
	caps := keepCapabilities
	if cfg.Mode == wire.ModeInit {
		caps = dropCapabilities
	}
	if err := restrictThread(cfg, caps, enterDir, refuseClone3); err != nil {
		fail(err)
	}
	// Last, so that the rlimits bind the Go runtime as little as can be:
	// everything exec needs is made first, and from the first setrlimit to
	// the exec nothing is allocated and no collection runs. (A runtime
	// that grew its heap past a low RLIMIT_DATA in that window would die
	// of "out of memory", as a race-enabled test binary did under load.)
	path, err := syscall.BytePtrFromString(cfg.Path)
	if err != nil {
		fail(fmt.Errorf("exec %s: %w", cfg.Path, err))
	}
	argv, err := syscall.SlicePtrFromStrings(cfg.Argv)
	if err != nil {
		fail(fmt.Errorf("exec %s: %w", cfg.Path, err))
	}
	envv, err := syscall.SlicePtrFromStrings(cfg.Env)
	if err != nil {
		fail(fmt.Errorf("exec %s: %w", cfg.Path, err))
	}
	res := make([]int, 0, len(cfg.Base)+len(cfg.Rlimits))
	lims := make([]unix.Rlimit, 0, cap(res))
	for _, b := range cfg.Base {
		res = append(res, int(b[0]))
		lims = append(lims, unix.Rlimit{Cur: b[1], Max: b[2]})
	}
	for _, r := range cfg.Rlimits {
		res = append(res, r.Resource)
		lims = append(lims, unix.Rlimit{Cur: r.Value, Max: r.Value})
	}
	debug.SetGCPercent(-1)
	for i, r := range res {
		_, _, e := unix.RawSyscall(unix.SYS_SETRLIMIT, uintptr(r), uintptr(unsafe.Pointer(&lims[i])), 0)
		if e != 0 {
			fail(fmt.Errorf("setrlimit %d: %w", r, e))
		}
	}
	_, _, e := unix.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(path)),
		uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])))
	fail(fmt.Errorf("exec %s: %w", cfg.Path, e))
}

// dropCaps leaves the thread with no capabilities, now or after exec, even
// as root of its user namespace.
func dropCaps() error {
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return err
		}
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	const secbits = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<5 // NOROOT, NO_SETUID_FIXUP, KEEP_CAPS off, all locked
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, secbits, 0, 0, 0); err != nil {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	return unix.Capset(&hdr, &data[0])
}

// capabilities says whether restrictThread drops the thread's
// capabilities (those of its user namespace: it has none outside).
type capabilities bool

const (
	keepCapabilities capabilities = false
	dropCapabilities capabilities = true
)

// workDir says whether restrictThread enters the program's working
// directory (cfg.Dir).
type workDir bool

const (
	stayInDir workDir = false
	enterDir  workDir = true
)

// restrictThread restricts the calling thread, and what it forks or
// execs: no_new_privs, Landlock as cfg says, no capabilities (caps),
// the working directory cfg.Dir (dir) and the seccomp filter as cfg
// says, clone3 refused or not, in that order.
func restrictThread(cfg *wire.Config, caps capabilities, dir workDir, clone3 clone3Rule) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if cfg.Landlock > 0 {
		if err := applyLandlock(cfg.Landlock, cfg.RO, cfg.RW, devPaths(cfg.Basic), cfg.Proc); err != nil {
			return fmt.Errorf("landlock: %w", err)
		}
	}
	if caps == dropCapabilities {
		if err := dropCaps(); err != nil {
			return fmt.Errorf("dropping capabilities: %w", err)
		}
	}
	if dir == enterDir {
		if err := os.Chdir(cfg.Dir); err != nil {
			return fmt.Errorf("working directory: %w", err)
		}
	}
	if cfg.Seccomp {
		// Below Landlock ABI 6, the signals its scope would keep in.
		if err := installFilter(cfg.Basic, cfg.Landlock < 6, clone3); err != nil {
			return fmt.Errorf("seccomp: %w", err)
		}
	}
	return nil
}
