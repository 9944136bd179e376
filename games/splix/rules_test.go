package splix

import (
	"strings"
	"testing"

	"judge/games"
)

// turnCase is one turn drawn as text: the board before, each seat's Move
// argument ("" for none: keep going straight), the board after.
type turnCase struct {
	name     string
	players  int
	headings map[int]Dir // default North
	before   string
	moves    map[int]string
	after    string
	kills    []int // after the turn; nil: all 0
	over     bool
	scores   []float64 // when over
	winner   int       // when over
}

func mustParse(t *testing.T, players int, board string) *State {
	t.Helper()
	s, err := Parse(players, 100, board)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, board)
	}
	return s
}

// play runs one turn through the protocol: Orders, Commit, Apply.
func play(t *testing.T, s *State, moves map[int]string) {
	t.Helper()
	committed := map[int]games.Move{}
	for _, seat := range s.Movers() {
		o := s.Orders(seat)
		if m := moves[seat]; m != "" {
			if err := o.Command(games.ParseLine("Move " + m)); err != nil {
				t.Fatalf("seat %d: Move %s: %v", seat, m, err)
			}
		}
		mv, err := o.Commit()
		if err != nil {
			t.Fatalf("seat %d: Commit: %v", seat, err)
		}
		committed[seat] = mv
	}
	if err := s.Apply(committed); err != nil {
		t.Fatalf("Apply(%v): %v", committed, err)
	}
}

