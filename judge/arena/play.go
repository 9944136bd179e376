package arena

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"time"

	"judge/judge"
	"judge/judge/bots/contest"
	"judge/judge/play"
)

// named is an entrant under the arena's name for it.
type named struct {
	judge.Entrant
	name string
}

func (n named) Info() (judge.BotInfo, error) {
	i, err := n.Entrant.Info()
	i.Name = n.name
	return i, err
}

// play plays w and records it: the replay first, then the match, in one
// transaction with what it decides (a submission's test matches done).
// A match the context cuts short is not recorded.
func (r *runner) play(ctx context.Context, w *work) error {
	m := r.s.match
	if len(w.subs) != r.s.seats {
		m.Params = maps.Clone(m.Params)
		m.Params[r.s.seatParam] = len(w.subs)
	}
	var seed [8]byte
	if _, err := rand.Read(seed[:]); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	for _, b := range seed {
		m.Seed = m.Seed<<8 | uint64(b)
	}
	m.Entrants = make([]judge.Entrant, len(w.subs))
	names := make([]string, len(w.subs))
	for i, id := range w.subs {
		if id == 0 {
			c, name := r.refs[w.refs[i]], r.refNames[w.refs[i]]
			m.Entrants[i], names[i] = named{c.Entrant, name}, name
			continue
		}
		var arg, name string
		st, err := r.a.stmt(ctx, `SELECT s.arg, e.name FROM submissions s JOIN entrants e ON e.id = s.entrant_id WHERE s.id = ?`)
		if err == nil {
			err = st.QueryRowContext(ctx, id).Scan(&arg, &name)
		}
		if err != nil {
			return stopped(ctx, fmt.Errorf("arena: %w", err))
		}
		c, err := r.contestant(ctx, id, arg)
		if err != nil {
			return stopped(ctx, err)
		}
		if c.Err != nil {
			// It built once, not now (a compiler changed under it).
			_, err := r.a.db.ExecContext(ctx, `UPDATE submissions SET status = ?, log = ? WHERE id = ?`, StatusCompileError, r.private(arg, c.Err.Error()), id)
			return stopped(ctx, err)
		}
		m.Entrants[i], names[i] = named{c.Entrant, name}, name
	}
	res, _, err := play.Match(ctx, m, play.Options{Retry: contest.IsSandboxFailure})
	switch {
	case err != nil && ctx.Err() != nil:
		return nil
	case err != nil:
		return r.unplayable(ctx, w, names, err)
	}
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	prefix := "m"
	if w.test {
		prefix = "t"
	}
	replay := fmt.Sprintf("%s%d-%s.json", prefix, time.Now().UnixNano(), hex.EncodeToString(rnd[:]))
	var (
		size  int64
		txErr error // the record's: already says it is the arena's
	)
	err = play.Record(filepath.Join(r.a.dir, "replays", replay), res.Replay, func(n int64) error {
		size = n
		txErr = r.a.inTx(context.WithoutCancel(ctx), func(tx *sql.Tx) error {
			if err := stopWebBots(context.WithoutCancel(ctx), tx, w.subs, res); err != nil {
				return err
			}
			return r.record(ctx, tx, w, m.Seed, res, names, replay, n)
		})
		return txErr
	})
	switch {
	case txErr != nil:
		return txErr
	case err != nil:
		return fmt.Errorf("arena: %w", err)
	}
	return r.a.trimReplays(context.WithoutCancel(ctx), size)
}

// unplayable deals with match w, which could not be played (err): each
// submission in it that cannot start alone is benched, with the reason
// for its author; when none is, the failure is the judge's, and the
// caller tries again later. The match is not recorded either way.
func (r *runner) unplayable(ctx context.Context, w *work, names []string, err error) error {
	blamed := false
	for _, id := range w.subs {
		if id == 0 {
			continue
		}
		r.a.mu.Lock()
		c := r.a.built[id]
		r.a.mu.Unlock()
		if c == nil || c.Err != nil {
			continue
		}
		serr := r.starts(ctx, c)
		if serr == nil || ctx.Err() != nil {
			continue
		}
		blamed = true
		var arg string
		if qerr := r.a.db.QueryRowContext(ctx, `SELECT arg FROM submissions WHERE id = ?`, id).Scan(&arg); qerr != nil {
			return fmt.Errorf("arena: %w", qerr)
		}
		if _, uerr := r.a.db.ExecContext(ctx, `UPDATE submissions SET status = ?, log = ? WHERE id = ? AND status IN (?, ?, ?)`,
			StatusBenched, r.private(arg, "benched: it cannot start: "+serr.Error()), id, StatusTesting, StatusActive, StatusFailing); uerr != nil {
			return fmt.Errorf("arena: %w", uerr)
		}
		r.a.logf("arena: submission %d benched: it cannot start: %v", id, serr)
	}
	if blamed {
		return nil
	}
	return fmt.Errorf("match %v: %w", names, err)
}

