package plugin

import (
	"bytes"
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
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// wasmCode is a referee module compiled once, for every match of its
// game: a runtime of its own bounds each instance's memory.
type wasmCode struct {
	rt  wazero.Runtime
	mod wazero.CompiledModule
	// checked: the module has the judge's stop checks (addStopChecks);
	// else wazero checks the instance's context in every loop.
	checked bool
	// reactor: the module exports StepExport and no _start; else it is
	// a WASI command, whose _start reads requests in a loop.
	reactor bool
	// spare is an instance started ahead for the next match (its Go
	// runtime, say, set up while this match plays); filling says one is
	// being started.
	spare   chan transport
	filling atomic.Bool
}

// compileWasm compiles a referee module, with the judge's stop checks
// when it can add them. Its instances may use memMiB MiB of linear
// memory. With cacheDir, the compiled code is kept there between runs
// (Options.CacheDir): a cache that cannot be used is done without.
func compileWasm(ctx context.Context, code []byte, memMiB int, cacheDir string) (*wasmCode, error) {
	var cache wazero.CompilationCache
	if cacheDir != "" {
		cache = openCache(cacheDir)
	}
	compile := func(code []byte, checked bool) (*wasmCode, error) {
		if cache != nil {
			if c, err := compileModule(ctx, code, memMiB, checked, cache); err == nil {
				return c, nil
			}
		}
		return compileModule(ctx, code, memMiB, checked, nil)
	}
	if checked, err := addStopChecks(code); err == nil {
		if c, err := compile(checked, true); err == nil {
			return c, nil
		}
	}
	return compile(code, false)
}

// openCache is wazero's compilation cache in dir, or nil when dir is not
// the judge's own (privateDir).
func openCache(dir string) wazero.CompilationCache {
	if privateDir(dir) != nil {
		return nil
	}
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cache
}

// compileModule compiles code in a runtime of its own; checked says it
// has the judge's stop checks; cache, when not nil, is where compiled
// code is looked up and kept.
func compileModule(ctx context.Context, code []byte, memMiB int, checked bool, cache wazero.CompilationCache) (*wasmCode, error) {
	cfg := wazero.NewRuntimeConfig().
		WithMemoryLimitPages(uint32(memMiB) * 16). // pages of 64 KiB
		WithCloseOnContextDone(!checked)
	if cache != nil {
		cfg = cfg.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("wasi: %w", err)
	}
	mod, err := rt.CompileModule(ctx, code)
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	exports := mod.ExportedFunctions()
	_, command := exports["_start"]
	step, reactor := exports[StepExport]
	switch {
	case command:
		reactor = false
	case !reactor:
		rt.Close(ctx)
		return nil, fmt.Errorf("the module exports neither _start nor %s: build a WASI command (GOOS=wasip1 GOARCH=wasm go build) "+
			"or a reactor exporting %s (GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared)", StepExport, StepExport)
	case len(step.ParamTypes()) != 0 || len(step.ResultTypes()) != 0:
		rt.Close(ctx)
		return nil, fmt.Errorf("its %s takes %d parameters and returns %d results: want none", StepExport, len(step.ParamTypes()), len(step.ResultTypes()))
	}
	return &wasmCode{rt: rt, mod: mod, checked: checked, reactor: reactor, spare: make(chan transport, 1)}, nil
}

// wasmExitWait bounds the wait for an instance to end once closed.
const wasmExitWait = 5 * time.Second

// start instantiates the module for one match, or takes the one started
// ahead; with ahead, it starts another ahead for the next match. An
// instance sees no file, no network, wazero's fake clocks (which do not
// follow the machine's) and its fixed random bytes: its only randomness
// is the seed of the new request.
func (c *wasmCode) start(timeout time.Duration, ahead bool) transport {
	var w transport
	select {
	case w = <-c.spare:
	default:
		w = c.instance(timeout)
	}
	if ahead {
		go c.refill(timeout)
	}
	return w
}

// refill starts an instance ahead, unless one is there or being started.
func (c *wasmCode) refill(timeout time.Duration) {
	if !c.filling.CompareAndSwap(false, true) {
		return
	}
	defer c.filling.Store(false)
	if len(c.spare) == 0 {
		c.spare <- c.instance(timeout)
	}
}

// instance starts an instance of the module: a reactor's set-up, or a
// command's _start, runs in a goroutine.
func (c *wasmCode) instance(timeout time.Duration) transport {
	if c.reactor {
		return c.newReactor(timeout)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &wasmIO{exchange: newExchange(timeout), done: make(chan struct{}),
		ended: make(chan struct{}), tail: newTail(StderrTail), cancel: cancel}
	cfg := wazero.NewModuleConfig().
		WithName(""). // instances of one module side by side
		WithArgs("referee").
		WithStdin(w).
		WithStdout(stdout{w}).
		WithStderr(w.tail)
	go func() {
		defer close(w.ended)
		err := c.run(ctx, w, cfg)
		select {
		case w.resps <- response{err: exitError(err)}:
		case <-w.done:
		}
	}()
	return w
}

// run runs an instance's _start, until it returns or is stopped.
func (c *wasmCode) run(ctx context.Context, w *wasmIO, cfg wazero.ModuleConfig) error {
	if !c.checked {
		m, err := c.rt.InstantiateModule(ctx, c.mod, cfg)
		if m != nil {
			m.Close(context.Background())
		}
		return err
	}
	m, err := c.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, memoryAllocator()), c.mod, cfg.WithStartFunctions())
	if err != nil {
		return err
	}
	// Closed once _start has returned: only then may its memory go.
	defer m.Close(context.Background())
	g, ok := m.ExportedGlobal(stopGlobal).(api.MutableGlobal)
	if !ok {
		return errNotChecked
	}
	w.stop.arm(g)
	_, err = m.ExportedFunction("_start").Call(ctx)
	if ee, ok := errors.AsType[*sys.ExitError](err); ok && ee.ExitCode() == 0 {
		return nil
	}
	return err
}