func TestTurns(t *testing.T) {
	for _, tc := range []turnCase{
		{
			name:    "coming home fills the loop",
			players: 2,
			before: `
				.  .   .   .   .   .   .
				.  .a  .a  .a  .   .   .
				.  .a  .   .aA .   .   .
				.  0   0   0   .   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   1   1
				.  .   .   .   .   1B  1`,
			moves: map[int]string{0: "S", 1: "E"},
			after: `
				.  .   .   .   .   .   .
				.  0   0   0   .   .   .
				.  0   0   0   .   .   .
				.  0   0   0A  .   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   1   1
				.  .   .   .   .   1   1B`,
		},
		{
			name:    "the loop takes other players' land",
			players: 2,
			before: `
				.  .a  .a  .a  .   .
				.  .a  1   .aA .   .
				.  0   0   0   .   1B
				.  .   .   .   .   1
				.  .   .   .   .   .
				.  .   .   .   .   .`,
			moves: map[int]string{0: "S", 1: "S"},
			after: `
				.  0   0   0   .   .
				.  0   0   0   .   .
				.  0   0   0A  .   1
				.  .   .   .   .   1B
				.  .   .   .   .   .
				.  .   .   .   .   .`,
		},
		{
			name:    "no fill around another player's head; the trail still becomes land",
			players: 2,
			before: `
				.  .   .   .   .   .   .
				.  .a  .a  .a  .a  .   .
				.  .a  1B  1   .aA .   .
				.  0   0   0   0   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .`,
			moves: map[int]string{0: "S", 1: "E"},
			after: `
				.  .   .   .   .   .   .
				.  0   0   0   0   .   .
				.  0   1   1B  0   .   .
				.  0   0   0   0A  .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .`,
		},
		{
			name:    "the player inside dies: the loop is filled",
			players: 2,
			before: `
				.  .   .   .   .   .   .
				.  .a  .a  .a  .a  .   .
				.  .a  .b  .bB .aA .   .
				.  0   0   0   0   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .`,
			moves: map[int]string{0: "S", 1: "W"}, // seat 1 onto its own trail
			after: `
				.  .   .   .   .   .   .
				.  0   0   0   0   .   .
				.  0   0   0   0   .   .
				.  0   0   0   0A  .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .`,
		},
		{
			name:    "a death does not fill the area a player is out in",
			players: 2,
			before: `
				.  .   .   .   .   .   .
				.  0   0   0   0   .   .
				.  0   .   .aA 0   .   .
				.  0   0   0   0   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   1   .
				.  .   .   .   .   1B  .`,
			headings: map[int]Dir{1: South},
			moves:    map[int]string{0: "W"}, // seat 1 goes straight off the board
			after: `
				.  .   .   .   .   .   .
				.  0   0   0   0   .   .
				.  0   .aA .a  0   .   .
				.  0   0   0   0   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .
				.  .   .   .   .   .   .`,
		},
		{
			name:    "head-on off land: both die",
			players: 2,
			before: `
				.   .  .   .  .
				.   .  .   .  .
				.aA .  .bB .  .
				0   .  1   .  .
				0   .  1   .  .`,
			moves: map[int]string{0: "E", 1: "W"},
			after: `
				.   .  .   .  .
				.   .  .   .  .
				.   .  .   .  .
				.   .  .   .  .
				.   .  .   .  .`,
			kills: []int{1, 1}, over: true, scores: []float64{0, 0}, winner: -1,
		},
		{
			name:    "head-on where one ends on its own land: only the other dies",
			players: 2,
			before: `
				.   .  .   .  .
				.   .  .   .  .
				.aA 1  1B  .  .
				0   .  1   .  .
				0   .  1   .  .`,
			moves: map[int]string{0: "E", 1: "W"},
			after: `
				.   .   .   .  .
				.   .   .   .  .
				.   1B  1   .  .
				.   .   1   .  .
				.   .   1   .  .`,
			kills: []int{0, 1},
		},
		{
			name:    "swapping cells at the edges of their lands: both die",
			players: 2,
			before: `
				.   .   .   .  .
				0   0A  1B  1  .
				0   0   1   1  .
				.   .   .   .  .
				.   .   .   .  .`,
			moves: map[int]string{0: "E", 1: "W"},
			after: `
				.   .   .   .  .
				.   .   .   .  .
				.   .   .   .  .
				.   .   .   .  .
				.   .   .   .  .`,
			kills: []int{1, 1}, over: true, scores: []float64{0, 0}, winner: -1,
		},
		{
			name:    "crossing a trail kills its player",
			players: 2,
			before: `
				.   .   .   .   .
				.   .b  .bB .   .
				.aA .b  .   .   .
				1   1   1   .   .
				.   .   .   .   .`,
			headings: map[int]Dir{0: East},
			moves:    map[int]string{0: "STRAIGHT", 1: "E"},
			after: `
				.   .   .   .   .
				.   .   .   .   .
				.a  .aA .   .   .
				.   .   .   .   .
				.   .   .   .   .`,
			kills: []int{1, 0},
		},
		{
			name:    "coming home the same turn saves the trail",
			players: 2,
			before: `
				.   .   .   .   .
				.   .b  .bB .   .
				0A  .b  1   .   .
				0   1   1   .   .
				.   .   .   .   .`,
			moves: map[int]string{0: "E", 1: "S"},
			after: `
				.   .   .   .   .
				.   1   1   .   .
				0   1aA 1B  .   .
				0   1   1   .   .
				.   .   .   .   .`,
		},
		{
			name:    "onto one's own trail is death",
			players: 2,
			before: `
				.   .   .   .   .
				.   .a  .aA .   .
				.   .a  .   .   .
				0   0   .   .   1B
				.   .   .   .   1`,
			moves: map[int]string{0: "W", 1: "S"},
			after: `
				.   .   .   .   .
				.   .   .   .   .
				.   .   .   .   .
				.   .   .   .   1
				.   .   .   .   1B`,
		},
		{
			name:    "reversing on one's land is fine",
			players: 2,
			before: `
				.   .   .   .   .
				.   0   0A  .   .
				.   0   0   .   .
				.   .   .   .   1B
				.   .   .   .   1`,
			headings: map[int]Dir{0: East},
			moves:    map[int]string{0: "W", 1: "S"},
			after: `
				.   .   .   .   .
				.   0A  0   .   .
				.   0   0   .   .
				.   .   .   .   1
				.   .   .   .   1B`,
		},
		{
			name:    "off the board is death",
			players: 2,
			before: `
				.   .   .   0A  .
				.   .   .   0   .
				.   .   .   .   .
				.   .   .   .   1B
				.   .   .   .   1`,
			moves: map[int]string{1: "S"}, // seat 0 keeps going North
			after: `
				.   .   .   .   .
				.   .   .   .   .
				.   .   .   .   .
				.   .   .   .   1
				.   .   .   .   1B`,
		},
		{
			name:     "LEFT and RIGHT turn from the last move; no Move goes straight",
			players:  3,
			headings: map[int]Dir{0: East, 1: North, 2: West},
			before: `
				.   .   .   .   .
				.   0A  .   .   .
				.   .   .   1B  .
				.   .   2C  .   .
				.   .   .   .   .`,
			moves: map[int]string{0: "LEFT", 1: "right"},
			after: `
				.   .aA .   .   .
				.   0   .   .   .
				.   .   .   1   .bB
				.   .cC 2   .   .
				.   .   .   .   .`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, tc.players, tc.before)
			for seat, d := range tc.headings {
				s.SetHeading(seat, d)
			}
			play(t, s, tc.moves)
			want := mustParse(t, tc.players, tc.after)
			if got, want := s.Draw(), want.Draw(); got != want {
				t.Errorf("after the turn:\n%s\nwant:\n%s", got, want)
			}
			if err := s.check(); err != nil {
				t.Errorf("inconsistent state: %v\n%s", err, s.Render())
			}
			for i := range s.p {
				k := 0
				if tc.kills != nil {
					k = tc.kills[i]
				}
				if s.p[i].kills != k {
					t.Errorf("seat %d has %d kills, want %d", i, s.p[i].kills, k)
				}
			}
			o := s.Outcome()
			if o.Over != tc.over {
				t.Fatalf("Over = %v, want %v (%s)", o.Over, tc.over, o.Reason)
			}
			if tc.over {
				if o.Winner != tc.winner || !equalScores(o.Scores, tc.scores) {
					t.Errorf("outcome %+v, want winner %d scores %v", o, tc.winner, tc.scores)
				}
			}
		})
	}
}

