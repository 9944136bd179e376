//go:build linux

package sandbox

import (
	"bytes"
	"io"
	"judge/sandbox/sandboxtest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// limitOf is the soft limit named (as /proc/PID/limits names it, "Max
// data size") in the text of a limits file.
func limitOf(t *testing.T, limits, name string) string {
	t.Helper()
	for _, line := range strings.Split(limits, "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return f[0]
			}
		}
	}
	t.Fatalf("no %q in\n%s", name, limits)
	return ""
}

// TestForkedProgramsGetTheirLimits: a program whose rlimits would bind
// its init (RLIMIT_DATA, RLIMIT_NPROC at level namespaces, a small
// RLIMIT_NOFILE) is started by a fork of the init that sets them in the
// child only: the program gets every limit, a process group of its own
// and its working directory, in a new sandbox and in a reused one, while
// the init keeps its own limits.
func TestForkedProgramsGetTheirLimits(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			lim := hostileLimits
			lim.OpenFiles = 23 // below what the init needs: never its own
			const script = `cat /proc/self/limits; echo "pgid $(cut -d' ' -f5 /proc/self/stat) pid $$"; echo "dir $(pwd)"`
			for i := 0; i < 2; i++ { // a new sandbox, then a reused one
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				p, err := h.Start(t.Context(), Spec{Argv: []string{"sh", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"},
					Level: l, Limits: lim, Dir: "/usr", Stdout: w})
				w.Close()
				if err != nil {
					r.Close()
					t.Fatal(err)
				}
				var out bytes.Buffer
				_, _ = io.Copy(&out, io.LimitReader(r, 1<<20))
				r.Close()
				s := p.slotOf()
				select {
				case <-p.Done():
				case <-time.After(20 * time.Second):
					p.Kill()
					t.Fatal("the program did not end")
				}
				if e := p.Exit(); e.Code != 0 {
					t.Fatalf("run %d: %v\n%s", i, e, out.String())
				}
				text := out.String()
				if got := limitOf(t, text, "Max open files"); got != "23" {
					t.Errorf("run %d: open files %s, want 23", i, got)
				}
				if got := limitOf(t, text, "Max file size"); got != strconv.Itoa(int(lim.FileSize)) {
					t.Errorf("run %d: file size %s, want %d", i, got, lim.FileSize)
				}
				if got := limitOf(t, text, "Max core file size"); got != "0" {
					t.Errorf("run %d: core file size %s, want 0", i, got)
				}
				if l == Namespaces {
					if got := limitOf(t, text, "Max data size"); got != strconv.Itoa(int(lim.Memory)) {
						t.Errorf("run %d: data size %s, want %d", i, got, lim.Memory)
					}
					if got := limitOf(t, text, "Max processes"); got != strconv.Itoa(lim.Procs+initThreads) {
						t.Errorf("run %d: processes %s, want %d", i, got, lim.Procs+initThreads)
					}
				}
				var pgid, pid string
				var dir string
				for _, line := range strings.Split(text, "\n") {
					if f := strings.Fields(line); len(f) == 4 && f[0] == "pgid" {
						pgid, pid = f[1], f[3]
					} else if len(f) == 2 && f[0] == "dir" {
						dir = f[1]
					}
				}
				if pgid == "" || pgid != pid {
					t.Errorf("run %d: process group %q, want its own (%q)", i, pgid, pid)
				}
				if dir != "/usr" {
					t.Errorf("run %d: working directory %q, want /usr", i, dir)
				}
				if s == nil {
					t.Fatal("the program ran in no reusable sandbox")
				}
				b, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/limits")
				if err != nil {
					t.Fatal(err)
				}
				if got := limitOf(t, string(b), "Max open files"); got == "23" {
					t.Errorf("the init took the program's open-file limit")
				}
				if got := limitOf(t, string(b), "Max data size"); got != "unlimited" {
					t.Errorf("the init's data size is %s, want unlimited", got)
				}
			}
		})
	}
}

// TestForkedProgramsBlockNoSignal: the fork blocks every signal of the
// forking thread; the child sets its mask back before the exec, and the
// program starts with none blocked, in a new sandbox and in a reused
// one. A shell would not show it: it sets its own mask.
func TestForkedProgramsBlockNoSignal(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			dir := freshSlots(t, l)
			for i := 0; i < 2; i++ {
				out, e, _ := runArgv(t, h, l, []string{"/bin/grep", "^Sig", "/proc/self/status"}, hostileLimits, dir)
				if e.Code != 0 || !strings.Contains(out, "SigBlk:\t0000000000000000\n") {
					t.Errorf("run %d (%v): the program starts with signals blocked:\n%s", i, e, out)
				}
			}
		})
	}
}

