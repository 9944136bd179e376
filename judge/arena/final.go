package arena

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"judge/judge/bots/contest"
	"judge/judge/tournament"
)

// FinalOptions are the options of the final: a round robin (groups, for
// a game of more than two seats) of the active submissions, built as
// judge tournament builds them, in the arena's build cache, into out.
// The caller may add its Progress and Log.
func (a *Arena) FinalOptions(ctx context.Context, out string, seed uint64) (tournament.Options, error) {
	s, err := a.setup()
	if err != nil {
		return tournament.Options{}, err
	}
	l, err := a.loadLadder(ctx)
	if err != nil {
		return tournament.Options{}, err
	}
	o := tournament.Options{Match: s.match, Seed: seed, Out: out, Cache: filepath.Join(a.dir, "builds"), Log: io.Discard}
	for _, id := range l.subs {
		var arg string
		if err := a.db.QueryRowContext(ctx, `SELECT arg FROM submissions WHERE id = ?`, id).Scan(&arg); err != nil {
			return o, fmt.Errorf("arena: %w", err)
		}
		o.Bots = append(o.Bots, a.path(arg))
	}
	if len(o.Bots) < 2 {
		return o, fmt.Errorf("arena: the final needs two active submissions at least, there are %d", len(o.Bots))
	}
	contest.Use(&o, s.langs, s.proc)
	o.Prepare = a.webPolicies(o.Prepare)
	return o, nil
}

// Final closes submissions and plays the final into out: the standings
// files and replays of judge tournament, whose run it is. Run again with
// the same out and seed, it resumes.
func (a *Arena) Final(ctx context.Context, out string, seed uint64) error {
	if err := a.Freeze(ctx, true); err != nil {
		return err
	}
	o, err := a.FinalOptions(ctx, out, seed)
	if err != nil {
		return err
	}
	_, err = tournament.Run(ctx, o)
	return err
}
