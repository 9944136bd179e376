package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/judgetest"
	"judge/sandbox"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

// run drives the program in-process and returns its exit status and outputs.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := (&Main{Stdout: &out, Stderr: &errb, Host: judgetest.Host()}).Run(context.Background(), args)
	return code, out.String(), errb.String()
}

func quote(argv []string) string { return strings.Join(argv, " ") }

func TestMatchJSON(t *testing.T) {
	c := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	py := quote(judgetest.Bot(t, "examples/gomoku/random_bot.py"))
	replay := filepath.Join(t.TempDir(), "r.json")
	code, out, errs := run(t, "match", "--game", "tictactoe", "--seed", "3", "--json", "--replay", replay, c, py)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Game    string
		Winner  *int
		Turns   int
		Players []struct {
			Name, Status, Reason string
			Score                *float64
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	if res.Game != "tictactoe" || res.Winner == nil || res.Turns < 5 || len(res.Players) != 2 {
		t.Fatalf("result: %+v", res)
	}
	for _, p := range res.Players {
		if p.Status != "ok" || p.Score == nil || p.Name == "" {
			t.Errorf("player %+v", p)
		}
	}
	if _, err := os.Stat(replay); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, "replay", replay)
	if code != 0 || !strings.Contains(out, "turn 5") {
		t.Fatalf("replay: exit %d\n%s\n%s", code, out, errs)
	}
}

func TestMatchHuman(t *testing.T) {
	strong := quote(judgetest.Bot(t, "examples/gomoku/strong"))
	c := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	code, out, errs := run(t, "match", "--config", "../../configs/gomoku.toml", "--seed", "1", strong, c)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "seat 0 (examples_gomoku_strong) wins") {
		t.Errorf("output:\n%s", out)
	}
}

func TestMatchErrors(t *testing.T) {
	c := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	dir := t.TempDir()
	badKey := filepath.Join(dir, "bad.toml")
	os.WriteFile(badKey, []byte("game = \"gomoku\"\n\n[limits]\nturn = \"1s\"\nturns = \"2s\"\n"), 0o644)
	badDur := filepath.Join(dir, "dur.toml")
	os.WriteFile(badDur, []byte("game = \"gomoku\"\n[limits]\nturn = \"fast\"\n"), 0o644)
	badParam := filepath.Join(dir, "param.toml")
	os.WriteFile(badParam, []byte("game = \"gomoku\"\n[params]\nn = 3\nsize = 4\n"), 0o644)
	badGame := filepath.Join(dir, "badgame")
	os.Mkdir(badGame, 0o755)
	os.WriteFile(filepath.Join(badGame, "game.toml"), []byte("protocol = 1\nname = \"nim\"\nseats = [2, 2]\nturns = 3\n"), 0o644)
	tests := []struct {
		name  string
		args  []string
		code  int
		words []string
	}{
		{"no game", []string{"match", c, c}, 2, []string{"no game"}},
		// What the command line names is wrong, not the command line: 1.
		{"unknown game", []string{"match", "--game", "chess", c, c}, 1, []string{`unknown game "chess"`, "tictactoe"}},
		{"bad game.toml", []string{"match", "--game", badGame, c, c}, 1, []string{"game.toml", "turns"}},
		{"missing bot", []string{"match", "--game", "tictactoe", c, "./no-such-bot"}, 1, []string{"no-such-bot"}},
		{"one bot", []string{"match", "--game", "tictactoe", c}, 1, []string{"needs 2 players, got 1"}},
		{"bad flag", []string{"match", "--gmae", "tictactoe", c, c}, 2, []string{"gmae"}},
		{"bad param", []string{"match", "--game", "tictactoe", "--param", "n=0", c, c}, 1, []string{"n = 0 is out of range"}},
		{"bad param of a sprt", []string{"sprt", "--game", "tictactoe", "--param", "n=0", c, c}, 1, []string{"n = 0 is out of range"}},
		{"unknown config key", []string{"match", "--config", badKey, c, c}, 1, []string{badKey + ":5: unknown key limits.turns"}},
		{"bad duration", []string{"match", "--config", badDur, c, c}, 1, []string{badDur + ":3:", "fast"}},
		{"unknown param in config", []string{"match", "--config", badParam, c, c}, 1, []string{`unknown parameter "size"`}},
		{"missing config", []string{"match", "--config", filepath.Join(dir, "none.toml"), c, c}, 1, []string{"none.toml"}},
		{"unknown command", []string{"plya"}, 2, []string{`unknown command "plya"`}},
		{"replay of nothing", []string{"replay", filepath.Join(dir, "none.json")}, 1, []string{"none.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := run(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errs)
			}
			for _, w := range tt.words {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q does not say %q", errs, w)
				}
			}
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic") {
				t.Errorf("stderr has a stack trace: %s", errs)
			}
			if code == 1 && strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("error is not one line: %q", errs)
			}
			if code == 1 && strings.Contains(errs, "usage") {
				t.Errorf("exit 1 says usage: %q", errs)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, cmd := range []string{"match", "replay", "view", "serve", "games"} {
		code, out, _ := run(t, cmd, "--help")
		if code != 0 || !strings.Contains(out, "Usage: judge "+cmd) {
			t.Errorf("%s --help: exit %d\n%s", cmd, code, out)
		}
	}
	code, out, _ := run(t, "help")
	if code != 0 || !strings.Contains(out, "judge match") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}

func TestGames(t *testing.T) {
	code, out, _ := run(t, "games")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"tictactoe", "gomoku", "n        = 3", "k        = 5", "battleship-contest", "ship5    = 1     fixed"} {
		if !strings.Contains(out, want) {
			t.Errorf("games output lacks %q:\n%s", want, out)
		}
	}
}

// TestDoctor checks that judge doctor reports the level the sandbox
// really starts programs at, and a line for every protection.
func TestDoctor(t *testing.T) {
	code, out, errs := run(t, "doctor")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := judgetest.Host().Sandbox().Probe()
	if !strings.HasPrefix(out, "sandbox level: "+string(r.Level)+"\n") {
		t.Errorf("output does not start with the level %s:\n%s", r.Level, out)
	}
	for _, name := range []string{"user namespace", "cgroup memory", "cgroup pids", "cgroup freezer", "landlock", "seccomp", "no_new_privs", "pty", "reused sandboxes: "} {
		if !strings.Contains(out, name) {
			t.Errorf("no line for %s:\n%s", name, out)
		}
	}
	// What it says active is what a bot gets: a program started at the
	// default level reports the same level.
	p, err := judgetest.Host().Sandbox().Start(t.Context(), sandbox.Spec{Argv: []string{"/bin/true"}, Limits: sandbox.DefaultLimits})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if p.Level() != r.Level {
		t.Errorf("doctor says level %s, a program started at level %s", r.Level, p.Level())
	}
}
