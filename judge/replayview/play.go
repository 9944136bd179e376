// Package replayview decodes a replay into what happened turn by turn, by
// playing its moves again through the game's rules, for the terminal
// (judge replay) and for the browser: a self-contained HTML viewer that
// draws each turn's View on a canvas.
package replayview

import (
	"fmt"
	"slices"

	"judge/games"
	"judge/judge"
)

// Step is the game after one turn of a replay (or at the start).
type Step struct {
	// Index is 0 at the start, then i+1 after rp.Turns[i].
	Index int
	// Turn is the turn just played, nil at the start.
	Turn *judge.ReplayTurn
	// State is the game after the turn. It is only valid during the call
	// and must not be changed.
	State games.State
}

// Play replays rp through g's rules and calls f at the start and after
// every turn. It fails if a recorded move is refused or the outcome
// differs: the replay does not belong to these rules. An error from f
// stops the replay and is returned.
func Play(g games.Game, rp *judge.Replay, f func(Step) error) error {
	p, err := games.Resolve(g.Params(), rp.Params)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	st, err := g.New(p, rp.Seed)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer games.Close(st)
	if len(rp.Bots) != st.Seats() {
		return fmt.Errorf("replay: %d bots for the game's %d seats", len(rp.Bots), st.Seats())
	}
	if err := f(Step{State: st}); err != nil {
		return err
	}
	for i := range rp.Turns {
		t := &rp.Turns[i]
		if st.Outcome().Over {
			return fmt.Errorf("replay: turn %d comes after the end of the game", t.Turn)
		}
		moves := map[int]games.Move{}
		movers := st.Movers()
		seen := map[int]bool{}
		for _, m := range t.Moves {
			switch {
			case m.Seat < 0 || m.Seat >= st.Seats():
				return fmt.Errorf("replay: turn %d: seat %d of %d", t.Turn, m.Seat, st.Seats())
			case seen[m.Seat]:
				return fmt.Errorf("replay: turn %d: seat %d twice", t.Turn, m.Seat)
			case m.Status == judge.OK && !slices.Contains(movers, m.Seat):
				return fmt.Errorf("replay: turn %d: seat %d moves out of turn", t.Turn, m.Seat)
			}
			seen[m.Seat] = true
			if m.Status != judge.OK {
				st.Forfeit(m.Seat)
				continue
			}
			o := st.Orders(m.Seat)
			for _, c := range m.Move {
				if err := o.Command(games.ParseLine(c)); err != nil {
					return fmt.Errorf("replay: turn %d, seat %d: %q: %w", t.Turn, m.Seat, c, err)
				}
			}
			mv, err := o.Commit()
			if err != nil {
				return fmt.Errorf("replay: turn %d, seat %d: %w", t.Turn, m.Seat, err)
			}
			moves[m.Seat] = mv
		}
		if !st.Outcome().Over {
			if err := st.Apply(moves); err != nil {
				return fmt.Errorf("replay: turn %d: %w", t.Turn, err)
			}
		}
		if err := f(Step{Index: i + 1, Turn: t, State: st}); err != nil {
			return err
		}
	}
	out := st.Outcome()
	if !out.Over {
		return fmt.Errorf("replay: the game is not over after %d turns", len(rp.Turns))
	}
	if out.Winner != rp.Outcome.Winner {
		return fmt.Errorf("replay: the rules say winner %d, the replay says %d", out.Winner, rp.Outcome.Winner)
	}
	return nil
}

// TurnTraces cuts each bot's protocol transcript into its turns: the
// result's [i][seat] holds the lines seat exchanged in rp.Turns[i]. A
// seat's part of a turn ends with its #END; the k-th part goes to the
// k-th turn the seat moved in, and what follows its last #END to its last
// turn. It is nil when no bot has a transcript.
func TurnTraces(rp *judge.Replay) [][][]judge.TraceLine {
	traced := false
	for _, b := range rp.Bots {
		traced = traced || len(b.Trace) > 0
	}
	if !traced {
		return nil
	}
	out := make([][][]judge.TraceLine, len(rp.Turns))
	for i := range out {
		out[i] = make([][]judge.TraceLine, len(rp.Bots))
	}
	for seat, b := range rp.Bots {
		var turns []int // indexes of the turns seat moved in
		for i, t := range rp.Turns {
			for _, m := range t.Moves {
				if m.Seat == seat {
					turns = append(turns, i)
					break
				}
			}
		}
		if len(turns) == 0 {
			continue
		}
		k := 0
		for _, l := range b.Trace {
			i := turns[min(k, len(turns)-1)]
			out[i][seat] = append(out[i][seat], l)
			if l.Dir == "out" && l.Line == "#END" {
				k++
			}
		}
	}
	return out
}
