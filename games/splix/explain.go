package splix

import (
	"fmt"

	"judge/games"
)

// Explain implements games.Explainer: each player that died in the turn
// just played, and how (its trail cut by whom, off the board, head-on).
func (s *State) Explain() []games.Note {
	var notes []games.Note
	for i, p := range s.p {
		if !p.alive && p.died == s.turn-1 {
			notes = append(notes, games.Note{Seat: i, Kind: games.NoteDeath, Text: fmt.Sprintf("seat %d died: %s", i, p.death)})
		}
	}
	return notes
}
