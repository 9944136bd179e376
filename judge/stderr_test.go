package judge_test

import (
	"bytes"
	"context"
	"testing"

	"judge/games"
	"judge/judge"
)

// noisy is a player that says it wrote n bytes on stderr in every turn.
type noisy struct {
	judge.Player
	n int
}

func (p *noisy) TurnStderr() ([]byte, int64) { return bytes.Repeat([]byte("e"), p.n), 0 }

type noisyEntrant struct {
	goPlayer
	n int
}

func (e noisyEntrant) Start(ctx context.Context, s judge.Seat) (judge.Player, error) {
	p, err := e.goPlayer.Start(ctx, s)
	return &noisy{p, e.n}, err
}

// TestTurnStderrCaps: a turn keeps at most TraceTurnBytes of a player's
// stderr, and a match TraceMatchBytes a seat; what is left out is counted.
func TestTurnStderrCaps(t *testing.T) {
	const n = 300 << 10
	// First-empty against first-empty on 15×15, 15 in a row to win: the
	// board fills as a checkerboard, X's on the diagonal, in many more
	// turns than the match's cap holds.
	res, err := runMatch(t, "gomoku", games.Params{"n": 15, "k": 15}, judge.TurnLimits{},
		noisyEntrant{goPlayer{name: "a", f: firstEmpty}, n}, goPlayer{name: "b", f: firstEmpty})
	if err != nil {
		t.Fatal(err)
	}
	var kept int64
	turns := 0
	for _, tr := range res.Replay.Turns {
		for _, m := range tr.Moves {
			if m.Seat != 0 {
				if m.Stderr != "" || m.StderrCut != 0 {
					t.Errorf("turn %d: seat 1 has no stderr, the replay says %d bytes (%d cut)", tr.Turn, len(m.Stderr), m.StderrCut)
				}
				continue
			}
			turns++
			want := min(judge.TraceTurnBytes, judge.TraceMatchBytes-kept)
			if int64(len(m.Stderr)) != want || m.StderrCut != n-want {
				t.Errorf("turn %d: %d bytes kept, %d cut; want %d and %d", tr.Turn, len(m.Stderr), m.StderrCut, want, n-want)
			}
			kept += int64(len(m.Stderr))
		}
	}
	if turns <= judge.TraceMatchBytes/judge.TraceTurnBytes || kept != judge.TraceMatchBytes {
		t.Errorf("%d turns of seat 0 kept %d bytes in all, want more than %d turns and %d bytes", turns, kept, judge.TraceMatchBytes/judge.TraceTurnBytes, judge.TraceMatchBytes)
	}
}
