package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/bots"
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
	// config is --config, the match configuration file
	// (addMatchFileFlags); nil on judge tournament, whose --config is its
	// tournament file.
	config *string
	// deferCheck: resolve leaves the check of the game's parameters
	// under way (setup.ready), for the caller to wait for once it has
	// done other work: a plugin game's New compiles its referee.
	deferCheck bool
}

// addMatchFlags adds the flags that shape every match to fs.
func addMatchFlags(fs *flag.FlagSet) *matchFlags {
	f := &matchFlags{
		fs:        fs,
		game:      fs.String("game", "", "game to play (see 'judge games'), or a plugin game's folder (docs/games.md); may come from --config"),
		io:        fs.String("io", "", "bots' stdout: auto (default: a pipe, a pty for static programs), pty or pipe"),
		turn:      fs.Duration("turn", 0, "time limit per turn (default 1s; battleship-contest: 1m)"),
		firstTurn: fs.Duration("first-turn", 0, "time limit of each bot's first turn (default 5s; battleship-contest: 1m)"),
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

// addMatchFileFlags adds the match flags and --config, a match
// configuration file: the flags of judge match, play and sprt.
func addMatchFileFlags(fs *flag.FlagSet) *matchFlags {
	f := addMatchFlags(fs)
	f.config = fs.String("config", "", "match configuration file (TOML, see configs/)")
	return f
}

// set reports whether the flag was given.
func (f *matchFlags) set(name string) bool { return given(f.fs, name) }

// given reports whether the flag name was given to fs.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
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
	// ready waits for the check of the parameters, when it was left
	// under way (matchFlags.deferCheck), and says what it found.
	ready func() error
}

// resolve resolves the defaults, the configuration file (named path, nil
// when there is none) and the flags into one match. A bad flag is a usage
// error naming the flag; a bad file value names the file and its line.
// Warnings go to w.
func (f *matchFlags) resolve(host *procbot.Host, file *config.File, path string, w io.Writer) (*setup, error) {
	s := &setup{
		match:    judge.Match{Limits: judge.DefaultTurnLimits},
		proc:     procbot.Options{IO: procbot.AutoIO, Limits: procbot.DefaultLimits, Stderr: judge.DefaultTurnLimits.Stderr, Host: host},
		explicit: games.Params{},
	}
	if file != nil {
		if err := s.readFile(file, path); err != nil {
			return nil, err
		}
	}
	if err := f.resolveGame(s, file, path); err != nil {
		return nil, err
	}
	if *f.io != "" {
		io, err := procbot.ParseIO(*f.io)
		if err != nil {
			return nil, fmt.Errorf("%w: --io: %v", errUsage, err)
		}
		s.proc.IO = io
	}
	if err := f.resolveLimits(s, file); err != nil {
		return nil, err
	}
	if err := f.resolveSandbox(s); err != nil {
		return nil, err
	}
	if err := s.match.Limits.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	warnSandbox(w, host, s.proc.Level)
	return s, nil
}

// readFile takes from the configuration file its game and parameters, how
// the bots run and the sandbox; its [limits] are resolveLimits'.
func (s *setup) readFile(file *config.File, path string) error {
	if err := addConfigGames(file, path); err != nil {
		return err
	}
	if file.Game != "" {
		v, err := catalog.Lookup(file.Game)
		if err != nil {
			return fmt.Errorf("%s:%d: game: %w", path, config.Line(path, "game"), err)
		}
		s.variant = v
		for k, x := range file.Params {
			s.explicit[k] = x
		}
	}
	if err := bots.ApplyFile(&s.proc, file); err != nil {
		return fmt.Errorf("%s:%d: sandbox.level: %w", path, config.Line(path, "sandbox", "level"), err)
	}
	return nil
}

// addConfigGames adds to the catalog the plugin games of the
// configuration file at path: those in a games/ folder beside it, then
// those in the folders of its games_path.
func addConfigGames(file *config.File, path string) error {
	dir := filepath.Dir(path)
	if err := catalog.AddPath(filepath.Join(dir, "games")); err != nil {
		return err
	}
	for _, p := range file.GamesPath {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s:%d: games_path: %w", path, config.Line(path, "games_path"), err)
		}
		if err := catalog.AddPath(p); err != nil {
			return fmt.Errorf("%s: games_path: %w", path, err)
		}
	}
	return nil
}

