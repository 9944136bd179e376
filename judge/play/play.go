// Package play is what every contest (a tournament, an arena) does with
// its bots: it takes them as contestants (Bot, Contestant, made by a
// Preparer its caller gives), and plays their matches one at a time: a
// match the judge failed under (a bot's sandbox, not the bot) is played
// again, a few times at most; its replay is written durably before its
// record, so that no record names a replay a crash lost. It knows no
// tournament and no arena, and no kind of bot: the record is the
// caller's, and so is which of the judge's failures is worth another try.
package play

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"judge/judge"
)

// Retries is how many times a match is played again when the judge
// failed under it (Options.Retry).
const Retries = 3

// Options say which failures play a match again, and who hears of them.
type Options struct {
	// Retry tells a match's failure that is no one's loss — a bot's
	// sandbox that failed under it —: the match is played again, in new
	// sandboxes, Retries times at most. nil: none is.
	Retry func(error) bool
	// Again, when set, is told each failure the match is played again
	// after.
	Again func(error)
}

// Match plays m, again while it fails as o.Retry says (and the context
// lasts), and returns its result and the time its last try took. A
// failure is returned as judge.Run returned it.
func Match(ctx context.Context, m judge.Match, o Options) (*judge.Result, time.Duration, error) {
	start := time.Now()
	res, err := judge.Run(ctx, m)
	for try := 1; err != nil && o.Retry != nil && o.Retry(err) && ctx.Err() == nil && try <= Retries; try++ {
		if o.Again != nil {
			o.Again(err)
		}
		start = time.Now()
		res, err = judge.Run(ctx, m)
	}
	return res, time.Since(start), err
}

// Record writes a played match's replay to path, then records the match
// with save, told the replay's size: a record never names a replay a
// crash lost. The replay is written atomically and durably: into a file
// of its own, synced, then renamed into place, so that path holds a whole
// replay or none. The record's own sync (a results log's, a database's
// commit) stores the new name with it on a journalling file system (ext4,
// XFS), in that order. A replay whose record failed stays: what no record
// names is the caller's to remove (RemoveTemps removes the files cut
// short).
func Record(path string, r *judge.Replay, save func(size int64) error) error {
	b, err := judge.EncodeReplay(r)
	if err != nil {
		return err
	}
	if err := judge.WriteFileSync(path, b, judge.SyncFile); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return save(int64(len(b)))
}

// RemoveTemps removes from dir the temporary files of replays that a
// killed judge left, cut short before Record renamed them.
func RemoveTemps(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if filepath.Ext(e.Name()) == ".tmp" {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
