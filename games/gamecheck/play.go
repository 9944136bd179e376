package gamecheck

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"judge/games"
)

// checker plays one seed twice: the first play records every turn, the
// replay compares.
type checker struct {
	g        games.Game
	p        games.Params
	seed     uint64
	maxTurns int
	turns    []turnRecord
	final    games.Outcome
	ended    bool
	problems []Problem
	seen     map[Kind]bool // kinds already reported for this seed
	turn     int           // the turn being played, for reports
	queries  []string      // the queries the game declares (games.Verbs)
}

// observation is what the game shows at one moment of a turn.
type observation struct {
	render  string
	movers  []int
	answers map[int][]string // seat → answers to each query, in order
	moves   map[int][]games.Move
}

// turnRecord is one turn of the first play.
type turnRecord struct {
	obs       observation
	committed map[int]games.Move
}

// report notes a problem, once per kind and seed.
func (c *checker) report(k Kind, format string, args ...any) {
	if c.seen[k] {
		return
	}
	c.seen[k] = true
	c.problems = append(c.problems, Problem{Kind: k, Seed: c.seed, Turn: c.turn, Detail: fmt.Sprintf(format, args...)})
}

// guard calls f and turns a panic into an error.
func guard(what string, f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%s panicked: %v", what, v)
		}
	}()
	if err := f(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// newState starts the seed's game; nil after a crash (reported).
func (c *checker) newState() games.State {
	var st games.State
	err := guard("New", func() error {
		var err error
		st, err = c.g.New(c.p, c.seed)
		return err
	})
	if err != nil {
		c.report(crashKind(err), "%v", err)
		return nil
	}
	return st
}

// run plays the seed, then replays it if the first play ended or hit the
// turn cap without a crash. Its error stops the whole check.
func (c *checker) run() error {
	st := c.newState()
	if st == nil {
		return nil
	}
	if _, ok := st.(games.Mover); !ok {
		closeState(st)
		return fmt.Errorf("%s: %w", c.g.Name(), ErrNoMoves)
	}
	if v, ok := st.(games.Verbs); ok {
		c.queries = v.Queries()
	}
	rng := rand.New(rand.NewPCG(c.seed, 0x67616d65636b))
	played := c.play(st, rng)
	closeState(st)
	if played {
		c.replay()
	}
	return nil
}

// play plays random legal moves to the end or the cap; false after a
// problem that leaves nothing to replay.
func (c *checker) play(st games.State, rng *rand.Rand) bool {
	for c.turn = 1; ; c.turn++ {
		over, ok := c.outcome(st)
		if !ok {
			return false
		}
		if over.Over {
			c.final, c.ended = over, true
			return true
		}
		if c.turn > c.maxTurns {
			c.report(NeverEnds, "not over after %d turns", c.maxTurns)
			return false
		}
		before, ok := c.observe(st)
		if !ok {
			return false
		}
		c.checkLines(st, before)
		committed, ok := c.orders(st, before, rng)
		if !ok {
			return false
		}
		after, ok := c.observe(st)
		if !ok {
			return false
		}
		c.compare(Unstable, "within the turn, after the turn's commands", before, after)
		c.turns = append(c.turns, turnRecord{obs: before, committed: committed})
		if err := guard("Apply", func() error { return st.Apply(committed) }); err != nil {
			c.report(crashKind(err), "%v (moves %v)", err, committed)
			return false
		}
	}
}

// outcome asks st's outcome; false after a crash (reported).
func (c *checker) outcome(st games.State) (games.Outcome, bool) {
	var out games.Outcome
	if err := guard("Outcome", func() error { out = st.Outcome(); return nil }); err != nil {
		c.report(Crash, "%v", err)
		return out, false
	}
	return out, true
}

// observe asks everything the game shows this turn: render, movers, each
// mover's answer to each declared query and its legal moves.
func (c *checker) observe(st games.State) (observation, bool) {
	o := observation{answers: map[int][]string{}, moves: map[int][]games.Move{}}
	err := guard("Render", func() error { o.render = st.Render(); return nil })
	if err == nil {
		err = guard("Movers", func() error { o.movers = slices.Clone(st.Movers()); return nil })
	}
	if err != nil {
		c.report(Crash, "%v", err)
		return o, false
	}
	if c.faulted(st) {
		return o, false
	}
	for _, seat := range o.movers {
		for _, q := range c.queries {
			var a string
			err := guard("Query "+q, func() error {
				var err error
				a, err = st.Query(seat, games.Line{Verb: q})
				return err
			})
			if err != nil {
				c.report(crashKind(err), "seat %d: %v", seat, err)
				return o, false
			}
			o.answers[seat] = append(o.answers[seat], a)
		}
		err := guard("Moves", func() error { o.moves[seat] = st.(games.Mover).Moves(seat); return nil })
		if err != nil {
			c.report(Crash, "seat %d: %v", seat, err)
			return o, false
		}
		if c.faulted(st) {
			return o, false
		}
		if len(o.moves[seat]) == 0 {
			c.report(NoMoves, "seat %d moves and the game lists no legal move for it (a seat that must pass lists its pass command)", seat)
			return o, false
		}
	}
	return o, true
}

// crashKind is the kind of a failed call's err: RefereeError when the
// game's referee failed, else Crash.
func crashKind(err error) Kind {
	if errors.Is(err, games.ErrReferee) {
		return RefereeError
	}
	return Crash
}

// faulted reports st's fault (games.Faulty), if it has one: its referee
// failed, and the game cannot go on.
func (c *checker) faulted(st games.State) bool {
	err := games.Fault(st)
	if err != nil {
		c.report(RefereeError, "%v", err)
	}
	return err != nil
}

// checkLines reports answers of several lines to one-line queries.
func (c *checker) checkLines(st games.State, o observation) {
	ml, ok := st.(games.MultiLine)
	if !ok {
		return
	}
	for _, seat := range o.movers {
		for i, a := range o.answers[seat] {
			if strings.Contains(a, "\n") && !ml.MultiLine(c.queries[i]) {
				c.report(NotOneLine, "seat %d: %s answered %d lines, and it is declared one-line: %q",
					seat, c.queries[i], strings.Count(a, "\n")+1, clip(a))
			}
		}
	}
}

// orders plays one listed move of each mover, drawn from rng, through
// Orders; false after a crash.
func (c *checker) orders(st games.State, o observation, rng *rand.Rand) (map[int]games.Move, bool) {
	committed := map[int]games.Move{}
	for _, seat := range o.movers {
		m := o.moves[seat][rng.IntN(len(o.moves[seat]))]
		got, kind, err := c.command(st, seat, m)
		if err != nil {
			if kind == MoveRefused {
				c.report(kind, "seat %d: %q, listed by Moves: %v", seat, m, err)
			} else {
				c.report(kind, "seat %d: %v", seat, err)
			}
			return nil, false
		}
		committed[seat] = got
	}
	return committed, true
}

// command feeds move's lines through a fresh Orders of seat and commits.
// A refusal (an error of Command or Commit) is kind MoveRefused; a panic
// is a Crash.
func (c *checker) command(st games.State, seat int, move games.Move) (games.Move, Kind, error) {
	var got games.Move
	var refused error
	err := guard("Orders", func() error {
		ord := st.Orders(seat)
		for _, line := range move {
			if err := ord.Command(games.ParseLine(line)); err != nil {
				refused = fmt.Errorf("command %s: %w", line, err)
				return nil
			}
		}
		var err error
		if got, err = ord.Commit(); err != nil {
			refused = fmt.Errorf("commit: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, Crash, err
	}
	if f := games.Fault(st); f != nil {
		return nil, RefereeError, f
	}
	if refused != nil {
		return nil, MoveRefused, refused
	}
	return got, "", nil
}

// compare reports the first difference between two observations.
func (c *checker) compare(k Kind, when string, a, b observation) bool {
	switch {
	case a.render != b.render:
		c.report(k, "Render %s: %q, was %q", when, clip(b.render), clip(a.render))
	case !slices.Equal(a.movers, b.movers):
		c.report(k, "Movers %s: %v, was %v", when, b.movers, a.movers)
	case !reflect.DeepEqual(a.moves, b.moves):
		c.report(k, "the legal moves %s: %s, were %s", when, clipMoves(b.moves), clipMoves(a.moves))
	default:
		for _, seat := range a.movers {
			for i := range a.answers[seat] {
				if a.answers[seat][i] != b.answers[seat][i] {
					c.report(k, "seat %d: %s answered %q %s, and %q before",
						seat, c.queries[i], clip(b.answers[seat][i]), when, clip(a.answers[seat][i]))
					return false
				}
			}
		}
		return true
	}
	return false
}

// closeState ends a state that holds something to end (a referee
// program: a plugin game's state is an io.Closer).
func closeState(st games.State) {
	if c, ok := st.(interface{ Close() error }); ok {
		c.Close()
	}
}

// replay plays the recorded moves again from a new state of the same
// seed and compares every turn.
func (c *checker) replay() {
	st := c.newState()
	if st == nil {
		return
	}
	defer closeState(st)
	for i, rec := range c.turns {
		c.turn = i + 1
		obs, ok := c.observe(st)
		if !ok || !c.compare(NonDeterminism, "on replay", rec.obs, obs) {
			return
		}
		for _, seat := range rec.obs.movers {
			got, kind, err := c.command(st, seat, rec.committed[seat])
			if err != nil {
				if kind == MoveRefused {
					kind = ReplayRefused
				}
				c.report(kind, "seat %d: %q, taken in the first play: %v", seat, rec.committed[seat], err)
				return
			}
			if !slices.Equal(got, rec.committed[seat]) {
				c.report(NonDeterminism, "seat %d: %q committed as %q on replay, as %q in the first play",
					seat, rec.committed[seat], got, rec.committed[seat])
				return
			}
		}
		// The first play asked again after the commands: so does the
		// replay, call for call.
		if _, ok := c.observe(st); !ok {
			return
		}
		if err := guard("Apply", func() error { return st.Apply(rec.committed) }); err != nil {
			c.report(crashKind(err), "on replay: %v (moves %v)", err, rec.committed)
			return
		}
	}
	c.turn = len(c.turns) + 1
	if out, ok := c.outcome(st); ok && !reflect.DeepEqual(out, c.final) {
		c.report(NonDeterminism, "the outcome on replay is %+v, it was %+v", out, c.final)
	}
}

// clip shortens s for a report.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

func clipMoves(m map[int][]games.Move) string { return clip(fmt.Sprint(m)) }
