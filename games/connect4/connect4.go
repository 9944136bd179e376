// Package connect4 is Connect Four: two players take turns dropping discs
// into the columns of an upright board; a disc falls to the lowest free
// cell of its column. The first to make a line of k discs horizontally,
// vertically or diagonally wins; a full board with no such line is a draw.
// The board is width columns by height rows (7×6 and k = 4 by default).
//
// Coordinates are botsarena's: x is the column, 0 at the left; y is the
// row, 0 at the BOTTOM, where discs fall. Board draws the top row first
// (as Splix does), so its last line is row 0.
//
// Inside, the grid keeps the top row first, as it is drawn; At and the
// queries turn a row counted from the bottom into it.
//
// The protocol is the Wrocław protocol with gomoku's names: queries
// CurrentTurn, Params, MySymbol, MySeat, LastMove, Board, SymbolAt x y,
// Heights; command DropDisc col, of which the last valid one in a turn
// binds. See docs/protocol/connect4.md.
package connect4

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"judge/games"
	"judge/games/grid"
)

// Game is Connect Four. The zero value is ready to use.
type Game struct{}

// Name implements games.Game.
func (Game) Name() string { return "connect4" }

// Describe implements games.Game.
func (Game) Describe() string {
	return "Connect Four: drop discs into columns, k in a row wins (7×6, k=4 by default)"
}

// Limits of the parameters.
const (
	MaxWidth  = 30
	MaxHeight = 30
)

// Params implements games.Game.
func (Game) Params() []games.ParamSpec {
	return []games.ParamSpec{
		{Name: "width", Default: 7, Min: 1, Max: MaxWidth, Doc: "number of columns, 0..width-1 from the left"},
		{Name: "height", Default: 6, Min: 1, Max: MaxHeight, Doc: "number of rows, 0..height-1 from the bottom"},
		{Name: "k", Default: 4, Min: 1, Max: max(MaxWidth, MaxHeight), Doc: "length of the line that wins (k <= width or k <= height)"},
	}
}

// New implements games.Game. The seed is unused: the game has no chance.
func (g Game) New(p games.Params, _ uint64) (games.State, error) {
	p, err := games.Resolve(g.Params(), p)
	if err != nil {
		return nil, err
	}
	w, h, k := p["width"], p["height"], p["k"]
	if k > w && k > h {
		return nil, fmt.Errorf("parameter k = %d is larger than both width = %d and height = %d: nobody could win", k, w, h)
	}
	return New(w, h, k), nil
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
	w, h, k int
	board   grid.Board
	filled  []int // discs in each column
	turn    int   // counted from 1
	placed  int
	last    [2]int // last[seat] = the column seat last dropped into, or -1
	out     games.Outcome
}

// New starts a game on a board of w columns and h rows, k in a row to win.
func New(w, h, k int) *State {
	s := &State{w: w, h: h, k: k, board: grid.New(w, h), filled: make([]int, w), turn: 1}
	s.last = [2]int{-1, -1}
	s.out.Winner = -1
	return s
}

// Parse reads a board drawn as text, top row first, one row a line, cells
// (-, X, O) separated by optional spaces. It is the turn of the player
// with fewer discs (X on a tie). Discs must rest on discs or on the bottom.
// Meant for tests.
func Parse(k int, board string) (*State, error) {
	b, err := grid.Parse(board, "-XO")
	if err != nil {
		return nil, err
	}
	s := New(b.W, b.H, k)
	s.board = b
	nx, no := 0, 0
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			switch Cell(b.At(x, y)) {
			case Empty:
				if y > 0 && Cell(b.At(x, y-1)) != Empty {
					return nil, fmt.Errorf("(%d,%d): a disc floats above an empty cell", x, b.H-y)
				}
				continue
			case X:
				nx++
			case O:
				no++
			}
			s.filled[x]++
			s.placed++
		}
	}
	if nx != no && nx != no+1 {
		return nil, fmt.Errorf("%d X and %d O: X moves first, so X has as many discs as O or one more", nx, no)
	}
	s.turn = s.placed + 1
	if w := s.Winner(); w != Empty {
		s.finish(seatOf(w), fmt.Sprintf("%c made %d in a row", w, s.k))
	} else if s.placed == s.w*s.h {
		s.finish(-1, "the board is full")
	}
	return s, nil
}

func seatOf(c Cell) int {
	if c == O {
		return 1
	}
	return 0
}

// Clone returns an independent copy.
func (s *State) Clone() *State {
	c := *s
	c.board = s.board.Clone()
	c.filled = append([]int(nil), s.filled...)
	c.out.Scores = append([]float64(nil), s.out.Scores...)
	return &c
}

// Size returns the width, height and k.
func (s *State) Size() (w, h, k int) { return s.w, s.h, s.k }

// At returns the cell at (x, y), y counted from the bottom row (0), which
// must be on the board.
func (s *State) At(x, y int) Cell { return Cell(s.board.At(x, s.h-1-y)) }

