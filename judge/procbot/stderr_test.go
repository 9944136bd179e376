//go:build unix

package procbot_test

import (
	"fmt"
	"strings"
	"testing"

	"judge/judge"
	"judge/judge/judgetest"
)

const stderrBot = "judge/procbot/testdata/stderr_turns.py"

// TestTurnStderr: with a trace, every turn of a bot that writes to its
// stderr during its turns holds what it wrote then; the turn it wrote
// more than the judge keeps of a turn holds the first TraceTurnBytes and
// how many bytes were cut.
func TestTurnStderr(t *testing.T) {
	res := play(t, "tictactoe", 1, nil, stderrBot, randomPy)
	turns := 0
	for _, tr := range res.Replay.Turns {
		for _, m := range tr.Moves {
			if m.Seat != 0 {
				if m.Stderr != "" || m.StderrCut != 0 {
					t.Errorf("turn %d: seat %d wrote nothing on stderr, the replay says %q (%d cut)", tr.Turn, m.Seat, m.Stderr, m.StderrCut)
				}
				continue
			}
			if m.Status != judge.OK {
				t.Fatalf("turn %d: %s %s", tr.Turn, m.Status, m.Reason)
			}
			turns++
			want := fmt.Sprintf("turn %d\n", tr.Turn)
			switch turns {
			case 1:
				want = "starting\n" + want
			case 2:
				written := int64(len(want)) + 300000
				if len(m.Stderr) != judge.TraceTurnBytes || !strings.HasPrefix(m.Stderr, want+"yyy") || m.StderrCut != written-judge.TraceTurnBytes {
					t.Errorf("turn %d: %d bytes kept starting %q, %d cut; want %d kept starting %q, %d cut",
						tr.Turn, len(m.Stderr), m.Stderr[:min(20, len(m.Stderr))], m.StderrCut, judge.TraceTurnBytes, want, written-judge.TraceTurnBytes)
				}
				continue
			}
			if m.Stderr != want || m.StderrCut != 0 {
				t.Errorf("turn %d: stderr %q (%d cut), want %q", tr.Turn, m.Stderr, m.StderrCut, want)
			}
		}
	}
	if turns < 3 {
		t.Errorf("the bot moved in %d turns", turns)
	}
}

// TestTurnStderrUntraced: without a trace, the turns hold no stderr (the
// bot's tail is kept as always).
func TestTurnStderrUntraced(t *testing.T) {
	res := play(t, "tictactoe", 1, func(m *judgetest.Setup) { m.Trace = false }, stderrBot, randomPy)
	for _, tr := range res.Replay.Turns {
		for _, m := range tr.Moves {
			if m.Stderr != "" || m.StderrCut != 0 {
				t.Errorf("turn %d, seat %d: stderr %q without a trace", tr.Turn, m.Seat, m.Stderr)
			}
		}
	}
	if b := res.Replay.Bots[0]; b.StderrBytes < 300000 || !strings.Contains(b.Stderr, "yyy") {
		t.Errorf("the bot's stderr: %d bytes in all, a tail of %d bytes", b.StderrBytes, len(b.Stderr))
	}
}
