package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"judge/judge/bots"
)

// staleAfter is how old a staged upload must be before clean removes it:
// one being unpacked by a server now (this one, or a Submit of another
// process) is younger.
const staleAfter = 10 * time.Minute

// clean removes what a server killed at any moment may have left: uploads
// staged but never recorded, replays written for matches never recorded,
// builds cut short in the build cache. Run calls it as it starts, holding
// the arena's lock: no other Run plays meanwhile.
func (a *Arena) clean(ctx context.Context, cache string) error {
	subs := filepath.Join(a.dir, "submissions")
	ents, err := os.ReadDir(subs)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), stagePrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleAfter {
			if err := os.RemoveAll(filepath.Join(subs, e.Name())); err != nil {
				return fmt.Errorf("arena: %w", err)
			}
		}
	}
	if err := a.cleanReplays(ctx); err != nil {
		return err
	}
	if err := bots.RemoveStaleBuilds(cache); err != nil {
		return fmt.Errorf("arena: the build cache: %w", err)
	}
	return nil
}

// cleanReplays removes the replays that no kept match names: written by a
// server killed before it recorded their match, or dropped from the
// budget before it removed them.
func (a *Arena) cleanReplays(ctx context.Context) error {
	named := map[string]bool{}
	rows, err := a.db.QueryContext(ctx, `SELECT replay FROM matches WHERE replay_dropped = 0`)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			rows.Close()
			return fmt.Errorf("arena: %w", err)
		}
		named[r] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	dir := filepath.Join(a.dir, "replays")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	for _, e := range ents {
		if !named[e.Name()] && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("arena: %w", err)
			}
		}
	}
	return nil
}
