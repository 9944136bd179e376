package arena

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"judge/judge/ratings"
)

// simGame is a finished ladder match of a simulation: its seats'
// submissions and scores.
type simGame struct {
	subs   []int64
	scores []float64
}

// ladderSim plays a ladder without bots: pickLadder chooses the matches,
// jobs of them in flight, finished in random order, their results drawn
// from the submissions' known strengths (Plackett–Luce on the Elo scale,
// Bradley–Terry for two seats); the ratings are fit as readLadder fits
// them. Submissions come and go as in an arena: the ladder is read
// again, from the games between the active ones only.
type ladderSim struct {
	t        *testing.T
	r        *rand.Rand
	seats    int // the game's seats, at most
	jobs     int
	elo      map[int64]float64
	subs     []int64
	next     int64 // the next new submission's id
	all      []simGame
	l        *ladder
	busy     playing
	inFlight []*work
	// behind are the submissions still catching up: they are left out
	// of the bounds until their games reach the fewest of the others'.
	behind map[int64]bool
	// pairBehind are the pairs still catching up: left out of the pairs'
	// bound until their games reach the fewest of the others'.
	pairBehind map[[2]int64]bool
	// spread and pairSpread are the largest differences seen between
	// two submissions' games and between two pairs' games (those being
	// played count).
	spread, pairSpread int
}

func newLadderSim(t *testing.T, seed uint64, elos []float64, seats, jobs int) *ladderSim {
	s := &ladderSim{t: t, r: rand.New(rand.NewPCG(seed, 1)), seats: seats, jobs: jobs, elo: map[int64]float64{},
		behind: map[int64]bool{}, pairBehind: map[[2]int64]bool{}}
	for _, e := range elos {
		s.join(e)
	}
	clear(s.behind)
	clear(s.pairBehind)
	return s
}

// join adds a new submission of strength elo.
func (s *ladderSim) join(elo float64) int64 {
	s.next++
	s.subs = append(s.subs, s.next)
	s.elo[s.next] = elo
	s.behind[s.next] = true
	for _, id := range s.subs[:len(s.subs)-1] {
		s.pairBehind[pairOf(id, s.next)] = true
	}
	s.reread()
	return s.next
}

// leave retires the submission id: its games leave the ladder.
func (s *ladderSim) leave(id int64) {
	s.subs = slices.DeleteFunc(s.subs, func(x int64) bool { return x == id })
	delete(s.behind, id)
	for p := range s.pairBehind {
		if p[0] == id || p[1] == id {
			delete(s.pairBehind, p)
		}
	}
	s.reread()
	s.behindNow()
}

// reread builds the ladder again, as readLadder does when the active
// submissions change.
func (s *ladderSim) reread() {
	l := newLadder(slices.Clone(s.subs), nil)
	for _, g := range s.all {
		s.add(l, g)
	}
	s.l = l
	s.refit()
}

func (s *ladderSim) add(l *ladder, g simGame) {
	tg := ratings.Game{Scores: g.scores}
	for _, id := range g.subs {
		i, ok := l.idx[id]
		if !ok {
			return
		}
		tg.Players = append(tg.Players, i)
	}
	winner := 0
	for k := range g.scores {
		if g.scores[k] > g.scores[winner] {
			winner = k
		}
	}
	l.add(tg, winner)
}

// refit fits the ratings when readLadder's pairing would.
func (s *ladderSim) refit() {
	l := s.l
	if l.ratings == nil || len(l.games)-l.fitted > l.fitted/staleRatings {
		l.ratings = ratings.FitRatings(len(l.subs), l.games).Ratings
		l.fitted = len(l.games)
	}
}

