//go:build linux

package inside

import (
	"encoding/binary"
	"errors"
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/wire"
)

// A program is started by a vfork of a thread of the init (vfork_*.s),
// restricted as the program will be (restrictSelf: no_new_privs,
// Landlock, no capabilities, the seccomp filter), but that its filter
// allows clone3: the program starts in its cgroup, on cgroup v2 born
// there by clone3 with CLONE_INTO_CGROUP, on v1 by the child joining it
// as its first step. clone3 also clears the child's signal handlers
// (CLONE_CLEAR_SIGHAND; before Linux 5.5 the child resets them itself,
// as Go's own fork does). Before it executes the program, the child takes a
// process group of its own, its standard files, its working directory,
// the filter that refuses clone3 (noClone3: then its filters refuse what
// the program's does), and its rlimits (none of which binds the init: an
// RLIMIT_DATA or RLIMIT_NPROC would bind its Go runtime, a small
// RLIMIT_NOFILE its files), in that order. The child runs no Go code but
// system calls on values the parent prepared: it shares the init's
// memory until it executes, while the thread waits, so nothing of it is
// copied.
//
// Go's own fork and exec (syscall.ForkExec) can do none of it in the
// child; before, a restricted parent, the judge's binary run once more,
// did it (about 1.5 ms of CPU a program). A thread whose filter refused
// clone3 could not fork into a cgroup: a program joined it by moving,
// which on v2 waits for the kernel's RCU grace period. And a child that
// restricted itself whole paid for its filter's every time: the kernel
// works out the filter's result for every system call as it is added.

// The runtime's hooks around a fork, as package syscall uses them:
// signals blocked and the stack fixed while the child may run Go code,
// the signal mask and handlers set back in the child.

//go:linkname beforeFork syscall.runtime_BeforeFork
func beforeFork()

//go:linkname afterFork syscall.runtime_AfterFork
func afterFork()

//go:linkname afterForkInChild syscall.runtime_AfterForkInChild
func afterForkInChild()

// restrictions are what a forked program adds to its thread's: the
// filter that refuses clone3 (noClone3), where the thread has a filter.
type restrictions struct {
	filter []unix.SockFilter
	prog   unix.SockFprog // of filter; Len 0 for none
	// oldClone: this kernel's clone3 cannot clear the child's signal
	// handlers (before Linux 5.5), found at the first fork.
	oldClone bool
}

// restrictSelf restricts the calling thread as its programs will be, but
// for clone3 (restrictThread): a thread that forks programs, which it
// does with clone3 into their cgroup on cgroup v2. It returns what the
// programs add.
func restrictSelf(cfg *wire.Config) (*restrictions, error) {
	if err := restrictThread(cfg, dropCapabilities, stayInDir, allowClone3); err != nil {
		return nil, err
	}
	r := &restrictions{}
	if cfg.Seccomp {
		r.filter = noClone3()
		r.prog = unix.SockFprog{Len: uint16(len(r.filter)), Filter: &r.filter[0]}
	}
	return r, nil
}

// child is what a forked child does before it executes the program, all
// of it prepared by the parent. The program runs as the init's user.
type child struct {
	path       *byte
	argv, envv []*byte // nil-terminated
	dir        *byte   // nil: the parent's
	fds        [3]int  // the program's standard files, each ≥ 3
	r          *restrictions
	limits     []limit
	clone      cloneArgs // clone3's; zero for clone
	// tasks are the tasks files of the programs' cgroup on v1, one per
	// controller, which the child joins by writing zero (itself).
	tasks []int
	zero  [1]byte
	// sigmask is the thread's signal mask, which the child sets back
	// before it executes the program (the fork blocks every signal).
	sigmask uint64
	errFd   int     // the write end of a close-on-exec pipe
	fail    [8]byte // the step that failed and its errno, for the parent
}

// cloneArgs is struct clone_args, as far as its cgroup.
type cloneArgs struct {
	flags, pidfd, childTID, parentTID, exitSignal, stack, stackSize, tls, setTID, setTIDSize, cgroup uint64
}

// limit is one rlimit the child sets.
type limit struct {
	res uintptr
	lim unix.Rlimit
}

// The steps of the child, for the message of one that failed.
const (
	stepCgroup = iota + 1
	stepPgid
	stepFiles
	stepDir
	stepSeccomp
	stepLimit
	stepExec
)

