package connect4_test

import (
	"strings"
	"testing"

	"judge/games"
	"judge/games/connect4"
)

// TestView: the view's cells are the Board query's, and the last disc is
// marked where it fell.
func TestView(t *testing.T) {
	s := connect4.New(7, 6, 4)
	for _, col := range []int{3, 3, 4} {
		s.Drop(col)
	}
	v := s.View()
	board, _ := s.Query(0, games.ParseLine("Board"))
	if got, want := string(v.Grids[0].Cells), strings.NewReplacer(" ", "", "\n", "").Replace(board); got != want {
		t.Errorf("cells %q, want %q", got, want)
	}
	if want := (games.Mark{X: 4, Y: 5, Seat: 0, Kind: games.MarkLast}); len(v.Marks) != 1 || v.Marks[0] != want {
		t.Errorf("marks %+v, want %+v", v.Marks, want)
	}
	s.Drop(3)
	if want := (games.Mark{X: 3, Y: 3, Seat: 1, Kind: games.MarkLast}); s.View().Marks[0] != want {
		t.Errorf("marks %+v, want %+v", s.View().Marks, want)
	}
}