// fill picks matches until jobs are in flight, or none is left.
func (s *ladderSim) fill() {
	for len(s.inFlight) < s.jobs && len(s.subs) >= 2 {
		w := pickLadder(s.l.copy(), &s.busy, min(s.seats, len(s.subs)), math.MaxInt)
		if w == nil {
			s.t.Fatalf("no match among %d submissions", len(s.subs))
		}
		slices.Sort(w.subs) // seats in order: the same seed, the same ladder
		late := len(s.behind) > 0
		for _, id := range w.subs {
			if s.behind[id] {
				late = false
			}
		}
		if late {
			s.t.Fatalf("%v picked while %v catch up", w.subs, s.behind)
		}
		s.busy.start(w.subs)
		s.inFlight = append(s.inFlight, w)
		s.check("picked")
	}
}

// finish ends a match in flight, chosen at random, with a result drawn
// from its seats' strengths.
func (s *ladderSim) finish() {
	k := s.r.IntN(len(s.inFlight))
	w := s.inFlight[k]
	s.inFlight = slices.Delete(s.inFlight, k, k+1)
	g := simGame{subs: w.subs, scores: make([]float64, len(w.subs))}
	left := slices.Clone(w.subs)
	for place := len(w.subs); place > 0; place-- {
		sum := 0.0
		for _, id := range left {
			sum += math.Pow(10, s.elo[id]/400)
		}
		x := s.r.Float64() * sum
		pick := len(left) - 1
		for j, id := range left {
			if x -= math.Pow(10, s.elo[id]/400); x < 0 {
				pick = j
				break
			}
		}
		g.scores[slices.Index(w.subs, left[pick])] = float64(place)
		left = slices.Delete(left, pick, pick+1)
	}
	s.all = append(s.all, g)
	s.add(s.l, g)
	s.busy.end(w.subs)
	s.refit()
	s.check("finished")
}

// check checks the bounds on the submissions and pairs that have caught
// up, and settles those catching up that have.
func (s *ladderSim) check(when string) {
	l := s.l
	games := func(i int) int { return l.rows[i].Played + s.busy.subs[l.subs[i]] }
	pair := func(i, j int) int { return l.pairs[i][j] + s.busy.pairs[pairOf(l.subs[i], l.subs[j])] }
	fewest, fewestPair := math.MaxInt, math.MaxInt
	for i, a := range l.subs {
		if !s.behind[a] {
			fewest = min(fewest, games(i))
		}
		for j, b := range l.subs[i+1:] {
			if !s.pairBehind[pairOf(a, b)] && !s.behind[a] && !s.behind[b] {
				fewestPair = min(fewestPair, pair(i, i+1+j))
			}
		}
	}
	lo, hi, plo, phi := math.MaxInt, 0, math.MaxInt, 0
	for i, a := range l.subs {
		if s.behind[a] && games(i) >= fewest {
			delete(s.behind, a)
		}
		if !s.behind[a] {
			lo, hi = min(lo, games(i)), max(hi, games(i))
		}
		for j, b := range l.subs[i+1:] {
			p := pair(i, i+1+j)
			if s.pairBehind[pairOf(a, b)] && p >= fewestPair {
				delete(s.pairBehind, pairOf(a, b))
			}
			if !s.pairBehind[pairOf(a, b)] && !s.behind[a] && !s.behind[b] {
				plo, phi = min(plo, p), max(phi, p)
			}
		}
	}
	if hi < lo {
		return
	}
	s.spread = max(s.spread, hi-lo)
	if phi >= plo {
		s.pairSpread = max(s.pairSpread, phi-plo)
	}
	if hi-lo > maxSpread || phi-plo > maxPairSpread(s.seats) {
		s.t.Fatalf("%s, after %d games: games from %d to %d, pairs from %d to %d:\n%s", when, len(s.all), lo, hi, plo, phi, s.table())
	}
}

