package arena

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// MatchQuery says which finished matches MatchList gives.
type MatchQuery struct {
	// Entrant "" is every entrant's matches, else that entrant's only.
	Entrant string
	// Before, when above 0, gives the matches older than the match of
	// that id only: the next page of a list.
	Before int64
	// Limit is how many at most (0: all).
	Limit int
}

// Matches are the finished matches, newest first, at most limit (0: all);
// entrant "" for every entrant's, else that entrant's only.
func (a *Arena) Matches(ctx context.Context, entrant string, limit int) ([]Match, error) {
	return a.MatchList(ctx, MatchQuery{Entrant: entrant, Limit: limit})
}

// MatchList are the finished matches q asks for, newest first.
func (a *Arena) MatchList(ctx context.Context, q MatchQuery) ([]Match, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = -1
	}
	before := q.Before
	if before <= 0 {
		before = 1<<63 - 1
	}
	const cols = `SELECT id, test, seed, winner, reason, replay, replay_dropped, finished FROM matches`
	query := cols + ` WHERE id < ? ORDER BY id DESC LIMIT ?`
	args := []any{before, limit}
	if q.Entrant != "" {
		query = cols + ` WHERE id < ? AND id IN (SELECT ms.match_id FROM match_seats ms
			JOIN submissions s ON s.id = ms.submission_id JOIN entrants e ON e.id = s.entrant_id WHERE e.name = ?)
			ORDER BY id DESC LIMIT ?`
		args = []any{before, q.Entrant, limit}
	}
	return a.matchRows(ctx, query, args...)
}

// TestMatches are the test matches of submission sub, oldest first.
func (a *Arena) TestMatches(ctx context.Context, sub int64) ([]Match, error) {
	return a.matchRows(ctx, `SELECT m.id, m.test, m.seed, m.winner, m.reason, m.replay, m.replay_dropped, m.finished
		FROM matches m WHERE m.test = 1 AND m.id IN (SELECT match_id FROM match_seats WHERE submission_id = ?) ORDER BY m.id`, sub)
}

// matchRows are the matches query gives (its columns those of
// MatchList's), with their seats' names and their results.
func (a *Arena) matchRows(ctx context.Context, query string, args ...any) ([]Match, error) {
	rows, err := a.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	var out []Match
	var winners []int
	for rows.Next() {
		var m Match
		var w int
		var seed, fin int64
		if err := rows.Scan(&m.ID, &m.Test, &seed, &w, &m.Reason, &m.Replay, &m.ReplayDropped, &fin); err != nil {
			rows.Close()
			return nil, fmt.Errorf("arena: %w", err)
		}
		m.Seed = uint64(seed)
		m.Finished = time.Unix(0, fin)
		if m.ReplayDropped {
			m.Replay = ""
		}
		out, winners = append(out, m), append(winners, w)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	if err := a.seatNames(ctx, out); err != nil {
		return nil, err
	}
	for i := range out {
		switch w := winners[i]; {
		case w < 0 || w >= len(out[i].Seats):
			out[i].Winner, out[i].Result = -1, "draw"
		default:
			out[i].Winner, out[i].Result = w, out[i].Seats[w]+" won"
		}
	}
	return out, nil
}

// seatNames fills in the seats of ms, a query for each seatChunk
// matches.
func (a *Arena) seatNames(ctx context.Context, ms []Match) error {
	at := make(map[int64]int, len(ms))
	for i, m := range ms {
		at[m.ID] = i
	}
	for len(ms) > 0 {
		chunk := ms[:min(len(ms), seatChunk)]
		ms = ms[len(chunk):]
		ids := make([]any, len(chunk))
		for i, m := range chunk {
			ids[i] = m.ID
		}
		rows, err := a.db.QueryContext(ctx, `SELECT match_id, name FROM match_seats WHERE match_id IN (?`+
			strings.Repeat(", ?", len(ids)-1)+`) ORDER BY match_id, seat`, ids...)
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		for rows.Next() {
			var id int64
			var n string
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return fmt.Errorf("arena: %w", err)
			}
			m := &chunk[at[id]-at[chunk[0].ID]]
			m.Seats = append(m.Seats, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	return nil
}

// seatChunk is how many matches' seats one query reads: SQLite bounds
// the parameters of a statement.
const seatChunk = 500
