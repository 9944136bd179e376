package plugin

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"judge/games/plugin/plugintest"
)

// A small module assembled by hand, its sections in order.

func uleb(n int) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func vec(items ...[]byte) []byte {
	b := uleb(len(items))
	for _, it := range items {
		b = append(b, it...)
	}
	return b
}

func sec(id byte, body []byte) []byte {
	return append(append([]byte{id}, uleb(len(body))...), body...)
}

func name(s string) []byte { return append(uleb(len(s)), s...) }

// body is a function's code: its locals (already a vector) and
// instructions.
func body(code ...byte) []byte { return append(uleb(len(code)), code...) }

// loopModule exports _start, a loop without end, and sum(n), 1+2+...+n
// (mod 2^32) by a loop; with memory, it has a memory of one page; with
// start, a start section that calls sum.
func loopModule(memory, start bool) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(1, vec([]byte{0x60, 0, 0}, []byte{0x60, 1, 0x7f, 1, 0x7f}))...)
	m = append(m, sec(3, vec([]byte{0}, []byte{1}, []byte{0}))...)
	if memory {
		m = append(m, sec(5, vec([]byte{0x00, 0x01}))...)
	}
	m = append(m, sec(7, vec(append(name("_start"), 0, 0), append(name("sum"), 0, 1)))...)
	if start {
		m = append(m, sec(8, uleb(2))...)
	}
	forever := body(0, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b)
	sum := body(1, 1, 0x7f, // one i32 local: the sum
		0x02, 0x40, 0x03, 0x40, // block, loop
		0x20, 0x00, 0x45, 0x0d, 0x01, // n == 0: out
		0x20, 0x01, 0x20, 0x00, 0x6a, 0x21, 0x01, // sum += n
		0x20, 0x00, 0x41, 0x01, 0x6b, 0x21, 0x00, // n--
		0x0c, 0x00, 0x0b, 0x0b, // again
		0x20, 0x01, 0x0b)
	noop := body(0, 0x0b)
	return append(m, sec(10, vec(forever, sum, noop))...)
}

