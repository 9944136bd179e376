package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"judge/judge/tournament"
)

// runnerFlags are the Splix king-of-the-hill runner's options, with its
// letters and names, on `judge tournament`: -i/--iterations (games),
// -t/--test-bot, -d/--directory (bots), -r/--random-seed (seed),
// -c/--thread-count (jobs), -m/--multi-thread (false: one match at a
// time), -g/--gui (open a replay in the viewer afterwards), and
// -q/--question-id, which downloads the contest's answers and has no
// meaning here.
type runnerFlags struct {
	fs       *flag.FlagSet
	gui      bool
	multi    string
	question string
}

func addRunnerFlags(fs *flag.FlagSet, games, jobs *int, seed *uint64, botsDir *string) *runnerFlags {
	r := &runnerFlags{fs: fs}
	fs.IntVar(games, "i", 0, "same as --games (the Splix runner's -i)")
	fs.StringVar(botsDir, "d", "", "same as --bots, but DIR/java when there is one (the Splix runner's -d, --directory)")
	fs.StringVar(botsDir, "directory", "", "same as -d")
	fs.Uint64Var(seed, "r", 0, "same as --seed (the Splix runner's -r, --random-seed)")
	fs.Uint64Var(seed, "random-seed", 0, "same as --seed")
	fs.IntVar(jobs, "c", 0, "same as --jobs (the Splix runner's -c, --thread-count)")
	fs.IntVar(jobs, "thread-count", 0, "same as --jobs")
	fs.StringVar(&r.multi, "m", "", "true or false: false plays one match at a time, like --jobs 1 (the Splix runner's -m, --multi-thread)")
	fs.StringVar(&r.multi, "multi-thread", "", "same as -m")
	fs.BoolVar(&r.gui, "g", false, "once the tournament is played, open a replay in the viewer: the test bot's last match, else the last one (the Splix runner's -g, --gui)")
	fs.BoolVar(&r.gui, "gui", false, "same as -g")
	fs.StringVar(&r.question, "q", "", "the Splix runner's -q (--question-id), which downloads the contest's answers: not available, the message says what to do instead")
	fs.StringVar(&r.question, "question-id", "", "same as -q")
	addSection(fs, flagSection{
		name:  "splix-runner",
		title: "The Splix runner's options",
		about: "judge tournament takes the options of the Splix king-of-the-hill contest's runner,\n" +
			"with its letters and names, so that its command lines work unchanged:\n" +
			"  judge tournament --config configs/tournament-splix.toml -d DIR -i 100 -c 4\n" +
			"Each stands for one of judge tournament's flags (judge help tournament).",
		flags: []string{"i", "iterations", "t", "d", "directory", "r", "random-seed", "c", "thread-count", "m", "multi-thread", "g", "gui", "q", "question-id"},
	})
	return r
}

// apply checks the runner's options and marks in set the judge's flags
// they stand for (-r sets seed, -c jobs, -i games, -d bots).
//
// As in the runner, -d DIR takes the bots in DIR/java when there is such a
// directory.
func (r *runnerFlags) apply(set map[string]bool, games, jobs *int, botsDir *string) error {
	for alias, name := range map[string]string{"i": "games", "d": "bots", "directory": "bots", "r": "seed", "random-seed": "seed",
		"c": "jobs", "thread-count": "jobs"} {
		if set[alias] {
			set[name] = true
		}
	}
	if set["i"] && *games < 1 {
		return fmt.Errorf("%w: -i %d: want at least 1", errUsage, *games)
	}
	if set["d"] || set["directory"] {
		if st, err := os.Stat(filepath.Join(*botsDir, "java")); err == nil && st.IsDir() {
			*botsDir = filepath.Join(*botsDir, "java")
		}
	}
	for _, name := range []string{"c", "thread-count"} {
		if set[name] && *jobs < 1 {
			return fmt.Errorf("%w: -%s %d: want at least 1", errUsage, name, *jobs)
		}
	}
	if set["q"] || set["question-id"] {
		return fmt.Errorf("%w: -q (--question-id) downloads the contest's answers from its web page; the judge plays only bots on this machine: save them in a directory and give -d DIR (their .java files that extend SplixPlayer play as they are)", errUsage)
	}
	if set["m"] || set["multi-thread"] {
		multi, err := strconv.ParseBool(r.multi)
		if err != nil {
			return fmt.Errorf("%w: -m %q: want true or false", errUsage, r.multi)
		}
		if !multi {
			if set["jobs"] && *jobs != 1 {
				return fmt.Errorf("%w: -m false (one match at a time) contradicts --jobs %d", errUsage, *jobs)
			}
			*jobs = 1
			set["jobs"] = true
		}
	}
	return nil
}

// openAfter opens a replay of the tournament in out in the viewer: the
// last match of the test bot when there is one, else the last match.
func (r *runnerFlags) openAfter(out, testBot string, w io.Writer) error {
	if !r.gui {
		return nil
	}
	st, _, err := tournament.OpenStore(out)
	if err != nil {
		return err
	}
	ms := st.Matches()
	st.Close()
	var pick *tournament.MatchRecord
	for _, m := range ms {
		if m.Replay == "" {
			continue
		}
		has := testBot == ""
		for _, p := range m.Players {
			has = has || p.Name == testBot
		}
		if has {
			pick = m
		}
	}
	if pick == nil {
		return fmt.Errorf("-g: no replay in %s to open", out)
	}
	path := filepath.Join(out, pick.Replay)
	fmt.Fprintf(w, "opening %s in the replay viewer\n", path)
	return openReplay(path)
}
