package main

import (
	"strings"
	"testing"
)

// judge match shows what a failing bot wrote on stderr, labelled by its
// seat and turn; --stderr all of every bot's, turn by turn; --trace
// without --replay the transcript; the game's reason names the bots.
func TestMatchShowsStderr(t *testing.T) {
	code, out, errs := run(t, "match", "--game", "connect4", "--seed", "1", testBot(t, "illegal.py"), testBot(t, "column.py", "6"))
	if want := "  seat 0's stderr, its last lines (it failed at turn 1):\n    thinking about column 9\n"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d: %s\n%s\nwant %q", code, errs, out, want)
	}
	if !strings.Contains(out, "wins after 1 turn: ") {
		t.Errorf("the turns are not counted in words:\n%s", out)
	}

	code, out, errs = run(t, "match", "--game", "connect4", "--seed", "1", "--stderr", testBot(t, "crash.py"), testBot(t, "column.py", "6"))
	for _, want := range []string{
		"turn 3, seat 0 (crash):\n  stderr: turn 3: 2 discs\n",
		"turn 5, seat 0 (crash):\n  stderr: turn 5: 4 discs\n  stderr: Traceback (most recent call last):\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--stderr: exit %d: %s\n%s\nwant %q", code, errs, out, want)
		}
	}
	if strings.Contains(out, "bot> ") {
		t.Errorf("--stderr prints the transcript:\n%s", out)
	}

	code, out, errs = run(t, "match", "--game", "connect4", "--seed", "1", "--trace", testBot(t, "crash.py"), testBot(t, "column.py", "6"))
	for _, want := range []string{
		"turn 1, seat 0 (crash):\n  bot> CurrentTurn\n     < 1\n  bot> Board\n     < - - - - - - -\n",
		"turn 2, seat 1 (column):\n  bot> Heights\n     < 0 0 0 0 1 0 0\n  bot> DropDisc 6\n  bot> #END\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--trace without --replay: exit %d: %s\n%s\nwant %q", code, errs, out, want)
		}
	}

	_, out, _ = run(t, "match", "--game", "connect4", "--seed", "1", testBot(t, "column.py", "0"), testBot(t, "column.py", "1"))
	if want := "wins after 7 turns: column (X) made 4 in a row\n"; !strings.Contains(out, want) {
		t.Errorf("the reason does not name the bots:\n%s\nwant %q", out, want)
	}
}
