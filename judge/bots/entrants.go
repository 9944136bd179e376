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
	"judge/judge/play"
	"judge/judge/procbot"
	"judge/judge/splixjava"
)

// Prepared is a bot argument made ready to play: built, loaded or
// checked, named, and known by the hash of what it runs.
type Prepared struct {
	play.Bot // its Err is a *Fault, why it cannot play; its Runtime is Languages.Runtime's
	Kind     Kind
	Spec     procbot.Spec
	// Web is set for a web bot (http://…): it plays instead of Spec.
	Web *httpbot.Bot
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

// Prepare makes bot arguments ready to play, resolved and named as in
// every command (Resolve): a directory or a source file of a known
// language is built (in cache, at most jobs at once), a Ruby contest
// player is loaded once in the sandbox, an executable or a command line
// is run as it is. A bot that cannot play for a fault of its own (a
// *Fault: a compile error, a player that does not load, a file that is
// no bot) is kept with the reason in its Err, and the others play: one
// broken submission never stops a tournament. Any other error is the
// judge's own (its cache, its sandbox) and stops it. Ruby contest players
// are loaded at the strongest sandbox level (PrepareAt says at which).
func Prepare(ctx context.Context, args []string, langs *Languages, cache string, jobs int) ([]*Prepared, error) {
	return PrepareAt(ctx, play.Batch{Args: args, Cache: cache, Jobs: jobs}, langs, procbot.Auto)
}

// PrepareAt is Prepare of b's arguments (in b.Cache, b.Jobs at once),
// telling b.Started and b.Ready of each bot (when set: how far a
// contest's builds are), with the sandbox level the bots play at: a Ruby
// contest player is loaded there, seeing what it sees in its games.
func PrepareAt(ctx context.Context, b play.Batch, langs *Languages, level procbot.Level) ([]*Prepared, error) {
	refs := Resolve(b.Args, langs)
	ents := make([]*Prepared, len(refs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(b.Jobs, 1))
	for i, r := range refs {
		e := &Prepared{Bot: play.Bot{Name: r.Name, Arg: r.Arg, Hash: r.Hash}, Kind: r.Kind}
		ents[i] = e
		g.Go(func() error {
			if b.Started != nil {
				b.Started(r.Arg)
			}
			err := e.prepare(gctx, r, langs, level, b.Cache)
			if (err == nil || gctx.Err() == nil) && b.Ready != nil {
				b.Ready(r.Arg)
			}
			switch {
			case err == nil:
			case gctx.Err() != nil:
				return gctx.Err()
			case AsFault(err) == nil:
				return fmt.Errorf("preparing bot %s: %w", r.Arg, err)
			default:
				e.Err = err
				if e.Hash == "" {
					sum := sha256.Sum256([]byte(e.Arg))
					e.Hash = hex.EncodeToString(sum[:])
				}
			}
			e.Spec.Name = e.Name
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return ents, nil
}

// prepare makes the bot of r ready: built, loaded or checked. An error
// is the bot's *Fault, or the judge's.
func (e *Prepared) prepare(ctx context.Context, r *Ref, langs *Languages, level procbot.Level, cache string) error {
	if r.Err != nil {
		return r.Err
	}
	switch r.Kind {
	case KindWeb:
		e.Web = r.web
		return nil
	case KindProgram:
		e.Spec = r.spec
		return nil
	case KindRubyContest:
		e.Spec = r.spec
		if langs == nil || langs.Host == nil {
			return errors.New("no sandbox host to load a Ruby contest player in (Languages.Host)")
		}
		why, err := langs.Host.CheckRubyContest(ctx, r.spec, level)
		switch {
		case err != nil:
			return err
		case why != "":
			return &Fault{Err: errors.New(why), unnamed: true}
		}
		return nil
	case KindSplixJava:
		return e.prepareSplixJava(ctx, langs, r.path, cache)
	}
	var err error
	if e.Runtime, err = langs.Runtime(ctx, r.sub.Lang, e.Arg, cache); err != nil {
		return err
	}
	b, err := langs.Build(ctx, r.sub, cache)
	if err != nil {
		return err
	}
	e.Spec = procbot.Spec{Argv: b.Argv, Dir: b.Dir}
	e.Hash, e.BuildLog = b.Key, b.Log
	return nil
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
