package splix

import (
	"testing"

	"judge/games"
)

// TestView: each cell is its owner | trail<<4 as the Board and Trails
// queries draw them, and the living heads are marked in grid rows (the
// northern row first).
func TestView(t *testing.T) {
	s, err := Parse(2, 10, `
		.   .   .   .
		.   0   .a  .aA
		.   1B  1   .
		.   .   .   .`)
	if err != nil {
		t.Fatal(err)
	}
	v := s.View()
	g := v.Grids[0]
	if g.W != 4 || g.H != 4 || g.Kind != games.KindLand {
		t.Fatalf("grid %+v", g)
	}
	want := []byte{
		0, 0, 0, 0,
		0, 1, 1 << 4, 1 << 4,
		0, 2, 2, 0,
		0, 0, 0, 0,
	}
	if string(g.Cells) != string(want) {
		t.Errorf("cells %v, want %v", g.Cells, want)
	}
	marks := []games.Mark{{X: 3, Y: 1, Seat: 0, Kind: games.MarkHead}, {X: 1, Y: 2, Seat: 1, Kind: games.MarkHead}}
	if len(v.Marks) != 2 || v.Marks[0] != marks[0] || v.Marks[1] != marks[1] {
		t.Errorf("marks %+v, want %+v", v.Marks, marks)
	}
}
