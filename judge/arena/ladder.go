package arena

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"judge/judge"
	"judge/judge/ratings"
	"judge/judge/standings"
)

// ladder is the state of the ladder: the active submissions, their
// finished ladder matches with each other, and the ratings the
// rating fit gives them (package ratings).
type ladder struct {
	subs  []int64  // active submissions, by id
	names []string // their entrants
	idx   map[int64]int
	games []ratings.Game
	// rows are the submissions' games, counted (Standing.Count), and
	// their failures: the matches they lost by their own fault (a draw
	// when every seat failed).
	rows []standings.Standing
	// pairs[i][j] is how many games submissions i and j played together.
	pairs   [][]int
	ratings []ratings.Rating
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
	c.rows = slices.Clone(l.rows)
	c.pairs = make([][]int, len(l.pairs))
	for i, p := range l.pairs {
		c.pairs[i] = slices.Clone(p)
	}
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
		l = newLadder(subs, names)
	}
	if err := l.read(ctx, a); err != nil {
		return nil, err
	}
	if !l.fit && (stale == 0 || l.ratings == nil || len(l.games)-l.fitted > l.fitted/stale) {
		l.ratings = ratings.FitRatings(len(l.subs), l.games).Ratings
		l.fit, l.fitted = true, len(l.games)
	}
	a.ladder = l
	return l.copy(), nil
}

// newLadder is a ladder of subs, of the entrants names, with no games.
func newLadder(subs []int64, names []string) *ladder {
	n := len(subs)
	l := &ladder{subs: subs, names: names, idx: map[int64]int{}, rows: make([]standings.Standing, n), pairs: make([][]int, n)}
	for i, id := range subs {
		l.idx[id] = i
		if i < len(names) {
			l.rows[i].Name = names[i]
		}
		l.pairs[i] = make([]int, n)
	}
	return l
}

