//go:build linux

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"judge/sandbox/sandboxtest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runIn runs a shell command on h at level l with spec's shape and returns its
// output, its exit and the slot it ran in.
func runIn(t *testing.T, h *Host, l Level, script string, lim Limits, dir string) (string, Exit, *slot) {
	t.Helper()
	return runArgv(t, h, l, []string{"sh", "-c", script}, lim, dir)
}

// runArgv is runIn with a command.
func runArgv(t *testing.T, h *Host, l Level, argv []string, lim Limits, dir string) (string, Exit, *slot) {
	t.Helper()
	script := strings.Join(argv, " ")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := h.Start(t.Context(), Spec{Argv: argv, Env: []string{"PATH=/usr/bin:/bin"},
		Level: l, Limits: lim, ReadOnly: []string{dir}, Dir: dir, Stdout: w, Stderr: w})
	w.Close()
	if err != nil {
		r.Close()
		t.Fatal(err)
	}
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(&out, r)
		close(copied)
	}()
	select {
	case <-p.Done():
	case <-time.After(20 * time.Second):
		p.Kill()
		<-p.Done()
		t.Fatalf("%q did not end", script)
	}
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
		t.Errorf("%q: its output is still open after it ended (a process holds it)", script)
	}
	r.Close()
	return out.String(), p.Exit(), p.slotOf()
}

// freshSlots skips the test where level l is not available and returns
// a directory for the test's programs to run in, which every user can
// read (the test's Host is its own: they run in slots it starts).
func freshSlots(t *testing.T, l Level) string {
	t.Helper()
	available(t, l)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// keepOnly leaves s the only idle slot of its shape (once the slots being
// built are built), so that the next start of that shape runs in s if s
// went back to the pool: a test of what one program leaves for the next
// in its slot.
func keepOnly(s *slot) {
	if s == nil {
		return
	}
	pool := s.shape.pool
	pool.builds.Wait()
	pool.mu.Lock()
	var others []*slot
	list := pool.idle[s.shape.key]
	var kept []*slot
	for _, x := range list {
		if x == s {
			kept = append(kept, x)
		} else {
			others = append(others, x)
		}
	}
	pool.idle[s.shape.key] = kept
	pool.nIdle -= len(others)
	pool.mu.Unlock()
	for _, x := range others {
		x.destroy()
	}
}

// TestReuseLeavesNothing runs a program that leaves everything it can
// behind in its sandbox, then another in the same sandbox, which must see
// none of it: files in /tmp and /dev/shm, a child still running with the
// output open, a held file, System V IPC objects, a lowered rlimit, an
// exhausted memory limit.
func TestReuseLeavesNothing(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			dir := freshSlots(t, l)
			lim := hostileLimits
			dirty := `echo secret >/tmp/left; echo secret >/dev/shm/left; ulimit -n 20
				sleep 1000 & exec 7>/tmp/held; sleep 1000 7>&7 &
				ipcmk -M 4096 >/dev/null; ipcmk -Q >/dev/null; ipcmk -S 1 >/dev/null
				ls -A /tmp /dev/shm; ipcs | grep -c 0x; echo left`
			out, e, s1 := runIn(t, h, l, dirty, lim, dir)
			if !strings.Contains(out, "left\n") || !strings.Contains(out, "held") {
				t.Fatalf("the first program did not leave its things: %q, %v", out, e)
			}
			if s1 == nil {
				t.Fatal("the program ran in no reusable sandbox")
			}
			keepOnly(s1)
			look := `ls -A /tmp /dev/shm; ulimit -n; ipcs | grep -c 0x
				for d in /proc/[0-9]*; do tr '\0' ' ' <$d/cmdline; echo; done`
			out, e, s2 := runIn(t, h, l, look, lim, dir)
			if s2 != s1 {
				t.Fatal("the second program ran in another sandbox: nothing proven")
			}
			t.Logf("after reuse:\n%s", out)
			if strings.Contains(out, "left") || strings.Contains(out, "held") {
				t.Errorf("files of the first program remain: %q", out)
			}
			if strings.Contains(out, "sleep") {
				t.Errorf("processes of the first program remain: %q", out)
			}
			if !strings.Contains(out, "\n256\n0\n") {
				t.Errorf("want the open-file limit 256 and no IPC object: %q", out)
			}
			if e.Code != 0 {
				t.Errorf("exit %v", e)
			}
		})
	}
}

