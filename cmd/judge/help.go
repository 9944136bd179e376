package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"

	"judge/games/catalog"
	"judge/judge"
)

// examples are the Examples section of each command's help.
var examples = map[string]string{
	"match": `judge match --game tictactoe bin/examples/gomoku/random "python3 examples/gomoku/random_bot.py"
judge match --config configs/gomoku.toml --seed 7 examples/gomoku/random.c examples/gomoku/strong
judge match --game connect4 --turn 200ms --json bot1 bot2 > result.json`,
	"play": `judge play --game tictactoe bin/examples/gomoku/strong
judge play --game connect4 --seat 1 "python3 examples/connect4/random_bot.py"
judge play --game gomoku --web bin/examples/gomoku/random`,
	"replay": `judge replay results/tournament-tictactoe/replays/r001-alpha-vs-beta.json
judge replay --delay 300ms --trace replay.json`,
	"view": `judge view replay.json    # writes replay.html beside it
judge view -o /tmp/game.html --open replay.json`,
	"explain": `judge explain game.json
judge explain --seat 1 results/tournament-connect4/replays/r001-alpha-vs-beta.json`,
	"debug": `judge debug game.json -- python3 bot.py               # the seat that failed, up to its failing turn
judge debug game.json --seat 1 --turn 12 -- python3 -m pdb bot.py
judge debug game.json -- gdb --args ./bot`,
	"serve": `judge serve results/demo/splix
judge serve --addr 127.0.0.1:8080 --open results/tournament-tictactoe`,
	"games": `judge games`,
	"tournament": `judge tournament --game tictactoe --rounds 2 bin/examples/gomoku/random "python3 examples/gomoku/random_bot.py"
judge tournament --config configs/tournament-tictactoe.toml
judge tournament --game gomoku --format gauntlet --test-bot mine.c --bots bots/gomoku mine.c
judge tournament --config configs/tournament-splix.toml -d DIR    # the Splix runner's options: judge help splix-runner
judge tournament --config configs/tournament-gomoku-gauntlet.toml --shard 0/4 --out results/shard0`,
	"sprt": `judge sprt --game connect4 bin/examples/connect4/random bin/examples/connect4/alphabeta
judge sprt --game gomoku --elo0 0 --elo1 10 --max-games 2000 old.c new.c`,
	"new-bot": `judge new-bot --game connect4 --lang python mybot
judge new-bot --game gomoku --lang c`,
	"new-game": `judge new-game --lang python nim
judge new-game --lang go games/othello`,
	"game": `judge game check examples/games/othello
judge game check --seeds 1000 --param size=6 examples/games/othello
judge game check --all --max-turns 500 nim`,
	"merge": `judge merge --out results/all results/shard0 results/shard1 results/shard2 results/shard3
judge merge --wait --timeout 2h --out results/all results/shard*`,
	"doctor": `judge doctor`,
}

// flagSection is a part of a command's flags shown apart from the others:
// in a section of their own, which `judge help NAME` prints, and named by
// one line at the end of the command's help.
type flagSection struct {
	name, title, about string
	flags              []string
}

// sections holds each flag set's separate sections; sectionTopics, the
// sections by name, for judge help NAME.
var (
	sections      sync.Map // *flag.FlagSet → []flagSection
	sectionTopics sync.Map // name → func(io.Writer)
)

// topicCommands are the sections of flags, by name, and their commands.
var topicCommands = map[string]string{"splix-runner": "tournament"}

