package judge

import (
	"fmt"

	"judge/games"
)

// Frame is the state of a replayed game after one turn.
type Frame struct {
	Turn  ReplayTurn
	Board string // the game's rendering after the turn
}

// Playback replays rp through the rules of game (the game rp.Game names)
// and returns the initial board and one frame per turn. It fails if a
// recorded move is refused or the outcome differs: the replay does not
// belong to these rules.
func Playback(game games.Game, rp *Replay) (initial string, frames []Frame, err error) {
	err = walk(game, rp, func(i int, st games.State) {
		if i < 0 {
			initial = st.Render()
			return
		}
		frames = append(frames, Frame{Turn: rp.Turns[i], Board: st.Render()})
	})
	if err != nil {
		return "", nil, err
	}
	return initial, frames, nil
}

// walk replays rp through game's rules and calls f with the state at the
// start (i = -1), then after each turn rp.Turns[i]. It fails as Playback
// does.
func walk(game games.Game, rp *Replay, f func(i int, st games.State)) error {
	p, err := games.Resolve(game.Params(), rp.Params)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	st, err := game.New(p, rp.Seed)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer games.Close(st)
	f(-1, st)
	for i, t := range rp.Turns {
		if err := applyTurn(st, t); err != nil {
			return err
		}
		f(i, st)
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

// applyTurn plays the recorded turn t on st: the seats that failed
// forfeit, the others' moves are taken as commands and applied.
func applyTurn(st games.State, t ReplayTurn) error {
	if st.Outcome().Over {
		return fmt.Errorf("replay: turn %d comes after the end of the game", t.Turn)
	}
	moves := map[int]games.Move{}
	for _, m := range t.Moves {
		if m.Seat < 0 || m.Seat >= st.Seats() {
			return fmt.Errorf("replay: turn %d: seat %d of %d", t.Turn, m.Seat, st.Seats())
		}
		if m.Status != OK {
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
	return nil
}
