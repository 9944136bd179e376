package arena

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"judge/judge"
	"judge/judge/bots/contest"
	"judge/judge/play"
)

// idle is how long Run waits for work when there is none, at most.
const idle = 500 * time.Millisecond

// runner is one Run of the arena.
type runner struct {
	a       *Arena
	s       *matchSetup
	prepare play.Preparer
	cache   string
	refs    []*play.Contestant
	// refNames are the reference bots' names in matches (refNames).
	refNames []string
	// testBusy counts the test matches being played, by submission and
	// slot; busy the ladder matches (under a.mu, as a.built).
	testBusy map[int64]map[slot]int
	// building are the entrants with a submission being built;
	// lastBuild says when each entrant's last build started, in builds
	// (under a.mu).
	building  map[int64]bool
	lastBuild map[int64]int64
	builds    int64
	// failures counts the judge's failures in a row.
	failures atomic.Int64
}

// work is a match to play: its seats' submissions (0 for a reference
// bot, then ref says which) and whether it is a test match, then which.
type work struct {
	subs []int64
	refs []int
	test bool
	slot slot
}

// slot is a kind of test match: against which reference bot, in which
// seat.
type slot struct{ ref, seat int }

// Run builds the queued submissions, plays the test matches of the built
// ones against the reference bots, then the ladder, jobs builds and jobs
// matches at a time, until ctx ends: then it returns nil. A match cut
// short is not recorded, and will be played again. A submission that
// cannot be built, started or played is that submission's status and
// reason; a failure of the judge's own while it runs (its database, its
// build cache, its sandbox) is reported on the arena's log (SetLog) and
// tried again, and a submission the judge fails to build or start
// however often it tries is benched: Run goes on. It returns an error
// only when it cannot start: another Run holds the arena, or a reference
// bot cannot play. A frozen arena (Freeze) builds and plays nothing: its
// final is the active submissions' as they were when it froze.
func (a *Arena) Run(ctx context.Context, jobs int) error {
	// One Run at a time: the lock goes with the process, however it ends.
	lock, err := os.OpenFile(filepath.Join(a.dir, "run.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	defer lock.Close()
	if err := lockFile(lock); err != nil {
		return fmt.Errorf("arena: %s is already running (another judge arena serve?): %w", a.dir, err)
	}
	s, err := a.setup()
	if err != nil {
		return err
	}
	r := &runner{a: a, s: s, prepare: contest.Preparer(s.langs, s.proc), cache: filepath.Join(a.dir, "builds"),
		testBusy: map[int64]map[slot]int{}, building: map[int64]bool{}, lastBuild: map[int64]int64{}}
	if err := a.clean(ctx, r.cache); err != nil {
		return stopped(ctx, err)
	}
	if err := a.countReplays(ctx); err != nil {
		return stopped(ctx, err)
	}
	// A build cut short is built again.
	if _, err := a.db.ExecContext(ctx, `UPDATE submissions SET status = ? WHERE status = ?`, StatusQueued, StatusBuilding); err != nil {
		return stopped(ctx, fmt.Errorf("arena: %w", err))
	}
	if len(a.cfg.References) > 0 {
		args := make([]string, len(a.cfg.References))
		for i, ref := range a.cfg.References {
			args[i] = a.path(ref)
		}
		if r.refs, err = r.prepare(ctx, play.Batch{Args: args, Cache: r.cache, Jobs: max(jobs, 1)}); err != nil {
			return stopped(ctx, err)
		}
		for _, c := range r.refs {
			if c.Err == nil {
				c.Err = r.starts(ctx, c)
			}
			if c.Err != nil {
				return stopped(ctx, fmt.Errorf("arena: reference bot %s cannot play: %w", c.Name, c.Err))
			}
		}
		r.refNames = refNames(r.refs)
	}
	g, gctx := errgroup.WithContext(ctx)
	for range max(jobs, 1) {
		g.Go(func() error { return r.builder(gctx) })
		g.Go(func() error { return r.worker(gctx) })
	}
	return stopped(ctx, g.Wait())
}

// refNames names the reference bots in matches: ref- and the name every
// command gives the bot (bots.Resolve: refs/random.c is ref-random,
// refs/alice/bot.c ref-alice), apart from the submissions' entrants.
func refNames(cs []*play.Contestant) []string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = "ref-" + c.Name
	}
	return names
}

