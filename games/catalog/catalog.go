// Package catalog lists the games the judge knows, under the names people
// use for them (a game with preset parameters, like tictactoe for gomoku
// with n = 3, k = 3, is a variant of its own).
package catalog

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"judge/games"
	"judge/games/battleship"
	"judge/games/connect4"
	"judge/games/gomoku"
	"judge/games/splix"
)

// Variant is a game under a name, with preset parameters.
type Variant struct {
	Name   string
	Game   games.Game
	Params games.Params // presets; other parameters take the game's defaults
	// Fixed variants are a contest's setup: Resolve refuses to change a
	// preset (restating one is harmless) or to set any other parameter.
	Fixed bool
	// Turn and FirstTurn, when set, are the variant's time limits where
	// the configuration and the flags give none: a contest's own.
	Turn, FirstTurn time.Duration
	// Dir is a plugin game's folder; "" for a built-in game.
	Dir string
}

var variants = []Variant{
	{Name: "tictactoe", Game: gomoku.Game{}, Params: games.Params{"n": 3, "k": 3}},
	{Name: "gomoku", Game: gomoku.Game{}, Params: games.Params{"n": 15, "k": 5}},
	{Name: "connect4", Game: connect4.Game{}, Params: games.Params{"width": 7, "height": 6, "k": 4}},
	// The classic fleet, lengths 5, 4, 3, 3, 2 on 10×10; any parameter
	// may be changed.
	{Name: "battleship", Game: battleship.Game{}, Params: games.Params{
		"width": 10, "height": 10, "ship1": 0, "ship2": 1, "ship3": 2, "ship4": 1, "ship5": 1, "ship6": 0}},
	// botsarena's game: its example request's values as defaults, within
	// its ranges (width and height 1..100, 0..10 ships of each length 1..6);
	// its act.php's rules: no cap on the shots, sunk ships gone.
	{Name: "battleship-botsarena", Game: battleship.Game{Botsarena: true}, Params: games.Params{
		"width": 10, "height": 10, "ship1": 0, "ship2": 1, "ship3": 2, "ship4": 1, "ship5": 1, "ship6": 0}},
	// The Ruby contest's game: 10×10, lengths 5, 4, 3, 3, 2, nothing else;
	// shots judged as its runner judges them. Its runner had no time
	// limit: a minute a turn is never reached by a player that answers
	// (the slowest known turn takes 5 s of CPU), and a player stuck in a
	// loop loses its game instead of stopping the tournament.
	{Name: "battleship-contest", Game: battleship.Game{Contest: true}, Fixed: true, Params: games.Params{
		"width": 10, "height": 10, "ship1": 0, "ship2": 1, "ship3": 2, "ship4": 1, "ship5": 1, "ship6": 0},
		Turn: time.Minute, FirstTurn: time.Minute},
	// The Splix king-of-the-hill contest's game: 200×200, 2000 turns, its
	// controller's rules (the trail lags one step).
	{Name: "splix", Game: splix.Game{}, Params: games.Params{"size": 200, "turns": 2000, "lag": 1}},
	// A small, short board for demos and tests, by the same rules.
	{Name: "splix-small", Game: splix.Game{}, Params: games.Params{"size": 32, "turns": 300, "lag": 1}},
}

// All returns every variant, sorted by name, then the plugin games added
// (AddGame, AddPath), sorted by name.
func All() []Variant {
	out := append([]Variant(nil), variants...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return append(out, pluginVariants()...)
}

// Lookup finds a variant by name, or by the name of its game; then a
// plugin game added under that name; then, when name is a folder (it
// has a slash, or holds a game.toml), the plugin game in it, which it
// adds (see AddGame).
func Lookup(name string) (Variant, error) {
	if name != "" && looksLikeDir(name) && !builtin(name) {
		return AddGame(name)
	}
	for _, v := range variants {
		if v.Name == name {
			return v, nil
		}
	}
	for _, v := range variants {
		if v.Game.Name() == name {
			return Variant{Name: name, Game: v.Game}, nil
		}
	}
	if v, ok := pluginByName(name); ok {
		return v, nil
	}
	names := make([]string, 0, len(variants))
	for _, v := range All() {
		names = append(names, v.Name)
	}
	return Variant{}, fmt.Errorf("unknown game %q (known: %s; a plugin game is found by its folder: --game DIR, a games/ folder beside the configuration, or games_path)", name, strings.Join(names, ", "))
}

// Resolve returns the variant's parameters with overrides applied and
// defaults filled in.
func (v Variant) Resolve(overrides games.Params) (games.Params, error) {
	p := games.Params{}
	for k, x := range v.Params {
		p[k] = x
	}
	if v.Fixed {
		for _, k := range slices.Sorted(maps.Keys(overrides)) {
			if x, ok := v.Params[k]; !ok || x != overrides[k] {
				return nil, fmt.Errorf("%s has a fixed setup (%s): %s=%d cannot be set (the game %s takes parameters)",
					v.Name, v.describe(), k, overrides[k], v.Game.Name())
			}
		}
	}
	for k, x := range overrides {
		p[k] = x
	}
	return games.Resolve(v.Game.Params(), p)
}

// describe lists the variant's presets, by name.
func (v Variant) describe() string {
	var b []string
	for _, k := range slices.Sorted(maps.Keys(v.Params)) {
		b = append(b, fmt.Sprintf("%s=%d", k, v.Params[k]))
	}
	return strings.Join(b, " ")
}
