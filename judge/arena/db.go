package arena

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"

	// SQLite in pure Go: the judge stays one static binary.
	_ "modernc.org/sqlite"
)

// migrations are the schema's versions: migrations[i] takes the database
// from version i to i+1. Only ever append.
var migrations = []string{
	`CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
	CREATE TABLE entrants (
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE,
		token_hash BLOB NOT NULL,
		retired INTEGER NOT NULL DEFAULT 0,
		created INTEGER NOT NULL
	);
	CREATE TABLE submissions (
		id INTEGER PRIMARY KEY,
		entrant_id INTEGER NOT NULL REFERENCES entrants(id),
		arg TEXT NOT NULL,
		status TEXT NOT NULL,
		log TEXT NOT NULL DEFAULT '',
		created INTEGER NOT NULL
	);
	CREATE INDEX submissions_entrant ON submissions(entrant_id, created);
	CREATE INDEX submissions_status ON submissions(status);
	CREATE TABLE matches (
		id INTEGER PRIMARY KEY,
		test INTEGER NOT NULL,
		seed INTEGER NOT NULL,
		winner INTEGER NOT NULL,
		turns INTEGER NOT NULL,
		reason TEXT NOT NULL,
		replay TEXT NOT NULL,
		finished INTEGER NOT NULL
	);
	CREATE TABLE match_seats (
		match_id INTEGER NOT NULL REFERENCES matches(id),
		seat INTEGER NOT NULL,
		submission_id INTEGER REFERENCES submissions(id),
		name TEXT NOT NULL,
		status TEXT NOT NULL,
		reason TEXT NOT NULL DEFAULT '',
		score REAL NOT NULL,
		PRIMARY KEY (match_id, seat)
	);
	CREATE INDEX match_seats_submission ON match_seats(submission_id);`,
	// Uploads refused (a bad archive, one too large), which count toward
	// a limit of their own.
	`CREATE TABLE refusals (entrant_id INTEGER NOT NULL REFERENCES entrants(id), created INTEGER NOT NULL);
	CREATE INDEX refusals_entrant ON refusals(entrant_id, created);`,
	// Each replay's size, and whether it was dropped to keep the
	// replays within the arena's budget.
	`ALTER TABLE matches ADD COLUMN replay_bytes INTEGER NOT NULL DEFAULT -1;
	ALTER TABLE matches ADD COLUMN replay_dropped INTEGER NOT NULL DEFAULT 0;
	CREATE INDEX matches_kept ON matches(replay_dropped, test, id);`,
}

// openDB opens the arena's database at path, in WAL mode with full
// synchronous commits (a finished transaction survives a crash), and
// brings its schema up to date.
//
// The database and its log are its owner's alone (0600): they hold the
// tokens' hashes and the build logs.
func openDB(ctx context.Context, path string) (*sql.DB, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("arena: database: %w", err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("arena: database: %w", err)
		}
	}
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(10000)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("arena: database: %w", err)
	}
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("arena: database %s: %w", path, err)
	}
	return db, nil
}

// migrate applies the migrations the database has not had, each in a
// transaction with the version it gives.
func migrate(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	for {
		done, err := migrateOne(ctx, db)
		if err != nil || done {
			return err
		}
	}
}

func migrateOne(ctx context.Context, db *sql.DB) (done bool, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var v int
	switch err := tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); {
	case err == sql.ErrNoRows:
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version VALUES (0)`); err != nil {
			return false, err
		}
	case err != nil:
		return false, err
	}
	switch {
	case v > len(migrations):
		return false, fmt.Errorf("schema version %d is newer than this judge's (%d)", v, len(migrations))
	case v == len(migrations):
		return true, tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
		return false, fmt.Errorf("migration %d: %w", v+1, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, v+1); err != nil {
		return false, err
	}
	return false, tx.Commit()
}

// stmt is query prepared: SQLite parses the statements every match runs
// once, not every time.
func (a *Arena) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	a.stmtMu.Lock()
	defer a.stmtMu.Unlock()
	if s := a.stmts[query]; s != nil {
		return s, nil
	}
	s, err := a.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	if a.stmts == nil {
		a.stmts = map[string]*sql.Stmt{}
	}
	a.stmts[query] = s
	return s, nil
}

// query runs query, prepared once.
func (a *Arena) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := a.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// inTx runs f in a transaction, committed when f returns nil.
func (a *Arena) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}
