package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"judge/games/catalog"
	"judge/games/plugin"
	"judge/judge"
	"judge/judge/procbot"
)

// refereeStarter starts plugin games' process referees as bots start, on
// host in the sandbox at level (docs/games.md).
func refereeStarter(host *procbot.Host, level procbot.Level) plugin.Starter {
	return func(ctx context.Context, argv []string, dir string, memory int64) (*plugin.Process, error) {
		r, err := host.StartReferee(ctx, argv, dir, memory, level)
		if err != nil {
			return nil, err
		}
		return &plugin.Process{Stdin: r.Stdin, Stdout: r.Stdout, Stderr: r.Stderr, Stop: r.Stop,
			Exited: func() string { return r.Exit().String() }, Near: r.Near}, nil
	}
}

// replayGameFlags are the flags of the commands that read a replay and
// find its plugin game: --game DIR, its folder, and --config FILE, a
// configuration whose games/ folder or games_path holds it.
func replayGameFlags(fs *flag.FlagSet) (dir, configFile *string) {
	dir = fs.String("game", "", "a plugin game's folder: the game of the replay, when it is one")
	configFile = fs.String("config", "", "a match or tournament configuration: the plugin games of its games/ folder and games_path")
	return dir, configFile
}

// replayGame finds the game of a replay: a built-in one by name, or a
// plugin game, which needs its folder: dir (--game DIR), or one the
// catalog has found. A plugin game whose files changed since the match
// is used, with a warning: it may replay otherwise.
func replayGame(w io.Writer, rp *judge.Replay, dir string) (catalog.Variant, error) {
	name := rp.Game
	if dir != "" {
		name = dir
	}
	v, err := catalog.Lookup(name)
	if err != nil {
		if rp.GameHash != "" && dir == "" {
			return v, fmt.Errorf("the replay is of the plugin game %q, whose folder is needed: give it with --game DIR, "+
				"or --config FILE where a games/ folder beside FILE, or its games_path, holds it", rp.Game)
		}
		return v, err
	}
	if v.Game.Name() != rp.Game && v.Name != rp.Game {
		return v, fmt.Errorf("the replay is of the game %q, not of %s's %q", rp.Game, dir, v.Game.Name())
	}
	if h := judge.GameHash(v.Game); rp.GameHash != "" && h != rp.GameHash {
		fmt.Fprintf(w, "judge: warning: the plugin game %s in %s has changed since the match (its game.toml or its referee): it may replay otherwise\n", rp.Game, v.Dir)
	}
	return v, nil
}
