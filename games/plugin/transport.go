package plugin

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Bounds on what the judge keeps of a referee.
const (
	// MaxAnswer is the longest response line a referee may write,
	// newline included; a longer one is the referee's fault.
	MaxAnswer = 1 << 20
	// StderrTail is how much of the end of a referee's stderr is kept,
	// for the reason of its fault.
	StderrTail = 4 << 10
)

// transport is one running referee: a request line in, a response line
// out. Calls are made one at a time.
type transport interface {
	// call sends a request line (no newline) and returns the response
	// line (no newline), or why there is none.
	call(req []byte) ([]byte, error)
	// close ends the referee and all it started. It is safe to call
	// more than once.
	close()
	// stderr is the kept tail of the referee's stderr.
	stderr() string
	// exit says how the referee ended, once closed, when the transport
	// knows more than its output did; or "".
	exit() string
	// near puts a program referee on the CPUs of the calling thread
	// (Process.Near); a module runs on the caller's own.
	near()
	// quiet reports, between calls, that the referee has written
	// nothing and not ended since its last answer: it may take another
	// game (FeatureReuse). What it finds is discarded with the referee.
	quiet() bool
}

// closedTransport is the transport of a state whose referee went to
// another match: every call finds it ended.
type closedTransport struct{}

func (closedTransport) call([]byte) ([]byte, error) { return nil, errEnded }
func (closedTransport) close()                      {}
func (closedTransport) stderr() string              { return "" }
func (closedTransport) exit() string                { return "" }
func (closedTransport) quiet() bool                 { return false }
func (closedTransport) near()                       {}

// errEnded is the end of a referee's output between lines.
var errEnded = errors.New("it ended (its output closed)")

// response is one line the referee wrote, or why it wrote no more.
type response struct {
	line []byte
	err  error
}

// lines is what both transports share: a goroutine writing requests, one
// reading responses, and a time limit on each call.
type lines struct {
	exchange
	done   chan struct{}
	tail   *tail
	stop   func() // ends the referee; its pipes then close
	exited func() string
	nearFn func() // Process.Near
	once   sync.Once
}

// newLines starts the goroutines over the referee's stdin (w) and stdout
// (r). stop must end the referee and make r and w fail.
func newLines(w io.Writer, r io.Reader, timeout time.Duration, t *tail, stop func()) *lines {
	l := &lines{exchange: newExchange(timeout), done: make(chan struct{}), tail: t, stop: stop}
	go l.write(w)
	go l.read(r)
	return l
}

func (l *lines) near() {
	if l.nearFn != nil {
		l.nearFn()
	}
}

func (l *lines) write(w io.Writer) {
	for {
		select {
		case req := <-l.reqs:
			if _, err := w.Write(append(req, '\n')); err != nil {
				return
			}
		case <-l.done:
			return
		}
	}
}

func (l *lines) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		select {
		case l.resps <- response{line, err}:
		case <-l.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// errTooLong is a response line over MaxAnswer.
var errTooLong = fmt.Errorf("it wrote a line longer than %d bytes", MaxAnswer)

// readLine reads one line without its newline, never holding more than
// MaxAnswer bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(line)+len(frag) > MaxAnswer {
			return nil, errTooLong
		}
		line = append(line, frag...)
		switch {
		case err == nil:
			line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(line) > 0 {
				return nil, fmt.Errorf("its output ended in the middle of a line (%d bytes)", len(line))
			}
			return nil, errEnded
		default:
			return nil, fmt.Errorf("reading its output: %w", err)
		}
	}
}

// exchange is the caller's side of a transport: a request handed to
// what writes it to the referee, within the call's time, then the
// referee's line.
type exchange struct {
	reqs    chan []byte
	resps   chan response
	timeout time.Duration
	started bool // a call has been answered: the referee has started
}

// quiet implements transport.quiet: no line nor end is waiting.
func (l *exchange) quiet() bool {
	select {
	case <-l.resps:
		return false
	default:
		return true
	}
}

func newExchange(timeout time.Duration) exchange {
	return exchange{reqs: make(chan []byte), resps: make(chan response), timeout: timeout}
}

// call sends req (a whole line) and returns the referee's answer. A line
// the referee wrote before it was asked is its fault.
func (l *exchange) call(req []byte) ([]byte, error) {
	select {
	case r := <-l.resps:
		if r.err != nil {
			return nil, r.err
		}
		return nil, fmt.Errorf("it wrote a line no request asked for: %q", clip(r.line))
	default:
	}
	timeout := callTimeout(l.timeout, l.started)
	l.started = true
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case l.reqs <- req:
	case r := <-l.resps:
		if r.err != nil {
			return nil, r.err
		}
		return nil, fmt.Errorf("it wrote a line no request asked for: %q", clip(r.line))
	case <-t.C:
		return nil, fmt.Errorf("it did not read its request within %v", timeout)
	}
	select {
	case r := <-l.resps:
		return r.line, r.err
	case <-t.C:
		return nil, fmt.Errorf("it did not answer within %v", timeout)
	}
}

// StartTimeout bounds a referee's first call, which waits for its start
// (an interpreter's, a module's instance and runtime): ten times its
// call_ms, and at least this.
const StartTimeout = 5 * time.Second

// callTimeout is the bound of a call: the referee's call_ms, or for its
// first call the time to start.
func callTimeout(perCall time.Duration, started bool) time.Duration {
	if started {
		return perCall
	}
	return max(StartTimeout, 10*perCall)
}

func (l *lines) close() {
	l.once.Do(func() {
		close(l.done)
		l.stop()
	})
}

func (l *lines) stderr() string { return l.tail.String() }

func (l *lines) exit() string {
	if l.exited == nil {
		return ""
	}
	return l.exited()
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
	cut bool
}

func newTail(n int) *tail { return &tail{max: n} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= t.max {
		t.b = append(t.b[:0], p[len(p)-t.max:]...)
		t.cut = true
		return n, nil
	}
	if over := len(t.b) + len(p) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
		t.cut = true
	}
	t.b = append(t.b, p...)
	return n, nil
}

// String is the kept text, "…" first when some was cut.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(bytes.ToValidUTF8(t.b, []byte("?")))
	if t.cut {
		s = "…" + s
	}
	return s
}

// clip shortens a line for a message.
func clip(b []byte) string {
	const n = 200
	if len(b) > n {
		return string(bytes.ToValidUTF8(b[:n], nil)) + "…"
	}
	return string(b)
}
