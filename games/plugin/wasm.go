package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// wasmCode is a referee module compiled once, for every match of its
// game: a runtime of its own bounds each instance's memory.
type wasmCode struct {
	rt  wazero.Runtime
	mod wazero.CompiledModule
}

// compileWasm compiles a referee module. Its instances may use memMiB
// MiB of linear memory.
func compileWasm(ctx context.Context, code []byte, memMiB int) (*wasmCode, error) {
	cfg := wazero.NewRuntimeConfig().
		WithMemoryLimitPages(uint32(memMiB) * 16). // pages of 64 KiB
		WithCloseOnContextDone(true)
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
	if _, ok := mod.ExportedFunctions()["_start"]; !ok {
		rt.Close(ctx)
		return nil, errors.New("the module exports no _start: build a WASI command (GOOS=wasip1 GOARCH=wasm go build)")
	}
	return &wasmCode{rt: rt, mod: mod}, nil
}

// wasmExitWait bounds the wait for an instance to end once closed.
const wasmExitWait = 5 * time.Second

// start instantiates the module for one match: its _start runs in a
// goroutine, reading requests on stdin and writing responses on stdout.
// It sees no file, no network, fake clocks that do not follow the wall
// clock and the runtime's fixed random bytes: its only randomness is the
// seed of the new request.
func (c *wasmCode) start(timeout time.Duration) transport {
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t := newTail(StderrTail)
	cfg := wazero.NewModuleConfig().
		WithName(""). // instances of one module side by side
		WithArgs("referee").
		WithStdin(inR).
		WithStdout(outW).
		WithStderr(t)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		m, err := c.rt.InstantiateModule(ctx, c.mod, cfg)
		if m != nil {
			m.Close(context.Background())
		}
		outW.CloseWithError(exitError(err))
		inR.CloseWithError(io.ErrClosedPipe)
	}()
	stop := func() {
		cancel()
		inW.CloseWithError(io.ErrClosedPipe)
		outR.CloseWithError(io.ErrClosedPipe)
		select {
		case <-ended:
		case <-time.After(wasmExitWait):
		}
	}
	return newLines(inW, outR, timeout, t, stop)
}

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
