//go:build unix

package procbot_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// flushBot is a bot of testdata/lineflush, built.
type flushBot struct {
	name string
	spec procbot.Spec
	io   procbot.IO // what the default mode gives it
	// buffers says that its runtime keeps its lines on a bare pipe.
	buffers bool
}

// lineFlushBots builds the bots of testdata/lineflush whose toolchains are
// installed, saying which are not.
func lineFlushBots(t *testing.T) []flushBot {
	t.Helper()
	root := judgetest.Root(t)
	src := filepath.Join(root, "judge/procbot/testdata/lineflush")
	out := judgetest.TempDir(t)
	build := func(env []string, args ...string) error {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), env...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Logf("%s: %v\n%s", strings.Join(args, " "), err, b)
			return err
		}
		return nil
	}
	exe := func(name string) string { return filepath.Join(out, name) }
	// The scripts run from out too, which the sandbox's user may enter
	// wherever the checkout is.
	for _, f := range []string{"ttt.py", "ttt.rb", "ttt.sh"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err == nil {
			err = os.WriteFile(exe(f), b, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	type recipe struct {
		bot   flushBot
		tools []string
		build func() error
	}
	recipes := []recipe{
		{flushBot{name: "c", spec: procbot.Spec{Argv: []string{exe("c")}}, io: procbot.Pipe, buffers: true},
			[]string{"gcc"}, func() error { return build(nil, "gcc", "-O2", "-o", exe("c"), "ttt.c") }},
		{flushBot{name: "c++", spec: procbot.Spec{Argv: []string{exe("cpp")}}, io: procbot.Pipe, buffers: true},
			[]string{"g++"}, func() error { return build(nil, "g++", "-O2", "-o", exe("cpp"), "ttt.cpp") }},
		{flushBot{name: "c++ static", spec: procbot.Spec{Argv: []string{exe("cpp-static")}}, io: procbot.PTY, buffers: true},
			[]string{"g++"}, func() error { return build(nil, "g++", "-O2", "-static", "-o", exe("cpp-static"), "ttt.cpp") }},
		{flushBot{name: "python", spec: procbot.Spec{Argv: []string{"python3", exe("ttt.py")}}, io: procbot.Pipe, buffers: true},
			[]string{"python3"}, nil},
		{flushBot{name: "ruby", spec: procbot.Spec{Argv: []string{"ruby", exe("ttt.rb")}}, io: procbot.Pipe, buffers: true},
			[]string{"ruby"}, nil},
		{flushBot{name: "java", spec: procbot.Spec{Argv: []string{"java", "-cp", exe("java"), "Ttt"}}, io: procbot.Pipe},
			[]string{"javac", "java"}, func() error { return build(nil, "javac", "-d", exe("java"), "Ttt.java") }},
		{flushBot{name: "go", spec: procbot.Spec{Argv: []string{exe("go")}}, io: procbot.Pipe},
			[]string{"go"}, func() error {
				return build([]string{"CGO_ENABLED=0", "GOFLAGS=-mod=mod"}, "go", "build", "-o", exe("go"), "./gobot")
			}},
		{flushBot{name: "rust", spec: procbot.Spec{Argv: []string{exe("rust")}}, io: procbot.Pipe},
			[]string{"rustc"}, func() error { return build(nil, "rustc", "-O", "-o", exe("rust"), "ttt.rs") }},
		{flushBot{name: "shell", spec: procbot.Spec{Argv: []string{exe("ttt.sh")}}, io: procbot.Pipe},
			[]string{"sh"}, nil},
	}
	var bots []flushBot
	for _, r := range recipes {
		missing := false
		for _, tool := range r.tools {
			if _, err := exec.LookPath(tool); err != nil {
				t.Logf("%s is not installed: no %s bot", tool, r.bot.name)
				missing = true
			}
		}
		if missing {
			continue
		}
		if r.build != nil && r.build() != nil {
			t.Errorf("cannot build the %s bot", r.bot.name)
			continue
		}
		r.bot.spec.Name = r.bot.name
		bots = append(bots, r.bot)
	}
	return bots
}

// TestLineBufferedWithoutPTY plays a whole game of bots that never flush,
// in every language, with the default io: each gets a pipe, but for a
// static C++ program, which gets a pty. Those whose runtime buffers on a
// pipe cannot play on a bare one (io = pipe), which shows that the
// default's line buffering is what lets them play; the others (Java, Go,
// Rust, the shell) play there as well, needing nothing. The judge's own
// PYTHONUNBUFFERED does not reach the bots.
func TestLineBufferedWithoutPTY(t *testing.T) {
	t.Setenv("PYTHONUNBUFFERED", "the judge's")
	bots := lineFlushBots(t)
	if len(bots) < 2 {
		t.Skip("fewer than two languages installed")
	}
	for _, b := range bots {
		t.Run(b.name, func(t *testing.T) {
			p, err := judgetest.Host().Start(t.Context(), b.spec, procbot.Options{Host: judgetest.Host()}, 1)
			if err != nil {
				t.Fatal(err)
			}
			got := p.IO()
			p.Stop(0)
			if got != b.io {
				t.Errorf("the default io gives it a %s, want a %s", got, b.io)
			}
			res := judgetest.Play(t, "tictactoe", 1, nil, b.spec, b.spec)
			for i, pl := range res.Players {
				if pl.Status != judge.OK {
					t.Errorf("seat %d: %s %s", i, pl.Status, pl.Reason)
				}
				if e := res.Replay.Bots[i].Stderr; strings.Contains(e, "ld.so") || strings.Contains(e, "sync.rb") {
					t.Errorf("seat %d: stderr %q", i, e)
				}
			}
			if res.Turns < 5 {
				t.Errorf("only %d turns", res.Turns)
			}
			res = judgetest.Play(t, "tictactoe", 1, func(m *judgetest.Setup) {
				m.Proc.IO = procbot.Pipe
				m.Limits.FirstTurn = time.Second
			}, b.spec, b.spec)
			switch p := res.Players[0]; {
			case b.buffers && p.Status != judge.Timeout:
				t.Errorf("on a bare pipe: %s %s, want a timeout", p.Status, p.Reason)
			case !b.buffers && p.Status != judge.OK:
				t.Errorf("on a bare pipe: %s %s, want ok: its runtime flushes every line", p.Status, p.Reason)
			}
		})
	}
}

// TestLineBufferingEnvironment shows what the default io adds to a bot's
// environment on a pipe, after what the configuration gives: libstdbuf
// before the preloaded libraries it names, the Ruby file before its
// RUBYOPT; and that a bot on a pty gets none of it.
func TestLineBufferingEnvironment(t *testing.T) {
	t.Setenv("PYTHONUNBUFFERED", "the judge's")
	t.Setenv("RUBYOPT", "-rthe-judges")
	env := func(o procbot.Options) string {
		res := judgetest.Play(t, "tictactoe", 5, func(m *judgetest.Setup) { m.Proc = o },
			judgetest.Spec(t, "env", "judge/procbot/testdata/env.py"), judgetest.Spec(t, "random", randomC))
		if p := res.Players[0]; p.Status != judge.OK {
			t.Fatalf("%s %s", p.Status, p.Reason)
		}
		return res.Replay.Bots[0].Stderr
	}
	got := env(procbot.Options{Host: judgetest.Host(), Env: map[string]string{"LD_PRELOAD": "/nonexistent.so", "RUBYOPT": "-w"}})
	for _, want := range []string{"\nPYTHONUNBUFFERED=1\n", "\n_STDBUF_O=L\n", "libstdbuf.so:/nonexistent.so\n", "/sync.rb -w\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the environment lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "the judge") {
		t.Errorf("the judge's own variables reach the bot:\n%s", got)
	}
	got = env(procbot.Options{Host: judgetest.Host(), IO: procbot.PTY})
	for _, bad := range []string{"PYTHONUNBUFFERED", "_STDBUF", "LD_PRELOAD", "RUBYOPT"} {
		if strings.Contains(got, bad) {
			t.Errorf("on a pty the environment has %s:\n%s", bad, got)
		}
	}
}

// TestLineBufferingAtEveryLevel plays the C bot (libstdbuf, preloaded)
// and the Ruby bot (the file RUBYOPT requires) at every sandbox level: the
// sandbox shows both to the bot.
func TestLineBufferingAtEveryLevel(t *testing.T) {
	var use []flushBot
	for _, b := range lineFlushBots(t) {
		if b.name == "c" || b.name == "ruby" {
			use = append(use, b)
		}
	}
	if len(use) == 0 {
		t.Skip("neither gcc nor ruby is installed")
	}
	for _, level := range levels() {
		for _, b := range use {
			t.Run(string(level)+"/"+b.name, func(t *testing.T) {
				res := judgetest.Play(t, "tictactoe", 2, func(m *judgetest.Setup) { m.Proc.Level = level }, b.spec, b.spec)
				for i, pl := range res.Players {
					if pl.Status != judge.OK {
						t.Errorf("seat %d: %s %s; stderr %q", i, pl.Status, pl.Reason, res.Replay.Bots[i].Stderr)
					}
				}
				if res.Turns < 5 {
					t.Errorf("only %d turns", res.Turns)
				}
			})
		}
	}
}