// addSection shows the flags names of fs in a section of their own.
func addSection(fs *flag.FlagSet, s flagSection) {
	var all []flagSection
	if v, ok := sections.Load(fs); ok {
		all = v.([]flagSection)
	}
	sections.Store(fs, append(all, s))
	sectionTopics.Store(s.name, func(w io.Writer) {
		fmt.Fprintf(w, "%s\n\n%s\n\n", s.title, s.about)
		printFlags(w, fs, func(name string) bool { return contains(s.flags, name) })
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hidden reports whether a flag of fs is shown in a section of its own.
func hidden(fs *flag.FlagSet) func(string) bool {
	v, ok := sections.Load(fs)
	if !ok {
		return func(string) bool { return true }
	}
	return func(name string) bool {
		for _, s := range v.([]flagSection) {
			if contains(s.flags, name) {
				return false
			}
		}
		return true
	}
}

// printHelp is a command's --help: its usage and what it does, its
// flags but those of a section, the sections' names and its examples.
func printHelp(w io.Writer, fs *flag.FlagSet, name, args, about string) {
	fmt.Fprintf(w, "Usage: judge %s %s\n\n%s\n\nFlags:\n", name, args, about)
	printFlags(w, fs, hidden(fs))
	if v, ok := sections.Load(fs); ok {
		for _, s := range v.([]flagSection) {
			fmt.Fprintf(w, "\n%s: %s work too; 'judge help %s' lists them.\n", s.title, strings.Join(dashed(s.flags), ", "), s.name)
		}
	}
	if ex := examples[name]; ex != "" {
		fmt.Fprintf(w, "\nExamples:\n  %s\n", strings.ReplaceAll(ex, "\n", "\n  "))
	}
}

// dashed is flag names as the help writes them: -x, --name.
func dashed(names []string) []string {
	var out []string
	for _, n := range names {
		if len(n) == 1 {
			out = append(out, "-"+n)
		} else {
			out = append(out, "--"+n)
		}
	}
	return out
}

// help is judge help [TOPIC]: the general help, a command's help (as
// its --help), a section of flags (judge help splix-runner) or version.
func (m *Main) help(ctx context.Context, args []string) int {
	if len(args) == 0 {
		m.usage(m.Stdout)
		return 0
	}
	topic := args[0]
	if topic == "game" && len(args) > 1 {
		// judge help game NAME: the game's guide, as help protocol.
		return m.helpProtocol(args[1:])
	}
	for _, c := range commands {
		if c.name == topic {
			return m.Run(ctx, []string{topic, "--help"})
		}
	}
	if cmd, ok := topicCommands[topic]; ok {
		// The command's flags, made as its --help makes them, register
		// the section.
		quiet := *m
		quiet.Stdout, quiet.Stderr = io.Discard, io.Discard
		quiet.Run(ctx, []string{cmd, "--help"})
	}
	if f, ok := sectionTopics.Load(topic); ok {
		f.(func(io.Writer))(m.Stdout)
		return 0
	}
	if topic == "protocol" {
		return m.helpProtocol(args[1:])
	}
	if topic == "version" {
		fmt.Fprintln(m.Stdout, "Usage: judge version (or judge --version)\n\nPrints the judge's build: the module's version, the revision it was built from\n(and whether its sources had changed), and the Go release that built it.")
		return 0
	}
	fmt.Fprintf(m.Stderr, "judge help: no help on %q\n", topic)
	m.usage(m.Stderr)
	return 2
}

// helpProtocol is judge help protocol [GAME]: the guide of GAME's game
// (a variant's name works: tictactoe gives gomoku's), as the judge holds
// it, so that a bot's author needs nothing but the program; without
// GAME, the games that have one. A plugin game is found as the other
// commands find it: GAME is its folder, or its name with --game DIR or
// --config FILE (a games/ folder beside FILE, its games_path).
func (m *Main) helpProtocol(args []string) int {
	fs := flag.NewFlagSet("help protocol", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	var dirs []string
	fs.Func("game", "a plugin game's folder (repeatable)", func(s string) error { dirs = append(dirs, s); return nil })
	configFile := fs.String("config", "", "a match or tournament configuration: the plugin games of its games/ folder and games_path")
	pos, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(m.Stderr, "judge help protocol: %v\n", err)
		return 2
	}
	if err := addPluginGames(*configFile, dirs); err != nil {
		fmt.Fprintf(m.Stderr, "judge help protocol: %v\n", err)
		return 1
	}
	if len(pos) == 0 && len(dirs) == 1 {
		pos = dirs
	}
	if len(pos) == 0 {
		fmt.Fprintln(m.Stdout, "Usage: judge help protocol [--game DIR] [--config FILE] GAME\n\nPrints the rules of GAME and every line its bots read and write (its protocol\nguide, in Markdown). GAME is a game or a variant of one (see 'judge games'),\nor a plugin game: its folder, or its name with --game DIR or --config FILE:")
		seen := map[string]bool{}
		for _, v := range catalog.All() {
			g := v.Game.Name()
			if _, ok := v.Guide(); ok && !seen[g] {
				seen[g] = true
				fmt.Fprintf(m.Stdout, "  judge help protocol %s\n", g)
			}
		}
		return 0
	}
	if len(pos) > 1 {
		fmt.Fprintf(m.Stderr, "judge help protocol: one game, got %d: %q\n", len(pos), pos)
		return 2
	}
	v, err := catalog.Lookup(pos[0])
	if err != nil {
		fmt.Fprintf(m.Stderr, "judge help protocol: %v\n", err)
		return 1
	}
	b, ok := v.Guide()
	if !ok {
		fmt.Fprintf(m.Stderr, "judge help protocol: no guide for %s\n", v.Name)
		return 1
	}
	m.Stdout.Write(b)
	return 0
}

// version prints the judge's build (judge --version, judge version).
func (m *Main) version() int {
	fmt.Fprintln(m.Stdout, judge.Build())
	return 0
}
