package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/judge/config"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// TestResolve: a match's settings are the defaults, then the
// configuration file's, then the flags'; a bad flag is a usage error
// naming it, and the first error found is the one reported.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	conf := func(text string) string {
		p := filepath.Join(dir, strings.NewReplacer(" ", "", "\n", "_", "\"", "", "[", "", "]", "", "=", "-").Replace(text)+".toml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	limits := conf("game = \"gomoku\"\n[params]\nn = 9\n[limits]\nturn = \"2s\"\nbank = \"3s\"\ngrace = \"7ms\"\noverruns = 2\nstderr_bytes = 100\n[bots]\nio = \"pipe\"\n[sandbox]\nlevel = \"basic\"\n")
	for _, c := range []struct {
		name  string
		file  string
		flags []string
		err   string // "": no error
		// named: the error is in what the flags name (exit status 1),
		// not a usage error.
		named bool
		warn  string // in the warnings
		check func(*setup) string
	}{
		{name: "file", file: limits, check: func(s *setup) string {
			l := s.match.Limits
			if l.Turn != 2*time.Second || l.Bank != 3*time.Second || l.Grace != 7*time.Millisecond || l.Overruns != 2 || l.Stderr != 100 || s.proc.Stderr != 100 {
				return "limits not the file's"
			}
			if s.match.Params["n"] != 9 || s.explicit["n"] != 9 || s.proc.IO != procbot.Pipe || s.proc.Level != procbot.Basic {
				return "params, io or sandbox not the file's"
			}
			return ""
		}},
		{name: "flags over file", file: limits, flags: []string{"--turn", "500ms", "--overruns", "0", "--param", "n=11", "--io", "pty", "--no-sandbox"}, warn: "NO SANDBOX", check: func(s *setup) string {
			l := s.match.Limits
			if l.Turn != 500*time.Millisecond || l.Bank != 3*time.Second || l.Overruns != 0 {
				return "limits not the flags' over the file's"
			}
			if s.match.Params["n"] != 11 || s.proc.IO != procbot.PTY || s.proc.Level != procbot.None {
				return "params, io or sandbox not the flags'"
			}
			return ""
		}},
		{name: "variant presets", file: limits, flags: []string{"--game", "tictactoe"}, check: func(s *setup) string {
			if s.match.Name != "tictactoe" || s.match.Params["n"] != 9 {
				return "not tictactoe with the file's n"
			}
			return ""
		}},
		{name: "defaults", flags: []string{"--game", "gomoku"}, check: func(s *setup) string {
			if s.match.Limits.Turn != time.Second || s.match.Limits.FirstTurn != 5*time.Second || s.proc.IO != procbot.AutoIO {
				return "not the defaults"
			}
			return ""
		}},
		// The Ruby contest's runner had no time limit: its preset's is a
		// minute, which the file and the flags still override.
		{name: "contest limits", flags: []string{"--game", "battleship-contest"}, check: func(s *setup) string {
			if s.match.Limits.Turn != time.Minute || s.match.Limits.FirstTurn != time.Minute {
				return "not the contest's minute"
			}
			return ""
		}},
		{name: "contest limits over", file: conf("game = \"battleship-contest\"\n[limits]\nturn = \"3s\"\n"), flags: []string{"--first-turn", "4s"}, check: func(s *setup) string {
			if s.match.Limits.Turn != 3*time.Second || s.match.Limits.FirstTurn != 4*time.Second {
				return "not the file's turn and the flag's first turn"
			}
			return ""
		}},
		{name: "no game", flags: []string{"--turn", "1s"}, err: "no game: give --game NAME or --config FILE"},
		{name: "other game", file: limits, flags: []string{"--game", "connect4"}, err: `--game connect4 does not match game "gomoku"`},
		{name: "time limit", flags: []string{"--game", "gomoku", "--bank", "0s"}, err: "--bank 0s: a time limit must be positive"},
		{name: "overruns", flags: []string{"--game", "gomoku", "--overruns", "-1"}, err: "--overruns -1: want 0 or more"},
		{name: "game first", flags: []string{"--game", "nosuchgame", "--turn", "-1s", "--io", "tty"}, err: "nosuchgame", named: true},
		{name: "io before limits", flags: []string{"--game", "gomoku", "--turn", "-1s", "--io", "tty"}, err: "--io"},
		{name: "sandbox", flags: []string{"--game", "gomoku", "--sandbox", "full", "--no-sandbox"}, err: "--no-sandbox contradicts --sandbox full"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			f := addMatchFileFlags(fs)
			args := c.flags
			if c.file != "" {
				args = append([]string{"--config", c.file}, args...)
			}
			if err := fs.Parse(args); err != nil {
				t.Fatal(err)
			}
			var warnings strings.Builder
			s, err := f.load(judgetest.Host(), &warnings)
			switch {
			case c.err != "" && (err == nil || errors.Is(err, errUsage) == c.named || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("error %v, want an error with %q (a usage error: %v)", err, c.err, !c.named)
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err == "":
				if msg := c.check(s); msg != "" {
					t.Errorf("%s: %+v, %+v", msg, s.match, s.proc)
				}
				if !strings.Contains(warnings.String(), c.warn) {
					t.Errorf("warnings %q, want %q", warnings.String(), c.warn)
				}
			}
		})
	}
	// A bad value in the file (config.Load refuses it already) names the
	// file and the line.
	bad := conf("game = \"gomoku\"\n[sandbox]\nlevel = \"sturdy\"\n")
	file := &config.File{Game: "gomoku", Sandbox: config.Sandbox{Level: "sturdy"}}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	if _, err := addMatchFlags(fs).resolve(judgetest.Host(), file, bad, io.Discard); err == nil || !strings.Contains(err.Error(), bad+":3: sandbox.level") {
		t.Errorf("bad sandbox level: %v", err)
	}
}
