//go:build linux

package sandbox

import (
	"errors"
	"judge/sandbox/sandboxtest"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
)

// lookAtSelf prints what a program inherits of its sandbox and could
// have been changed by an earlier one: every resource limit, its nice
// value, its CPU affinity, its blocked and ignored signals, its umask,
// its oom_score_adj.
const lookAtSelf = `cat /proc/self/limits; cut -d' ' -f19 /proc/self/stat
	grep -E '^(Cpus_allowed_list|SigBlk|SigIgn|NoNewPrivs|Seccomp|CapBnd)' /proc/self/status; umask
	cat /proc/self/oom_score_adj`

// TestLoweredInitHarmsNobody runs, in a reused sandbox, a program that
// lowers every resource limit, the nice value and the CPU affinity of the
// sandbox's init and of each of its threads (testdata/hostile/lowerinit.c),
// then programs that look at what they inherited. They must see exactly
// what a program in a new sandbox sees. With the seccomp filter the
// limits cannot be changed at all; without it (a machine without
// seccomp) the slot is found spoiled and not used again, and an init that
// dies of it is the sandbox's failure (ErrSandbox), never the program's.
func TestLoweredInitHarmsNobody(t *testing.T) {
	t.Parallel()
	for _, l := range []Level{Full, Namespaces} {
		for _, filter := range []bool{true, false} {
			name := string(l) + "/seccomp"
			if !filter {
				name = string(l) + "/no-seccomp"
			}
			t.Run(name, func(t *testing.T) {
				available(t, l)
				if filter && !testHost.Probe().seccomp {
					sandboxtest.SkipLevel(t, "no seccomp here")
				}
				h := newHost(t, Options{NoSeccomp: !filter})
				argv, dir := build(t, "lowerinit.c")
				want, e, _ := runIn(t, h, l, lookAtSelf, hostileLimits, dir)
				if e.Code != 0 {
					t.Fatalf("%v: %s", e, want)
				}
				for round := 0; round < 3; round++ {
					out, e, s := runArgv(t, h, l, append(argv, "1"), hostileLimits, dir)
					if s == nil {
						t.Fatal("the program ran in no reusable sandbox")
					}
					if round == 0 {
						t.Logf("the saboteur: %v\n%s", e, out)
					}
					switch {
					case e.Err != nil && !errors.Is(e.Err, ErrSandbox):
						t.Errorf("Exit.Err %v does not wrap ErrSandbox", e.Err)
					case e.Err == nil && (e.Code != 0 || !strings.Contains(out, "done\n")):
						t.Errorf("the saboteur ended %v (%q), with its init alive", e, out)
					}
					for _, line := range strings.Split(out, "\n") {
						if filter && strings.HasPrefix(line, "1 ") && !strings.Contains(line, "denied") {
							t.Errorf("allowed under seccomp: %s", line)
						}
					}
					// Under seccomp the slot is intact and used again;
					// without, the init was changed and the slot is not.
					keepOnly(s)
					for i := 0; i < 2; i++ {
						got, e, s2 := runIn(t, h, l, lookAtSelf, hostileLimits, dir)
						if e.Code != 0 || got != want {
							t.Fatalf("a program after the saboteur: %v\n%s\nwant\n%s", e, got, want)
						}
						if i == 0 && (s2 == s) != filter {
							t.Errorf("the saboteur's slot used again: %v", s2 == s)
						}
					}
				}
			})
		}
	}
}

// TestBasicCannotLowerTheJudge: at level basic, where a program shares
// the judge's user (unless the judge is root), the seccomp filter keeps
// it from changing the limits, nice value or affinity of its parent (the
// sandbox's reaper) and of the judge.
func TestBasicCannotLowerTheJudge(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Basic)
	if !h.Probe().seccomp {
		sandboxtest.SkipLevel(t, "no seccomp here")
	}
	argv, dir := build(t, "lowerinit.c")
	before, err := kernel.LimitsOf(0)
	if err != nil {
		t.Fatal(err)
	}
	out, e := run(t, Basic, Spec{Argv: append(argv, strconv.Itoa(os.Getpid())), ReadOnly: []string{dir}, Limits: hostileLimits})
	t.Logf("%v\n%s", e, out)
	if !strings.Contains(out, "done\n") {
		t.Fatalf("the program did not finish: %v, %q", e, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line != "done" && !strings.Contains(line, "denied") {
			t.Errorf("allowed: %s", line)
		}
	}
	after, _ := kernel.LimitsOf(0)
	if d := after.Diff(&before); d != "" {
		t.Errorf("the judge's limits changed: %s", d)
	}
}

