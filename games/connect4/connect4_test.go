package connect4_test

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"judge/games"
	"judge/games/connect4"
	"judge/games/gametest"
)

// TestPositions counts the distinct positions after 0..8 plies, a game
// stopping at a win: the known counts of 7×6 Connect Four.
func TestPositions(t *testing.T) {
	want := []int{1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275}
	if testing.Short() {
		want = want[:7]
	}
	level := map[string]*connect4.State{"": connect4.New(7, 6, 4)}
	for ply, n := range want {
		if len(level) != n {
			t.Fatalf("after %d plies: %d positions, want %d", ply, len(level), n)
		}
		next := map[string]*connect4.State{}
		for _, s := range level {
			if s.Outcome().Over {
				continue
			}
			for col := 0; col < 7; col++ {
				if !s.CanDrop(col) {
					continue
				}
				c := s.Clone()
				c.Drop(col)
				next[c.Key()] = c
			}
		}
		level = next
	}
}

func TestRules(t *testing.T) {
	tests := []struct {
		name   string
		board  string
		col    int
		err    string // the refusal of DropDisc col, or ""
		winner int    // after the drop: -2 not over, -1 draw, else the seat
		reason string
	}{
		{
			name: "horizontal",
			board: `
				- - - - - - -
				- - - - - - -
				- - - - - - -
				- - - - - - -
				- - - - - - -
				X X X - O O O`,
			col: 3, winner: 0, reason: "X made 4 in a row",
		},
		{
			name: "vertical",
			board: `
				- - - - - - -
				- - - - - - -
				- - - - - - -
				X - - - - - O
				X - - - - - O
				X X - - - - O`,
			col: 6, winner: 1, reason: "O made 4 in a row",
		},
		{
			name: "diagonal up right",
			board: `
				- - - - - - -
				- - - - - - -
				- - - - - - -
				- - O X O - -
				- - X X O - -
				- X O O X - -`,
			col: 3, winner: -2,
		},
		{
			name: "rising diagonal",
			board: `
				- - - - - - -
				- - - - - - -
				- - - - - - -
				- - - X O - -
				- - X O X - -
				- X O O X O -`,
			col: 4, winner: 0, reason: "X made 4 in a row",
		},
		{
			name: "falling diagonal",
			board: `
				- - - - - - -
				- - - - - - -
				- - - - - - -
				X O - - - - -
				X X O - - - -
				O X X O - - -`,
			col: 0, winner: 1, reason: "O made 4 in a row",
		},
		{
			name: "three is not four",
			board: `
				- - - - - - -
				- - - - - - -
				- - - - - - -
				- - - - - - -
				- - - - - - -
				X X - - O O -`,
			col: 3, winner: -2,
		},
		{
			name: "full column",
			board: `
				X - - - - - -
				O - - - - - -
				X - - - - - -
				O - - - - - -
				X - - - - - -
				O - - - - - -`,
			col: 0, err: "column 0 is full",
		},
		{
			name: "missing column",
			board: `
				- - - - - - -
				- - - - - - -
				- - - - - - -
				- - - - - - -
				- - - - - - -
				- - - - - - -`,
			col: 7, err: "column 7 is off the board (columns 0..6)",
		},
		{
			name: "negative column",
			board: `
				- - -
				- - -`,
			col: -1, err: "column -1 is off the board (columns 0..2)",
		},
		{
			name: "draw on the last cell",
			board: `
				X O X -
				X O X O
				O X O X`,
			col: 3, winner: -1, reason: "the board is full",
		},
		{
			name: "win on the last cell is a win",
			board: `
				O O X -
				X X O X
				O O X X`,
			col: 3, winner: 1, reason: "O made 3 in a row",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := 4
			if strings.Contains(tt.name, "last cell") {
				k = 3
			}
			s, err := connect4.Parse(k, tt.board)
			if err != nil {
				t.Fatal(err)
			}
			if s.Outcome().Over {
				t.Fatalf("position is already over: %+v", s.Outcome())
			}
			o := s.Orders(s.ToMove())
			err = o.Command(games.ParseLine("DropDisc " + itoa(tt.col)))
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("DropDisc %d: got %v, want %q", tt.col, err, tt.err)
				}
				_, cerr := o.Commit()
				if cerr == nil || !strings.Contains(cerr.Error(), tt.err) {
					t.Fatalf("Commit: got %v, want it to say %q", cerr, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m, err := o.Commit()
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Apply(map[int]games.Move{s.ToMove(): m}); err != nil {
				t.Fatal(err)
			}
			out := s.Outcome()
			if tt.winner == -2 {
				if out.Over {
					t.Fatalf("game over: %+v\n%s", out, s.Render())
				}
				return
			}
			if !out.Over || out.Winner != tt.winner || out.Reason != tt.reason {
				t.Fatalf("got %+v, want winner %d, %q\n%s", out, tt.winner, tt.reason, s.Render())
			}
			if w := s.Winner(); (w != connect4.Empty) != (tt.winner >= 0) {
				t.Fatalf("Winner() = %c, disagrees with the outcome %+v", w, out)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestGravityAndQueries(t *testing.T) {
	s := connect4.New(7, 6, 4)
	s.Drop(3) // X
	s.Drop(3) // O
	s.Drop(0) // X
	ask := func(seat int, q string) string {
		t.Helper()
		a, err := s.Query(seat, games.ParseLine(q))
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return a
	}
	board := "- - - - - - -\n- - - - - - -\n- - - - - - -\n- - - - - - -\n- - - O - - -\nX - - X - - -"
	for _, tt := range []struct {
		seat    int
		q, want string
	}{
		{1, "Board", board},
		{1, "CurrentTurn", "4"},
		{1, "Params", "7 6 4"},
		{1, "MySymbol", "O"},
		{0, "MySymbol", "X"},
		{1, "MySeat", "1"},
		{1, "LastMove", "0"},
		{0, "LastMove", "3"},
		// Row 0 is the bottom one, where the discs fall (botsarena's rows);
		// Board draws it last.
		{1, "SymbolAt 3 0", "X"},
		{1, "SymbolAt 3 1", "O"},
		{1, "CellAt 3,1", "O"},
		{1, "SymbolAt 3 2", "-"},
		{1, "SymbolAt 0 0", "X"},
		{1, "SymbolAt 0 5", "-"},
		{1, "SymbolAt 3 5", "-"},
		{1, "SymbolAt 7 0", "!"},
		{1, "SymbolAt 0 6", "!"},
		{1, "SymbolAt 0 -1", "!"},
		{1, "SymbolAt 0", "!"},
		{1, "SymbolAt a b", "!"},
		{1, "Heights", "1 0 0 2 0 0 0"},
	} {
		if got := ask(tt.seat, tt.q); got != tt.want {
			t.Errorf("seat %d: %s = %q, want %q", tt.seat, tt.q, got, tt.want)
		}
	}
	for x, y := range map[int]int{3: 1, 0: 0} {
		if s.At(x, y) == connect4.Empty || s.At(x, y+1) != connect4.Empty {
			t.Errorf("At(%d, %d) = %c, At(%d, %d) = %c: the top disc of the column is not there", x, y, s.At(x, y), x, y+1, s.At(x, y+1))
		}
	}
	want := "5  - - - - - - -\n4  - - - - - - -\n3  - - - - - - -\n2  - - - - - - -\n1  - - - O - - -\n0  X - - X - - -\n   0 1 2 3 4 5 6\n"
	if s.Render() != want {
		t.Errorf("Render:\n%s\nwant\n%s", s.Render(), want)
	}
	if got := connect4.New(7, 6, 4); true {
		a, _ := got.Query(0, games.ParseLine("LastMove"))
		if a != "-1" {
			t.Errorf("LastMove on the first turn = %q, want -1", a)
		}
	}
}

func TestLastValidBinds(t *testing.T) {
	s := connect4.New(7, 6, 4)
	o := s.Orders(0)
	for _, l := range []string{"DropDisc 2", "DropDisc 9", "DropDisc 5", "DropDisc x"} {
		o.Command(games.ParseLine(l))
	}
	m, err := o.Commit()
	if err != nil || len(m) != 1 || m[0] != "DropDisc 5" {
		t.Fatalf("Commit = %q, %v; want DropDisc 5", m, err)
	}
	if err := s.Orders(0).Command(games.ParseLine("PlaceSymbol 1 1")); !errors.Is(err, games.ErrUnknown) {
		t.Fatalf("PlaceSymbol: %v, want ErrUnknown", err)
	}
	_, err = s.Orders(0).Commit()
	if err == nil || err.Error() != "no DropDisc before #END" {
		t.Fatalf("empty Commit: %v", err)
	}
}

func TestNew(t *testing.T) {
	for _, tt := range []struct {
		p   games.Params
		err string
	}{
		{nil, ""},
		{games.Params{"width": 3, "height": 3, "k": 3}, ""},
		{games.Params{"width": 1, "height": 1, "k": 1}, ""},
		{games.Params{"width": 3, "height": 2, "k": 4}, "parameter k = 4 is larger than both width = 3 and height = 2: nobody could win"},
		{games.Params{"width": 0}, "parameter width = 0 is out of range 1..30"},
		{games.Params{"depth": 3}, `unknown parameter "depth" (known: width, height, k)`},
	} {
		_, err := connect4.Game{}.New(tt.p, 0)
		if got := errString(err); got != tt.err {
			t.Errorf("New(%v): %q, want %q", tt.p, got, tt.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func randomPlayer(st games.State, seat int, rng *rand.Rand) games.Move {
	s := st.(*connect4.State)
	w, _, _ := s.Size()
	var cols []int
	for c := 0; c < w; c++ {
		if s.CanDrop(c) {
			cols = append(cols, c)
		}
	}
	return games.Move{"DropDisc " + itoa(cols[rng.IntN(len(cols))])}
}

func illegal(st games.State, seat int, rng *rand.Rand) []games.Move {
	s := st.(*connect4.State)
	w, _, _ := s.Size()
	bad := []games.Move{{}, {"DropDisc -1"}, {"DropDisc " + itoa(w)}, {"DropDisc 1 2"}, {"DropDisc"}}
	for c := 0; c < w; c++ {
		if !s.CanDrop(c) {
			bad = append(bad, games.Move{"DropDisc " + itoa(c)})
		}
	}
	return bad
}

var queries = []string{"CurrentTurn", "Params", "MySymbol", "MySeat", "LastMove", "Board", "Heights",
	"SymbolAt 0 0", "SymbolAt 2 5", "SymbolAt 6 5", "SymbolAt 7 7", "SymbolAt"}

func TestConformance(t *testing.T) {
	gametest.Check(t, connect4.Game{}, nil, randomPlayer, gametest.Queries(queries...), gametest.Illegal(illegal))
	gametest.Check(t, connect4.Game{}, games.Params{"width": 4, "height": 3, "k": 3}, randomPlayer,
		gametest.Queries(queries...), gametest.Illegal(illegal), gametest.Seed(1000))
	gametest.Check(t, connect4.Game{}, games.Params{"width": 2, "height": 3, "k": 3}, randomPlayer,
		gametest.Queries(queries...), gametest.Illegal(illegal), gametest.Seed(2000), gametest.Playouts(5))
}

// TestIncremental checks the win test at each drop against the full scan.
func TestIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for g := 0; g < 2000; g++ {
		w, h := 1+rng.IntN(8), 1+rng.IntN(8)
		k := 1 + rng.IntN(max(w, h))
		s := connect4.New(w, h, k)
		for !s.Outcome().Over {
			before := s.Winner()
			if before != connect4.Empty {
				t.Fatalf("game goes on with a line of %c:\n%s", before, s.Render())
			}
			var cols []int
			for c := 0; c < w; c++ {
				if s.CanDrop(c) {
					cols = append(cols, c)
				}
			}
			s.Drop(cols[rng.IntN(len(cols))])
		}
		o := s.Outcome()
		if wn := s.Winner(); (o.Winner >= 0) != (wn != connect4.Empty) || (o.Winner >= 0 && connect4.Symbol(o.Winner) != wn) {
			t.Fatalf("outcome %+v but Winner() = %c:\n%s", o, wn, s.Render())
		}
	}
}

func FuzzCommand(f *testing.F) {
	for _, s := range []string{"DropDisc 3", "DropDisc -1", "DropDisc 99999999999999999999", "DropDisc 1 2", "DropDisc", "DropDisc +3", "DropDisc 0x3", "Dropdisc 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s := connect4.New(7, 6, 4)
		for i := 0; i < 6; i++ {
			s.Drop(2)
		}
		o := s.Orders(s.ToMove())
		err := o.Command(games.ParseLine(line))
		m, cerr := o.Commit()
		if (err == nil) != (cerr == nil) {
			t.Fatalf("Command: %v, Commit: %v", err, cerr)
		}
		if err != nil {
			return
		}
		col, perr := connect4.ParseColumn(games.ParseLine(m[0]).Args)
		if perr != nil || !s.CanDrop(col) {
			t.Fatalf("%q accepted as %q: column %d, %v", line, m, col, perr)
		}
		if err := s.Apply(map[int]games.Move{s.ToMove(): m}); err != nil {
			t.Fatalf("%q accepted as %q, Apply: %v", line, m, err)
		}
	})
}

func FuzzQuery(f *testing.F) {
	for _, s := range []string{"SymbolAt 3 5", "SymbolAt -1 0", "Board", "LastMove x", "SymbolAt 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s := connect4.New(7, 6, 4)
		s.Drop(3)
		before := s.Render()
		s.Query(0, games.ParseLine(line))
		if s.Render() != before {
			t.Fatalf("query %q changed the state", line)
		}
	})
}

// TestParseFloating: Parse names a floating disc by its coordinates, row
// 0 at the bottom.
func TestParseFloating(t *testing.T) {
	for _, tt := range []struct{ board, want string }{
		{"- X\n- -", "(1,1): a disc floats above an empty cell"},
		{"- -\nX -\n- -", "(0,1): a disc floats above an empty cell"},
	} {
		if _, err := connect4.Parse(2, tt.board); err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q): %v, want %q", tt.board, err, tt.want)
		}
	}
}