// TestReusePeakIsEachProgramsOwn: the peak of memory a program reports is
// its own, not its sandbox's since the sandbox was made: a program that
// uses little, after one that used much in the same sandbox, reports
// little.
func TestReusePeakIsEachProgramsOwn(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	dir := freshSlots(t, Full)
	if !h.mustCgroups().memory {
		sandboxtest.SkipLevel(t, "no memory cgroup")
	}
	const big = 64 << 20
	out, e, s1 := runIn(t, h, Full, "dd if=/dev/zero of=/dev/null bs=64M count=1 2>&1", hostileLimits, dir)
	if s1 == nil {
		t.Fatal("the program ran in no reusable sandbox")
	}
	if e.Code != 0 || e.MaxRSS < big {
		t.Fatalf("dd with a buffer of 64 MiB: %q, %v, a peak of %d bytes, want at least %d", out, e, e.MaxRSS, big)
	}
	keepOnly(s1)
	t.Logf("dd: a peak of %d bytes", e.MaxRSS)
	_, e, s2 := runIn(t, h, Full, "exit 0", hostileLimits, dir)
	t.Logf("then the shell: a peak of %d bytes", e.MaxRSS)
	if s2 != s1 {
		t.Fatal("the second program ran in another sandbox: nothing proven")
	}
	if e.Code != 0 || e.MaxRSS >= big/2 {
		t.Errorf("a shell that exits at once, after dd in its sandbox: %v, a peak of %d bytes, want its own, far below %d", e, e.MaxRSS, big/2)
	}
}

// TestReuseAfterOOM checks that a program's out-of-memory kill is not
// charged to the next program of its sandbox, and that the next one has
// the whole memory limit.
func TestReuseAfterOOM(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Full)
	if !h.mustCgroups().memory {
		sandboxtest.SkipLevel(t, "no memory cgroup")
	}
	h.ReleaseIdle()
	argv, dir := build(t, "memory.c")
	lim := hostileLimits
	p, err := h.Start(t.Context(), Spec{Argv: argv, ReadOnly: []string{dir}, Level: Full, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if e := p.Exit(); !e.OOM {
		t.Fatalf("the memory bomb: %v, want out of memory", e)
	}
	// 100 MB of 128 MiB fit, unless the bomb's memory were still charged.
	out, e, s := runIn(t, h, Full, "for i in 1 2 3 4; do head -c 15000000 /dev/zero >/tmp/$i; head -c 10000000 /dev/zero >/dev/shm/$i; done && echo 1", lim, dir)
	t.Logf("%q %v (slot reused: %v)", out, e, s == p.slotOf())
	if e.OOM || e.Code != 0 || strings.TrimSpace(out) != "1" {
		t.Errorf("after an OOM in its sandbox: %q, %v", out, e)
	}
}

// TestPrewarm checks that Prewarm leaves ready sandboxes that Start then
// uses, and that ReleaseIdle ends them.
func TestPrewarm(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Namespaces)
	h.ReleaseIdle()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Argv: []string{"/bin/true"}, ReadOnly: []string{dir}, Limits: hostileLimits}
	if err := h.Prewarm(t.Context(), spec, 2); err != nil {
		t.Fatal(err)
	}
	sh, _, err := h.prepare(t.Context(), spec)
	if err != nil || sh == nil {
		t.Fatalf("prepare: %v, %v", sh, err)
	}
	idle := func() int {
		h.pool.mu.Lock()
		defer h.pool.mu.Unlock()
		return len(h.pool.idle[sh.key])
	}
	if n := idle(); n != 2 {
		t.Fatalf("%d ready sandboxes after h.Prewarm(t.Context(), 2)", n)
	}
	h.pool.mu.Lock()
	ready := append([]*slot(nil), h.pool.idle[sh.key]...)
	h.pool.mu.Unlock()
	p, err := h.Start(t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if p.slotOf() != ready[0] && p.slotOf() != ready[1] {
		t.Error("Start did not use a ready sandbox")
	}
	if e := p.Exit(); e.Code != 0 {
		t.Errorf("exit %v", e)
	}
	h.ReleaseIdle()
	if n := idle(); n != 0 {
		t.Errorf("%d ready sandboxes after ReleaseIdle", n)
	}
	for _, s := range ready {
		if !s.ended.ok {
			t.Error("the init of a released sandbox was not seen to end")
		}
	}
}

