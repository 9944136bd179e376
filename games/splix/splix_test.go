package splix

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"judge/games"
	"judge/games/gametest"
)

var queries = []string{
	"CurrentTurn", "TurnsLeft", "Params", "MySeat", "Position", "Board", "Trails", "View",
	"Players", "CellAt 0 0", "CellAt 5 7", "CellAt -1 3", "CellAt 99 0", "CellAt x y",
}

func randomPlayer(st games.State, seat int, rng *rand.Rand) games.Move {
	words := []string{"N", "E", "S", "W", "LEFT", "RIGHT", "STRAIGHT", "north", "West"}
	if rng.IntN(10) == 0 {
		return nil // no Move: straight on
	}
	return games.Move{"Move " + words[rng.IntN(len(words))]}
}

func illegal(st games.State, seat int, rng *rand.Rand) []games.Move {
	return []games.Move{{"Move"}, {"Move UP"}, {"Move N E"}, {"Move 1"}, {"Move NE"}}
}

// twins differ only in where seat 1 stands inside its own land, out of
// seat 0's view.
func twins(rng *rand.Rand) (a, b games.State, seat int) {
	draw := func(hx, hy int) string {
		const n = 30
		var sb strings.Builder
		for y := n - 1; y >= 0; y-- {
			for x := 0; x < n; x++ {
				tok := "."
				switch {
				case x < 3 && y < 3:
					tok = "0"
				case x >= 24 && y >= 24:
					tok = "1"
				}
				if x == 1 && y == 1 {
					tok += "A"
				}
				if x == hx && y == hy {
					tok += "B"
				}
				sb.WriteString(tok + " ")
			}
			sb.WriteString("\n")
		}
		return sb.String()
	}
	x1, y1 := 24+rng.IntN(6), 24+rng.IntN(6)
	x2, y2 := 24+rng.IntN(6), 24+rng.IntN(6)
	sa, err := Parse(2, 50, draw(x1, y1))
	if err != nil {
		panic(err)
	}
	sb, err := Parse(2, 50, draw(x2, y2))
	if err != nil {
		panic(err)
	}
	return sa, sb, 0
}

func TestConformance(t *testing.T) {
	gametest.Check(t, Game{}, games.Params{"size": 16, "turns": 60, "players": 3}, randomPlayer,
		gametest.Playouts(25),
		gametest.Queries(queries...),
		gametest.Illegal(illegal),
		gametest.Hidden([]string{"Move N", "Move LEFT"}, twins))
	gametest.Check(t, Game{}, games.Params{"size": 10, "turns": 30, "players": 2}, randomPlayer,
		gametest.Playouts(10), gametest.Queries(queries...))
}

func TestStarts(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		for _, tc := range []struct{ size, players int }{{10, 2}, {10, 4}, {15, 5}, {16, 5}, {64, 5}, {200, 5}} {
			s, err := New(tc.size, 10, tc.players, seed)
			if err != nil {
				t.Fatalf("New(%d, 10, %d, %d): %v", tc.size, tc.players, seed, err)
			}
			if err := s.check(); err != nil {
				t.Fatalf("New(%d, 10, %d, %d): %v", tc.size, tc.players, seed, err)
			}
			for i := range s.p {
				if s.p[i].land != 25 {
					t.Fatalf("New(%d, 10, %d, %d): seat %d starts with %d land, want 25\n%s", tc.size, tc.players, seed, i, s.p[i].land, s.Render())
				}
			}
		}
	}
	if _, err := New(10, 10, 5, 1); err == nil {
		t.Errorf("5 bases of 5×5 fit on a 10×10 board?")
	}
	a, _ := New(64, 10, 5, 42)
	b, _ := New(64, 10, 5, 42)
	c, _ := New(64, 10, 5, 43)
	if a.Render() != b.Render() {
		t.Errorf("the same seed gave two boards")
	}
	if a.Render() == c.Render() {
		t.Errorf("seeds 42 and 43 gave the same board")
	}
}

