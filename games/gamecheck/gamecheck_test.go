package gamecheck_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"judge/games"
	"judge/games/connect4"
	"judge/games/gamecheck"
	"judge/games/gomoku"
)

// count is a small game for broken variants: two seats take turns adding
// 1 or 2 to a total that starts at 0; whoever reaches 10 wins. Each flaw
// breaks one promise of package games.
type count struct {
	flaw string
}

// Flaws.
const (
	sound      = ""
	ownRandom  = "own randomness" // New draws from the global math/rand
	endless    = "never ends"     // reaching 10 does not end it
	crashAt5   = "crash at turn 5"
	drifting   = "drifting answer" // Total counts how often it was asked
	multiLine  = "multi-line"      // Total answers two lines
	forgetful  = "refuses on replay"
	notListing = "no moves listed"
	faulty     = "referee fault" // lists no move at turn 3 and says why in Err, as a plugin game's state does
)

// used is state kept between games by the forgetful flaw: "Add 2" is
// taken once per total, in the whole program.
var used = map[int]bool{}

func (g count) Name() string              { return "count" }
func (g count) Describe() string          { return "add 1 or 2; reach 10 to win" }
func (g count) Params() []games.ParamSpec { return nil }
func (g count) New(games.Params, uint64) (games.State, error) {
	s := &countState{flaw: g.flaw, turn: 1}
	if g.flaw == ownRandom {
		s.total = rand.IntN(3) // not from the seed
	}
	return s, nil
}

type countState struct {
	flaw        string
	total, turn int
	asked       int
	over        bool
	winner      int
}

func (s *countState) Seats() int { return 2 }
func (s *countState) Turn() int  { return s.turn }
func (s *countState) Movers() []int {
	if s.over {
		return nil
	}
	return []int{(s.turn - 1) % 2}
}

func (s *countState) Query(seat int, l games.Line) (string, error) {
	switch l.Verb {
	case "Total":
		s.asked++
		switch s.flaw {
		case drifting:
			return fmt.Sprintf("%d %d", s.total, s.asked), nil
		case multiLine:
			return fmt.Sprintf("%d\n%d", s.total, 10-s.total), nil
		}
		return strconv.Itoa(s.total), nil
	case "Board":
		return strings.Repeat("#", s.total) + "\n" + strings.Repeat(".", max(0, 10-s.total)), nil
	}
	return "", games.ErrNotQuery
}

func (s *countState) Queries() []string            { return []string{"Total", "Board"} }
func (s *countState) Commands() []string           { return []string{"Add"} }
func (s *countState) MultiLine(query string) bool  { return query == "Board" }
func (s *countState) Orders(seat int) games.Orders { return &countOrders{s: s} }
func (s *countState) Render() string               { return fmt.Sprintf("total %d, turn %d\n", s.total, s.turn) }
func (s *countState) Outcome() games.Outcome {
	if !s.over {
		return games.Outcome{}
	}
	return games.Outcome{Over: true, Winner: s.winner, Scores: games.TwoPlayerScores(s.winner), Reason: "reached 10"}
}
func (s *countState) Forfeit(seat int) { s.over, s.winner = true, 1-seat }

// closed counts the states closed: a state that holds a program (a plugin
// game's referee) is an io.Closer.
var closed int

func (s *countState) Close() error { closed++; return nil }

// Err implements games.Faulty: the faulty flaw's referee fails at turn 3.
func (s *countState) Err() error {
	if s.flaw == faulty && s.turn >= 3 {
		return fmt.Errorf("%w: the referee failed at moves: it exited", games.ErrReferee)
	}
	return nil
}

func (s *countState) Moves(seat int) []games.Move {
	if s.over || seat != s.Movers()[0] || s.flaw == notListing || s.Err() != nil {
		return nil
	}
	return []games.Move{{"Add 1"}, {"Add 2"}}
}

func (s *countState) Apply(moves map[int]games.Move) error {
	if s.flaw == crashAt5 && s.turn == 5 {
		panic("index out of range")
	}
	seat := s.Movers()[0]
	n, _ := strconv.Atoi(strings.TrimPrefix(moves[seat][0], "Add "))
	s.total += n
	s.turn++
	if s.total >= 10 && s.flaw != endless {
		s.over, s.winner = true, seat
	}
	return nil
}

type countOrders struct {
	s    *countState
	move games.Move
}

