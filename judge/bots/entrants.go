package bots

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"

	"judge/judge/httpbot"
	"judge/judge/procbot"
	"judge/judge/splixjava"
)

// Prepared is a bot argument made ready to play: built, loaded or
// checked, named, and known by the hash of what it runs.
type Prepared struct {
	Name string
	Arg  string // as given: a path or a command line
	Spec procbot.Spec
	// Web is set for a web bot (http://…): it plays instead of Spec.
	Web  *httpbot.Bot
	Hash string // sha256 of what it runs: its sources, or its program
	// Runtime is its language's version (Languages.Runtime): "" for a
	// bot of no language.
	Runtime string
	Err     error // why it cannot play (a compile error, a runtime missing); nil when it can
	// BuildLog is what its compiler said when it built (warnings).
	BuildLog string
}

// Skipped is a file of a bots directory that is not taken as a bot, and
// why.
type Skipped struct {
	Path string
	Why  string
}

// BotArgs lists the bots in dir, sorted by name: every source file of a
// known language, executable and directory of sources in it, every Ruby
// contest player at any depth (a .rb file with a class named ...Player, or
// Player, with new_game and take_turn, given as ruby-contest:FILE.rb; the
// lib/ directory beside it is its code, not a bot) and every Splix contest
// player in Java or Clojure (given as splix-java:PATH). Every other entry
// is in skipped with the reason: names starting with a dot, test files
// (x_test.go), files of no known language that are not executable,
// directories with no bot in them, links to nothing, special files, .rb
// files beside contest players that are not players.
func BotArgs(dir string, langs *Languages) (bots []string, skipped []Skipped, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	// Contest players at the top: lib/ beside them is their code.
	var top []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !strings.HasPrefix(e.Name(), ".") && IsRubyContest(p) {
			top = append(top, p)
		}
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if len(top) > 0 && e.Name() == "lib" && e.IsDir() {
			skipped = append(skipped, Skipped{Path: p, Why: "the Ruby contest players' code (lib/ beside them)"})
			continue
		}
		if slices.Contains(top, p) {
			bots = append(bots, RubyContestPrefix+p)
			continue
		}
		if st, err := os.Stat(p); err == nil && !strings.HasPrefix(e.Name(), ".") {
			if st.IsDir() {
				if players, skip := rubyPlayersIn(p); len(players) > 0 {
					bots = append(bots, players...)
					skipped = append(skipped, skip...)
					continue
				}
			}
			if (st.IsDir() || filepath.Ext(p) == ".java" || filepath.Ext(p) == ".clj") && splixjava.IsPlayer(p) {
				bots = append(bots, splixjava.Prefix+p)
				continue
			}
		}
		why := ""
		switch st, err := os.Stat(p); {
		case strings.HasPrefix(e.Name(), "."):
			why = "a hidden file"
		case isTestFile(e.Name()):
			why = "a test file"
		case err != nil:
			why = err.Error()
		case st.IsDir():
			if _, err := langs.Detect(p); err != nil {
				why = "not a bot: " + err.Error()
			}
		case !st.Mode().IsRegular():
			why = fmt.Sprintf("not a regular file (%s)", st.Mode().Type())
		case langs.ByExt(p) != nil, procbot.IsExecutable(st):
		case filepath.Ext(p) == "":
			why = "not executable, and no extension to tell its language"
		default:
			why = fmt.Sprintf("not executable, and no language for %q files (the languages file knows %s)",
				filepath.Ext(p), strings.Join(langs.extensions(), ", "))
		}
		if why != "" {
			skipped = append(skipped, Skipped{Path: p, Why: why})
			continue
		}
		bots = append(bots, p)
	}
	sort.Slice(bots, func(i, j int) bool { return unprefixed(bots[i]) < unprefixed(bots[j]) })
	if len(bots) == 0 {
		var b strings.Builder
		for _, s := range skipped {
			fmt.Fprintf(&b, "\n  %s: %s", s.Path, s.Why)
		}
		return nil, skipped, fmt.Errorf("%s: no bots (source files, programs, directories or contest players) in it%s", dir, b.String())
	}
	return bots, skipped, nil
}

