// Package gametest checks that a game keeps the promises of package games,
// the way testing/fstest.TestFS checks a file system.
//
// A game's test calls Check with a player that picks legal moves:
//
//	func TestConformance(t *testing.T) {
//		gametest.Check(t, connect4.Game{}, nil, randomPlayer,
//			gametest.Queries("Board", "LastMove"),
//			gametest.Illegal(illegalMoves))
//	}
//
// Check plays many seeded random playouts (the player draws from the rng it
// is given) and reports every misbehaviour it sees:
//
//   - Params: defaults are within their ranges, names are unique, New
//     accepts the resolved parameters.
//   - Movers is sorted, without repeats, within 0..Seats-1, and empty
//     exactly when Outcome().Over; Turn grows with every Apply; the game is
//     over within MaxTurns applies.
//   - Every move of the player is taken by Orders.Command and Commit, the
//     committed move fed back through a fresh Orders commits to itself,
//     and Apply accepts the moves.
//   - Moves the game lists as Illegal are refused (some Command fails
//     without wrapping games.ErrUnknown, or Commit fails); lines with an
//     unknown verb give games.ErrNotQuery from Query and an error wrapping
//     games.ErrUnknown from Command; a known command verb with garbage
//     arguments is refused; nothing panics.
//   - Queries and Orders never change the state: Render and the answers to
//     every query of Queries (asked by every seat, from several goroutines
//     at once) are the same before and after a turn's queries and orders.
//   - The same seed and the same moves give the same game (two copies are
//     played side by side and compared after every turn).
//   - Forfeit: in some playouts a random mover forfeits; afterwards the seat
//     never moves again, and if the game is over it is not the winner.
//   - Outcome: once over, Scores has one entry per seat, Winner is -1 or a
//     seat with the highest score, and Reason is not empty.
//   - Hidden information (with the Hidden option): the game builds twin
//     states that differ only in what one seat must not see; that seat's
//     answers to every query and the errors of its probe commands must be
//     the same in both, and so must what the seat sees in View's Seen, when
//     the view has one.
//   - View (for states that are games.Viewer): every grid holds W×H cells,
//     marks lie on their grids, there is a line per seat, Seen has a grid
//     per grid of the same kind and size for every seat; View changes
//     nothing and the same game gives the same view.
package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"judge/games"
)

// Player chooses a legal move for seat in st, drawing any randomness from
// rng. It must not change st.
type Player func(st games.State, seat int, rng *rand.Rand) games.Move

// Option changes what Check does.
type Option func(*config)

type config struct {
	playouts int
	maxTurns int
	seed     uint64
	queries  []string
	illegal  func(st games.State, seat int, rng *rand.Rand) []games.Move
	hidden   []hiddenCheck
}

type hiddenCheck struct {
	probes []string
	twin   func(rng *rand.Rand) (a, b games.State, seat int)
}

// Playouts sets the number of random games played (default 40).
func Playouts(n int) Option { return func(c *config) { c.playouts = n } }

// MaxTurns sets how many turns a game may last before Check reports that
// it never ends (default 100000).
func MaxTurns(n int) Option { return func(c *config) { c.maxTurns = n } }

// Seed sets the first seed of the playouts (default 1); playout i uses
// seed+i, both for the game and for the player's rng.
func Seed(s uint64) Option { return func(c *config) { c.seed = s } }

// Queries lists query lines that every seat may ask at any time, such as
// "Board" or "SymbolAt 0 0". Each must be answered without error.
func Queries(lines ...string) Option {
	return func(c *config) { c.queries = append(c.queries, lines...) }
}

// Illegal gives moves that the game must refuse for seat in st (a move of
// no commands is allowed: it says that a turn without a move is illegal).
func Illegal(f func(st games.State, seat int, rng *rand.Rand) []games.Move) Option {
	return func(c *config) { c.illegal = f }
}

// Hidden checks hidden information. twin builds two states of the same
// game, at the same turn, that differ only in what seat must not know
// (another seat's secret choices); it is called once per playout. Seat's
// answers to every query of Queries, and the error of each probe command
// line (run through a fresh Orders of seat), must be the same in a and b.
// Hidden may be given several times.
func Hidden(probes []string, twin func(rng *rand.Rand) (a, b games.State, seat int)) Option {
	return func(c *config) { c.hidden = append(c.hidden, hiddenCheck{probes: probes, twin: twin}) }
}

