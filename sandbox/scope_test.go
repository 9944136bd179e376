//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"golang.org/x/sys/unix"
)

// v2Test is a cgroup of the machine's cgroup v2 hierarchy made for a
// test, and a process in it that stands for the judge.
type v2Test struct {
	m    mountInfo
	dir  string // the test's cgroup
	rel  string // its path in the hierarchy
	proc *exec.Cmd
}

// newV2Test makes a cgroup for the test in the cgroup v2 hierarchy, and
// starts a process in it; it skips the test where there is no writable
// v2 hierarchy (a hybrid host's empty one does: the controllers are not
// needed to move processes). Everything is removed at the end.
func newV2Test(t *testing.T) *v2Test {
	t.Helper()
	var m *mountInfo
	for _, mi := range cgroupMounts() {
		if mi.fstype == "cgroup2" {
			m = &mi
			break
		}
	}
	if m == nil || m.root != "/" || unix.Access(filepath.Join(m.point, "cgroup.procs"), unix.W_OK) != nil {
		t.Skip("no writable cgroup v2 hierarchy here")
	}
	name := fmt.Sprintf("judge-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	v := &v2Test{m: *m, dir: filepath.Join(m.point, name), rel: "/" + name}
	if err := os.Mkdir(v.dir, 0o755); err != nil {
		t.Skipf("cannot make a cgroup in the v2 hierarchy: %v", err)
	}
	v.proc = exec.Command("/bin/sleep", "1000")
	if err := v.proc.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = v.proc.Process.Kill()
		_ = v.proc.Wait()
		rmTree(v.dir)
	})
	if err := writeFile(filepath.Join(v.dir, "cgroup.procs"), int64(v.proc.Process.Pid)); err != nil {
		t.Fatal(err)
	}
	return v
}

// rmTree removes an empty cgroup and the cgroups under it.
func rmTree(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() {
			rmTree(filepath.Join(dir, e.Name()))
		}
	}
	_ = unix.Rmdir(dir)
}

// where is the cgroup of the test's process.
func (v *v2Test) where(t *testing.T) string {
	t.Helper()
	p, ok := cgroupOf(v.proc.Process.Pid)
	if !ok {
		t.Fatal("no cgroup v2 line in /proc/PID/cgroup")
	}
	return p
}

