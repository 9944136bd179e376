package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
)

// crashReplay plays testdata/debug/crash.py (seat 0), which crashes at
// turn 5 on the board it reads, against a bot that drops into column 6,
// and returns the replay's path and the replay.
func crashReplay(t *testing.T, extra ...string) (string, *judge.Replay) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.json")
	args := append([]string{"match", "--game", "connect4", "--seed", "1", "--replay", path}, extra...)
	code, out, errs := run(t, append(args, testBot(t, "crash.py"), testBot(t, "column.py", "6"))...)
	if code != 0 || !strings.Contains(out, "crash crashed at turn 5: ZeroDivisionError") {
		t.Fatalf("match: exit %d\n%s%s", code, out, errs)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rp, err := judge.ReadReplay(f)
	if err != nil {
		t.Fatal(err)
	}
	return path, rp
}

// The bot alone under judge debug crashes at the turn it crashed at in
// the match, having written the same stderr: it read the same boards.
func TestDebugCrashesAtTheSameTurn(t *testing.T) {
	path, rp := crashReplay(t)
	code, out, errs := run(t, "debug", path, "--", "sh", "-c", testBot(t, "crash.py"))
	if code != 0 {
		t.Fatalf("debug: exit %d\n%s%s", code, out, errs)
	}
	var bot []string // the stderr lines that are the bot's
	for _, l := range strings.SplitAfter(errs, "\n") {
		if !strings.HasPrefix(l, "judge: ") {
			bot = append(bot, l)
		}
	}
	if got, want := strings.Join(bot, ""), rp.Bots[0].Stderr; got != want {
		t.Errorf("the bot's stderr under judge debug:\n%s\nin the match:\n%s", got, want)
	}
	if !strings.Contains(errs, "judge: the bot ended (exit status 1) at turn 5") {
		t.Errorf("judge debug does not say the bot ended at turn 5:\n%s", errs)
	}
}

// The rerun answers a bot's queries exactly as the match did: driven by
// the lines the bot wrote in the match, it writes what the match wrote on
// its stdin, as judge replay --stdin-of prints it.
func TestRerunAnswersAsTheMatch(t *testing.T) {
	path, rp := crashReplay(t, "--trace")
	v, err := catalog.Lookup(rp.Game)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := judge.NewRerun(v.Game, rp, 0)
	if err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	for _, l := range rp.Bots[0].Trace {
		if l.Dir != "out" {
			continue
		}
		s, err := rr.Line(l.Line)
		if err != nil {
			t.Fatal(err)
		}
		if s.Kind == judge.LineQuery {
			in.WriteString(s.Answer + "\n")
		}
	}
	code, out, errs := run(t, "replay", "--stdin-of", "0", path)
	if code != 0 || out == "" || out != in.String() {
		t.Errorf("judge replay --stdin-of 0: exit %d %s\n%q\nthe rerun's answers:\n%q", code, errs, out, in.String())
	}
	code, out, _ = run(t, "replay", "--stdin-of", "0", "--turn", "3", path)
	if code != 0 || strings.Count(out, "\n") != 14 {
		t.Errorf("judge replay --stdin-of 0 --turn 3: exit %d, %d lines, want two turns of 7:\n%s", code, strings.Count(out, "\n"), out)
	}
	path, _ = crashReplay(t)
	if code, _, errs := run(t, "replay", "--stdin-of", "0", path); code != 1 || !strings.Contains(errs, "--trace") {
		t.Errorf("--stdin-of without a transcript: exit %d, %s", code, errs)
	}
}

// pdb on the crashing bot, told to continue, stops at the line that
// raised, post mortem, with the stderr of the match: the same boards.
func TestDebugUnderPdb(t *testing.T) {
	path, _ := crashReplay(t)
	termR, termW := io.Pipe()
	var out, errs judgetest.SyncBuffer
	m := &Main{Stdin: termR, Stdout: &out, Stderr: &errs, Host: judgetest.Host()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan int)
	go func() {
		done <- m.Run(ctx, []string{"debug", path, "--", "python3", "-m", "pdb", filepath.Join("testdata", "debug", "crash.py")})
	}()
	wait := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			select {
			case <-ctx.Done():
				t.Fatalf("no %s; stdout:\n%s\nstderr:\n%s", what, out.String(), errs.String())
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	wait("first prompt", func() bool { return strings.Contains(out.String(), "(Pdb) ") })
	io.WriteString(termW, "c\n")
	wait("post-mortem stop", func() bool {
		return strings.Contains(out.String(), "crash.py(12)<module>()\n-> share = 12 // (discs - 4)\n(Pdb) ")
	})
	if e := errs.String(); !strings.Contains(e, "turn 5: 4 discs\n") || !strings.Contains(e, "ZeroDivisionError") {
		t.Errorf("stderr under pdb:\n%s", e)
	}
	io.WriteString(termW, "p discs\n")
	wait("discs printed", func() bool { return strings.Contains(out.String(), "(Pdb) 4\n") })
	termW.Close() // the end of the terminal's input ends pdb
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d\n%s", code, errs.String())
		}
	case <-ctx.Done():
		t.Fatalf("judge debug did not end with its input; stdout:\n%s", out.String())
	}
}

// The judge's lines never split one of the bot's stderr: a line the bot
// has begun goes out once it ends, after the judge's; one it leaves
// unended (a prompt) goes out after a while, and at the end.
func TestDebugStderrKeepsLinesWhole(t *testing.T) {
	var out strings.Builder
	s := &stderrMux{w: &out}
	_, _ = s.Write([]byte("Traceback\n    "))
	s.say("judge: bot> Board\n")
	_, _ = s.Write([]byte("share = 12 // 0\n"))
	if got, want := out.String(), "Traceback\njudge: bot> Board\n    share = 12 // 0\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	_, _ = s.Write([]byte("your move? "))
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		shown := strings.HasSuffix(out.String(), "your move? ")
		s.mu.Unlock()
		if shown {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a prompt the bot left unended was never shown")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, _ = s.Write([]byte("last"))
	s.flush()
	if !strings.HasSuffix(out.String(), "your move? last") {
		t.Errorf("after flush: %q", out.String())
	}
}
