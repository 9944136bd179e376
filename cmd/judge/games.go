package main

import (
	"context"
	"fmt"

	"github.com/BurntSushi/toml"

	"judge/games/catalog"
	"judge/judge/config"
)

func (m *Main) games(_ context.Context, args []string) error {
	fs := m.newFlags("games", "", "Lists the games, their parameters and ranges, and the presets of each name; "+
		"plugin games too: those of --game DIR, and of the games/ folder and games_path of --config FILE.")
	var dirs []string
	fs.Func("game", "a plugin game's folder to list too (repeatable)", func(s string) error { dirs = append(dirs, s); return nil })
	configFile := fs.String("config", "", "a match or tournament configuration: list the plugin games it finds")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	}
	if err := addPluginGames(*configFile, dirs); err != nil {
		return err
	}
	for _, v := range catalog.All() {
		if v.Dir != "" {
			fmt.Fprintf(m.Stdout, "%s  (plugin: %s) %s\n", v.Name, v.Dir, v.Game.Describe())
		} else {
			fmt.Fprintf(m.Stdout, "%s  (game %s) %s\n", v.Name, v.Game.Name(), v.Game.Describe())
		}
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

// addPluginGames adds to the catalog the plugin games of a configuration
// file (its games/ folder and games_path), when one is named, and the
// game folders dirs.
func addPluginGames(configFile string, dirs []string) error {
	if configFile != "" {
		// A match's or a tournament's file: only games_path is read.
		var file config.File
		if _, err := toml.DecodeFile(configFile, &file); err != nil {
			return fmt.Errorf("%s: %w", configFile, err)
		}
		if err := addConfigGames(&file, configFile); err != nil {
			return err
		}
	}
	for _, d := range dirs {
		if _, err := catalog.AddGame(d); err != nil {
			return err
		}
	}
	return nil
}
