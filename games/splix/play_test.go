package splix

import (
	"testing"

	"judge/games"
)

// A person sees the View query's square: land and trails as the game's
// own view has them, heads as marks.
func TestPersonViewBoard(t *testing.T) {
	b := viewBoard("#.b\n#B1\n#10")
	if len(b.Marks) != 1 || b.Marks[0] != (games.Mark{X: 1, Y: 1, Seat: 1, Kind: games.MarkHead}) {
		t.Errorf("splix's heads: %+v", b.Marks)
	}
	if g := b.Grids[0]; string(g.Cells) != "\x00\x00\x20\x00\x00\x02\x00\x02\x01" {
		t.Errorf("cells %q", g.Cells)
	}
}
