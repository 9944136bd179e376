//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/games/plugin/plugintest"
	"judge/judge/arena"
	"judge/judge/judgetest"
)

// TestOthelloPlugin: Othello, a game shipped only as a folder, plays a
// tournament and an SPRT between its example bots, and judge new-bot
// writes a starter for it that builds and plays a match to its end; a
// person plays it; an arena of it runs its ladder and its final. (One folder for all: the judge's catalog holds one
// game of a name.)
func TestOthelloPlugin(t *testing.T) {
	judgetest.NeedTools(t, "python3", "gcc")
	dir, _ := plugintest.Othello(t)
	greedy := quote(judgetest.Bot(t, "examples/othello/greedy.c"))
	random := quote(judgetest.Bot(t, "examples/othello/random_bot.py"))
	out := judgetest.TempDir(t)
	t.Run("play", func(t *testing.T) { othelloPlay(t, dir, greedy) })
	t.Run("arena", func(t *testing.T) { othelloArena(t, dir, out) })

	code, stdout, errs := run(t, "tournament", "--game", dir, "--rounds", "1", "--seed", "1",
		"--out", filepath.Join(out, "t"), greedy, random)
	if code != 0 || !strings.Contains(stdout, "2 of 2 matches played") {
		t.Fatalf("tournament: exit %d, %s\n%s", code, errs, stdout)
	}
	data, err := os.ReadFile(filepath.Join(out, "t", "standings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Game string `json:"game"`
	}
	if err := json.Unmarshal(data, &st); err != nil || st.Game != "othello" {
		t.Errorf("standings.json: game %q, %v", st.Game, err)
	}

	code, stdout, errs = run(t, "sprt", "--game", dir, "--max-games", "4", "--seed", "1",
		"--out", filepath.Join(out, "s"), random, greedy)
	if code != 0 || !strings.Contains(stdout, "4 games") {
		t.Errorf("sprt: exit %d, %s\n%s", code, errs, stdout)
	}

	bot := filepath.Join(out, "starter")
	if code, stdout, errs := run(t, "new-bot", "--game", dir, "--lang", "python", bot); code != 0 ||
		!strings.Contains(stdout, "judge help protocol "+dir) {
		t.Fatalf("new-bot: exit %d, %s\n%s", code, errs, stdout)
	}
	src, err := os.ReadFile(filepath.Join(bot, "bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	// The starter asks the one-line queries and plays the first move the
	// referee lists (black's first in the default game).
	for _, want := range []string{`"Color", "Legal", "Discs", "Size", "CurrentTurn", "LastMove"`, `"Place 3 2"`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("bot.py has no %s", want)
		}
	}
	code, stdout, errs = run(t, "match", "--game", dir, "--seed", "2", bot, random)
	if code != 0 || !strings.Contains(stdout, "othello (size=8), seed 2: ") ||
		!strings.Contains(stdout, "seat 0  starter") {
		t.Errorf("match of the starter: exit %d, %s\n%s", code, errs, stdout)
	}
}

// othelloPlay: a person plays Othello in the terminal as game.toml's
// [play] says: a cell typed is a Place there, p a Pass; a refused move is
// explained and asked again.
func othelloPlay(t *testing.T, dir, greedy string) {
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader("3 2\n2 2\np\n"), Stdout: &out, Stderr: &errb}
	m.Run(context.Background(), []string{"play", "--game", dir, "--seed", "1", greedy})
	for _, want := range []string{
		"Place x y, or Pass> ",
		"Refused: Place 2 2: (2,2) is taken. Try again.",
		"Refused: Pass: a Place is legal: Pass only when none is. Try again.",
		"seat 0: black: 3 discs",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s\n%s", want, out.String(), errb.String())
		}
	}
}

// othelloArena: an arena of Othello takes two entrants' bots, tests
// them against its reference bot, plays its ladder, and its final
// round robin writes standings of the game.
func othelloArena(t *testing.T, dir, out string) {
	root := judgetest.Root(t)
	adir := filepath.Join(out, "arena")
	if code, _, errs := run(t, "arena", "init", "--game", dir, "--ref", filepath.Join(root, "examples/othello/random_bot.py"),
		"--test-matches", "1", adir); code != 0 {
		t.Fatalf("arena init: %d\n%s", code, errs)
	}
	ctx := context.Background()
	tokens := map[string]string{}
	for _, n := range []string{"alice", "bob"} {
		code, stdout, errs := run(t, "arena", "add", adir, n)
		if code != 0 {
			t.Fatalf("arena add %s: %d\n%s", n, code, errs)
		}
		f := strings.Fields(stdout)
		tokens[n] = f[len(f)-1]
	}
	a, err := arena.Open(ctx, adir)
	if err != nil {
		t.Fatal(err)
	}
	for n, file := range map[string]string{"alice": "examples/othello/greedy.c", "bob": "examples/othello/random_bot.py"} {
		e, err := a.Authenticate(ctx, tokens[n])
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Submit(ctx, e, arena.Upload{FileName: filepath.Base(file), Data: src}); err != nil {
			t.Fatal(err)
		}
	}
	playLadder(ctx, t, a, 1, 2, 2)
	final := filepath.Join(out, "final")
	if code, _, errs := run(t, "arena", "final", adir, "--out", final, "--seed", "7", "--quiet"); code != 0 {
		t.Fatalf("arena final: %d\n%s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(final, "standings.json"))
	if err != nil || !bytes.Contains(b, []byte(`"game": "othello"`)) || !bytes.Contains(b, []byte("alice")) {
		t.Errorf("the final's standings: %v\n%s", err, b)
	}
}
