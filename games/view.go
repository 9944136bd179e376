package games

// Viewer is implemented by states that can be drawn for spectators as
// data rather than text: a replay viewer draws the grids of View on a
// canvas. Like Render, View may show hidden information and is never sent
// to a bot.
type Viewer interface {
	View() View
}

// GridKinder is a Viewer that tells the kinds of its grids without
// drawing them: a plugin game's View is a call to its referee, and its
// grids are all of one kind.
type GridKinder interface {
	// GridKinds are the kinds of the grids View would give, in no order.
	GridKinds() []string
}

// View is one state as a spectator sees it.
type View struct {
	// Grids are what is drawn, side by side: a board, or one grid per
	// player's waters.
	Grids []Grid
	// Marks are drawn over the grids: the last move, players' heads.
	Marks []Mark
	// Seats holds one line of text per seat, printed beside the grids.
	Seats []string
	// Numbers are per-seat series a viewer charts over the turns, by
	// name: Numbers["discs"][s] is seat s's count now.
	Numbers map[string][]float64 `json:"numbers,omitempty"`
	// Seen, when not nil, is what each seat sees of the same grids, for
	// games with hidden information: Seen[s][g] is grid g as seat s sees
	// it, of the same kind and size as Grids[g].
	Seen [][]Grid
}

// Of is the view as seat sees it: for a game with hidden information
// (Seen), the grids are the seat's, and the other seats' are left out.
func (v View) Of(seat int) View {
	if v.Seen != nil {
		v.Grids, v.Seen = v.Seen[seat], nil
	}
	return v
}

// Grid kinds: how a viewer draws the cells of a grid.
const (
	// KindStones: '-' empty, 'X' seat 0's, 'O' seat 1's (gomoku).
	KindStones = "stones"
	// KindDiscs: as KindStones, on an upright board whose discs fall
	// towards the bottom row (Connect Four).
	KindDiscs = "discs"
	// KindSea: '-' water, 'S' a ship, 'x' a hit, 'o' a miss, '#' a cell of
	// a sunk ship (Battleship).
	KindSea = "sea"
	// KindLand: a cell is owner | trail<<4, each 0 for none or seat+1
	// (Splix).
	KindLand = "land"
)

// Grid is a rectangle of cells, one byte each, whose meaning Kind gives.
type Grid struct {
	Name  string
	Kind  string
	W, H  int
	Cells []byte // row-major, the top row first: Cells[row*W+col]
}

// Mark kinds.
const (
	MarkLast = "last" // the cell of the last move
	MarkHead = "head" // a player's head
)

// Mark is a cell of a grid to draw over: X is the column from the left,
// Y the row from the top.
type Mark struct {
	Grid int    `json:"g"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
	Seat int    `json:"seat"`
	Kind string `json:"kind"`
}
