//go:build linux

package inside

import (
	"errors"
	"unsafe"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
)

// The seccomp filter denies what a program playing a game never needs and
// what most kernel exploits start with: sockets other than AF_UNIX,
// ptrace and reading other processes' memory, keyrings, io_uring, BPF,
// perf, userfaultfd, mounts, new namespaces, module and kexec loading,
// clock setting, and the TIOCSTI and TIOCLINUX ioctls that push input
// into a terminal. And a program may change only itself, not another
// process of the same user (the init that starts the next program of a
// reused sandbox, or at level basic the judge and other bots): setting
// resource limits (prlimit64 with a pid other than 0 and a new limit),
// the nice value (setpriority of another process, of another process
// group or of a whole user), the scheduling policy and CPU affinity
// (sched_set* with a pid other than 0), the I/O priority (ioprio_set
// likewise) and NUMA placement (migrate_pages, move_pages) are refused
// with EPERM. A process changes its own calling thread with pid 0, as
// setrlimit, nice and sched_setaffinity(0, ...) do; another of its own
// threads, by its id, it cannot (pthread_setaffinity_np of another
// thread fails). Everything else is allowed.
//
// At level basic, where programs share the host's namespaces, the filter
// also refuses what Landlock scopes only from ABI 6, or not at all:
// connect and bind, and unix sockets of a type that could send to an
// address (datagrams), so that no abstract or named unix socket of
// another's is reached (stream and seqpacket sockets made in pairs are
// left); kill of a process group or of every process (a negative pid:
// kill(-1, ...) would reach every process of the user, other bots and
// the judge); and truncate by a path, which Landlock checks only from
// ABI 3. A process of the user named by its pid is still reachable
// below ABI 6.

const (
	bpfLd   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfJge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	bpfJset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	bpfAnd  = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	bpfRet  = unix.BPF_RET | unix.BPF_K

	retAllow = unix.SECCOMP_RET_ALLOW
	retKill  = unix.SECCOMP_RET_KILL_PROCESS

	offNr   = 0
	offArch = 4
)

func retErrno(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }

func argLow(i int) uint32  { return uint32(16 + 8*i) } // little-endian low half
func argHigh(i int) uint32 { return uint32(20 + 8*i) }

// nsFlags are the clone flags that make new namespaces.
const nsFlags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// signalRules keep a program's signals from its sandbox's init where
// Landlock cannot (below ABI 6): signals to pid 1 (kill, tgkill,
// rt_sigqueueinfo, rt_tgsigqueueinfo, pidfd_open of pid 1) are refused,
// and so are tkill, which names a thread alone, and pidfd_send_signal,
// which takes a /proc/PID directory too (Go's runtime then uses kill).
func signalRules(st func(uint16, uint32, uint8, uint8) unix.SockFilter) []unix.SockFilter {
	f := []unix.SockFilter{
		st(bpfJeq, unix.SYS_TKILL, 1, 0),
		st(bpfJeq, unix.SYS_PIDFD_SEND_SIGNAL, 0, 1),
		st(bpfRet, retErrno(unix.EPERM), 0, 0),
	}
	for _, nr := range []uint32{unix.SYS_KILL, unix.SYS_TGKILL, unix.SYS_RT_SIGQUEUEINFO, unix.SYS_RT_TGSIGQUEUEINFO, unix.SYS_PIDFD_OPEN} {
		f = append(f,
			st(bpfJeq, nr, 0, 4),
			st(bpfLd, argLow(0), 0, 0),
			st(bpfJeq, 1, 0, 1),
			st(bpfRet, retErrno(unix.EPERM), 0, 0),
			st(bpfLd, offNr, 0, 0))
	}
	return f
}

// clone3Rule says whether a filter refuses clone3 (the program's), or
// leaves it to a filter that a program adds to it (a thread that forks
// programs into their cgroup with clone3: noClone3).
type clone3Rule bool

const (
	refuseClone3 clone3Rule = false
	allowClone3  clone3Rule = true
)

