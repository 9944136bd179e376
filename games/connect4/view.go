package connect4

import (
	"fmt"

	"judge/games"
)

// View implements games.Viewer: the board, the last disc dropped marked.
func (s *State) View() games.View {
	v := games.View{
		Grids: []games.Grid{{Name: "board", Kind: games.KindDiscs, W: s.w, H: s.h, Cells: []byte(s.board.Key())}},
	}
	if s.turn > 1 {
		seat := (s.turn - 2) % 2
		if col := s.last[seat]; col >= 0 && s.filled[col] > 0 {
			v.Marks = []games.Mark{{X: col, Y: s.h - s.filled[col], Seat: seat, Kind: games.MarkLast}}
		}
	}
	for seat := 0; seat < 2; seat++ {
		n := 0
		for _, c := range v.Grids[0].Cells {
			if Cell(c) == Symbol(seat) {
				n++
			}
		}
		v.Seats = append(v.Seats, fmt.Sprintf("%c, %d discs dropped", Symbol(seat), n))
	}
	return v
}