func TestNextIsPure(t *testing.T) {
	s, err := New(30, 300, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	ws := newWalkers(7, 4)
	for !s.Outcome().Over {
		before := s.Clone()
		next := s.Next(s.walk(ws))
		if !bytes.Equal(before.owner, s.owner) || !bytes.Equal(before.trail, s.trail) || before.Render() != s.Render() {
			t.Fatalf("turn %d: Next changed its state", s.turn)
		}
		s = next
	}
}

func TestQueries(t *testing.T) {
	s := mustParse(t, 3, `
		.   .   .   .   .
		.   0   .a  .aA .
		.   0   0   .   .
		.   .   .   .   1
		2C  .   .   .   1B`)
	s.SetHeading(0, East)
	for _, tc := range []struct {
		seat       int
		query, ans string
	}{
		{0, "CurrentTurn", "1"},
		{0, "TurnsLeft", "100"},
		{1, "Params", "5 100 3"},
		{2, "MySeat", "2"},
		{0, "Position", "3 3 E"},
		{1, "Position", "4 0 N"},
		{0, "Board", ".....\n.0...\n.00..\n....1\n2...1"},
		{0, "Trails", ".....\n..00.\n.....\n.....\n....."},
		{0, "CellAt 2 3", ". 0"},
		{0, "CellAt 4 0", "1 ."},
		{0, "CellAt 5 0", "!"},
		{0, "CellAt 1", "!"},
		{1, "Players", "0 alive 3 3 3 0 3\n1 alive 4 0 2 0 2\n2 alive 0 0 1 0 1"},
	} {
		got, err := s.Query(tc.seat, games.ParseLine(tc.query))
		if err != nil || got != tc.ans {
			t.Errorf("seat %d: %s = %q, %v; want %q", tc.seat, tc.query, got, err, tc.ans)
		}
	}
	view, _ := s.Query(0, games.ParseLine("View"))
	rows := strings.Split(view, "\n")
	if len(rows) != 2*ViewRadius+1 {
		t.Fatalf("View has %d rows", len(rows))
	}
	// The head is in the middle; the board's corner (0,0) is 3 left and 3
	// down from it.
	mid := ViewRadius
	for _, c := range []struct {
		dx, dy int
		want   byte
	}{{0, 0, 'A'}, {-1, 0, 'a'}, {-2, 0, '0'}, {-3, -3, 'C'}, {1, -3, 'B'}, {0, 2, '#'}, {-4, 0, '#'}, {1, 1, '.'}} {
		if got := rows[mid-c.dy][mid+c.dx]; got != c.want {
			t.Errorf("View at %+d %+d = %c, want %c\n%s", c.dx, c.dy, got, c.want, view)
		}
	}
	if _, err := s.Query(0, games.ParseLine("Move N")); !errors.Is(err, games.ErrNotQuery) {
		t.Errorf("Move is a query: %v", err)
	}
}

func TestPlayersHidesHeadsOutOfView(t *testing.T) {
	a, _, _ := twins(rand.New(rand.NewPCG(1, 2)))
	got, _ := a.Query(0, games.ParseLine("Players"))
	if !strings.HasPrefix(got, "0 alive 1 1 9 0 9\n1 alive -1 -1 36 0 36") {
		t.Errorf("Players for seat 0 = %q", got)
	}
}

func TestLastValidMoveBinds(t *testing.T) {
	s, _ := New(20, 10, 2, 1)
	s.SetHeading(0, North)
	o := s.Orders(0)
	for _, l := range []string{"Move E", "Move LEFT", "Move sideways"} {
		o.Command(games.ParseLine(l))
	}
	if mv, err := o.Commit(); err != nil || len(mv) != 1 || mv[0] != "Move W" {
		t.Errorf("Commit() = %q, %v; want Move W", mv, err)
	}
	if mv, _ := s.Orders(0).Commit(); mv[0] != "Move N" {
		t.Errorf("Commit() with no Move = %q, want straight on (Move N)", mv)
	}
	if err := s.Orders(0).Command(games.ParseLine("Go N")); !errors.Is(err, games.ErrUnknown) {
		t.Errorf("Go is a command: %v", err)
	}
}

// TestAnswersFollowTheTurn: Board, Trails and View are drawn once a turn
// and kept; after a move they are the new turn's, the same as a state
// that never answered them before draws.
func TestAnswersFollowTheTurn(t *testing.T) {
	s, err := New(20, 10, 2, 7)
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"Board", "Trails", "View"}
	ask := func(s *State) []string {
		var out []string
		for seat := 0; seat < 2; seat++ {
			for _, q := range queries {
				a, err := s.Query(seat, games.ParseLine(q))
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, a)
			}
		}
		return out
	}
	before := ask(s)
	if again := ask(s); !slices.Equal(before, again) {
		t.Fatal("the same turn answered twice differently")
	}
	for turn := 0; turn < 3; turn++ {
		play(t, s, nil) // everyone goes straight on: trails grow
	}
	after := ask(s)
	if fresh := ask(s.Clone()); !slices.Equal(after, fresh) {
		t.Errorf("after three turns the answers are not the state's:\n%v\nwant\n%v", after, fresh)
	}
	for i := range after {
		if q := queries[i%len(queries)]; q != "Board" && after[i] == before[i] {
			t.Errorf("seat %d's %s did not change in three moves", i/len(queries), q)
		}
	}
}
