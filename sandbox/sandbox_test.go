package sandbox

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	Init()
	os.Exit(m.Run())
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
	p, err := Start(spec)
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
	if l.rank() > Probe().Level.rank() {
		t.Skipf("level %s is not available here:\n%s", l, Probe())
	}
}

func TestEcho(t *testing.T) {
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

func TestProbe(t *testing.T) {
	t.Log("\n" + Probe().String())
	t.Log(Probe().Summary())
}
