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
	"judge/judge/config"
	"judge/judge/procbot"
)

// matchFlags are the flags that shape every match, shared by the commands
// that play matches.
type matchFlags struct {
	fs        *flag.FlagSet
	game      *string
	params    paramFlag
	io        *string
	turn      *time.Duration
	firstTurn *time.Duration
	turnCPU   *time.Duration
	bank      *time.Duration
	increment *time.Duration
	overruns  *int
	sandbox   *string
	noSandbox *bool
}

func addMatchFlags(fs *flag.FlagSet) *matchFlags {
	f := &matchFlags{
		fs:        fs,
		game:      fs.String("game", "", "game to play (see 'judge games'); may come from --config"),
		io:        fs.String("io", "", "bots' stdout: pty (default) or pipe"),
		turn:      fs.Duration("turn", 0, "time limit per turn (default 1s)"),
		firstTurn: fs.Duration("first-turn", 0, "time limit of each bot's first turn (default 5s)"),
		turnCPU:   fs.Duration("turn-cpu", 0, "CPU-time limit per turn, besides the wall-clock one (default none)"),
		bank:      fs.Duration("bank", 0, "a time bank each bot's turns may run into past --turn (default none)"),
		increment: fs.Duration("increment", 0, "time added to the bank after each turn (default none)"),
		overruns:  fs.Int("overruns", 0, "turns that may run past the limit and the bank (up to twice the limit) before it counts as a timeout"),
		sandbox:   fs.String("sandbox", "", "isolation of the bots: auto (the strongest this machine allows), full, namespaces, basic or none; see 'judge doctor'"),
		noSandbox: fs.Bool("no-sandbox", false, "run the bots unprotected, for debugging (same as --sandbox none)"),
	}
	fs.Var(&f.params, "param", "game parameter NAME=VALUE (repeatable), e.g. --param n=9")
	return f
}

// set reports whether the flag was given.
func (f *matchFlags) set(name string) bool {
	given := false
	f.fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == name })
	return given
}

// setup is a match resolved once, in one place: the defaults, then the
// configuration file, then the flags. The commands add the seed and the
// players.
type setup struct {
	variant catalog.Variant
	match   judge.Match     // Game, Name, Params (every one), Limits
	proc    procbot.Options // how bot programs run
	// explicit are the parameters a file or --param gave, besides the
	// variant's presets.
	explicit games.Params
}

