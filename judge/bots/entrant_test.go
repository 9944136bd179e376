package bots

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestRubyContestEntrant(t *testing.T) {
	judgetest.NeedTools(t, "ruby")
	entrant := func(arg string, proc procbot.Options) (judge.Entrant, error) {
		es, err := Entrants(context.Background(), []string{arg}, proc, &Languages{Host: proc.Host}, "")
		if err != nil {
			return nil, err
		}
		return es[0], nil
	}
	e, err := entrant("ruby-contest:../procbot/testdata/rubycontest/corner_player.rb", procbot.Options{Host: judgetest.Host()})
	if err != nil {
		t.Fatal(err)
	}
	info, err := e.Info()
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "corner_player" || len(info.Command) != 4 || info.Command[0] != "ruby" || !strings.HasSuffix(info.Command[3], "corner_player.rb") {
		t.Errorf("info %+v", info)
	}
	if _, err := entrant("ruby-contest:../procbot/testdata/rubycontest/lib/corner/shots.rb", procbot.Options{Host: judgetest.Host()}); err == nil ||
		!strings.Contains(err.Error(), "shots.rb: no classes named ...Player with name, new_game and take_turn") {
		t.Errorf("a helper taken for a player: %v", err)
	}
	if _, err := entrant("ruby-contest:../tournament/testdata/contest/magrails/broken/broken_player.rb", procbot.Options{Host: judgetest.Host()}); err == nil ||
		!strings.Contains(err.Error(), "loading broken_player.rb: SyntaxError: broken_player.rb:9: syntax error") {
		t.Errorf("a player that does not parse: %v", err)
	}
}

// An executable runs where it is, as it always has in a match; a
// source file that is not executable, which a match refused, is built
// as a tournament builds it.
func TestEntrantBuildsSources(t *testing.T) {
	judgetest.NeedTools(t, "python3", "gcc")
	langs, err := LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	root := judgetest.Root(t)
	src, err := os.ReadFile(filepath.Join(root, "examples/gomoku/random_bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	dir := judgetest.TempDir(t)
	exe := filepath.Join(dir, "exe.py")
	if err := os.WriteFile(exe, append([]byte("#!/usr/bin/env python3\n"), src...), 0o755); err != nil {
		t.Fatal(err)
	}
	cache := judgetest.TempDir(t)
	for _, tc := range []struct {
		arg, name string
		built     bool
	}{
		{exe, "exe", false},
		{filepath.Join(root, "examples/gomoku/random_bot.py"), "random_bot", true},
		{filepath.Join(root, "examples/gomoku/random.c"), "random", true},
	} {
		es, err := Entrants(context.Background(), []string{tc.arg}, procbot.Options{Host: judgetest.Host()}, langs, cache)
		if err != nil {
			t.Fatal(err)
		}
		info, err := es[0].Info()
		if err != nil {
			t.Fatal(err)
		}
		inCache := false
		for _, a := range info.Command {
			inCache = inCache || strings.HasPrefix(a, cache)
		}
		if info.Name != tc.name || inCache != tc.built {
			t.Errorf("%s plays as %s, %q; want %s, built in the cache: %v", tc.arg, info.Name, info.Command, tc.name, tc.built)
		}
	}
}

// A bot built from a directory, or from the bot.c or main.go that a
// directory holds (what `judge new-bot` writes), is named after the
// directory: two starters in one match are alice and bob, not bot twice.
// A source file with a name of its own keeps it.
func TestSourceBotNamedAfterItsDirectory(t *testing.T) {
	judgetest.NeedTools(t, "python3", "gcc")
	langs, err := LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	root := judgetest.Root(t)
	dir := judgetest.TempDir(t)
	for file, example := range map[string]string{
		"alice/bot.py":      "examples/gomoku/random_bot.py",
		"bob/bot.c":         "examples/gomoku/random.c",
		"carol/main.py":     "examples/gomoku/random_bot.py",
		"dave/Bot.py":       "examples/gomoku/random_bot.py",
		"erin/strategy.py":  "examples/gomoku/random_bot.py",
		"frank/src/main.py": "examples/gomoku/random_bot.py",
	} {
		src, err := os.ReadFile(filepath.Join(root, example))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, file)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := judgetest.TempDir(t)
	name := func(arg string) string {
		t.Helper()
		es, err := Entrants(context.Background(), []string{arg}, procbot.Options{Host: judgetest.Host()}, langs, cache)
		if err != nil {
			t.Fatal(err)
		}
		info, err := es[0].Info()
		if err != nil {
			t.Fatal(err)
		}
		return info.Name
	}
	for arg, want := range map[string]string{
		"alice":             "alice",
		"alice/":            "alice",
		"alice/bot.py":      "alice",
		"bob":               "bob",
		"bob/bot.c":         "bob",
		"carol/main.py":     "carol",
		"dave/Bot.py":       "dave",
		"erin/strategy.py":  "strategy",
		"erin":              "erin",
		"frank/src/main.py": "src",
	} {
		if got := name(filepath.Join(dir, arg)); got != want {
			t.Errorf("%s plays as %q, want %q", arg, got, want)
		}
	}
	t.Chdir(filepath.Join(dir, "alice"))
	for _, arg := range []string{".", "bot.py", "./bot.py"} {
		if got := name(arg); got != "alice" {
			t.Errorf("%s in alice/ plays as %q, want alice", arg, got)
		}
	}
}
