package judge_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"judge/judge"
)

// events records, in order, what the match loop asked of the players.
type events struct {
	mu  sync.Mutex
	got []string
}

func (e *events) add(format string, a ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got = append(e.got, fmt.Sprintf(format, a...))
}

// settling is an entrant whose player settles (judge.Settler), and says
// when it starts, settles and begins a turn.
type settling struct {
	goPlayer
	ev *events
}

func (s settling) Start(ctx context.Context, seat judge.Seat) (judge.Player, error) {
	p, err := s.goPlayer.Start(ctx, seat)
	s.ev.add("start %s", s.name)
	return &settlingPlayer{Player: p, name: s.name, ev: s.ev}, err
}

type settlingPlayer struct {
	judge.Player
	name string
	ev   *events
}

func (p *settlingPlayer) Settle(context.Context) { p.ev.add("settle %s", p.name) }

func (p *settlingPlayer) BeginTurn(ctx context.Context, t judge.Turn) error {
	p.ev.add("turn %d %s", t.Number, p.name)
	return p.Player.BeginTurn(ctx, t)
}

// TestPlayersSettleBeforeTheFirstTurn: once every player has started,
// and before the first turn, each player that settles is asked to, once;
// the others (here a Go player) are not asked anything.
func TestPlayersSettleBeforeTheFirstTurn(t *testing.T) {
	ev := &events{}
	res, err := runMatch(t, "tictactoe", nil, judge.TurnLimits{},
		settling{goPlayer{name: "a", f: firstEmpty}, ev}, goPlayer{name: "b", f: firstEmpty})
	if err != nil {
		t.Fatal(err)
	}
	if res.Turns == 0 {
		t.Fatalf("no turn was played: %s", res.Reason)
	}
	got := ev.got
	if i := slices.Index(got, "turn 1 a"); i < 0 || !slices.Equal(got[:i+1], []string{"start a", "settle a", "turn 1 a"}) {
		t.Fatalf("events %q, want start, settle, then the first turn", got)
	}

	// Two that settle: both start before either settles.
	ev = &events{}
	if _, err := runMatch(t, "tictactoe", nil, judge.TurnLimits{},
		settling{goPlayer{name: "a", f: firstEmpty}, ev}, settling{goPlayer{name: "b", f: firstEmpty}, ev}); err != nil {
		t.Fatal(err)
	}
	got = ev.got
	if len(got) < 5 {
		t.Fatalf("events %q", got)
	}
	starts, settles := got[:2], got[2:4]
	slices.Sort(starts)
	if !slices.Equal(starts, []string{"start a", "start b"}) || !slices.Equal(settles, []string{"settle a", "settle b"}) || got[4] != "turn 1 a" {
		t.Fatalf("events %q, want both starts, then both settle in seat order, then the first turn", got)
	}
	for _, e := range got[5:] {
		if e == "settle a" || e == "settle b" {
			t.Fatalf("events %q: a player settled twice", got)
		}
	}
}
