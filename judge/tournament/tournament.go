// Package tournament runs many matches between many bots: it draws the
// schedule (round robin, gauntlet, Swiss, or random groups for
// multiplayer games), plays the matches in parallel, records every
// finished match durably in a results log so that a run can be resumed or
// split across machines, and fits ratings into standings. It knows no
// kind of bot: its caller makes the bot arguments contestants ready to
// play (Options.Prepare, a play.Preparer: package judge/bots/contest) and
// says how they run.
package tournament

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"judge/games"
	"judge/judge"
	"judge/judge/play"
)

// ErrInterrupted is returned when the context ends a tournament early.
// Everything finished until then is recorded.
var ErrInterrupted = errors.New("interrupted")

// Options are everything a tournament needs.
type Options struct {
	// Match is the template of every match: game, parameters, limits.
	// Entrants and seed are filled per match.
	Match     judge.Match
	Format    Format // empty: round robin for two-seat games, groups otherwise
	Rounds    int    // default 1
	Games     int    // groups: at least this many games (more rounds as needed)
	Seed      uint64
	Jobs      int    // matches at once; 0: DefaultJobs
	Out       string // output directory
	Cache     string // build cache; default Out/cache
	TestBot   string // a bot's name or argument: only its matches
	GroupSize int    // groups: players per match; default min(5, bots, the game's maximum)
	Shard     Shard
	// Fresh starts over: the results already in Out are moved aside
	// (see StartFresh) and every match is played.
	Fresh bool
	Bots  []string // bot arguments
	// Skipped are the files of a bots directory not taken as bots (Name
	// the file, Error why): reported, and recorded with the standings.
	Skipped []Excluded
	// Prepare makes the bot arguments contestants (in Cache, at most Jobs
	// at once): the caller's, who knows the kinds of bots.
	Prepare play.Preparer
	// BotSettings are how the bots run, as it decides results
	// (recorded).
	BotSettings BotSettings
	// Retry, when set, tells a match's failure that is no one's loss —
	// a bot's sandbox that failed under it —: the match is played again,
	// a few times at most (play.Options.Retry).
	Retry func(error) bool
	// Lateness, when set, says how late the bots are: the share of their
	// recent turns' time limits they spent runnable but not running, and
	// over how much time limit it was taken. Matches are held back while
	// they wait for a CPU (see admission); nil: never.
	Lateness func() (share float64, over time.Duration)
	// Ready, when set, waits for a check of the match left under way (its
	// game's parameters, which a plugin game's referee must be started
	// to check) and says what it found: the bots are prepared meanwhile,
	// and its error stops their preparation and the tournament.
	Ready    func() error
	Progress *Progress
	Log      io.Writer // notes for people: compile errors, repairs, warnings
	// Command is the command line that runs this tournament, and Dir the
	// directory it runs in, when it was given one: recorded, so that a
	// merge can say how to resume a shard.
	Command []string
	Dir     string
}

// UnplayableError is a shard that cannot play its part: bots that cannot
// play on this machine (a compile error, a runtime missing). A whole
// tournament leaves such bots out, but a shard that did would play
// another tournament than the other shards, which no merge would take.
type UnplayableError struct {
	Shard Shard
	Bots  []Excluded
}

func (e *UnplayableError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "shard %s cannot play its part: %d bot(s) cannot play here, and every shard must play every bot:", e.Shard, len(e.Bots))
	for _, x := range e.Bots {
		fmt.Fprintf(&b, "\n  %s: %s", x.Name, strings.ReplaceAll(strings.TrimRight(x.Error, "\n"), "\n", "\n    "))
	}
	return b.String()
}

// DefaultJobs is the default number of matches at once: one per CPU when
// bots move in turn (one of a match's bots computes at a time), fewer when
// k of them move at once.
func DefaultJobs(seatsAtOnce int) int {
	n := runtime.NumCPU()
	if seatsAtOnce > 2 {
		n = n * 2 / seatsAtOnce
	}
	return max(n, 1)
}

