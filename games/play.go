package games

import (
	"fmt"
	"strconv"
	"strings"
)

// Playable is implemented by games a person can play (judge play, in a
// terminal or a browser). A person's seat sees what a bot's sees: Play
// lays out one turn from the answers to the seat's queries and the
// seat's view, and says how the person's answers become commands.
type Playable interface {
	Play(s PlaySeat) (Plan, error)
}

// PlaySeat is what a person's turn is laid out from.
type PlaySeat struct {
	Seat   int    // the person's seat, from 0
	Seats  int    // how many there are
	Params Params // the game's resolved parameters
	// Opponents are the other seats' names, in seat order.
	Opponents []string
	// View is the seat's view of the game (View.Of), nil for a game that
	// is not a Viewer.
	View *View
	// Ask asks a query as the seat's bot would, and returns its answer.
	Ask func(query string) (string, error)
	// IntN, when set, draws a number in [0, n) for what the person
	// leaves to chance (a fleet placed at random).
	IntN func(n int) int
}

// Asks asks several queries and returns their answers, in order.
func (s PlaySeat) Asks(queries ...string) ([]string, error) {
	out := make([]string, len(queries))
	for i, q := range queries {
		a, err := s.Ask(q)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// Opponent is the name of the other seat of a two-seat game, or "the
// opponent".
func (s PlaySeat) Opponent() string {
	for _, o := range s.Opponents {
		return o
	}
	return "the opponent"
}

// OpponentFirst is Opponent at the start of a sentence.
func (s PlaySeat) OpponentFirst() string {
	if len(s.Opponents) == 0 {
		return "The opponent"
	}
	return s.Opponent()
}

// Plan is one turn of a person: what to show, and the questions whose
// answers make the turn's commands.
type Plan struct {
	// News is what happened since the seat's last turn (the opponent's
	// move): shown once, not again when a refused move is asked again.
	News string
	// Text is the turn drawn as text, with what it says, for a console
	// that does not draw.
	Text string
	// Status is what a console that draws shows with the drawing, in
	// place of Text: who the person is and the state of the game.
	Status string
	// Help says in one line how to answer on a page that draws: what a
	// click or a key does, what may be typed.
	Help string
	// Board, when set, is the turn's drawing (grids and marks) for a
	// console that draws. It is called before each step: a placement
	// grows as it is answered.
	Board func() View
	Steps []Step
}

// Step is one question to the person.
type Step struct {
	Prompt string
	// Parse turns the answer (typed, a key, or made by clicks) into
	// commands, or says why it is no move.
	Parse func(in string) ([]string, error)
	// After, when set, is shown once the answer was taken (a preview),
	// on a console that does not draw.
	After func() string
	// Key: one key press is an answer, on consoles that read keys.
	Key bool
	// Click says what a click on the drawn board answers: ClickCell,
	// ClickColumn, ClickShip or "" (nothing); on grid Grid.
	Click string
	Grid  int
	// Skip, when set and true, leaves the step out: an earlier answer
	// made its commands too (a fleet placed at random).
	Skip func() bool
}

// What a click on a drawn board answers (Step.Click).
const (
	ClickCell   = "cell"   // "x y"
	ClickColumn = "column" // "x"
	ClickShip   = "ship"   // two clicks, a ship's ends: "x1,y1-x2,y2"
)

// SeatColours name the colours seats are drawn in, seat by seat (the
// replay viewer's).
var SeatColours = []string{"red", "blue", "green", "orange", "purple"}

// SeatColourHex are SeatColours as the viewer paints them.
var SeatColourHex = []string{"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd"}

// SeatColour names seat's colour.
func SeatColour(seat int) string { return SeatColours[seat%len(SeatColours)] }

// ReadCell reads a cell a person typed, "x y" or "x,y", and says what
// is wrong with anything else.
func ReadCell(in string) (x, y int, err error) {
	f := strings.FieldsFunc(in, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("%q is not a cell: type two numbers, x (the column) then y (the row), such as 1 2", in)
	}
	x, err1 := strconv.Atoi(f[0])
	y, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q is not a cell: x and y are whole numbers, such as 1 2", in)
	}
	return x, y, nil
}

// GridText is grid g's cells as DrawGrid takes them, each cell the glyph
// p gives it (its character when p has none).
func GridText(g Grid, p Palette) [][]string {
	out := make([][]string, g.H)
	for y := range out {
		out[y] = make([]string, g.W)
		for x := range out[y] {
			out[y][x] = p.Glyph(g.Cells[y*g.W+x])
		}
	}
	return out
}

// DrawGrid draws rows of cells under their column numbers, each row
// after its number (top row 0) when rowNums.
func DrawGrid(cells [][]string, rowNums bool) []string {
	wide := 0
	for _, r := range cells {
		wide = max(wide, len(r))
	}
	w := max(len(strconv.Itoa(max(wide, len(cells))-1)), 1)
	margin := ""
	if rowNums {
		margin = strings.Repeat(" ", w+2)
	}
	var b strings.Builder
	b.WriteString(margin)
	for x := range wide {
		fmt.Fprintf(&b, "%*d ", w, x)
	}
	out := []string{strings.TrimRight(b.String(), " ")}
	for y, r := range cells {
		b.Reset()
		if rowNums {
			fmt.Fprintf(&b, "%*d  ", w, y)
		}
		for _, c := range r {
			fmt.Fprintf(&b, "%*s ", w, c)
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

// SideBySide puts two drawings next to each other, with their titles.
func SideBySide(t1 string, a []string, t2 string, b []string) string {
	wide := len(t1)
	for _, l := range a {
		wide = max(wide, len(l))
	}
	a = append([]string{t1}, a...)
	b = append([]string{t2}, b...)
	var out strings.Builder
	for i := range max(len(a), len(b)) {
		var l, r string
		if i < len(a) {
			l = a[i]
		}
		if i < len(b) {
			r = b[i]
		}
		fmt.Fprintf(&out, "%-*s    %s\n", wide, l, r)
	}
	return strings.TrimRight(out.String(), "\n")
}
