// Package gamecheck plays any game against itself and reports what its
// rules get wrong, as `judge game check` prints it: random legal play over
// many seeds, each game played twice from the same seed with the same
// moves.
//
// It finds:
//   - non-determinism: the replay gives another answer, render, list of
//     moves, committed move or outcome than the first play (the game drew
//     randomness elsewhere than from its seed, read a clock, kept state
//     between games);
//   - a game that never ends: not over within MaxTurns turns;
//   - a crash: New, Query, Orders, Command, Commit, Apply, Moves or Render
//     returned an error where none may come, or panicked;
//   - a referee error: the state's fault (games.Faulty), a plugin game's
//     referee that crashed, hung or answered nonsense;
//   - a query whose answer changes within a turn: each query the game
//     declares (games.Verbs) is asked by every mover before and after the
//     turn's other calls;
//   - an answer of several lines to a query the game declares one-line
//     (games.MultiLine);
//   - a move the game lists as legal (games.Mover) but refuses, and a
//     command taken in the first play but refused on replay.
//
// Random play needs the legal moves: the game's states must implement
// games.Mover.
package gamecheck

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"judge/games"
)

// Kind names what a game got wrong.
type Kind string

// Kinds of problems.
const (
	NonDeterminism Kind = "non-determinism"
	NeverEnds      Kind = "never-ends"
	Crash          Kind = "crash"
	Unstable       Kind = "unstable-answer" // a query answered differently within one turn
	NotOneLine     Kind = "not-one-line"
	MoveRefused    Kind = "move-refused"   // a move from Moves refused by Command or Commit
	ReplayRefused  Kind = "replay-refused" // a command taken in play, refused on replay
	NoMoves        Kind = "no-moves"       // a mover with no move while the game is not over
	RefereeError   Kind = "referee-error"  // a state's fault (games.Faulty): its referee failed
)

// Problem is one thing a game got wrong, where it showed: the seed of the
// game and its turn (0 before the first turn).
type Problem struct {
	Kind   Kind
	Seed   uint64
	Turn   int
	Detail string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: seed %d, turn %d: %s", p.Kind, p.Seed, p.Turn, p.Detail)
}

// Options say how much to play. The zero value plays 100 seeds from 1, at
// most 10,000 turns each, with the game's default parameters.
type Options struct {
	Seeds     int          // games played; 0: 100
	FirstSeed uint64       // seeds are FirstSeed, FirstSeed+1, …; 0: 1
	MaxTurns  int          // a game longer than this never ends; 0: 10,000
	Params    games.Params // checked against the game's; nil: the defaults
}

// Report is what Check found.
type Report struct {
	Game     string
	Seeds    int // games played
	Turns    int // turns played, first plays only
	Ended    int // games that ended within MaxTurns
	Problems []Problem
}

// OK tells whether no problem was found.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// Summary says what was found, each kind of problem once with how many
// seeds showed it and its first example.
func (r Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d games, %d turns, %d ended", r.Game, r.Seeds, r.Turns, r.Ended)
	if r.OK() {
		b.WriteString(": no problem found\n")
		return b.String()
	}
	byKind := map[Kind][]Problem{}
	for _, p := range r.Problems {
		byKind[p.Kind] = append(byKind[p.Kind], p)
	}
	fmt.Fprintf(&b, ": %s\n", games.Plural(len(byKind), "kind of problem", "kinds of problems"))
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		ps := byKind[k]
		seeds := map[uint64]bool{}
		for _, p := range ps {
			seeds[p.Seed] = true
		}
		fmt.Fprintf(&b, "  %s in %s; first: seed %d, turn %d: %s\n",
			k, games.Plural(len(seeds), "game", "games"), ps[0].Seed, ps[0].Turn, ps[0].Detail)
	}
	return b.String()
}

// ErrNoMoves is returned by Check for a game whose states do not list
// their legal moves: random play needs them.
var ErrNoMoves = errors.New("the game's states do not list their legal moves (games.Mover): random play needs them")

// Check plays g as Options say and reports what it gets wrong. The error
// is for what stops the check itself: parameters the game does not take,
// a game without games.Mover, ctx done (the report so far comes with it).
func Check(ctx context.Context, g games.Game, o Options) (Report, error) {
	o.Seeds = cmp.Or(o.Seeds, 100)
	o.FirstSeed = cmp.Or(o.FirstSeed, 1)
	o.MaxTurns = cmp.Or(o.MaxTurns, 10000)
	r := Report{Game: g.Name()}
	p, err := games.Resolve(g.Params(), o.Params)
	if err != nil {
		return r, fmt.Errorf("%s: %w", g.Name(), err)
	}
	for i := range o.Seeds {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		seed := o.FirstSeed + uint64(i)
		c := &checker{g: g, p: p, seed: seed, maxTurns: o.MaxTurns, seen: map[Kind]bool{}}
		if err := c.run(); err != nil {
			return r, err
		}
		r.Seeds++
		r.Turns += len(c.turns)
		if c.ended {
			r.Ended++
		}
		r.Problems = append(r.Problems, c.problems...)
	}
	return r, nil
}
