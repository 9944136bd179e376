package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"judge/judge"
	"judge/judge/bots"
	"judge/judge/bots/contest"
	"judge/judge/human"
	"judge/judge/procbot"
	"judge/judge/tournament"
)

func (m *Main) tournament(ctx context.Context, args []string) error {
	fs := m.newFlags("tournament", "[--config FILE] [flags] BOT... | --bots DIR",
		"Plays a tournament between bots and writes standings, replays and a results log\n"+
			"into --out. A BOT is a source file or directory (built as configs/languages.toml\n"+
			"says), an executable, or a quoted command line such as \"python3 bot.py\".\n"+
			"Flags override the configuration file. Running the same command again resumes:\n"+
			"only the matches not yet recorded are played, and those of a bot whose program\n"+
			"changed are played again (--fresh plays everything again).\n\n"+
			"Exit status: 0 played; 1 failed; 2 called wrongly; 5 with --shard, a bot cannot play\n"+
			"here (it does not build, or its runtime is missing): the shard plays nothing, since\n"+
			"every shard must play every bot (without --shard such a bot is left out).")
	mf := addMatchFlags(fs)
	tf := addTournamentFlags(fs)
	rf := addRunnerFlags(fs, tf.gamesN, tf.jobs, tf.seed, tf.botsDir)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	tf.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { tf.set[f.Name] = true })
	if err := rf.apply(tf.set, tf.gamesN, tf.jobs, tf.botsDir); err != nil {
		return err
	}

	cfg := &tournament.Config{}
	if *tf.configFile != "" {
		if cfg, err = tournament.LoadConfig(*tf.configFile); err != nil {
			return err
		}
	}
	ts := cfg.Tournament
	mf.deferCheck = true // checked while the bots are prepared (tournament.Options.Ready)
	su, err := mf.resolve(m.Host, &cfg.File, *tf.configFile, m.Stderr)
	if err != nil {
		return err
	}
	if m.Host != nil {
		// The sandbox's one-time check, done while the bots are prepared.
		go m.Host.Sandbox().CheckReuse(su.proc.Level)
	}
	if err := checkCounts(mf.set, map[string]int{"rounds": *tf.rounds, "games": *tf.gamesN, "group_size": *tf.groupSize, "jobs": *tf.jobs}); err != nil {
		return err
	}
	o, err := tf.options(su.match, ts)
	if err != nil {
		return err
	}
	o.Ready = su.ready
	if o.Seed, err = tf.seedOf(o.Out, ts, m.Stderr); err != nil {
		return err
	}
	if err := tf.bots(&o, pos, ts, su.proc); err != nil {
		return err
	}

	// Recorded, for a merge to say how to resume this shard.
	o.Command = append([]string{os.Args[0], "tournament"}, args...)
	if o.Dir, err = os.Getwd(); err != nil {
		o.Dir = ""
	}
	o.Log = m.Stderr
	if !*tf.quiet {
		o.Progress = &tournament.Progress{W: m.Stderr, Terminal: isTerminal(m.Stderr)}
	} else {
		o.Log = io.Discard
	}
	err = m.runTournament(ctx, o, *tf.quiet)
	if err == nil {
		err = rf.openAfter(o.Out, o.TestBot, o.Log)
	}
	var ue *tournament.UnplayableError
	if errors.As(err, &ue) {
		return exitError{exitUnplayable, err}
	}
	return err
}

// tournamentFlags are the flags of judge tournament of its own, and which
// were given (set).
type tournamentFlags struct {
	configFile, format, out, cache, testBot, shard, botsDir, languages *string
	rounds, gamesN, jobs, groupSize                                    *int
	seed                                                               *uint64
	quiet, trace, fresh                                                *bool
	set                                                                map[string]bool
}