// forkStart starts run as the package's comment above says, with the
// restrictions r: into the cgroup whose directory is the descriptor
// cgroup (v2; -1 for none), with the standard files fds, and the rlimits
// base, with lims in place of base's own for the same resources. It
// returns the program's pid, or why it could not start.
func forkStart(cfg *wire.Config, run wire.Run, r *restrictions, cgroup int, fds [3]int, base [][3]uint64, lims []wire.Rlimit) (int, error) {
	if cfg.Uid >= 0 {
		return 0, errors.New("a forked program runs as the init's user")
	}
	c := &child{fds: fds, r: r, tasks: cfg.RunTasks, zero: [1]byte{'0'}}
	var err error
	if c.path, err = syscall.BytePtrFromString(run.Path); err != nil {
		return 0, fmt.Errorf("exec %s: %w", run.Path, err)
	}
	if c.argv, err = syscall.SlicePtrFromStrings(run.Argv); err != nil {
		return 0, fmt.Errorf("exec %s: %w", run.Path, err)
	}
	if c.envv, err = syscall.SlicePtrFromStrings(run.Env); err != nil {
		return 0, fmt.Errorf("exec %s: %w", run.Path, err)
	}
	if run.Dir != "" {
		if c.dir, err = syscall.BytePtrFromString(run.Dir); err != nil {
			return 0, fmt.Errorf("working directory: %w", err)
		}
	}
	c.limits = mergeLimits(base, lims)
	// clone3 clears the child's signal handlers itself: the child then
	// need not set each of the init's sixty back to the default, as Go's
	// own fork does, a system call each.
	c.clone = cloneArgs{flags: unix.CLONE_VM | unix.CLONE_VFORK | unix.CLONE_CLEAR_SIGHAND, exitSignal: uint64(unix.SIGCHLD)}
	if cgroup >= 0 {
		c.clone.flags |= unix.CLONE_INTO_CGROUP
		c.clone.cgroup = uint64(cgroup)
	}
	if r.oldClone {
		c.clone.flags &^= unix.CLONE_CLEAR_SIGHAND
		if cgroup < 0 {
			c.clone = cloneArgs{}
		}
	}
	// What Go's fork restores in the child: the thread's mask.
	if _, _, e := syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_BLOCK, 0, uintptr(unsafe.Pointer(&c.sigmask)), 8, 0, 0); e != 0 {
		return 0, fmt.Errorf("signal mask: %w", e)
	}
	for i, fd := range c.fds {
		if fd < 3 {
			// Above the three it is put on, so that no file is put on
			// another before it is taken.
			d, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 3)
			if err != nil {
				return 0, fmt.Errorf("standard files: %w", err)
			}
			defer unix.Close(d)
			c.fds[i] = d
		}
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return 0, fmt.Errorf("exec %s: %w", run.Path, err)
	}
	c.errFd = p[1]

	syscall.ForkLock.Lock()
	beforeFork()
	pid, errno := c.fork()
	afterFork()
	if errno == unix.EINVAL && c.clone.flags&unix.CLONE_CLEAR_SIGHAND != 0 {
		// Before Linux 5.5: the child clears them itself, from now on.
		r.oldClone = true
		c.clone.flags &^= unix.CLONE_CLEAR_SIGHAND
		if cgroup < 0 {
			c.clone = cloneArgs{}
		}
		beforeFork()
		pid, errno = c.fork()
		afterFork()
	}
	syscall.ForkLock.Unlock()
	unix.Close(p[1])
	if errno != 0 {
		unix.Close(p[0])
		return 0, fmt.Errorf("fork: %w", errno)
	}
	var msg [8]byte
	n, _ := readFull(p[0], msg[:])
	unix.Close(p[0])
	if n == 0 {
		return pid, nil // executed: the pipe closed on exec
	}
	var ws unix.WaitStatus
	_, _ = unix.Wait4(pid, &ws, 0, nil)
	return 0, stepError(run, binary.LittleEndian.Uint32(msg[:4]), syscall.Errno(binary.LittleEndian.Uint32(msg[4:])))
}

// mergeLimits is the rlimits a forked child sets: every limit of base
// (the init's, as the judge gave them), with the program's own, lims, in
// place of the base's of the same resources.
func mergeLimits(base [][3]uint64, lims []wire.Rlimit) []limit {
	out := make([]limit, 0, len(base)+len(lims))
	for _, b := range base {
		out = append(out, limit{uintptr(b[0]), unix.Rlimit{Cur: b[1], Max: b[2]}})
	}
	for _, l := range lims {
		lim := limit{uintptr(l.Resource), unix.Rlimit{Cur: l.Value, Max: l.Value}}
		i := 0
		for i < len(out) && out[i].res != lim.res {
			i++
		}
		if i < len(out) {
			out[i] = lim
		} else {
			out = append(out, lim)
		}
	}
	return out
}