// add adds a game between l's submissions, won by the seat winner (-1:
// no seat won: a draw for the seats with the top score).
func (l *ladder) add(g ratings.Game, winner int) {
	l.games, l.fit = append(l.games, g), false
	for k, i := range g.Players {
		l.rows[i].Count(k, winner, g.Scores)
		for _, j := range g.Players[k+1:] {
			l.pairs[i][j]++
			l.pairs[j][i]++
		}
	}
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
	rows, err := a.query(ctx, `SELECT m.id, m.winner, ms.seat, coalesce(ms.submission_id, 0), ms.score, ms.status
		FROM matches m JOIN match_seats ms ON ms.match_id = m.id WHERE m.test = 0 AND m.id > ? ORDER BY m.id, ms.seat`, l.last)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	defer rows.Close()
	type seat struct {
		sub    int64
		score  float64
		winner int
		status judge.Status
	}
	var cur int64 = -1
	var seats []seat
	flush := func() {
		g := ratings.Game{}
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
		l.add(g, seats[0].winner)
		for k, i := range g.Players {
			l.rows[i].Failures.Count(seats[k].status)
		}
	}
	for rows.Next() {
		var id, sub int64
		var winner, seatNo int
		var score float64
		var status string
		if err := rows.Scan(&id, &winner, &seatNo, &sub, &score, &status); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if id != cur {
			flush()
			cur, seats = id, seats[:0]
		}
		seats = append(seats, seat{sub, score, winner, judge.Status(status)})
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
// ladder matches between active submissions they come from: an
// entrant's line counts its active submission's ladder matches; its
// failures are those it lost by its own fault (a crash, a timeout, an
// illegal move, a protocol fault).
func (a *Arena) Standings(ctx context.Context) (int, []standings.Standing, error) {
	l, err := a.loadLadder(ctx)
	if err != nil {
		return 0, nil, err
	}
	return len(l.games), l.standings(), nil
}

// LiveStandings are Standings as a page polls them: the games counted to
// the last, the ratings fit again once more than one game in staleRatings
// is new to them (as the ladder's pairing does), so that a poll after a
// match never waits for a whole fit (50 to 100 ms at 100 entrants and
// 10,000 matches).
func (a *Arena) LiveStandings(ctx context.Context) (int, []standings.Standing, error) {
	l, err := a.loadLadderRough(ctx)
	if err != nil {
		return 0, nil, err
	}
	return len(l.games), l.standings(), nil
}

// standings are l's standings, best rating first: the rating ranks
// (the ladder's matches are not even, so points would not).
func (l *ladder) standings() []standings.Standing {
	out := slices.Clone(l.rows)
	for i := range out {
		r := l.ratings[i]
		out[i].Rating, out[i].RatingLow, out[i].RatingHigh = r.Elo, r.Low, r.High
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
	return out
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

// playing counts the ladder matches being played: by submission, and by
// pair of submissions.
type playing struct {
	subs  map[int64]int
	pairs map[[2]int64]int
}

// pairOf is the key of the pair a, b in playing.pairs.
func pairOf(a, b int64) [2]int64 {
	if a > b {
		a, b = b, a
	}
	return [2]int64{a, b}
}

// start counts a match of subs as being played.
func (p *playing) start(subs []int64) {
	if p.subs == nil {
		p.subs, p.pairs = map[int64]int{}, map[[2]int64]int{}
	}
	for k, a := range subs {
		p.subs[a]++
		for _, b := range subs[k+1:] {
			p.pairs[pairOf(a, b)]++
		}
	}
}

// end counts a match of subs as played no more.
func (p *playing) end(subs []int64) {
	for k, a := range subs {
		if p.subs[a]--; p.subs[a] <= 0 {
			delete(p.subs, a)
		}
		for _, b := range subs[k+1:] {
			key := pairOf(a, b)
			if p.pairs[key]--; p.pairs[key] <= 0 {
				delete(p.pairs, key)
			}
		}
	}
}

// pickLadder chooses the next ladder match so that the games stay even,
// counting those being played (busy, nil for none). First the
// submission with the fewest games; among equals, the one in the pair
// that met least, then the widest rating interval, then the newest.
// Then its opponents, one seat at a time, in this order: those that keep
// the games of the submissions not catching up (within two of the most)
// within two of each other, those at the bottom of that band first
// (else they would fall out of it); those that keep the pairs likewise;
// those that met the seats already chosen least; the fewest games; and
// only among equals, the nearest in rating. So two submissions' games
// differ by at most two, and a new one plays until it has caught up,
// against those it has met least. Seats are in random order. None once
// every submission has played enough games.
func pickLadder(l *ladder, busy *playing, seats, enough int) *work {
	if busy == nil {
		busy = &playing{}
	}
	n := len(l.subs)
	if n < max(seats, 2) {
		return nil
	}
	games := func(i int) int { return l.rows[i].Played + busy.subs[l.subs[i]] }
	pair := func(i, j int) int { return l.pairs[i][j] + busy.pairs[pairOf(l.subs[i], l.subs[j])] }
	width := func(i int) float64 { return l.ratings[i].High - l.ratings[i].Low }
	// least is the fewest games i played with another.
	least := func(i int) int {
		m := -1
		for j := range n {
			if j != i && (m < 0 || pair(i, j) < m) {
				m = pair(i, j)
			}
		}
		return m
	}
	focus := 0
	for i := 1; i < n; i++ {
		if c := cmp.Or(cmp.Compare(games(i), games(focus)), cmp.Compare(least(i), least(focus)),
			cmp.Compare(width(focus), width(i)), cmp.Compare(l.subs[focus], l.subs[i])); c < 0 {
			focus = i
		}
	}
	if games(focus) >= enough {
		return nil
	}
	var all, pairs []int
	for i := range n {
		all = append(all, games(i))
		for j := range i {
			pairs = append(pairs, pair(i, j))
		}
	}
	floor, floorPair := band(all), band(pairs)
	chosen := []int{focus}
	taken := make([]bool, n)
	taken[focus] = true
	most := slices.Max(all)
	// key orders the candidates for the next seat, least first.
	key := func(i int) [5]float64 {
		lifts, liftsPair, met := 1.0, 0.0, 0.0
		switch {
		case games(i) >= floor+2:
			lifts = 2
		case games(i) == most-2:
			lifts = 0
		}
		for _, c := range chosen {
			if pair(i, c) >= floorPair+2 {
				liftsPair++
			}
			met += float64(pair(i, c))
		}
		return [5]float64{lifts, liftsPair, met, float64(games(i)), math.Abs(l.ratings[i].Elo - l.ratings[focus].Elo)}
	}
	for len(chosen) < seats {
		best := -1
		var bk [5]float64
		for i := range n {
			if taken[i] {
				continue
			}
			if k := key(i); best < 0 || slices.Compare(k[:], bk[:]) < 0 {
				best, bk = i, k
			}
		}
		chosen, taken[best] = append(chosen, best), true
	}
	w := &work{}
	for _, i := range chosen {
		w.subs, w.refs = append(w.subs, l.subs[i]), append(w.refs, -1)
	}
	rand.Shuffle(len(w.subs), func(i, j int) { w.subs[i], w.subs[j] = w.subs[j], w.subs[i] })
	return w
}

// band is the fewest of counts within two of the most: those with fewer
// are catching up.
func band(counts []int) int {
	most := slices.Max(counts)
	floor := most
	for _, c := range counts {
		if c >= most-2 {
			floor = min(floor, c)
		}
	}
	return floor
}
