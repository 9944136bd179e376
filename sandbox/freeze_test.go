//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/sandbox/internal/kernel"
)

// TestFreeze checks that a frozen program computes nothing, at every
// level, and that CPU time is accounted.
func TestFreeze(t *testing.T) {
	t.Parallel()
	argv, dir := build(t, "threads.c")
	for _, l := range levels {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			p, err := testHost.Start(t.Context(), Spec{Argv: argv, ReadOnly: []string{dir}, Level: l, Limits: hostileLimits})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				p.Kill()
				<-p.Done()
			}()
			// grows waits, 20 s at most, for the CPU time to pass from:
			// on a loaded machine the busy threads get what they get.
			grows := func(from time.Duration) time.Duration {
				for deadline := time.Now().Add(20 * time.Second); ; {
					c, err := p.CPUTime()
					if err != nil {
						t.Fatal(err)
					}
					if c >= from || time.Now().After(deadline) {
						return c
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			c0 := grows(50 * time.Millisecond)
			if c0 < 50*time.Millisecond {
				t.Errorf("CPU time after 20s of busy threads is %v", c0)
			}
			if err := p.Freeze(); err != nil {
				t.Fatal(err)
			}
			// Freezing is asynchronous (the init sends SIGSTOP on cgroup
			// v1, and on a loaded machine it may wait to be scheduled):
			// what proves it done is that none of the busy threads is
			// runnable any more. Then they cannot run, however long the
			// machine lets them be: their CPU time stays still.
			if !settles(p) {
				t.Fatalf("frozen, threads of the program are still runnable after 20s: %v", runnable(p))
			}
			// A thread is seen stopped as it goes off its CPU, and its
			// last run is counted then: up to a tick (4 ms on a kernel
			// of 250 Hz) later, on a slow machine. From when the clock
			// holds still, it must stay still.
			c1, _ := p.CPUTime()
			for i := 0; i < 100; i++ {
				time.Sleep(20 * time.Millisecond)
				c, _ := p.CPUTime()
				if c == c1 {
					break
				}
				c1 = c
			}
			time.Sleep(300 * time.Millisecond)
			c2, _ := p.CPUTime()
			if r := runnable(p); len(r) > 0 {
				t.Errorf("frozen, threads %v became runnable again", r)
			}
			if d := c2 - c1; d > 2*time.Millisecond {
				t.Errorf("frozen, with none of its threads runnable, it used %v of CPU in 300ms", d)
			}
			if err := p.Thaw(); err != nil {
				t.Fatal(err)
			}
			c3 := grows(c2 + 50*time.Millisecond)
			if c3-c2 < 50*time.Millisecond {
				t.Errorf("thawed, it used only %v of CPU in 20s", c3-c2)
			}
			t.Logf("cpu: %v, frozen +%v, thawed +%v", c0, c2-c1, c3-c2)
		})
	}
}

// runnable lists the threads of p's processes that are runnable (state
// R: running or waiting for a CPU), as pid/tid.
func runnable(p *Process) []string {
	var out []string
	var buf [512]byte
	for _, pid := range p.waitedPids() {
		for _, tid := range kernel.Tasks(pid, nil) {
			if kernel.ProcState(fmt.Sprintf("/proc/%d/task/%d/stat", pid, tid), buf[:]) == 'R' {
				out = append(out, fmt.Sprintf("%d/%d", pid, tid))
			}
		}
	}
	return out
}