// tourney is a tournament being run.
type tourney struct {
	o        Options
	store    *Store
	header   *Header
	ents     []*play.Contestant // those that play
	excluded []Excluded         // those that cannot
	names    []string
	hash     map[string]string // a bot's name to its sha256
	seatPar  string
	params   games.Params
	replays  string
	progress *Progress

	stale map[string][]string // matches of changed bots to play again: their changed bots

	admitOnce sync.Once
	admit     *admission
}

// Run plays a tournament, or what is left of it in o.Out, and writes the
// standings there. On ErrInterrupted the standings of what was played are
// written too.
func Run(ctx context.Context, o Options) (*Standings, error) {
	if o.Out == "" {
		return nil, errors.New("no output directory")
	}
	g, err := gameOf(o.Match)
	if err != nil {
		return nil, err
	}
	if o.Format == "" {
		o.Format = RoundRobin
		if g.hi > 2 {
			o.Format = Groups
		}
	}
	if o.Rounds <= 0 {
		o.Rounds = 1
	}
	if o.Prepare == nil {
		return nil, errors.New("no way to prepare the bots")
	}
	if o.Cache == "" {
		o.Cache = filepath.Join(o.Out, "cache")
	}
	if o.Format == Swiss && o.Shard.Count > 1 {
		return nil, errors.New("a Swiss tournament cannot be sharded: each round's pairings need the results of the previous ones")
	}
	if o.Format != Groups && (g.lo > 2 || g.hi < 2) {
		return nil, fmt.Errorf("%s is for two-player games; %s takes %d..%d players: use --format groups", o.Format, g.name, g.lo, g.hi)
	}
	if o.Fresh {
		old, err := StartFresh(o.Out, o.Cache)
		if err != nil {
			return nil, err
		}
		if old != "" {
			o.Progress.say(o.Log, "the results in %s were moved to %s; starting over\n", o.Out, old)
		}
	}
	store, replays, err := openOut(o.Out, o.Log, o.Progress, "matches", true)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	t, plan, err := enter(ctx, &o, g, store, replays)
	if err != nil {
		return nil, err
	}
	return t.runAll(ctx, plan)
}

// StartFresh moves the results in out aside, to out.old-TIME (UTC), so
// that a tournament starts over there; the build cache, when it is in out
// (cache), comes back, as what it holds depends on nothing else. It
// returns where the results went, or "" when out held none. A directory
// whose log another judge holds is refused, and so is one whose new name
// is taken: nothing is moved then.
func StartFresh(out, cache string) (string, error) {
	log := filepath.Join(out, LogName)
	f, err := os.OpenFile(log, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		if errors.Is(err, errLocked) {
			return "", fmt.Errorf("%s is in use by another judge: it cannot start over", log)
		}
		return "", fmt.Errorf("lock %s: %w", log, err)
	}
	clean := filepath.Clean(out)
	old := clean + ".old-" + time.Now().UTC().Format("20060102-150405")
	if _, err := os.Lstat(old); err == nil {
		return "", fmt.Errorf("cannot start %s over: %s exists (wait a second, or move it)", out, old)
	}
	if runtime.GOOS == "windows" {
		f.Close() // Windows moves no directory with a file open in it
	}
	if err := os.Rename(clean, old); err != nil {
		return "", fmt.Errorf("start %s over: %w", out, err)
	}
	if err := syncDir(filepath.Dir(clean)); err != nil {
		return old, err
	}
	if cache == "" || filepath.Clean(cache) == filepath.Join(clean, "cache") {
		if _, err := os.Stat(filepath.Join(old, "cache")); err == nil {
			if err := os.MkdirAll(clean, 0o755); err != nil {
				return old, err
			}
			if err := os.Rename(filepath.Join(old, "cache"), filepath.Join(clean, "cache")); err != nil {
				return old, fmt.Errorf("keep the build cache: %w", err)
			}
		}
	}
	return old, nil
}

// game is a match's game, its parameters resolved, and how many seats
// its matches may have.
type game struct {
	name    string
	params  games.Params
	lo, hi  int
	seatPar string // the parameter that sets the number of seats, or ""
}

