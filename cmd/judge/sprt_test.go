package main

import (
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

func TestSPRTUsage(t *testing.T) {
	for _, args := range [][]string{
		{"sprt", "--game", "tictactoe", "onlyone"},
		{"sprt", "--game", "tictactoe", "--elo0", "5", "--elo1", "5", "a", "b"},
		{"sprt", "--game", "tictactoe", "--alpha", "0", "a", "b"},
		{"sprt", "--game", "tictactoe", "--max-games", "1", "a", "b"},
	} {
		if code, _, errs := run(t, args...); code != 2 || errs == "" {
			t.Errorf("%q: exit %d, %q; want 2 and a message", args, code, errs)
		}
	}
}
