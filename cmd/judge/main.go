// Command judge runs game-playing bots against each other.
//
//	judge match --game NAME [flags] BOT BOT     play one match
//	judge play --game NAME [flags] [BOT...]     play bots yourself, in the terminal or a browser
//	judge replay FILE                           watch a replay in the terminal
//	judge view REPLAY [-o FILE.html]            watch a replay in a browser
//	judge explain REPLAY                        why a match ended as it did, turn by turn
//	judge debug REPLAY -- CMD...                run a bot (or a debugger) on the input it had in a match
//	judge serve DIR                             follow a tournament in a browser
//	judge games                                 list the games and their parameters
//	judge tournament [flags] BOT...             play a tournament: standings, ratings, replays
//	judge sprt --game NAME [flags] A B          is B stronger than A? a sequential test
//	judge new-bot --game NAME --lang LANG [DIR] write a starter bot in C, C++, Go, Rust, Java or Python
//	judge new-game --lang go|python DIR         write a game to start from: game.toml and a referee
//	judge game check DIR                        play a game in a folder against itself: what its referee gets wrong
//	judge merge --out DIR DIR...                combine the results of tournament shards
//	judge arena init|add|remove|list|serve|final a contest people submit bots to
//	judge doctor                                the protections the sandbox gives on this machine
//	judge version                               the judge's build (also judge --version)
//
// Run `judge help`, `judge help COMMAND` or `judge COMMAND --help` for the details.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"judge/games/catalog"
	"judge/games/plugin"
	"judge/judge"
	"judge/judge/bots"
	"judge/judge/procbot"
)

func main() {
	procbot.Init() // when run as a sandbox's init, this never returns
	host := procbot.NewHost(procbot.HostOptions{})
	catalog.UsePlugins(plugin.Options{Start: refereeStarter(host, procbot.Auto), CacheDir: wasmCache()})
	ctx, stop := onSignals(context.Background(), os.Stderr, os.Exit, time.Second)
	code := (&Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Host: host}).Run(ctx, os.Args[1:])
	stop()
	host.Close() // the cgroups of the sandboxes kept ready
	os.Exit(code)
}

// wasmCache is where WebAssembly referees are kept compiled between runs:
// beside the bots of single matches, in the machine's build cache.
func wasmCache() string { return filepath.Join(bots.MatchCache(), "wasm") }

// signalled is why the judge's context ended when it was sent SIGINT or
// SIGTERM: its context.Cause.
type signalled syscall.Signal

func (s signalled) Error() string {
	return fmt.Sprintf("interrupted by %s", signalName(syscall.Signal(s)))
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// onSignals returns a context that the first SIGINT or SIGTERM cancels,
// with the signal as its cause (signalled): the command stops what it
// does, kills its bots and says what was left undone. A second signal,
// once the first is at least window old, ends the judge at once: exit is
// called with 128 and the signal's number, as a shell reports a program
// the signal killed. Signals within the window count as one: timeout(1)
// sends its signal to the judge and to its process group, so twice.
// stop stops watching for signals.
func onSignals(parent context.Context, stderr io.Writer, exit func(int), window time.Duration) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var first time.Time
		select {
		case s := <-sigs:
			first = time.Now()
			cancel(signalled(s.(syscall.Signal)))
		case <-done:
			return
		}
		for {
			select {
			case s := <-sigs:
				if time.Since(first) < window {
					continue
				}
				n := s.(syscall.Signal)
				fmt.Fprintf(stderr, "judge: %s again: ending at once\n", signalName(n))
				exit(128 + int(n))
				return
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			cancel(nil)
		})
	}
}

// interrupted is the signal that ended ctx, if one did.
func interrupted(ctx context.Context) (signalled, bool) {
	s, ok := context.Cause(ctx).(signalled)
	return s, ok && ctx.Err() != nil
}

// Main is the program, with its outputs, so tests can drive it in-process.
type Main struct {
	Stdin          io.Reader // what judge play reads the person's moves from
	Stdout, Stderr io.Writer
	// Host starts the bots; nil for one of Run's own, closed when it
	// returns.
	Host *procbot.Host
}

// errUsage marks an error in how the command was called (exit status 2).
var errUsage = errors.New("usage")

// exitError is a failure with its own exit status.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

type command struct {
	name, args, summary string
	run                 func(m *Main, ctx context.Context, args []string) error
}

var commands []command

