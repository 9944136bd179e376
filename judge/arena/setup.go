package arena

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/games/plugin"
	"judge/judge"
	"judge/judge/bots"
	"judge/judge/config"
	"judge/judge/procbot"
)

// matchSetup is every match of the arena as its settings say: the game,
// its parameters and limits, and how bots run.
type matchSetup struct {
	match judge.Match // Game, Name, Params, Limits
	proc  procbot.Options
	seats int
	// seatParam is the game's parameter that says how many seats it
	// has ("" for none), and minSeats the fewest it allows: the ladder
	// plays with fewer seats while fewer submissions are active.
	seatParam string
	minSeats  int
	langs     *bots.Languages
}

// setup resolves the arena's game, its parameters (the variant's, then
// the match file's, then the arena's), the match file's limits and
// sandbox, and the languages.
func (a *Arena) setup() (*matchSetup, error) {
	s := &matchSetup{
		match: judge.Match{Limits: judge.DefaultTurnLimits},
		proc:  procbot.Options{IO: procbot.AutoIO, Limits: procbot.DefaultLimits, Stderr: DefaultStderrBytes, Host: a.host},
	}
	s.match.Limits.Stderr = DefaultStderrBytes
	file := &config.File{}
	if a.cfg.ConfigFile != "" {
		path := filepath.Join(a.dir, a.cfg.ConfigFile)
		var err error
		if file, err = config.Load(path); err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
	}
	v, err := a.game()
	if err != nil {
		return nil, err
	}
	if file.Game != "" && file.Game != a.cfg.Game && file.Game != v.Name && file.Game != v.Game.Name() {
		if fv, err := catalog.Lookup(file.Game); err != nil || fv.Game.Name() != v.Game.Name() {
			return nil, fmt.Errorf("arena: game %s does not match game %q of the match file", a.cfg.Game, file.Game)
		}
	}
	explicit := games.Params{}
	for k, x := range file.Params {
		explicit[k] = x
	}
	for k, x := range a.cfg.Params {
		explicit[k] = x
	}
	p, err := v.Resolve(explicit)
	if err != nil {
		return nil, fmt.Errorf("arena: %s: %w", v.Name, err)
	}
	st, err := v.Game.New(p, 0)
	if err != nil {
		return nil, fmt.Errorf("arena: %s: %w", v.Name, err)
	}
	s.seats, s.minSeats = st.Seats(), st.Seats()
	games.Close(st)
	for _, ps := range v.Game.Params() {
		if ps.Name == "players" || ps.Name == "seats" {
			s.seatParam, s.minSeats = ps.Name, max(ps.Min, 2)
		}
	}
	s.match.Game, s.match.Name, s.match.Params = v.Game, v.Name, p
	if err := s.applyFile(file); err != nil {
		return nil, err
	}
	if err := s.match.Limits.Check(); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	s.match.Serve = procbot.OneCPU
	if s.langs, err = bots.LoadLanguages(bots.LanguagesFile(a.cfg.Languages)); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	s.langs.Host = a.host
	return s, nil
}

// game finds the arena's game. A plugin game is kept as its folder's
// absolute path and its hash (judge.GameHash): a folder gone, or a game
// changed since the arena was made (its game.toml, its referee), is an
// error saying what to do, not a game played by other rules.
func (a *Arena) game() (catalog.Variant, error) {
	conf := filepath.Join(a.dir, "arena.toml")
	if a.cfg.GameHash != "" && !catalog.IsGameDir(a.cfg.Game) {
		return catalog.Variant{}, fmt.Errorf("arena: the plugin game's folder %s is gone (moved or removed) or holds no %s: "+
			"put it back, or set game in %s to where it is now", a.cfg.Game, plugin.SpecFile, conf)
	}
	v, err := catalog.Lookup(a.cfg.Game)
	if err != nil {
		return v, fmt.Errorf("arena: %w", err)
	}
	if h := judge.GameHash(v.Game); a.cfg.GameHash != "" && h != a.cfg.GameHash {
		return v, fmt.Errorf("arena: the plugin game %s in %s has changed since the arena was made (its %s or its referee): "+
			"its matches would not be played by the same rules; put the game back as it was, or, if the change is meant, "+
			"set game_hash in %s to %q", v.Name, v.Dir, plugin.SpecFile, conf, h)
	}
	return v, nil
}

// applyFile takes the match file's limits, how bots run and the sandbox.
func (s *matchSetup) applyFile(file *config.File) error {
	l, lim := file.Limits, &s.match.Limits
	for _, d := range []struct {
		v  config.Duration
		to *time.Duration
	}{{l.Turn, &lim.Turn}, {l.FirstTurn, &lim.FirstTurn}, {l.TurnCPU, &lim.TurnCPU}, {l.Grace, &lim.Grace},
		{l.Bank, &lim.Bank}, {l.Increment, &lim.Increment}} {
		if d.v > 0 {
			*d.to = time.Duration(d.v)
		}
	}
	if l.Overruns > 0 {
		lim.Overruns = l.Overruns
	}
	if l.OutputBytes > 0 {
		lim.Output = l.OutputBytes
	}
	if l.StderrBytes > 0 {
		lim.Stderr, s.proc.Stderr = l.StderrBytes, l.StderrBytes
	}
	if err := bots.ApplyFile(&s.proc, file); err != nil {
		return fmt.Errorf("arena: sandbox.level: %w", err)
	}
	return nil
}

// copyPath copies a file (keeping its mode) or a directory tree.
func copyPath(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case !info.Mode().IsRegular():
			return nil
		}
		return copyFile(p, dst, info.Mode().Perm())
	})
}

func copyFile(from, to string, mode fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
