package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"judge/judge/tournament"
)

// ladder is the state of the ladder: the active submissions, their
// finished ladder matches with each other, and the ratings the
// tournament's rating fit gives them.
type ladder struct {
	subs   []int64  // active submissions, by id
	names  []string // their entrants
	idx    map[int64]int
	games  []tournament.Game
	played []int
	wins   []int
	draws  []int
	losses []int
	// failures are the matches the submission lost by its own fault
	// (a draw when every seat failed).
	failures []int
	ratings  []tournament.Rating
	// last is the last match read: only later ones are read again while
	// the active submissions stay the same.
	last int64
	fit  bool // ratings fit games
	// fitted is how many games the ratings were fit to.
	fitted int
}

// copy is a copy of l its caller may keep.
func (l *ladder) copy() *ladder {
	c := *l
	c.subs, c.names = slices.Clone(l.subs), slices.Clone(l.names)
	c.games = slices.Clip(l.games)
	c.played, c.wins, c.draws, c.losses = slices.Clone(l.played), slices.Clone(l.wins), slices.Clone(l.draws), slices.Clone(l.losses)
	c.failures = slices.Clone(l.failures)
	c.ratings = slices.Clone(l.ratings)
	return &c
}

// loadLadder reads the ladder from the database: the matches finished
// since the last call only, unless the active submissions changed. Its
// ratings fit all its games; those of loadLadderRough may leave out the
// last few, up to one in staleRatings (the fit takes time in proportion
// to the games, and pairing needs no more).
func (a *Arena) loadLadder(ctx context.Context) (*ladder, error) {
	return a.readLadder(ctx, 0)
}

// staleRatings: the ratings pairing uses leave out at most one game in
// staleRatings.
const staleRatings = 50

func (a *Arena) loadLadderRough(ctx context.Context) (*ladder, error) {
	return a.readLadder(ctx, staleRatings)
}

// readLadder is loadLadder, its ratings fit again once more than one
// game in stale (0: any game) is new to them.
func (a *Arena) readLadder(ctx context.Context, stale int) (*ladder, error) {
	subs, names, err := a.activeSubmissions(ctx)
	if err != nil {
		return nil, err
	}
	a.ladderMu.Lock()
	defer a.ladderMu.Unlock()
	l := a.ladder
	if l == nil || !slices.Equal(l.subs, subs) || !slices.Equal(l.names, names) {
		n := len(subs)
		l = &ladder{subs: subs, names: names, idx: map[int64]int{},
			played: make([]int, n), wins: make([]int, n), draws: make([]int, n), losses: make([]int, n), failures: make([]int, n)}
		for i, id := range subs {
			l.idx[id] = i
		}
	}
	if err := l.read(ctx, a); err != nil {
		return nil, err
	}
	if !l.fit && (stale == 0 || l.ratings == nil || len(l.games)-l.fitted > l.fitted/stale) {
		l.ratings = tournament.FitRatings(len(l.subs), l.games).Ratings
		l.fit, l.fitted = true, len(l.games)
	}
	a.ladder = l
	return l.copy(), nil
}

// activeSubmissions are the submissions in the ladder (active ones,
// failing ones where the arena lets them) of the entrants not removed,
// by id, and their entrants' names.
func (a *Arena) activeSubmissions(ctx context.Context) (subs []int64, names []string, err error) {
	st1, st2 := a.laddered()
	rows, err := a.query(ctx, `SELECT s.id, e.name FROM submissions s JOIN entrants e ON e.id = s.entrant_id
		WHERE s.status IN (?, ?) AND e.retired = 0 ORDER BY s.id`, st1, st2)
	if err != nil {
		return nil, nil, fmt.Errorf("arena: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, nil, fmt.Errorf("arena: %w", err)
		}
		subs, names = append(subs, id), append(names, name)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("arena: %w", err)
	}
	return subs, names, nil
}

// read adds the ladder matches finished since l.last between l's
// submissions. Match ids only grow: one committed after a read has a
// larger id than every match that read saw.
func (l *ladder) read(ctx context.Context, a *Arena) error {
	rows, err := a.query(ctx, `SELECT m.id, m.winner, ms.seat, coalesce(ms.submission_id, 0), ms.score, ms.status != 'ok'
		FROM matches m JOIN match_seats ms ON ms.match_id = m.id WHERE m.test = 0 AND m.id > ? ORDER BY m.id, ms.seat`, l.last)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	defer rows.Close()
	type seat struct {
		sub    int64
		score  float64
		winner int
		failed bool
	}
	var cur int64 = -1
	var seats []seat
	flush := func() {
		g := tournament.Game{}
		for _, s := range seats {
			i, ok := l.idx[s.sub]
			if !ok {
				return
			}
			g.Players, g.Scores = append(g.Players, i), append(g.Scores, s.score)
		}
		if len(seats) < 2 {
			return
		}
		l.games, l.fit = append(l.games, g), false
		for k, i := range g.Players {
			l.played[i]++
			switch w := seats[k].winner; {
			case w < 0:
				l.draws[i]++
			case w == k:
				l.wins[i]++
			default:
				l.losses[i]++
			}
			if seats[k].failed {
				l.failures[i]++
			}
		}
	}
	for rows.Next() {
		var id, sub int64
		var winner, seatNo int
		var score float64
		var failed bool
		if err := rows.Scan(&id, &winner, &seatNo, &sub, &score, &failed); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if id != cur {
			flush()
			cur, seats = id, seats[:0]
		}
		seats = append(seats, seat{sub, score, winner, failed})
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	flush()
	if cur > l.last {
		l.last = cur
	}
	return nil
}

// Standings are the ladder's standings, best rating first, and how many
// ladder matches between active submissions they come from.
func (a *Arena) Standings(ctx context.Context) (int, []Standing, error) {
	l, err := a.loadLadder(ctx)
	if err != nil {
		return 0, nil, err
	}
	out := make([]Standing, len(l.subs))
	for i := range l.subs {
		r := l.ratings[i]
		out[i] = Standing{Name: l.names[i], Played: l.played[i], Wins: l.wins[i], Draws: l.draws[i], Losses: l.losses[i],
			Failures: l.failures[i], Rating: r.Elo, Low: r.Low, High: r.High}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Rating != out[j].Rating {
			return out[i].Rating > out[j].Rating
		}
		return out[i].Name < out[j].Name
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return len(l.games), out, nil
}

// replayName says whether name may be the name of a replay file: 1 to 64
// ASCII letters, digits, - and _, then .json.
func replayName(name string) bool {
	base, ok := strings.CutSuffix(name, ".json")
	return ok && base != "" && len(base) <= 64 && nameChars(base)
}

// ReplayPath is the file of the replay named name (as Match.Replay and
// Submission.Replays give it): ErrNotFound for a bad name or none.
func (a *Arena) ReplayPath(name string) (string, error) {
	if !replayName(name) || strings.Contains(name, "..") {
		return "", ErrNotFound
	}
	p := filepath.Join(a.dir, "replays", name)
	if _, err := os.Stat(p); err != nil {
		return "", ErrNotFound
	}
	return p, nil
}