// resolve resolves the defaults, the configuration file (named path, nil
// when there is none) and the flags into one match. A bad flag is a usage
// error naming the flag; a bad file value names the file and its line.
// Warnings go to w.
func (f *matchFlags) resolve(file *config.File, path string, w io.Writer) (*setup, error) {
	s := &setup{
		match: judge.Match{Limits: judge.DefaultLimits},
		proc:  procbot.Options{IO: procbot.PTY, Limits: procbot.DefaultLimits, Stderr: judge.DefaultLimits.Stderr},
	}
	params := games.Params{}

	// The file.
	if file != nil && file.Game != "" {
		v, err := catalog.Lookup(file.Game)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: game: %w", path, config.Line(path, "game"), err)
		}
		s.variant = v
		for k, x := range file.Params {
			params[k] = x
		}
	}
	if file != nil {
		l, lim := file.Limits, &s.match.Limits
		for _, d := range []struct {
			from config.Duration
			to   *time.Duration
		}{{l.Turn, &lim.Turn}, {l.FirstTurn, &lim.FirstTurn}, {l.TurnCPU, &lim.TurnCPU}, {l.Grace, &lim.Grace},
			{l.Bank, &lim.Bank}, {l.Increment, &lim.Increment}} {
			if d.from > 0 {
				*d.to = time.Duration(d.from)
			}
		}
		if l.Overruns > 0 {
			lim.Overruns = l.Overruns
		}
		if l.OutputBytes > 0 {
			lim.Output = l.OutputBytes
		}
		if l.StderrBytes > 0 {
			lim.Stderr = l.StderrBytes
			s.proc.Stderr = l.StderrBytes
		}
		if file.Bots.IO != "" {
			s.proc.IO = procbot.IO(file.Bots.IO)
		}
		if len(file.Bots.Env) > 0 {
			s.proc.Env = map[string]string{}
			for k, v := range file.Bots.Env {
				s.proc.Env[k] = v
			}
		}
		if file.Sandbox.Level != "" {
			lv, err := procbot.ParseLevel(file.Sandbox.Level)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: sandbox.level: %w", path, config.Line(path, "sandbox", "level"), err)
			}
			s.proc.Level = lv
		}
		sb, c := &s.proc.Limits, file.Sandbox
		if c.Memory > 0 {
			sb.Memory = int64(c.Memory)
		}
		if c.Procs > 0 {
			sb.Procs = c.Procs
		}
		if c.FileSize > 0 {
			sb.FileSize = int64(c.FileSize)
		}
		if c.OpenFiles > 0 {
			sb.OpenFiles = c.OpenFiles
		}
		if c.Tmp > 0 {
			sb.TmpSize = int64(c.Tmp)
		}
	}

	// The flags.
	switch {
	case *f.game != "":
		v, err := catalog.Lookup(*f.game)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if s.variant.Game != nil && v.Game.Name() != s.variant.Game.Name() {
			return nil, fmt.Errorf("%w: --game %s does not match game %q of %s", errUsage, *f.game, file.Game, path)
		}
		// A variant's name (tictactoe) over its game's (gomoku) brings the
		// variant's presets, which the file's [params] still override.
		s.variant = v
	case s.variant.Game == nil:
		return nil, fmt.Errorf("%w: no game: give --game NAME or --config FILE", errUsage)
	}
	for k, v := range f.params {
		params[k] = v
	}
	s.explicit = params
	p, err := s.variant.Resolve(params)
	if err == nil {
		_, err = s.variant.Game.New(p, 0) // parameters that do not fit together
	}
	if err != nil {
		if file != nil && len(f.params) == 0 && len(file.Params) > 0 {
			return nil, fmt.Errorf("%s: [params]: %w", path, err)
		}
		return nil, fmt.Errorf("%w: %s: %v", errUsage, s.variant.Name, err)
	}
	s.match.Game, s.match.Name, s.match.Params = s.variant.Game, s.variant.Name, p

	if *f.io != "" {
		io, err := procbot.ParseIO(*f.io)
		if err != nil {
			return nil, fmt.Errorf("%w: --io: %v", errUsage, err)
		}
		s.proc.IO = io
	}
	for _, d := range []struct {
		name string
		v    time.Duration
		to   *time.Duration
	}{{"turn", *f.turn, &s.match.Limits.Turn}, {"first-turn", *f.firstTurn, &s.match.Limits.FirstTurn}, {"turn-cpu", *f.turnCPU, &s.match.Limits.TurnCPU},
		{"bank", *f.bank, &s.match.Limits.Bank}, {"increment", *f.increment, &s.match.Limits.Increment}} {
		if !f.set(d.name) {
			continue
		}
		if d.v <= 0 {
			return nil, fmt.Errorf("%w: --%s %v: a time limit must be positive", errUsage, d.name, d.v)
		}
		*d.to = d.v
	}
	if f.set("overruns") {
		if *f.overruns < 0 {
			return nil, fmt.Errorf("%w: --overruns %d: want 0 or more", errUsage, *f.overruns)
		}
		s.match.Limits.Overruns = *f.overruns
	}
	if *f.sandbox != "" {
		l, err := procbot.ParseLevel(*f.sandbox)
		if err != nil {
			return nil, fmt.Errorf("%w: --sandbox: %v", errUsage, err)
		}
		s.proc.Level = l
	}
	if *f.noSandbox {
		if *f.sandbox != "" && s.proc.Level != procbot.None {
			return nil, fmt.Errorf("%w: --no-sandbox contradicts --sandbox %s", errUsage, *f.sandbox)
		}
		s.proc.Level = procbot.None
	}
	if err := s.match.Limits.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	switch lv := procbot.RunLevel(s.proc.Level); lv {
	case procbot.None:
		fmt.Fprintln(w, strings.Repeat("!", 72))
		fmt.Fprintln(w, "!! NO SANDBOX: the bots run as you, with your files, network and limits.")
		fmt.Fprintln(w, "!! Use this only to debug bots you trust.")
		fmt.Fprintln(w, strings.Repeat("!", 72))
	case procbot.Basic:
		fmt.Fprintln(w, lv.Notice())
	}
	return s, nil
}

// loadMatchFile loads a match configuration file; none when path is "".
func loadMatchFile(path string) (*config.File, error) {
	if path == "" {
		return nil, nil
	}
	return config.Load(path)
}
