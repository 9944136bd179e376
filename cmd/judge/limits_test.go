//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/judge/judgetest"
)

// TestCountsAreBounded: a count past its maximum, or a 0 where the
// command line refuses one, is an error naming the flag or the file's key
// and line, on the command line as in a file.
func TestCountsAreBounded(t *testing.T) {
	dir := t.TempDir()
	file := func(text string) string {
		p := filepath.Join(dir, strings.NewReplacer(" ", "", "=", "-", "\n", "_", "[", "", "]", "").Replace(text)+".toml")
		if err := os.WriteFile(p, []byte("game = \"tictactoe\"\n"+text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tourney := func(args ...string) []string {
		return append(append([]string{"tournament", "--game", "tictactoe"}, args...), "a", "b")
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{tourney("--rounds", "99999999999"), 2, "--rounds 99999999999: want 1 to 100000"},
		{tourney("--rounds", "0"), 2, "--rounds 0: want 1 to 100000"},
		{tourney("--games", "99999999999"), 2, "--games 99999999999: want 1 to 1000000"},
		{tourney("--iterations", "0"), 2, "--iterations 0: want 1 to 1000000"},
		{tourney("-i", "2000000"), 2, "-i 2000000: want 1 to 1000000"},
		{tourney("--jobs", "5000"), 2, "--jobs 5000: want 0 to 1024"},
		{tourney("-c", "5000"), 2, "-c 5000: want 0 to 1024"},
		{tourney("--group-size", "0"), 2, "--group-size 0: want 1"},
		{tourney("--config", file("[tournament]\nrounds = 99999999999")), 1, ":3: tournament.rounds = 99999999999: want 1 to 100000"},
		{tourney("--config", file("[tournament]\nrounds = 0")), 1, ":3: tournament.rounds = 0: want 1 to 100000 (leave the key out for the default)"},
		{tourney("--config", file("[tournament]\ngames = 99999999999")), 1, ":3: tournament.games = 99999999999"},
		{tourney("--config", file("[tournament]\ngames = 0")), 1, ":3: tournament.games = 0"},
		{tourney("--config", file("[sandbox]\nprocs = 0")), 1, ":3: sandbox.procs = 0: want 1 to 65536"},
		{[]string{"match", "--config", file("[sandbox]\nprocs = 0"), "a", "b"}, 1, ":3: sandbox.procs = 0: want 1 to 65536"},
		{[]string{"match", "--config", file("[limits]\noutput_bytes = 0"), "a", "b"}, 1, ":3: limits.output_bytes = 0: want 1 to 1073741824"},
		{[]string{"match", "--config", file("[limits]\nstderr_bytes = 99999999999"), "a", "b"}, 1, ":3: limits.stderr_bytes = 99999999999"},
	} {
		code, _, errs := run(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}

// TestHugeTournamentEnds: the judge asked for 99999999999 rounds, or
// for rounds that would make millions of matches, ends at once with an
// error that says why, in little memory.
func TestHugeTournamentEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge")
	}
	judgetest.NeedTools(t, "python3")
	root := judgetest.Root(t)
	tmp := openTempDir(t)
	bin := buildJudge(t, tmp)
	cfg := filepath.Join(tmp, "t.toml")
	os.WriteFile(cfg, []byte("game = \"tictactoe\"\n[tournament]\nrounds = 99999999999\n"), 0o644)
	var bots []string
	for i := range 8 {
		b := filepath.Join(tmp, "bot"+string(rune('a'+i))+".py")
		src, _ := os.ReadFile(filepath.Join(root, "examples/gomoku/random_bot.py"))
		os.WriteFile(b, src, 0o644)
		bots = append(bots, "python3 "+b)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--rounds", "99999999999"}, 2, "--rounds 99999999999: want 1 to 100000"},
		{[]string{"--config", cfg}, 1, "tournament.rounds = 99999999999"},
		{[]string{"--rounds", "100000"}, 1, "100000 rounds of 8 bots make 5600000 matches, more than the 1000000 a tournament may have"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		args := append(append([]string{"tournament", "--game", "tictactoe", "--seed", "1", "--out", filepath.Join(tmp, "out")}, c.args...), bots...)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = root
		var errs bytes.Buffer
		cmd.Stderr = &errs
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("%q: still running after 2 minutes", c.args)
		}
		cancel()
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss / 1024
		t.Logf("%q: %v, peak RSS %d MiB", c.args, err, rss)
		if cmd.ProcessState.ExitCode() != c.code || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, cmd.ProcessState.ExitCode(), errs.String(), c.code, c.want)
		}
		if rss > 200 {
			t.Errorf("%q: the judge took %d MiB", c.args, rss)
		}
	}
}

// TestSignalEndsMatch: SIGINT or SIGTERM to judge match while a bot
// thinks ends it with a message that says the match was not finished,
// the shell's status for the signal, and no bot left running.
func TestSignalEndsMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge")
	}
	judgetest.NeedTools(t, "python3")
	root := judgetest.Root(t)
	tmp := openTempDir(t)
	bin := buildJudge(t, tmp)
	src, err := os.ReadFile(filepath.Join(root, "judge/procbot/testdata/never_end.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sig  syscall.Signal
		name string
		code int
	}{{syscall.SIGINT, "SIGINT", 130}, {syscall.SIGTERM, "SIGTERM", 143}} {
		bot := filepath.Join(tmp, "thinker_"+c.name+".py")
		os.WriteFile(bot, src, 0o644)
		cmd := exec.Command(bin, "match", "--game", "tictactoe", "--turn", "1m", "--first-turn", "1m", "python3 "+bot, "python3 "+bot)
		cmd.Dir = root
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The bot's own command line has its path as an argument of its
		// own; the judge's, inside its second argument.
		running := func() []string { return judgetest.Running("\x00" + bot) }
		for deadline := time.Now().Add(30 * time.Second); len(running()) == 0; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("%s: the bot never started: %s", c.name, errs.String())
			}
		}
		cmd.Process.Signal(c.sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("%s: the judge did not end within 30s", c.name)
		}
		want := "judge match: interrupted by " + c.name + ": the match was not finished, and its bots were stopped\n"
		if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.HasSuffix(errs.String(), want) || out.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d and %q", c.name, code, out.String(), errs.String(), c.code, want)
		}
		for deadline := time.Now().Add(10 * time.Second); len(running()) > 0; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("%s: bots still running: %v", c.name, running())
				break
			}
		}
	}
}