func addTournamentFlags(fs *flag.FlagSet) *tournamentFlags {
	tf := &tournamentFlags{
		configFile: fs.String("config", "", "tournament file (TOML, see configs/tournament-*.toml)"),
		format:     fs.String("format", "", "roundrobin, gauntlet, swiss or groups (default: roundrobin for two players, groups for more)"),
		rounds:     fs.Int("rounds", 0, "rounds: in each, every pair plays both seat orders (swiss: rounds of pairings; groups: random draws) (default 1)"),
		gamesN:     fs.Int("games", 0, "groups: play at least this many games in all, in whole rounds (the Splix runner's --iterations)"),
		seed:       fs.Uint64("seed", 0, "tournament seed; every match's seed derives from it (default: the one recorded in --out, else random)"),
		jobs:       fs.Int("jobs", 0, "matches at once (default: one per CPU, fewer for games where several bots move at once)"),
		out:        fs.String("out", "", "output directory: results log, standings, replays (default results/GAME)"),
		cache:      fs.String("cache", "", "build cache directory (default OUT/cache)"),
		testBot:    fs.String("test-bot", "", "only matches with this bot (a name or a BOT argument); gauntlet: the bot against the field"),
		groupSize:  fs.Int("group-size", 0, "groups: players per match (default min(5, bots, the game's maximum))"),
		shard:      fs.String("shard", "", "play only share i of n of the matches, i/n with 0 <= i < n (combine with 'judge merge')"),
		botsDir:    fs.String("bots", "", "play every bot in this directory (sources, programs, directories)"),
		languages:  fs.String("languages", "", "how to build each language (default configs/languages.toml if present, else built in)"),
		quiet:      fs.Bool("quiet", false, "no progress, no table: only errors, and the bots left out and why"),
		trace:      fs.Bool("trace", false, "keep every protocol line of every bot, and its stderr turn by turn, in the replays"),
		fresh:      fs.Bool("fresh", false, "start over: move the results in --out aside (to OUT.old-TIME) and play every match"),
	}
	fs.IntVar(tf.gamesN, "iterations", 0, "same as --games")
	fs.StringVar(tf.testBot, "t", "", "same as --test-bot")
	return tf
}

// pick is the flag's value when it was given, else the file's.
func (tf *tournamentFlags) pick(flagName string, flagVal, cfgVal string) string {
	if tf.set[flagName] {
		return flagVal
	}
	return cfgVal
}

// pickInt is pick for counts.
func (tf *tournamentFlags) pickInt(flagName string, flagVal, cfgVal int) int {
	if tf.set[flagName] || (flagName == "games" && tf.set["iterations"]) {
		return flagVal
	}
	return cfgVal
}

