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
		return Entrant(context.Background(), arg, proc, nil, "")
	}
	e, err := entrant("ruby-contest:../procbot/testdata/rubycontest/corner_player.rb", procbot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := e.Info()
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "Corner Team" || len(info.Command) != 3 || info.Command[0] != "ruby" || !strings.HasSuffix(info.Command[2], "corner_player.rb") {
		t.Errorf("info %+v", info)
	}
	if _, err := entrant("ruby-contest:../procbot/testdata/rubycontest/lib/corner/shots.rb", procbot.Options{}); err == nil ||
		!strings.Contains(err.Error(), "shots.rb: no classes named ...Player with name, new_game and take_turn") {
		t.Errorf("a helper taken for a player: %v", err)
	}
	if _, err := entrant("ruby-contest:../tournament/testdata/contest/magrails/broken/broken_player.rb", procbot.Options{}); err == nil ||
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
		{exe, "exe.py", false},
		{filepath.Join(root, "examples/gomoku/random_bot.py"), "random_bot", true},
		{filepath.Join(root, "examples/gomoku/random.c"), "random", true},
	} {
		e, err := Entrant(context.Background(), tc.arg, procbot.Options{}, langs, cache)
		if err != nil {
			t.Fatal(err)
		}
		info, err := e.Info()
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