// resolveGame resolves --game against the file's game, and the
// parameters: the variant's presets, then the file's, then --param.
func (f *matchFlags) resolveGame(s *setup, file *config.File, path string) error {
	switch {
	case *f.game != "":
		v, err := catalog.Lookup(*f.game)
		if err != nil {
			return fmt.Errorf("--game %s: %w", *f.game, err) // what it names is wrong: exit status 1
		}
		if s.variant.Game != nil && v.Game.Name() != s.variant.Game.Name() {
			return fmt.Errorf("%w: --game %s does not match game %q of %s", errUsage, *f.game, file.Game, path)
		}
		// A variant's name (tictactoe) over its game's (gomoku) brings the
		// variant's presets, which the file's [params] still override.
		s.variant = v
	case s.variant.Game == nil:
		return fmt.Errorf("%w: no game: give --game NAME or --config FILE", errUsage)
	}
	for k, v := range f.params {
		s.explicit[k] = v
	}
	wrap := func(err error) error {
		if file != nil && len(f.params) == 0 && len(file.Params) > 0 {
			return fmt.Errorf("%s: [params]: %w", path, err)
		}
		return fmt.Errorf("%s: %w", s.variant.Name, err) // a parameter out of the game's range: exit status 1
	}
	p, err := s.variant.Resolve(s.explicit)
	if err != nil {
		return wrap(err)
	}
	s.match.Game, s.match.Name, s.match.Params = s.variant.Game, s.variant.Name, p
	check := func() error {
		st, err := s.variant.Game.New(p, 0) // parameters that do not fit together
		if err != nil {
			return wrap(err)
		}
		games.Close(st)
		return nil
	}
	if !f.deferCheck {
		s.ready = func() error { return nil }
		return check()
	}
	done := make(chan error, 1)
	go func() { done <- check() }()
	s.ready = sync.OnceValue(func() error { return <-done })
	return nil
}

// resolveLimits resolves the match's limits: the variant's own (a
// contest's), then each the file's [limits] value when it has one, then
// the flag's when it was given.
func (f *matchFlags) resolveLimits(s *setup, file *config.File) error {
	var l config.TurnLimits
	if file != nil {
		l = file.Limits
	}
	lim := &s.match.Limits
	if s.variant.Turn > 0 {
		lim.Turn = s.variant.Turn
	}
	if s.variant.FirstTurn > 0 {
		lim.FirstTurn = s.variant.FirstTurn
	}
	for _, d := range []struct {
		name string // the flag; "" for none
		file config.Duration
		flag *time.Duration
		to   *time.Duration
	}{{"turn", l.Turn, f.turn, &lim.Turn}, {"first-turn", l.FirstTurn, f.firstTurn, &lim.FirstTurn},
		{"turn-cpu", l.TurnCPU, f.turnCPU, &lim.TurnCPU}, {"", l.Grace, nil, &lim.Grace},
		{"bank", l.Bank, f.bank, &lim.Bank}, {"increment", l.Increment, f.increment, &lim.Increment}} {
		if d.file > 0 {
			*d.to = time.Duration(d.file)
		}
		if d.name == "" || !f.set(d.name) {
			continue
		}
		if *d.flag <= 0 {
			return fmt.Errorf("%w: --%s %v: a time limit must be positive", errUsage, d.name, *d.flag)
		}
		*d.to = *d.flag
	}
	if l.Overruns > 0 {
		lim.Overruns = l.Overruns
	}
	if f.set("overruns") {
		if *f.overruns < 0 {
			return fmt.Errorf("%w: --overruns %d: want 0 or more", errUsage, *f.overruns)
		}
		lim.Overruns = *f.overruns
	}
	if l.OutputBytes > 0 {
		lim.Output = l.OutputBytes
	}
	if l.StderrBytes > 0 {
		lim.Stderr = l.StderrBytes
		s.proc.Stderr = l.StderrBytes
	}
	return nil
}