// TestStopChecks: a module with the stop checks computes what it did
// without them, lets the Go runtime stop the world while it loops, and
// stops once its stop global is set.
func TestStopChecks(t *testing.T) {
	ctx := context.Background()
	code, err := addStopChecks(loopModule(true, false))
	if err != nil {
		t.Fatal(err)
	}
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	plain, err := rt.InstantiateWithConfig(ctx, loopModule(true, false), wazero.NewModuleConfig().WithName("plain").WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	m, err := rt.InstantiateWithConfig(ctx, code, wazero.NewModuleConfig().WithName("checked").WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	const n = 3 * stopEvery // the countdown runs out, more than once
	want, err := plain.ExportedFunction("sum").Call(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.ExportedFunction("sum").Call(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != want[0] {
		t.Errorf("sum(%d) = %d with the checks, %d without", n, got[0], want[0])
	}
	stop, ok := m.ExportedGlobal(stopGlobal).(api.MutableGlobal)
	if !ok {
		t.Fatalf("no mutable global %s", stopGlobal)
	}
	done := make(chan error, 1)
	go func() {
		_, err := m.ExportedFunction("_start").Call(ctx)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // in its loop
	gc := make(chan struct{})
	go func() {
		runtime.GC() // stops the world: the loop must let it
		close(gc)
	}()
	select {
	case <-gc:
	case err := <-done:
		t.Fatalf("the loop ended by itself: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("a garbage collection waited a minute for the looping module")
	}
	stop.Set(1)
	select {
	case err := <-done:
		if err == nil {
			t.Error("the stopped loop returned no error")
		}
	case <-time.After(time.Minute):
		t.Fatal("the loop went on a minute after its stop")
	}
}

// TestStopChecksRefused: a module the checks cannot serve is refused,
// and left to wazero's own.
func TestStopChecksRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		code []byte
	}{
		{"start section", loopModule(true, true)},
		{"no memory", loopModule(false, false)},
		{"not a module", []byte("#!/bin/sh\n")},
		{"cut short", loopModule(true, false)[:40]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := addStopChecks(tc.code); !errors.Is(err, errNotChecked) {
				t.Errorf("got %v, want errNotChecked", err)
			}
		})
	}
}

// TestExampleRefereesChecked: the example referees compile with the stop
// checks (a module that cannot be given them still runs, at wazero's
// slower checks: this is where it would show).
func TestExampleRefereesChecked(t *testing.T) {
	root := plugintest.Root(t)
	dir := t.TempDir()
	for _, src := range []string{
		filepath.Join(root, "examples", "games", "connect4"),
		filepath.Join(root, "examples", "games", "othello", "go"),
		filepath.Join(root, "games", "plugin", "testdata", "hostile"),
	} {
		out := filepath.Join(dir, filepath.Base(src)+".wasm")
		plugintest.Build(t, src, out, "wasip1", "wasm")
		code, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		c, err := compileWasm(context.Background(), code, 64, "")
		if err != nil {
			t.Fatal(err)
		}
		if !c.checked {
			_, err := addStopChecks(code)
			t.Errorf("%s: compiled without the stop checks: %v", src, err)
		}
		c.rt.Close(context.Background())
	}
}

// FuzzStopChecks: any bytes are refused or give a module whose checks
// can be added again; a module wazero compiles still compiles with them.
func FuzzStopChecks(f *testing.F) {
	f.Add(loopModule(true, false))
	f.Add(loopModule(true, true))
	f.Add(loopModule(false, false))
	f.Add([]byte("\x00asm\x01\x00\x00\x00"))
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	f.Fuzz(func(t *testing.T, code []byte) {
		out, err := addStopChecks(code)
		if err != nil {
			if !errors.Is(err, errNotChecked) {
				t.Fatalf("error %v does not wrap errNotChecked", err)
			}
			return
		}
		if _, err := addStopChecks(out); err != nil && !errors.Is(err, errNotChecked) {
			t.Fatalf("checks added to the checked module: %v", err)
		}
		mod, err := rt.CompileModule(ctx, code)
		if err != nil {
			return
		}
		defer mod.Close(ctx)
		checked, err := rt.CompileModule(ctx, out)
		if err != nil {
			t.Fatalf("compiles without the checks, not with them: %v", err)
		}
		checked.Close(ctx)
	})
}

// checkCodeByInstruction is checkCode as it was before its fast paths:
// every instruction read by instruction and copied on its own.
func checkCodeByInstruction(body, check []byte) ([]byte, error) {
	r := reader{b: body}
	n := r.u32()
	out := binary.AppendUvarint(make([]byte, 0, len(body)+len(body)/8), uint64(n))
	var fn []byte
	for ; n > 0 && r.err == nil; n-- {
		size := r.u32()
		f := reader{b: r.bytes(int(size))}
		if r.err != nil {
			break
		}
		fn = fn[:0]
		for locals := f.u32(); locals > 0 && f.err == nil; locals-- {
			f.u32()
			f.valType()
		}
		fn = append(fn, f.b[:f.i]...)
		fn = append(fn, check...)
		for !f.done() && f.err == nil {
			start := f.i
			loop := f.instruction()
			fn = append(fn, f.b[start:f.i]...)
			if loop {
				fn = append(fn, check...)
			}
		}
		if f.err != nil {
			return nil, f.err
		}
		out = binary.AppendUvarint(out, uint64(len(fn)))
		out = append(out, fn...)
	}
	if r.err == nil && !r.done() {
		r.fail(errors.New("bytes after the functions"))
	}
	return out, r.err
}

// FuzzCheckCode: checkCode, with its fast paths for frequent
// instructions, writes what reading each instruction on its own writes,
// and fails where that fails.
func FuzzCheckCode(f *testing.F) {
	for _, body := range [][]byte{
		{1, 8, 0, 0x41, 0x05, 0x1a, 0x03, 0x40, 0x0b, 0x0b},
		{2, 4, 1, 1, 0x7f, 0x0b, 9, 0, 0x28, 0x02, 0x10, 0x36, 0x42, 0x80, 0x01, 0x0b},
		{1, 6, 0, 0x20, 0x80, 0x80, 0x01, 0x0b}, {1, 5, 0, 0x28, 0x42, 0x00, 0x0b},
	} {
		f.Add(body)
	}
	check := countdown(5, 6)
	f.Fuzz(func(t *testing.T, body []byte) {
		want, werr := checkCodeByInstruction(body, check)
		got, err := checkCode(body, check)
		if (err != nil) != (werr != nil) || err == nil && !bytes.Equal(got, want) {
			t.Errorf("% x: %x, %v; by instruction %x, %v", body, got, err, want, werr)
		}
	})
}
