package procbot

import (
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// pumpReader reads a bot's output with a deadline on any system: a
// goroutine reads the file, blocking, and hands over what it read; a read
// waits for that, its deadline, a cancel, or the bot's stdin found closed.
// It is the output reader where fdReader's ppoll and eventfd are not
// (macOS, Windows): a pseudo-terminal or a synchronous pipe cannot be
// given a deadline there. Its API is fdReader's.
type pumpReader struct {
	chunks chan pumped // from the pump; closed after its last
	stop   chan struct{}
	once   sync.Once

	pending []byte // what the last chunk still holds
	err     error  // the pump's error, once pending is read

	deadline time.Time
	canceled atomic.Bool
	wake     chan struct{} // closed by cancel
	closedStdin
	inWake   chan struct{} // closed by inClosed
	wakeOnce sync.Once
	inOnce   sync.Once

	// extend and late are fdReader's.
	extend func() (time.Time, bool)
	late   func(time.Duration)
}

// pumped is what one read of the pump got.
type pumped struct {
	b   []byte
	err error
}

// pumpChunk is the most one read of the pump takes.
const pumpChunk = 32 << 10

// newPumpReader reads f, which the judge keeps open (and closes)
// itself: closing it ends the pump.
func newPumpReader(f *os.File) *pumpReader {
	r := &pumpReader{
		chunks: make(chan pumped),
		stop:   make(chan struct{}),
		wake:   make(chan struct{}),
		inWake: make(chan struct{}),
	}
	go r.pump(f)
	return r
}

// pump reads f until its end, an error or close.
func (r *pumpReader) pump(f *os.File) {
	defer close(r.chunks)
	for {
		buf := make([]byte, pumpChunk)
		n, err := f.Read(buf)
		if n == 0 && err == nil {
			continue
		}
		select {
		case r.chunks <- pumped{buf[:n], err}:
		case <-r.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// setDeadline sets the deadline of the reads of one turn; whether other
// bots move in the same turn does not matter here.
func (r *pumpReader) setDeadline(t time.Time, _ bool) error {
	r.deadline = t
	return nil
}

// inClosed tells the reader that the bot's stdin has no reader left: a
// waiting read gives up after exitWait.
func (r *pumpReader) inClosed() {
	if r.markClosed() {
		r.inOnce.Do(func() { close(r.inWake) })
	}
}

// cancel makes the waiting read, and every later one, fail.
func (r *pumpReader) cancel() {
	r.canceled.Store(true)
	r.wakeOnce.Do(func() { close(r.wake) })
}

// close lets the pump go once the file is closed.
func (r *pumpReader) close() {
	r.once.Do(func() { close(r.stop) })
}

// take returns what a chunk brings, keeping the rest for the next read.
func (r *pumpReader) take(c pumped, ok bool, p []byte) (int, error) {
	if !ok {
		return 0, io.EOF
	}
	n := copy(p, c.b)
	r.pending = c.b[n:]
	if c.err != nil {
		r.err = c.err
		if errors.Is(c.err, syscall.EIO) {
			r.err = io.EOF // a pty's master once no process has its slave open
		}
	}
	if n == 0 && len(r.pending) == 0 && r.err != nil {
		return 0, r.err
	}
	return n, nil
}

// now reads what the pump holds without waiting; ok is false when it
// holds nothing.
func (r *pumpReader) now(p []byte) (n int, err error, ok bool) {
	select {
	case c, open := <-r.chunks:
		n, err = r.take(c, open, p)
		return n, err, true
	default:
		return 0, nil, false
	}
}

// Read implements io.Reader, as fdReader's does: os.ErrDeadlineExceeded
// after the deadline, errCanceled after cancel, errInClosed once the
// wait of a bot with a closed stdin is over, io.EOF at the end.
func (r *pumpReader) Read(p []byte) (int, error) {
	if len(r.pending) > 0 {
		n := copy(p, r.pending)
		r.pending = r.pending[n:]
		return n, nil
	}
	if r.err != nil {
		return 0, r.err
	}
	for {
		if r.canceled.Load() {
			return 0, errCanceled
		}
		left := time.Until(r.bound(r.deadline))
		if left <= 0 {
			if r.closedOver() {
				if n, err, ok := r.now(p); ok {
					return n, err
				}
				return 0, errInClosed
			}
			if r.extend != nil {
				if d, ok := r.extend(); ok {
					r.deadline = d
					continue
				}
			}
			// The last look: what the bot wrote meanwhile.
			if n, err, ok := r.now(p); ok {
				if n > 0 && r.late != nil {
					r.late(time.Since(r.deadline))
				}
				return n, err
			}
			return 0, os.ErrDeadlineExceeded
		}
		t := time.NewTimer(left)
		select {
		case c, open := <-r.chunks:
			t.Stop()
			return r.take(c, open, p)
		case <-t.C:
		case <-r.wake:
			t.Stop()
		case <-r.inWakeOnce():
			t.Stop()
		}
	}
}

// inWakeOnce is the channel closed by inClosed until it is, then nil: a
// read is woken once by it, and then bounded by its deadline.
func (r *pumpReader) inWakeOnce() <-chan struct{} {
	if r.stdinClosed() {
		return nil
	}
	return r.inWake
}
