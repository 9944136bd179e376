package gomoku_test

import (
	"testing"

	"judge/games"
	"judge/games/gomoku"
)

// A move that leaves the opponent's line one stone from winning is
// named; one that blocks it is not.
func TestExplainThreat(t *testing.T) {
	s, err := gomoku.Parse(3, `
		X X -
		O - -
		- - -`)
	if err != nil {
		t.Fatal(err)
	}
	s.Place(2, 2) // O does not block
	notes := s.Explain()
	want := "seat 1 did not block seat 0's threat: a stone of seat 0 at (2, 0) makes 3 in a row"
	if len(notes) != 1 || notes[0].Text != want || notes[0].Seat != 1 || notes[0].Kind != games.NoteThreat {
		t.Errorf("notes %+v, want %q", notes, want)
	}
	s, _ = gomoku.Parse(3, `
		X X -
		O - -
		- - -`)
	s.Place(2, 0) // O blocks
	if notes := s.Explain(); len(notes) != 0 {
		t.Errorf("after a block: %+v", notes)
	}
}
