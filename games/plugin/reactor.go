package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"
)

// StepExport is the function a WebAssembly referee built as a reactor
// exports (a WASI module with no _start: Go's -buildmode=c-shared): each
// call reads one request line from its stdin and writes its response
// line to its stdout, then returns. The judge calls it on the goroutine
// that asks, with nothing between them.
const StepExport = "referee_step"

// initExport is a reactor's set-up, called once before its first step
// when it exports one (WASI's convention).
const initExport = "_initialize"

// reactorIO is an instance of a reactor: a request becomes its stdin, the
// step is called, and the line it wrote is the answer. Calls are made
// one at a time, from any goroutine.
type reactorIO struct {
	ready   chan struct{} // closed once instantiated and set up (or failed)
	mod     api.Module
	step    api.Function
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration
	timer   *time.Timer // halts a step that outlives its call
	tail    *tail

	// err, once set, is why it takes no more calls.
	err error
	// pending is what the module has not read of its stdin; out cuts
	// its stdout into lines (a step may leave one unended, as a command
	// may), lines the whole ones written in this step.
	pending []byte
	out     lineWriter
	lines   [][]byte
	// starved: it read with nothing left; tooLong: its line passed
	// MaxAnswer.
	starved, tooLong bool

	stop   stopSwitch
	closed atomic.Bool
	once   sync.Once
}

// newReactor starts an instance of a reactor module in a goroutine: its
// calls wait for it.
func (c *wasmCode) newReactor(timeout time.Duration) *reactorIO {
	ctx, cancel := context.WithCancel(context.Background())
	r := &reactorIO{ready: make(chan struct{}), ctx: ctx, cancel: cancel, timeout: timeout, tail: newTail(StderrTail)}
	r.timer = time.AfterFunc(time.Hour, r.halt)
	r.timer.Stop()
	go func() {
		defer close(r.ready)
		r.err = c.setUp(r)
	}()
	return r
}

// setUp instantiates the module for r and runs its _initialize, within
// the time a referee has to start.
func (c *wasmCode) setUp(r *reactorIO) error {
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithArgs("referee").
		WithStdin(reactorIn{r}).
		WithStdout(reactorOut{r}).
		WithStderr(r.tail).
		WithStartFunctions()
	ctx := r.ctx
	if c.checked {
		ctx = experimental.WithMemoryAllocator(ctx, memoryAllocator())
	}
	r.timer.Reset(callTimeout(r.timeout, false))
	defer r.timer.Stop()
	m, err := c.rt.InstantiateModule(ctx, c.mod, cfg)
	if err != nil {
		return r.failure(err)
	}
	r.mod = m
	if c.checked {
		g, ok := m.ExportedGlobal(stopGlobal).(api.MutableGlobal)
		if !ok {
			return errNotChecked
		}
		r.stop.arm(g)
	}
	if f := m.ExportedFunction(initExport); f != nil {
		if _, err := f.Call(r.ctx); err != nil {
			return r.failure(err)
		}
	}
	r.step = m.ExportedFunction(StepExport)
	return nil
}

// failure says how a call into the module failed.
func (r *reactorIO) failure(err error) error {
	switch {
	case r.closed.Load():
		return errClosed
	case r.stop.halted():
		return fmt.Errorf("it did not answer within %v", r.timeout)
	}
	var ee *sys.ExitError
	if errors.As(err, &ee) {
		return exitError(err)
	}
	return fmt.Errorf("it failed: %w", err)
}

// errClosed is a reactor's state once closed.
var errClosed = errors.New("the referee was closed")

func (r *reactorIO) call(req []byte) ([]byte, error) {
	select {
	case <-r.ready:
	default: // being set up: at most the time to start
		t := time.NewTimer(callTimeout(r.timeout, false))
		select {
		case <-r.ready:
			t.Stop()
		case <-t.C:
			return nil, fmt.Errorf("it did not start within %v", callTimeout(r.timeout, false))
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	r.pending = append(append(r.pending, req...), '\n')
	r.lines = r.lines[:0]
	r.timer.Reset(r.timeout)
	_, err := r.step.Call(r.ctx)
	r.timer.Stop()
	switch {
	case err != nil:
		r.err = r.failure(err)
	case r.tooLong:
		r.err = errTooLong
	case r.starved:
		r.err = errStarved
	case len(r.lines) == 0:
		r.err = fmt.Errorf("its %s returned without writing a line", StepExport)
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.lines) > 1 {
		// As a WASI command's: the line is its fault at the next call,
		// its answer read first.
		r.err = fmt.Errorf("it wrote a line no request asked for: %q", clip(r.lines[1]))
	}
	return r.lines[0], nil
}

// halt stops the module where it runs, as wasmIO.halt does.
func (r *reactorIO) halt() {
	r.stop.throw()
	r.cancel()
}

func (r *reactorIO) close() {
	r.once.Do(func() {
		r.closed.Store(true)
		r.halt()
		<-r.ready
		if r.err == nil {
			r.err = errClosed
		}
		if r.mod != nil {
			r.mod.Close(context.Background())
		}
	})
}

func (r *reactorIO) stderr() string { return r.tail.String() }

func (r *reactorIO) exit() string { return "" }

// near does nothing: a step runs on the caller's thread.
func (r *reactorIO) near() {}

// quiet implements transport.quiet: a reactor writes only within a step.
func (r *reactorIO) quiet() bool { return r.err == nil && len(r.out.line) == 0 }

// reactorIn is a reactor's stdin: the requests given to it, and nothing
// more (reading past them is its fault).
type reactorIn struct{ r *reactorIO }

func (in reactorIn) Read(p []byte) (int, error) {
	r := in.r
	if len(r.pending) == 0 {
		r.starved = true
		return 0, io.EOF
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	if len(r.pending) == 0 {
		r.pending = nil
	}
	return n, nil
}

// reactorOut is a reactor's stdout: the lines of its answers.
type reactorOut struct{ r *reactorIO }

func (o reactorOut) Write(p []byte) (int, error) {
	r := o.r
	return r.out.write(p, func(line []byte) error {
		r.lines = append(r.lines, line)
		return nil
	}, func() { r.tooLong = true })
}