// resolveSandbox resolves --sandbox and --no-sandbox over the file's
// sandbox level.
func (f *matchFlags) resolveSandbox(s *setup) error {
	if *f.sandbox != "" {
		l, err := procbot.ParseLevel(*f.sandbox)
		if err != nil {
			return fmt.Errorf("%w: --sandbox: %v", errUsage, err)
		}
		s.proc.Level = l
	}
	if *f.noSandbox {
		if *f.sandbox != "" && s.proc.Level != procbot.None {
			return fmt.Errorf("%w: --no-sandbox contradicts --sandbox %s", errUsage, *f.sandbox)
		}
		s.proc.Level = procbot.None
	}
	return nil
}

// warnSandbox warns, on w, of bots that run with no sandbox or a weak one:
// in one line where the system has no sandbox (macOS, Windows) and none
// was asked for.
func warnSandbox(w io.Writer, host *procbot.Host, level procbot.Level) {
	switch lv := host.RunLevel(level); lv {
	case procbot.None:
		if level != procbot.None {
			fmt.Fprintln(w, host.Notice(lv))
			return
		}
		fmt.Fprintln(w, strings.Repeat("!", 72))
		fmt.Fprintln(w, "!! NO SANDBOX: the bots run as you, with your files, network and limits.")
		fmt.Fprintln(w, "!! Use this only to debug bots you trust.")
		fmt.Fprintln(w, strings.Repeat("!", 72))
	case procbot.Basic:
		fmt.Fprintln(w, host.Notice(lv))
	}
}

// load loads the match configuration file --config names, if any, and
// resolves it and the flags into one match (resolve).
func (f *matchFlags) load(host *procbot.Host, w io.Writer) (*setup, error) {
	var file *config.File
	if *f.config != "" {
		var err error
		if file, err = config.Load(*f.config); err != nil {
			return nil, err
		}
	}
	return f.resolve(host, file, *f.config, w)
}

// oneMatchFlags are the flags of the commands that play one match, judge
// match and judge play: its seed and its replay.
type oneMatchFlags struct {
	fs     *flag.FlagSet
	seed   *uint64
	replay *string
	trace  *bool
}

// addOneMatchFlags adds --seed, --replay and --trace, whose lines are
// those of every player (the word for them: "bot" or "player").
func addOneMatchFlags(fs *flag.FlagSet, player string) *oneMatchFlags {
	return &oneMatchFlags{
		fs:     fs,
		seed:   fs.Uint64("seed", 0, "seed of the match (default: random, printed)"),
		replay: fs.String("replay", "", "write the replay to this file"),
		trace:  fs.Bool("trace", false, "keep every protocol line of every "+player+", and its stderr turn by turn, in the replay"),
	}
}

// checkReplay checks, before the match is played, that --replay can be
// written.
func (f *oneMatchFlags) checkReplay() error {
	if *f.replay != "" {
		if err := checkWritable(*f.replay); err != nil {
			return fmt.Errorf("%w: --replay: %v", errUsage, err)
		}
	}
	return nil
}

// seedOf is the match's seed: --seed, else a random one.
func (f *oneMatchFlags) seedOf() uint64 {
	if !given(f.fs, "seed") {
		return randomSeed()
	}
	return *f.seed
}

// writeReplay writes the replay to the file --replay names, if any.
func (f *oneMatchFlags) writeReplay(r *judge.Replay) error {
	if *f.replay == "" {
		return nil
	}
	return judge.WriteReplay(*f.replay, r)
}
