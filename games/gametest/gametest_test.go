package gametest_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"judge/games"
	"judge/games/gametest"
)

// nim is the smallest game worth checking: a pile of stones, each player
// takes 1 to 3 in turn, and whoever takes the last stone wins.
type nim struct{}

func (nim) Name() string     { return "nim" }
func (nim) Describe() string { return "take 1..3 stones; the last stone wins" }
func (nim) Params() []games.ParamSpec {
	return []games.ParamSpec{{Name: "stones", Default: 21, Min: 1, Max: 1000}}
}
func (g nim) New(p games.Params, _ uint64) (games.State, error) {
	p, err := games.Resolve(g.Params(), p)
	if err != nil {
		return nil, err
	}
	return &pile{left: p["stones"], turn: 1, winner: -1}, nil
}

type pile struct {
	left, turn, winner int
	forfeit            bool
}

func (s *pile) Seats() int { return 2 }
func (s *pile) Turn() int  { return s.turn }
func (s *pile) Movers() []int {
	if s.over() {
		return nil
	}
	return []int{(s.turn - 1) % 2}
}
func (s *pile) over() bool { return s.left == 0 || s.forfeit }
func (s *pile) Query(seat int, l games.Line) (string, error) {
	if l.Verb == "Pile" {
		return strconv.Itoa(s.left), nil
	}
	return "", games.ErrNotQuery
}
func (s *pile) Orders(seat int) games.Orders { return &take{s: s} }
func (s *pile) Apply(moves map[int]games.Move) error {
	seat := (s.turn - 1) % 2
	n, err := s.check(games.ParseLine(moves[seat][0]).Args)
	if err != nil {
		return err
	}
	s.left -= n
	s.turn++
	if s.left == 0 {
		s.winner = seat
	}
	return nil
}
func (s *pile) check(args []string) (int, error) {
	if len(args) != 1 {
		return 0, errors.New("want one number")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 || n > 3 || n > s.left {
		return 0, fmt.Errorf("cannot take %q of %d stones", args[0], s.left)
	}
	return n, nil
}
func (s *pile) Forfeit(seat int) {
	if !s.over() {
		s.forfeit, s.winner = true, 1-seat
	}
}
func (s *pile) Outcome() games.Outcome {
	if !s.over() {
		return games.Outcome{Winner: -1}
	}
	return games.Outcome{Over: true, Winner: s.winner, Scores: games.TwoPlayerScores(s.winner), Reason: "the last stone"}
}
func (s *pile) Render() string { return strconv.Itoa(s.left) + " stones\n" }

type take struct {
	s    *pile
	move games.Move
}

func (o *take) Command(l games.Line) error {
	if l.Verb != "Take" {
		return fmt.Errorf("%q: %w", l.Verb, games.ErrUnknown)
	}
	n, err := o.s.check(l.Args)
	if err != nil {
		return err
	}
	o.move = games.Move{"Take " + strconv.Itoa(n)}
	return nil
}

func (o *take) Commit() (games.Move, error) {
	if o.move == nil {
		return nil, errors.New("no Take before #END")
	}
	return o.move, nil
}

func TestCheck(t *testing.T) {
	player := func(st games.State, seat int, rng *rand.Rand) games.Move {
		n := min(st.(*pile).left, 1+rng.IntN(3))
		return games.Move{"Take " + strconv.Itoa(n)}
	}
	illegal := func(st games.State, seat int, rng *rand.Rand) []games.Move {
		return []games.Move{{}, {"Take 0"}, {"Take 4"}, {"Take " + strconv.Itoa(st.(*pile).left+1)}}
	}
	gametest.Check(t, nim{}, nil, player, gametest.Queries("Pile"), gametest.Illegal(illegal))
}