// gameOf resolves the game of a template match.
func gameOf(m judge.Match) (*game, error) {
	if m.Game == nil {
		return nil, errors.New("no game")
	}
	params, err := games.Resolve(m.Game.Params(), m.Params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Name, err)
	}
	lo, hi, seatPar, err := seatsOf(m.Game, m.Name, params)
	if err != nil {
		return nil, err
	}
	return &game{name: m.Name, params: params, lo: lo, hi: hi, seatPar: seatPar}, nil
}

// openOut opens the results log of an output directory, says what it
// repaired (what of damaged records, which of what, will be played
// again; with dups, the duplicate records dropped too), and makes its
// replays directory: its path is returned.
func openOut(out string, log io.Writer, p *Progress, what string, dups bool) (*Store, string, error) {
	store, rep, err := OpenStore(out)
	if err != nil {
		return nil, "", err
	}
	if rep.Lines > 0 {
		p.say(log, "%s: dropped %d damaged record(s) (%d bytes, kept in %s); their %s will be played again\n",
			store.path, rep.Lines, rep.Bytes, rep.SavedTo, what)
	}
	if dups && rep.Dups > 0 {
		p.say(log, "%s: ignored %d duplicate match record(s)\n", store.path, rep.Dups)
	}
	replays := filepath.Join(out, "replays")
	if err := os.MkdirAll(replays, 0o755); err != nil {
		store.Close()
		return nil, "", err
	}
	play.RemoveTemps(replays)
	return store, replays, nil
}

// prepare makes bot arguments contestants with prepare, the progress
// counting them as they are ready; an interruption is ErrInterrupted.
func prepare(ctx context.Context, p *Progress, prepare play.Preparer, args []string, cache string, jobs int) ([]*play.Contestant, error) {
	b := play.Batch{Args: args, Cache: cache, Jobs: jobs}
	if p != nil && p.W != nil {
		p.building(len(args))
		defer p.end()
		b.Started, b.Ready = p.startOne, p.builtOne
	}
	all, err := prepare(ctx, b)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ErrInterrupted
		}
		return nil, err
	}
	return all, nil
}

// prewarm readies the sandboxes of up to n of the contestants that can
// play (judge.Prewarmer), for the first matches, the test bot (a name or
// an argument; "" for none) first, since it plays every match; and waits
// for them: a plugin game's referee is compiled meanwhile. A sandbox that
// cannot be readied is left to the match to start, and to report.
func prewarm(ctx context.Context, all []*play.Contestant, n int, testBot string) {
	all = slices.Clone(all)
	slices.SortStableFunc(all, func(a, b *play.Contestant) int {
		isTest := func(c *play.Contestant) bool { return testBot != "" && (c.Name == testBot || c.Arg == testBot) }
		switch {
		case isTest(a) && !isTest(b):
			return -1
		case isTest(b) && !isTest(a):
			return 1
		}
		return 0
	})
	var wg sync.WaitGroup
	for _, c := range all {
		p, ok := c.Entrant.(judge.Prewarmer)
		if !ok || c.Err != nil || n == 0 {
			continue
		}
		n--
		wg.Go(func() { _ = p.Prewarm(ctx) })
	}
	wg.Wait()
}

// writeHeader records h in store, or checks that the header recorded
// there is the same; what names what store holds for the error.
func writeHeader(store *Store, h *Header, out, what string) error {
	if old := store.Header(); old != nil {
		if d := headerDiff(old, h); d != "" {
			return fmt.Errorf("%s holds another %s (%s): give another --out", out, what, d)
		}
		return nil
	}
	return store.Append(&Record{Kind: KindHeader, Header: h})
}