// Check plays random games of g with parameters p (nil for the defaults;
// they are resolved against g.Params()) and reports through t everything
// that breaks the contract of package games. See the package comment.
func Check(t *testing.T, g games.Game, p games.Params, player Player, opts ...Option) {
	t.Helper()
	c := config{playouts: 40, maxTurns: 100000, seed: 1}
	for _, o := range opts {
		o(&c)
	}
	if !checkParams(t, g) {
		return
	}
	rp, err := games.Resolve(g.Params(), p)
	if err != nil {
		t.Fatalf("%s: parameters %v: %v", g.Name(), p, err)
	}
	for i := 0; i < c.playouts; i++ {
		seed := c.seed + uint64(i)
		ok := t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			pl := &playout{t: t, c: &c, g: g, p: rp, seed: seed, player: player}
			pl.run()
			for _, h := range c.hidden {
				checkHidden(t, &c, h, seed)
			}
		})
		if !ok {
			return // one failing seed says enough
		}
	}
}

func checkParams(t *testing.T, g games.Game) bool {
	t.Helper()
	ok := true
	seen := map[string]bool{}
	for _, s := range g.Params() {
		if seen[s.Name] {
			t.Errorf("%s: parameter %q listed twice", g.Name(), s.Name)
			ok = false
		}
		seen[s.Name] = true
		if s.Min > s.Max || s.Default < s.Min || s.Default > s.Max {
			t.Errorf("%s: parameter %s: default %d is outside %d..%d", g.Name(), s.Name, s.Default, s.Min, s.Max)
			ok = false
		}
	}
	if g.Name() == "" || g.Describe() == "" {
		t.Errorf("game %T has an empty Name or Describe", g)
	}
	return ok
}

type playout struct {
	t      *testing.T
	c      *config
	g      games.Game
	p      games.Params
	seed   uint64
	player Player
}

func (pl *playout) run() {
	t := pl.t
	a, err := pl.g.New(pl.p, pl.seed)
	if err != nil {
		t.Fatalf("New(%v, %d): %v", pl.p, pl.seed, err)
	}
	b, err := pl.g.New(pl.p, pl.seed)
	if err != nil {
		t.Fatalf("second New(%v, %d): %v", pl.p, pl.seed, err)
	}
	rng := rand.New(rand.NewPCG(pl.seed, 0x6a09e667f3bcc909))
	// Forfeit in about one playout of three, at a random turn.
	forfeitAt := -1
	if rng.IntN(3) == 0 {
		forfeitAt = 1 + rng.IntN(8)
	}
	seats := a.Seats()
	if seats < 1 {
		t.Fatalf("Seats() = %d", seats)
	}
	out := map[int]bool{} // forfeited seats
	applies := 0
	for {
		before := same(t, a, b, seats, pl.c.queries, "the same seed and moves")
		movers := a.Movers()
		checkMovers(t, a, movers, seats)
		if a.Outcome().Over {
			checkOutcome(t, a.Outcome(), seats, out)
			return
		}
		for _, s := range movers {
			if out[s] {
				t.Fatalf("turn %d: seat %d forfeited but is in Movers %v", a.Turn(), s, movers)
			}
		}
		if applies >= pl.c.maxTurns {
			t.Fatalf("not over after %d turns", applies)
		}
		moves := map[int]games.Move{}
		for _, s := range movers {
			m := pl.player(a, s, rng)
			moves[s] = pl.commit(a, s, m, rng)
		}
		if after := snapshot(t, a, seats, pl.c.queries); !reflect.DeepEqual(before, after) {
			t.Fatalf("turn %d: queries or orders changed the state:\n%s", a.Turn(), diff(before, after))
		}
		turn := a.Turn()
		if applies+1 == forfeitAt {
			s := movers[rng.IntN(len(movers))]
			a.Forfeit(s)
			b.Forfeit(s)
			out[s] = true
			delete(moves, s)
			if o := a.Outcome(); o.Over {
				if o.Winner == s {
					t.Fatalf("turn %d: seat %d forfeited and won: %+v", turn, s, o)
				}
				same(t, a, b, seats, pl.c.queries, "the same seed and moves")
				checkMovers(t, a, a.Movers(), seats)
				checkOutcome(t, o, seats, out)
				return
			}
		}
		if err := a.Apply(moves); err != nil {
			t.Fatalf("turn %d: Apply(%v): %v", turn, moves, err)
		}
		if err := b.Apply(moves); err != nil {
			t.Fatalf("turn %d: second copy: Apply(%v): %v", turn, moves, err)
		}
		applies++
		if a.Turn() <= turn {
			t.Fatalf("Turn() = %d after Apply at turn %d, want more", a.Turn(), turn)
		}
	}
}

