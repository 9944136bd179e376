package games

// Starter is implemented by games that `judge new-bot` writes starter
// bots for.
type Starter interface {
	Starter() StarterSpec
}

// StarterSpec is what a starter bot of a game needs to be written.
type StarterSpec struct {
	// Title names the game in the starter's first line: "Connect Four".
	Title string
	// Queries are the queries a starter asks every turn, as it writes
	// them: "Board", "SymbolAt 7 7".
	Queries []string
	// Move is one line saying what a legal move is, as a command:
	// "DropDisc c, c a column that is not full".
	Move string
	// Calls says which functions of the starter hold its strategy, their
	// names in braces and snake case ("calls {choose_move}: put your
	// strategy there."); each language writes a name its own way.
	Calls string
}
