package gomoku

import (
	"fmt"

	"judge/games"
)

// View implements games.Viewer: the board, the last symbol placed marked.
func (s *State) View() games.View {
	v := games.View{
		Grids: []games.Grid{{Name: "board", Kind: games.KindStones, W: s.n, H: s.n, Cells: []byte(s.board.Key())}},
	}
	if s.turn > 1 {
		seat := (s.turn - 2) % 2
		if m := s.last[seat]; m[0] >= 0 {
			v.Marks = []games.Mark{{X: m[0], Y: m[1], Seat: seat, Kind: games.MarkLast}}
		}
	}
	counts := [2]int{}
	for _, c := range v.Grids[0].Cells {
		switch Cell(c) {
		case X:
			counts[0]++
		case O:
			counts[1]++
		}
	}
	for seat := 0; seat < 2; seat++ {
		v.Seats = append(v.Seats, fmt.Sprintf("%c, %d on the board", Symbol(seat), counts[seat]))
	}
	return v
}