func init() {
	commands = []command{
		{"match", "--game NAME [flags] BOT BOT", "play one match between bots", (*Main).match},
		{"play", "--game NAME [--seat N] BOT...", "play a match yourself against bots, in the terminal or a browser", (*Main).play},
		{"replay", "[flags] FILE", "play a replay back in the terminal", (*Main).replay},
		{"view", "[-o FILE.html] REPLAY", "write a replay viewer: one HTML file to open in a browser", (*Main).view},
		{"explain", "[--seat S] REPLAY", "say why a match ended as it did, and the turns that decided it", (*Main).explain},
		{"debug", "REPLAY [--seat S] [--turn N] -- CMD", "run a bot, or a debugger on it, with the input it had in a match", (*Main).debug},
		{"serve", "[--addr HOST:PORT] DIR", "show a tournament's standings and replays in a browser, live", (*Main).serve},
		{"games", "", "list the games and their parameters", (*Main).games},
		{"tournament", "[--config FILE] [flags] BOT...", "play a tournament: standings, ratings, replays", (*Main).tournament},
		{"sprt", "--game NAME [flags] A B", "is B stronger than A? paired games until a sequential test decides", (*Main).sprt},
		{"new-bot", "--game NAME --lang LANG [DIR]", "write a starter bot that plays legal moves", (*Main).newBot},
		{"new-game", "--lang go|python DIR", "write a game to start from: game.toml and a referee", (*Main).newGame},
		{"game", "check [flags] DIR", "play a game in a folder against itself: what its referee gets wrong", (*Main).gameCmd},
		{"merge", "--out DIR DIR...", "combine the results of tournament shards", (*Main).merge},
		{"arena", "init|add|remove|list|serve|final", "run a contest people submit bots to: a ladder, then a final", (*Main).arena},
		{"doctor", "", "say which protections the sandbox gives bots on this machine", (*Main).doctor},
	}
}

// Run runs the command line args and returns the exit status: 0 when the
// command did its job, 1 when it failed, 2 when it was called wrongly;
// a command may say more with its own statuses (judge merge: 3, 4).
func (m *Main) Run(ctx context.Context, args []string) int {
	if m.Host == nil {
		own := *m
		own.Host = procbot.NewHost(procbot.HostOptions{})
		defer own.Host.Close()
		m = &own
	}
	if len(args) == 0 {
		m.usage(m.Stdout)
		return 2
	}
	switch args[0] {
	case "help", "-h", "--help", "-help":
		return m.help(ctx, args[1:])
	case "version", "--version", "-version":
		return m.version()
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(m, ctx, args[1:])
			var ee exitError
			if sig, ok := interrupted(ctx); ok && err != nil && !errors.As(err, &ee) && !errors.Is(err, errUsage) {
				// Stopped by a signal: the shell's status for it.
				if errors.Is(err, context.Canceled) {
					err = sig // rather than "context canceled"
				}
				err = exitError{code: 128 + int(sig), err: err}
			}
			switch {
			case errors.As(err, &ee):
				fmt.Fprintf(m.Stderr, "judge %s: %s\n", c.name, judge.Printable(err.Error()))
				return ee.code
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				fmt.Fprintf(m.Stderr, "judge %s: %s\n", c.name, judge.Printable(err.Error()))
				fmt.Fprintf(m.Stderr, "run 'judge %s --help' for usage\n", c.name)
				return 2
			default:
				fmt.Fprintf(m.Stderr, "judge %s: %s\n", c.name, judge.Printable(err.Error()))
				return 1
			}
		}
	}
	fmt.Fprintf(m.Stderr, "judge: unknown command %q\n", args[0])
	m.usage(m.Stderr)
	return 2
}

func (m *Main) usage(w io.Writer) {
	fmt.Fprintln(w, "judge runs game-playing bots against each other.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  judge %-10s %-34s %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintf(w, "  judge %-10s %-34s %s\n", "version", "", "print the judge's build (also judge --version)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'judge help COMMAND' (or 'judge COMMAND --help') for a command's flags and examples,\nand 'judge help protocol GAME' for the rules of a game and its bots' protocol.")
}

// newFlags makes a flag set for a command whose help goes to m.Stdout.
func (m *Main) newFlags(name, args, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	// The flag package calls Usage on every error too; the help is
	// printed by parse, for --help only.
	fs.Usage = func() {}
	helps.Store(fs, func() { printHelp(m.Stdout, fs, name, args, about) })
	return fs
}

// helps holds each flag set's help printer.
var helps sync.Map // *flag.FlagSet → func()

// printFlags lists the flags of fs that show says to as the
// documentation writes them, --name (and -x for one letter), with their
// meaning and default. Either form works on the command line.
func printFlags(w io.Writer, fs *flag.FlagSet, show func(name string) bool) {
	fs.VisitAll(func(f *flag.Flag) {
		if !show(f.Name) {
			return
		}
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		arg, usage := flag.UnquoteUsage(f)
		line := "  " + dash + f.Name
		if arg != "" {
			line += " " + arg
		}
		switch f.DefValue {
		case "", "0", "false", "0s":
		default:
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	})
}

// parse parses flags and positional arguments in any order.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				if h, ok := helps.Load(fs); ok {
					h.(func())()
				}
				return nil, err
			}
			// The flag package writes flags with one dash; the docs, two.
			msg := strings.Replace(err.Error(), " -", " --", 1)
			return nil, fmt.Errorf("%w: %s", errUsage, msg)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