// enter prepares the bots of a tournament, draws its plan and records
// the run in store: what plays it.
func enter(ctx context.Context, o *Options, g *game, store *Store, replays string) (*tourney, Plan, error) {
	jobs := o.Jobs
	seatsAtOnce := 2
	if o.Format == Groups {
		seatsAtOnce = g.hi
	}
	if jobs <= 0 {
		jobs = DefaultJobs(seatsAtOnce)
	} else if jobs > runtime.NumCPU() {
		o.Progress.say(o.Log, "warning: --jobs %d is more than the %d CPUs: bots share CPUs and may time out because of it\n", jobs, runtime.NumCPU())
	}
	o.Jobs = jobs
	for _, s := range o.Skipped {
		o.Progress.say(o.Log, "%s is skipped: %s\n", s.Name, s.Error)
	}
	var all []*play.Contestant
	eg, ectx := errgroup.WithContext(ctx)
	if o.Ready != nil {
		eg.Go(o.Ready)
	}
	eg.Go(func() error {
		JudgeVersion() // recorded with the run: a modified build's is a hash of the program
		return nil
	})
	eg.Go(func() (err error) {
		all, err = prepare(ectx, o.Progress, o.Prepare, o.Bots, o.Cache, jobs)
		if err == nil {
			prewarm(ectx, all, 2*jobs, o.TestBot)
		}
		return err
	})
	if err := eg.Wait(); err != nil {
		return nil, Plan{}, err
	}
	t := &tourney{o: *o, store: store, seatPar: g.seatPar, params: g.params, replays: replays, progress: o.Progress}
	for _, e := range all {
		if e.Err != nil {
			t.excluded = append(t.excluded, Excluded{Name: e.Name, Error: e.Err.Error()})
			o.Progress.say(o.Log, "%s is left out: %v\n", e.Name, e.Err)
			continue
		}
		t.ents = append(t.ents, e)
		t.names = append(t.names, e.Name)
	}
	t.hash = make(map[string]string, len(t.ents))
	for _, e := range t.ents {
		t.hash[e.Name] = e.Hash
	}
	if o.Shard.Count > 0 && len(t.excluded) > 0 {
		return nil, Plan{}, &UnplayableError{Shard: o.Shard, Bots: t.excluded}
	}
	plan, err := t.plan(g)
	if err != nil {
		return nil, Plan{}, err
	}
	t.o.Rounds = plan.Rounds
	h := &Header{Version: LogVersion, Game: g.name, Params: g.params, Format: o.Format, Seed: o.Seed, GroupSize: plan.GroupSize}
	if plan.TestBot >= 0 {
		h.TestBot = t.names[plan.TestBot]
	}
	if err := writeHeader(store, h, o.Out, "tournament"); err != nil {
		return nil, Plan{}, err
	}
	t.header = h
	if err := t.recordRun(); err != nil {
		return nil, Plan{}, err
	}
	return t, plan, nil
}

// plan draws the plan of the tournament between the bots that play: the
// test bot, the size of groups and the rounds that give o.Games.
func (t *tourney) plan(g *game) (Plan, error) {
	o := &t.o
	testBot := -1
	if o.TestBot != "" {
		for i, e := range t.ents {
			if e.Name == o.TestBot || e.Arg == o.TestBot {
				testBot = i
			}
		}
		if testBot < 0 {
			return Plan{}, fmt.Errorf("test bot %q is not among the bots that can play", o.TestBot)
		}
	} else if o.Format == Gauntlet && len(t.ents) > 0 {
		testBot = 0
	}
	if o.Format == Swiss && testBot >= 0 {
		return Plan{}, errors.New("a Swiss tournament has no test bot")
	}
	k, rounds := 0, o.Rounds
	if o.Format == Groups {
		k = o.GroupSize
		if k <= 0 {
			k = min(5, g.hi, len(t.ents))
		}
		if k < g.lo || k > g.hi {
			return Plan{}, fmt.Errorf("groups of %d: %s takes %d..%d players", k, g.name, g.lo, g.hi)
		}
		if k > len(t.ents) {
			return Plan{}, fmt.Errorf("groups of %d need at least %d bots that can play, have %d", k, k, len(t.ents))
		}
		if o.Games > 0 {
			per, _ := GroupsPerRound(len(t.ents), k, testBot)
			if per > 0 {
				rounds = max(rounds, (o.Games+per-1)/per)
			}
		}
	}
	if len(t.ents) < 2 {
		return Plan{}, fmt.Errorf("a tournament needs at least 2 bots that can play, have %d%s", len(t.ents), t.leftOut())
	}
	plan := Plan{Format: o.Format, Names: t.names, Rounds: rounds, Seed: o.Seed, TestBot: testBot, GroupSize: k}
	if err := plan.checkSize(); err != nil {
		return Plan{}, err
	}
	return plan, nil
}

