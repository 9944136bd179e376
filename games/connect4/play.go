package connect4

import (
	"embed"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"judge/games"
	"judge/games/grid"
)

// Play implements games.Playable: the board, and a column → DropDisc c.
func (Game) Play(s games.PlaySeat) (games.Plan, error) {
	if s.View == nil || len(s.View.Grids) == 0 {
		return games.Plan{}, errors.New("connect4: no view of the board")
	}
	view := s.View
	cells := games.GridText(view.Grids[0], nil)
	a, err := s.Asks("MySymbol", "LastMove")
	if err != nil {
		return games.Plan{}, err
	}
	sym, last := a[0], a[1]
	var news string
	if last != "-1" {
		news = fmt.Sprintf("%s (%s) dropped a disc in column %s.", s.OpponentFirst(), grid.Other(sym), last)
	}
	k := "four"
	if n, ok := s.Params["k"]; ok && n != 4 {
		k = strconv.Itoa(n)
	}
	return games.Plan{News: news, Text: strings.Join(games.DrawGrid(cells, false), "\n") + "\n" + fmt.Sprintf("You are %s.", sym),
		Status: fmt.Sprintf("%s: %s in a row wins.", grid.SymbolSeats(s, sym), k),
		Help:   "Click a column, or type its number.",
		Board:  func() games.View { return games.View{Grids: view.Grids, Marks: view.Marks} },
		Steps:  []games.Step{{Prompt: "your column", Parse: parseMove, Click: games.ClickColumn}}}, nil
}

// parseMove reads a person's column as DropDisc c.
func parseMove(in string) ([]string, error) {
	c, err := strconv.Atoi(in)
	if err != nil {
		return nil, fmt.Errorf("%q is not a column: type its number, such as 3", in)
	}
	return []string{fmt.Sprintf("DropDisc %d", c)}, nil
}

// Palette implements games.Painter: discs in holes of an upright board.
func (Game) Palette() games.Palette { return grid.Palette("#f4f4f4") }

// starterFiles are the game's parts of starter bots, one a language.
//
//go:embed starter/*.txt
var starterFiles embed.FS

// Starter implements games.Starter.
func (Game) Starter() games.StarterSpec {
	return games.StarterSpec{Title: "Connect Four",
		Queries: []string{"CurrentTurn", "Params", "MySymbol", "MySeat", "LastMove", "SymbolAt 0 0", "Heights"},
		Example: []string{"DropDisc 3"},
		Move:    "DropDisc c, c a column that is not full (from 0 at the left)",
		Code:    games.StarterCode(starterFiles),
		Calls:   "calls {choose_move}: put your strategy there."}
}
