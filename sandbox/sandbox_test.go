//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"io"
	"judge/sandbox/sandboxtest"
	"os"
	"strings"
	"testing"
	"time"
)

// testHost is the Host of the tests that need none of their own: those
// that look at its pool, or make it let go of idle sandboxes, make their
// own (newHost).
var testHost *Host

func TestMain(m *testing.M) {
	Init()
	testHost = NewHost(Options{})
	code := m.Run()
	// The ready sandboxes' cgroups go with them, as a judge's do.
	testHost.Close()
	os.Exit(code)
}

// newHost is a Host of the test's own, closed at its end.
func newHost(t testing.TB, o Options) *Host {
	h := NewHost(o)
	t.Cleanup(h.Close)
	return h
}

// mustCgroups is the cgroups h finds.
func (h *Host) mustCgroups() *cgroupSys {
	cg, err := h.cgroups(context.Background())
	if err != nil {
		panic(err)
	}
	return cg
}

// run starts argv at level with its output in a pipe and returns the
// output and the exit.
func run(t *testing.T, level Level, spec Spec) (string, Exit) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	spec.Level = level
	spec.Stdout = w
	spec.Stderr = w
	p, err := testHost.Start(t.Context(), spec)
	w.Close()
	if err != nil {
		r.Close()
		t.Fatalf("Start(%q) at %s: %v", spec.Argv, level, err)
	}
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(&out, io.LimitReader(r, 1<<20))
		close(done)
	}()
	select {
	case <-p.Done():
	case <-time.After(20 * time.Second):
		p.Kill()
		<-p.Done()
		t.Errorf("%q did not end", spec.Argv)
	}
	<-done
	r.Close()
	return out.String(), p.Exit()
}

var levels = []Level{Full, Namespaces, Basic, None}

func available(t *testing.T, l Level) {
	t.Helper()
	if l.rank() > testHost.Probe().Level.rank() {
		sandboxtest.SkipLevel(t, "level %s is not available here:\n%s", l, testHost.Probe())
	}
}

func TestEcho(t *testing.T) {
	t.Parallel()
	for _, l := range levels {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			out, e := run(t, l, Spec{Argv: []string{"sh", "-c", "echo hello; id -u; cat /proc/self/status | grep -i ^cap; ls /bin >/dev/null"}, Env: []string{"PATH=/usr/bin:/bin"}})
			t.Logf("%s\n%s", e, out)
			if !strings.HasPrefix(out, "hello\n") || e.Code != 0 {
				t.Errorf("got %q, %v; want hello, exit code 0", out, e)
			}
		})
	}
}

// TestSystemProgram: a program of the system's directories, named by a
// path through a symbolic link (/bin to usr/bin on most systems), runs
// with its directory shown as a bot's is.
func TestSystemProgram(t *testing.T) {
	t.Parallel()
	for _, l := range levels {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			argv := []string{"/bin/sh", "-c", "echo hello"}
			out, e := run(t, l, Spec{Argv: argv, ReadOnly: PathsOf(argv, "")})
			if out != "hello\n" || e.Code != 0 {
				t.Errorf("got %q, %v; want hello, exit code 0", out, e)
			}
		})
	}
}

// TestProbe checks that the report agrees with itself: the level follows
// from the checks, every check says something, and the text shows it all.
func TestProbe(t *testing.T) {
	t.Parallel()
	r := testHost.Probe()
	t.Log("\n" + r.String())
	if testHost.Probe() != r {
		t.Error("Probe ran twice: want once per process")
	}
	active := map[string]bool{}
	for _, c := range r.Checks {
		if c.Name == "" || c.Detail == "" {
			t.Errorf("check %+v: no name or no detail", c)
		}
		if _, dup := active[c.Name]; dup {
			t.Errorf("check %q twice", c.Name)
		}
		active[c.Name] = c.Active
		if !strings.Contains(r.String(), c.Name) {
			t.Errorf("String() does not name check %q", c.Name)
		}
	}
	for _, name := range []string{"user namespace", "cgroup memory", "cgroup pids", "no_new_privs", "pty", "landlock", "seccomp"} {
		if _, ok := active[name]; !ok {
			t.Errorf("no check %q", name)
		}
	}
	ns := active["user namespace"]
	var want Level
	switch {
	case ns && active["cgroup memory"] && active["cgroup pids"]:
		want = Full
	case ns:
		want = Namespaces
	default:
		want = Basic
	}
	if r.Level != want {
		t.Errorf("level %q, but the checks say %q", r.Level, want)
	}
	if !strings.HasPrefix(r.String(), "sandbox level: "+string(r.Level)+"\n") {
		t.Errorf("String() starts %q", strings.SplitN(r.String(), "\n", 2)[0])
	}
	sum := r.Summary()
	if sum == "" || strings.Contains(sum, "NOT SANDBOXED") || strings.Contains(sum, "namespaces") != ns {
		t.Errorf("Summary() = %q for level %s", sum, r.Level)
	}
	// The level it reports is one programs really run at.
	out, e := run(t, r.Level, Spec{Argv: []string{"sh", "-c", "echo ok"}, Env: []string{"PATH=/usr/bin:/bin"}})
	if out != "ok\n" || e.Code != 0 {
		t.Errorf("at level %s: got %q, %v", r.Level, out, e)
	}
}
