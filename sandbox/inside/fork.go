//go:build linux

package inside

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/wire"
)

// A program is started by a fork of the init's calling thread, already
// restricted (restrictThread), whose child does what is the program's
// alone and executes it: it joins the programs' cgroup (v2), takes a
// process group of its own, its standard files, its working directory
// and its rlimits (none binds the init: an RLIMIT_DATA or RLIMIT_NPROC
// would bind its Go runtime, a small RLIMIT_NOFILE its files). The child
// runs no Go code but system calls made
// from what the parent prepared: everything it uses is allocated
// before the fork. It is a vfork (vfork_*.s): the child shares the
// init's memory until its exec, so that nothing of it is copied.
//
// Go's own fork and exec (syscall.ForkExec) can do none of it in the
// child; before, a restricted parent, the judge's binary run once more,
// did it, which took a Go runtime's start (about 1.5 ms of CPU) per
// program.

// The runtime's hooks around a fork, as package syscall uses them:
// signals blocked and the stack fixed while the child may run Go code,
// the signal mask and handlers set back in the child.

//go:linkname beforeFork syscall.runtime_BeforeFork
func beforeFork()

//go:linkname afterFork syscall.runtime_AfterFork
func afterFork()

//go:linkname afterForkInChild syscall.runtime_AfterForkInChild
func afterForkInChild()

// child is what a forked child does before it executes the program, all
// of it prepared by the parent. The program runs as the init's user.
type child struct {
	path       *byte
	argv, envv []*byte // nil-terminated
	dir        *byte   // nil: the parent's
	fds        [3]int  // the program's standard files, each ≥ 3
	procs      int     // cgroup.procs of the programs' cgroup (v2), or -1
	limits     []limit
	errFd      int // the write end of a close-on-exec pipe
	zero       [1]byte
	fail       [8]byte // the step that failed and its errno, for the parent
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
	stepLimit
	stepExec
)

var stepNames = [...]string{
	stepCgroup: "joining the programs' cgroup",
	stepPgid:   "setpgid",
	stepFiles:  "standard files",
	stepDir:    "working directory",
	stepLimit:  "setrlimit",
	stepExec:   "exec",
}

// forkStart is the run of a program, forked from the calling thread as
// the package's comment above says. procs is the cgroup.procs file of
// the programs' cgroup (-1: none), fds the program's standard files, and
// base and lims its rlimits, set in that order. It returns the program's
// pid, or why it could not start.
func forkStart(cfg *wire.Config, run wire.Run, fds [3]int, procs int, base [][3]uint64, lims []wire.Rlimit) (int, error) {
	c := &child{fds: fds, procs: procs}
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
	if cfg.Uid >= 0 {
		return 0, errors.New("a forked program runs as the init's user")
	}
	for _, b := range base {
		c.limits = append(c.limits, limit{uintptr(b[0]), unix.Rlimit{Cur: b[1], Max: b[2]}})
	}
	for _, r := range lims {
		c.limits = append(c.limits, limit{uintptr(r.Resource), unix.Rlimit{Cur: r.Value, Max: r.Value}})
	}
	c.zero[0] = '0'
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
	step := binary.LittleEndian.Uint32(msg[:4])
	e := syscall.Errno(binary.LittleEndian.Uint32(msg[4:]))
	name := "starting"
	if int(step) < len(stepNames) && stepNames[step] != "" {
		name = stepNames[step]
	}
	switch step {
	case stepExec:
		name = "exec " + run.Path
	case stepDir:
		name = "working directory " + run.Dir
	}
	return 0, fmt.Errorf("%s: %w", name, e)
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
	pid, e := vfork(unix.SYS_CLONE, cloneFlags)
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
	afterForkInChild()
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
	if c.procs >= 0 {
		// A write to a file the init opened: the kernel checks the
		// opener's rights.
		if _, _, e = syscall.RawSyscall6(unix.SYS_PWRITE64, uintptr(c.procs), uintptr(unsafe.Pointer(&c.zero[0])), 1, 0, 0, 0); e != 0 {
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
	if c.dir != nil {
		if _, _, e = syscall.RawSyscall(unix.SYS_CHDIR, uintptr(unsafe.Pointer(c.dir)), 0, 0); e != 0 {
			return stepDir, e
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

// openProcs opens the cgroup.procs file of the programs' cgroup, a
// directory the init was given (cfg.RunCgroup, cgroup v2), for a forked
// child to join it by a write; -1 when there is none.
func openProcs(cfg *wire.Config) (int, error) {
	if cfg.RunCgroup <= 0 {
		return -1, nil
	}
	fd, err := unix.Openat(cfg.RunCgroup, "cgroup.procs", unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("the programs' cgroup: %w", os.NewSyscallError("open", err))
	}
	return fd, nil
}