// commit feeds the player's move m of seat through Orders, tries the
// illegal moves and garbage on the way, and returns the committed move.
func (pl *playout) commit(st games.State, seat int, m games.Move, rng *rand.Rand) games.Move {
	t := pl.t
	turn := st.Turn()
	// Unknown verbs are neither queries nor commands.
	for _, line := range []string{"NoSuchVerbAtAll", "NoSuchVerbAtAll 1 2", "#end", "0"} {
		l := games.ParseLine(line)
		if _, err := st.Query(seat, l); !errors.Is(err, games.ErrNotQuery) {
			t.Errorf("turn %d: seat %d: Query(%q) = %v, want ErrNotQuery", turn, seat, line, err)
		}
		if err := st.Orders(seat).Command(l); !errors.Is(err, games.ErrUnknown) {
			t.Errorf("turn %d: seat %d: Command(%q) = %v, want an error wrapping ErrUnknown", turn, seat, line, err)
		}
	}
	// Known command verbs with garbage arguments are refused.
	verbs := map[string]bool{}
	for _, line := range m {
		verbs[games.ParseLine(line).Verb] = true
	}
	for v := range verbs {
		for _, args := range []string{"\x01garbage", "-999999999999999999999 x", "1e9 1e9 1e9 1e9 1e9 1e9 1e9"} {
			l := games.ParseLine(v + " " + args)
			if _, err := st.Query(seat, l); !errors.Is(err, games.ErrNotQuery) {
				t.Errorf("turn %d: seat %d: command verb %q is also a query (%v)", turn, seat, v, err)
			}
			err := st.Orders(seat).Command(l)
			if err == nil || errors.Is(err, games.ErrUnknown) {
				t.Errorf("turn %d: seat %d: Command(%q) = %v, want it refused", turn, seat, l, err)
			}
		}
		st.Orders(seat).Command(games.ParseLine(v)) // must not panic
	}
	// The game's illegal moves are refused.
	if pl.c.illegal != nil {
		for _, bad := range pl.c.illegal(st, seat, rng) {
			o := st.Orders(seat)
			refused := false
			for _, line := range bad {
				if err := o.Command(games.ParseLine(line)); err != nil {
					if errors.Is(err, games.ErrUnknown) {
						t.Errorf("turn %d: seat %d: illegal move %q: %q is an unknown verb: %v", turn, seat, bad, line, err)
					}
					refused = true
				}
			}
			if mv, err := o.Commit(); err == nil && !refused {
				t.Errorf("turn %d: seat %d: illegal move %q was accepted as %q", turn, seat, bad, mv)
			} else if err != nil && err.Error() == "" {
				t.Errorf("turn %d: seat %d: illegal move %q refused with an empty reason", turn, seat, bad)
			}
		}
	}
	// The player's move is taken.
	o := st.Orders(seat)
	for _, line := range m {
		if err := o.Command(games.ParseLine(line)); err != nil {
			t.Fatalf("turn %d: seat %d: Command(%q) of the player's move %q: %v", turn, seat, line, m, err)
		}
	}
	mv, err := o.Commit()
	if err != nil {
		t.Fatalf("turn %d: seat %d: Commit of the player's move %q: %v", turn, seat, m, err)
	}
	// The committed move is canonical: fed back, it commits to itself.
	o = st.Orders(seat)
	for _, line := range mv {
		if err := o.Command(games.ParseLine(line)); err != nil {
			t.Fatalf("turn %d: seat %d: committed move %q fed back: Command(%q): %v", turn, seat, mv, line, err)
		}
	}
	if mv2, err := o.Commit(); err != nil || !slices.Equal(mv, mv2) {
		t.Fatalf("turn %d: seat %d: committed move %q fed back commits to %q, %v", turn, seat, mv, mv2, err)
	}
	return mv
}