// stopped is err, or nil when ctx ended: the end of Run.
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// path is an argument as the arena records it (a file relative to its
// directory, or a command line or URL) as it runs.
func (a *Arena) path(arg string) string {
	if strings.HasPrefix(arg, "submissions/") || strings.HasPrefix(arg, "refs/") {
		return filepath.Join(a.dir, arg)
	}
	return arg
}

// wait waits for work, at most idle: false when ctx ended.
func (r *runner) wait(ctx context.Context, woken <-chan struct{}) bool {
	t := time.NewTimer(idle)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-woken:
	case <-t.C:
	}
	return true
}

// build is a submission to build: its id, its argument and its entrant.
type build struct {
	id, entrant int64
	arg         string
}

// builder builds queued submissions, one at a time, until ctx ends. Run
// starts as many builders as matches at once; pickBuild shares them
// fairly between the entrants.
func (r *runner) builder(ctx context.Context) error {
	for {
		woken := r.a.woken()
		b, err := r.pickBuild(ctx)
		if err != nil {
			if !r.failed(ctx, "choosing a build", err) {
				return nil
			}
			continue
		}
		if b == nil {
			if !r.wait(ctx, woken) {
				return nil
			}
			continue
		}
		err = r.build(ctx, b)
		r.a.mu.Lock()
		delete(r.building, b.entrant)
		r.a.mu.Unlock()
		if err != nil {
			if !r.failed(ctx, fmt.Sprintf("submission %d", b.id), err) {
				return nil
			}
			continue
		}
		r.ok()
		r.a.notify()
	}
}