func (o *countOrders) Command(l games.Line) error {
	if l.Verb != "Add" {
		return games.ErrUnknown
	}
	if len(l.Args) != 1 || (l.Args[0] != "1" && l.Args[0] != "2") {
		return errors.New("add 1 or 2")
	}
	if o.s.flaw == forgetful && l.Args[0] == "2" {
		if used[o.s.total] {
			return errors.New("already added 2 to this total")
		}
		used[o.s.total] = true
	}
	o.move = games.Move{l.String()}
	return nil
}

func (o *countOrders) Commit() (games.Move, error) {
	if o.move == nil {
		return nil, errors.New("no Add")
	}
	return o.move, nil
}

// TestFindsFlaws: each broken game shows its flaw, and only where it is
// (the crash at turn 5 is reported at turn 5); the sound game passes.
func TestFindsFlaws(t *testing.T) {
	for _, tc := range []struct {
		flaw string
		want gamecheck.Kind
		turn int            // the turn it must be seen at, or 0 for any
		also gamecheck.Kind // another kind the flaw may show as
	}{
		{ownRandom, gamecheck.NonDeterminism, 0, ""},
		{endless, gamecheck.NeverEnds, 501, ""},
		{crashAt5, gamecheck.Crash, 5, ""},
		{drifting, gamecheck.Unstable, 1, ""},
		{multiLine, gamecheck.NotOneLine, 1, ""},
		// The state kept between games makes later games refuse a move
		// listed as legal, too.
		{forgetful, gamecheck.ReplayRefused, 0, gamecheck.MoveRefused},
		{notListing, gamecheck.NoMoves, 1, ""},
		{faulty, gamecheck.RefereeError, 3, ""},
	} {
		t.Run(tc.flaw, func(t *testing.T) {
			r, err := gamecheck.Check(context.Background(), count{flaw: tc.flaw}, gamecheck.Options{Seeds: 20, MaxTurns: 500})
			if err != nil {
				t.Fatal(err)
			}
			t.Log(r.Summary())
			found := false
			for _, p := range r.Problems {
				if p.Kind != tc.want && p.Kind != tc.also {
					t.Errorf("found %v, not only %s", p, tc.want)
				}
				if p.Kind == tc.want && (tc.turn == 0 || p.Turn == tc.turn) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s not found at turn %d; found %v", tc.want, tc.turn, r.Problems)
			}
			if !strings.Contains(r.Summary(), string(tc.want)) {
				t.Errorf("summary does not name %s:\n%s", tc.want, r.Summary())
			}
		})
	}
}

func TestSoundGamePasses(t *testing.T) {
	closed = 0
	r, err := gamecheck.Check(context.Background(), count{}, gamecheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if closed != 200 {
		t.Errorf("%d states closed, want 200: each game's two", closed)
	}
	if !r.OK() || r.Seeds != 100 || r.Ended != 100 {
		t.Errorf("got %+v\n%s", r, r.Summary())
	}
	if want := "count: 100 games, "; !strings.HasPrefix(r.Summary(), want) || !strings.HasSuffix(r.Summary(), "no problem found\n") {
		t.Errorf("summary %q", r.Summary())
	}
}

// TestBuiltins: the built-in games that list their moves pass.
func TestBuiltins(t *testing.T) {
	for _, tc := range []struct {
		g games.Game
		p games.Params
	}{
		{gomoku.Game{}, games.Params{"n": 3, "k": 3}},
		{gomoku.Game{}, nil},
		{connect4.Game{}, nil},
		{connect4.Game{}, games.Params{"width": 9, "height": 7, "k": 5}},
	} {
		r, err := gamecheck.Check(context.Background(), tc.g, gamecheck.Options{Params: tc.p})
		if err != nil {
			t.Fatal(err)
		}
		t.Log(strings.TrimSpace(r.Summary()))
		if !r.OK() || r.Ended != r.Seeds {
			t.Errorf("%s %v: %s", tc.g.Name(), tc.p, r.Summary())
		}
	}
}

// noMover is a game whose states do not list moves.
type noMover struct{ games.Game }

func (g noMover) New(p games.Params, seed uint64) (games.State, error) {
	st, err := g.Game.New(p, seed)
	return struct{ games.State }{st}, err
}

func TestNeedsMover(t *testing.T) {
	_, err := gamecheck.Check(context.Background(), noMover{connect4.Game{}}, gamecheck.Options{})
	if !errors.Is(err, gamecheck.ErrNoMoves) {
		t.Errorf("got %v, want ErrNoMoves", err)
	}
	_, err = gamecheck.Check(context.Background(), connect4.Game{}, gamecheck.Options{Params: games.Params{"depth": 3}})
	if err == nil || !strings.Contains(err.Error(), "unknown parameter") {
		t.Errorf("got %v, want an unknown parameter", err)
	}
}
