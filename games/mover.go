package games

// Mover is implemented by states that can list every legal move of a
// seat: random play (`judge game check`) draws from it, and so may a
// person's play. Moves is empty for a seat that does not move now. A game
// that wants a turn from a seat with nothing to play lists its pass
// command as that seat's one move. Moves only reads the state.
type Mover interface {
	Moves(seat int) []Move
}

// MultiLine is implemented by states that say which of their queries may
// answer several lines; every other query's answer is one line. A plugin
// game declares it in game.toml (a query's lines = "many").
type MultiLine interface {
	MultiLine(query string) bool
}