func checkMovers(t *testing.T, st games.State, movers []int, seats int) {
	t.Helper()
	over := st.Outcome().Over
	if over != (len(movers) == 0) {
		t.Fatalf("turn %d: Movers() = %v while Outcome().Over = %v", st.Turn(), movers, over)
	}
	for i, s := range movers {
		if s < 0 || s >= seats {
			t.Fatalf("turn %d: Movers() = %v: seat %d out of 0..%d", st.Turn(), movers, s, seats-1)
		}
		if i > 0 && movers[i-1] >= s {
			t.Fatalf("turn %d: Movers() = %v is not increasing", st.Turn(), movers)
		}
	}
	if st.Turn() < 1 {
		t.Fatalf("Turn() = %d, want >= 1", st.Turn())
	}
}

func checkOutcome(t *testing.T, o games.Outcome, seats int, out map[int]bool) {
	t.Helper()
	if len(o.Scores) != seats {
		t.Fatalf("outcome %+v: %d scores for %d seats", o, len(o.Scores), seats)
	}
	if o.Reason == "" {
		t.Errorf("outcome %+v has no reason", o)
	}
	if o.Winner < -1 || o.Winner >= seats {
		t.Fatalf("outcome %+v: winner out of range", o)
	}
	if o.Winner >= 0 {
		if out[o.Winner] {
			t.Fatalf("outcome %+v: the winner forfeited", o)
		}
		for s, x := range o.Scores {
			if s != o.Winner && x >= o.Scores[o.Winner] {
				t.Fatalf("outcome %+v: seat %d scores as much as the winner", o, s)
			}
		}
	}
}

// snapshot is everything a state shows: its render and every seat's
// answers. The seats ask at the same time, as they do in simultaneous
// turns.
func snapshot(t *testing.T, st games.State, seats int, queries []string) []string {
	t.Helper()
	answers := make([][]string, seats)
	errs := make([]error, seats)
	var wg sync.WaitGroup
	for s := 0; s < seats; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, q := range queries {
				ans, err := st.Query(s, games.ParseLine(q))
				if err != nil {
					errs[s] = fmt.Errorf("seat %d: Query(%q): %w", s, q, err)
					return
				}
				answers[s] = append(answers[s], fmt.Sprintf("seat %d: %s → %s", s, q, ans))
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("turn %d: %v", st.Turn(), err)
	}
	out := []string{"Render → " + st.Render(), fmt.Sprintf("Turn → %d", st.Turn()), fmt.Sprintf("Movers → %v", st.Movers()), fmt.Sprintf("Outcome → %+v", st.Outcome())}
	if v, ok := st.(games.Viewer); ok {
		view := v.View()
		if err := checkView(view, seats); err != nil {
			t.Fatalf("turn %d: View: %v", st.Turn(), err)
		}
		out = append(out, fmt.Sprintf("View → %+v", view))
	}
	for _, a := range answers {
		out = append(out, a...)
	}
	return out
}

// same fails unless a and b show the same thing, and returns a's
// snapshot.
func same(t *testing.T, a, b games.State, seats int, queries []string, why string) []string {
	t.Helper()
	sa, sb := snapshot(t, a, seats, queries), snapshot(t, b, seats, queries)
	if !reflect.DeepEqual(sa, sb) {
		t.Fatalf("turn %d: %s gave different states:\n%s", a.Turn(), why, diff(sa, sb))
	}
	return sa
}

func diff(a, b []string) string {
	var sb strings.Builder
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			fmt.Fprintf(&sb, "before/first:\n%s\nafter/second:\n%s\n", x, y)
		}
	}
	return sb.String()
}

