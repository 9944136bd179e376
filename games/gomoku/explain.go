package gomoku

import (
	"fmt"
	"strings"

	"judge/games"
)

// Explain implements games.Explainer: after a move that leaves the
// opponent a line one stone from winning, not blocked, it says so, with
// the cells that would win.
func (s *State) Explain() []games.Note {
	if s.out.Over || s.placed == 0 {
		return nil
	}
	them := s.ToMove()
	me := 1 - them
	b := s.board.Clone()
	var cells []string
	for y := 0; y < s.n; y++ {
		for x := 0; x < s.n; x++ {
			if Cell(b.At(x, y)) != Empty {
				continue
			}
			b.Set(x, y, byte(Symbol(them)))
			if b.LineThrough(x, y, s.k) {
				cells = append(cells, fmt.Sprintf("(%d, %d)", x, y))
			}
			b.Set(x, y, byte(Empty))
		}
	}
	if len(cells) == 0 {
		return nil
	}
	where := cells[0]
	if len(cells) > 1 {
		where = "any of " + strings.Join(cells[:min(len(cells), 4)], ", ")
		if len(cells) > 4 {
			where += ", …"
		}
	}
	return []games.Note{{Seat: me, Kind: games.NoteThreat,
		Text: fmt.Sprintf("seat %d did not block seat %d's threat: a stone of seat %d at %s makes %d in a row", me, them, them, where, s.k)}}
}
