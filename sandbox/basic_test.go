package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBasicProcView: at level basic a program sees no other process in
// /proc (nor can it change the judge's), but still reads its own.
func TestBasicProcView(t *testing.T) {
	if probe().Level.rank() < Basic.rank() {
		t.Skip("level basic is not available here")
	}
	argv, dir := build(t, "procview.c")
	tr := playTurn(t, Spec{Argv: argv, Level: Basic, ReadOnly: []string{dir}}, 5*time.Second)
	if tr.status != "ok" {
		t.Fatalf("status %s (%s), want ok", tr.status, tr.reason)
	}
	if strings.Contains(tr.out, "LEAK") || strings.Contains(tr.out, "NOSELF") {
		t.Errorf("at level basic:\n%s", tr.out)
	}
}

// TestBasicTmpFull: at level basic a program that fills its temporary
// directory is stopped soon after the limit (writes fail as on a full
// disk), and the directory is removed at the end.
func TestBasicTmpFull(t *testing.T) {
	if probe().Level.rank() < Basic.rank() {
		t.Skip("level basic is not available here")
	}
	argv, dir := build(t, "filltmp.c")
	lim := hostileLimits
	lim.TmpSize = 4 << 20
	tr := playTurn(t, Spec{Argv: argv, Level: Basic, ReadOnly: []string{dir}, Limits: lim}, 20*time.Second)
	if !tr.proc.TmpFull() {
		t.Errorf("TmpFull is false after %q (%s %s)", tr.out, tr.status, tr.reason)
	}
	// Stopped: its writes fail (the judge may set its limits), or it is
	// killed (the judge may not).
	var wrote int64
	var how string
	if tr.status == "ok" {
		if _, err := fmt.Sscanf(tr.out, "WROTE %d %s", &wrote, &how); err != nil {
			t.Fatalf("output %q: %v", tr.out, err)
		}
		if how != "stopped" {
			t.Errorf("wrote %d MiB into a tmp of 4 MiB: %s", wrote>>20, how)
		}
		t.Logf("wrote %d MiB into a tmp of 4 MiB before its writes failed", wrote>>20)
	} else if strings.Contains(tr.out, "unstopped") || tr.exit.Signal != syscall.SIGKILL {
		t.Errorf("status %s (%s) after %q, want ok or killed", tr.status, tr.reason, tr.out)
	} else {
		t.Logf("killed for filling its tmp: %s (%s); exit %v", tr.status, tr.reason, tr.exit)
	}
	if _, err := os.Stat(tr.proc.tmpDir); err == nil {
		t.Errorf("%s remains", tr.proc.tmpDir)
	}
}

// TestBasicTmpSweep: the temporary directories of judges that are gone
// are removed; those of a running judge are not.
func TestBasicTmpSweep(t *testing.T) {
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

// TestBasicMemoryBomb: a forced level basic uses the memory cgroup where
// the machine has one, so that a memory bomb is stopped for memory.
func TestBasicMemoryBomb(t *testing.T) {
	if probe().Level.rank() < Basic.rank() {
		t.Skip("level basic is not available here")
	}
	argv, dir := build(t, "memory.c")
	tr := playTurn(t, Spec{Argv: argv, Level: Basic, ReadOnly: []string{dir}}, 10*time.Second)
	want := "crash" // RLIMIT_DATA: malloc fails, the bomb writes to NULL
	if cgroups().memory {
		want = "memory"
		if tr.proc.cg == nil {
			t.Error("no cgroup at a forced level basic")
		}
	}
	if tr.status != want {
		t.Errorf("status %s (%s), want %s", tr.status, tr.reason, want)
	}
}

func TestNotice(t *testing.T) {
	for l, want := range map[Level]string{Full: "", Namespaces: "", Auto: "", Basic: "sandbox level basic: ", None: "NO SANDBOX"} {
		if got := l.Notice(); !strings.HasPrefix(got, want) || (want == "") != (got == "") || strings.Contains(got, "\n") {
			t.Errorf("%q.Notice() = %q, want one line starting %q", l, got, want)
		}
	}
}