// TestSecondSignal: the first SIGTERM cancels the context with the signal
// as its cause; a second one ends the judge at once, with status 143, but
// not when it comes with the first (timeout(1) sends two at once).
func TestSecondSignal(t *testing.T) {
	for _, c := range []struct {
		name   string
		window time.Duration
		exit   bool
	}{{"two at once", time.Hour, false}, {"a second one later", 0, true}} {
		t.Run(c.name, func(t *testing.T) {
			var errs bytes.Buffer
			exited := make(chan int, 1)
			ctx, stop := onSignals(context.Background(), &errs, func(code int) { exited <- code }, c.window)
			defer stop()
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("SIGTERM did not cancel the context")
			}
			if sig, ok := interrupted(ctx); !ok || sig.Error() != "interrupted by SIGTERM" {
				t.Errorf("cause %v", context.Cause(ctx))
			}
			select {
			case code := <-exited:
				t.Fatalf("exit %d after one signal", code)
			default:
			}
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
			wait := 10 * time.Second
			if !c.exit {
				wait = time.Second // it has arrived by then, and been ignored
			}
			select {
			case code := <-exited:
				if !c.exit {
					t.Fatalf("exit %d after a second signal within the window", code)
				}
				if code != 143 || !strings.Contains(errs.String(), "SIGTERM again: ending at once") {
					t.Errorf("exit %d, %q", code, errs.String())
				}
			case <-time.After(wait):
				if c.exit {
					t.Fatal("a second SIGTERM did not end the judge")
				}
			}
		})
	}
}

// TestStandingsWriteFailures: when standings files cannot be written,
// the error names every one that failed, and only those written are
// named as written.
func TestStandingsWriteFailures(t *testing.T) {
	judgetest.NeedTools(t, "python3")
	root := judgetest.Root(t)
	out := filepath.Join(openTempDir(t), "out")
	// A directory (not empty) where a file should go: renaming a file
	// over it fails, on every file system.
	for _, name := range []string{"standings.json", "standings.md"} {
		if err := os.MkdirAll(filepath.Join(out, name, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	py := "python3 " + filepath.Join(root, "examples/gomoku/random_bot.py")
	c := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	code, _, errs := run(t, "tournament", "--game", "tictactoe", "--seed", "1", "--jobs", "2", "--out", out, py, c)
	if code != 1 {
		t.Errorf("exit %d, want 1: %s", code, errs)
	}
	for _, want := range []string{"standings.json: ", "standings.md: ", "standings: " + filepath.Join(out, "standings.csv") + ";"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "standings.{") || strings.Contains(errs, "standings: "+filepath.Join(out, "standings.json")) {
		t.Errorf("stderr names standings that were not written:\n%s", errs)
	}
}
