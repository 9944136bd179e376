package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge"
	"judge/judge/judgetest"
)

// TestTournamentTrace: judge tournament --trace keeps, in every replay,
// the bots' transcripts and what they wrote on stderr in each turn, which
// judge replay --trace prints under its turn.
func TestTournamentTrace(t *testing.T) {
	judgetest.NeedTools(t, "python3")
	root := judgetest.Root(t)
	out := filepath.Join(openTempDir(t), "out")
	py := "python3 " + filepath.Join(root, "judge/procbot/testdata/stderr_turns.py")
	c := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	if code, _, errs := run(t, "tournament", "--game", "tictactoe", "--seed", "1", "--jobs", "1", "--quiet", "--trace", "--out", out, py, c); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	files, err := filepath.Glob(filepath.Join(out, "replays", "*.json"))
	if err != nil || len(files) != 2 {
		t.Fatalf("replays %v (%v), want 2", files, err)
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rp, err := judge.ReadReplay(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		seat := 0
		if !strings.Contains(rp.Bots[0].Command[len(rp.Bots[0].Command)-1], "stderr_turns") {
			seat = 1
		}
		var first *judge.TurnMove
		for i := range rp.Turns {
			for j, m := range rp.Turns[i].Moves {
				if m.Seat == seat && first == nil {
					first = &rp.Turns[i].Moves[j]
				}
			}
		}
		if len(rp.Bots[seat].Trace) == 0 || first == nil || !strings.HasPrefix(first.Stderr, "starting\n") {
			t.Fatalf("%s: %d trace lines, first move %+v", path, len(rp.Bots[seat].Trace), first)
		}
		code, text, errs := run(t, "replay", "--trace", path)
		if code != 0 || !strings.Contains(text, "      stderr: starting\n") {
			t.Errorf("judge replay --trace %s: exit %d, %s\n%s", path, code, errs, text)
		}
	}
}
