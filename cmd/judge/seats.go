package main

import (
	"fmt"

	"judge/games"
	"judge/judge"
)

// fitSeats sets the number of players of a game that takes a range of
// them (a "players" or "seats" parameter, such as Splix's) to the number
// of bots given, unless a configuration or --param (explicit) or the
// variant's presets set it: `judge match --game splix-small A B C` plays
// three. mt's parameters are resolved already.
func fitSeats(mt *judge.Match, bots int, explicit ...games.Params) error {
	v := mt.Variant
	for _, s := range v.Game.Params() {
		if s.Name != "players" && s.Name != "seats" {
			continue
		}
		for _, p := range append(explicit, v.Params) {
			if _, ok := p[s.Name]; ok {
				return nil
			}
		}
		if bots < s.Min || bots > s.Max {
			return fmt.Errorf("%w: %s takes %d to %d players, got %d bots", errUsage, v.Name, s.Min, s.Max, bots)
		}
		p := games.Params{}
		for k, x := range mt.Params {
			p[k] = x
		}
		p[s.Name] = bots
		mt.Params = p
		return nil
	}
	return nil
}
