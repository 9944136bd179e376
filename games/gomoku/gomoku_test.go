package gomoku

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"judge/games"
)

func mustParse(t *testing.T, k int, board string) *State {
	t.Helper()
	s, err := Parse(k, board)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		name   string
		k      int
		board  string
		over   bool
		winner int
	}{
		{"empty", 3, `
			- - -
			- - -
			- - -`, false, -1},
		{"row", 3, `
			X X X
			O O -
			- - -`, true, 0},
		{"column", 3, `
			O X X
			O X -
			O - X`, true, 1},
		{"diagonal", 3, `
			X O O
			- X -
			- - X`, true, 0},
		{"anti-diagonal", 3, `
			X X O
			- O X
			O - -`, true, 1},
		{"full draw", 3, `
			X O X
			X O O
			O X X`, true, -1},
		{"two of three", 3, `
			X X -
			O O -
			- - -`, false, -1},
		{"k=1 first stone wins", 1, `
			- -
			X -`, true, 0},
		{"gomoku five", 5, `
			- - - - - - -
			- X - - - - -
			- O X - - - -
			- O - X - - -
			- O - - X - -
			- O - - - X -
			- - - - - - -`, true, 0},
		{"gomoku four is not five", 5, `
			- - - - - - -
			- X - - - - -
			- O X - - - -
			- O - X - - -
			- O - - X - -
			- - - - - - -
			- - - - - - -`, false, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.k, tt.board)
			o := s.Outcome()
			if o.Over != tt.over || o.Winner != tt.winner {
				t.Errorf("got over=%v winner=%d, want over=%v winner=%d", o.Over, o.Winner, tt.over, tt.winner)
			}
			if o.Over != (len(s.Movers()) == 0) {
				t.Errorf("Movers = %v with Over = %v", s.Movers(), o.Over)
			}
		})
	}
}