// seccompFilter builds the filter for this architecture; basic adds the
// rules of level basic, signals those of signalRules; clone3 says
// whether it refuses clone3.
func seccompFilter(basic, signals bool, clone3 clone3Rule) ([]unix.SockFilter, error) {
	if kernel.AuditArch == 0 {
		return nil, errors.New("no seccomp filter for this architecture")
	}
	st := func(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
	}
	f := []unix.SockFilter{
		st(bpfLd, offArch, 0, 0),
		st(bpfJeq, kernel.AuditArch, 1, 0),
		st(bpfRet, retKill, 0, 0),
		st(bpfLd, offNr, 0, 0),
	}
	if kernel.X32Bit != 0 {
		f = append(f, st(bpfJge, kernel.X32Bit, 0, 1), st(bpfRet, retErrno(unix.ENOSYS), 0, 0))
	}
	if signals {
		f = append(f, signalRules(st)...)
	}
	if basic {
		f = append(f,
			// truncate: by a path, which Landlock checks only from ABI 3
			// (ftruncate of a file opened for writing is left).
			st(bpfJeq, unix.SYS_TRUNCATE, 0, 1),
			st(bpfRet, retErrno(unix.EPERM), 0, 0),
			// kill: no process group, not every process.
			st(bpfJeq, unix.SYS_KILL, 0, 4),
			st(bpfLd, argLow(0), 0, 0),
			st(bpfJset, 0x80000000, 0, 1),
			st(bpfRet, retErrno(unix.EPERM), 0, 0),
			st(bpfRet, retAllow, 0, 0),
			// connect, bind: refused.
			st(bpfJeq, unix.SYS_CONNECT, 1, 0),
			st(bpfJeq, unix.SYS_BIND, 0, 1),
			st(bpfRet, retErrno(unix.EPERM), 0, 0),
			// socket, socketpair: of type stream or seqpacket only (the
			// other families are refused below).
			st(bpfJeq, unix.SYS_SOCKET, 1, 0),
			st(bpfJeq, unix.SYS_SOCKETPAIR, 0, 5),
			st(bpfLd, argLow(1), 0, 0),
			st(bpfAnd, sockTypeMask, 0, 0),
			st(bpfJeq, unix.SOCK_STREAM, 2, 0),
			st(bpfJeq, unix.SOCK_SEQPACKET, 1, 0),
			st(bpfRet, retErrno(unix.EPERM), 0, 0),
			st(bpfLd, offNr, 0, 0),
		)
	}
	for _, nr := range deniedSyscalls {
		f = append(f, st(bpfJeq, uint32(nr), 0, 1), st(bpfRet, retErrno(unix.EPERM), 0, 0))
	}
	if clone3 == refuseClone3 {
		f = append(f, noClone3()[1:3]...) // the number is loaded
	}
	f = append(f,
		// socket: AF_UNIX only.
		st(bpfJeq, unix.SYS_SOCKET, 0, 4),
		st(bpfLd, argLow(0), 0, 0),
		st(bpfJeq, unix.AF_UNIX, 0, 1),
		st(bpfRet, retAllow, 0, 0),
		st(bpfRet, retErrno(unix.EAFNOSUPPORT), 0, 0),
		// clone: no new namespaces.
		st(bpfJeq, unix.SYS_CLONE, 0, 4),
		st(bpfLd, argLow(0), 0, 0),
		st(bpfJset, nsFlags, 0, 1),
		st(bpfRet, retErrno(unix.EPERM), 0, 0),
		st(bpfRet, retAllow, 0, 0),
		// prlimit64: reading any process's limits, setting the caller's
		// own (pid 0, as setrlimit and prlimit(0, ...) do); not setting
		// another's.
		st(bpfJeq, unix.SYS_PRLIMIT64, 0, 8),
		st(bpfLd, argLow(0), 0, 0),
		st(bpfJeq, 0, 5, 0),
		st(bpfLd, argLow(2), 0, 0),
		st(bpfJeq, 0, 0, 2),
		st(bpfLd, argHigh(2), 0, 0),
		st(bpfJeq, 0, 1, 0),
		st(bpfRet, retErrno(unix.EPERM), 0, 0),
		st(bpfRet, retAllow, 0, 0),
	)
	for _, nr := range selfOnly {
		f = append(f,
			st(bpfJeq, uint32(nr), 0, 4),
			st(bpfLd, argLow(0), 0, 0),
			st(bpfJeq, 0, 1, 0),
			st(bpfRet, retErrno(unix.EPERM), 0, 0),
			st(bpfRet, retAllow, 0, 0))
	}
	// setpriority(which, who, ...), ioprio_set(which, who, ...): who 0
	// (the caller, its process group), never a whole user.
	for _, c := range []struct{ nr, user uint32 }{{unix.SYS_SETPRIORITY, unix.PRIO_USER}, {unix.SYS_IOPRIO_SET, ioprioWhoUser}} {
		f = append(f,
			st(bpfJeq, c.nr, 0, 6),
			st(bpfLd, argLow(0), 0, 0),
			st(bpfJeq, c.user, 2, 0),
			st(bpfLd, argLow(1), 0, 0),
			st(bpfJeq, 0, 1, 0),
			st(bpfRet, retErrno(unix.EPERM), 0, 0),
			st(bpfRet, retAllow, 0, 0))
	}
	f = append(f,
		// ioctl: no TIOCSTI, no TIOCLINUX.
		st(bpfJeq, unix.SYS_IOCTL, 0, 5),
		st(bpfLd, argLow(1), 0, 0),
		st(bpfJeq, unix.TIOCSTI, 1, 0),
		st(bpfJeq, unix.TIOCLINUX, 0, 1),
		st(bpfRet, retErrno(unix.EPERM), 0, 0),
		st(bpfRet, retAllow, 0, 0),
		st(bpfRet, retAllow, 0, 0),
	)
	return f, nil
}

