package bots

import (
	"io"
	"os"
	"time"
)

// maxLogTail is how much of a compiler's output the judge keeps: the
// last bytes, of which a compile error quotes the last 40 lines, at most
// 4000 bytes. Whatever a compiler prints, the judge holds no more.
const maxLogTail = 64 << 10

// tail keeps the last bytes written to it, at most len(buf).
type tail struct {
	buf   []byte
	pos   int // where the next byte goes
	full  bool
	total int64 // bytes written, kept or not
}

func newTail(n int) *tail { return &tail{buf: make([]byte, n)} }

func (t *tail) Write(p []byte) (int, error) {
	n := len(p)
	t.total += int64(n)
	if len(p) >= len(t.buf) {
		p = p[len(p)-len(t.buf):]
	}
	for len(p) > 0 {
		k := copy(t.buf[t.pos:], p)
		p = p[k:]
		if t.pos += k; t.pos == len(t.buf) {
			t.pos, t.full = 0, true
		}
	}
	return n, nil
}

// Bytes are the bytes kept, oldest first.
func (t *tail) Bytes() []byte {
	if !t.full {
		return append([]byte(nil), t.buf[:t.pos]...)
	}
	return append(append([]byte(nil), t.buf[t.pos:]...), t.buf[:t.pos]...)
}

// logPipe is a pipe for a compiler's output whose reader keeps its tail.
type logPipe struct {
	w    *os.File // the compiler's stdout and stderr
	r    *os.File
	t    *tail
	done chan struct{}
}

func newLogPipe() (*logPipe, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	lp := &logPipe{w: w, r: r, t: newTail(maxLogTail), done: make(chan struct{})}
	go func() {
		defer close(lp.done)
		_, _ = io.Copy(lp.t, r)
	}()
	return lp, nil
}

// logWait bounds the wait for the end of a compiler's output once it has
// ended: a process that escaped it (level none) may hold the pipe.
const logWait = 2 * time.Second

// text closes the judge's end of the pipe and returns what was kept of
// the output, once every writer has closed its end or after logWait.
func (lp *logPipe) text() []byte {
	lp.w.Close()
	t := time.NewTimer(logWait)
	defer t.Stop()
	select {
	case <-lp.done:
	case <-t.C:
		lp.r.Close()
		<-lp.done
	}
	lp.r.Close()
	return lp.t.Bytes()
}