// settles waits, 20 s at most, until no thread of p is runnable, and
// says whether that came.
func settles(p *Process) bool {
	for deadline := time.Now().Add(20 * time.Second); ; {
		if len(runnable(p)) == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestKillFrozen checks that a frozen sandbox still dies at once.
func TestKillFrozen(t *testing.T) {
	t.Parallel()
	argv, dir := build(t, "daemon.c")
	for _, l := range levels {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			p, err := testHost.Start(t.Context(), Spec{Argv: argv, ReadOnly: []string{dir}, Level: l, Limits: hostileLimits})
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
			_ = p.Freeze()
			p.Kill()
			select {
			case <-p.Done():
			case <-time.After(5 * time.Second):
				t.Fatal("a frozen sandbox did not die within 5s")
			}
			left := remains(dir)
			if l != None && len(left) > 0 {
				t.Errorf("processes remain: %q", left)
			}
			// At level none the daemon outlives its process group, as
			// it may there: ended here, by pid.
			for _, r := range left {
				if pid, err := strconv.Atoi(strings.SplitN(r, ":", 2)[0]); err == nil {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		})
	}
}

// TestWall checks the wall-clock backstop.
func TestWall(t *testing.T) {
	t.Parallel()
	argv, dir := build(t, "sleep.c")
	lim := hostileLimits
	lim.Wall = 200 * time.Millisecond
	p, err := testHost.Start(t.Context(), Spec{Argv: argv, ReadOnly: []string{dir}, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the wall-clock limit did not stop the program")
	}
	if e := p.Exit(); !e.Wall || e.Signal == 0 {
		t.Errorf("exit %v, want killed for wall-clock time", e)
	}
}

// TestStartErrors checks that what cannot run is an error of Start.
func TestStartErrors(t *testing.T) {
	t.Parallel()
	for _, l := range []Level{testHost.Probe().Level, Basic} {
		if _, err := testHost.Start(t.Context(), Spec{Argv: []string{"no-such-program-here"}, Level: l}); err == nil {
			t.Errorf("%s: starting a missing program: no error", l)
		}
		if _, err := testHost.Start(t.Context(), Spec{Argv: []string{"/etc/hostname"}, Level: l}); err == nil {
			t.Errorf("%s: starting a file that is no program: no error", l)
		}
	}
	if _, err := testHost.Start(t.Context(), Spec{Argv: []string{"true"}, Level: "bogus"}); err == nil {
		t.Error("an unknown level: no error")
	}
}

func benchStart(b *testing.B, h *Host, l Level) {
	if l.rank() > h.Probe().Level.rank() {
		b.Skipf("level %s is not available", l)
	}
	for b.Loop() {
		p, err := h.Start(b.Context(), Spec{Argv: []string{"/bin/true"}, Level: l, Limits: DefaultLimits})
		if err != nil {
			b.Fatal(err)
		}
		<-p.Done()
	}
}

// BenchmarkStart measures starting a sandboxed program and seeing it end;
// "full-2-at-once" starts two at a time, as a match starts its bots, and
// reports the time per program.
func BenchmarkStart(b *testing.B) {
	for _, l := range levels {
		b.Run(string(l), func(b *testing.B) { benchStart(b, testHost, l) })
	}
	b.Run("full-2-at-once", func(b *testing.B) {
		if testHost.Probe().Level != Full {
			b.Skip("level full is not available here")
		}
		b.SetParallelism(1) // GOMAXPROCS goroutines: 2 on the 2-core machine
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				p, err := testHost.Start(b.Context(), Spec{Argv: []string{"/bin/true"}, Level: Full, Limits: DefaultLimits})
				if err != nil {
					b.Error(err)
					return
				}
				<-p.Done()
			}
		})
	})
}

