//go:build linux

package sandbox

import (
	"judge/sandbox/sandboxtest"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestWaited: a program that shares one CPU with a busy loop waits for
// it, and Waited shows that time grow.
func TestWaited(t *testing.T) {
	t.Parallel()
	argv, dir := build(t, "spin.c")
	for _, level := range []Level{Auto, Basic, None} {
		name := string(level)
		if level == Auto {
			name = "auto"
		}
		t.Run(name, func(t *testing.T) {
			if level.rank() > testHost.Probe().Level.rank() {
				sandboxtest.SkipLevel(t, "level %s is not available here", level)
			}
			p, err := testHost.Start(t.Context(), Spec{Argv: argv, Dir: dir, ReadOnly: []string{dir}, Level: level, Limits: hostileLimits})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { p.Kill(); <-p.Done() }()
			var one unix.CPUSet
			one.Set(0)
			if err := unix.SchedSetaffinity(p.Pid(), &one); err != nil {
				t.Skipf("cannot pin the program to a CPU: %v", err)
			}
			// A busy loop on the same CPU: another process, so that the
			// test's own scheduling is not in the way.
			busy := exec.Command(argv[0])
			if err := busy.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = busy.Process.Kill(); _ = busy.Wait() }()
			if err := unix.SchedSetaffinity(busy.Process.Pid, &one); err != nil {
				t.Fatal(err)
			}
			w0, err := p.Waited()
			if err == ErrNoSchedstat {
				t.Skip(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			w1, err := p.Waited()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("waited %v in 300ms sharing CPU 0 with a busy loop (GOMAXPROCS %d)", w1-w0, runtime.GOMAXPROCS(0))
			if w1 <= w0 {
				t.Errorf("waited %v then %v: no growth while sharing a CPU with a busy loop", w0, w1)
			}
			// Thread by thread: the same waits, and the time on a CPU of
			// a program that spins.
			byThread := map[int]Times{-1: {}}
			w2, err := p.WaitedBy(byThread)
			if err != nil {
				t.Fatal(err)
			}
			var sum, ran time.Duration
			for _, tt := range byThread {
				sum += tt.Waited
				ran += tt.Ran
			}
			if _, stale := byThread[-1]; stale || len(byThread) == 0 || sum != w2 || ran <= 0 {
				t.Errorf("by thread %v: %v waited in all (WaitedBy says %v), %v on a CPU", byThread, sum, w2, ran)
			}
		})
	}
}