func TestQueries(t *testing.T) {
	s := mustParse(t, 3, `
		X - -
		- O -
		- - X`)
	s.last = [2][2]int{{2, 2}, {1, 1}}
	q := func(seat int, line string) string {
		t.Helper()
		a, err := s.Query(seat, games.ParseLine(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return a
	}
	tests := []struct {
		seat       int
		line, want string
	}{
		{1, "CurrentTurn", "4"},
		{1, "LastMove", "2 2"},
		{0, "LastMove", "1 1"},
		{0, "SymbolAt 0 0", "X"},
		{0, "SymbolAt 1 1", "O"},
		{0, "SymbolAt 2 0", "-"},
		{0, "SymbolAt 3 0", "!"},
		{0, "SymbolAt -1 0", "!"},
		{0, "SymbolAt 1", "!"},
		{0, "SymbolAt a b", "!"},
		{0, "Board", "X - -\n- O -\n- - X"},
		{0, "Params", "3 3"},
		{0, "MySymbol", "X"},
		{1, "MySymbol", "O"},
	}
	for _, tt := range tests {
		if got := q(tt.seat, tt.line); got != tt.want {
			t.Errorf("seat %d %q: got %q, want %q", tt.seat, tt.line, got, tt.want)
		}
	}
	if _, err := s.Query(0, games.ParseLine("PlaceSymbol 1 1")); !errors.Is(err, games.ErrNotQuery) {
		t.Errorf("PlaceSymbol as a query: got %v, want ErrNotQuery", err)
	}
}

func TestFirstTurnLastMove(t *testing.T) {
	s := New(3, 3)
	if a, _ := s.Query(0, games.ParseLine("LastMove")); a != "-1 -1" {
		t.Errorf("LastMove on turn 1: got %q, want -1 -1", a)
	}
	s.Place(1, 1)
	if a, _ := s.Query(1, games.ParseLine("LastMove")); a != "1 1" {
		t.Errorf("O's LastMove after X at 1 1: got %q", a)
	}
	if a, _ := s.Query(0, games.ParseLine("LastMove")); a != "-1 -1" {
		t.Errorf("X's LastMove before O moved: got %q, want -1 -1", a)
	}
}

func TestOrdersLastValidBinds(t *testing.T) {
	s := mustParse(t, 3, `
		X - -
		- O -
		- - -`)
	tests := []struct {
		name     string
		commands []string
		want     string // the binding command, or "" when Commit must fail
		errWords string // words the Commit error must contain
	}{
		{"one", []string{"PlaceSymbol 2 2"}, "PlaceSymbol 2 2", ""},
		{"later valid overrides", []string{"PlaceSymbol 2 2", "PlaceSymbol 0 2"}, "PlaceSymbol 0 2", ""},
		{"later invalid does not override", []string{"PlaceSymbol 2 2", "PlaceSymbol 0 0"}, "PlaceSymbol 2 2", ""},
		{"only invalid: taken", []string{"PlaceSymbol 1 1"}, "", "already taken"},
		{"only invalid: off board", []string{"PlaceSymbol 3 0"}, "", "off the 3×3 board"},
		{"only invalid: words", []string{"PlaceSymbol one two"}, "", "whole numbers"},
		{"only invalid: arity", []string{"PlaceSymbol 1"}, "", "want 2 numbers"},
		{"none", nil, "", "no PlaceSymbol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := s.Orders(0)
			for _, c := range tt.commands {
				_ = o.Command(games.ParseLine(c))
			}
			mv, err := o.Commit()
			if tt.want == "" {
				if err == nil || !strings.Contains(err.Error(), tt.errWords) {
					t.Fatalf("Commit = %q, %v; want an error saying %q", mv, err, tt.errWords)
				}
				return
			}
			if err != nil || len(mv) != 1 || mv[0] != tt.want {
				t.Fatalf("Commit = %q, %v; want %q", mv, err, tt.want)
			}
		})
	}
	if err := s.Orders(0).Command(games.ParseLine("Place 1 1")); !errors.Is(err, games.ErrUnknown) {
		t.Errorf("unknown command: got %v, want ErrUnknown", err)
	}
}

// TestCountTicTacToe counts the 3×3 game by its rules: 5,478 reachable
// positions (the empty board included) and 255,168 complete games.
func TestCountTicTacToe(t *testing.T) {
	seen := map[string]bool{}
	var games int
	var walk func(s *State)
	walk = func(s *State) {
		seen[s.board.String()] = true
		if s.Outcome().Over {
			games++
			return
		}
		for y := 0; y < 3; y++ {
			for x := 0; x < 3; x++ {
				if s.At(x, y) == Empty {
					c := s.Clone()
					c.Place(x, y)
					walk(c)
				}
			}
		}
	}
	walk(New(3, 3))
	if len(seen) != 5478 {
		t.Errorf("reachable positions: got %d, want 5478", len(seen))
	}
	if games != 255168 {
		t.Errorf("complete games: got %d, want 255168", games)
	}
}

// TestIncrementalWinMatchesScan plays random games and checks, after every
// move, the incremental check against a scan of the whole board.
func TestIncrementalWinMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for g := 0; g < 3000; g++ {
		n := 1 + rng.IntN(9)
		k := 1 + rng.IntN(n)
		s := New(n, k)
		for !s.Outcome().Over {
			var empty [][2]int
			for y := 0; y < n; y++ {
				for x := 0; x < n; x++ {
					if s.At(x, y) == Empty {
						empty = append(empty, [2]int{x, y})
					}
				}
			}
			c := empty[rng.IntN(len(empty))]
			s.Place(c[0], c[1])
			scan := s.Winner()
			o := s.Outcome()
			switch {
			case scan != Empty && (!o.Over || o.Winner != seatOf(scan)):
				t.Fatalf("n=%d k=%d: scan finds %c, outcome %+v\n%s", n, k, scan, o, s.board.String())
			case scan == Empty && o.Over && o.Winner >= 0:
				t.Fatalf("n=%d k=%d: outcome %+v with no line\n%s", n, k, o, s.board.String())
			}
		}
	}
}

