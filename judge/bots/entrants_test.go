//go:build unix

package bots

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/judge/judgetest"
)

// TestBotArgsReportsSkipped: every entry of a bots directory is a bot or
// skipped with a reason that says why.
func TestBotArgsReportsSkipped(t *testing.T) {
	langs, err := LoadLanguages(filepath.Join(judgetest.Root(t), "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("alpha.c", 0o644)
	write("beta.py", 0o644)
	write("prog", 0o755)
	write("src/main.go", 0o644)
	write("bot.lua", 0o644)
	write("README", 0o644)
	write("x_test.go", 0o644)
	write(".hidden.c", 0o644)
	if err := os.Mkdir(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, "gone.c")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	bots, skipped, err := BotArgs(dir, langs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range bots {
		got = append(got, filepath.Base(b))
	}
	if want := []string{"alpha.c", "beta.py", "prog", "src"}; !slices.Equal(got, want) {
		t.Errorf("bots %v, want %v", got, want)
	}
	want := map[string]string{
		"bot.lua":   `no language for ".lua" files`,
		"README":    "no extension",
		"x_test.go": "test file",
		".hidden.c": "hidden",
		"notes":     "not a bot",
		"gone.c":    "no such file",
		"pipe":      "not a regular file",
	}
	for _, s := range skipped {
		name := filepath.Base(s.Path)
		w, ok := want[name]
		if !ok {
			t.Errorf("%s skipped (%s)", name, s.Why)
			continue
		}
		if !strings.Contains(s.Why, w) {
			t.Errorf("%s skipped because %q, want %q in it", name, s.Why, w)
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("%s is neither a bot nor skipped", name)
	}

	// A directory without a bot says what is in it.
	empty := t.TempDir()
	write2 := filepath.Join(empty, "bot.lua")
	if err := os.WriteFile(write2, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := BotArgs(empty, langs); err == nil || !strings.Contains(err.Error(), "bot.lua") {
		t.Errorf("a directory of no bots: %v, want an error naming bot.lua", err)
	}
}

// A web bot is named by its address in a tournament as in a match, never
// after its file: host and path, then the whole URL when two share them.
func TestWebBotNames(t *testing.T) {
	langs, err := LoadLanguages(filepath.Join(judgetest.Root(t), "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	exe := filepath.Join(t.TempDir(), "connectfour")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{
		"http://127.0.0.1:8080/connectfour.php",
		"http+json://127.0.0.1:8080/bots/StupidIABattleship.php",
		"https://127.0.0.1:8080/connectfour.php",
		"http://localhost:8081/",
		exe,
	}
	ents, err := Prepare(context.Background(), args, langs, t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"http://127.0.0.1:8080/connectfour.php",
		"127.0.0.1:8080/bots/StupidIABattleship.php",
		"https://127.0.0.1:8080/connectfour.php",
		"localhost:8081",
		"connectfour",
	}
	for i, e := range ents {
		if e.Name != want[i] || e.Spec.Name != want[i] {
			t.Errorf("%s is named %q (%q), want %q", args[i], e.Name, e.Spec.Name, want[i])
		}
	}
}

// A bot given as a FIFO is left out with what it is, at once: opening it
// would wait for a writer for ever.
func TestPrepareEntrantsRefusesFIFO(t *testing.T) {
	langs, err := LoadLanguages(filepath.Join(judgetest.Root(t), "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	dir := t.TempDir()
	for _, name := range []string{"bot", "bot.c"} {
		fifo := filepath.Join(dir, name)
		if err := syscall.Mkfifo(fifo, 0o755); err != nil {
			t.Fatal(err)
		}
		type result struct {
			ents []*Prepared
			err  error
		}
		done := make(chan result, 1)
		go func() {
			ents, err := Prepare(t.Context(), []string{fifo}, langs, t.TempDir(), 1)
			done <- result{ents, err}
		}()
		select {
		case r := <-done:
			switch {
			case r.err != nil:
				t.Errorf("%s: %v, want it left out, not the tournament stopped", name, r.err)
			case len(r.ents) != 1 || AsFault(r.ents[0].Err) == nil || !strings.Contains(r.ents[0].Err.Error(), "is a FIFO (named pipe)"):
				t.Errorf("%s: %+v, want it left out saying it is a FIFO", name, r.ents)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Prepare still waits after 10s", name)
		}
	}
}

// TestNames: one rule names a bot in every command (a directory, and
// the bot.c or main.py a directory holds, by the directory; any other
// file by its name without extension); bots that would share a name are
// told apart by the extension, then the parent directory, then both,
// then a number.
func TestNames(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"x/bot.c", "y/bot.c", "y/bot.py", "z/bot.c", "b/random.c", "b/random.py", "c/random.c", "w/bot.go", "w/main.go",
		"lrug/despo/player.rb", "magrails/thaar/player.rb", "lrug/alex_young/alex_young.rb", "solo.py"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := func(f string) string { return filepath.Join(dir, f) }
	for _, tc := range []struct {
		args, want []string
	}{
		{[]string{p("x/bot.c"), p("y/bot.c")}, []string{"x", "y"}},
		{[]string{p("x/bot.c")}, []string{"x"}},
		{[]string{p("x"), p("z/bot.c")}, []string{"x", "z"}},
		{[]string{"python3 " + p("solo.py"), p("x/bot.c")}, []string{"solo", "x"}},
		{[]string{p("x/bot.c"), p("y/bot.c"), p("y/bot.py")}, []string{"x", "bot.c", "bot.py"}},
		{[]string{p("b/random.c"), p("b/random.py")}, []string{"random.c", "random.py"}},
		{[]string{p("b/random.c"), p("c/random.c")}, []string{"b-random", "c-random"}},
		{[]string{p("w/bot.go"), p("w/main.go")}, []string{"bot.go", "main.go"}},
		{[]string{p("x/bot.c"), p("x/bot.c"), p("x/bot.c")}, []string{"x", "x-2", "x-3"}},
		{[]string{RubyContestPrefix + p("lrug/despo/player.rb"), RubyContestPrefix + p("magrails/thaar/player.rb"),
			RubyContestPrefix + p("lrug/alex_young/alex_young.rb")}, []string{"despo-player", "thaar-player", "alex_young"}},
	} {
		var got []string
		for _, r := range Resolve(tc.args, nil) {
			got = append(got, r.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q are named %q, want %q", tc.args, got, tc.want)
		}
	}
}