// rubyPlayersIn finds the Ruby contest players in dir at any depth, as
// ruby-contest:FILE.rb arguments, the way a contest's folder holds them
// (club/name/player.rb). A lib/ directory beside a player is its code,
// and not searched; hidden entries are not either. When there are
// players, the other .rb files beside them are in skipped.
func rubyPlayersIn(dir string) (players []string, skipped []Skipped) {
	var others []string
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		ents, err := os.ReadDir(d)
		if err != nil || depth > 16 {
			return
		}
		var subs []string
		here := false
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			st, err := os.Stat(p)
			switch {
			case strings.HasPrefix(e.Name(), ".") || err != nil:
			case st.IsDir():
				if e.Type()&os.ModeSymlink == 0 {
					subs = append(subs, p)
				}
			case st.Mode().IsRegular() && filepath.Ext(p) == ".rb":
				if IsRubyContest(p) {
					players = append(players, RubyContestPrefix+p)
					here = true
				} else {
					others = append(others, p)
				}
			}
		}
		for _, sub := range subs {
			if here && filepath.Base(sub) == "lib" {
				skipped = append(skipped, Skipped{Path: sub, Why: "the Ruby contest player's code (lib/ beside it)"})
				continue
			}
			walk(sub, depth+1)
		}
	}
	walk(dir, 0)
	if len(players) > 0 {
		for _, p := range others {
			skipped = append(skipped, Skipped{Path: p, Why: "not a Ruby contest player: no class named ...Player with new_game and take_turn"})
		}
	}
	return players, skipped
}

// Prepare turns bot arguments into entrants: a directory or a
// source file of a known language is built (in cache, at most jobs at
// once), a Ruby contest player is loaded once in the sandbox, an
// executable or a command line is run as it is (like `judge match`). A
// bot that cannot play — a compile error, a player that does not load, a
// file that is no bot — is kept with the reason in its Err, and the
// others play: one broken submission never stops a tournament. Only the
// judge's own failures (its cache, its sandbox) stop it. Names come from
// the file names, made unique. Ruby contest players are loaded at the
// strongest sandbox level (PrepareAt says at which).
func Prepare(ctx context.Context, args []string, langs *Languages, cache string, jobs int) ([]*Prepared, error) {
	return PrepareAt(ctx, args, langs, procbot.Auto, cache, jobs)
}

// PrepareAt is Prepare with the sandbox level the bots play at: a Ruby
// contest player is loaded there, seeing what it sees in its games.
func PrepareAt(ctx context.Context, args []string, langs *Languages, level procbot.Level, cache string, jobs int) ([]*Prepared, error) {
	ents := make([]*Prepared, len(args))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(jobs, 1))
	for i, arg := range args {
		e := &Prepared{Arg: arg}
		ents[i] = e
		g.Go(func() error {
			started(ctx, arg)
			err := e.prepare(gctx, langs, level, cache)
			if err == nil || gctx.Err() == nil {
				ready(ctx, arg)
			}
			var jf judgeFailure
			switch {
			case err == nil:
			case gctx.Err() != nil:
				return gctx.Err()
			case errors.As(err, &jf):
				return jf.error
			default:
				e.Err = err
				if e.Hash == "" {
					sum := sha256.Sum256([]byte(e.Arg))
					e.Hash = hex.EncodeToString(sum[:])
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	nameAll(ents)
	return ents, nil
}

// readyKey carries the function WithReady gives.
type readyKey struct{}

// WithReady returns ctx with a function Prepare calls each time a bot
// is ready (or is found unable to play), with its argument: how far a
// tournament's builds are.
func WithReady(ctx context.Context, f func(arg string)) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, readyKey{}, f)
}

// ready says that the bot of arg is ready, to the function of WithReady.
func ready(ctx context.Context, arg string) {
	if f, ok := ctx.Value(readyKey{}).(func(string)); ok {
		f(arg)
	}
}

// startKey carries the function WithStart gives.
type startKey struct{}

// WithStart returns ctx with a function Prepare calls when it starts
// making the bot of an argument ready (building it, or finding it built):
// which builds are still going.
func WithStart(ctx context.Context, f func(arg string)) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, startKey{}, f)
}

// started says that the bot of arg is being made ready, to the function
// of WithStart.
func started(ctx context.Context, arg string) {
	if f, ok := ctx.Value(startKey{}).(func(string)); ok {
		f(arg)
	}
}

// judgeFailure is an error of the judge's own in preparing a bot (its
// cache, its sandbox): it stops the tournament, where every other error is
// the bot's.
type judgeFailure struct{ error }

func (j judgeFailure) Unwrap() error { return j.error }