// TestForkBombSparesInit fills a reusable sandbox's process limit with a
// fork bomb. The sandbox's init is outside the programs' cgroup: it goes
// on (it is what ends the bomb), the program is reported killed, not as
// a crash of the init, and the next program in the slot runs.
func TestForkBombSparesInit(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Full)
	if !h.mustCgroups().pids {
		sandboxtest.SkipLevel(t, "no pids cgroup")
	}
	h.ReleaseIdle()
	argv, dir := build(t, "forkbomb.c")
	p, err := h.Start(t.Context(), Spec{Argv: argv, ReadOnly: []string{dir}, Level: Full, Limits: hostileLimits})
	if err != nil {
		t.Fatal(err)
	}
	s := p.slotOf()
	if s == nil || s.run == nil {
		p.Kill()
		t.Fatal("the program ran in no reusable sandbox with cgroups")
	}
	pidsDir := s.run.dirs["pids"]
	if s.run.sys.version() == 2 {
		pidsDir = s.run.dirs[""]
	}
	tasks := func() int64 {
		n, _ := readInt(filepath.Join(pidsDir, "pids.current"))
		return n
	}
	for end := time.Now().Add(20 * time.Second); tasks() < int64(hostileLimits.Procs) && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := tasks(); n < int64(hostileLimits.Procs) {
		p.Kill()
		t.Fatalf("the bomb has %d tasks, the limit is %d", n, hostileLimits.Procs)
	}
	for _, pid := range s.run.pidList() {
		if pid == s.cmd.Process.Pid {
			t.Error("the init is in the programs' cgroup")
		}
	}
	time.Sleep(200 * time.Millisecond) // the init keeps working with the limit full
	if err := s.cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the init died under the bomb: %v", err)
	}
	p.Kill()
	select {
	case <-p.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the bomb was not ended")
	}
	if e := p.Exit(); e.Signal != syscall.SIGKILL {
		t.Errorf("the bomb: %v, want killed", e)
	}
	keepOnly(s) // (the slot built in the background meanwhile would be taken first)
	out, e, s2 := runIn(t, h, Full, "echo ok", hostileLimits, dir)
	if s2 != s {
		t.Errorf("the slot was not reused after the bomb")
	}
	if out != "ok\n" || e.Code != 0 {
		t.Errorf("after the bomb: %q, %v", out, e)
	}
}

// TestReuseFallsBack: where ready sandboxes cannot be built, programs
// still run, each in a sandbox of its own, and ReuseProblem says why.
func TestReuseFallsBack(t *testing.T) {
	t.Parallel()
	available(t, Namespaces)
	h := newHost(t, Options{SlotFault: errors.New("sandbox: this machine refuses ready sandboxes")})
	if err := h.ReuseProblem(); err == nil || !strings.Contains(err.Error(), "refuses ready sandboxes") {
		t.Fatalf("ReuseProblem() = %v", err)
	}
	p, err := h.Start(t.Context(), Spec{Argv: []string{"/bin/true"}, Limits: DefaultLimits})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if p.slotOf() != nil {
		t.Error("the program ran in a ready sandbox that could not be built")
	}
	if e := p.Exit(); e.Code != 0 {
		t.Errorf("exit %v", e)
	}
	if p.Level() != testHost.Probe().Level {
		t.Errorf("level %s, want %s", p.Level(), testHost.Probe().Level)
	}
}

