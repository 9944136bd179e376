//go:build unix

package bots

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// canLock: work directories are locked, and stale ones can be told.
const canLock = true

// nonBlock opens without waiting (a FIFO waits for a writer otherwise).
const nonBlock = unix.O_NONBLOCK

// fileFacts are what the check of a build reads of a file besides its type:
// its number of names, its owner and the disk space it takes.
func fileFacts(info fs.FileInfo) (links uint64, uid, gid int, blocks int64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 1, -1, -1, info.Size()
	}
	return uint64(st.Nlink), int(st.Uid), int(st.Gid), st.Blocks * 512
}

// lockDir takes the build lock of a work directory, held as long as the
// returned file is open: an exclusive flock of the directory itself. ok
// is false when another process holds it.
func lockDir(dir string) (f *os.File, ok bool, err error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		unix.Close(fd)
		if err == unix.EWOULDBLOCK {
			return nil, false, nil
		}
		return nil, false, &os.PathError{Op: "flock", Path: dir, Err: err}
	}
	return os.NewFile(uintptr(fd), dir), true, nil
}

// judgeOwner is the owner the judge gives every file of a finished build
// when it runs as root, so that the sandbox's user (nobody), which made
// them, can no longer change them; -1 when the judge is not root (the
// sandbox's user is then the judge's own).
func judgeOwner() (uid, gid int) {
	if os.Geteuid() != 0 {
		return -1, -1
	}
	return 0, os.Getegid()
}

// openIn opens name, one name in directory dir, never through a link:
// neither dir nor name may be one.
func openIn(dir, name string, flag int, perm os.FileMode) (*os.File, error) {
	dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(dfd)
	fd, err := unix.Openat(dfd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, name), Err: err}
	}
	return os.NewFile(uintptr(fd), filepath.Join(dir, name)), nil
}