// options are the tournament's options of match mt, as the flags and
// the [tournament] table ts say: all but its seed and its bots.
func (tf *tournamentFlags) options(mt judge.Match, ts tournament.Settings) (tournament.Options, error) {
	o := tournament.Options{Match: mt}
	o.Match.Trace = *tf.trace
	var err error
	if f := tf.pick("format", *tf.format, ts.Format); f != "" {
		if o.Format, err = tournament.ParseFormat(f); err != nil {
			return o, fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	o.Rounds = tf.pickInt("rounds", *tf.rounds, ts.Rounds)
	o.Games = tf.pickInt("games", *tf.gamesN, ts.Games)
	o.Jobs = tf.pickInt("jobs", *tf.jobs, ts.Jobs)
	o.GroupSize = tf.pickInt("group-size", *tf.groupSize, ts.GroupSize)
	o.TestBot = tf.pick("test-bot", *tf.testBot, ts.TestBot)
	if tf.set["t"] {
		o.TestBot = *tf.testBot
	}
	o.Out = tf.pick("out", *tf.out, ts.Out)
	if o.Out == "" {
		o.Out = filepath.Join("results", mt.Name)
	}
	o.Cache = tf.pick("cache", *tf.cache, ts.Cache)
	o.Fresh = *tf.fresh
	if *tf.shard != "" {
		if o.Shard, err = tournament.ParseShard(*tf.shard); err != nil {
			return o, fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	return o, nil
}

// seedOf is the tournament's seed: the flag's, the file's, the one
// recorded in out, or a random one, said on stderr.
func (tf *tournamentFlags) seedOf(out string, ts tournament.Settings, stderr io.Writer) (uint64, error) {
	switch {
	case tf.set["seed"]:
		return *tf.seed, nil
	case ts.Seed != nil:
		return *ts.Seed, nil
	}
	h, err := tournament.RecordedHeader(out)
	if err != nil {
		return 0, err
	}
	if h != nil {
		return h.Seed, nil
	}
	seed := randomSeed()
	fmt.Fprintf(stderr, "seed %d (give --seed %d to play the same tournament again)\n", seed, seed)
	return seed, nil
}

// bots gives o its bots: the arguments pos, or the file's when there are
// none, and those of the bots directory, run as proc says.
func (tf *tournamentFlags) bots(o *tournament.Options, pos []string, ts tournament.Settings, proc procbot.Options) error {
	langs, err := loadLanguages(proc.Host, tf.pick("languages", *tf.languages, ts.Languages))
	if err != nil {
		return err
	}
	contest.Use(o, langs, proc)

	// The command line's bots replace the file's.
	dir := *tf.botsDir
	botArgs := pos
	if len(pos) == 0 && dir == "" {
		botArgs, dir = ts.Bots, ts.BotsDir
	}
	if dir != "" {
		more, skipped, err := bots.BotArgs(dir, langs)
		if err != nil {
			return err
		}
		for _, s := range skipped {
			o.Skipped = append(o.Skipped, tournament.Excluded{Name: s.Path, Error: s.Why})
		}
		botArgs = append(append([]string(nil), botArgs...), more...)
	}
	if len(botArgs) == 0 {
		return fmt.Errorf("%w: no bots: give them as arguments, with --bots DIR, or in the configuration", errUsage)
	}
	o.Bots = botArgs
	return nil
}

// runTournament runs a tournament and, unless quiet, shows its standings
// and where its files are.
func (m *Main) runTournament(ctx context.Context, o tournament.Options, quiet bool) error {
	st, err := tournament.Run(ctx, o)
	if st != nil && quiet && err == nil {
		// No table, but a bot left out is worth saying, and why.
		for _, e := range st.Excluded {
			fmt.Fprintf(m.Stderr, "%s is left out: %s\n", judge.PrintableLine(e.Name), judge.Printable(e.Error))
		}
	}
	if st != nil && !quiet {
		st.Print(m.Stdout)
		files := tournament.StandingsFiles(o.Out)
		var we *tournament.WriteError
		if errors.As(err, &we) {
			files = we.Written
		}
		where := "standings not written"
		if len(files) > 0 {
			where = "standings: " + strings.Join(files, ", ")
		}
		fmt.Fprintf(m.Stderr, "%s; replays: %s; judge peak RSS %.1f MiB\n",
			judge.Printable(where), judge.Printable(filepath.Join(o.Out, "replays")), peakRSS())
	}
	return err
}

// exitUnplayable is the exit status of judge tournament --shard when the
// shard cannot play its part: a bot that does not build or whose runtime
// is missing on this machine.
const exitUnplayable = 5

// countFlags are the flags that set each count of the [tournament] table.
var countFlags = map[string][]string{
	"rounds":     {"rounds"},
	"games":      {"games", "iterations", "i"},
	"group_size": {"group-size"},
	"jobs":       {"jobs", "c", "thread-count"},
}

// checkCounts checks the counts the flags give (values, by the table's
// key) against the ranges of the [tournament] table: out of range is a
// usage error naming the flag.
func checkCounts(set func(string) bool, values map[string]int) error {
	for _, k := range tournament.Counts {
		v := int64(values[k.Key])
		for _, name := range countFlags[k.Key] {
			if !set(name) || v >= k.Min && v <= k.Max {
				continue
			}
			dash := "--"
			if len(name) == 1 {
				dash = "-"
			}
			want := fmt.Sprintf("want %d to %d", k.Min, k.Max)
			if k.Key == "jobs" {
				want += " (0: one per CPU)"
			}
			return fmt.Errorf("%w: %s%s %d: %s", errUsage, dash, name, v, want)
		}
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && human.IsTerminal(f)
}