// pickBuild chooses the next submission to build and marks it building:
// of the entrants with a queued submission and none being built, the one
// whose last build started longest ago (or never), its oldest queued
// submission. One entrant's queue does not hold another's. Nil when
// there is none to build, or the arena is frozen.
func (r *runner) pickBuild(ctx context.Context) (*build, error) {
	if frozen, err := r.a.Frozen(ctx); err != nil || frozen {
		return nil, err
	}
	r.a.mu.Lock()
	defer r.a.mu.Unlock()
	rows, err := r.a.query(ctx, `SELECT id, arg, entrant_id FROM submissions WHERE status = ? ORDER BY id`, StatusQueued)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	defer rows.Close()
	var pick *build
	for rows.Next() {
		var b build
		if err := rows.Scan(&b.id, &b.arg, &b.entrant); err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
		if r.building[b.entrant] || pick != nil && (pick.entrant == b.entrant || r.lastBuild[pick.entrant] <= r.lastBuild[b.entrant]) {
			continue
		}
		pick = &b
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	rows.Close()
	if pick == nil {
		return nil, nil
	}
	if ok, err := r.setStatus(ctx, pick.id, StatusQueued, StatusBuilding, ""); err != nil || !ok {
		return nil, err
	}
	r.builds++
	r.building[pick.entrant], r.lastBuild[pick.entrant] = true, r.builds
	return pick, nil
}

// build builds submission b and checks that it can play: then it is
// testing (or active, where there are no reference bots), else a
// compile error with the reason, or benched when the judge failed to
// build it however often it tried. The error is the judge's failure to
// record that.
func (r *runner) build(ctx context.Context, b *build) error {
	var c *play.Contestant
	var err error
	for try := 1; ; try++ {
		if c, err = r.contestant(ctx, b.id, b.arg); err == nil || ctx.Err() != nil {
			break
		}
		if try == judgeRetries {
			_, err := r.setStatus(ctx, b.id, StatusBuilding, StatusBenched, r.private(b.arg, "the judge could not build it: "+err.Error()))
			return err
		}
		if !r.failed(ctx, fmt.Sprintf("building submission %d", b.id), err) {
			return nil
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	why := ""
	if c.Err != nil {
		why = c.Err.Error()
	} else if err := r.starts(ctx, c); err != nil {
		why = "cannot play: " + err.Error()
	}
	// Its entrant may have been removed meanwhile: then it stays
	// retired.
	if why != "" {
		_, err := r.setStatus(ctx, b.id, StatusBuilding, StatusCompileError, r.private(b.arg, why))
		return err
	}
	// The compiler's warnings, if any, are its author's to read.
	if _, err := r.setStatus(ctx, b.id, StatusBuilding, StatusTesting, r.private(b.arg, c.BuildLog)); err != nil {
		return err
	}
	if len(r.refs) == 0 {
		return r.a.inTx(ctx, func(tx *sql.Tx) error { return r.promote(ctx, tx, b.id) })
	}
	return nil
}

// private is text about the submission of argument arg as its author
// sees it: its files by their names in the upload, not where the arena
// keeps them. The builder's own messages (a compile error, a runtime
// missing, sources of no language) name the submission so already; what
// the system says of files (the judge's own failures, a program that
// does not start) may name the arena's folders, which this removes.
func (r *runner) private(arg, text string) string {
	root := r.a.path(arg)
	text = strings.ReplaceAll(strings.ReplaceAll(text, root+"/", ""), root, filepath.Base(root))
	return strings.ReplaceAll(text, r.a.dir, ".")
}

// judgeRetries is how many times the judge tries to build or start a
// submission before it benches it.
const judgeRetries = 3

// failed reports a failure of the judge's own (its database, its build
// cache, its sandbox) on the arena's log, and waits before the caller
// tries again: a second, doubling with each failure in a row up to
// maxPause. False when ctx ended meanwhile. The arena goes on: no
// failure of the judge's ends Run.
func (r *runner) failed(ctx context.Context, what string, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	n := r.failures.Add(1)
	pause := min(time.Second<<min(n-1, 10), maxPause)
	r.a.logf("arena: %s: %v (failure %d in a row; trying again in %v)", what, err, n, pause)
	t := time.NewTimer(pause)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// ok says the judge did something that can fail without failing.
func (r *runner) ok() { r.failures.Store(0) }

// maxPause is the longest failed waits.
const maxPause = 30 * time.Second

// starts checks that c can take a seat in the arena's game: a web bot
// plays only some games, a program's build may not start. Its player is
// stopped at once.
func (r *runner) starts(ctx context.Context, c *play.Contestant) error {
	p, err := c.Entrant.Start(ctx, judge.Seat{Seats: r.s.seats, Game: r.s.match.Name, Params: r.s.match.Params})
	if err != nil {
		return err
	}
	p.Stop(0)
	return nil
}

// setStatus moves submission id from status from to status to, with its
// build log; false when it was not in status from.
func (r *runner) setStatus(ctx context.Context, id int64, from, to, log string) (bool, error) {
	x, err := r.a.db.ExecContext(ctx, `UPDATE submissions SET status = ?, log = ? WHERE id = ? AND status = ?`, to, log, id, from)
	if err != nil {
		return false, fmt.Errorf("arena: %w", err)
	}
	n, err := x.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("arena: %w", err)
	}
	return n == 1, nil
}

// contestant is submission id (argument arg) made ready to play: built
// once per Run, as judge tournament builds, in the arena's build cache.
func (r *runner) contestant(ctx context.Context, id int64, arg string) (*play.Contestant, error) {
	r.a.mu.Lock()
	c := r.a.built[id]
	r.a.mu.Unlock()
	if c != nil {
		return c, nil
	}
	cs, err := r.prepare(ctx, play.Batch{Args: []string{r.a.path(arg)}, Cache: r.cache, Jobs: 1})
	if err != nil {
		return nil, fmt.Errorf("arena: submission %d: %w", id, err)
	}
	r.a.webPolicy(cs[0])
	r.a.mu.Lock()
	r.a.built[id] = cs[0]
	r.a.mu.Unlock()
	return cs[0], nil
}

// worker plays matches until ctx ends.
func (r *runner) worker(ctx context.Context) error {
	for {
		woken := r.a.woken()
		w, err := r.pick(ctx)
		if err != nil {
			if !r.failed(ctx, "choosing a match", err) {
				return nil
			}
			continue
		}
		if w == nil {
			if !r.wait(ctx, woken) {
				return nil
			}
			continue
		}
		err = r.play(ctx, w)
		r.done(w)
		r.a.notify() // what was busy is free
		if err != nil {
			if !r.failed(ctx, "a match", err) {
				return nil
			}
			continue
		}
		r.ok()
	}
}

// pick chooses the next match and marks its submissions busy: a test
// match of the oldest submission still testing, else the ladder match
// that tells the most; nil when there is none to play, or the arena is
// frozen.
func (r *runner) pick(ctx context.Context) (*work, error) {
	// After the final, the arena plays nothing: neither the ladder nor
	// the test matches of the submissions it had not tested.
	if frozen, err := r.a.Frozen(ctx); err != nil || frozen {
		return nil, err
	}
	if len(r.refs) > 0 {
		r.a.mu.Lock()
		w, err := r.pickTest(ctx)
		r.a.mu.Unlock()
		if w != nil || err != nil {
			return w, err
		}
	}
	// The ladder is read without holding a.mu: the other workers pick
	// meanwhile, and the matches they start count in busy.
	l, err := r.a.loadLadderRough(ctx)
	if err != nil || len(l.subs) < r.s.minSeats {
		return nil, err
	}
	r.a.mu.Lock()
	defer r.a.mu.Unlock()
	w := pickLadder(l, &r.a.busy, min(r.s.seats, len(l.subs)), r.a.cfg.LadderGames)
	if w == nil {
		return nil, nil
	}
	r.a.busy.start(w.subs)
	return w, nil
}

// pickTest is the next test match: of the oldest testing submission
// with test matches left to play, the first of its slots (testSlots)
// neither played nor being played.
func (r *runner) pickTest(ctx context.Context) (*work, error) {
	rows, err := r.a.query(ctx, `SELECT id FROM submissions WHERE status = ? ORDER BY id`, StatusTesting)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("arena: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	for _, id := range ids {
		played, err := r.playedSlots(ctx, r.a.db, id)
		if err != nil {
			return nil, err
		}
		for sl, n := range r.testBusy[id] {
			played[sl] += n
		}
		left := r.slotsLeft(played)
		if len(left) == 0 {
			continue
		}
		sl := left[0]
		if r.testBusy[id] == nil {
			r.testBusy[id] = map[slot]int{}
		}
		r.testBusy[id][sl]++
		w := &work{test: true, slot: sl, subs: make([]int64, r.s.seats), refs: make([]int, r.s.seats)}
		for i := range w.subs {
			w.refs[i] = -1
			if i == sl.seat {
				w.subs[i] = id
			} else {
				w.refs[i] = sl.ref
			}
		}
		return w, nil
	}
	return nil, nil
}

// testSlots are the test matches a submission plays: TestMatches
// against each reference bot, and at least one in each seat, the
// reference bot in every other seat. In order: each reference bot with
// the submission in seat 0, then each in seat 1, and so on, then again.
func (r *runner) testSlots() []slot {
	return testSlots(len(r.refs), r.s.seats, r.a.cfg.TestMatches)
}

// testSlots are the test slots of refs reference bots in a game of
// seats seats, per matches against each.
func testSlots(refs, seats, per int) []slot {
	per = max(per, seats)
	out := make([]slot, 0, per*refs)
	for k := range per * refs {
		out = append(out, slot{ref: k % refs, seat: (k / refs) % seats})
	}
	return out
}

// slotsLeft are the test slots not yet played, played counting the
// matches of each slot played (or being played).
func (r *runner) slotsLeft(played map[slot]int) []slot {
	var left []slot
	seen := map[slot]int{}
	for _, sl := range r.testSlots() {
		if seen[sl]++; seen[sl] > played[sl] {
			left = append(left, sl)
		}
	}
	return left
}

// playedSlots counts the recorded test matches of submission id by
// slot: its seat, and the reference bot in the first other seat (by
// name; one the arena no longer has counts for none).
func (r *runner) playedSlots(ctx context.Context, q querier, id int64) (map[slot]int, error) {
	rows, err := q.QueryContext(ctx, `SELECT ms.seat, coalesce((SELECT o.name FROM match_seats o
		WHERE o.match_id = ms.match_id AND o.seat != ms.seat ORDER BY o.seat LIMIT 1), '')
		FROM match_seats ms JOIN matches m ON m.id = ms.match_id WHERE m.test = 1 AND ms.submission_id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	defer rows.Close()
	played := map[slot]int{}
	for rows.Next() {
		var seat int
		var name string
		if err := rows.Scan(&seat, &name); err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
		if ref := slices.Index(r.refNames, name); ref >= 0 {
			played[slot{ref, seat}]++
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return played, nil
}

// done marks w's submissions no longer busy.
func (r *runner) done(w *work) {
	r.a.mu.Lock()
	defer r.a.mu.Unlock()
	if !w.test {
		r.a.busy.end(w.subs)
		return
	}
	for _, id := range w.subs {
		if id == 0 {
			continue
		}
		if r.testBusy[id][w.slot]--; r.testBusy[id][w.slot] <= 0 {
			delete(r.testBusy[id], w.slot)
		}
		if len(r.testBusy[id]) == 0 {
			delete(r.testBusy, id)
		}
	}
}