// wasmIO is an instance's stdin and stdout as the judge's calls see
// them: a request is handed straight to the module's read, and a line it
// writes straight back to the call, with no pipe or goroutine between.
type wasmIO struct {
	exchange               // requests to the module's read; its lines, or how it ended
	pending  []byte        // what the module has not read of a request
	asked    bool          // the module has read a request it has not answered
	out      lineWriter    // its stdout, cut into lines
	done     chan struct{} // closed by close
	ended    chan struct{} // closed when _start has returned
	tail     *tail
	cancel   context.CancelFunc
	// stop is the instance's stop global (a module with the stop
	// checks).
	stop stopSwitch
	once sync.Once
}

// errStarved is a module that waits for more input with its request read
// and not answered: no more comes until it answers.
var errStarved = errors.New("it read its request and waited for more input without answering")

// Read implements the module's stdin.
func (w *wasmIO) Read(p []byte) (int, error) {
	if len(w.pending) == 0 {
		if w.asked && !w.send(response{err: errStarved}) {
			return 0, io.EOF
		}
		select {
		case r := <-w.reqs:
			w.pending = r
			w.asked = true
		case <-w.done:
			return 0, io.EOF
		}
	}
	n := copy(p, w.pending)
	w.pending = w.pending[n:]
	return n, nil
}

// stdout is the module's stdout: wasmIO's Write under another name, as
// wasmIO is its stdin.
type stdout struct{ w *wasmIO }

func (o stdout) Write(p []byte) (int, error) {
	w := o.w
	return w.out.write(p, func(line []byte) error {
		w.asked = false
		if !w.send(response{line: line}) {
			return io.ErrClosedPipe
		}
		return nil
	}, func() { w.send(response{err: errTooLong}) })
}

// lineWriter cuts a module's stdout into lines, none of MaxAnswer bytes
// or more.
type lineWriter struct {
	line []byte // the line being written
}

// write takes p, calling each with every line it ends (without its
// newline, nor a carriage return before it), and tooLong before it
// fails with errTooLong.
func (l *lineWriter) write(p []byte, each func(line []byte) error, tooLong func()) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		end := i
		if i < 0 {
			end = len(p)
		}
		if len(l.line)+end >= MaxAnswer {
			tooLong()
			return 0, errTooLong
		}
		l.line = append(l.line, p[:end]...)
		if i < 0 {
			break
		}
		line := bytes.TrimSuffix(l.line, []byte("\r"))
		l.line = nil
		if err := each(line); err != nil {
			return 0, err
		}
		p = p[i+1:]
	}
	return n, nil
}

// send hands r to the call waiting for it, or reports that the referee
// was closed.
func (w *wasmIO) send(r response) bool {
	select {
	case w.resps <- r:
		return true
	case <-w.done:
		return false
	}
}

func (w *wasmIO) call(req []byte) ([]byte, error) {
	return w.exchange.call(append(req, '\n'))
}

// halt stops the module where it runs: its stop global set (it traps
// within a few thousand of its functions and loops), or its context
// cancelled (wazero's checks). It may be called from any goroutine.
func (w *wasmIO) halt() {
	w.stop.throw()
	w.cancel()
}

func (w *wasmIO) close() {
	w.once.Do(func() {
		close(w.done)
		w.halt()
		select {
		case <-w.ended:
		case <-time.After(wasmExitWait):
		}
	})
}

func (w *wasmIO) stderr() string { return w.tail.String() }

// near does nothing: the module runs on the judge's goroutines.
func (w *wasmIO) near() {}

// exit is "": the module's exit code is in the error its end gave.
func (w *wasmIO) exit() string { return "" }

// stopSwitch is an instance's stop global, set once: by halt, or by the
// instantiation that finds halt called before it (the global did not
// exist yet). Either may come from any goroutine, the module running.
type stopSwitch struct {
	mu     sync.Mutex
	global api.MutableGlobal // once instantiated
	thrown atomic.Bool
}

// arm gives the switch its global, set at once when halt came first.
func (s *stopSwitch) arm(g api.MutableGlobal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.global = g
	if s.thrown.Load() {
		g.Set(1)
	}
}

// throw sets the global, once; the module traps at its next check.
func (s *stopSwitch) throw() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.thrown.Swap(true) {
		return
	}
	if s.global != nil {
		s.global.Set(1)
	}
}

// halted reports whether throw was called.
func (s *stopSwitch) halted() bool { return s.thrown.Load() }

// exitError says how an instance's _start ended, as the reader of its
// output sees it.
func exitError(err error) error {
	var ee *sys.ExitError
	switch {
	case err == nil:
		return errors.New("it ended (its _start returned)")
	case errors.As(err, &ee):
		switch ee.ExitCode() {
		case sys.ExitCodeContextCanceled, sys.ExitCodeDeadlineExceeded:
			return errors.New("it was stopped")
		}
		return fmt.Errorf("it exited with code %d", ee.ExitCode())
	}
	return fmt.Errorf("it failed: %w", err)
}