// leftOut says which bots were left out and why, for an error that
// stops the tournament (--quiet prints nothing else): "" when none was.
func (t *tourney) leftOut() string {
	var b strings.Builder
	for _, e := range t.excluded {
		fmt.Fprintf(&b, "\n  %s is left out: %s", e.Name, firstLines(judge.Printable(e.Error), 6))
	}
	for _, s := range t.o.Skipped {
		fmt.Fprintf(&b, "\n  %s is skipped: %s", s.Name, s.Error)
	}
	return b.String()
}

// skipped are the files of the bots directory not taken as bots, as the
// run log and the standings keep them.
func (t *tourney) skipped() []Excluded { return slices.Clone(t.o.Skipped) }

// recordRun records this run, once it is sure to play what the runs
// before it played: the same sandbox level, runtimes and settings. A bot
// whose program changed is not refused: its matches are played again.
func (t *tourney) recordRun() error {
	o, store := &t.o, t.store
	run := &RunInfo{Rounds: o.Rounds, Shard: o.Shard, Excluded: t.excluded, Skipped: t.skipped(), Sandbox: o.BotSettings.Level,
		Settings: RunSettings(o), Command: o.Command, Dir: o.Dir}
	for _, e := range t.ents {
		run.Entrants = append(run.Entrants, EntrantInfo{Name: e.Name, SHA256: e.Hash, Runtime: e.Runtime})
	}
	for _, old := range store.Runs() {
		if old.Sandbox != "" && old.Sandbox != run.Sandbox {
			return fmt.Errorf("%s was started with bots at sandbox level %s, and they would run at %s now: give --sandbox %s, or another --out", o.Out, old.Sandbox, run.Sandbox, old.Sandbox)
		}
	}
	if name, then, now := changedRuntime(store.Runs(), run); name != "" {
		return fmt.Errorf("the runtime of bot %s has changed since %s was started (%s then, %s now): its recorded matches were played on the other; give another --out, or --fresh to start over", name, o.Out, then, now)
	}
	if what := changedSetting(store.Runs(), run); what != "" {
		return fmt.Errorf("%s was started with other settings (%s): play it with the same settings, give another --out, or --fresh to start over", o.Out, what)
	}
	return store.Append(&Record{Kind: KindRun, Run: run})
}

// runAll plays what is left of the plan and writes the standings.
func (t *tourney) runAll(ctx context.Context, plan Plan) (*Standings, error) {
	o := &t.o
	t0 := time.Now()
	var (
		ids     map[string]bool
		total   int
		played  int
		runErr  error
		average = o.Format == Groups && plan.GroupSize > 2
	)
	if o.Format == Swiss {
		ids, total, played, runErr = t.runSwiss(ctx, plan, o.Jobs)
	} else {
		sched, err := plan.Schedule()
		if err != nil {
			return nil, err
		}
		ids = make(map[string]bool, len(sched))
		todo := sched[:0] // filtered in place: a schedule may be large
		o.Progress.begin(0, 0, average)
		for _, f := range sched {
			if !o.Shard.has(f.Index) {
				continue
			}
			ids[f.ID] = true
			if r := t.store.Current(f.ID, t.hash); r != nil {
				o.Progress.count(r)
			} else {
				todo = append(todo, f)
			}
		}
		total = len(ids)
		t.progress.setTotal(total, total-len(todo))
		t.sayChanged(todo)
		played, runErr = t.runFixtures(ctx, todo, o.Jobs)
	}
	o.Progress.end()

	var recs []*MatchRecord
	for _, r := range t.store.Matches() {
		if ids[r.ID] && r.playedBy(t.hash) {
			recs = append(recs, r)
		}
	}
	st := ComputeStandings(t.header, t.names, t.excluded, recs, total)
	st.Skipped = t.skipped()
	st.Replayed = t.replayed()
	writeErr := st.Write(o.Out)
	el := time.Since(t0).Round(time.Millisecond)
	switch {
	case runErr == nil && writeErr == nil:
		o.Progress.say(o.Log, "%d matches played in %v (%d recorded before); results in %s\n", played, el, total-played, o.Out)
	case runErr == nil:
		return st, writeErr
	case errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded) || errors.Is(runErr, ErrInterrupted):
		return st, errors.Join(fmt.Errorf("%w after %d of %d matches (%d in this run): run the same command again to resume", ErrInterrupted, len(recs), total, played), writeErr)
	default:
		return st, errors.Join(runErr, writeErr)
	}
	return st, nil
}

