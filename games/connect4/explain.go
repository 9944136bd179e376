package connect4

import (
	"fmt"
	"strings"

	"judge/games"
	"judge/games/grid"
)

// Explain implements games.Explainer: after a move that leaves the
// opponent a winning drop — a threat not blocked, or a disc the opponent
// can win on top of — it says so, with the column.
func (s *State) Explain() []games.Note {
	if s.out.Over || s.placed == 0 {
		return nil
	}
	them := s.ToMove()
	me := 1 - them
	b := s.board.Clone()
	var cols []int
	for c := 0; c < s.w; c++ {
		if s.winsAt(b, them, c) {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	var text string
	if mine := s.last[me]; len(cols) == 1 && cols[0] == mine {
		text = fmt.Sprintf("seat %d's disc in column %d let seat %d win on top of it", me, mine, them)
	} else {
		text = fmt.Sprintf("seat %d did not block seat %d's threat: a disc of seat %d in %s makes %d in a row", me, them, them, columns(cols), s.k)
	}
	return []games.Note{{Seat: me, Kind: games.NoteThreat, Text: text}}
}

// winsAt reports whether a disc of seat dropped into col would make k in
// a row on b, a copy of the state's board, which it leaves as it was.
func (s *State) winsAt(b grid.Board, seat, col int) bool {
	if !s.CanDrop(col) {
		return false
	}
	y := s.h - 1 - s.filled[col]
	b.Set(col, y, byte(Symbol(seat)))
	win := b.LineThrough(col, y, s.k)
	b.Set(col, y, byte(Empty))
	return win
}

func columns(cols []int) string {
	if len(cols) == 1 {
		return fmt.Sprintf("column %d", cols[0])
	}
	s := make([]string, len(cols))
	for i, c := range cols {
		s[i] = fmt.Sprint(c)
	}
	return "columns " + strings.Join(s, ", ")
}
