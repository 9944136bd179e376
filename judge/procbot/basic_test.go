//go:build unix

package procbot_test

import (
	"fmt"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/sandbox/sandboxtest"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Level basic, as a match meets it: the process player with the
// sandbox's hostile programs that read /proc and fill their tmp.

// TestBasicProcView: at level basic a program sees no other process in
// /proc (nor can it change the judge's), but still reads its own.
func TestBasicProcView(t *testing.T) {
	t.Parallel()
	if judgetest.Host().RunLevel(procbot.Auto) == procbot.None {
		sandboxtest.SkipLevel(t, "level basic is not available here")
	}
	argv := judgetest.Bot(t, "sandbox/testdata/hostile/procview.c")
	tr := playTurn(t, procbot.Spec{Name: "procview", Argv: argv}, procbot.Options{Host: judgetest.Host(), Level: procbot.Basic, Limits: hostileLimits}, 5*time.Second)
	if tr.status != judge.OK {
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
	t.Parallel()
	if judgetest.Host().RunLevel(procbot.Auto) == procbot.None {
		sandboxtest.SkipLevel(t, "level basic is not available here")
	}
	argv := judgetest.Bot(t, "sandbox/testdata/hostile/filltmp.c")
	lim := hostileLimits
	lim.TmpSize = 4 << 20
	tr := playTurn(t, procbot.Spec{Name: "filltmp", Argv: argv}, procbot.Options{Host: judgetest.Host(), Level: procbot.Basic, Limits: lim}, 20*time.Second)
	if !tr.proc.TmpFull() {
		t.Errorf("TmpFull is false after %q (%s %s)", tr.out, tr.status, tr.reason)
	}
	// Stopped: its writes fail (the judge may set its limits), or it is
	// killed (the judge may not).
	var wrote int64
	var how string
	if tr.status == judge.OK {
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
	for _, l := range tr.proc.Leftovers() {
		t.Errorf("%s remains", l)
	}
}

// TestBasicMemoryBomb: a forced level basic uses the memory cgroup where
// the machine has one (as at level full), so that a memory bomb is
// stopped for memory.
func TestBasicMemoryBomb(t *testing.T) {
	t.Parallel()
	if judgetest.Host().RunLevel(procbot.Auto) == procbot.None {
		sandboxtest.SkipLevel(t, "level basic is not available here")
	}
	argv := judgetest.Bot(t, "sandbox/testdata/hostile/memory.c")
	tr := playTurn(t, procbot.Spec{Name: "memory", Argv: argv}, procbot.Options{Host: judgetest.Host(), Level: procbot.Basic, Limits: hostileLimits}, 10*time.Second)
	want := judge.Crash // RLIMIT_DATA: malloc fails, the bomb writes to NULL
	if judgetest.Host().RunLevel(procbot.Auto) == procbot.Full {
		want = judge.Memory
	}
	if tr.status != want {
		t.Errorf("status %s (%s), want %s", tr.status, tr.reason, want)
	}
}
