package bots

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"judge/judge/httpbot"
	"judge/judge/procbot"
	"judge/judge/splixjava"
)

// Fault is a bot's own reason not to play, found as it is made ready: a
// file that is no bot or cannot be read, a compile error (*CompileError),
// its language's runtime missing (*RuntimeError), a contest player that
// does not load. Its message is its cause's. Every other error of
// Resolve, Prepare and Build is the judge's own (its build cache, its
// sandbox): it stops whatever was to play, and never leaves a bot out.
type Fault struct {
	Err error
	// unnamed is a reason that does not name the bot's file: a single
	// match says which bot it is (Entrants).
	unnamed bool
}

func (f *Fault) Error() string { return f.Err.Error() }

func (f *Fault) Unwrap() error { return f.Err }

// AsFault returns the *Fault in err's chain, or nil: nil for an error
// that is the judge's.
func AsFault(err error) *Fault {
	var f *Fault
	if errors.As(err, &f) {
		return f
	}
	return nil
}

// faulty is err as the bot's fault; nil for nil.
func faulty(err error) error {
	if err == nil || AsFault(err) != nil {
		return err
	}
	return &Fault{Err: err}
}

// Kind is the kind of bot a BOT argument names.
type Kind string

// The kinds of bots.
const (
	KindWeb         Kind = "web"          // http://…, https://…, http+json://…: played over HTTP
	KindRubyContest Kind = "ruby-contest" // ruby-contest:FILE.rb: played through the judge's Ruby host
	KindSplixJava   Kind = "splix-java"   // splix-java:FILE.java, FILE.clj or DIR: built with the judge's Java host
	KindSource      Kind = "source"       // a directory, or a non-executable source file of a known language: built
	KindProgram     Kind = "program"      // an executable or a command line: run as it is
)

// Ref is a BOT argument resolved: what kind of bot it is, under which
// name it plays, the hash of what it is, and what preparing it takes
// (Prepare). It is read, never built or started: a bot that cannot play
// for what is found here (a file that is no bot) has the reason in Err.
type Ref struct {
	Arg  string
	Kind Kind
	// Name is the bot's name in every command (see Resolve).
	Name string
	// Hash is the sha256 of what the bot is: its sources for a source
	// bot (the key of its build), its program and script for a program,
	// its file for a Ruby contest player, its address for a web bot; ""
	// until it is built for a Splix contest player (whose sources are
	// the player's and the judge's Java host's), or when Err is set.
	Hash string
	// Err is a *Fault, why the bot cannot play; nil when it may.
	Err error

	web  *httpbot.Bot
	spec procbot.Spec // a program's or a Ruby contest player's
	sub  *Submission  // a source bot's
	path string       // a Splix contest player's
}

// Resolve turns BOT arguments into Refs, in their order, named by the one
// rule of every command (match, play, sprt, tournament, arena): see
// names. Kinds are told by the argument: a URL is a web bot,
// ruby-contest:FILE.rb and splix-java:PATH contest players, a directory
// or a source file of a language of langs that is not executable a
// source bot, and anything else a program (an executable or a command
// line).
func Resolve(args []string, langs *Languages) []*Ref {
	refs := make([]*Ref, len(args))
	for i, arg := range args {
		refs[i] = resolve(arg, langs)
	}
	names(refs)
	return refs
}

// resolve is one argument's Ref, unnamed.
func resolve(arg string, langs *Languages) *Ref {
	r := &Ref{Arg: arg}
	if b, ok, err := httpbot.Parse(arg); ok {
		r.Kind, r.web, r.Err = KindWeb, &b, faulty(err)
		// A web bot is known by its address: what runs there is its
		// server's business.
		sum := sha256.Sum256([]byte(b.URL))
		r.Hash = hex.EncodeToString(sum[:])
		return r
	}
	if file, ok := strings.CutPrefix(arg, RubyContestPrefix); ok {
		r.Kind = KindRubyContest
		spec, err := RubyContestSpec(file)
		if err != nil {
			r.Err = err
			return r
		}
		r.spec = spec
		r.Hash, r.Err = r.fileHash(spec)
		return r
	}
	if path, ok := splixjava.Cut(arg); ok {
		r.Kind, r.path = KindSplixJava, path
		return r
	}
	if langs.isSource(arg) {
		r.Kind = KindSource
		sub, err := langs.Detect(arg)
		if err != nil {
			r.Err = faulty(err)
			return r
		}
		r.sub = sub
		r.Hash, r.Err = sub.Key()
		r.Err = faulty(r.Err)
		return r
	}
	r.Kind = KindProgram
	spec, err := procbot.ParseBot(arg)
	if err != nil {
		r.Err = faulty(err)
		return r
	}
	r.spec = spec
	r.Hash, r.Err = r.fileHash(spec)
	return r
}

// fileHash is the hash of what spec runs, or the bot's fault that it
// cannot be read.
func (r *Ref) fileHash(spec procbot.Spec) (string, error) {
	h, err := spec.Hash()
	if err != nil {
		return "", &Fault{Err: fmt.Errorf("bot %q: %w", r.Arg, err)}
	}
	return h, nil
}