// setTotal sets the progress's total and the matches found recorded
// (all of them so far: a Swiss tournament finds more each round), once
// they are known; the matches played in this run are counted apart.
func (p *Progress) setTotal(total, already int) {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.already = total, already
}

// runFixtures plays fixtures, at most jobs at once, and returns how many
// it recorded. A match's replay and record are written by a recorder
// while the next matches play: a write waits for the disk (fsync), which
// a match of short turns would otherwise wait for too. runFixtures
// returns once every match played is recorded. The first failure stops
// the others; the error tells every match that failed, and the first
// write that did.
func (t *tourney) runFixtures(ctx context.Context, todo []Fixture, jobs int) (int, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	rec := newRecorder(t, jobs, cancel)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(jobs)
	var (
		adm   = t.admission()
		mu    sync.Mutex
		fails []error
	)
	for _, f := range todo {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			if err := adm.wait(gctx); err != nil {
				return err
			}
			defer adm.done()
			m, err := t.play(gctx, f)
			if err == nil {
				rec.add(m)
				return nil
			}
			if gctx.Err() == nil || !errors.Is(err, gctx.Err()) {
				mu.Lock()
				fails = append(fails, err)
				mu.Unlock()
			}
			return err
		})
	}
	err := g.Wait()
	count, werr := rec.close()
	switch {
	case werr != nil:
		// The recorder stopped the run: its error, not the cancelling
		// it caused.
		err = errors.Join(append([]error{werr}, fails...)...)
	case len(fails) > 1:
		err = errors.Join(fails...)
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return count, err
}

// played is a match played and not yet recorded.
type played struct {
	replay string // its path, relative to the output directory
	rp     *judge.Replay
	rec    *MatchRecord
}

// recorder writes played matches, one after the other in the order they
// ended: the replay first, then the record, each durably, so that a
// record never names a replay a crash lost. A write that fails stops
// the run (cancel); what was played and not recorded is played again
// when the run is resumed.
type recorder struct {
	t      *tourney
	ch     chan played
	cancel context.CancelCauseFunc
	done   chan struct{}
	count  int   // recorded, read after done
	err    error // the first write that failed, read after done
}

// newRecorder starts a recorder that holds at most queue matches
// waiting to be written, besides the one it writes: beyond, the next to
// end waits for the disk.
func newRecorder(t *tourney, queue int, cancel context.CancelCauseFunc) *recorder {
	r := &recorder{t: t, ch: make(chan played, max(queue, 1)), cancel: cancel, done: make(chan struct{})}
	go r.run()
	return r
}

func (r *recorder) add(p played) { r.ch <- p }

// close waits for every match added to be written, and returns how many
// were recorded and the first write's error.
func (r *recorder) close() (int, error) {
	close(r.ch)
	<-r.done
	return r.count, r.err
}

func (r *recorder) run() {
	defer close(r.done)
	for p := range r.ch {
		if r.err != nil {
			continue
		}
		if err := r.t.record(p); err != nil {
			r.err = err
			r.cancel(err)
			continue
		}
		r.count++
	}
}

