package arena

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Submit records an upload of entrant e, to be built and played by Run.
// The files are on disk and the submission recorded before it returns.
//
// An upload is unpacked before the database's write transaction, which
// then only records it and moves its folder into place: however long an
// archive takes to unpack, the matches' writes do not wait for it. At
// most unpackers uploads are unpacked at once. A refused upload (a bad
// archive, one too large) counts toward the entrant's refusals of the
// hour, a limit of its own (RefusedPerHour).
func (a *Arena) Submit(ctx context.Context, e Participant, u Upload) (int64, error) {
	if err := a.admit(ctx, e); err != nil {
		return 0, err
	}
	switch {
	case (u.URL == "") == (u.Data == nil):
		return 0, a.refused(ctx, e, fmt.Errorf("%w: give a file or a URL", ErrBadArchive))
	case int64(len(u.Data)) > a.cfg.MaxUploadBytes || int64(len(u.URL)) > 2048:
		return 0, a.refused(ctx, e, ErrTooLarge)
	case u.URL != "" && !strings.HasPrefix(u.URL, "http://") && !strings.HasPrefix(u.URL, "http+json://"):
		return 0, a.refused(ctx, e, fmt.Errorf("%w: a bot's URL starts with http:// or http+json://", ErrBadArchive))
	case u.URL != "":
		if err := a.checkURL(u.URL); err != nil {
			return 0, a.refused(ctx, e, err)
		}
	}
	arg, staged := u.URL, ""
	if u.URL == "" {
		var err error
		if staged, err = a.stage(ctx, e.Name, u); err != nil {
			if errors.Is(err, ErrBadArchive) {
				return 0, a.refused(ctx, e, err)
			}
			return 0, err
		}
		defer os.RemoveAll(staged) // gone once moved into place
	}
	var id int64
	err := a.inTx(ctx, func(tx *sql.Tx) error {
		if err := admitTx(ctx, tx, e, a.cfg.SubmissionsPerHour); err != nil {
			return err
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO submissions (entrant_id, arg, status, created) VALUES (?, '', ?, ?)`,
			e.ID, StatusQueued, time.Now().UnixNano())
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if id, err = r.LastInsertId(); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if staged != "" {
			if arg, err = a.place(id, e.Name, staged); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE submissions SET arg = ? WHERE id = ?`, arg, id); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	a.notify()
	return id, nil
}

// admit checks, before anything costly, that entrant e may submit now:
// submissions open, the entrant not retired, within its hour's
// submissions and refusals.
func (a *Arena) admit(ctx context.Context, e Participant) error {
	if err := admitTx(ctx, a.db, e, a.cfg.SubmissionsPerHour); err != nil {
		return err
	}
	var n int
	since := time.Now().Add(-time.Hour).UnixNano()
	if err := a.db.QueryRowContext(ctx, `SELECT count(*) FROM refusals WHERE entrant_id = ? AND created > ?`, e.ID, since).Scan(&n); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if n >= a.cfg.RefusedPerHour {
		return fmt.Errorf("%w (%d refused uploads in the last hour)", ErrRateLimited, n)
	}
	return nil
}

// admitTx is admit's check of submissions in q, a transaction or the
// database.
func admitTx(ctx context.Context, q querier, e Participant, perHour int) error {
	frozen, err := isFrozen(ctx, q)
	if err != nil {
		return err
	}
	if frozen {
		return ErrFrozen
	}
	var retired bool
	if err := q.QueryRowContext(ctx, `SELECT retired FROM entrants WHERE id = ?`, e.ID).Scan(&retired); err != nil || retired {
		return ErrUnauthorized
	}
	var n int
	since := time.Now().Add(-time.Hour).UnixNano()
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM submissions WHERE entrant_id = ? AND created > ?`, e.ID, since).Scan(&n); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if n >= perHour {
		return ErrRateLimited
	}
	return nil
}

// refused records that entrant e's upload was refused with err, and
// gives err.
func (a *Arena) refused(ctx context.Context, e Participant, err error) error {
	if _, derr := a.db.ExecContext(context.WithoutCancel(ctx), `INSERT INTO refusals (entrant_id, created) VALUES (?, ?)`,
		e.ID, time.Now().UnixNano()); derr != nil {
		return fmt.Errorf("arena: %w", derr)
	}
	return err
}

// querier is what a transaction and the database both do.
type querier interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// stagePrefix names the folders under submissions/ where uploads are
// unpacked before they are recorded; Run removes those a killed server
// left.
const stagePrefix = ".incoming-"

// unpackers is how many uploads are unpacked at once, at most.
const unpackers = 2

// stage unpacks an upload's files into a new folder
// submissions/.incoming-*/NAME, synced to disk, and gives that folder's
// parent. A bad upload is ErrBadArchive.
func (a *Arena) stage(ctx context.Context, name string, u Upload) (string, error) {
	select {
	case a.unpacking <- struct{}{}:
		defer func() { <-a.unpacking }()
	case <-ctx.Done():
		return "", ctx.Err()
	}
	dir, err := os.MkdirTemp(filepath.Join(a.dir, "submissions"), stagePrefix)
	if err != nil {
		return "", fmt.Errorf("arena: %w", err)
	}
	if err := unpackUpload(u.FileName, u.Data, filepath.Join(dir, name)); err != nil {
		os.RemoveAll(dir)
		if errors.Is(err, ErrBadArchive) {
			return "", err
		}
		return "", fmt.Errorf("arena: %w", err)
	}
	if err := syncTree(dir); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("arena: %w", err)
	}
	return dir, nil
}

// place moves a staged upload into place as submissions/ID/NAME, a
// folder named after the entrant (so its bot is), and gives it relative
// to the arena. A folder left by a submission that was never recorded
// (the judge stopped in between) is replaced.
func (a *Arena) place(id int64, name, staged string) (string, error) {
	rel := filepath.Join("submissions", strconv.FormatInt(id, 10))
	dir := filepath.Join(a.dir, rel)
	if err := os.RemoveAll(dir); err != nil {
		return "", fmt.Errorf("arena: %w", err)
	}
	if err := os.Rename(staged, dir); err != nil {
		return "", fmt.Errorf("arena: %w", err)
	}
	if err := syncPath(filepath.Dir(dir)); err != nil {
		return "", fmt.Errorf("arena: %w", err)
	}
	return filepath.Join(rel, name), nil
}

// syncTree flushes every file and directory under dir to disk, and dir's
// parent: a recorded submission's files survive a crash.
func syncTree(dir string) error {
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return syncPath(p)
	})
	if err != nil {
		return err
	}
	return syncPath(filepath.Dir(dir))
}

func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func isFrozen(ctx context.Context, q querier) (bool, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'frozen'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("arena: %w", err)
	}
	return v == "1", nil
}

// Freeze closes (or opens again) submissions.
func (a *Arena) Freeze(ctx context.Context, frozen bool) error {
	v := "0"
	if frozen {
		v = "1"
	}
	_, err := a.db.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES ('frozen', ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, v)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}

// Frozen reports whether submissions are closed.
func (a *Arena) Frozen(ctx context.Context) (bool, error) { return isFrozen(ctx, a.db) }

// Submission is entrant e's submission id: ErrNotFound when it is
// another's, as when there is none.
func (a *Arena) Submission(ctx context.Context, e Participant, id int64) (Submission, error) {
	subs, err := a.submissions(ctx, `s.entrant_id = ? AND s.id = ?`, e.ID, id)
	if err != nil {
		return Submission{}, err
	}
	if len(subs) == 0 {
		return Submission{}, ErrNotFound
	}
	return subs[0], nil
}

// Submissions are entrant e's submissions, newest first.
func (a *Arena) Submissions(ctx context.Context, e Participant) ([]Submission, error) {
	return a.submissions(ctx, `s.entrant_id = ?`, e.ID)
}

func (a *Arena) submissions(ctx context.Context, where string, args ...any) ([]Submission, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT s.id, e.name, s.status, s.log, s.created FROM submissions s
		JOIN entrants e ON e.id = s.entrant_id WHERE `+where+` ORDER BY s.id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	var out []Submission
	for rows.Next() {
		var s Submission
		var created int64
		if err := rows.Scan(&s.ID, &s.Participant, &s.Status, &s.Log, &created); err != nil {
			rows.Close()
			return nil, fmt.Errorf("arena: %w", err)
		}
		s.Created = time.Unix(0, created)
		out = append(out, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	for i := range out {
		if out[i].Replays, err = a.testReplays(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (a *Arena) testReplays(ctx context.Context, sub int64) ([]string, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT m.replay FROM matches m JOIN match_seats ms ON ms.match_id = m.id
		WHERE m.test = 1 AND ms.submission_id = ? ORDER BY m.id`, sub)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