// TestCloseLeavesNoCgroup runs a judge (this test binary again, as
// TestCloseHelper) that starts programs in ready sandboxes, some at once,
// then calls Close and exits: no cgroup of its remains.
func TestCloseLeavesNoCgroup(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Full)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCloseHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SANDBOX_CLOSE_HELPER=1")
	var dirs []string
	if s := h.mustCgroups(); s.version() == 2 {
		// On cgroup v2 a judge makes its sandboxes' cgroups only in a
		// cgroup where it is alone: the helper starts in one of its own,
		// beside this judge's sandboxes.
		own := filepath.Join(s.ver.(cgroupV2).base, fmt.Sprintf("judge-close-helper-%d", os.Getpid()))
		if err := os.Mkdir(own, 0o755); err != nil {
			t.Fatal(err)
		}
		defer func() {
			leaves, _ := filepath.Glob(filepath.Join(own, "*", "cgroup.procs"))
			for _, l := range leaves {
				os.Remove(filepath.Dir(l))
			}
			if err := os.Remove(own); err != nil {
				t.Errorf("the helper's cgroup: %v", err)
			}
		}()
		f, err := os.Open(own)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: int(f.Fd())}
		dirs = append(dirs, own)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	pid := cmd.Process.Pid
	if s := h.mustCgroups(); s.version() == 1 {
		for _, d := range s.ver.(cgroupV1).base {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		left, _ := filepath.Glob(filepath.Join(d, fmt.Sprintf("judge-sb-%d-*", pid)))
		if len(left) > 0 {
			t.Errorf("left after Close: %v", left)
		}
	}
	if !strings.Contains(string(out), "started 6") {
		t.Errorf("the helper did not start its programs:\n%s", out)
	}
}

// TestCloseHelper is the judge of TestCloseLeavesNoCgroup.
func TestCloseHelper(t *testing.T) {
	if os.Getenv("SANDBOX_CLOSE_HELPER") == "" {
		t.Skip("run by TestCloseLeavesNoCgroup")
	}
	n := 0
	for round := 0; round < 2; round++ {
		var ps []*Process
		for i := 0; i < 3; i++ {
			p, err := testHost.Start(t.Context(), Spec{Argv: []string{"/bin/true"}, Level: Full, Limits: hostileLimits})
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		for _, p := range ps {
			<-p.Done()
			n++
		}
	}
	fmt.Printf("started %d\n", n)
	testHost.Close()
}

// TestReuseChannels tries the channels between two programs of one
// reused sandbox that TestReuseLeavesNothing does not: a POSIX message
// queue, an abstract unix socket and a file lock, each held by a child
// left running; the host name; a key in the user's keyring; signals sent to the init and each of its threads; the
// environment. The next program of the slot finds none of
// them, and the init goes on.
func TestReuseChannels(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			h.ReleaseIdle()
			argv, dir := build(t, "leave.c")
			start := func(mode string, env ...string) (string, Exit, *slot) {
				t.Helper()
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				p, err := h.Start(t.Context(), Spec{Argv: append(argv, mode, argv[0]), Env: env, Level: l,
					Limits: hostileLimits, ReadOnly: []string{dir}, Stdout: w, Stderr: w})
				w.Close()
				if err != nil {
					t.Fatal(err)
				}
				select {
				case <-p.Done():
				case <-time.After(20 * time.Second):
					p.Kill()
					t.Fatalf("%s did not end", mode)
				}
				b, _ := io.ReadAll(r)
				r.Close()
				return string(b), p.Exit(), p.slotOf()
			}
			out, e, s1 := start("leave", "SECRET=1")
			t.Logf("left: %v\n%s", e, out)
			// (A POSIX queue and signals to the init are refused where
			// Landlock scopes them: nothing to carry over either way.)
			for _, want := range []string{"abstract: made", "lock: made", "hostname: Operation not permitted"} {
				if !strings.Contains(out, want+"\n") {
					t.Errorf("the first program: want %q", want)
				}
			}
			keepOnly(s1)
			out, e, s2 := start("find")
			if s1 == nil || s2 != s1 {
				t.Fatal("the programs did not run in the same slot: nothing proven")
			}
			want := "mqueue: none\nabstract: none\nlock: none\nhostname: sandbox\nkey: none\nsignals: 0 pending\nenvironment: none\n"
			if out != want || e.Code != 0 {
				t.Errorf("the next program: %v\n%s\nwant\n%s", e, out, want)
			}
		})
	}
}