// stepError says which step of run's start failed, and why.
func stepError(run wire.Run, step uint32, e syscall.Errno) error {
	name := "starting"
	switch step {
	case stepCgroup:
		name = "joining the programs' cgroup"
	case stepPgid:
		name = "setpgid"
	case stepFiles:
		name = "standard files"
	case stepDir:
		name = "working directory " + run.Dir
	case stepSeccomp:
		name = "seccomp"
	case stepLimit:
		name = "setrlimit"
	case stepExec:
		name = "exec " + run.Path
	}
	return fmt.Errorf("%s: %w", name, e)
}

// readFull reads into b until it is full or the file ends.
func readFull(fd int, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := unix.Read(fd, b[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil || m == 0 {
			return n, err
		}
		n += m
	}
	return n, nil
}

// fork forks the calling thread; the child does what c says and executes
// the program, and never returns. The parent gets the child's pid.
//
// Between the fork and the exec the child may run only what cannot grow
// the stack or reach the runtime: system calls, and fields of c. It runs
// on the parent's stack (vfork), below this function's frame, which the
// parent leaves at once: the parent uses nothing of it after the call
// but what the call returns.
//
//go:norace
//go:nosplit
func (c *child) fork() (int, syscall.Errno) {
	var pid, e uintptr
	if c.clone.flags != 0 {
		pid, e = vfork(unix.SYS_CLONE3, uintptr(unsafe.Pointer(&c.clone)), unsafe.Sizeof(c.clone))
	} else {
		pid, e = vfork(unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_VFORK|uintptr(unix.SIGCHLD), 0)
	}
	if e != 0 || pid != 0 {
		return int(pid), syscall.Errno(e)
	}
	c.run()
	return 0, 0 // not reached
}

// run is the child's life: it never returns.
//
//go:norace
//go:nosplit
func (c *child) run() {
	if c.clone.flags&unix.CLONE_CLEAR_SIGHAND != 0 {
		// The kernel cleared the handlers: no signal can reach the
		// init's Go code in the child, and the signals may come.
		syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&c.sigmask)), 0, 8, 0, 0)
	} else {
		afterForkInChild()
	}
	step, e := c.prepare()
	if e == 0 {
		step = stepExec
		_, _, e = syscall.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(c.path)),
			uintptr(unsafe.Pointer(&c.argv[0])), uintptr(unsafe.Pointer(&c.envv[0])))
	}
	c.fail[0], c.fail[4] = byte(step), byte(e)
	c.fail[5] = byte(e >> 8)
	syscall.RawSyscall(unix.SYS_WRITE, uintptr(c.errFd), uintptr(unsafe.Pointer(&c.fail[0])), uintptr(len(c.fail)))
	for {
		syscall.RawSyscall(unix.SYS_EXIT_GROUP, 253, 0, 0)
	}
}

// prepare is the child's part before the exec; it returns the step that
// failed and why, or 0.
//
//go:norace
//go:nosplit
func (c *child) prepare() (int, syscall.Errno) {
	var e syscall.Errno
	for _, fd := range c.tasks {
		if _, _, e = syscall.RawSyscall6(unix.SYS_PWRITE64, uintptr(fd), uintptr(unsafe.Pointer(&c.zero[0])), 1, 0, 0, 0); e != 0 {
			return stepCgroup, e
		}
	}
	if _, _, e = syscall.RawSyscall(unix.SYS_SETPGID, 0, 0, 0); e != 0 {
		return stepPgid, e
	}
	for i := 0; i < 3; i++ {
		if _, _, e = syscall.RawSyscall(unix.SYS_DUP3, uintptr(c.fds[i]), uintptr(i), 0); e != 0 {
			return stepFiles, e
		}
	}
	r := c.r
	if c.dir != nil {
		if _, _, e = syscall.RawSyscall(unix.SYS_CHDIR, uintptr(unsafe.Pointer(c.dir)), 0, 0); e != 0 {
			return stepDir, e
		}
	}
	if r.prog.Len > 0 {
		if _, _, e = syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&r.prog)), 0, 0, 0); e != 0 {
			return stepSeccomp, e
		}
	}
	// Last, so that they bind nothing but the program.
	for i := range c.limits {
		if _, _, e = syscall.RawSyscall6(unix.SYS_PRLIMIT64, 0, c.limits[i].res, uintptr(unsafe.Pointer(&c.limits[i].lim)), 0, 0, 0); e != 0 {
			return stepLimit, e
		}
	}
	return 0, 0
}
