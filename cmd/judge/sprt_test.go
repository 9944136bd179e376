package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/judgetest"
)

func TestSPRTCommand(t *testing.T) {
	random := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	strong := quote(judgetest.Bot(t, "examples/gomoku/strong"))
	out := filepath.Join(t.TempDir(), "sprt")
	code, stdout, errs := run(t, "sprt", "--game", "tictactoe", "--elo1", "200", "--jobs", "2", "--out", out, random, strong)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "H1 accepted: examples_gomoku_strong is stronger than examples_gomoku_random_c") ||
		!strings.Contains(stdout, "LLR ") || !strings.Contains(stdout, "W/D/L ") {
		t.Errorf("output:\n%s", stdout)
	}
}

// TestSPRTDefaultWideGap: with its defaults (0 against 5 Elo), judge
// sprt tells the strong tic-tac-toe bot from the random one in a few
// dozen games, by its early test, not in the 400 the main test needs.
func TestSPRTDefaultWideGap(t *testing.T) {
	random := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	strong := quote(judgetest.Bot(t, "examples/gomoku/strong"))
	out := filepath.Join(t.TempDir(), "sprt")
	code, stdout, errs := run(t, "sprt", "--game", "tictactoe", "--jobs", "2", "--out", out, random, strong)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var games int
	if _, err := fmt.Sscanf(stdout[strings.Index(stdout, ": ")+2:], "%d games", &games); err != nil || games >= 60 {
		t.Errorf("%d games (%v), want fewer than 60:\n%s", games, err, stdout)
	}
	if !strings.Contains(stdout, "H1 accepted: examples_gomoku_strong is stronger than examples_gomoku_random_c (by far: the early test of 200 Elo decided") {
		t.Errorf("output:\n%s", stdout)
	}
}

func TestSPRTUsage(t *testing.T) {
	for _, args := range [][]string{
		{"sprt", "--game", "tictactoe", "onlyone"},
		{"sprt", "--game", "tictactoe", "--elo0", "5", "--elo1", "5", "a", "b"},
		{"sprt", "--game", "tictactoe", "--alpha", "0", "a", "b"},
		{"sprt", "--game", "tictactoe", "--max-games", "1", "a", "b"},
		{"sprt", "--game", "tictactoe", "--early", "-5", "a", "b"},
	} {
		if code, _, errs := run(t, args...); code != 2 || errs == "" {
			t.Errorf("%q: exit %d, %q; want 2 and a message", args, code, errs)
		}
	}
}