// record writes a played match: the replay first, then the record, each
// durably.
func (t *tourney) record(p played) error {
	err := play.Record(filepath.Join(t.o.Out, p.replay), p.rp, func(int64) error {
		return t.store.Append(&Record{Kind: KindMatch, Match: p.rec})
	})
	if err != nil {
		return fmt.Errorf("match %s: %w", p.rec.ID, err)
	}
	t.progress.finished(p.rec)
	return nil
}

// admission is the tournament's admission control: one per run, shared
// by every round.
func (t *tourney) admission() *admission {
	t.admitOnce.Do(func() { t.admit = newAdmission(t.progress, t.o.Lateness) })
	return t.admit
}

// play plays one fixture, and returns what to record of it.
func (t *tourney) play(ctx context.Context, f Fixture) (played, error) {
	m := t.o.Match
	p := games.Params{}
	for k, v := range t.params {
		p[k] = v
	}
	if t.seatPar != "" {
		p[t.seatPar] = len(f.Seats)
	}
	m.Params = p
	m.Seed = f.Seed(t.header.Seed)
	m.Entrants = make([]judge.Entrant, len(f.Seats))
	for i, s := range f.Seats {
		m.Entrants[i] = t.ents[s].Entrant
	}
	res, wall, err := play.Match(ctx, m, play.Options{Retry: t.o.Retry, Again: func(err error) {
		t.o.Progress.say(t.o.Log, "match %s: %v; playing it again\n", f.ID, err)
	}})
	if err != nil {
		if ctx.Err() != nil {
			return played{}, ctx.Err()
		}
		return played{}, fmt.Errorf("match %s: %w", f.ID, err)
	}
	hashes := make([]string, len(f.Seats))
	for i, s := range f.Seats {
		hashes[i] = t.ents[s].Hash
	}
	rel := filepath.Join("replays", f.ID+".json")
	if t.store.Match(f.ID) != nil {
		// Played again by a changed bot: the replay of the record before
		// stays as it was.
		rel = filepath.Join("replays", f.ID+"."+seatsHash(hashes)+".json")
	}
	rec := &MatchRecord{
		ID: f.ID, Round: f.Round, Group: f.Group, Index: f.Index,
		Seed: m.Seed, Winner: res.Winner, Turns: res.Turns, Reason: res.NamedReason(),
		Players: res.Players, Replay: rel,
		WallMS: wall.Milliseconds(),
		SHA256: hashes,
	}
	return played{replay: rel, rp: res.Replay, rec: rec}, nil
}

// runSwiss plays the Swiss rounds one after the other; each round's
// pairings come from the recorded results of the rounds before.
func (t *tourney) runSwiss(ctx context.Context, plan Plan, jobs int) (ids map[string]bool, total, played int, err error) {
	n := len(plan.Names)
	points := make([]float64, n)
	byes := make([]int, n)
	met := map[[2]int]bool{}
	idx := map[string]int{}
	for i, name := range plan.Names {
		idx[name] = i
	}
	ids = map[string]bool{}
	perRound := n / 2 * 2
	total = perRound * plan.Rounds
	t.progress.begin(total, 0, false)
	already := 0
	index := 0
	for r := 1; r <= plan.Rounds; r++ {
		fix, bye := plan.SwissRound(r, points, met, byes)
		var todo []Fixture
		for i := range fix {
			fix[i].Index = index
			index++
			ids[fix[i].ID] = true
			if rec := t.store.Current(fix[i].ID, t.hash); rec != nil {
				already++
				t.progress.count(rec)
			} else {
				todo = append(todo, fix[i])
			}
		}
		t.progress.setTotal(total, already)
		t.sayChanged(todo)
		k, err := t.runFixtures(ctx, todo, jobs)
		played += k
		if err != nil {
			return ids, total, played, err
		}
		if bye >= 0 {
			byes[bye]++
			points[bye]++
		}
		for _, f := range fix {
			rec := t.store.Current(f.ID, t.hash)
			if rec == nil {
				return ids, total, played, fmt.Errorf("match %s has no record", f.ID)
			}
			met[pairKey(f.Seats[0], f.Seats[1])] = true
			for _, p := range rec.Players {
				points[idx[p.Name]] += p.Score
			}
		}
	}
	return ids, total, played, nil
}