// TestReuseAfterFreeze kills a program while it is frozen: the next
// program of its slot is not frozen.
func TestReuseAfterFreeze(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			dir := freshSlots(t, l)
			p, err := h.Start(t.Context(), Spec{Argv: []string{"sleep", "1000"}, Env: []string{"PATH=/usr/bin:/bin"}, Level: l,
				Limits: hostileLimits, ReadOnly: []string{dir}})
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Freeze(); err != nil {
				t.Fatal(err)
			}
			p.Kill()
			<-p.Done()
			keepOnly(p.slotOf())
			out, e, s := runIn(t, h, l, "echo ok", hostileLimits, dir)
			if s != p.slotOf() {
				t.Fatal("the slot of the frozen program was not reused: nothing proven")
			}
			if out != "ok\n" || e.Code != 0 {
				t.Errorf("after a frozen program: %q, %v", out, e)
			}
		})
	}
}

// TestReplacedDirectoryIsNotReused: a slot showing a directory that has
// been replaced since (a bot rebuilt into a new directory of the same
// name) is not used again; the program runs in a new slot and sees the
// new directory.
func TestReplacedDirectoryIsNotReused(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Namespaces)
	h.ReleaseIdle()
	base := t.TempDir()
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "bot")
	write := func(text string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "version"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("old\n")
	out, _, s1 := runIn(t, h, Auto, "cat "+dir+"/version", hostileLimits, dir)
	if out != "old\n" || s1 == nil {
		t.Fatalf("%q (slot %v)", out, s1 != nil)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	write("new\n")
	out, e, s2 := runIn(t, h, Auto, "cat "+dir+"/version", hostileLimits, dir)
	if s2 == s1 {
		t.Error("the slot showing the old directory was used again")
	}
	if out != "new\n" || e.Code != 0 {
		t.Errorf("after the directory was replaced: %q, %v", out, e)
	}
}

// slotOf is the slot p runs in, or nil.
func (p *Process) slotOf() *slot {
	if b, ok := p.b.(*pooled); ok {
		return b.slot
	}
	return nil
}

// TestPoolAgesOutUnusedShapes: a pool full of slots of shapes no longer
// used (another tournament's bots) makes room for the shape in use, up
// to its own cap, by letting the slots idle the longest go.
func TestPoolAgesOutUnusedShapes(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Namespaces)
	h.ReleaseIdle()
	t.Cleanup(h.ReleaseIdle)
	spec := func(dir string) Spec {
		return Spec{Argv: []string{"true"}, Env: []string{"PATH=/usr/bin:/bin"}, Level: Namespaces,
			Limits: hostileLimits, ReadOnly: []string{dir}, Dir: dir}
	}
	keyOf := func(s Spec) string {
		sh, _, err := h.prepare(t.Context(), s)
		if err != nil || sh == nil {
			t.Fatalf("prepare: %v", err)
		}
		return sh.key
	}
	var stale []string
	for i := 0; i < maxIdle; i++ {
		s := spec(t.TempDir())
		if err := h.Prewarm(t.Context(), s, 1); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, keyOf(s))
	}
	used := spec(t.TempDir())
	if err := h.Prewarm(t.Context(), used, 4); err != nil {
		t.Fatal(err)
	}
	h.pool.builds.Wait()
	h.pool.mu.Lock()
	defer h.pool.mu.Unlock()
	if n := len(h.pool.idle[keyOf(used)]); n != 4 {
		t.Errorf("the shape in use has %d idle slots, want 4", n)
	}
	if h.pool.nIdle != maxIdle {
		t.Errorf("%d idle slots, want the pool's %d", h.pool.nIdle, maxIdle)
	}
	for i, k := range stale {
		if gone := len(h.pool.idle[k]) == 0; gone != (i < 4) {
			t.Errorf("unused shape %d (0: idle the longest): gone %v, want %v", i, gone, i < 4)
		}
	}
}

