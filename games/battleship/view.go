package battleship

import (
	"fmt"

	"judge/games"
)

// View implements games.Viewer: both players' waters with every ship and
// shot, the last shot marked; Seen holds what each seat knows: its own
// waters as MyBoard answers, the enemy's as Board does.
func (s *State) View() games.View {
	v := games.View{Seen: make([][]games.Grid, 2)}
	for p := 0; p < 2; p++ {
		v.Grids = append(v.Grids, s.sea(fmt.Sprintf("seat %d's waters", p), s.seas[p].spectator))
	}
	for seat := 0; seat < 2; seat++ {
		for p := 0; p < 2; p++ {
			cell := s.seas[p].mine
			if p != seat {
				cell = s.seas[p].theirs
			}
			v.Seen[seat] = append(v.Seen[seat], s.sea(v.Grids[p].Name, cell))
		}
	}
	if s.turn > 2 {
		seat := (s.turn - 3) % 2
		if sh := s.shots[seat]; len(sh) > 0 && !sh[len(sh)-1].Wasted {
			last := sh[len(sh)-1]
			v.Marks = []games.Mark{{Grid: 1 - seat, X: last.X, Y: last.Y, Seat: seat, Kind: games.MarkLast}}
		}
	}
	for p := 0; p < 2; p++ {
		v.Seats = append(v.Seats, fmt.Sprintf("%d shots, %d ship cells hit, %d of %d ships afloat",
			len(s.shots[p]), s.seas[1-p].hitCells, s.seas[p].afloat, len(s.seas[p].ships)))
	}
	return v
}

func (s *State) sea(name string, cell func(i int) byte) games.Grid {
	g := games.Grid{Name: name, Kind: games.KindSea, W: s.w, H: s.h, Cells: make([]byte, s.w*s.h)}
	for i := range g.Cells {
		g.Cells[i] = cell(i)
	}
	return g
}
