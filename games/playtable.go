package games

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// PlayTable is a person's play as data (a game folder's [play] table):
// a game whose turns need no more than this plays through Plan.
type PlayTable struct {
	// Prompt is the question asked each turn: "Place x y, or Pass".
	Prompt string
	// Click is the command a click on cell (x, y) of grid 0 makes, or a
	// typed "x y", with {x} and {y} in place of the numbers:
	// "Place {x} {y}"; "" when a click makes none.
	Click string
	// Keys are commands by key: a key pressed (or typed alone) makes its
	// command.
	Keys map[string]string
}

// Plan lays out a turn of s by the table: the seat's view (its grids
// drawn with the glyphs of p, its seats' lines), and one question whose
// answer is a key of Keys, a cell for Click, or a command as typed.
func (t PlayTable) Plan(s PlaySeat, p Palette) (Plan, error) {
	var text strings.Builder
	var v View
	if s.View != nil {
		v = View{Grids: s.View.Grids, Marks: s.View.Marks, Seats: s.View.Seats}
	}
	for _, g := range v.Grids {
		if g.Name != "" {
			text.WriteString(g.Name + "\n")
		}
		text.WriteString(strings.Join(DrawGrid(GridText(g, p), true), "\n") + "\n")
	}
	for i, l := range v.Seats {
		fmt.Fprintf(&text, "seat %d: %s\n", i, l)
	}
	status := fmt.Sprintf("You are seat %d (%s).", s.Seat, SeatColour(s.Seat))
	if len(s.Opponents) == 1 {
		status = fmt.Sprintf("You are seat %d (%s), against %s.", s.Seat, SeatColour(s.Seat), s.Opponent())
	}
	text.WriteString(status)
	st := Step{Prompt: t.Prompt, Parse: t.parse}
	switch {
	case t.Click != "":
		st.Click = ClickCell
	case len(t.Keys) > 0:
		st.Key = true
	}
	pl := Plan{Text: text.String(), Status: status, Help: t.help(), Steps: []Step{st}}
	if len(v.Grids) > 0 {
		pl.Board = func() View { return v }
	}
	return pl, nil
}

// help says how to answer: "Click a cell, or type x y; p: Pass; or type a
// command."
func (t PlayTable) help() string {
	var how []string
	if t.Click != "" {
		how = append(how, "Click a cell, or type x y")
	}
	for _, k := range slices.Sorted(maps.Keys(t.Keys)) {
		how = append(how, fmt.Sprintf("%s: %s", k, t.Keys[k]))
	}
	return strings.Join(append(how, "or type a command."), "; ")
}

// parse makes a person's answer a command.
func (t PlayTable) parse(in string) ([]string, error) {
	if c, ok := t.Keys[in]; ok {
		return []string{c}, nil
	}
	if t.Click != "" {
		if x, y, err := ReadCell(in); err == nil {
			r := strings.NewReplacer("{x}", strconv.Itoa(x), "{y}", strconv.Itoa(y))
			return []string{r.Replace(t.Click)}, nil
		}
		// A click that makes a column's command ("DropDisc {x}") is
		// typed as the column alone.
		if x, err := strconv.Atoi(strings.TrimSpace(in)); err == nil && !strings.Contains(t.Click, "{y}") {
			return []string{strings.ReplaceAll(t.Click, "{x}", strconv.Itoa(x))}, nil
		}
	}
	if in == "" {
		var how []string
		if t.Click != "" {
			how = append(how, "a cell, x then y, such as 1 2")
		}
		for _, k := range slices.Sorted(maps.Keys(t.Keys)) {
			how = append(how, fmt.Sprintf("%s (%s)", k, t.Keys[k]))
		}
		how = append(how, "a command")
		return nil, errors.New("type " + strings.Join(how, ", or "))
	}
	return []string{in}, nil
}
