package grid

import (
	"fmt"

	"judge/games"
)

// Other is the symbol of the other seat of a game of X and O.
func Other(sym string) string {
	if sym == "X" {
		return "O"
	}
	return "X"
}

// SymbolSeats says who plays which symbol, and in which colour, in a
// game of X and O: "You are X (red), against NAME (O, blue)".
func SymbolSeats(s games.PlaySeat, sym string) string {
	me, them := s.Seat, 1-s.Seat
	if sym == "X" && me != 0 || sym == "O" && me != 1 {
		me, them = them, me // a seat that is not its symbol's
	}
	return fmt.Sprintf("You are %s (%s), against %s (%s, %s)", sym, games.SeatColour(me), s.Opponent(), Other(sym), games.SeatColour(them))
}

// Palette is how a board of X and O is drawn: X and O in their seats'
// colours on empty cells of the colour empty.
func Palette(empty string) games.Palette {
	return games.Palette{
		Empty: {Glyph: "-", Colour: empty},
		'X':   {Glyph: "X", Colour: games.SeatColourHex[0]},
		'O':   {Glyph: "O", Colour: games.SeatColourHex[1]},
	}
}
