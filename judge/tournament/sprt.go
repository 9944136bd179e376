package tournament

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"golang.org/x/sync/errgroup"

	"judge/games"
	"judge/judge"
	"judge/judge/play"
	"judge/judge/sprt"
)

// SPRTOptions are what a sequential test between two bots needs: whether
// B is stronger than A.
type SPRTOptions struct {
	// Match is the template of every game (see Options.Match).
	Match    judge.Match
	A, B     string           // bot arguments (as for a tournament)
	Prepare  play.Preparer    // makes them contestants (see Options.Prepare)
	Retry    func(error) bool // see Options.Retry
	Test     sprt.Test
	MaxGames int // stop undecided after this many games; 0: DefaultSPRTMaxGames
	Seed     uint64
	Jobs     int       // games at once; 0: DefaultJobs
	Out      string    // output directory: results log, standings, replays
	Cache    string    // build cache; default Out/cache
	Log      io.Writer // notes for people: repairs, warnings
	// Live, when set, is called after each pair counted (recorded ones
	// included), in pair order, one call at a time.
	Live func(*SPRTState)
}

// SPRTRoot holds the output directories of tests not given one: one per
// game, pair of bots (by name and contents) and seed, so that the same
// command resumes the same test and a changed bot starts a new one.
const SPRTRoot = "results/sprt"

// sprtDirName names a test's default output directory.
func sprtDirName(game string, params games.Params, names []string, ents []*play.Contestant, seed uint64) string {
	h := sha256.New()
	p, _ := json.Marshal(params)
	fmt.Fprintf(h, "%s\n%s\n%d\n%s\n", ents[0].Hash, ents[1].Hash, seed, p)
	return fmt.Sprintf("%s-%s-vs-%s-%x", game, fileSafe(names[1]), fileSafe(names[0]), h.Sum(nil)[:4])
}

// DefaultSPRTMaxGames is where a test stops undecided by default.
const DefaultSPRTMaxGames = 20000

// SPRTState is where a test stands: B's results against A, pair by pair
// in order (a pair counts once both its games are recorded).
type SPRTState struct {
	A, B         string // the bots' names
	Out          string // the output directory
	Test         sprt.Test
	Pairs        int
	W, D, L      int // B's games
	Penta        sprt.Penta
	LLR          float64
	Lower, Upper float64
	Elo          sprt.Estimate
	Verdict      sprt.Verdict
	Early        bool // an early test took the verdict (see sprt.Test)
	Recorded     int  // pairs found in the results log
	// Voided are the pairs a game of which a plugin game's referee ended
	// by failing (status referee-error): counted for neither bot, they
	// still take their place under MaxGames.
	Voided   int
	MaxGames int  // the limit in force
	Limited  bool // stopped undecided at MaxGames
}

// Games is the number of games counted.
func (s *SPRTState) Games() int { return 2 * s.Pairs }

// add counts a pair: B's scores in its two games.
func (s *SPRTState) add(a, b float64) {
	s.Pairs++
	for _, x := range []float64{a, b} {
		switch x {
		case 1:
			s.W++
		case 0:
			s.L++
		default:
			s.D++
		}
	}
	s.Penta.Add(a, b)
	d := s.Test.Judge(s.Penta)
	s.LLR, s.Verdict, s.Early = d.LLR, d.Verdict, d.Early
	s.Elo = s.Penta.Elo()
}

// pairFixtures are the two games of pair k (from 1): A in seat 0, then
// B; both with the same seed.
func pairFixtures(k int, names []string) [2]Fixture {
	label := fmt.Sprintf("p%05d", k)
	var out [2]Fixture
	for i, seats := range [][]int{{0, 1}, {1, 0}} {
		out[i] = Fixture{
			ID:        fmt.Sprintf("%s-%s-vs-%s", label, fileSafe(names[seats[0]]), fileSafe(names[seats[1]])),
			Round:     k,
			Seats:     seats,
			Index:     2*(k-1) + i,
			seedLabel: label,
		}
	}
	return out
}

// scoreOf is entrant e's score in a recorded two-player game.
func scoreOf(r *MatchRecord, name string) float64 {
	switch {
	case r.Winner < 0:
		return 0.5
	case r.Players[r.Winner].Name == name:
		return 1
	}
	return 0
}

