package gomoku_test

import (
	"strings"
	"testing"

	"judge/games"
	"judge/games/gomoku"
)

// TestView: the view's cells are the Board query's, and the last symbol
// placed is marked with its seat.
func TestView(t *testing.T) {
	s := gomoku.New(3, 3)
	for _, m := range [][2]int{{1, 1}, {0, 2}, {2, 0}} {
		s.Place(m[0], m[1])
	}
	v := s.View()
	board, _ := s.Query(0, games.ParseLine("Board"))
	if got, want := string(v.Grids[0].Cells), strings.NewReplacer(" ", "", "\n", "").Replace(board); got != want {
		t.Errorf("cells %q, want %q", got, want)
	}
	if want := []games.Mark{{X: 2, Y: 0, Seat: 0, Kind: games.MarkLast}}; len(v.Marks) != 1 || v.Marks[0] != want[0] {
		t.Errorf("marks %+v, want %+v", v.Marks, want)
	}
	if v.Grids[0].Kind != games.KindStones || v.Grids[0].W != 3 || v.Grids[0].H != 3 {
		t.Errorf("grid %+v", v.Grids[0])
	}
}
