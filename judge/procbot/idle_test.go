package procbot_test

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"judge/judge"
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
	o := procbot.Options{Level: procbot.Full}
	if procbot.RunLevel(procbot.Auto) != procbot.Full {
		t.Skip("level full is not available here")
	}
	start := func(script string) *procbot.Player {
		p, err := procbot.Start(procbot.Spec{Name: "bot", Argv: []string{"sh", "-c", script}}, o, 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Stop(0) })
		return p
	}
	const loop = `while read l; do echo '#END'; done`
	waiter := start(loop)
	for n := 1; n <= 3; n++ {
		turnOf(t, waiter, n)
		if !procbot.LeftIdle(waiter) {
			t.Skip("the bot was frozen at the end of its turn: no cgroup counts its sandbox's CPU time here")
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
	// The init stops what was running, in its own time on a loaded
	// machine: once none of the bot's threads is runnable, none can
	// compute, and its CPU time stays still.
	pid := procbot.ProcessOf(ponderer).Pid()
	for deadline := time.Now().Add(20 * time.Second); len(runnable(pid)) > 0; {
		if time.Now().After(deadline) {
			t.Fatalf("frozen between turns, threads %v of the bot are still runnable after 20s", runnable(pid))
		}
		time.Sleep(10 * time.Millisecond)
	}
	c1 := cpu()
	time.Sleep(gap)
	frozen := cpu() - c1
	t.Logf("CPU time between turns: %v unfrozen, %v frozen", unfrozen, frozen)
	if frozen > 2*time.Millisecond {
		t.Errorf("between turns the pondering bot, frozen, used %v (%v unfrozen)", frozen, unfrozen)
	}
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
