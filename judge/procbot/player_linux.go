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

// outPipe makes the pipe of a bot's stdout. Its read end is not in the
// runtime poller: newFDReader makes it non-blocking, and puts it in the
// poller only for the turns it must (see fdReader).
func outPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, fmt.Errorf("pipe: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}

// openRawPTY opens a pseudo-terminal in raw mode: no echo, no CR/LF
// translation, no line editing or length limit. Like outPipe's, the master
// end is not in the runtime poller.
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
	// pty.Open put the master in the poller; a blocking duplicate is not.
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("pty dup: %w", err)
	}
	m.Close()
	return os.NewFile(uintptr(fd), "/dev/ptmx"), s, nil
}