// subdirs lists the cgroups under dir.
func subdirs(dir string) []string {
	var out []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestCgroupV2SecondHost: a second Host of the same process (the
// arena's beside main's) finds the process in the leaf the first moved
// it to, with a child of the judge born there since, and uses the same
// delegated cgroup, where the controllers are enabled: not the leaf,
// which holds processes and so could have none.
func TestCgroupV2SecondHost(t *testing.T) {
	t.Parallel()
	v := newV2Test(t)
	if _, _, _, err := useV2(t.Context(), systemdBus, v.m, v.rel, v.proc.Process.Pid, nil, false); err != nil {
		t.Fatal(err)
	}
	child := exec.Command("/bin/sleep", "1000")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = child.Process.Kill()
		_ = child.Wait()
	}()
	if err := writeFile(filepath.Join(v.dir, leafName, "cgroup.procs"), int64(child.Process.Pid)); err != nil {
		t.Fatal(err)
	}
	own := v.where(t)
	dir, scope, notes, err := useV2(t.Context(), systemdBus, v.m, own, v.proc.Process.Pid, nil, false)
	if err != nil || dir != v.dir || scope != "" || len(notes) > 0 {
		t.Fatalf("the second useV2, from %s: %q %q %q %v, want %s", own, dir, scope, notes, err, v.dir)
	}
	if got := v.where(t); got != own {
		t.Errorf("the judge moved from %s to %s", own, got)
	}
}

// TestCgroupV2Leaf checks the layout the judge makes in a delegated
// cgroup: it moves into a leaf, and its cgroup holds no process, so that
// sandboxes' cgroups can be made and used beside the leaf.
func TestCgroupV2Leaf(t *testing.T) {
	t.Parallel()
	v := newV2Test(t)
	dir, scope, notes, err := useV2(t.Context(), systemdBus, v.m, v.rel, v.proc.Process.Pid, nil, false)
	if err != nil || dir != v.dir || scope != "" || len(notes) > 0 {
		t.Fatalf("useV2: %q %q %q %v, want %s and no scope", dir, scope, notes, err, v.dir)
	}
	if got, want := v.where(t), v.rel+"/"+leafName; got != want {
		t.Errorf("the judge is in %s, want %s", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(v.dir, "cgroup.procs")); len(b) > 0 {
		t.Errorf("the delegated cgroup still holds processes: %s", b)
	}
	// A sandbox beside the judge.
	sb := filepath.Join(v.dir, "judge-sb-test")
	if err := os.Mkdir(sb, 0o755); err != nil {
		t.Fatal(err)
	}
	p := exec.Command("/bin/sleep", "1000")
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = p.Process.Kill()
		_ = p.Wait()
	}()
	if err := writeFile(filepath.Join(sb, "cgroup.procs"), int64(p.Process.Pid)); err != nil {
		t.Errorf("a process cannot join a sandbox's cgroup beside the judge: %v", err)
	}
}

// TestCgroupV2FailureLeavesNothing checks that a move into a leaf that
// fails (here, a controller the kernel does not have) leaves the judge
// where it was, and no cgroup behind.
func TestCgroupV2FailureLeavesNothing(t *testing.T) {
	t.Parallel()
	v := newV2Test(t)
	err := enterLeaf(v.dir, v.proc.Process.Pid, []string{"nosuchcontroller"})
	if err == nil {
		t.Fatal("enabling a controller that does not exist: no error")
	}
	if got := v.where(t); got != v.rel {
		t.Errorf("after the failed move the judge is in %s, want %s", got, v.rel)
	}
	if left := subdirs(v.dir); len(left) > 0 {
		t.Errorf("the failed move left cgroups: %q", left)
	}
}

// busAt is whom a judge asks for a scope when systemd is at addrs.
func busAt(addrs ...busAddr) func() (string, []busAddr) {
	return func() (string, []busAddr) { return "systemd's user manager (systemd --user)", addrs }
}

// TestCgroupV2NoSystemd checks that where the judge's cgroup cannot be
// used and systemd cannot be reached, the judge stays where it was, as
// before it asked, nothing is left, and doctor's notes say why.
func TestCgroupV2NoSystemd(t *testing.T) {
	t.Parallel()
	v := newV2Test(t)
	bus := busAt(busAddr{"unix:path=" + filepath.Join(t.TempDir(), "bus"), false})
	_, _, notes, err := useV2(t.Context(), bus, v.m, v.rel, v.proc.Process.Pid, []string{"nosuchcontroller"}, true)
	if err == nil {
		t.Fatal("no error without systemd")
	}
	all := strings.Join(notes, "; ")
	for _, want := range []string{"does not offer the controllers nosuchcontroller", "no scope of its own from systemd's user manager", "no D-Bus connection"} {
		if !strings.Contains(all, want) {
			t.Errorf("the notes do not say %q: %s", want, all)
		}
	}
	if got := v.where(t); got != v.rel {
		t.Errorf("the judge is in %s, want %s", got, v.rel)
	}
	if left := subdirs(v.dir); len(left) > 0 {
		t.Errorf("cgroups left: %q", left)
	}
}

// fakeSystemd is the part of systemd's manager the judge uses, on a bus
// of the test's own: StartTransientUnit of a scope, which it makes as a
// cgroup under dir and moves the scope's processes into, then signals
// the job's end with result.
type fakeSystemd struct {
	conn   *dbus.Conn
	dir    string
	result string

	mu    sync.Mutex
	calls []string // what it was asked, one line a call
}

type unitProp struct {
	Name  string
	Value dbus.Variant
}

type auxUnit struct {
	Name  string
	Props []unitProp
}

func (f *fakeSystemd) StartTransientUnit(name, mode string, props []unitProp, _ []auxUnit) (dbus.ObjectPath, *dbus.Error) {
	var pids []uint32
	desc := []string{name, mode}
	for _, p := range props {
		desc = append(desc, p.Name+"="+p.Value.String())
		if p.Name == "PIDs" {
			pids, _ = p.Value.Value().([]uint32)
		}
	}
	f.mu.Lock()
	f.calls = append(f.calls, strings.Join(desc, " "))
	f.mu.Unlock()
	job := dbus.ObjectPath("/org/freedesktop/systemd1/job/7")
	if f.result == "done" {
		d := filepath.Join(f.dir, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			return "", dbus.MakeFailedError(err)
		}
		for _, pid := range pids {
			if err := writeFile(filepath.Join(d, "cgroup.procs"), int64(pid)); err != nil {
				return "", dbus.MakeFailedError(err)
			}
		}
	}
	go func() {
		_ = f.conn.Emit("/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager.JobRemoved",
			uint32(7), job, name, f.result)
	}()
	return job, nil
}

// startFakeSystemd runs a bus daemon of the test's own with a fake
// systemd manager on it, and returns the bus's address.
func startFakeSystemd(t *testing.T, dir, result string) (*fakeSystemd, busAddr) {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("no dbus-daemon here")
	}
	sock := filepath.Join(t.TempDir(), "bus")
	// The session bus's configuration, on a socket of the test's.
	cmd := exec.Command(daemon, "--session", "--address=unix:path="+sock, "--nofork", "--nopidfile", "--nosyslog")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := busAddr{"unix:path=" + sock, false}
	// The connection closes when ctx ends: at the end of the test, or
	// if the bus does not answer within 20 s.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	var conn *dbus.Conn
	for i := 0; ; i++ {
		if conn, err = dbus.Connect(addr.addr, dbus.WithContext(ctx)); err == nil {
			break
		}
		if i == 500 {
			t.Fatalf("the bus daemon does not answer: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Cleanup(func() { conn.Close() })
	f := &fakeSystemd{conn: conn, dir: dir, result: result}
	if err := conn.Export(f, "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager"); err != nil {
		t.Fatal(err)
	}
	if r, err := conn.RequestName("org.freedesktop.systemd1", dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("taking systemd's name on the test's bus: %v %v", r, err)
	}
	return f, addr
}

// TestCgroupV2Scope checks the judge's exchange with systemd, against a
// fake systemd on a bus of the test's own: it asks for a delegated scope
// holding itself, which fails when the job fails, and once moved there,
// it moves into a leaf of the scope; if that fails, it goes back where
// it was.
func TestCgroupV2Scope(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, result string
		ctrls        []string
		ok           bool
	}{
		{"done", "done", nil, true},
		{"job-failed", "failed", nil, false},
		{"leaf-failed", "done", []string{"nosuchcontroller"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := newV2Test(t)
			f, addr := startFakeSystemd(t, v.dir, c.result)
			pid := v.proc.Process.Pid
			dir, scope, err := ownScope(t.Context(), []busAddr{addr}, v.m, v.rel, pid, c.ctrls)
			name := scopeName(pid)
			f.mu.Lock()
			calls := f.calls
			f.mu.Unlock()
			want := fmt.Sprintf(`%s fail Description="judge %d and its sandboxes" PIDs=@au [%d] Delegate=true CollectMode="inactive-or-failed"`, name, pid, pid)
			if len(calls) != 1 || calls[0] != want {
				t.Errorf("systemd was asked %q, want %q", calls, want)
			}
			if !c.ok {
				if err == nil {
					t.Fatal("no error")
				}
				if got := v.where(t); got != v.rel {
					t.Errorf("the judge is in %s, want %s (where it was)", got, v.rel)
				}
				if c.result == "done" {
					if b, _ := os.ReadFile(filepath.Join(v.dir, name, "cgroup.procs")); len(b) > 0 {
						t.Errorf("the scope still holds processes (%s): systemd would keep it", b)
					}
					if left := subdirs(filepath.Join(v.dir, name)); len(left) > 0 {
						t.Errorf("cgroups left in the scope: %q", left)
					}
				}
				t.Log(err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if dir != filepath.Join(v.dir, name) || scope != name {
				t.Errorf("ownScope: %s %s, want %s", dir, scope, filepath.Join(v.dir, name))
			}
			if got, want := v.where(t), v.rel+"/"+name+"/"+leafName; got != want {
				t.Errorf("the judge is in %s, want %s", got, want)
			}
		})
	}
}

// TestCgroupV2ScopeNotAsked checks that the judge does not ask systemd
// where its own cgroup serves.
func TestCgroupV2ScopeNotAsked(t *testing.T) {
	t.Parallel()
	v := newV2Test(t)
	f, addr := startFakeSystemd(t, v.dir, "done")
	if _, scope, _, err := useV2(t.Context(), busAt(addr), v.m, v.rel, v.proc.Process.Pid, nil, true); err != nil || scope != "" {
		t.Fatalf("useV2: scope %q, %v", scope, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) > 0 {
		t.Errorf("systemd was asked %q", f.calls)
	}
}

// TestProbeStarts checks what doctor says of the level as the judge is
// started, on a cgroup v2 machine where the judge got a scope, where it
// got none, where its own cgroup served, and on a cgroup v1 machine.
func TestProbeStarts(t *testing.T) {
	t.Parallel()
	r := &Report{ns: true, bus: busAt(busAddr{"unix:path=" + filepath.Join(t.TempDir(), "bus"), false})}
	run := systemdRun()
	for _, c := range []struct {
		name string
		cg   *cgroupSys
		want []string
	}{
		{"scope", &cgroupSys{ver: cgroupV2{}, memory: true, pids: true, pureV2: true, scope: "judge-42.scope"}, []string{
			"  from a shell, a script or make:  full: it asks systemd's user manager (systemd --user) for a delegated scope of its own (this judge got judge-42.scope)\n",
			"  with " + run + ":  full: the scope it is started in is its own\n"}},
		{"no-scope", &cgroupSys{pureV2: true, scopeErr: errors.New("no scope of its own from systemd's user manager (systemd --user): no D-Bus connection to it")}, []string{
			"  from a shell, a script or make:  namespaces: no scope of its own from systemd's user manager (systemd --user): no D-Bus connection to it\n",
			"  with " + run + ":  namespaces as well: systemd-run asks the same manager\n"}},
		{"own-cgroup", &cgroupSys{ver: cgroupV2{}, memory: true, pids: true, pureV2: true}, []string{
			"  from a shell, a script or make:  namespaces, unless its cgroup is delegated to it and its own: it cannot ask systemd's user manager (systemd --user) for a scope: no D-Bus connection to it",
			"  with " + run + ":  full: the judge alone in its delegated scope (as now)\n"}},
		{"v1", &cgroupSys{ver: cgroupV1{}, memory: true, pids: true}, []string{
			"however the judge is started (from a shell, a script, make or systemd-run): full; cgroups are delegated on cgroup v2 only\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := r.starts(c.cg)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("doctor says:\n%s\nwithout:\n%s", got, w)
				}
			}
		})
	}
}
