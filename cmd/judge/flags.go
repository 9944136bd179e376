package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/sandbox"
)

// matchFlags are the flags that shape every match, shared by the commands
// that play matches.
type matchFlags struct {
	game      *string
	params    paramFlag
	io        *string
	turn      *time.Duration
	firstTurn *time.Duration
	turnCPU   *time.Duration
	sandbox   *string
	noSandbox *bool
}

func addMatchFlags(fs *flag.FlagSet) *matchFlags {
	f := &matchFlags{
		game:      fs.String("game", "", "game to play (see 'judge games'); may come from --config"),
		io:        fs.String("io", "", "bots' stdout: pty (default) or pipe"),
		turn:      fs.Duration("turn", 0, "time limit per turn (default 1s)"),
		firstTurn: fs.Duration("first-turn", 0, "time limit of each bot's first turn (default 5s)"),
		turnCPU:   fs.Duration("turn-cpu", 0, "CPU-time limit per turn, besides the wall-clock one (default none)"),
		sandbox:   fs.String("sandbox", "", "isolation of the bots: auto (the strongest this machine allows), full, namespaces, basic or none; see 'judge doctor'"),
		noSandbox: fs.Bool("no-sandbox", false, "run the bots unprotected, for debugging (same as --sandbox none)"),
	}
	fs.Var(&f.params, "param", "game parameter NAME=VALUE (repeatable), e.g. --param n=9")
	return f
}

// apply puts the flags into mt, which holds what a configuration file
// (named configFile, with game cfgGame) said. Warnings go to w.
func (f *matchFlags) apply(mt *judge.Match, configFile, cfgGame string, w io.Writer) error {
	switch {
	case *f.game != "":
		v, err := catalog.Lookup(*f.game)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if mt.Variant.Game != nil && v.Game.Name() != mt.Variant.Game.Name() {
			return fmt.Errorf("%w: --game %s does not match game %q of %s", errUsage, *f.game, cfgGame, configFile)
		}
		// A variant's name (tictactoe) over its game's (gomoku) brings the
		// variant's presets, which the file's [params] still override.
		mt.Variant = v
	case mt.Variant.Game == nil:
		return fmt.Errorf("%w: no game: give --game NAME or --config FILE", errUsage)
	}
	over := games.Params{}
	for k, v := range mt.Params {
		over[k] = v
	}
	for k, v := range f.params {
		over[k] = v
	}
	var err error
	if mt.Params, err = mt.Variant.Resolve(over); err != nil {
		return fmt.Errorf("%w: %s: %v", errUsage, mt.Variant.Name, err)
	}
	if *f.io != "" {
		mt.IO = judge.IO(*f.io)
		if mt.IO != judge.PTY && mt.IO != judge.Pipe {
			return fmt.Errorf("%w: --io %q: want pty or pipe", errUsage, *f.io)
		}
	}
	if *f.turn > 0 {
		mt.Limits.Turn = *f.turn
	}
	if *f.firstTurn > 0 {
		mt.Limits.FirstTurn = *f.firstTurn
	}
	if *f.turnCPU > 0 {
		mt.Limits.TurnCPU = *f.turnCPU
	}
	if *f.sandbox != "" {
		l, err := sandbox.ParseLevel(*f.sandbox)
		if err != nil {
			return fmt.Errorf("%w: --sandbox: %v", errUsage, err)
		}
		mt.SandboxLevel = l
	}
	if *f.noSandbox {
		if *f.sandbox != "" && mt.SandboxLevel != sandbox.None {
			return fmt.Errorf("%w: --no-sandbox contradicts --sandbox %s", errUsage, *f.sandbox)
		}
		mt.SandboxLevel = sandbox.None
	}
	if mt.SandboxLevel == sandbox.None {
		fmt.Fprintln(w, strings.Repeat("!", 72))
		fmt.Fprintln(w, "!! NO SANDBOX: the bots run as you, with your files, network and limits.")
		fmt.Fprintln(w, "!! Use this only to debug bots you trust.")
		fmt.Fprintln(w, strings.Repeat("!", 72))
	}
	return nil
}
