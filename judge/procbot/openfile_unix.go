//go:build unix

package procbot

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// OpenFile opens a bot's file, or a source file, for reading, and never
// waits to do so: what is not a regular file is refused with what it is.
// Opening a FIFO for reading waits for a writer, and that wait cannot be
// interrupted; so the file is opened non-blocking, and checked once open
// (it may have been replaced since it was looked at).
func OpenFile(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		kind := "not a regular file"
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			kind = "a directory"
		case unix.S_IFIFO:
			kind = "a FIFO (named pipe)"
		case unix.S_IFSOCK:
			kind = "a socket"
		case unix.S_IFCHR:
			kind = "a character device"
		case unix.S_IFBLK:
			kind = "a block device"
		}
		return nil, fmt.Errorf("%s is %s, not a regular file", path, kind)
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "fcntl", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// IsExecutable reports whether the file st describes may be run as a
// program: someone may execute it.
func IsExecutable(st os.FileInfo) bool { return st.Mode()&0o111 != 0 }
