//go:build linux

package sandbox

import (
	"fmt"
	"judge/sandbox/sandboxtest"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBasicTmpSweep: the temporary directories of judges that are gone
// are removed; those of a running judge are not.
func TestBasicTmpSweep(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mine := filepath.Join(root, fmt.Sprintf("%d-%d-abc", os.Getpid(), startTime(os.Getpid())))
	gone := filepath.Join(root, fmt.Sprintf("%d-%d-abc", os.Getpid(), startTime(os.Getpid())+1)) // a reused pid
	dead := filepath.Join(root, "2147483646-5-abc")
	// A judge killed with kill -9 and not yet reaped: a zombie.
	z := exec.Command("sleep", "0.1")
	if err := z.Start(); err != nil {
		t.Fatal(err)
	}
	zombie := filepath.Join(root, fmt.Sprintf("%d-%d-abc", z.Process.Pid, startTime(z.Process.Pid)))
	time.Sleep(300 * time.Millisecond)
	defer z.Wait()
	other := filepath.Join(root, "notes")
	for _, d := range []string{mine, gone, dead, other, zombie} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sweepBasicTmp(root)
	for d, want := range map[string]bool{mine: true, gone: false, dead: false, other: true, zombie: false} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}

func TestNotice(t *testing.T) {
	t.Parallel()
	for l, want := range map[Level]string{Full: "", Namespaces: "", Auto: "", Basic: "sandbox level basic: ", None: "NO SANDBOX"} {
		if got := testHost.Probe().Notice(l); !strings.HasPrefix(got, want) || (want == "") != (got == "") || strings.Contains(got, "\n") {
			t.Errorf("Notice(%q) = %q, want one line starting %q", l, got, want)
		}
	}
}

// TestBasicShared: at level basic, which shares the host's namespaces, a
// program reaches no unix socket of another's, abstract or named
// (whatever Landlock's ABI), cannot make a datagram socket that could
// send to one, cannot truncate a file by its path (which Landlock checks
// only from ABI 3), and cannot signal every process or a process group;
// socket pairs work, and it may signal its own group.
func TestBasicShared(t *testing.T) {
	t.Parallel()
	available(t, Basic)
	if !testHost.Probe().seccomp {
		sandboxtest.SkipLevel(t, "no seccomp filter on this machine: at level basic, bots reach the host's unix sockets and signal every process of their user (docs/sandbox.md)")
	}
	argv, dir := build(t, "shared.c")
	name := fmt.Sprintf("judge-basic-sockets-%d-%d", os.Getpid(), time.Now().UnixNano())
	abstract, err := net.Listen("unix", "@"+name)
	if err != nil {
		t.Fatal(err)
	}
	defer abstract.Close()
	path := filepath.Join(dir, "sock")
	named, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer named.Close()
	if err := os.Chmod(path, 0o777); err != nil {
		t.Fatal(err)
	}
	accepted := make(chan string, 2)
	for _, ln := range []net.Listener{abstract, named} {
		go func() {
			if c, err := ln.Accept(); err == nil {
				accepted <- ln.Addr().String()
				c.Close()
			}
		}()
	}
	// A file the program may write, in a directory of its own: truncated
	// through a descriptor, it could be; by its path it is refused.
	wdir := t.TempDir()
	if err := os.Chmod(wdir, 0o777); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(wdir, "data")
	if err := os.WriteFile(file, []byte("data"), 0o666); err != nil {
		t.Fatal(err)
	}
	out, e := run(t, Basic, Spec{Argv: append(argv, name, path, file), ReadOnly: []string{dir}, Writable: []string{wdir}})
	t.Logf("%s\n%s", e, out)
	for _, want := range []string{"abstract: denied", "named: denied", "datagram: denied", "datagram pair: denied",
		"bind: denied", "pair: allowed", "seqpacket pair: allowed",
		"truncate by a path: denied", "signal every process: denied", "signal its group by number: denied", "signal its own group: allowed"} {
		if !strings.Contains(out, "\n"+want) && !strings.HasPrefix(out, want) {
			t.Errorf("want %q:\n%s", want, out)
		}
	}
	if e.Code != 0 {
		t.Errorf("exit %v, want 0", e)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "data" {
		t.Errorf("the file the program may write: %q, %v", b, err)
	}
	select {
	case a := <-accepted:
		t.Errorf("the program reached %s", a)
	case <-time.After(100 * time.Millisecond):
	}
}
