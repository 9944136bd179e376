package main

import (
	"context"
	"fmt"
	"path/filepath"

	"judge/judge/tournament"
)

func (m *Main) merge(_ context.Context, args []string) error {
	fs := m.newFlags("merge", "--out DIR DIR...",
		"Combines the output directories of a tournament's shards ('judge tournament --shard i/n')\n"+
			"into one: every match once, the replays, and the standings a single run would give.")
	out := fs.String("out", "", "directory to write the merged results to (required)")
	quiet := fs.Bool("quiet", false, "do not print the table")
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
	st, err := tournament.Merge(pos, *out, m.Stderr)
	if err != nil {
		return err
	}
	if !*quiet {
		st.Print(m.Stdout)
		fmt.Fprintf(m.Stderr, "merged %d directories into %s\n", len(pos), filepath.Join(*out, "standings.{md,csv,json}"))
	}
	return nil
}
