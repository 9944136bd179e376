//go:build linux

package procbot

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// errCanceled is returned by a read woken by cancel.
var errCanceled = errors.New("read canceled")

// errInClosed is returned by a read that waited for a bot whose standard
// input has no reader left (see inClosed).
var errInClosed = errors.New("the bot's standard input is closed")

// fdReader reads a bot's output descriptor with a deadline.
//
// When one bot moves alone (most turns of most games), it waits in
// ppoll(2) itself rather than in the runtime's network poller: a query
// round trip then costs the judge one ppoll, one read and one write, where
// the poller's park, epoll_wait and wake-up would add a third to the
// floor. When several bots move at once, each in its own goroutine, it
// waits in the poller (shared = true): a goroutine blocked in a system
// call keeps its P, and with GOMAXPROCS = 2 the other movers' goroutines
// could then wait for the scheduler's monitor, up to 10 ms, to start.
//
// The descriptor is in the poller only during such turns (a duplicate of
// it, file): an output in the poller wakes the runtime's idle thread
// waiting in epoll_wait at every line the bot writes, on the other CPU,
// which made a lone mover's query cost half as much again.
type fdReader struct {
	fd       int      // non-blocking, not in the runtime poller
	file     *os.File // under mu: a duplicate of fd in the poller, while shared
	wake     int      // eventfd: readable once cancel has been called
	deadline time.Time
	shared   bool // wait in the runtime poller
	canceled atomic.Bool
	closedStdin
	mu     sync.Mutex // orders the runtime poller's deadlines
	fileDL time.Time  // under mu: the poller's deadline before bound
	closed bool       // under mu: wake is closed
	// extend, when set, is asked once the deadline has passed: it gives
	// a later one when the turn may go on (the machine, not the bot, used
	// the time).
	extend func() (time.Time, bool)
	// late, when set, is told how long after the deadline the judge
	// looked at the output and found what the bot wrote: a judge kept
	// from running meanwhile (by the machine, or by its other matches)
	// is late to look, and the bot is not blamed for it.
	late func(time.Duration)
}

// lastLook is the judge's look at the output once the deadline has
// passed and the turn may not go on: what the bot wrote meanwhile is
// read, else os.ErrDeadlineExceeded.
func (r *fdReader) lastLook(p []byte) (int, error) {
	n, err := unix.Read(r.fd, p)
	switch {
	case err == nil && n > 0:
		if r.late != nil {
			r.late(time.Since(r.deadline))
		}
		return n, nil
	case err == unix.EIO || err == nil && n == 0:
		return 0, io.EOF
	}
	return 0, os.ErrDeadlineExceeded
}

// newFDReader reads f, which the judge keeps open (and closes) itself.
// f must not be in the runtime poller (see outPipe).
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

