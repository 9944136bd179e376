package bots

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"judge/judge"
	"judge/judge/httpbot"
	"judge/judge/procbot"
	"judge/judge/splixjava"
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

// Entrant turns a BOT argument into what plays a seat: a web bot
// (http://…, https://…), a Ruby contest player (ruby-contest:FILE.rb,
// loaded once in the sandbox to tell a file that cannot play), a
// Splix contest player in Java or Clojure (splix-java:FILE.java, FILE.clj
// or DIR), a directory or a non-executable source file of a language of
// langs (built in cache, as a tournament builds it: a path that was
// refused before), or a program (an executable or a command line) run as
// proc says.
func Entrant(ctx context.Context, arg string, proc procbot.Options, langs *Languages, cache string) (judge.Entrant, error) {
	if b, ok, err := httpbot.Parse(arg); ok {
		return b, err
	}
	if spec, ok, err := ParseRubyContest(arg); ok {
		if err != nil {
			return nil, err
		}
		// Loaded once before the match, so that a file that does not
		// parse or holds no player says so with Ruby's message.
		why, err := proc.Host.CheckRubyContest(ctx, spec, proc.Level)
		switch {
		case err != nil:
			return nil, err
		case why != "":
			return nil, fmt.Errorf("%s cannot play: %s", spec.Argv[len(spec.Argv)-1], why)
		}
		return procbot.Bot{Spec: spec, Options: proc}, nil
	}
	if _, ok := splixjava.Cut(arg); ok {
		spec, key, err := langs.SplixJavaSpec(ctx, arg, cache, proc.Memory())
		if err != nil {
			return nil, err
		}
		return builtBot{procbot.Bot{Spec: spec, Options: proc}, key}, nil
	}
	if langs.isSource(arg) {
		return sourceBot(ctx, arg, proc, langs, cache)
	}
	spec, err := procbot.ParseBot(arg)
	if err != nil {
		return nil, err
	}
	return procbot.Bot{Spec: spec, Options: proc}, nil
}

// isSource reports whether arg is a directory or a source file of a known
// language that is not executable: a bot to build.
func (l *Languages) isSource(arg string) bool {
	st, err := os.Stat(arg)
	return err == nil && (st.IsDir() || (st.Mode().IsRegular() && l.ByExt(arg) != nil && !procbot.IsExecutable(st)))
}

// sourceBot builds a source file or directory in cache, as a tournament
// does, and returns it as a program bot named after its file.
func sourceBot(ctx context.Context, arg string, proc procbot.Options, langs *Languages, cache string) (judge.Entrant, error) {
	sub, err := langs.Detect(arg)
	if err != nil {
		return nil, err
	}
	if _, err := langs.Runtime(ctx, sub.Lang, arg, cache); err != nil {
		return nil, err
	}
	b, err := langs.Build(ctx, sub, cache)
	if err != nil {
		var ce *CompileError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("%s cannot play: %w", arg, ce)
		}
		return nil, err
	}
	spec := procbot.Spec{Name: sourceName(arg), Argv: expand(b.Argv, RunVars(proc.Memory())), Dir: b.Dir}
	return builtBot{procbot.Bot{Spec: spec, Options: proc}, b.Key}, nil
}

// sourceName is the name of a bot built from arg: a directory's own name
// (alice/ and, from inside it, . are alice), and for a source file whose
// name says only that it is a bot — bot.c, main.go, Bot.java, the files
// `judge new-bot` writes — the name of its directory (alice/bot.c is
// alice); else the file's name without its extension (random.c is random).
func sourceName(arg string) string {
	st, err := os.Stat(arg)
	if err != nil {
		return baseName(arg, false)
	}
	dir := arg
	if !st.IsDir() {
		if n := strings.ToLower(baseName(arg, false)); n != "bot" && n != "main" {
			return baseName(arg, false)
		}
		dir = filepath.Dir(arg)
	}
	if abs, err := filepath.Abs(dir); err == nil && filepath.Dir(abs) != abs {
		return filepath.Base(abs)
	}
	return baseName(arg, false)
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
	return procbot.Bot{Spec: spec, Options: proc}
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
