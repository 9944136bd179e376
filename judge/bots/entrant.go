package bots

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"judge/judge"
	"judge/judge/httpbot"
	"judge/judge/play"
	"judge/judge/procbot"
)

// MatchCache is the build cache of the bots of single matches (`judge
// match`, `judge play`): one shared by the matches of this machine.
func MatchCache() string { return filepath.Join(os.TempDir(), "judge-build-cache") }

// LanguagesFile is the languages file to load: file when given, else
// configs/languages.toml when there is one here, else "" (the built-in
// one).
func LanguagesFile(file string) string {
	if file == "" {
		if _, err := os.Stat("configs/languages.toml"); err == nil {
			file = "configs/languages.toml"
		}
	}
	return file
}

// Entrants turns the BOT arguments of one match into what plays its
// seats, in their order: resolved and named as in every command
// (Resolve), made ready as a tournament makes them (Prepare: sources
// built in cache, one at a time; a Ruby contest player loaded once at
// proc's sandbox level, to tell a file that cannot play), run as proc
// says. A bot that cannot play stops the match: its *Fault, saying
// which bot it is; any other error is the judge's.
func Entrants(ctx context.Context, args []string, proc procbot.Options, langs *Languages, cache string) ([]judge.Entrant, error) {
	ps, err := PrepareAt(ctx, play.Batch{Args: args, Cache: cache, Jobs: 1}, langs, proc.Level)
	if err != nil {
		return nil, err
	}
	out := make([]judge.Entrant, len(ps))
	for i, p := range ps {
		if f := AsFault(p.Err); f != nil {
			var ce *CompileError
			if f.unnamed || errors.As(f, &ce) {
				return nil, &Fault{Err: fmt.Errorf("%s cannot play: %w", unprefixed(p.Arg), f.Err)}
			}
			return nil, f
		}
		out[i] = p.Entrant(proc)
	}
	return out, nil
}

// isSource reports whether arg is a directory or a source file of a known
// language that is not executable: a bot to build.
func (l *Languages) isSource(arg string) bool {
	if l == nil {
		return false
	}
	st, err := os.Stat(arg)
	return err == nil && (st.IsDir() || (st.Mode().IsRegular() && l.ByExt(arg) != nil && !procbot.IsExecutable(st)))
}

// builtBot is a program bot built from sources: its identity is its
// sources' hash, not its program's.
type builtBot struct {
	procbot.Bot
	key string
}

func (b builtBot) Info() (judge.BotInfo, error) {
	i, err := b.Bot.Info()
	i.SHA256 = b.key
	return i, err
}

// Entrant is what plays p's seats, under its name, in matches whose bots
// run as proc says; nil when p cannot play.
func (p *Prepared) Entrant(proc procbot.Options) judge.Entrant {
	switch {
	case p.Err != nil:
		return nil
	case p.Web != nil:
		// The bot's name in the tournament, not its address.
		return namedWeb{*p.Web, p.Name}
	}
	spec := p.Spec
	spec.Argv = expand(spec.Argv, RunVars(proc.Memory()))
	b := procbot.Bot{Spec: spec, Options: proc}
	if p.Kind == KindSource || p.Kind == KindSplixJava {
		return builtBot{b, p.Hash}
	}
	return b
}

// namedWeb is a web bot under its name in a tournament.
type namedWeb struct {
	httpbot.Bot
	name string
}

func (w namedWeb) Info() (judge.BotInfo, error) {
	i, err := w.Bot.Info()
	i.Name = w.name
	return i, err
}