func (e *Prepared) prepare(ctx context.Context, langs *Languages, level procbot.Level, cache string) error {
	if b, ok, err := httpbot.Parse(e.Arg); ok {
		if err != nil {
			return err
		}
		e.Web = &b
		info, err := b.Info()
		if err != nil {
			return err
		}
		// A web bot is known by its address: what runs there is its
		// server's business.
		sum := sha256.Sum256([]byte(b.URL))
		e.Spec.Name, e.Hash = info.Name, hex.EncodeToString(sum[:])
		return nil
	}
	if spec, ok, err := ParseRubyContest(e.Arg); ok {
		if err != nil {
			return err
		}
		e.Spec = spec
		if e.Hash, err = spec.Hash(); err != nil {
			return fmt.Errorf("bot %q: %w", e.Arg, err)
		}
		why, err := langs.Host.CheckRubyContest(ctx, spec, level)
		switch {
		case err != nil:
			return judgeFailure{err}
		case why != "":
			return errors.New(why)
		}
		return nil
	}
	if path, ok := splixjava.Cut(e.Arg); ok {
		return e.prepareSplixJava(ctx, langs, path, cache)
	}
	if !langs.isSource(e.Arg) {
		spec, err := procbot.ParseBot(e.Arg)
		if err != nil {
			return err
		}
		e.Spec = spec
		if e.Hash, err = spec.Hash(); err != nil {
			return fmt.Errorf("bot %q: %w", e.Arg, err)
		}
		return nil
	}
	sub, err := langs.Detect(e.Arg)
	if err != nil {
		return err
	}
	if e.Runtime, err = langs.Runtime(ctx, sub.Lang, e.Arg, cache); err != nil {
		e.Hash, _ = sub.Key()
		return err
	}
	b, err := langs.Build(ctx, sub, cache)
	if err != nil {
		var ce *CompileError
		if errors.As(err, &ce) {
			e.Err = ce
			e.Hash, _ = sub.Key()
			return nil
		}
		return err
	}
	e.Spec = procbot.Spec{Argv: b.Argv, Dir: b.Dir}
	e.Hash, e.BuildLog = b.Key, b.Log
	return nil
}

// baseName is the name an argument suggests: the file's name without its
// extension, or the program of a command line.
func baseName(arg string, full bool) string {
	arg = strings.TrimPrefix(arg, RubyContestPrefix)
	name := arg
	if _, err := os.Stat(arg); err != nil {
		if argv, err := procbot.SplitCommand(arg); err == nil && len(argv) > 0 {
			name = argv[len(argv)-1]
			for i := len(argv) - 1; i >= 0; i-- {
				if st, err := os.Stat(argv[i]); err == nil && !st.IsDir() {
					name = argv[i]
					break
				}
			}
		}
	}
	name = filepath.Base(filepath.Clean(name))
	if !full {
		name = strings.TrimSuffix(name, filepath.Ext(name))
	}
	return name
}

// nameAll gives every entrant a unique name: the file name without
// extension, with it when that is ambiguous (random.c, random.py), then
// with the parent directory (despo-player for despo/player.rb), then with
// both, then numbered. A web bot is named by its address, host and path
// (127.0.0.1:8080/connectfour.php), as `judge match` names it, then by its
// whole URL.
func nameAll(ents []*Prepared) {
	try := []func(e *Prepared) string{
		func(e *Prepared) string { return baseName(e.Arg, false) },
		func(e *Prepared) string { return baseName(e.Arg, true) },
		func(e *Prepared) string {
			arg := strings.TrimPrefix(e.Arg, RubyContestPrefix)
			return filepath.Base(filepath.Dir(filepath.Clean(arg))) + "-" + baseName(arg, false)
		},
		func(e *Prepared) string {
			arg := strings.TrimPrefix(e.Arg, RubyContestPrefix)
			return filepath.Base(filepath.Dir(filepath.Clean(arg))) + "-" + baseName(arg, true)
		},
	}
	for level, f := range try {
		try[level] = func(e *Prepared) string {
			switch {
			case e.Web == nil:
				return f(e)
			case level < len(try)-1:
				return e.Spec.Name
			}
			return e.Arg
		}
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = try[0](e)
	}
	for level := 1; level < len(try); level++ {
		count := map[string]int{}
		for _, n := range names {
			count[n]++
		}
		for i, e := range ents {
			if count[names[i]] > 1 {
				names[i] = try[level](e)
			}
		}
	}
	seen := map[string]int{}
	for i, e := range ents {
		n := names[i]
		seen[n]++
		if seen[n] > 1 {
			n = fmt.Sprintf("%s-%d", n, seen[n])
		}
		e.Name = n
		e.Spec.Name = n
	}
}

// isTestFile reports whether a file is a test (x_test.go, x_test.py):
// not part of a bot.
func isTestFile(name string) bool {
	return strings.Contains(name, "_test.")
}

// unprefixed is a bot argument without its contest prefix, for sorting.
func unprefixed(arg string) string {
	return strings.TrimPrefix(strings.TrimPrefix(arg, RubyContestPrefix), splixjava.Prefix)
}