// TestDeadIdleSlotsAreSkipped: every ready sandbox of a shape killed
// from outside (as a program of the same user can, at level basic on a
// kernel without Landlock's signal scope), the next Start skips them all
// and runs the program in a new one.
func TestDeadIdleSlotsAreSkipped(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Namespaces)
	h.ReleaseIdle()
	defer h.ReleaseIdle()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Argv: []string{"/bin/true"}, ReadOnly: []string{dir}, Limits: hostileLimits}
	if err := h.Prewarm(t.Context(), spec, 3); err != nil {
		t.Fatal(err)
	}
	sh, _, err := h.prepare(t.Context(), spec)
	if err != nil || sh == nil {
		t.Fatalf("prepare: %v, %v", sh, err)
	}
	h.pool.mu.Lock()
	ready := append([]*slot(nil), h.pool.idle[sh.key]...)
	h.pool.mu.Unlock()
	if len(ready) != 3 {
		t.Fatalf("%d ready sandboxes after h.Prewarm(t.Context(), 3)", len(ready))
	}
	for _, s := range ready {
		if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range ready {
		for i := 0; i < 500 && syscall.Kill(s.cmd.Process.Pid, 0) == nil && !zombie(s.cmd.Process.Pid); i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
	p, err := h.Start(t.Context(), spec)
	if err != nil {
		t.Fatalf("Start with every ready sandbox dead: %v", err)
	}
	<-p.Done()
	if e := p.Exit(); e.Code != 0 {
		t.Errorf("exit %v", e)
	}
	for _, s := range ready {
		if p.slotOf() == s {
			t.Error("the program ran in a dead sandbox")
		}
	}
}

// zombie reports whether process pid has ended and is not yet reaped.
func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err != nil || strings.Contains(string(b), ") Z ")
}

// TestShownMountsStayInside: a directory shown to a program, on a mount
// shared with other mount namespaces (as systemd makes every mount), gets
// no mount of the sandbox's: neither a directory shown inside it nor a
// program's fresh /tmp over a directory shown at /tmp appears on the
// machine. (The judge clones the trees it shows when it runs as root, and
// a clone is a peer of what it was cloned from.)
func TestShownMountsStayInside(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Namespaces)
	if os.Geteuid() != 0 {
		t.Skip("needs root, to make a shared mount")
	}
	h.ReleaseIdle()
	defer h.ReleaseIdle()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m,mode=755"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	defer syscall.Unmount(dir, syscall.MNT_DETACH)
	if err := syscall.Mount("", dir, "", syscall.MS_SHARED, ""); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	under := func() []string {
		b, err := os.ReadFile("/proc/self/mountinfo")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(f[4], dir+"/") {
				out = append(out, line)
			}
		}
		return out
	}
	for _, l := range []Level{Full, Namespaces} {
		if l.rank() > h.Probe().Level.rank() {
			continue
		}
		for i := 0; i < 2; i++ { // a new slot, then the same one again
			p, err := h.Start(t.Context(), Spec{Argv: []string{"/bin/true"}, Level: l, Limits: hostileLimits,
				ReadOnly: []string{dir}, Writable: []string{sub}})
			if err != nil {
				t.Fatal(err)
			}
			<-p.Done()
			if e := p.Exit(); e.Code != 0 {
				t.Errorf("at %s: exit %v", l, e)
			}
			if got := under(); len(got) > 0 {
				t.Fatalf("at %s, mounts of the sandbox on the machine:\n%s", l, strings.Join(got, "\n"))
			}
		}
	}
}

