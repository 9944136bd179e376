package battleship

import (
	"fmt"

	"judge/games"
)

// Explain implements games.Explainer: a shot that sank a ship says so,
// with the ship and how many of the fleet are sunk.
func (s *State) Explain() []games.Note {
	if s.turn < 3 {
		return nil // the placement, or nothing yet
	}
	seat := (s.turn - 3) % 2 // who fired the turn just played
	shots := s.shots[seat]
	if len(shots) == 0 {
		return nil
	}
	last := shots[len(shots)-1]
	if last.Result != Sunk || last.Wasted {
		return nil
	}
	sea := &s.seas[1-seat]
	ship := sea.ships[sea.owner[last.Y*s.w+last.X]]
	sunk, all := len(sea.ships)-sea.afloat, len(sea.ships)
	var which string
	switch {
	case sea.afloat == 0:
		which = "the last of its fleet"
	case sunk == 1:
		which = fmt.Sprintf("the first of its %d", all)
	default:
		which = fmt.Sprintf("%d of its %d sunk", sunk, all)
	}
	return []games.Note{{Seat: seat, Kind: games.NoteSunk,
		Text: fmt.Sprintf("seat %d sank seat %d's ship of %d at (%d, %d): %s", seat, 1-seat, ship.Len, last.X, last.Y, which)}}
}
