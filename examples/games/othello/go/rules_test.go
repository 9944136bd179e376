package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// board makes a state from rows drawn as text, black to move unless the
// seat says otherwise.
func board(seat int, rows ...string) *state {
	s := newState(len(rows))
	s.cells = []byte(strings.Join(rows, ""))
	s.toMove = seat
	return s
}

func TestLegalAndPlace(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seat  int
		rows  []string
		legal string // Legal's answer
		place string // a move, then the board after it
		after []string
	}{
		{
			name: "start", seat: 0,
			rows:  []string{"....", ".WB.", ".BW.", "...."},
			legal: "4 1 0 0 1 3 2 2 3",
			place: "Place 1 0",
			after: []string{".B..", ".BB.", ".BW.", "...."},
		},
		{
			name: "several lines at once", seat: 1,
			rows:  []string{"W.W.", ".BB.", "WB..", "...."},
			legal: "1 2 2",
			place: "Place 2 2",
			after: []string{"W.W.", ".WW.", "WWW.", "...."},
		},
		{
			name: "a long line to the edge", seat: 0,
			rows:  []string{"BWWWWW", "......", "......", "......", "......", "......"},
			legal: "0",
		},
		{
			name: "white has no move: it must pass", seat: 1,
			rows:  []string{"BBBB", "BBBB", "BBB.", "BBB."},
			legal: "0",
			place: "Pass",
			after: []string{"BBBB", "BBBB", "BBB.", "BBB."},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := board(tc.seat, tc.rows...)
			if got, _ := s.query(tc.seat, "Legal"); got != tc.legal {
				t.Errorf("Legal = %q, want %q", got, tc.legal)
			}
			if tc.place == "" {
				return
			}
			if why := s.play(tc.seat, []string{tc.place}); why != "" {
				t.Fatalf("%s refused: %s", tc.place, why)
			}
			if got := strings.Join(s.rows(), "\n"); got != strings.Join(tc.after, "\n") {
				t.Errorf("after %s:\n%s\nwant\n%s", tc.place, got, strings.Join(tc.after, "\n"))
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	s := board(0, "....", ".WB.", ".BW.", "....")
	for line, want := range map[string]string{
		"Place 0 0":   "(0,0) turns over no disc",
		"Place 1 1":   "(1,1) is taken",
		"Place 4 0":   "(4,0) is off the 4x4 board",
		"Place -1 0":  "(-1,0) is off the 4x4 board",
		"Place x 0":   "x and y must be whole numbers",
		"Place 2":     "want Place x y, got 1 words after Place",
		"Pass":        "a Place is legal: Pass only when none is",
		"Pass now":    "Pass takes no arguments",
		"PlaceSymbol": `"PlaceSymbol" is not a command (commands: Place, Pass)`,
	} {
		_, _, why := s.check(0, line)
		if why != want {
			t.Errorf("%s: %q, want %q", line, why, want)
		}
	}
}

// TestEnd: the game ends when neither seat can move, and more discs win.
func TestEnd(t *testing.T) {
	s := board(0, "BBBB", "BBBB", "BBWW", "BBW.")
	if why := s.play(0, []string{"Place 3 3"}); why != "" {
		t.Fatal(why)
	}
	if !s.over || s.winner != 0 || s.reason != "black has more discs, 16 to 0" {
		t.Errorf("over %v, winner %d, reason %q", s.over, s.winner, s.reason)
	}
}

// FuzzHandle: no request line, however broken, makes the referee panic
// or answer anything but one JSON object.
func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		`{"op":"query","seat":0,"line":"Board"}`, `{"op":"command","seat":1,"line":"Place 3 2"}`,
		`{"op":"apply","moves":[{"seat":0,"move":["Place 3 2"]}]}`, `{"op":"moves","seat":7}`,
		`{"op":"new","params":{"size":-4}}`, `{"op":"commit"}`, `[1,2]`, `{"op":"apply","moves":[{"move":[]}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r := &referee{}
		r.handle([]byte(`{"op":"new","params":{"size":6},"seed":1}`))
		for range 3 {
			b, err := json.Marshal(r.handle([]byte(line)))
			if err != nil || !strings.HasPrefix(string(b), "{") || strings.Contains(string(b), "\n") {
				t.Fatalf("%q: answered %s, %v", line, b, err)
			}
		}
		if r.s != nil && len(r.s.cells) != r.s.n*r.s.n {
			t.Fatalf("%q: a board of %d cells", line, len(r.s.cells))
		}
	})
}
