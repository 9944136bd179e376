//go:build unix

package plugin

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// pipeIO is a program referee's stdin and stdout served on the calling
// goroutine: the request written and the answer read on the caller's
// thread, waiting in poll(2), with no goroutine between them. A match
// served on one CPU (a two-player match of programs) then wakes its
// referee, which the judge has put there (Process.Near), and is woken by
// it, on that CPU; through goroutines, each call made two hand-offs to
// the judge's other threads, on the other CPU.
type pipeIO struct {
	in, out       syscall.RawConn
	inF, outF     *os.File // held: a file's finalizer would close its descriptor
	buf           []byte   // read and not yet answered
	timeout       time.Duration
	started       bool // a call has been answered: the referee has started
	tail          *tail
	stop          func()
	exited        func() string
	nearFn        func()
	once          sync.Once
	closed, ended bool // closed: close was called; ended: its output ended
}

// newPipeIO serves a program referee's pipes on the calling goroutine,
// when both are files the poller holds; false otherwise (the caller then
// serves them through goroutines).
func newPipeIO(in, out any, timeout time.Duration, t *tail, stop func()) (*pipeIO, bool) {
	inF, ok1 := in.(*os.File)
	outF, ok2 := out.(*os.File)
	if !ok1 || !ok2 {
		return nil, false
	}
	inRC, err1 := inF.SyscallConn()
	outRC, err2 := outF.SyscallConn()
	if err1 != nil || err2 != nil {
		return nil, false
	}
	return &pipeIO{in: inRC, out: outRC, inF: inF, outF: outF, timeout: timeout, tail: t, stop: stop}, true
}

func (p *pipeIO) call(req []byte) ([]byte, error) {
	if p.closed {
		return nil, errClosed
	}
	if err := p.unasked(); err != nil {
		return nil, err
	}
	timeout := callTimeout(p.timeout, p.started)
	deadline := time.Now().Add(timeout)
	if err := p.write(append(req, '\n'), deadline); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, fmt.Errorf("it did not read its request within %v", timeout)
		}
		return nil, errEnded // its stdin has no reader: it has ended
	}
	line, err := p.readLine(deadline)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, fmt.Errorf("it did not answer within %v", timeout)
	}
	if err == nil {
		p.started = true
	}
	return line, err
}

// cmpErr is err, or def when err is nil: the error of a RawConn's call,
// else the one its function found.
func cmpErr(err, def error) error {
	if err != nil {
		return err
	}
	return def
}

// unasked is the fault of a referee that wrote, or ended, since its last
// answer; nil when it did neither.
func (p *pipeIO) unasked() error {
	if len(p.buf) == 0 && !p.ended && !p.readable(0) {
		return nil
	}
	line, err := p.readLine(time.Now())
	switch {
	case err == nil:
		return fmt.Errorf("it wrote a line no request asked for: %q", clip(line))
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("it wrote %q, no request asking for it", clip(p.buf))
	}
	return err
}

// readable reports whether its output has something to read, or has
// ended, within wait.
func (p *pipeIO) readable(wait time.Duration) bool {
	ready := false
	_ = p.out.Read(func(fd uintptr) bool {
		ready = poll(int(fd), unix.POLLIN, wait) == nil
		return true
	})
	return ready
}

// write writes b whole before deadline.
func (p *pipeIO) write(b []byte, deadline time.Time) error {
	var err error
	werr := p.in.Write(func(fd uintptr) bool {
		for len(b) > 0 && err == nil {
			var n int
			n, err = ready(int(fd), unix.POLLOUT, deadline, func() (int, error) { return unix.Write(int(fd), b) })
			b = b[n:]
		}
		return true
	})
	return cmpErr(werr, err)
}

// ready calls op on fd until it neither is interrupted nor would block,
// waiting in poll for events in between, until deadline.
func ready(fd int, events int16, deadline time.Time, op func() (int, error)) (int, error) {
	for {
		n, err := op()
		switch {
		case err == unix.EINTR:
		case err == unix.EAGAIN:
			if err := poll(fd, events, time.Until(deadline)); err != nil {
				return 0, err
			}
		case err != nil:
			return 0, err
		default:
			return n, nil
		}
	}
}

// readLine reads its next line, without the newline, before deadline
// (os.ErrDeadlineExceeded past it), never holding more than MaxAnswer
// bytes.
func (p *pipeIO) readLine(deadline time.Time) ([]byte, error) {
	for {
		if i := bytes.IndexByte(p.buf, '\n'); i >= 0 {
			if i >= MaxAnswer {
				return nil, errTooLong
			}
			line := bytes.TrimSuffix(p.buf[:i], []byte("\r"))
			line = append([]byte(nil), line...)
			p.buf = append(p.buf[:0], p.buf[i+1:]...)
			return line, nil
		}
		if len(p.buf) >= MaxAnswer {
			return nil, errTooLong
		}
		if p.ended {
			if len(p.buf) > 0 {
				return nil, fmt.Errorf("its output ended in the middle of a line (%d bytes)", len(p.buf))
			}
			return nil, errEnded
		}
		if len(p.buf) == cap(p.buf) {
			p.buf = append(p.buf, make([]byte, max(4096, len(p.buf)))...)[:len(p.buf)]
		}
		var n int
		var err error
		rerr := p.out.Read(func(fd uintptr) bool {
			n, err = ready(int(fd), unix.POLLIN, deadline, func() (int, error) {
				return unix.Read(int(fd), p.buf[len(p.buf):cap(p.buf)])
			})
			return true
		})
		switch err = cmpErr(rerr, err); {
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, err
		case err != nil:
			return nil, fmt.Errorf("reading its output: %w", err)
		case n == 0:
			p.ended = true
		default:
			p.buf = p.buf[:len(p.buf)+n]
		}
	}
}

// poll waits until fd is ready for events, or has failed or hung up,
// within wait: os.ErrDeadlineExceeded when it is not.
func poll(fd int, events int16, wait time.Duration) error {
	for {
		ms := 0
		if wait > 0 {
			ms = int((wait + time.Millisecond - 1) / time.Millisecond)
		}
		start := time.Now()
		fds := []unix.PollFd{{Fd: int32(fd), Events: events}}
		n, err := unix.Poll(fds, ms)
		switch {
		case err == unix.EINTR:
			wait -= time.Since(start)
			continue
		case err != nil:
			return err
		case n == 0:
			return os.ErrDeadlineExceeded
		}
		return nil
	}
}

func (p *pipeIO) close() {
	p.once.Do(func() {
		p.closed = true
		p.stop()
	})
}

func (p *pipeIO) stderr() string { return p.tail.String() }

func (p *pipeIO) exit() string {
	if p.exited == nil {
		return ""
	}
	return p.exited()
}

// quiet implements transport.quiet: nothing to read, no end.
func (p *pipeIO) quiet() bool { return !p.closed && len(p.buf) == 0 && !p.ended && !p.readable(0) }

func (p *pipeIO) near() {
	if p.nearFn != nil {
		p.nearFn()
	}
}
