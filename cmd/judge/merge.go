package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"judge/judge/tournament"
)

// The exit statuses of judge merge beyond 0, 1 and 2.
const (
	exitIncomplete = 3 // matches are missing (and no --partial), or --wait ran out of time
	exitMismatch   = 4 // the directories hold different tournaments, bots, runtimes, sandbox levels or settings
)

func (m *Main) merge(ctx context.Context, args []string) error {
	fs := m.newFlags("merge", "[flags] --out DIR DIR...",
		"Combines the output directories of a tournament's shards ('judge tournament --shard i/n')\n"+
			"into one: every match once, the replays, and the standings a single run would give.\n"+
			"It refuses directories that hold different tournaments, bots (names, hashes or\n"+
			"runtimes), sandbox levels or settings (time limits, io, output and sandbox limits, the\n"+
			"judge's build), naming what differs, and writes nothing when matches are missing\n"+
			"unless --partial: it then names each shard that lacks matches, how many, and the\n"+
			"command that plays them.\n\n"+
			"Exit status: 0 merged; 1 failed; 2 called wrongly; 3 matches missing (or --wait\n"+
			"timed out); 4 the directories cannot be merged (another tournament, other bots or\n"+
			"runtimes, another sandbox level, other settings, another judge).")
	out := fs.String("out", "", "directory to write the merged results to (required)")
	quiet := fs.Bool("quiet", false, "do not print the table")
	partial := fs.Bool("partial", false, "merge even when matches are missing (the standings say how many were played)")
	wait := fs.Bool("wait", false, "wait until every match is recorded: directories that do not exist yet are shards not yet started")
	timeout := fs.Duration("timeout", 0, "with --wait: give up after this long (exit status 3, or a partial merge with --partial); 0: no limit")
	poll := fs.Duration("poll", 10*time.Second, "with --wait: how often to look at the directories")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: no --out DIR", errUsage)
	}
	if len(pos) == 0 {
		return fmt.Errorf("%w: no directories to merge", errUsage)
	}
	if *timeout != 0 && !*wait {
		return fmt.Errorf("%w: --timeout is for --wait", errUsage)
	}
	if *timeout < 0 || *poll <= 0 {
		return fmt.Errorf("%w: --timeout and --poll must be positive", errUsage)
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	st, err := tournament.Merge(ctx, tournament.MergeOptions{
		Dirs: pos, Out: *out, Partial: *partial, Wait: *wait, Poll: *poll, Log: m.Stderr,
	})
	var inc *tournament.IncompleteError
	var mis *tournament.MismatchError
	switch {
	case errors.As(err, &inc):
		return exitError{exitIncomplete, err}
	case errors.As(err, &mis):
		return exitError{exitMismatch, err}
	case err != nil:
		return err
	}
	if !*quiet {
		st.Print(m.Stdout)
		fmt.Fprintf(m.Stderr, "merged %d directories into %s\n", len(pos), filepath.Join(*out, "standings.{md,csv,json}"))
	}
	return nil
}
