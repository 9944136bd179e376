package judge_test

import (
	"context"
	"testing"
	"time"

	"judge/games/catalog"
	"judge/judge"
)

// asker is a player that asks CurrentTurn n times in its first turn and
// then places its symbol in the first cell; at its other turns it ends
// the turn without a move. It answers at once, from memory.
type asker struct {
	n, asked int
	turns    int
	answers  int
}

func (a *asker) Info() (judge.BotInfo, error) { return judge.BotInfo{Name: "asker"}, nil }
func (a *asker) Start(context.Context, judge.Seat) (judge.Player, error) {
	return a, nil
}
func (a *asker) BeginTurn(context.Context, judge.Turn) error { a.turns++; return nil }

var (
	askLine   = []byte("CurrentTurn")
	placeLine = []byte("PlaceSymbol 0 0")
	endLine   = []byte("#END")
)

func (a *asker) ReadLine(context.Context) ([]byte, error) {
	switch {
	case a.turns == 1 && a.asked < a.n:
		a.asked++
		return askLine, nil
	case a.turns == 1 && a.asked == a.n:
		a.asked++
		return placeLine, nil
	}
	a.asked = a.n + 1
	return endLine, nil
}
func (a *asker) WriteAnswer(context.Context, []byte) error    { a.answers++; return nil }
func (a *asker) EndTurn(context.Context) (judge.Usage, error) { return judge.Usage{}, nil }
func (a *asker) Stop(time.Duration) judge.Final               { return judge.Final{} }

// BenchmarkQueryPath is the match loop's own cost of a query (the line's
// checks and parsing, the game's answer), with a player in memory: one
// op is one query, of one turn of b.N queries.
func BenchmarkQueryPath(b *testing.B) {
	v, err := catalog.Lookup("tictactoe")
	if err != nil {
		b.Fatal(err)
	}
	params, _ := v.Resolve(nil)
	first := &asker{n: b.N}
	b.ReportAllocs()
	b.ResetTimer()
	res, err := judge.Run(context.Background(), judge.Match{Game: v.Game, Name: v.Name, Params: params,
		Limits:   judge.TurnLimits{Turn: time.Hour, FirstTurn: time.Hour, Output: 1 << 62},
		Entrants: []judge.Entrant{first, &asker{}}})
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if q := res.Replay.Turns[0].Moves[0].Queries; q != b.N || first.answers != b.N {
		b.Fatalf("%d queries answered, %d written; want %d", q, first.answers, b.N)
	}
}
