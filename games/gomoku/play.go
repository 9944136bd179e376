package gomoku

import (
	"embed"
	"errors"
	"fmt"
	"strings"

	"judge/games"
	"judge/games/grid"
)

// Play implements games.Playable: the board, and "x y" → PlaceSymbol x y.
func (Game) Play(s games.PlaySeat) (games.Plan, error) {
	if s.View == nil || len(s.View.Grids) == 0 {
		return games.Plan{}, errors.New("gomoku: no view of the board")
	}
	view := s.View
	cells := games.GridText(view.Grids[0], nil)
	a, err := s.Asks("MySymbol", "LastMove", "Params")
	if err != nil {
		return games.Plan{}, err
	}
	sym, last, params := a[0], a[1], strings.Fields(a[2])
	var news string
	if last != "-1 -1" {
		news = fmt.Sprintf("%s (%s) played %s.", s.OpponentFirst(), grid.Other(sym), last)
	}
	k := "?"
	if len(params) == 2 {
		k = params[1]
	}
	tail := fmt.Sprintf("You are %s: make %s in a row. A cell is x (the column) then y (the row).", sym, k)
	return games.Plan{News: news, Text: strings.Join(games.DrawGrid(cells, true), "\n") + "\n" + tail,
		Status: fmt.Sprintf("%s: make %s in a row.", grid.SymbolSeats(s, sym), k),
		Help:   "Click a cell, or type x y.",
		Board:  func() games.View { return games.View{Grids: view.Grids, Marks: view.Marks} },
		Steps:  []games.Step{{Prompt: "your move (x y)", Parse: parseMove, Click: games.ClickCell}}}, nil
}

// parseMove reads a person's "x y" as PlaceSymbol x y.
func parseMove(in string) ([]string, error) {
	x, y, err := games.ReadCell(in)
	if err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("PlaceSymbol %d %d", x, y)}, nil
}

// Palette implements games.Painter.
func (Game) Palette() games.Palette { return grid.Palette("#e6c27a") }

// starterFiles are the game's parts of starter bots, one a language.
//
//go:embed starter/*.txt
var starterFiles embed.FS

// Starter implements games.Starter.
func (Game) Starter() games.StarterSpec {
	return games.StarterSpec{Title: "tic-tac-toe and gomoku",
		Queries: []string{"CurrentTurn", "Params", "MySymbol", "MySeat", "LastMove", "SymbolAt 1 1"},
		Example: []string{"PlaceSymbol 1 1"},
		Move:    "PlaceSymbol x y, on an empty cell (x the column, y the row, from 0 at the top left)",
		Code:    games.StarterCode(starterFiles),
		Calls:   "calls {choose_move}: put your strategy there."}
}