// names gives every bot its name, one rule for every command. A bot is
// named after the file it comes from (Ref.file): a directory by its own
// name (alice/, and from inside it ., are alice); a source file or
// script whose name says only that it is a bot (bot.c, main.go, Bot.java,
// bot.py: the files `judge new-bot` writes) by its directory's (alice/bot.c
// is alice); any other file by its name without its extension (random.c
// and "python3 random.py" are random); a command line that names no file
// by its program. A web bot is named by its address, host and path
// (127.0.0.1:8080/connectfour.php).
//
// Bots given together (the bots of a match, of a tournament) that would
// share a name are told apart, the same way in every command: each of
// them is named by its file's name with its extension (random.c,
// random.py), then by its directory and that file's name without its
// extension (despo-player for despo/player.rb), then with it; a web bot
// by its whole URL. Those still alike (the same bot given twice) keep
// their own name, numbered in their order: the first NAME, the next
// NAME-2, NAME-3 and so on.
func names(refs []*Ref) {
	try := []func(r *Ref) string{
		func(r *Ref) string { return r.ownName() },
		func(r *Ref) string { return fileName(r.file(), true) },
		func(r *Ref) string {
			f := r.file()
			return filepath.Base(filepath.Dir(f)) + "-" + fileName(f, false)
		},
		func(r *Ref) string {
			f := r.file()
			return filepath.Base(filepath.Dir(f)) + "-" + fileName(f, true)
		},
	}
	for level, f := range try {
		try[level] = func(r *Ref) string {
			switch {
			case r.Kind != KindWeb:
				return f(r)
			case level == 0:
				return r.ownName()
			}
			return r.Arg
		}
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = try[0](r)
	}
	for level := 1; level < len(try); level++ {
		count := map[string]int{}
		for _, n := range out {
			count[n]++
		}
		for i, r := range refs {
			if count[out[i]] > 1 {
				out[i] = try[level](r)
			}
		}
	}
	// Alike still (the same bot twice): their own names, numbered.
	count := map[string]int{}
	for _, n := range out {
		count[n]++
	}
	taken := map[string]bool{}
	for i, r := range refs {
		if count[out[i]] > 1 {
			out[i] = try[0](r)
		}
		taken[out[i]] = true
	}
	seen := map[string]bool{}
	for i, r := range refs {
		n := out[i]
		if seen[n] {
			for k := 2; taken[n]; k++ {
				n = fmt.Sprintf("%s-%d", out[i], k)
			}
			taken[n] = true
		}
		seen[n] = true
		r.Name = n
	}
}

// ownName is the name of a bot given alone (see names).
func (r *Ref) ownName() string {
	if r.Kind == KindWeb {
		if r.web == nil {
			return r.Arg
		}
		if info, err := r.web.Info(); err == nil && info.Name != "" {
			return info.Name
		}
		return r.Arg
	}
	f := r.file()
	st, err := os.Stat(f)
	if err != nil {
		return fileName(f, false)
	}
	dir := f
	if !st.IsDir() {
		if !namesOnlyABot(f) {
			return fileName(f, false)
		}
		dir = filepath.Dir(f)
	}
	if abs, err := filepath.Abs(dir); err == nil && filepath.Dir(abs) != abs {
		return filepath.Base(abs)
	}
	return fileName(f, false)
}

// file is the file a bot comes from, which names it: the path of a
// source bot or a contest player, the executable given, or of a command
// line the last of its words that names a file (the script of python3
// bot.py), else its last word.
func (r *Ref) file() string {
	arg := strings.TrimPrefix(r.Arg, RubyContestPrefix)
	if p, ok := splixjava.Cut(arg); ok {
		arg = p
	}
	if _, err := os.Stat(arg); err == nil {
		return arg
	}
	argv, err := procbot.SplitCommand(arg)
	if err != nil || len(argv) == 0 {
		return arg
	}
	for i := len(argv) - 1; i >= 0; i-- {
		if st, err := os.Stat(argv[i]); err == nil && !st.IsDir() {
			return argv[i]
		}
	}
	return argv[len(argv)-1]
}

// fileName is a file's name, with or without its extension.
func fileName(path string, ext bool) string {
	name := filepath.Base(filepath.Clean(path))
	if !ext {
		if e := filepath.Ext(name); e != name {
			name = strings.TrimSuffix(name, e)
		}
	}
	return name
}

// namesOnlyABot reports whether a file's name says only that it is a bot
// (bot.c, main.go, Bot.java): such a bot is named after its directory.
func namesOnlyABot(file string) bool {
	n := strings.ToLower(fileName(file, false))
	return n == "bot" || n == "main"
}

// NamingPath is the end of the path of a bot's file or directory that
// names it (see names): a directory's own name, a file's name, and for a
// file whose name says only that it is a bot its directory's too
// (alice/bot.c). A copy of the bot at that path under any directory has
// the bot's name.
func NamingPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Base(filepath.Clean(path))
	}
	if st, err := os.Stat(abs); err == nil && !st.IsDir() && namesOnlyABot(abs) && filepath.Dir(filepath.Dir(abs)) != filepath.Dir(abs) {
		return filepath.Join(filepath.Base(filepath.Dir(abs)), filepath.Base(abs))
	}
	return filepath.Base(abs)
}
