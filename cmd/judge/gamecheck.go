package main

import (
	"context"
	"fmt"

	"judge/games"
	"judge/games/catalog"
	"judge/games/gamecheck"
)

// loadGame loads the game in the folder dir (game.toml and its referee)
// as judge match --game DIR does: through the catalog, its process
// referee run in the sandbox; the answers its statuses give ahead are
// checked against its queries' (plugin.Options.AskAhead).
func loadGame(dir string) (games.Game, error) {
	catalog.CheckPlugins()
	v, err := catalog.AddGame(dir)
	if err != nil {
		return nil, err
	}
	return v.Game, nil
}

// gameCmd is judge game SUBCOMMAND: what is done to a game in a folder.
// There is one, check; its help is the command's.
func (m *Main) gameCmd(ctx context.Context, args []string) error {
	fs := m.newFlags("game", "check [flags] DIR",
		"Plays the game in DIR (game.toml and its referee, as judge new-game writes one) against\n"+
			"itself, random legal moves over many seeds, each game twice from the same seed, and\n"+
			"reports what its referee gets wrong: a replay that does not replay (randomness not\n"+
			"drawn from the seed, a clock), a game that never ends, a crash or a referee error, a\n"+
			"query whose answer changes within a turn, an answer of several lines to a query\n"+
			"game.toml declares one-line, a listed legal move refused, a command taken once and\n"+
			"refused on replay. Exit status 1 when it finds something.")
	check := len(args) > 0 && args[0] == "check"
	if check {
		args = args[1:]
	}
	var (
		seeds    = fs.Int("seeds", 100, "games to play")
		seed     = fs.Uint64("seed", 1, "the first seed; the games use seed, seed+1, …")
		maxTurns = fs.Int("max-turns", 10000, "a game longer than this never ends")
		all      = fs.Bool("all", false, "list every problem, not only the first of each kind")
		params   paramFlag
	)
	fs.Var(&params, "param", "game parameter NAME=VALUE (repeatable), e.g. --param size=6")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if !check {
		return fmt.Errorf("%w: want judge game check DIR", errUsage)
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: give the game's folder, got %d arguments", errUsage, len(pos))
	}
	if *seeds < 1 || *maxTurns < 1 || *seed == 0 {
		return fmt.Errorf("%w: --seeds, --seed and --max-turns must be at least 1", errUsage)
	}
	g, err := loadGame(pos[0])
	if err != nil {
		return err
	}
	r, err := gamecheck.Check(ctx, g, gamecheck.Options{
		Seeds: *seeds, FirstSeed: *seed, MaxTurns: *maxTurns, Params: games.Params(params)})
	if err != nil {
		return err
	}
	fmt.Fprint(m.Stdout, r.Summary())
	if *all {
		for _, p := range r.Problems {
			fmt.Fprintln(m.Stdout, "  "+p.String())
		}
	}
	if !r.OK() {
		return exitError{code: 1, err: fmt.Errorf("%s in %s", games.Plural(len(r.Problems), "problem", "problems"), pos[0])}
	}
	return nil
}