// BenchmarkQuery measures one query and answer with a program (cat),
// sandboxed or not.
func BenchmarkQuery(b *testing.B) {
	for _, l := range levels {
		b.Run(string(l), func(b *testing.B) {
			if l.rank() > testHost.Probe().Level.rank() {
				b.Skipf("level %s is not available", l)
			}
			inR, inW, _ := os.Pipe()
			outR, outW, _ := os.Pipe()
			p, err := testHost.Start(b.Context(), Spec{Argv: []string{"/bin/cat"}, Level: l, Limits: DefaultLimits, Stdin: inR, Stdout: outW})
			inR.Close()
			outW.Close()
			if err != nil {
				b.Fatal(err)
			}
			defer func() {
				inW.Close()
				p.Kill()
				<-p.Done()
				outR.Close()
			}()
			r := bufio.NewReader(outR)
			q := []byte("board 3 3\n")
			for b.Loop() {
				if _, err := inW.Write(q); err != nil {
					b.Fatal(err)
				}
				if _, err := r.ReadSlice('\n'); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// sleeper starts a program that sleeps at level l for a benchmark, and
// kills it at the benchmark's end; it skips levels not available here.
func sleeper(b *testing.B, l Level) *Process {
	b.Helper()
	if l.rank() > testHost.Probe().Level.rank() {
		b.Skipf("level %s is not available", l)
	}
	p, err := testHost.Start(b.Context(), Spec{Argv: []string{"/bin/sleep", "1000"}, Level: l, Limits: DefaultLimits})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		p.Kill()
		<-p.Done()
	})
	return p
}

// BenchmarkFreezeThaw measures freezing and thawing a program once, as
// every turn does.
func BenchmarkFreezeThaw(b *testing.B) {
	for _, l := range levels {
		b.Run(string(l), func(b *testing.B) {
			p := sleeper(b, l)
			for b.Loop() {
				if err := p.Freeze(); err != nil {
					b.Fatal(err)
				}
				if err := p.Thaw(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStartUnpooled is BenchmarkStart/full with a new sandbox built
// for every program, as before sandboxes were reused: the two in one run
// give the ratio.
func BenchmarkStartUnpooled(b *testing.B) {
	h := NewHost(Options{NoReuse: true})
	defer h.Close()
	benchStart(b, h, Full)
}

// BenchmarkTurn measures the sandbox's work of one turn of a bot, as the
// match loop does it: thaw, read the CPU time, read it again at the end,
// freeze. Level none gives the floor it is compared with.
func BenchmarkTurn(b *testing.B) {
	for _, l := range levels {
		b.Run(string(l), func(b *testing.B) {
			p := sleeper(b, l)
			_ = p.Freeze()
			for b.Loop() {
				if err := p.Thaw(); err != nil {
					b.Fatal(err)
				}
				if _, err := p.CPUTime(); err != nil {
					b.Fatal(err)
				}
				if _, err := p.CPUTime(); err != nil {
					b.Fatal(err)
				}
				if err := p.Freeze(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestFreezeKeepsWritesWhole freezes and thaws, again and again, a
// program blocked writing big lines to a full pipe with single write(2)
// calls: no write may come back short, no line may be torn. It does so
// in a reused sandbox and in one built for the program ("-unpooled").
func TestFreezeKeepsWritesWhole(t *testing.T) {
	t.Parallel()
	argv, dir := build(t, "bigwrite.c")
	for _, c := range []struct {
		l      Level
		pooled bool
	}{{Full, true}, {Namespaces, true}, {Full, false}, {Namespaces, false}} {
		l := c.l
		name := string(l)
		if !c.pooled {
			name += "-unpooled"
		}
		t.Run(name, func(t *testing.T) {
			available(t, l)
			h := testHost
			if !c.pooled {
				h = NewHost(Options{NoReuse: true})
				defer h.Close()
			}
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			er, ew, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			p, err := h.Start(t.Context(), Spec{Argv: argv, ReadOnly: []string{dir}, Level: l, Limits: hostileLimits, Stdout: w, Stderr: ew})
			w.Close()
			ew.Close()
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				p.Kill()
				<-p.Done()
			}()
			go func() {
				b, _ := io.ReadAll(er)
				if len(b) > 0 {
					t.Errorf("stderr: %s", b)
				}
			}()
			rd := bufio.NewReaderSize(r, 4096)
			buf := make([]byte, 4096)
			var line []byte
			lines := 0
			for {
				n, err := rd.Read(buf)
				for _, c := range buf[:n] {
					if c == '\n' {
						if len(line) != 1<<20-1 || bytes.Count(line, line[:1]) != len(line) || line[0] != byte('a'+lines) {
							t.Fatalf("line %d is torn: %d bytes", lines, len(line))
						}
						lines++
						line = line[:0]
						continue
					}
					line = append(line, c)
				}
				if err != nil {
					break
				}
				// A turn ends while the program is blocked in its write.
				_ = p.Freeze()
				time.Sleep(20 * time.Microsecond)
				_ = p.Thaw()
			}
			<-p.Done()
			if e := p.Exit(); e.Code != 0 || lines != 8 {
				t.Errorf("exit %v after %d whole lines, want exit code 0 after 8", e, lines)
			}
		})
	}
}