func checkHidden(t *testing.T, c *config, h hiddenCheck, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0xbb67ae8584caa73b))
	a, b, seat := h.twin(rng)
	if a.Turn() != b.Turn() {
		t.Fatalf("hidden: twins at turns %d and %d", a.Turn(), b.Turn())
	}
	for _, q := range c.queries {
		l := games.ParseLine(q)
		x, errA := a.Query(seat, l)
		y, errB := b.Query(seat, l)
		if x != y || fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Fatalf("hidden: turn %d: seat %d learns a secret from %q:\n%s\n(%v)\nversus\n%s\n(%v)\ntwin a:\n%s\ntwin b:\n%s",
				a.Turn(), seat, q, x, errA, y, errB, a.Render(), b.Render())
		}
	}
	for _, p := range h.probes {
		l := games.ParseLine(p)
		ea := a.Orders(seat).Command(l)
		eb := b.Orders(seat).Command(l)
		if fmt.Sprint(ea) != fmt.Sprint(eb) {
			t.Fatalf("hidden: turn %d: seat %d learns a secret from command %q: %v versus %v\ntwin a:\n%s\ntwin b:\n%s",
				a.Turn(), seat, p, ea, eb, a.Render(), b.Render())
		}
	}
	if !slices.Equal(a.Movers(), b.Movers()) {
		t.Fatalf("hidden: turn %d: twins have movers %v and %v", a.Turn(), a.Movers(), b.Movers())
	}
	if va, ok := a.(games.Viewer); ok {
		x, y := va.View(), b.(games.Viewer).View()
		if x.Seen != nil && !reflect.DeepEqual(x.Seen[seat], y.Seen[seat]) {
			t.Fatalf("hidden: turn %d: seat %d's View.Seen differs between the twins:\n%+v\nversus\n%+v",
				a.Turn(), seat, x.Seen, y.Seen)
		}
	}
}

// checkView tells what is wrong with the shape of a view.
func checkView(v games.View, seats int) error {
	if len(v.Grids) == 0 {
		return errors.New("no grids")
	}
	grid := func(g games.Grid) error {
		if g.W <= 0 || g.H <= 0 || len(g.Cells) != g.W*g.H {
			return fmt.Errorf("grid %q is %d×%d with %d cells", g.Name, g.W, g.H, len(g.Cells))
		}
		if g.Kind == "" {
			return fmt.Errorf("grid %q has no kind", g.Name)
		}
		return nil
	}
	for _, g := range v.Grids {
		if err := grid(g); err != nil {
			return err
		}
	}
	for _, m := range v.Marks {
		if m.Grid < 0 || m.Grid >= len(v.Grids) || m.X < 0 || m.Y < 0 || m.X >= v.Grids[m.Grid].W || m.Y >= v.Grids[m.Grid].H {
			return fmt.Errorf("mark %+v is off the grids", m)
		}
		if m.Seat < 0 || m.Seat >= seats {
			return fmt.Errorf("mark %+v: no seat %d", m, m.Seat)
		}
	}
	if len(v.Seats) != seats {
		return fmt.Errorf("%d seat lines for %d seats", len(v.Seats), seats)
	}
	if v.Seen == nil {
		return nil
	}
	if len(v.Seen) != seats {
		return fmt.Errorf("the view for seats (Seen) has %d seats, want %d", len(v.Seen), seats)
	}
	for s, gs := range v.Seen {
		if len(gs) != len(v.Grids) {
			return fmt.Errorf("seat %d sees %d grids, want %d", s, len(gs), len(v.Grids))
		}
		for i, g := range gs {
			if err := grid(g); err != nil {
				return fmt.Errorf("seat %d: %w", s, err)
			}
			if g.W != v.Grids[i].W || g.H != v.Grids[i].H || g.Kind != v.Grids[i].Kind {
				return fmt.Errorf("seat %d sees grid %d as %s %d×%d, spectators as %s %d×%d", s, i, g.Kind, g.W, g.H, v.Grids[i].Kind, v.Grids[i].W, v.Grids[i].H)
			}
		}
	}
	return nil
}
