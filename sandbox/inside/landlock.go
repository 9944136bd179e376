//go:build linux

package inside

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
)

// Landlock is used through its three system calls directly: the rules
// must bind only the thread that execs the program.

// Short names for the rights.
const (
	llExec     = unix.LANDLOCK_ACCESS_FS_EXECUTE
	llWrite    = unix.LANDLOCK_ACCESS_FS_WRITE_FILE
	llRead     = unix.LANDLOCK_ACCESS_FS_READ_FILE
	llReadDir  = unix.LANDLOCK_ACCESS_FS_READ_DIR
	llMakeSym  = unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	llRefer    = unix.LANDLOCK_ACCESS_FS_REFER
	llTruncate = unix.LANDLOCK_ACCESS_FS_TRUNCATE
	llIoctlDev = unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
)

// fsRights are the file system rights Landlock ABI abi knows.
func fsRights(abi int) uint64 {
	r := uint64(llMakeSym<<1 - 1) // ABI 1
	if abi >= 2 {
		r |= llRefer
	}
	if abi >= 3 {
		r |= llTruncate
	}
	if abi >= 5 {
		r |= llIoctlDev
	}
	return r
}

// fileRights are the rights that apply to a file (not a directory).
const fileRights = llExec | llWrite | llRead | llTruncate | llIoctlDev

// applyLandlock restricts the calling thread (and what it execs) as
// landlockRuleset's rules say.
func applyLandlock(abi int, ro, rw, dev, proc []string) error {
	fd, err := landlockRuleset(abi, ro, rw, dev, proc)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return kernel.LandlockRestrictSelf(fd)
}

// landlockRuleset makes a ruleset, for a process that restricts itself
// with it, of reading and executing ro, anything in rw, reading and
// writing the paths of dev (devices, or the directories that hold them)
// and the paths of proc (all of /proc, read only, when nil). It denies
// TCP (ABI 4), abstract unix sockets and signals out of the sandbox (ABI
// 6). It returns the ruleset's descriptor (close-on-exec).
func landlockRuleset(abi int, ro, rw, dev, proc []string) (int, error) {
	all := fsRights(abi)
	attr := unix.LandlockRulesetAttr{Handled_access_fs: all}
	size := unsafe.Sizeof(attr.Handled_access_fs)
	if abi >= 4 {
		attr.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size += unsafe.Sizeof(attr.Handled_access_net)
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
		size += unsafe.Sizeof(attr.Scoped)
	}
	fd, err := kernel.LandlockCreateRuleset(&attr, size, 0)
	if err != nil {
		return -1, err
	}
	ok := false
	defer func() {
		if !ok {
			unix.Close(fd)
		}
	}()
	read := uint64(llExec | llRead | llReadDir)
	add := func(path string, access uint64) error {
		pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		defer unix.Close(pfd)
		var st unix.Stat_t
		if err := unix.Fstat(pfd, &st); err != nil {
			return err
		}
		access &= all
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			access &= fileRights
		}
		return kernel.LandlockAddPath(fd, &unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(pfd)})
	}
	for _, p := range ro {
		if err := add(p, read); err != nil {
			return -1, err
		}
	}
	for _, p := range rw {
		if err := add(p, all); err != nil {
			return -1, err
		}
	}
	for _, p := range dev {
		if err := add(p, llRead|llWrite|llTruncate|llIoctlDev|llReadDir); err != nil {
			return -1, err
		}
	}
	// A sandbox's own /proc (nil): read only, so that no program writes
	// its init's files (/proc/1/oom_score_adj), whatever the ABI (before
	// ABI 3, truncation is not checked, and fopen's "w" got through). At
	// level basic, the paths given, its own process's among them.
	procRights := uint64(llRead | llReadDir | llWrite)
	if proc == nil {
		proc = []string{"/proc"}
		procRights = llRead | llReadDir
	}
	for _, p := range proc {
		if err := add(p, procRights); err != nil {
			return -1, err
		}
	}
	ok = true
	return fd, nil
}
