package splix

import (
	"fmt"

	"judge/games"
)

// View implements games.Viewer: the board northern row first, each cell
// its owner | trail<<4 (seat+1, 0 for none), and the living players'
// heads.
func (s *State) View() games.View {
	n := s.n
	g := games.Grid{Name: "board", Kind: games.KindLand, W: n, H: n, Cells: make([]byte, n*n)}
	for y := 0; y < n; y++ {
		row := g.Cells[(n-1-y)*n : (n-y)*n]
		own, tr := s.owner[y*n:(y+1)*n], s.trail[y*n:(y+1)*n]
		for x := range row {
			row[x] = own[x] | tr[x]<<4
		}
	}
	v := games.View{Grids: []games.Grid{g}}
	for j := range s.p {
		p := &s.p[j]
		if p.alive {
			v.Marks = append(v.Marks, games.Mark{X: p.x, Y: n - 1 - p.y, Seat: j, Kind: games.MarkHead})
			v.Seats = append(v.Seats, fmt.Sprintf("at %d %d heading %s, land %d, kills %d, trail %d, score %d",
				p.x, p.y, p.head, p.land, p.kills, len(p.trail), s.Score(j)))
		} else {
			v.Seats = append(v.Seats, fmt.Sprintf("dead in turn %d (%s), kills %d, score 0", p.died, p.death, p.kills))
		}
	}
	return v
}