// setDeadline sets the deadline of the reads of one turn, and whether
// other bots move in the same turn.
func (r *fdReader) setDeadline(t time.Time, shared bool) error {
	r.deadline, r.shared = t, shared
	if shared {
		return r.setFileDeadline(t, true)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.file != nil {
		// Out of the poller: closing the duplicate removes it.
		err := r.file.Close()
		r.file = nil
		if err != nil {
			return fmt.Errorf("poller: %w", err)
		}
	}
	return nil
}

// setFileDeadline sets the runtime poller's deadline: t, or sooner when
// the bot's stdin is closed. With join, the descriptor joins the poller
// if it was not in it.
func (r *fdReader) setFileDeadline(t time.Time, join bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fileDL = t
	if r.file == nil {
		if r.closed || !join {
			return nil
		}
		// A non-blocking descriptor: os.NewFile puts it in the poller.
		d, err := unix.FcntlInt(uintptr(r.fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("poller: %w", err)
		}
		r.file = os.NewFile(uintptr(d), "bot output")
	}
	return r.file.SetReadDeadline(r.bound(t))
}

// inClosed tells the reader that the bot's stdin has no reader left: a
// waiting read is woken, and gives up after exitWait.
func (r *fdReader) inClosed() {
	if !r.markClosed() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.wakeUp()
	if r.file != nil && !r.fileDL.IsZero() {
		_ = r.file.SetReadDeadline(r.bound(r.fileDL))
	}
}

// wakeUp wakes a read waiting in ppoll; under r.mu, so that it never
// writes to a descriptor number that close let go of.
func (r *fdReader) wakeUp() {
	if !r.closed {
		var one = [8]byte{1}
		_, _ = unix.Write(r.wake, one[:])
	}
}

// readClosed ends a read once closedOver: what the bot wrote is read
// first, else errInClosed.
func (r *fdReader) readClosed(p []byte) (int, error) {
	n, err := unix.Read(r.fd, p)
	switch {
	case err == unix.EIO || err == nil && n == 0:
		return 0, io.EOF
	case err == nil:
		return n, nil
	}
	return 0, errInClosed
}

// cancel makes the waiting read, and every later one, fail.
func (r *fdReader) cancel() {
	if r.canceled.CompareAndSwap(false, true) {
		r.mu.Lock()
		r.wakeUp()
		r.mu.Unlock()
		_ = r.setFileDeadline(time.Unix(1, 0), false)
	}
}

// close releases the wake descriptor (not the one read).
func (r *fdReader) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.closed = true
		unix.Close(r.wake)
		if r.file != nil {
			r.file.Close()
			r.file = nil
		}
	}
}

// Read implements io.Reader. It returns os.ErrDeadlineExceeded after the
// deadline, errCanceled after cancel, io.EOF at the end (a pty master
// reads EIO once no process has its slave open).
func (r *fdReader) Read(p []byte) (int, error) {
	if r.shared {
		for {
			if r.canceled.Load() {
				return 0, errCanceled
			}
			// Only this goroutine replaces r.file (setDeadline).
			r.mu.Lock()
			f := r.file
			r.mu.Unlock()
			if f == nil {
				return 0, os.ErrClosed
			}
			n, err := f.Read(p)
			switch {
			case r.canceled.Load():
				return 0, errCanceled
			case errors.Is(err, unix.EIO):
				return 0, io.EOF
			case errors.Is(err, os.ErrDeadlineExceeded):
				if r.closedOver() {
					return r.readClosed(p)
				}
				if r.extend == nil {
					break
				}
				if d, ok := r.extend(); ok {
					r.deadline = d
					if err := r.setFileDeadline(d, true); err != nil {
						return 0, err
					}
					continue
				}
				return r.lastLook(p)
			}
			return n, err
		}
	}
	fds := []unix.PollFd{{Fd: int32(r.fd), Events: unix.POLLIN}, {Fd: int32(r.wake), Events: unix.POLLIN}}
	first := len(p) > 0
	for {
		if r.canceled.Load() {
			return 0, errCanceled
		}
		left := time.Until(r.bound(r.deadline))
		if left <= 0 {
			if r.closedOver() {
				return r.readClosed(p)
			}
			if r.extend != nil {
				if d, ok := r.extend(); ok {
					r.deadline = d
					continue
				}
			}
			return r.lastLook(p)
		}
		if first {
			// Look before waiting: in a round of queries the bot has
			// often answered by the time the judge reads (the answer's
			// write woke it, on the judge's CPU), and a read that finds
			// its line spares the ppoll. The descriptor is non-blocking,
			// so the read is a raw system call, which the runtime need
			// not be told of.
			first = false
			m, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(r.fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
			switch {
			case e == 0 && m > 0:
				return int(m), nil
			case e == 0 || e == unix.EIO:
				return 0, io.EOF
			case e != unix.EAGAIN && e != unix.EINTR:
				return 0, e
			}
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
		if fds[1].Revents != 0 && !r.canceled.Load() {
			// Woken by inClosed: the wake-up is used up (a cancel that
			// comes meanwhile is seen by its flag).
			var b [8]byte
			_, _ = unix.Read(r.wake, b[:])
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