// TestReuseRenewsWhatIsLeft checks how a slot serves program after
// program: the thread that starts them, and with it their mount and IPC
// namespaces, serves the next program as long as each leaves nothing
// (the fast path, seen in the birth time of /tmp, a new file system for
// each new thread); a program that leaves a trace of any kind has the
// next program start in new namespaces, which show none of it. (Landlock
// keeps programs from making POSIX message queues; at levels without it,
// they can.)
func TestReuseRenewsWhatIsLeft(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	const mq = `/usr/bin/python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
flags = os.O_CREAT | os.O_RDWR if sys.argv[1] == "make" else os.O_RDONLY
print("queue" if libc.mq_open(b"/left", flags, 0o600, None) >= 0 else "no queue")' `
	cases := []struct {
		name, leave, look, left string
		optional                bool // a program may not be able to
	}{
		{"a file in /tmp", "echo x >/tmp/left && ls -A /tmp", "ls -A /tmp", "left", false},
		{"a file in /dev/shm", "echo x >/dev/shm/left && ls -A /dev/shm", "ls -A /dev/shm", "left", false},
		{"a file made and removed", "echo x >/tmp/gone && rm /tmp/gone && echo gone", "ls -A /tmp", "gone", false},
		{"a System V shared memory segment", "ipcmk -M 4096 && echo 0x", "ipcs -m", "0x", false},
		{"a System V semaphore set", "ipcmk -S 1 && echo 0x", "ipcs -s", "0x", false},
		{"a System V message queue", "ipcmk -Q && echo 0x", "ipcs -q", "0x", false},
		{"a POSIX message queue", mq + "make", mq + "look", "\nqueue", true},
		{"the mode of /tmp", "chmod 700 /tmp && ls -ld /tmp", "ls -ld /tmp", "drwx------", true},
	}
	const self = "stat -c %w /tmp; "
	born := func(out string) string { first, _, _ := strings.Cut(out, "\n"); return first }
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			dir := freshSlots(t, l)
			run := func(s *slot, script string) (string, Exit) {
				t.Helper()
				keepOnly(s)
				out, e, s2 := runIn(t, h, l, self+script, hostileLimits, dir)
				if s2 == nil || s != nil && s2 != s {
					t.Fatal("a program ran in another sandbox, or in none: nothing proven")
				}
				return out, e
			}
			_, _, s := runIn(t, h, l, self, hostileLimits, dir)
			if s == nil {
				t.Fatal("the program ran in no reusable sandbox")
			}
			for _, c := range cases {
				before, _ := run(s, "")
				if again, _ := run(s, ""); born(again) != born(before) || born(before) == "-" {
					t.Fatalf("%s: a program that left nothing had the next start anew (/tmp born %s, then %s)", c.name, born(before), born(again))
				}
				out, e := run(s, c.leave)
				if !strings.Contains(out, c.left) {
					if c.optional {
						t.Logf("%s: a program cannot leave it here: %q", c.name, out)
						continue
					}
					t.Fatalf("%s: the program could not leave it: %q, %v", c.name, out, e)
				}
				out, e = run(s, "echo; "+c.look)
				if born(out) == born(before) {
					t.Errorf("%s: the next program started in the same namespaces", c.name)
				}
				if _, look, _ := strings.Cut(out, "\n"); strings.Contains(look, c.left) {
					t.Errorf("%s: the next program finds it: %q", c.name, out)
				}
				if e.Code != 0 {
					t.Errorf("%s: the next program: %q, %v", c.name, out, e)
				}
			}
		})
	}
}

