// Package catalog lists the games the judge knows, under the names people
// use for them (a game with preset parameters, like tictactoe for gomoku
// with n = 3, k = 3, is a variant of its own).
package catalog

import (
	"fmt"
	"sort"
	"strings"

	"judge/games"
	"judge/games/gomoku"
)

// Variant is a game under a name, with preset parameters.
type Variant struct {
	Name   string
	Game   games.Game
	Params games.Params // presets; other parameters take the game's defaults
}

var variants = []Variant{
	{Name: "tictactoe", Game: gomoku.Game{}, Params: games.Params{"n": 3, "k": 3}},
	{Name: "gomoku", Game: gomoku.Game{}, Params: games.Params{"n": 15, "k": 5}},
}

// All returns every variant, sorted by name.
func All() []Variant {
	out := append([]Variant(nil), variants...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup finds a variant by name, or by the name of its game.
func Lookup(name string) (Variant, error) {
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
	names := make([]string, 0, len(variants))
	for _, v := range All() {
		names = append(names, v.Name)
	}
	return Variant{}, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(names, ", "))
}

// Resolve returns the variant's parameters with overrides applied and
// defaults filled in.
func (v Variant) Resolve(overrides games.Params) (games.Params, error) {
	p := games.Params{}
	for k, x := range v.Params {
		p[k] = x
	}
	for k, x := range overrides {
		p[k] = x
	}
	return games.Resolve(v.Game.Params(), p)
}