// behindNow marks as catching up the submissions and pairs the ladder
// left behind: those with fewer games than the bounds allow.
func (s *ladderSim) behindNow() {
	l := s.l
	most, mostPair := 0, 0
	for i := range l.subs {
		most = max(most, l.rows[i].Played+s.busy.subs[l.subs[i]])
		for j := range l.subs {
			mostPair = max(mostPair, l.pairs[i][j]+s.busy.pairs[pairOf(l.subs[i], l.subs[j])])
		}
	}
	for i, a := range l.subs {
		if l.rows[i].Played+s.busy.subs[a] < most-maxSpread {
			s.behind[a] = true
		}
		for j, b := range l.subs {
			if j != i && l.pairs[i][j]+s.busy.pairs[pairOf(a, b)] < mostPair-maxPairSpread(s.seats) {
				s.pairBehind[pairOf(a, b)] = true
			}
		}
	}
}

// maxSpread is the most two submissions' games differ by.
const maxSpread = 2

// maxPairSpread is the most two pairs' games differ by: a game of more
// seats plays several pairs at once.
func maxPairSpread(seats int) int {
	if seats == 2 {
		return 3
	}
	return 5
}

// table is the ladder's games, by pair.
func (s *ladderSim) table() string {
	out := ""
	for i := range s.l.subs {
		out += fmt.Sprintf("%3d %4d:", s.l.subs[i], s.l.rows[i].Played+s.busy.subs[s.l.subs[i]])
		for j := range s.l.subs {
			out += fmt.Sprintf(" %3d", s.l.pairs[i][j]+s.busy.pairs[pairOf(s.l.subs[i], s.l.subs[j])])
		}
		out += "\n"
	}
	return out
}

// run finishes n matches, keeping jobs in flight.
func (s *ladderSim) run(n int) {
	for range n {
		s.fill()
		if len(s.inFlight) == 0 {
			return
		}
		s.finish()
	}
}

// catchUp plays until no submission or pair is catching up: fewer games than
// thrice the most any submission has, times the submissions.
func (s *ladderSim) catchUp() {
	most := 0
	for _, r := range s.l.rows {
		most = max(most, r.Played)
	}
	for n := 0; len(s.behind) > 0 || len(s.pairBehind) > 0; n++ {
		if n > 3*most*len(s.subs) {
			s.t.Fatalf("%v and the pairs %v still catching up after %d games:\n%s", s.behind, s.pairBehind, n, s.table())
		}
		s.run(1)
	}
}

// spreadElos are n strengths evenly from 1100 to 1900.
func spreadElos(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1100 + 800*float64(i)/float64(max(n-1, 1))
	}
	return out
}

// The ladder keeps every submission's games within maxSpread of the
// others', and every pair's within maxPairSpread, at every pick and
// every result, with many matches in flight finished in any order;
// a submission that replaces another, and a new entrant, play until
// they have caught up, then keep the same bounds.
func TestLadderEven(t *testing.T) {
	for _, c := range []struct {
		n, seats, jobs int
	}{
		{6, 2, 1}, {6, 2, 3}, {6, 2, 6}, {20, 2, 7}, {20, 2, 10}, {30, 2, 15},
		{3, 2, 1}, {5, 3, 2}, {8, 3, 4}, {12, 3, 6}, {9, 4, 1}, {9, 4, 4}, {16, 4, 8},
	} {
		t.Run(fmt.Sprintf("%d-entrants-%d-seats-%d-jobs", c.n, c.seats, c.jobs), func(t *testing.T) {
			s := newLadderSim(t, uint64(c.n*100+c.seats*10+c.jobs), spreadElos(c.n), c.seats, c.jobs)
			per := 60 // games per submission, about
			s.run(per * c.n / c.seats)
			s.leave(s.subs[1])
			s.join(1700)
			s.join(1300)
			s.catchUp()
			s.run(per * c.n / c.seats)
			t.Logf("games spread %d, pairs spread %d", s.spread, s.pairSpread)
		})
	}
}

