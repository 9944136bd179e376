// Package gomoku is tic-tac-toe and gomoku: an n×n board on which two
// players take turns placing X and O; the first to make a line of k of its
// symbols horizontally, vertically or diagonally wins, and a full board with
// no such line is a draw. Tic-tac-toe is n = 3, k = 3.
//
// The protocol is the Wrocław tic-tac-toe protocol: queries CurrentTurn,
// LastMove, SymbolAt x y, Board, Params, MySymbol; command PlaceSymbol x y,
// of which the last valid one in a turn binds. See docs/protocol/gomoku.md.
package gomoku

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"judge/games"
	"judge/games/grid"
)

// Game is the gomoku family. The zero value is ready to use.
type Game struct{}

// Name implements games.Game.
func (Game) Name() string { return "gomoku" }

// Describe implements games.Game.
func (Game) Describe() string {
	return "n×n board, k in a row wins (tic-tac-toe is n=3 k=3); Wrocław protocol"
}

// Params implements games.Game.
func (Game) Params() []games.ParamSpec {
	return []games.ParamSpec{
		{Name: "n", Default: 15, Min: 1, Max: 100, Doc: "board size: cells 0..n-1 each way"},
		{Name: "k", Default: 5, Min: 1, Max: 100, Doc: "length of the line that wins (k <= n)"},
	}
}

// New implements games.Game. The seed is unused: the game has no chance.
func (g Game) New(p games.Params, _ uint64) (games.State, error) {
	p, err := games.Resolve(g.Params(), p)
	if err != nil {
		return nil, err
	}
	if p["k"] > p["n"] {
		return nil, fmt.Errorf("parameter k = %d is larger than n = %d", p["k"], p["n"])
	}
	return New(p["n"], p["k"]), nil
}

// Cell is the content of one square.
type Cell byte

// The contents of a square, as the protocol writes them.
const (
	Empty Cell = '-'
	X     Cell = 'X'
	O     Cell = 'O'
)

// Symbol is the symbol of seat 0 (X, who moves first) or seat 1 (O).
func Symbol(seat int) Cell {
	if seat == 0 {
		return X
	}
	return O
}

// State is a game in progress.
type State struct {
	n, k   int
	board  grid.Board
	turn   int // counted from 1
	placed int
	last   [2][2]int // last[seat] = where seat last placed, or -1 -1
	out    games.Outcome
}

// New starts an n×n game with k in a row to win.
func New(n, k int) *State {
	s := &State{n: n, k: k, board: grid.New(n, n), turn: 1}
	s.last = [2][2]int{{-1, -1}, {-1, -1}}
	s.out.Winner = -1
	return s
}

// Parse reads a board drawn as text, one row a line, cells separated by
// optional spaces, and returns the state in which it is the turn of the
// player with fewer symbols (X on a tie). Meant for tests.
func Parse(k int, board string) (*State, error) {
	b, err := grid.Parse(board, "-XO")
	if err != nil {
		return nil, err
	}
	if b.W != b.H {
		return nil, fmt.Errorf("the board is %d×%d, not square", b.W, b.H)
	}
	s := New(b.W, k)
	s.board = b
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			if b.At(x, y) != grid.Empty {
				s.placed++
			}
		}
	}
	s.turn = s.placed + 1
	s.settle(-1, -1)
	return s, nil
}

// Clone returns an independent copy.
func (s *State) Clone() *State {
	c := *s
	c.board = s.board.Clone()
	c.out.Scores = append([]float64(nil), s.out.Scores...)
	return &c
}

// Size returns n and k.
func (s *State) Size() (n, k int) { return s.n, s.k }

// At returns the cell at (x, y), which must be on the board.
func (s *State) At(x, y int) Cell { return Cell(s.board.At(x, y)) }

// Seats implements games.State.
func (s *State) Seats() int { return 2 }

// Turn implements games.State.
func (s *State) Turn() int { return s.turn }

// ToMove is the seat whose turn it is.
func (s *State) ToMove() int { return (s.turn - 1) % 2 }

// Movers implements games.State.
func (s *State) Movers() []int {
	if s.out.Over {
		return nil
	}
	return []int{s.ToMove()}
}

// Query implements games.State.
func (s *State) Query(seat int, l games.Line) (string, error) {
	switch l.Verb {
	case "CurrentTurn":
		return strconv.Itoa(s.turn), nil
	case "LastMove":
		m := s.last[1-seat]
		return strconv.Itoa(m[0]) + " " + strconv.Itoa(m[1]), nil
	case "SymbolAt", "CellAt":
		x, y, ok := s.coords(l.Args)
		if !ok {
			return "!", nil
		}
		return string(s.At(x, y)), nil
	case "Board":
		return s.board.String(), nil
	case "Params":
		return strconv.Itoa(s.n) + " " + strconv.Itoa(s.k), nil
	case "MySymbol":
		return string(Symbol(seat)), nil
	case "MySeat":
		return strconv.Itoa(seat), nil
	}
	return "", games.ErrNotQuery
}

// Queries implements games.Verbs.
func (s *State) Queries() []string {
	return []string{"CurrentTurn", "LastMove", "SymbolAt", "CellAt", "Board", "Params", "MySymbol", "MySeat"}
}

// Commands implements games.Verbs.
func (s *State) Commands() []string { return []string{"PlaceSymbol"} }

