package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"judge/judge/arena"
	"judge/judge/standings"
	"judge/judge/tournament"
)

// arenaCommands are the subcommands of judge arena.
var arenaCommands = []struct{ name, args, summary string }{
	{"init", "--game GAME [--config FILE] [--ref BOT]... [--web-bots LIST] DIR", "make an arena in DIR"},
	{"add", "DIR NAME", "add an entrant and print its token"},
	{"remove", "DIR NAME", "retire an entrant: its token stops working, its matches stay"},
	{"list", "DIR", "list the entrants, their latest submissions and the standings"},
	{"serve", "DIR [--addr 127.0.0.1:PORT] [--jobs N] [--public]", "take submissions and play the ladder"},
	{"final", "DIR --out OUT [--seed N]", "close submissions and play the final round robin"},
}

// arenaExamples end judge arena's help.
const arenaExamples = `  judge arena init --game tictactoe --ref examples/gomoku/random.c contest/
  judge arena add contest/ alice
  judge arena serve contest/ --addr 127.0.0.1:8080 --jobs 2
  judge arena final contest/ --out results/final --seed 1
`

func (m *Main) arena(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		fmt.Fprintln(m.Stdout, "judge arena runs a contest people submit bots to: an arena is one directory.")
		fmt.Fprintln(m.Stdout)
		fmt.Fprintln(m.Stdout, "Usage:")
		for _, c := range arenaCommands {
			fmt.Fprintf(m.Stdout, "  judge arena %-7s %-50s %s\n", c.name, c.args, c.summary)
		}
		if len(args) == 0 {
			return fmt.Errorf("%w: want a subcommand", errUsage)
		}
		// Then each subcommand's help, with its flags.
		for _, c := range arenaCommands {
			fmt.Fprintln(m.Stdout)
			if err := m.arena(ctx, []string{c.name, "--help"}); err != nil && !errors.Is(err, flag.ErrHelp) {
				return err
			}
		}
		fmt.Fprint(m.Stdout, "\nExamples:\n"+arenaExamples)
		return nil
	}
	switch args[0] {
	case "init":
		return m.arenaInit(args[1:])
	case "add", "remove", "list":
		return m.arenaEntrants(ctx, args[0], args[1:])
	case "serve":
		return m.arenaServe(ctx, args[1:])
	case "final":
		return m.arenaFinal(ctx, args[1:])
	}
	return fmt.Errorf("%w: unknown subcommand %q", errUsage, args[0])
}

// listFlag is a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func (m *Main) arenaInit(args []string) error {
	fs := m.newFlags("arena init", "--game GAME [flags] DIR",
		"Makes an arena in DIR, which must not exist or be empty: arena.toml (its settings),\n"+
			"arena.db (entrants, submissions, matches), and the folders submissions/, builds/,\n"+
			"replays/ and refs/. Reference bots given as files or folders are copied into refs/,\n"+
			"the match configuration file into match.toml.")
	c := arena.Config{}
	var refs listFlag
	var params paramFlag
	fs.StringVar(&c.Game, "game", "", "game to play (see 'judge games')")
	fs.Var(&params, "param", "game parameter NAME=VALUE (repeatable)")
	fs.StringVar(&c.ConfigFile, "config", "", "match configuration file (TOML: limits, sandbox, see configs/)")
	fs.Var(&refs, "ref", "a reference bot every new submission plays its test matches against (repeatable)")
	fs.IntVar(&c.TestMatches, "test-matches", arena.DefaultTestMatches, "test matches of each new submission against each reference bot, at least one in each seat")
	fs.BoolVar(&c.FailingJoinsLadder, "failing-joins-ladder", false, "a submission that lost test matches by its own fault (a crash, a timeout,\n"+
		"an illegal move) plays in the ladder all the same, as failing (default: it does not)")
	fs.Int64Var(&c.MaxUploadBytes, "max-upload", arena.DefaultMaxUploadBytes, "largest upload, in bytes")
	fs.IntVar(&c.SubmissionsPerHour, "per-hour", arena.DefaultSubmissionsPerHour, "submissions an entrant may make in an hour")
	fs.IntVar(&c.RefusedPerHour, "refused-per-hour", arena.DefaultRefusedPerHour, "refused uploads (bad archives, too large) an entrant may make in an hour, then its uploads are refused unread")
	fs.Int64Var(&c.ReplayBudgetMB, "replay-budget-mb", arena.DefaultReplayBudgetMB, "MiB of replays kept: past it the oldest ladder replays are dropped")
	fs.IntVar(&c.LadderGames, "ladder-games", arena.DefaultLadderGames, "ladder matches each submission plays: then the ladder waits for a new one")
	fs.StringVar(&c.Languages, "languages", "", "how to build each language (default configs/languages.toml if present, else built in)")
	var webBots listFlag
	fs.Var(&webBots, "web-bots", "networks and hosts web bots may be at: 10.0.0.0/24, bots.example.org, *.example.org,\n"+
		"comma-separated or repeated; the machine's own networks only if listed (127.0.0.1/32); none: no web bots")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || c.Game == "" {
		return fmt.Errorf("%w: want --game GAME and one directory", errUsage)
	}
	c.References, c.Params = refs, params
	// A plugin game named, found as match finds it: a games/ folder beside
	// the configuration, or its games_path. The arena keeps its folder.
	if err := addPluginGames(c.ConfigFile, nil); err != nil {
		return err
	}
	for _, l := range webBots {
		for e := range strings.SplitSeq(l, ",") {
			c.WebBots = append(c.WebBots, strings.TrimSpace(e))
		}
	}
	if err := arena.Init(pos[0], c); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "arena of %s made in %s; add entrants with 'judge arena add %s NAME'\n", c.Game, pos[0], pos[0])
	return nil
}

