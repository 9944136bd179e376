package arena

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
)

// countReplays counts the kept replays' bytes, as Run starts: a replay
// recorded by an earlier judge, whose size the database lacks, is
// measured once.
func (a *Arena) countReplays(ctx context.Context) error {
	rows, err := a.db.QueryContext(ctx, `SELECT id, replay FROM matches WHERE replay_bytes < 0`)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	sizes := map[int64]int64{}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return fmt.Errorf("arena: %w", err)
		}
		var n int64
		if info, err := os.Lstat(filepath.Join(a.dir, "replays", name)); err == nil {
			n = info.Size()
		}
		sizes[id] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if len(sizes) > 0 {
		err := a.inTx(ctx, func(tx *sql.Tx) error {
			for id, n := range sizes {
				if _, err := tx.ExecContext(ctx, `UPDATE matches SET replay_bytes = ? WHERE id = ?`, n, id); err != nil {
					return fmt.Errorf("arena: %w", err)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	var total int64
	if err := a.db.QueryRowContext(ctx, `SELECT coalesce(sum(replay_bytes), 0) FROM matches WHERE replay_dropped = 0`).Scan(&total); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	a.replayMu.Lock()
	a.replayBytes = total
	a.replayMu.Unlock()
	return a.trimReplays(ctx, 0)
}

// trimReplays counts a new replay of n bytes and, once the kept replays
// are over the arena's budget, drops the oldest ladder matches' replays
// until they are within nine tenths of it. Test matches' replays, which
// their authors read, are kept.
func (a *Arena) trimReplays(ctx context.Context, n int64) error {
	a.replayMu.Lock()
	defer a.replayMu.Unlock()
	a.replayBytes += n
	budget := a.cfg.ReplayBudgetMB << 20
	if a.replayBytes <= budget {
		return nil
	}
	excess := a.replayBytes - budget*9/10
	rows, err := a.db.QueryContext(ctx, `SELECT id, replay, replay_bytes FROM matches
		WHERE replay_dropped = 0 AND test = 0 ORDER BY id LIMIT 10000`)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	var ids []int64
	var names []string
	var freed int64
	for freed < excess && rows.Next() {
		var id, size int64
		var name string
		if err := rows.Scan(&id, &name, &size); err != nil {
			rows.Close()
			return fmt.Errorf("arena: %w", err)
		}
		ids, names, freed = append(ids, id), append(names, name), freed+size
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	err = a.inTx(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE matches SET replay_dropped = 1 WHERE id = ?`, id); err != nil {
				return fmt.Errorf("arena: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	a.replayBytes -= freed
	// A file a crash leaves here is removed as Run starts again: no
	// kept match names it.
	for _, name := range names {
		os.Remove(filepath.Join(a.dir, "replays", name))
	}
	return nil
}
