//go:build linux

package procbot_test

import (
	"os/exec"
	"regexp"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"judge/judge"
	"judge/judge/judgetest"
)

// hogs starts, for the rest of the test, a busy loop on every CPU the
// test may use, each pinned to its CPU: a machine that keeps every bot
// waiting.
func hogs(t *testing.T) {
	t.Helper()
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	for c := 0; c < len(set)*64; c++ {
		if !set.IsSet(c) {
			continue
		}
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		var one unix.CPUSet
		one.Set(c)
		if err := unix.SchedSetaffinity(cmd.Process.Pid, &one); err != nil {
			t.Fatal(err)
		}
	}
}

// figuresRE reads the figures of a timeout's reason.
var figuresRE = regexp.MustCompile(`\((\S+) in all, of which (\S+) waiting for a CPU and (\S+) for the judge; it used (\S+) of CPU\)`)

// A bot whose helper threads spin while its main thread computes cannot
// buy time with them: their waits behind each other are its own time.
// Its main thread needs 800 ms of CPU on a 1 s turn, which it would get
// alone; sharing the match's CPU with two spinning helpers it cannot, and
// it times out. The reason's figures add up: the waits credited and the
// CPU time it used are parts of the turn's wall time.
func TestHelperThreadsAreTheBotsTime(t *testing.T) {
	for _, loaded := range []bool{false, true} {
		name := "quiet"
		if loaded {
			name = "a busy loop on every CPU"
		}
		t.Run(name, func(t *testing.T) {
			if loaded {
				hogs(t)
			}
			res := play(t, "tictactoe", 1, func(m *judgetest.Setup) {
				m.Limits.Turn, m.Limits.FirstTurn = time.Second, time.Second
			}, "judge/procbot/testdata/helpers.c", randomC)
			p := res.Players[0]
			t.Logf("%s: %s", p.Status, p.Reason)
			if p.Status != judge.Timeout {
				t.Fatalf("the bot with spinning helpers: %s %q, want a timeout", p.Status, p.Reason)
			}
			m := figuresRE.FindStringSubmatch(p.Reason)
			if m == nil {
				t.Fatalf("no figures in %q", p.Reason)
			}
			var d [4]time.Duration
			for i := range d {
				var err error
				if d[i], err = time.ParseDuration(m[i+1]); err != nil {
					t.Fatalf("%q: %v", m[i+1], err)
				}
			}
			wall, cpuWait, judgeWait, cpu := d[0], d[1], d[2], d[3]
			// Each figure is rounded to the millisecond.
			if cpuWait+judgeWait+cpu > wall+3*time.Millisecond {
				t.Errorf("%v waiting for a CPU, %v for the judge and %v of CPU do not fit in %v", cpuWait, judgeWait, cpu, wall)
			}
		})
	}
}

// A bot of one thread that shares its CPU with a busy loop is credited
// the time it waited for it. spin.c computes 300 ms of CPU time a turn;
// every such turn's wall time, less its CPU time, is mostly the wait
// credited (the rest: the judge's answers, the bot's reads).
func TestWaitForACPUIsCredited(t *testing.T) {
	hogs(t)
	res := play(t, "tictactoe", 1, func(m *judgetest.Setup) {
		m.Limits.Turn, m.Limits.FirstTurn = 3*time.Second, 3*time.Second
	}, "judge/procbot/testdata/spin.c", randomC)
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("an honest bot on a busy machine: %s %s", p.Status, p.Reason)
	}
	n, waited := 0, 0
	for _, turn := range res.Replay.Turns {
		for _, mv := range turn.Moves {
			if mv.Seat != 0 || mv.CPUUS < 250_000 {
				continue
			}
			n++
			wall, cpu, wait := time.Duration(mv.WallUS)*time.Microsecond, time.Duration(mv.CPUUS)*time.Microsecond, time.Duration(mv.WaitUS)*time.Microsecond
			t.Logf("turn %d: %v in all, %v of CPU, %v credited", turn.Turn, wall, cpu, wait)
			// The cgroup's CPU time of a task that runs as it is read
			// lags by up to a scheduler tick (4 ms at 250 Hz, 10 ms at
			// 100 Hz): a bot caught computing as its turn begins is
			// charged up to a tick more.
			if wait+cpu > wall+10*time.Millisecond {
				t.Errorf("turn %d: %v credited and %v of CPU do not fit in %v", turn.Turn, wait, cpu, wall)
			}
			if wall-cpu < 50*time.Millisecond {
				continue // the machine did not keep it waiting this turn: nothing to credit
			}
			waited++
			if wait < (wall-cpu)/2 {
				t.Errorf("turn %d: %v in all, %v of CPU, and only %v credited as waiting", turn.Turn, wall, cpu, wait)
			}
		}
	}
	if n == 0 {
		t.Fatal("no turn in which the bot computed")
	}
	if waited == 0 {
		// The hogs are still running: whether they keep a plain busy
		// loop from its CPU is measured apart from the fair clock.
		if share := cpuShare(200 * time.Millisecond); share < 0.7 {
			t.Fatalf("no turn credited a wait, while the busy loops keep a plain one to %.0f%% of a CPU", 100*share)
		} else {
			t.Skipf("the busy loops kept the bot waiting in no turn (a plain busy loop among them gets %.0f%% of a CPU): nothing to credit", 100*share)
		}
	}
}
