package procbot_test

import (
	"bytes"
	"context"
	"fmt"
	"judge/sandbox/sandboxtest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// turnOf plays one turn with p: a line in, "#END" out.
func turnOf(t *testing.T, p *procbot.Player, n int) {
	t.Helper()
	ctx := context.Background()
	if err := p.BeginTurn(ctx, judge.Turn{Number: n, Limit: 10 * time.Second, Deadline: time.Now().Add(10 * time.Second), First: n == 1}); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteAnswer(ctx, []byte("go")); err != nil {
		t.Fatal(err)
	}
	line, err := p.ReadLine(ctx)
	if err != nil || string(line) != "#END" {
		t.Fatalf("turn %d: %q, %v", n, line, err)
	}
	if _, err := p.EndTurn(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestIdleBotsAreNotFrozen: a bot that waits for its next turn on its
// stdin is left so between turns, with nothing to pay for freezing and
// thawing it; one that computes meanwhile (here a child that spins while
// the bot reads) is found by its CPU time at its next turn and frozen
// between its turns from then on.
func TestIdleBotsAreNotFrozen(t *testing.T) {
	start := fullShell(t)
	const loop = `while read l; do echo '#END'; done`
	waiter := start(loop)
	for n := 1; n <= 3; n++ {
		turnOf(t, waiter, n)
		if !procbot.LeftIdle(waiter) {
			sandboxtest.SkipLevel(t, "the bot was frozen at the end of its turn: no cgroup counts its sandbox's CPU time here")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if procbot.Ponders(waiter) {
		t.Error("a bot that only waited on its stdin was found computing between turns")
	}

	ponderer := start(`yes >/dev/null & ` + loop)
	cpu := func() time.Duration {
		d, err := procbot.ProcessOf(ponderer).CPUTime()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	const gap = 200 * time.Millisecond
	turnOf(t, ponderer, 1)
	if !procbot.LeftIdle(ponderer) {
		t.Fatal("a bot not yet found computing between turns was frozen")
	}
	c0 := cpu()
	time.Sleep(gap)
	unfrozen := cpu() - c0
	turnOf(t, ponderer, 2)
	if !procbot.Ponders(ponderer) {
		t.Fatalf("a bot whose child used %v of CPU between two turns was not found computing", unfrozen)
	}
	if procbot.LeftIdle(ponderer) {
		t.Fatal("a bot found computing between turns was left unfrozen")
	}
	frozen := stillWhenStopped(t, ponderer, gap)
	t.Logf("CPU time between turns: %v unfrozen, %v frozen", unfrozen, frozen)
	if frozen > 2*time.Millisecond {
		t.Errorf("between turns the pondering bot, frozen, used %v (%v unfrozen)", frozen, unfrozen)
	}
}

// TestIdleBotsAtNamespaces: without a cgroup to count a sandbox's CPU
// time (level namespaces), a bot alone in its sandbox that waits on its
// stdin is left so between turns; one with another process in its
// sandbox at the end of its turn (a child, an orphan its init adopted) is
// frozen; and one whose child ran between its turns and was reaped is
// found at its next turn, by the CPU time of the children it reaped.
func TestIdleBotsAtNamespaces(t *testing.T) {
	start := shellAt(t, procbot.Namespaces)
	const loop = `while read l; do echo '#END'; done`
	waiter := start(loop)
	for n := 1; n <= 3; n++ {
		turnOf(t, waiter, n)
		if !procbot.LeftIdle(waiter) {
			t.Fatalf("turn %d: a bot alone in its sandbox, waiting on its stdin, was frozen", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if procbot.Ponders(waiter) {
		t.Error("a bot that only waited on its stdin was found computing between turns")
	}

	for _, c := range []struct{ name, script string }{
		{"a child", `yes >/dev/null & ` + loop},
		{"an orphan", `(yes >/dev/null &); ` + loop},
	} {
		p := start(c.script)
		for n := 1; n <= 2; n++ {
			turnOf(t, p, n)
			if procbot.LeftIdle(p) {
				t.Errorf("%s: turn %d: a bot with %s spinning in its sandbox was left unfrozen", c.name, n, c.name)
			}
		}
	}

	// Once its turn is over (the test makes the file go in its folder),
	// the bot runs a child for 50 ms of CPU time, and reaps it. (CPU
	// time, not 50 ms of the clock: a child reaped is counted in clock
	// ticks, 10 ms here, and on a loaded machine 50 ms of the clock may be
	// less than one.)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	reaper := start(`cd `+dir+` && exec python3 -c '
import os, sys, time
while sys.stdin.readline():
    print("#END", flush=True)
    while not os.path.exists("go"):
        time.sleep(0.01)
    pid = os.fork()
    if pid == 0:
        while time.process_time() < 0.05:
            pass
        os._exit(0)
    os.waitpid(pid, 0)
'`, dir)
	turnOf(t, reaper, 1)
	if !procbot.LeftIdle(reaper) {
		t.Fatal("a bot alone in its sandbox, asleep, was frozen")
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	turnOf(t, reaper, 2)
	if !procbot.Ponders(reaper) {
		t.Error("a child that ran 50 ms between two turns, then was reaped, was not seen")
	}
}

// fullShell returns what starts a shell script as a bot at level full,
// stopped when the test ends; the test is skipped without that level.
func fullShell(t *testing.T) func(script string, dir ...string) *procbot.Player {
	t.Helper()
	return shellAt(t, procbot.Full)
}

// shellAt is fullShell at level l.
func shellAt(t *testing.T, l procbot.Level) func(script string, dir ...string) *procbot.Player {
	t.Helper()
	if best := judgetest.Host().RunLevel(procbot.Auto); best != l && !(l == procbot.Namespaces && best == procbot.Full) {
		sandboxtest.SkipLevel(t, "level %s is not available here", l)
	}
	return func(script string, dir ...string) *procbot.Player {
		spec := procbot.Spec{Name: "bot", Argv: []string{"sh", "-c", script}}
		if len(dir) > 0 {
			spec.Dir = dir[0] // shown to the bot, read-only
		}
		p, err := judgetest.Host().Start(t.Context(), spec, procbot.Options{Host: judgetest.Host(), Level: l}, 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Stop(0) })
		return p
	}
}

// stillWhenStopped returns the CPU time p's bot uses in gap once it is
// stopped. The init stops what was running in its own time on a loaded
// machine: once none of the bot's threads is runnable, none can compute,
// and its CPU time stays still.
func stillWhenStopped(t *testing.T, p *procbot.Player, gap time.Duration) time.Duration {
	t.Helper()
	proc := procbot.ProcessOf(p)
	for deadline := time.Now().Add(20 * time.Second); len(runnable(proc.Pid())) > 0; {
		if time.Now().After(deadline) {
			t.Fatalf("stopped, threads %v of the bot are still runnable after 20s", runnable(proc.Pid()))
		}
		time.Sleep(10 * time.Millisecond)
	}
	c0, err := proc.CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(gap)
	c1, err := proc.CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	return c1 - c0
}

// runnable lists the threads of process pid and of its descendants that
// are runnable (state R: running or waiting for a CPU), as pid/tid.
func runnable(pid int) []string {
	var out []string
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tids, _ := os.ReadDir(dir)
	for _, tid := range tids {
		st, _ := os.ReadFile(dir + "/" + tid.Name() + "/stat")
		if i := bytes.LastIndexByte(st, ')'); i > 0 && i+2 < len(st) && st[i+2] == 'R' {
			out = append(out, strconv.Itoa(pid)+"/"+tid.Name())
		}
		children, _ := os.ReadFile(dir + "/" + tid.Name() + "/children")
		for _, c := range strings.Fields(string(children)) {
			if cpid, err := strconv.Atoi(c); err == nil {
				out = append(out, runnable(cpid)...)
			}
		}
	}
	return out
}

// TestSettleLoadsThenStops: before its first turn a bot loads until it
// waits for its input (Settle), and what it used meanwhile is not its
// first turn's; one that never waits for input is stopped once its time
// to load has passed, and computes nothing more until its turn.
func TestSettleLoadsThenStops(t *testing.T) {
	start := fullShell(t)
	ctx := context.Background()
	cpu := func(p *procbot.Player) time.Duration {
		d, err := procbot.ProcessOf(p).CPUTime()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	// A bot that computes a few milliseconds as it starts; a loaded
	// machine may keep it from settling in time (its start in the
	// sandbox comes on top, tens of milliseconds under emulation), so it
	// has three tries, each loading half as long as the one before.
	n, started := loadTurns(t)
	var loader *procbot.Player
	for try := 0; try < 3 && loader == nil; try, n = try+1, max(100, n/2) {
		t0 := time.Now()
		p := start(fmt.Sprintf(`i=0; while [ $i -lt %d ]; do i=$((i+1)); done; while read l; do echo '#END'; done`, n))
		p.Settle(ctx)
		took := time.Since(t0)
		if procbot.LeftIdle(p) {
			loader = p
		} else if took < procbot.SettleWithin {
			t.Fatalf("Settle gave up on a loading bot after %v, before its %v to load", took, procbot.SettleWithin)
		} else {
			t.Logf("try %d: a bot loading for %d shell loop turns did not settle (%v from its start to Settle's return)", try+1, n, took)
		}
	}
	if loader == nil {
		// Too slow or busy a machine, measured apart from Settle, or
		// Settle itself that fails.
		notSettled(t, started)
	}
	if b := procbot.ProcessOf(loader).Blocked(); b != "read stdin" {
		t.Fatalf("a bot left idle once settled is blocked in %q, want a read of its stdin", b)
	}
	loaded := cpu(loader)
	if err := loader.BeginTurn(ctx, judge.Turn{Number: 1, Limit: 10 * time.Second, Deadline: time.Now().Add(10 * time.Second), First: true}); err != nil {
		t.Fatal(err)
	}
	if err := loader.WriteAnswer(ctx, []byte("go")); err != nil {
		t.Fatal(err)
	}
	if line, err := loader.ReadLine(ctx); err != nil || string(line) != "#END" {
		t.Fatalf("first turn: %q, %v", line, err)
	}
	u, err := loader.EndTurn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("CPU time: %v loading, %v in the first turn", loaded, u.CPU)
	if u.CPUKnown && u.CPU >= loaded {
		t.Errorf("the first turn counted %v of CPU time, as much as the %v the bot used as it loaded", u.CPU, loaded)
	}

	// A bot that never waits for input.
	hog := start(`while :; do :; done`)
	hog.Settle(ctx)
	if procbot.LeftIdle(hog) {
		t.Fatal("a bot that never waited for input was left idle")
	}
	if used := stillWhenStopped(t, hog, 200*time.Millisecond); used > 2*time.Millisecond {
		t.Errorf("stopped until its first turn, the hog used %v in 200ms", used)
	}
}

// loadTurns is how many turns of a shell loop a loading bot makes: 5,000,
// or fewer where the machine is slow (an emulated one runs them in
// seconds), so that they take at most a quarter of the time Settle waits,
// as measured here. The shell's own start is measured apart and left
// out: under emulation it is tens of milliseconds, more in a sandbox,
// and comes on top of the loop.
func loadTurns(t *testing.T) (n int, started time.Duration) {
	t.Helper()
	n = 5000
	shell := func(turns int) time.Duration {
		t0 := time.Now()
		if err := exec.Command("sh", "-c", fmt.Sprintf(`i=0; while [ $i -lt %d ]; do i=$((i+1)); done`, turns)).Run(); err != nil {
			t.Fatal(err)
		}
		return time.Since(t0)
	}
	started = min(shell(0), shell(0), shell(0))
	if d := shell(n) - started; d > procbot.SettleWithin/4 {
		n = max(100, int(float64(n)*float64(procbot.SettleWithin/4)/float64(d)))
		t.Logf("%v for 5,000 turns of a shell loop here, beyond its %v start: the bot loads for %d", d, started, n)
	}
	return n, started
}

// notSettled ends a test whose loading bot did not settle in three
// tries, the machine's figures saying whether it could: a skip where a
// shell's start alone (started, the quickest of three) takes half of
// what Settle waits, as under emulation with other work beside, or where
// a busy loop gets less than half a CPU; else a failure.
func notSettled(t *testing.T, started time.Duration) {
	t.Helper()
	if started > procbot.SettleWithin/2 {
		t.Skipf("a shell starts in %v here, more than half of the %v Settle waits for a bot to load: a loading bot did not settle in three tries", started, procbot.SettleWithin)
	}
	share := cpuShare(200 * time.Millisecond)
	if share < busyShare {
		t.Skipf("the machine is too busy (a busy loop gets %.0f%% of a CPU): a loading bot did not settle in three tries", 100*share)
	}
	t.Fatalf("a loading bot did not settle in three tries, on a machine where a busy loop gets %.0f%% of a CPU and a shell starts in %v", 100*share, started)
}

// TestSettleWithoutSandbox: without a sandbox nothing is frozen, but the
// judge still waits for a bot to load, up to the same bound.
func TestSettleWithoutSandbox(t *testing.T) {
	ctx := context.Background()
	n, started := loadTurns(t)
	// A loaded machine may keep the bot from loading in time, as in
	// TestSettleLoadsThenStops: three tries, each loading half as long.
	for try := 0; try < 3; try, n = try+1, max(100, n/2) {
		t0 := time.Now()
		p, err := judgetest.Host().Start(t.Context(), procbot.Spec{Name: "bot", Argv: []string{"sh", "-c", fmt.Sprintf(`i=0; while [ $i -lt %d ]; do i=$((i+1)); done; read l`, n)}},
			procbot.Options{Host: judgetest.Host(), Level: procbot.None}, 1)
		if err != nil {
			t.Fatal(err)
		}
		p.Settle(ctx)
		took := time.Since(t0)
		b := procbot.ProcessOf(p).Blocked()
		p.Stop(0)
		if b == "read stdin" {
			return
		}
		if took < procbot.SettleWithin {
			t.Fatalf("Settle returned after %v, before the bot's %v to load, with the bot blocked in %q, not reading its stdin", took, procbot.SettleWithin, b)
		}
	}
	notSettled(t, started)
}