// TestReuseForgetsTmpAtAnyDepth runs, eight times in one slot, a program
// that writes a file somewhere in its /tmp, each time elsewhere: in /tmp
// itself, in the directories the sandbox made there to show a directory
// of the judge's that lies under /tmp (as it shows Ruby bots'
// line-buffering file), in new ones several levels deep, hidden ones. No
// run finds a file an earlier one wrote.
func TestReuseForgetsTmpAtAnyDepth(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	for _, l := range []Level{Full, Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			h.ReleaseIdle()
			// Shown two levels below a directory of /tmp: the sandbox
			// makes top and top/shown in each program's /tmp.
			top, err := os.MkdirTemp("/tmp", "judge-depth-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(top) })
			dir := filepath.Join(top, "shown", "bot")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, d := range []string{top, filepath.Dir(dir), dir} {
				if err := os.Chmod(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			places := []string{
				top + "/shown/left",
				top + "/left",
				top + "/shown/.hidden/a/b/left",
				top + "/.hidden/left",
				"/tmp/left",
				"/tmp/.hidden/a/b/c/left",
				top + "/shown/new/left",
				top + "/shown/left",
			}
			var s *slot
			for run, place := range places {
				script := fmt.Sprintf(`echo "found:$(find /tmp -xdev -name 'left*' | sort | tr '\n' ' ')"
					mkdir -p %[1]s && echo %[2]d >%[3]s && echo wrote`, filepath.Dir(place), run, place)
				keepOnly(s)
				out, e, s2 := runIn(t, h, l, script, hostileLimits, dir)
				if e.Code != 0 || s2 == nil || s != nil && s2 != s || !strings.Contains(out, "\nwrote\n") {
					t.Fatalf("run %d: %v, %q (the same slot: %v): nothing proven", run, e, out, s2 == s)
				}
				s = s2
				if found, _, _ := strings.Cut(out, "\n"); found != "found:" {
					t.Errorf("run %d finds what an earlier one wrote: %s", run, found)
				}
			}
		})
	}
}

// TestCheckReuse: CheckReuse does, ahead, the check of whether ready
// sandboxes work that the first Start at the level would do.
func TestCheckReuse(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	available(t, Namespaces)
	checked := func(l Level) bool {
		h.reuse.mu.Lock()
		defer h.reuse.mu.Unlock()
		_, done := h.reuse.checks[l]
		return done
	}
	if checked(Namespaces) {
		t.Fatal("checked before anything asked")
	}
	h.CheckReuse(Namespaces)
	if !checked(Namespaces) {
		t.Error("not checked at namespaces after CheckReuse(Namespaces)")
	}
	best := h.Probe().Level
	h.CheckReuse(Auto)
	if !checked(best) {
		t.Errorf("not checked at %s, the best here, after CheckReuse(Auto)", best)
	}
}

// TestPreparedShapesAreKept: a spec's shape is worked out once per Host
// and taken again by the next start of the same spec, or of one whose
// environment differs but for PATH (a match's seed), each with its own
// environment; another spec has its own; and a program whose directory
// went away since fails to start with the reason, as it did when the
// shape was worked out each time.
func TestPreparedShapesAreKept(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	dir := freshSlots(t, Namespaces)
	prog := filepath.Join(dir, "prog")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Argv: []string{prog}, Env: []string{"PATH=/usr/bin:/bin"}, ReadOnly: []string{dir}, Level: Namespaces, Limits: hostileLimits}
	sh1, run1, err := h.prepare(t.Context(), spec)
	if err != nil || sh1 == nil {
		t.Fatalf("prepare: %v", err)
	}
	sh2, run2, err := h.prepare(t.Context(), spec)
	if err != nil || sh2 != sh1 || !reflect.DeepEqual(run2, run1) {
		t.Fatalf("the same spec worked out again (%v): %p, %p", err, sh1, sh2)
	}
	// A variable that does not choose the program (a match's seed): the
	// same shape, the program's own environment.
	other := spec
	other.Env = []string{"PATH=/usr/bin:/bin", "X=1"}
	sh3, run3, err := h.prepare(t.Context(), other)
	if err != nil || sh3 != sh1 || !slices.Equal(run3.Env, other.Env) || !slices.Equal(run1.Env, spec.Env) {
		t.Fatalf("another seed (%v): shape %p, want %p; environment %q", err, sh3, sh1, run3.Env)
	}
	// One that does: the shape worked out again.
	other.Env = []string{"PATH=/bin", "X=1"}
	sh4, run4, err := h.prepare(t.Context(), other)
	if err != nil || sh4 == sh1 || !slices.Equal(run4.Env, other.Env) {
		t.Fatalf("another PATH took the first spec's shape (%v): %+v", err, run4)
	}
	// Started, each program of a kept shape has its own environment.
	out := filepath.Join(t.TempDir(), "out")
	for _, x := range []string{"1", "2"} {
		f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		p, err := h.Start(t.Context(), Spec{Argv: []string{"/bin/sh", "-c", "echo $X"}, Env: []string{"PATH=/usr/bin:/bin", "X=" + x},
			Level: Namespaces, Limits: hostileLimits, Stdout: f})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if <-p.Done(); p.Exit().Code != 0 || p.Exit().Err != nil {
			t.Fatalf("echo $X: %v", p.Exit())
		}
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "1\n2\n" {
		t.Fatalf("the programs printed %q (%v), want each its own X", b, err)
	}
	p, err := h.Start(t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if e := p.Exit(); e.Code != 0 || e.Err != nil {
		t.Fatalf("first start: %v", e)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	p, err = h.Start(t.Context(), spec)
	if err == nil {
		<-p.Done()
		t.Fatalf("a program whose directory is gone started: %v", p.Exit())
	}
	// The directory or the program in it, as the shape is worked out.
	if !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), ": no such file or directory") {
		t.Fatalf("the start failed without the reason: %v", err)
	}
}
