package arena

import (
	"context"
	"database/sql"
	"fmt"
)

// Count runs a counting query on a's database.
func Count(ctx context.Context, a *Arena, q string) (int, error) {
	var n int
	err := a.db.QueryRowContext(ctx, q).Scan(&n)
	return n, err
}

// Fill records n ladder matches between k active submissions, one entrant
// each, straight into a's database: what years of a ladder would leave.
func Fill(ctx context.Context, a *Arena, k, n int) error {
	return a.inTx(ctx, func(tx *sql.Tx) error {
		for i := range k {
			if _, err := tx.ExecContext(ctx, `INSERT INTO entrants (id, name, token_hash, created) VALUES (?, ?, x'00', 0)`,
				i+1, fmt.Sprintf("e%d", i)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO submissions (id, entrant_id, arg, status, created) VALUES (?, ?, '', ?, 0)`,
				i+1, i+1, StatusActive); err != nil {
				return err
			}
		}
		for m := range n {
			x, y := m%k, (m/k+m+1)%k
			if x == y {
				y = (y + 1) % k
			}
			winner := m % 3 // 0, 1: a seat won; 2: a draw
			if winner == 2 {
				winner = -1
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO matches (id, test, seed, winner, turns, reason, replay, finished)
				VALUES (?, 0, 0, ?, 9, '', '', 0)`, m+1, winner); err != nil {
				return err
			}
			for seat, sub := range []int{x, y} {
				score := 0.5
				if winner >= 0 {
					score = 0
					if winner == seat {
						score = 1
					}
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO match_seats (match_id, seat, submission_id, name, status, score)
					VALUES (?, ?, ?, '', 'ok', ?)`, m+1, seat, sub+1, score); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