// Moves implements games.Mover: every empty cell, row by row from the
// top, for the seat to move.
func (s *State) Moves(seat int) []games.Move {
	if s.out.Over || seat != s.ToMove() {
		return nil
	}
	var out []games.Move
	for y := 0; y < s.n; y++ {
		for x := 0; x < s.n; x++ {
			if s.At(x, y) == Empty {
				out = append(out, games.Move{"PlaceSymbol " + strconv.Itoa(x) + " " + strconv.Itoa(y)})
			}
		}
	}
	return out
}

// MultiLine implements games.MultiLine: Board answers n lines.
func (s *State) MultiLine(query string) bool { return query == "Board" }

// coords parses a cell, "x y" or "x,y", and reports whether it is on the
// board.
func (s *State) coords(args []string) (x, y int, ok bool) {
	x, y, ok = games.ParseXY(args)
	if !ok || x < 0 || y < 0 || x >= s.n || y >= s.n {
		return 0, 0, false
	}
	return x, y, true
}

// Render implements games.State: the board as the Board query draws it.
func (s *State) Render() string { return s.board.String() + "\n" }

// Orders implements games.State.
func (s *State) Orders(seat int) games.Orders { return &orders{s: s, seat: seat} }

type orders struct {
	s       *State
	seat    int
	move    games.Move
	lastErr error
}

func (o *orders) Command(l games.Line) error {
	if l.Verb != "PlaceSymbol" {
		return fmt.Errorf("%q: %w", l.Verb, games.ErrUnknown)
	}
	x, y, err := o.s.check(l.Args)
	if err != nil {
		o.lastErr = fmt.Errorf("%s: %w", l, err)
		return err
	}
	o.move = games.Move{"PlaceSymbol " + strconv.Itoa(x) + " " + strconv.Itoa(y)}
	return nil
}

func (o *orders) Commit() (games.Move, error) {
	if o.move != nil {
		return o.move, nil
	}
	if o.lastErr != nil {
		return nil, fmt.Errorf("no valid PlaceSymbol before #END (last one was %v)", o.lastErr)
	}
	return nil, errors.New("no PlaceSymbol before #END")
}

// check reads the cell of PlaceSymbol's args ("x y" or "x,y") and tells
// why it cannot be played now, if it cannot.
func (s *State) check(args []string) (x, y int, err error) {
	if len(args) != 2 && (len(args) != 1 || !strings.Contains(args[0], ",")) {
		return 0, 0, fmt.Errorf("want 2 numbers x y (or x,y), got %s", games.Plural(len(args), "word", "words"))
	}
	x, y, ok := games.ParseXY(args)
	if !ok {
		return 0, 0, errors.New("coordinates must be whole numbers, x y or x,y")
	}
	if x < 0 || y < 0 || x >= s.n || y >= s.n {
		return 0, 0, fmt.Errorf("(%d,%d) is off the %d×%d board (cells 0..%d)", x, y, s.n, s.n, s.n-1)
	}
	if c := s.At(x, y); c != Empty {
		return 0, 0, fmt.Errorf("(%d,%d) is already taken by %c", x, y, c)
	}
	return x, y, nil
}

// Apply implements games.State.
func (s *State) Apply(moves map[int]games.Move) error {
	if s.out.Over {
		return errors.New("game is over")
	}
	seat := s.ToMove()
	m, ok := moves[seat]
	if !ok || len(m) != 1 {
		return fmt.Errorf("want one move of seat %d, got %q", seat, m)
	}
	l := games.ParseLine(m[0])
	if l.Verb != "PlaceSymbol" {
		return fmt.Errorf("move %q is not PlaceSymbol", m[0])
	}
	x, y, err := s.check(l.Args)
	if err != nil {
		return err
	}
	s.Place(x, y)
	return nil
}

// Place puts the symbol of the seat to move on (x, y), an empty cell, and
// ends the turn.
func (s *State) Place(x, y int) {
	seat := s.ToMove()
	s.board.Set(x, y, byte(Symbol(seat)))
	s.placed++
	s.last[seat] = [2]int{x, y}
	s.turn++
	s.settle(x, y)
}

// settle decides whether the game is over after a symbol at (x, y), or
// after any position when x < 0.
func (s *State) settle(x, y int) {
	if x >= 0 {
		if s.board.LineThrough(x, y, s.k) {
			s.finish(seatOf(s.At(x, y)), fmt.Sprintf("%c made %d in a row", s.At(x, y), s.k))
			return
		}
	} else if w := s.Winner(); w != Empty {
		s.finish(seatOf(w), fmt.Sprintf("%c made %d in a row", w, s.k))
		return
	}
	if s.placed == s.n*s.n {
		s.finish(-1, "the board is full")
	}
}

// seatOf is the seat that plays symbol c.
func seatOf(c Cell) int {
	if c == O {
		return 1
	}
	return 0
}

func (s *State) finish(winner int, reason string) {
	s.out = games.Outcome{Over: true, Winner: winner, Scores: games.TwoPlayerScores(winner), Reason: reason}
}

// Winner scans the whole board: the symbol with a line of k, or Empty.
// It is the slow, obvious reference for the check after each move.
func (s *State) Winner() Cell { return Cell(s.board.Winner(s.k)) }

// Forfeit implements games.State: the other seat wins.
func (s *State) Forfeit(seat int) {
	if s.out.Over {
		return
	}
	s.finish(1-seat, fmt.Sprintf("%c forfeited", Symbol(seat)))
}

// Outcome implements games.State.
func (s *State) Outcome() games.Outcome { return s.out }