// record records a finished match in tx, and promotes a submission that
// has played all its test matches.
func (r *runner) record(ctx context.Context, tx *sql.Tx, w *work, seed uint64, res *judge.Result, names []string, replay string, size int64) error {
	ctx = context.WithoutCancel(ctx)
	insMatch, err := r.a.stmt(ctx, `INSERT INTO matches (test, seed, winner, turns, reason, replay, finished, replay_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	insSeat, err := r.a.stmt(ctx, `INSERT INTO match_seats (match_id, seat, submission_id, name, status, reason, score) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	insSeat = tx.StmtContext(ctx, insSeat)
	x, err := tx.StmtContext(ctx, insMatch).ExecContext(ctx,
		w.test, int64(seed), res.Winner, res.Turns, res.NamedReason(), replay, time.Now().UnixNano(), size)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	id, err := x.LastInsertId()
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	for i, p := range res.Players {
		var sub any
		if w.subs[i] != 0 {
			sub = w.subs[i]
		}
		_, err := insSeat.ExecContext(ctx,
			id, i, sub, names[i], string(p.Status), p.Reason, p.Score)
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	if !w.test {
		return nil
	}
	for _, sub := range w.subs {
		if sub != 0 {
			if err := r.promote(ctx, tx, sub); err != nil {
				return err
			}
		}
	}
	return nil
}

// promote decides, in tx, what becomes of submission id, still testing,
// once it has played all its test matches (testSlots): it is its
// entrant's active submission, retiring the one before; or, when it
// lost any by its own fault, it is failing, with what happened in its
// log, and plays in the ladder only where the arena lets failing
// submissions (then retiring the one before), else the one before plays
// on. A newer submission in the ladder retires it instead.
func (r *runner) promote(ctx context.Context, tx *sql.Tx, id int64) error {
	var status, arg string
	var entrant int64
	err := tx.QueryRowContext(ctx, `SELECT status, entrant_id, arg FROM submissions WHERE id = ?`, id).Scan(&status, &entrant, &arg)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if status != StatusTesting {
		return nil
	}
	if len(r.refs) > 0 {
		played, err := r.playedSlots(ctx, tx, id)
		if err != nil {
			return err
		}
		if len(r.slotsLeft(played)) > 0 {
			return nil
		}
	}
	failures, log, err := testFailures(ctx, tx, id)
	if err != nil {
		return err
	}
	log = r.private(arg, log)
	a, b := r.a.laddered()
	next := StatusActive
	if failures > 0 {
		next = StatusFailing
		if r.a.cfg.FailingJoinsLadder {
			log += "\n\nIt plays in the ladder all the same, as this arena lets failing submissions: its failures are counted in the standings."
		} else {
			log += "\n\nIt does not play in the ladder: fix it and submit again. Your earlier active submission, if any, plays on."
			_, err := tx.ExecContext(ctx, `UPDATE submissions SET status = ?, log = `+afterBuildLog+` WHERE id = ?`, next, log, log, log, id)
			if err != nil {
				return fmt.Errorf("arena: %w", err)
			}
			return nil
		}
	}
	var newer int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM submissions WHERE entrant_id = ? AND status IN (?, ?) AND id > ?`,
		entrant, a, b, id).Scan(&newer); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if newer > 0 {
		next = StatusRetired
	} else if _, err := tx.ExecContext(ctx, `UPDATE submissions SET status = ? WHERE entrant_id = ? AND status IN (?, ?)`,
		StatusRetired, entrant, a, b); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE submissions SET status = ?, log = `+afterBuildLog+` WHERE id = ?`, next, log, log, log, id); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}

// afterBuildLog is a submission's log with a text (given three times)
// after what its build said (the compiler's warnings), if anything.
const afterBuildLog = `CASE WHEN ? = '' THEN log WHEN log = '' THEN ? ELSE log || char(10) || char(10) || ? END`

// testFailures are the test matches submission id lost by its own
// fault, and what happened in each, for its author: which test match,
// its replay, the fault in words (which says the turn), and the whole
// reason the judge gave (the tail of its stderr).
func testFailures(ctx context.Context, tx *sql.Tx, id int64) (int, string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT ms.seat, ms.status, ms.reason, m.reason, m.replay,
		coalesce((SELECT group_concat(o.name, ', ') FROM match_seats o WHERE o.match_id = m.id AND o.seat != ms.seat), '')
		FROM match_seats ms JOIN matches m ON m.id = ms.match_id WHERE m.test = 1 AND ms.submission_id = ? ORDER BY m.id`, id)
	if err != nil {
		return 0, "", fmt.Errorf("arena: %w", err)
	}
	defer rows.Close()
	var b strings.Builder
	n, failures := 0, 0
	for rows.Next() {
		var seat int
		var st, seatReason, reason, replay, others string
		if err := rows.Scan(&seat, &st, &seatReason, &reason, &replay, &others); err != nil {
			return 0, "", fmt.Errorf("arena: %w", err)
		}
		n++
		if st == string(judge.OK) {
			continue
		}
		failures++
		fmt.Fprintf(&b, "\n\nTest match %d, against %s, in seat %d (replay %s): %s\nWhat the judge saw (%s): %s", n, others, seat, replay, reason, st, seatReason)
	}
	if err := rows.Err(); err != nil {
		return 0, "", fmt.Errorf("arena: %w", err)
	}
	if failures == 0 {
		return 0, "", nil
	}
	return failures, fmt.Sprintf("failing: it lost %d of its %d test matches by its own fault (a crash, a timeout, an illegal move, a protocol fault).", failures, n) + b.String(), nil
}