// seatsHash is a short name for the programs of a match's seats.
func seatsHash(hashes []string) string {
	h := sha256.New()
	for _, x := range hashes {
		h.Write([]byte(x))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// changedOf names the bots of a match's record that have changed since it
// was played.
func (t *tourney) changedOf(r *MatchRecord) []string {
	var out []string
	for i, p := range r.Players {
		if h, ok := t.hash[p.Name]; ok && (i >= len(r.SHA256) || r.SHA256[i] != h) {
			out = append(out, p.Name)
		}
	}
	return out
}

// sayChanged says which bots have changed since their recorded matches
// of todo were played, and how many of those are played again; it keeps
// them to count what was replayed.
func (t *tourney) sayChanged(todo []Fixture) {
	count := map[string]int{}
	for _, f := range todo {
		r := t.store.Match(f.ID)
		if r == nil {
			continue
		}
		if t.stale == nil {
			t.stale = map[string][]string{}
		}
		t.stale[f.ID] = t.changedOf(r)
		for _, name := range t.stale[f.ID] {
			count[name]++
		}
	}
	for _, name := range t.names {
		if count[name] > 0 {
			t.progress.say(t.o.Log, "%s has changed since its matches were recorded in %s: %d of them are played again\n", name, t.o.Out, count[name])
		}
	}
}

// replayed counts, for each changed bot, its matches played again in
// this run.
func (t *tourney) replayed() []Replayed {
	count := map[string]int{}
	for id, names := range t.stale {
		if t.store.Current(id, t.hash) == nil {
			continue
		}
		for _, name := range names {
			count[name]++
		}
	}
	var out []Replayed
	for _, name := range t.names {
		if count[name] > 0 {
			out = append(out, Replayed{Bot: name, Matches: count[name]})
		}
	}
	return out
}

// changedBot names a bot of run that earlier runs recorded with other
// contents, or is "".
func changedBot(runs []*RunInfo, run *RunInfo) string {
	for _, old := range runs {
		for _, a := range old.Entrants {
			for _, b := range run.Entrants {
				if a.Name == b.Name && a.SHA256 != b.SHA256 {
					return a.Name
				}
			}
		}
	}
	return ""
}

// changedRuntime names a bot of run that an earlier run recorded with
// the same program on another runtime, and both runtimes, or is "". An
// earlier run that did not record it (an older judge's log) is not
// compared, nor one with another program of the bot (its matches are
// played again: a bot rewritten in another language is a changed bot).
func changedRuntime(runs []*RunInfo, run *RunInfo) (name, then, now string) {
	for _, old := range runs {
		for _, a := range old.Entrants {
			for _, b := range run.Entrants {
				if a.Name == b.Name && a.SHA256 == b.SHA256 && a.Runtime != "" && a.Runtime != b.Runtime {
					return a.Name, a.Runtime, show(b.Runtime, true)
				}
			}
		}
	}
	return "", "", ""
}

// headerDiff names the first difference between two headers, or "".
func headerDiff(a, b *Header) string {
	switch {
	case a.Game != b.Game:
		return fmt.Sprintf("game %s, not %s", a.Game, b.Game)
	case a.Format != b.Format:
		return fmt.Sprintf("format %s, not %s", a.Format, b.Format)
	case a.Seed != b.Seed:
		return fmt.Sprintf("seed %d, not %d", a.Seed, b.Seed)
	case a.TestBot != b.TestBot:
		return fmt.Sprintf("test bot %q, not %q", a.TestBot, b.TestBot)
	case a.GroupSize != b.GroupSize:
		return fmt.Sprintf("groups of %d, not %d", a.GroupSize, b.GroupSize)
	case a.Version != b.Version:
		return fmt.Sprintf("log version %d, not %d", a.Version, b.Version)
	}
	ja, _ := json.Marshal(a.Params)
	jb, _ := json.Marshal(b.Params)
	if string(ja) != string(jb) {
		return fmt.Sprintf("parameters %s, not %s", ja, jb)
	}
	return ""
}
