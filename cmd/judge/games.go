package main

import (
	"context"
	"fmt"

	"judge/games/catalog"
)

func (m *Main) games(_ context.Context, args []string) error {
	fs := m.newFlags("games", "", "Lists the games, their parameters and ranges, and the presets of each name.")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	}
	for _, v := range catalog.All() {
		fmt.Fprintf(m.Stdout, "%s  (game %s) %s\n", v.Name, v.Game.Name(), v.Game.Describe())
		p, err := v.Resolve(nil)
		if err != nil {
			return err
		}
		for _, s := range v.Game.Params() {
			if v.Fixed {
				fmt.Fprintf(m.Stdout, "    %-8s = %-5d fixed  %s\n", s.Name, p[s.Name], s.Doc)
				continue
			}
			fmt.Fprintf(m.Stdout, "    %-8s = %-5d range %d..%d  %s\n", s.Name, p[s.Name], s.Min, s.Max, s.Doc)
		}
	}
	return nil
}
