package procbot

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The ioctls that read and set a terminal's attributes.
const (
	termiosGet = unix.TCGETS
	termiosSet = unix.TCSETS
)

// canWatchWriter says whether noReader can tell, in the runtime poller,
// that a pipe's write end has no reader left.
const canWatchWriter = true

// noReader reports whether the pipe whose write end is fd has no reader
// left: the kernel says POLLERR.
func noReader(fd uintptr) bool {
	fds := []unix.PollFd{{Fd: int32(fd)}}
	n, _ := unix.Poll(fds, 0)
	return n > 0 && fds[0].Revents&unix.POLLERR != 0
}

// writeFD writes what fits of b to the non-blocking descriptor fd.
func writeFD(fd uintptr, b []byte) (int, error) {
	// A raw system call: the descriptor is non-blocking.
	n, _, e := unix.RawSyscall(unix.SYS_WRITE, fd, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}

// fionread is Linux's FIONREAD (TIOCINQ).
const fionread = unix.TIOCINQ

// openRawPTY opens a pseudo-terminal in raw mode: no echo, no CR/LF
// translation, no line editing or length limit. The master end comes back
// non-blocking, so reads can have deadlines.
func openRawPTY() (master, slave *os.File, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("open pty: %w", err)
	}
	defer func() {
		if err != nil {
			m.Close()
			s.Close()
		}
	}()
	if err := MakeRaw(s); err != nil {
		return nil, nil, err
	}
	// pty.Open used the master's Fd, which made it blocking; take a fresh
	// non-blocking descriptor so the runtime poller serves it.
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("pty dup: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, nil, fmt.Errorf("pty nonblock: %w", err)
	}
	m.Close()
	return os.NewFile(uintptr(fd), "/dev/ptmx"), s, nil
}