// sockTypeMask is the type's part of socket's second argument (the rest
// are flags such as SOCK_CLOEXEC).
const sockTypeMask = 0xf

// installSeccomp installs the filter on the calling thread; no_new_privs
// must be set.
func installSeccomp() error { return installFilter(false, false, refuseClone3) }

// noClone3 is the filter that refuses clone3, which hides its flags in
// memory (ENOSYS makes libcs fall back to clone), and allows the rest;
// its second and third instructions are seccompFilter's rule. A program
// forked by a thread whose filter allows clone3 adds it (fork.go): its
// filters then refuse what the program's refuses. (A filter this short
// takes a program a few microseconds to add, where the whole one, whose
// result for every system call the kernel works out as it is added,
// took about a tenth of a millisecond.)
func noClone3() []unix.SockFilter {
	return []unix.SockFilter{
		{Code: bpfLd, K: offNr},
		{Code: bpfJeq, K: unix.SYS_CLONE3, Jt: 0, Jf: 1},
		{Code: bpfRet, K: retErrno(unix.ENOSYS)},
		{Code: bpfRet, K: retAllow},
	}
}

// installFilter installs the filter, with level basic's rules if basic,
// signalRules if signals, and clone3 refused or not.
func installFilter(basic, signals bool, clone3 clone3Rule) error {
	f, err := seccompFilter(basic, signals, clone3)
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(f)), Filter: &f[0]}
	return unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0)
}

// selfOnly are allowed with a first argument of 0 (the caller) only.
var selfOnly = []int{
	unix.SYS_SCHED_SETAFFINITY, unix.SYS_SCHED_SETSCHEDULER, unix.SYS_SCHED_SETPARAM,
	unix.SYS_SCHED_SETATTR, unix.SYS_MIGRATE_PAGES, unix.SYS_MOVE_PAGES,
}

// ioprioWhoUser is IOPRIO_WHO_USER.
const ioprioWhoUser = 3

// commonDenied are denied on every architecture.
var commonDenied = []int{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT,
	unix.SYS_UNSHARE, unix.SYS_SETNS,
	unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE, unix.SYS_MOUNT_SETATTR,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_REBOOT, unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_ACCT, unix.SYS_SYSLOG,
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_NAME_TO_HANDLE_AT,
	unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME, unix.SYS_CLOCK_ADJTIME,
	unix.SYS_QUOTACTL, unix.SYS_VHANGUP, unix.SYS_PIDFD_GETFD,
	unix.SYS_FANOTIFY_INIT, unix.SYS_LOOKUP_DCOOKIE,
}