// TestForkedProgramThatCannotStart: what stops a forked program between
// its fork and its exec (here a working directory it may not enter, and
// an interpreter that is not there) is Start's error, saying which step
// failed, and the sandbox serves the next program.
func TestForkedProgramThatCannotStart(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	closed := filepath.Join(dir, "closed")
	if err := os.Mkdir(closed, 0); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "script")
	if err := os.WriteFile(script, []byte("#!/no/such/interpreter\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			lim := hostileLimits
			lim.OpenFiles = 23
			spec := Spec{Env: []string{"PATH=/usr/bin:/bin"}, Level: l, Limits: lim, ReadOnly: []string{dir}}
			for _, c := range []struct {
				argv []string
				dir  string
				want string
			}{
				{[]string{script}, "", "exec " + script + ": no such file or directory"},
				{[]string{"true"}, closed, "working directory " + closed + ": permission denied"},
			} {
				s := spec
				s.Argv, s.Dir = c.argv, c.dir
				p, err := h.Start(t.Context(), s)
				if err == nil {
					<-p.Done()
					t.Errorf("%q in %q: started, ended %v; want an error saying %q", c.argv, c.dir, p.Exit(), c.want)
					continue
				}
				if !strings.Contains(err.Error(), c.want) {
					t.Errorf("%q in %q: %v; want it to say %q", c.argv, c.dir, err, c.want)
				}
			}
			s := spec
			s.Argv = []string{"true"}
			p, err := h.Start(t.Context(), s)
			if err != nil {
				t.Fatal(err)
			}
			<-p.Done()
			if e := p.Exit(); e.Code != 0 {
				t.Errorf("true after the failures: %v", e)
			}
		})
	}
}

// TestForkedProgramsMakeNoNamespaces: a program started by a thread whose
// filter allows clone3 (to fork programs into their cgroup) gets the
// filter that refuses it, in a new sandbox and in a reused one: clone3
// fails with ENOSYS (so that a C library falls back to clone), and clone
// and unshare with a new user namespace with EPERM.
func TestForkedProgramsMakeNoNamespaces(t *testing.T) {
	t.Parallel()
	if !testHost.Probe().seccomp {
		sandboxtest.SkipLevel(t, "no seccomp here")
	}
	argv, dir := build(t, "namespaces.c")
	const want = "clone3 ENOSYS\nclone3-newuser ENOSYS\nclone-newuser EPERM\nunshare-newuser EPERM\n"
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			for i := 0; i < 2; i++ { // a new sandbox, then a reused one
				out, e := run(t, l, Spec{Argv: argv, Limits: hostileLimits, ReadOnly: []string{dir}})
				if e.Code != 0 || out != want {
					t.Errorf("run %d: %v\n%s\nwant\n%s", i, e, out, want)
				}
			}
		})
	}
}

// TestPidIsTheProgramsOutside: the pid a start reports, read from the
// pidfd the init sends, is the program's in the judge's namespace, in a
// new sandbox and in a reused one.
func TestPidIsTheProgramsOutside(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			for i := 0; i < 2; i++ {
				p, err := h.Start(t.Context(), Spec{Argv: []string{"/bin/sleep", "30"}, Level: l, Limits: hostileLimits})
				if err != nil {
					t.Fatal(err)
				}
				// The start returns as the kernel finishes the exec,
				// which shows the new command line a moment later.
				var cmdline []byte
				for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
					cmdline, err = os.ReadFile("/proc/" + strconv.Itoa(p.Pid()) + "/cmdline")
					if err != nil || len(cmdline) > 0 || time.Now().After(deadline) {
						break
					}
				}
				status, _ := os.ReadFile("/proc/" + strconv.Itoa(p.Pid()) + "/status")
				p.Kill()
				<-p.Done()
				if err != nil || string(cmdline) != "/bin/sleep\x0030\x00" {
					t.Fatalf("run %d: pid %d is %q (%v), not the program", i, p.Pid(), cmdline, err)
				}
				var nspid []string
				for _, line := range strings.Split(string(status), "\n") {
					if v, ok := strings.CutPrefix(line, "NSpid:"); ok {
						nspid = strings.Fields(v)
					}
				}
				if len(nspid) < 2 || nspid[0] != strconv.Itoa(p.Pid()) {
					t.Fatalf("run %d: NSpid %v for pid %d: not the program in its own PID namespace", i, nspid, p.Pid())
				}
			}
		})
	}
}