func equalScores(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestForfeitFillsTheLoopItWasIn(t *testing.T) {
	s := mustParse(t, 2, `
		.  .   .   .   .
		.  0   0   0   .
		.  0   1B  0   .
		.  0   0   0A  .
		.  .   .   .   .`)
	s.Forfeit(1)
	want := mustParse(t, 2, `
		.  .   .   .   .
		.  0   0   0   .
		.  0   0   0   .
		.  0   0   0A  .
		.  .   .   .   .`)
	if got, want := s.Draw(), want.Draw(); got != want {
		t.Errorf("after the forfeit:\n%s\nwant:\n%s", got, want)
	}
	if s.Outcome().Over {
		t.Errorf("game over with one player alive: %+v", s.Outcome())
	}
	if got := s.Movers(); len(got) != 1 || got[0] != 0 {
		t.Errorf("Movers() = %v, want [0]", got)
	}
}

func TestScoresAtTheEnd(t *testing.T) {
	// Seat 1 cuts seat 2's trail in the last turn; seat 0 keeps its land.
	s, err := Parse(3, 1, `
		0A  0   .   .   .   .
		0   0   .   .   .   .
		.   .   .   .   .   .
		.   .   .   1   .   .
		.   .   .   1B  .cC .
		.   .   .   .   .c  2`)
	if err != nil {
		t.Fatal(err)
	}
	s.SetHeading(0, South)
	s.SetHeading(1, South)
	play(t, s, map[int]string{0: "S", 1: "E", 2: "N"})
	o := s.Outcome()
	if !o.Over || o.Winner != 1 || !equalScores(o.Scores, []float64{4, KillScore + 2, 0}) {
		t.Fatalf("outcome %+v, want seat 1 winning with %d, seat 0 with 4\n%s", o, KillScore+2, s.Render())
	}
	if !strings.Contains(o.Reason, "turns") {
		t.Errorf("reason %q", o.Reason)
	}
	// The killed player's score of 0 says why; the living ones' need no word.
	if len(o.Notes) != 3 || o.Notes[0] != "" || o.Notes[1] != "" ||
		!strings.HasPrefix(o.Notes[2], "killed in turn 1 (") || !strings.Contains(o.Notes[2], "scores 0") {
		t.Errorf("notes %q, want seat 2's death and nothing else", o.Notes)
	}
}