// RunSPRT plays pairs of games between A and B — the same seed twice, the
// seats swapped — until the test accepts one hypothesis or MaxGames are
// played, recording every game in o.Out as a tournament does: running it
// again resumes, and counts what was recorded first. Games run Jobs at a
// time in pair order; the verdict is taken on pairs in order, so it does
// not depend on Jobs, and games in flight when it comes are dropped.
func RunSPRT(ctx context.Context, o SPRTOptions) (*SPRTState, error) {
	if err := o.Test.Check(); err != nil {
		return nil, err
	}
	if o.MaxGames <= 0 {
		o.MaxGames = DefaultSPRTMaxGames
	}
	maxPairs := max(1, o.MaxGames/2)
	g, err := gameOf(o.Match)
	if err != nil {
		return nil, err
	}
	if g.lo > 2 || g.hi < 2 {
		return nil, fmt.Errorf("a test between two bots needs a two-player game; %s takes %d..%d players", g.name, g.lo, g.hi)
	}
	if o.Prepare == nil {
		return nil, errors.New("no way to prepare the bots")
	}
	switch {
	case o.Cache != "":
	case o.Out != "":
		o.Cache = filepath.Join(o.Out, "cache")
	default:
		o.Cache = filepath.Join(SPRTRoot, "cache")
	}
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = DefaultJobs(2)
	}
	ents, err := prepare(ctx, nil, o.Prepare, []string{o.A, o.B}, o.Cache, jobs)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if e.Err != nil {
			return nil, fmt.Errorf("%s cannot play: %w", e.Name, e.Err)
		}
	}
	names := []string{ents[0].Name, ents[1].Name}
	if o.Out == "" {
		o.Out = filepath.Join(SPRTRoot, sprtDirName(g.name, g.params, names, ents, o.Seed))
	}
	store, replays, err := openOut(o.Out, o.Log, nil, "games", false)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	h := &Header{Version: LogVersion, Game: g.name, Params: g.params, Format: SPRT, Seed: o.Seed, TestBot: names[1]}
	if err := writeHeader(store, h, o.Out, "test or tournament"); err != nil {
		return nil, err
	}
	run := &RunInfo{Rounds: maxPairs}
	for _, e := range ents {
		run.Entrants = append(run.Entrants, EntrantInfo{Name: e.Name, SHA256: e.Hash})
	}
	if name := changedBot(store.Runs(), run); name != "" {
		return nil, fmt.Errorf("bot %s has changed since %s was started (its recorded games were played by another program): give another --out", name, o.Out)
	}
	if err := store.Append(&Record{Kind: KindRun, Run: run}); err != nil {
		return nil, err
	}

	t := &tourney{o: Options{Match: o.Match, Retry: o.Retry, Out: o.Out}, store: store, header: h, ents: ents, names: names,
		seatPar: g.seatPar, params: g.params, replays: replays}
	lower, upper := o.Test.Bounds()
	st := &SPRTState{A: names[0], B: names[1], Out: o.Out, Test: o.Test, Lower: lower, Upper: upper,
		Elo: sprt.Penta{}.Elo(), MaxGames: 2 * maxPairs}
	if err := t.runPairs(ctx, st, maxPairs, jobs, o.Live); err != nil {
		return st, err
	}
	st.Limited = st.Verdict == sprt.Continue

	var recs []*MatchRecord
	for k := 1; k <= st.Pairs+st.Voided; k++ {
		for _, f := range pairFixtures(k, names) {
			recs = append(recs, store.Match(f.ID))
		}
	}
	if err := ComputeStandings(h, names, nil, recs, len(recs)).Write(o.Out); err != nil {
		return st, err
	}
	return st, nil
}

// runPairs counts the pairs recorded, then plays pairs, jobs games at
// once in pair order, until st has a verdict or maxPairs are counted;
// live is called after each pair counted.
func (t *tourney) runPairs(ctx context.Context, st *SPRTState, maxPairs, jobs int, live func(*SPRTState)) error {
	names, store := t.names, t.store
	// advance counts the pairs, in order, whose games are both played:
	// recorded, or in this run (under mu) and on their way to the log.
	var mu sync.Mutex
	seen := map[string]*MatchRecord{}
	get := func(id string) *MatchRecord {
		if r := seen[id]; r != nil {
			return r
		}
		return store.Match(id)
	}
	advance := func() {
		for st.Verdict == sprt.Continue && st.Pairs+st.Voided < maxPairs {
			f := pairFixtures(st.Pairs+st.Voided+1, names)
			r0, r1 := get(f[0].ID), get(f[1].ID)
			if r0 == nil || r1 == nil {
				return
			}
			_, void0 := refereeFailed(r0)
			_, void1 := refereeFailed(r1)
			if void0 || void1 {
				st.Voided++
				continue
			}
			st.add(scoreOf(r0, names[1]), scoreOf(r1, names[1]))
			if live != nil {
				live(st)
			}
		}
	}
	advance()
	st.Recorded = st.Pairs
	if st.Verdict != sprt.Continue || st.Pairs+st.Voided >= maxPairs {
		return nil
	}
	gctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	rec := newRecorder(t, jobs, cancel)
	g, gctx2 := errgroup.WithContext(gctx)
	g.SetLimit(jobs)
schedule:
	for k := st.Pairs + st.Voided + 1; k <= maxPairs; k++ {
		for _, f := range pairFixtures(k, names) {
			if gctx2.Err() != nil {
				break schedule
			}
			if store.Match(f.ID) != nil {
				continue
			}
			g.Go(func() error {
				if err := gctx2.Err(); err != nil {
					return nil
				}
				m, err := t.play(gctx2, f)
				if err != nil {
					if gctx2.Err() != nil {
						return nil
					}
					return err
				}
				mu.Lock()
				seen[m.rec.ID] = m.rec
				advance()
				if st.Verdict != sprt.Continue || st.Pairs+st.Voided >= maxPairs {
					cancel(nil)
				}
				mu.Unlock()
				rec.add(m)
				return nil
			})
		}
	}
	err := g.Wait()
	cancel(nil)
	// Every game counted is recorded before the verdict is told.
	if _, werr := rec.close(); werr != nil {
		return errors.Join(werr, err)
	}
	if err != nil {
		return err
	}
	if st.Verdict == sprt.Continue && st.Pairs+st.Voided < maxPairs && ctx.Err() != nil {
		return fmt.Errorf("%w after %d games: run the same command again to resume", ErrInterrupted, st.Games())
	}
	return nil
}