// Key is the board as a string: equal positions have equal keys.
func (s *State) Key() string { return s.board.Key() }

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
	case "Params":
		return strconv.Itoa(s.w) + " " + strconv.Itoa(s.h) + " " + strconv.Itoa(s.k), nil
	case "MySymbol":
		return string(Symbol(seat)), nil
	case "MySeat":
		return strconv.Itoa(seat), nil
	case "LastMove":
		return strconv.Itoa(s.last[1-seat]), nil
	case "Board":
		return s.board.String(), nil
	case "SymbolAt", "CellAt":
		x, y, ok := s.coords(l.Args)
		if !ok {
			return "!", nil
		}
		return string(s.At(x, y)), nil
	case "Heights":
		b := make([]byte, 0, 3*s.w)
		for x, n := range s.filled {
			if x > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(n), 10)
		}
		return string(b), nil
	}
	return "", games.ErrNotQuery
}

// Queries implements games.Verbs.
func (s *State) Queries() []string {
	return []string{"CurrentTurn", "Params", "MySymbol", "MySeat", "LastMove", "Board", "SymbolAt", "CellAt", "Heights"}
}

// Commands implements games.Verbs.
func (s *State) Commands() []string { return []string{"DropDisc"} }

// Moves implements games.Mover: every column that is not full, from the
// left, for the seat to move.
func (s *State) Moves(seat int) []games.Move {
	if s.out.Over || seat != s.ToMove() {
		return nil
	}
	var out []games.Move
	for x := 0; x < s.w; x++ {
		if s.CanDrop(x) {
			out = append(out, games.Move{"DropDisc " + strconv.Itoa(x)})
		}
	}
	return out
}

// MultiLine implements games.MultiLine: Board answers height lines.
func (s *State) MultiLine(query string) bool { return query == "Board" }

// coords parses a cell, "x y" or "x,y", and reports whether it is on the
// board.
func (s *State) coords(args []string) (x, y int, ok bool) {
	x, y, ok = games.ParseXY(args)
	if !ok || x < 0 || y < 0 || x >= s.w || y >= s.h {
		return 0, 0, false
	}
	return x, y, true
}

// Render implements games.State: the board as the Board query draws it,
// top row first, each row with its y on the left (0 at the bottom), and
// the column numbers under it.
func (s *State) Render() string {
	var b strings.Builder
	pad := len(strconv.Itoa(s.h - 1))
	for i, row := range strings.Split(s.board.String(), "\n") {
		fmt.Fprintf(&b, "%*d  %s\n", pad, s.h-1-i, row)
	}
	b.WriteString(strings.Repeat(" ", pad+2))
	for x := 0; x < s.w; x++ {
		if x > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte("0123456789"[x%10])
	}
	b.WriteByte('\n')
	return b.String()
}

// Orders implements games.State.
func (s *State) Orders(seat int) games.Orders { return &orders{s: s, seat: seat} }

type orders struct {
	s       *State
	seat    int
	move    games.Move
	lastErr error
}

func (o *orders) Command(l games.Line) error {
	if l.Verb != "DropDisc" {
		return fmt.Errorf("%q: %w", l.Verb, games.ErrUnknown)
	}
	col, err := o.s.check(l.Args)
	if err != nil {
		o.lastErr = fmt.Errorf("%s: %w", l, err)
		return err
	}
	o.move = games.Move{"DropDisc " + strconv.Itoa(col)}
	return nil
}

func (o *orders) Commit() (games.Move, error) {
	if o.move != nil {
		return o.move, nil
	}
	if o.lastErr != nil {
		return nil, fmt.Errorf("no valid DropDisc before #END (last one was %v)", o.lastErr)
	}
	return nil, errors.New("no DropDisc before #END")
}

// ParseColumn reads the arguments of DropDisc: one whole number.
func ParseColumn(args []string) (int, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("want 1 number (a column), got %d words", len(args))
	}
	col, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, fmt.Errorf("column %q is not a whole number", args[0])
	}
	return col, nil
}

// check tells why DropDisc with args cannot be played now.
func (s *State) check(args []string) (int, error) {
	col, err := ParseColumn(args)
	if err != nil {
		return 0, err
	}
	if col < 0 || col >= s.w {
		return 0, fmt.Errorf("column %d is off the board (columns 0..%d)", col, s.w-1)
	}
	if s.filled[col] == s.h {
		return 0, fmt.Errorf("column %d is full", col)
	}
	return col, nil
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
	if l.Verb != "DropDisc" {
		return fmt.Errorf("move %q is not DropDisc", m[0])
	}
	col, err := s.check(l.Args)
	if err != nil {
		return err
	}
	s.Drop(col)
	return nil
}

// CanDrop reports whether col is on the board and not full.
func (s *State) CanDrop(col int) bool {
	return col >= 0 && col < s.w && s.filled[col] < s.h
}

// Drop drops the disc of the seat to move into col, which must not be
// full, and ends the turn.
func (s *State) Drop(col int) {
	seat := s.ToMove()
	y := s.h - 1 - s.filled[col] // the grid's row: the top one is 0
	s.board.Set(col, y, byte(Symbol(seat)))
	s.filled[col]++
	s.placed++
	s.last[seat] = col
	s.turn++
	if s.board.LineThrough(col, y, s.k) {
		s.finish(seat, fmt.Sprintf("%c made %d in a row", Symbol(seat), s.k))
	} else if s.placed == s.w*s.h {
		s.finish(-1, "the board is full")
	}
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