// TestSpoiledSlotIsNotReused: a slot whose init a program changed
// unnoticed by the judge (as if its check of the init's limits from
// outside missed it) finds it itself at the next start, says so, and
// the program runs in a new slot. The saboteur lowers only the init's
// open-file limit, which the init lives with until it next opens files:
// a lowered address-space or process limit could kill it at once, and
// that end is TestLoweredInitHarmsNobody's.
func TestSpoiledSlotIsNotReused(t *testing.T) {
	t.Parallel()
	available(t, Namespaces)
	h := newHost(t, Options{NoSeccomp: true})
	argv, dir := build(t, "lowerinit.c")
	want, e, _ := runIn(t, h, Auto, lookAtSelf, hostileLimits, dir)
	if e.Code != 0 {
		t.Fatalf("%v: %s", e, want)
	}
	h.ReleaseIdle()
	if err := h.Prewarm(t.Context(), Spec{Argv: argv, ReadOnly: []string{dir}, Limits: hostileLimits, Env: []string{"PATH=/usr/bin:/bin"}}, 1); err != nil {
		t.Fatal(err)
	}
	h.pool.mu.Lock()
	for _, list := range h.pool.idle {
		for _, s := range list {
			s.limitsOK = false
		}
	}
	h.pool.mu.Unlock()
	out, e, s1 := runArgv(t, h, Auto, append(argv, "--only=NOFILE", "1"), hostileLimits, dir)
	if e.Err != nil || !strings.Contains(out, "1 NOFILE ok") {
		t.Fatalf("the saboteur did not lower its init's limits: %v\n%s", e, out)
	}
	got, e, s2 := runIn(t, h, Auto, lookAtSelf, hostileLimits, dir)
	if s2 == s1 {
		t.Error("the spoiled slot was used again")
	}
	if e.Code != 0 || got != want {
		t.Errorf("after the saboteur: %v\n%s\nwant\n%s", e, got, want)
	}
}

// TestInitDeathIsTheSandboxes: when a reused sandbox's init dies while
// its program runs, the program's end is the sandbox's failure
// (ErrSandbox), not a crash; the next program runs in a new slot.
func TestInitDeathIsTheSandboxes(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			p, err := h.Start(t.Context(), Spec{Argv: []string{"sleep", "1000"}, Env: []string{"PATH=/usr/bin:/bin"}, Level: l, Limits: hostileLimits, ReadOnly: []string{"/tmp"}, Dir: "/tmp"})
			if err != nil {
				t.Fatal(err)
			}
			if p.slotOf() == nil {
				p.Kill()
				t.Fatal("the program ran in no reusable sandbox")
			}
			if err := p.slotOf().cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			<-p.Done()
			e := p.Exit()
			if !errors.Is(e.Err, ErrSandbox) {
				t.Fatalf("the program of a sandbox whose init died: %v, want ErrSandbox", e)
			}
			t.Log(e)
			out, e, s := runIn(t, h, l, "echo ok", hostileLimits, "/tmp")
			if out != "ok\n" || e.Code != 0 || s == p.slotOf() {
				t.Errorf("after the init's death: %q, %v (same slot: %v)", out, e, s == p.slotOf())
			}
		})
	}
}

// TestSmallOpenFileLimits: an open-file limit smaller than what a
// sandbox's init needs for itself binds the program only.
func TestSmallOpenFileLimits(t *testing.T) {
	t.Parallel()
	for _, l := range []Level{Full, Namespaces, Basic} { // (at none, limits apply once the program runs)
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			for _, n := range []int{4, 5, 23, 64} {
				lim := hostileLimits
				lim.OpenFiles = n
				for i := 0; i < 2; i++ { // a new sandbox, then a reused one
					out, e := run(t, l, Spec{Argv: []string{"sh", "-c", "ulimit -n"}, Env: []string{"PATH=/usr/bin:/bin"}, Limits: lim})
					if e.Code != 0 || strings.TrimSpace(out) != strconv.Itoa(n) {
						t.Errorf("open_files %d: %q, %v", n, out, e)
					}
				}
			}
		})
	}
}

// TestInitSurvivesSignals sends every signal but SIGKILL and SIGSTOP to
// every thread of a reused sandbox's init while its program runs (as the
// program can to the thread that forked it, while that thread lives):
// the init goes on, the program ends as it would have, and the slot is
// used again.
func TestInitSurvivesSignals(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			h.ReleaseIdle()
			p, err := h.Start(t.Context(), Spec{Argv: []string{"sleep", "1"}, Env: []string{"PATH=/usr/bin:/bin"}, Level: l, Limits: hostileLimits, ReadOnly: []string{"/tmp"}, Dir: "/tmp"})
			if err != nil {
				t.Fatal(err)
			}
			s := p.slotOf()
			if s == nil {
				p.Kill()
				t.Fatal("the program ran in no reusable sandbox")
			}
			init := s.cmd.Process.Pid
			sent := 0
			for sig := 1; sig < 65; sig++ {
				if sig == int(unix.SIGKILL) || sig == int(unix.SIGSTOP) || sig == 32 || sig == 33 {
					continue // (32 and 33 are the C library's own)
				}
				for _, tid := range kernel.Tasks(init, nil) {
					if unix.Tgkill(init, tid, unix.Signal(sig)) == nil {
						sent++
					}
				}
			}
			<-p.Done()
			if e := p.Exit(); e.Code != 0 || e.Err != nil {
				t.Fatalf("the program: %v (%d signals sent to the init)", e, sent)
			}
			keepOnly(s)
			out, e, s2 := runIn(t, h, l, "echo ok", hostileLimits, "/tmp")
			if out != "ok\n" || e.Code != 0 || s2 != s {
				t.Errorf("after %d signals to the init: %q, %v (same slot: %v)", sent, out, e, s2 == s)
			}
		})
	}
}

// BenchmarkIntact measures the judge's check of a reused sandbox's init
// after each program: a read of the init's limits (here of the test's
// process). BenchmarkCheck in package sandbox/inside measures the init's
// own check before each program.
func BenchmarkIntact(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := kernel.LimitsOf(os.Getpid()); err != nil {
			b.Fatal(err)
		}
	}
}
