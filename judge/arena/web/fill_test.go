package web_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// bigSeed is a seed above 2^53, which JavaScript's numbers round
// (to 6429213820330512000).
const bigSeed = "6429213820330511769"

// seedReplay is a replay of a tic-tac-toe match whose seed is bigSeed.
const seedReplay = `{"version":1,"game":"tictactoe","params":{"k":3,"n":3},"seed":` + bigSeed + `,` +
	`"bots":[{"name":"alice","command":["./bot"]},{"name":"ref-random","command":["./random"]}],` +
	`"turns":[{"turn":1,"moves":[{"seat":0,"move":["PlaceSymbol 1 1"],"status":"ok"}]},` +
	`{"turn":2,"moves":[{"seat":1,"status":"crash","reason":"seat 1 crashed"}]}],` +
	`"outcome":{"winner":0,"reason":"seat 1 crashed"}}` + "\n"

// fill records in ta's database what a ladder would leave: an active
// submission for each of the entrants named (added when they are not
// entrants yet), two test matches of the first against ref-random (a
// win and a loss), and n ladder matches between them, each with the
// replay seed.json (whose seed is bigSeed).
func (ta *tarena) fill(t testing.TB, names []string, n int) {
	t.Helper()
	ctx := context.Background()
	if err := os.WriteFile(filepath.Join(ta.dir, "replays", "seed.json"), []byte(seedReplay), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(ta.dir, "arena.db")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	exec := func(q string, args ...any) int64 {
		t.Helper()
		r, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		id, _ := r.LastInsertId()
		return id
	}
	now := time.Now().Add(-time.Hour).UnixNano()
	subs := make([]int64, len(names))
	for i, name := range names {
		var e int64
		if err := tx.QueryRowContext(ctx, `SELECT id FROM entrants WHERE name = ?`, name).Scan(&e); err == sql.ErrNoRows {
			e = exec(`INSERT INTO entrants (name, token_hash, created) VALUES (?, x'00', ?)`, name, now)
		} else if err != nil {
			t.Fatal(err)
		}
		subs[i] = exec(`INSERT INTO submissions (entrant_id, arg, status, created) VALUES (?, 'submissions/x', 'active', ?)`, e, now)
	}
	match := func(test bool, winner int, seats []string, ids []any) {
		reason := "the board is full"
		if winner >= 0 {
			reason = fmt.Sprintf("%s crashed", seats[1-winner])
		}
		m := exec(`INSERT INTO matches (test, seed, winner, turns, reason, replay, finished) VALUES (?, ?, ?, 2, ?, 'seed.json', ?)`,
			test, int64(6429213820330511769), winner, reason, now)
		for s := range seats {
			score := 0.5
			if winner >= 0 {
				score = 0
				if winner == s {
					score = 1
				}
			}
			exec(`INSERT INTO match_seats (match_id, seat, submission_id, name, status, score) VALUES (?, ?, ?, ?, 'ok', ?)`,
				m, s, ids[s], seats[s], score)
		}
		now += int64(time.Second)
	}
	match(true, 0, []string{names[0], "ref-random"}, []any{subs[0], nil})
	match(true, 0, []string{"ref-random", names[0]}, []any{nil, subs[0]})
	k := len(names)
	for m := range n {
		x, y := m%k, (m/k+m+1)%k
		if x == y {
			y = (y + 1) % k
		}
		match(false, m%3-1, []string{names[x], names[y]}, []any{subs[x], subs[y]})
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	ta.checkpoint(t, db)
}

// played records one more ladder match, a draw, between the two newest
// active submissions, as a worker of the ladder would.
func (ta *tarena) played(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(ta.dir, "arena.db")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var x, y int64
	if err := db.QueryRowContext(ctx, `SELECT max(id), (SELECT max(id) FROM submissions WHERE status = 'active' AND id < s.m)
		FROM (SELECT max(id) AS m, max(id) AS id FROM submissions WHERE status = 'active') s`).Scan(&x, &y); err != nil {
		t.Fatal(err)
	}
	r, err := db.ExecContext(ctx, `INSERT INTO matches (test, seed, winner, turns, reason, replay, finished) VALUES (0, 1, -1, 9, 'the board is full', 'seed.json', ?)`,
		time.Now().UnixNano())
	if err != nil {
		t.Fatal(err)
	}
	m, _ := r.LastInsertId()
	for s, sub := range []int64{x, y} {
		if _, err := db.ExecContext(ctx, `INSERT INTO match_seats (match_id, seat, submission_id, name, status, score) VALUES (?, ?, ?, '', 'ok', 0.5)`, m, s, sub); err != nil {
			t.Fatal(err)
		}
	}
}

// checkpoint moves what db's log holds into its file.
func (ta *tarena) checkpoint(t testing.TB, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	// The database's file holds it all, as the arena's would once
	// SQLite checkpoints its log.
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
}
