package human

import (
	"math/rand/v2"

	"judge/games"
	"judge/judge"
)

// playSeat is the person's seat as the game lays out a turn: q asks the
// queries, v is the seat's view of the game (nil for a game that is not
// a games.Viewer).
func playSeat(q Querier, s judge.Seat, v *games.View) games.PlaySeat {
	return games.PlaySeat{Seat: s.Index, Seats: s.Seats, Params: s.Params, Opponents: s.Opponents,
		View: v, Ask: q.Ask, IntN: rand.IntN}
}

// seatColors name the colours the boards are drawn in, seat by seat (the
// replay viewer's; TestSeatColors holds them to it).
var seatColors = games.SeatColours

// colorOf names seat's colour.
func colorOf(seat int) string { return games.SeatColour(seat) }
