package main

import (
	"fmt"

	"judge/games"
)

// fitSeats sets the number of players of a game that takes a range of
// them (a "players" or "seats" parameter, such as Splix's) to the number
// of bots given, unless a configuration or --param or the variant's
// presets set it: `judge match --game splix-small A B C` plays three.
func (s *setup) fitSeats(bots int) error {
	v := s.variant
	for _, ps := range v.Game.Params() {
		if ps.Name != "players" && ps.Name != "seats" {
			continue
		}
		for _, p := range []games.Params{s.explicit, v.Params} {
			if _, ok := p[ps.Name]; ok {
				return nil
			}
		}
		if bots < ps.Min || bots > ps.Max {
			return fmt.Errorf("%w: %s takes %d to %d players, got %d bots", errUsage, v.Name, ps.Min, ps.Max, bots)
		}
		p := games.Params{}
		for k, x := range s.match.Params {
			p[k] = x
		}
		p[ps.Name] = bots
		s.match.Params = p
		return nil
	}
	return nil
}