func TestNewChecksParams(t *testing.T) {
	for _, p := range []games.Params{{"n": 0}, {"n": 101}, {"n": 3, "k": 4}, {"x": 1}} {
		if _, err := (Game{}).New(p, 0); err == nil {
			t.Errorf("New(%v): no error", p)
		}
	}
	s, err := Game{}.New(games.Params{"n": 3, "k": 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := s.Query(0, games.ParseLine("Params")); a != "3 3" {
		t.Errorf("Params: got %q", a)
	}
}

func TestApplyAndForfeit(t *testing.T) {
	s := New(3, 3)
	if err := s.Apply(map[int]games.Move{0: {"PlaceSymbol 1 1"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(map[int]games.Move{1: {"PlaceSymbol 1 1"}}); err == nil {
		t.Error("Apply on a taken cell: no error")
	}
	if err := s.Apply(map[int]games.Move{0: {"PlaceSymbol 0 0"}}); err == nil {
		t.Error("Apply of the wrong seat: no error")
	}
	s.Forfeit(1)
	if o := s.Outcome(); !o.Over || o.Winner != 0 || o.Scores[0] != 1 {
		t.Errorf("after O forfeits: %+v", o)
	}
}

func FuzzCommand(f *testing.F) {
	for _, s := range []string{"PlaceSymbol 1 1", "PlaceSymbol -1 2", "PlaceSymbol 99999999999999999999 1", "PlaceSymbol 1", "PlaceSymbol\t2\t2", "SymbolAt 1 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s := mustParse(t, 3, `
			X - -
			- O -
			- - -`)
		before := s.board.String()
		l := games.ParseLine(line)
		if _, err := s.Query(0, l); err != nil && !errors.Is(err, games.ErrNotQuery) {
			t.Fatalf("Query(%q): %v", line, err)
		}
		o := s.Orders(0)
		err := o.Command(l)
		mv, cerr := o.Commit()
		if (err == nil) != (cerr == nil) {
			t.Fatalf("Command err %v but Commit err %v", err, cerr)
		}
		if s.board.String() != before {
			t.Fatalf("orders changed the board")
		}
		if err == nil {
			if aerr := s.Apply(map[int]games.Move{0: mv}); aerr != nil {
				t.Fatalf("accepted %q, Apply refused: %v", line, aerr)
			}
		}
	})
}

func ExampleState_Query() {
	s := New(3, 3)
	s.Place(1, 1) // X in the centre
	for _, q := range []string{"CurrentTurn", "LastMove", "MySymbol", "Board"} {
		a, _ := s.Query(1, games.ParseLine(q))
		fmt.Printf("%s\n%s\n", q, a)
	}
	// Output:
	// CurrentTurn
	// 2
	// LastMove
	// 1 1
	// MySymbol
	// O
	// Board
	// - - -
	// - X -
	// - - -
}

// TestCommaForm: PlaceSymbol takes "x,y" as well as "x y", and the move
// is recorded in the "x y" form.
func TestCommaForm(t *testing.T) {
	s, err := Game{}.New(games.Params{"n": 3, "k": 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := s.Orders(0)
	if err := o.Command(games.ParseLine("PlaceSymbol 2,1")); err != nil {
		t.Fatal(err)
	}
	m, err := o.Commit()
	if err != nil || len(m) != 1 || m[0] != "PlaceSymbol 2 1" {
		t.Fatalf("Commit = %q, %v; want PlaceSymbol 2 1", m, err)
	}
	if err := s.Apply(map[int]games.Move{0: m}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Query(1, games.ParseLine("CellAt 2,1")); got != "X" {
		t.Errorf("CellAt 2,1 = %q, want X", got)
	}
	if err := s.Orders(1).Command(games.ParseLine("PlaceSymbol 1,")); err == nil {
		t.Error("PlaceSymbol 1, accepted")
	}
}