// arenaEntrants runs add, remove and list.
func (m *Main) arenaEntrants(ctx context.Context, sub string, args []string) error {
	want := map[string]int{"add": 2, "remove": 2, "list": 1}[sub]
	fs := m.newFlags("arena "+sub, map[string]string{"add": "DIR NAME", "remove": "DIR NAME", "list": "DIR"}[sub],
		map[string]string{
			"add":    "Adds an entrant and prints its token, the last word of the last line: give it to\nthe entrant, it is shown only once (the arena keeps only its hash).",
			"remove": "Retires an entrant: its token stops working and its submissions leave the ladder;\nits matches are kept.",
			"list":   "Lists the entrants, the status of each one's latest submission, and the ladder's\nstandings.",
		}[sub])
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != want {
		return fmt.Errorf("%w: want %d arguments, got %d", errUsage, want, len(pos))
	}
	a, err := arena.Open(ctx, pos[0])
	if err != nil {
		return err
	}
	defer a.Close()
	switch sub {
	case "add":
		tok, err := a.AddParticipant(ctx, pos[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "added %s; its token (shown once): %s\n", pos[1], tok)
		return nil
	case "remove":
		if err := a.RemoveParticipant(ctx, pos[1]); err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "removed %s\n", pos[1])
		return nil
	}
	return listArena(ctx, a, m.Stdout)
}

// listArena writes the entrants and the standings.
func listArena(ctx context.Context, a *arena.Arena, w io.Writer) error {
	es, err := a.Participants(ctx)
	if err != nil {
		return err
	}
	n, st, err := a.Standings(ctx)
	if err != nil {
		return err
	}
	rank := map[string]standings.Standing{}
	for _, s := range st {
		rank[s.Name] = s
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "entrant\tstate\tlatest submission\trank\trating\t95% interval\tplayed\tW-D-L\tfailures")
	for _, e := range es {
		state := "entered"
		if e.Retired {
			state = "removed"
		}
		latest := "-"
		subs, err := a.Submissions(ctx, e)
		if err != nil {
			return err
		}
		if len(subs) > 0 {
			latest = fmt.Sprintf("%d %s", subs[0].ID, subs[0].Status)
		}
		s, ok := rank[e.Name]
		if !ok {
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t-\t-\t-\t-\n", e.Name, state, latest)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.0f\t%.0f to %.0f\t%d\t%d-%d-%d\t%d\n", e.Name, "on the ladder", latest, s.Rank, s.Rating, s.RatingLow, s.RatingHigh,
			s.Played, s.Wins, s.Draws, s.Losses, s.Failures.Total)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d entrants, %d ladder matches between active submissions\n", len(es), n)
	return nil
}

func (m *Main) arenaFinal(ctx context.Context, args []string) error {
	fs := m.newFlags("arena final", "DIR --out OUT [flags]",
		"Closes submissions and plays the final: a round robin (groups, for games of more\n"+
			"than two players) of every entrant's active submission, as 'judge tournament'\n"+
			"plays it, writing the same standings files and replays into OUT. Run again with\n"+
			"the same OUT, it resumes.")
	out := fs.String("out", "", "output directory: results log, standings, replays")
	seed := fs.Uint64("seed", 0, "the final's seed (default: the one recorded in --out, else random)")
	jobs := fs.Int("jobs", 0, "matches at once (default: one per CPU)")
	quiet := fs.Bool("quiet", false, "no progress, no table: only errors")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *out == "" {
		return fmt.Errorf("%w: want one arena directory and --out", errUsage)
	}
	a, err := arena.Open(ctx, pos[0])
	if err != nil {
		return err
	}
	defer a.Close()
	if !given(fs, "seed") {
		h, err := tournament.RecordedHeader(*out)
		switch {
		case err != nil:
			return err
		case h != nil:
			*seed = h.Seed
		default:
			*seed = randomSeed()
			fmt.Fprintf(m.Stderr, "seed %d (give --seed %d to play the same final again)\n", *seed, *seed)
		}
	}
	if err := a.Freeze(ctx, true); err != nil {
		return err
	}
	o, err := a.FinalOptions(ctx, *out, *seed)
	if err != nil {
		return err
	}
	o.Jobs = *jobs
	o.Command = append([]string{"judge", "arena", "final"}, args...)
	o.Log = m.Stderr
	if !*quiet {
		o.Progress = &tournament.Progress{W: m.Stderr, Terminal: isTerminal(m.Stderr)}
	} else {
		o.Log = io.Discard
	}
	err = m.runTournament(ctx, o, *quiet)
	var ue *tournament.UnplayableError
	if errors.As(err, &ue) {
		return exitError{exitUnplayable, err}
	}
	return err
}