// Splix plays with fewer seats while fewer submissions are active: from
// two submissions up to more than its seats, they join one by one, and
// every match has as many seats as it can. The first ones' games with
// fewer seats count whole for each but once for their pair: they stay
// ahead in games while the pairs even out.
func TestLadderEvenSeatsGrow(t *testing.T) {
	s := newLadderSim(t, 7, []float64{1400, 1600}, 4, 3)
	for e := range 6 {
		s.run(40)
		s.join(1300 + 80*float64(e))
	}
	s.run(2000)
	for _, g := range s.all[len(s.all)-100:] {
		if len(g.subs) != 4 || len(slices.Compact(slices.Sorted(slices.Values(g.subs)))) != 4 {
			t.Fatalf("a match of %v among 8 submissions, 4 seats", g.subs)
		}
	}
	lo, hi := math.MaxInt, 0
	for i := range s.subs {
		for j := range i {
			lo, hi = min(lo, s.l.pairs[i][j]), max(hi, s.l.pairs[i][j])
		}
	}
	if hi-lo > maxPairSpread(4) {
		t.Errorf("pairs from %d to %d:\n%s", lo, hi, s.table())
	}
	t.Logf("games spread %d, pairs spread %d", s.spread, s.pairSpread)
}

// Twenty entrants of known strengths, 1100 to 1900, on the ladder with
// eight matches in flight, results drawn from those strengths and fit as
// the ladder fits them: the ratings recover their order (Spearman's
// rank correlation at least 0.9, the strongest and the weakest placed
// right) and the intervals narrow as the games accrue, about as the
// square root of the games.
func TestLadderRatingsRecoverStrengths(t *testing.T) {
	elos := spreadElos(20)
	s := newLadderSim(t, 11, elos, 2, 8)
	var widths []float64
	for _, games := range []int{200, 2000} {
		s.run(games - len(s.all))
		fit := ratings.FitRatings(len(s.subs), s.l.games)
		w := 0.0
		for _, r := range fit.Ratings {
			w += r.High - r.Low
		}
		widths = append(widths, w/float64(len(fit.Ratings)))
		rho := spearman(elos, fit.Ratings)
		best, worst := 0, 0
		for i, r := range fit.Ratings {
			if r.Elo > fit.Ratings[best].Elo {
				best = i
			}
			if r.Elo < fit.Ratings[worst].Elo {
				worst = i
			}
		}
		t.Logf("%d games: Spearman %.3f, mean interval width %.0f, prior %v", games, rho, widths[len(widths)-1], fit.Prior)
		if games == 2000 && (rho < 0.9 || best != 19 || worst != 0) {
			t.Errorf("%d games: Spearman %.3f, strongest placed %d, weakest %d", games, rho, best, worst)
		}
	}
	if widths[1] > widths[0]/2 {
		t.Errorf("mean interval width %.0f at 2000 games, %.0f at 200: it should narrow about as √10", widths[1], widths[0])
	}
}

// spearman is the rank correlation of the true strengths (in increasing
// order) and the fitted ratings.
func spearman(elos []float64, rs []ratings.Rating) float64 {
	n := len(rs)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(rs[a].Elo, rs[b].Elo) })
	d2 := 0.0
	for rank, i := range idx {
		d := float64(rank - i) // elos are in increasing order: i is the true rank
		d2 += d * d
	}
	return 1 - 6*d2/float64(n*(n*n-1))
}

// TestLadderCountsAsTheTournament: the ladder counts wins, draws and
// losses by the tournament's rule: in a game of three that no one won,
// the two with the top score drew and the third lost.
func TestLadderCountsAsTheTournament(t *testing.T) {
	l := newLadder([]int64{1, 2, 3}, []string{"a", "b", "c"})
	l.add(ratings.Game{Players: []int{0, 1, 2}, Scores: []float64{5, 5, 1}}, -1)
	l.add(ratings.Game{Players: []int{2, 0}, Scores: []float64{1, 0}}, 0)
	var got []string
	for _, r := range l.rows {
		got = append(got, fmt.Sprintf("%s %d-%d-%d", r.Name, r.Wins, r.Draws, r.Losses))
	}
	if want := "a 0-1-1 b 0-1-0 c 1-0-1"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}
