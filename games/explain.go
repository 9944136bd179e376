package games

// Explainer is implemented by states that can name what a turn did
// towards the end of the game: the threat left open, the ship sunk, the
// player killed. A judge replaying a game asks after every turn's Apply;
// the answer is about the turn just applied. Explain only reads the
// state.
type Explainer interface {
	Explain() []Note
}

// Note is one thing a turn did that may decide a game.
type Note struct {
	// Seat is the seat the note is about: the one that left a threat
	// open, sank a ship, died; -1 for none.
	Seat int
	// Kind names the note's kind, for a reader that keeps some of them:
	// NoteThreat, NoteSunk, NoteDeath.
	Kind string
	// Text says it in words, seats as "seat N", as a game's reasons do.
	Text string
}

// Note kinds.
const (
	// NoteThreat: after the seat's move its opponent could win at once.
	// Only the last of a seat's matters: the one the opponent took.
	NoteThreat = "threat"
	// NoteSunk: the seat sank a ship.
	NoteSunk = "sunk"
	// NoteDeath: the seat died.
	NoteDeath = "death"
)
