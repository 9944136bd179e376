package judge

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// errCanceled is returned by a read woken by cancel.
var errCanceled = errors.New("read canceled")

// fdReader reads a bot's output descriptor with a deadline by waiting in
// ppoll(2) itself rather than in the runtime's network poller. A query
// round trip then costs the judge one ppoll, one read and one write: the
// poller's park, epoll_wait and wake-up would add a third to the floor.
type fdReader struct {
	fd       int // non-blocking
	wake     int // eventfd: readable once cancel has been called
	deadline time.Time
	canceled atomic.Bool
}

// newFDReader reads f, which the judge keeps open (and closes) itself.
func newFDReader(f *os.File) (*fdReader, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	if err := rc.Control(func(u uintptr) { fd = int(u) }); err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		return nil, fmt.Errorf("nonblock: %w", err)
	}
	wake, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	return &fdReader{fd: fd, wake: wake}, nil
}

// cancel makes the waiting read, and every later one, fail.
func (r *fdReader) cancel() {
	if r.canceled.CompareAndSwap(false, true) {
		var one = [8]byte{1}
		_, _ = unix.Write(r.wake, one[:])
	}
}

// close releases the wake descriptor (not the one read).
func (r *fdReader) close() { unix.Close(r.wake) }

// Read implements io.Reader. It returns os.ErrDeadlineExceeded after the
// deadline, errCanceled after cancel, io.EOF at the end (a pty master
// reads EIO once no process has its slave open).
func (r *fdReader) Read(p []byte) (int, error) {
	fds := []unix.PollFd{{Fd: int32(r.fd), Events: unix.POLLIN}, {Fd: int32(r.wake), Events: unix.POLLIN}}
	for {
		if r.canceled.Load() {
			return 0, errCanceled
		}
		left := time.Until(r.deadline)
		if left <= 0 {
			return 0, os.ErrDeadlineExceeded
		}
		ts := unix.NsecToTimespec(left.Nanoseconds())
		fds[0].Revents, fds[1].Revents = 0, 0
		n, err := unix.Ppoll(fds, &ts, nil)
		if err != nil {
			if err == unix.EINTR {
				continue
			}
			return 0, fmt.Errorf("ppoll: %w", err)
		}
		if n == 0 || fds[0].Revents == 0 {
			continue // timed out or woken: checked at the top
		}
		m, err := unix.Read(r.fd, p)
		switch {
		case err == unix.EAGAIN || err == unix.EINTR:
			continue
		case err == unix.EIO:
			return 0, io.EOF
		case err != nil:
			return 0, err
		case m == 0:
			return 0, io.EOF
		}
		return m, nil
	}
}
