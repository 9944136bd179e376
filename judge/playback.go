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
	p, err := games.Resolve(game.Params(), rp.Params)
	if err != nil {
		return "", nil, fmt.Errorf("replay: %w", err)
	}
	st, err := game.New(p, rp.Seed)
	if err != nil {
		return "", nil, fmt.Errorf("replay: %w", err)
	}
	initial = st.Render()
	for _, t := range rp.Turns {
		if st.Outcome().Over {
			return "", nil, fmt.Errorf("replay: turn %d comes after the end of the game", t.Turn)
		}
		moves := map[int]games.Move{}
		for _, m := range t.Moves {
			if m.Status != OK {
				st.Forfeit(m.Seat)
				continue
			}
			o := st.Orders(m.Seat)
			for _, c := range m.Move {
				if err := o.Command(games.ParseLine(c)); err != nil {
					return "", nil, fmt.Errorf("replay: turn %d, seat %d: %q: %w", t.Turn, m.Seat, c, err)
				}
			}
			mv, err := o.Commit()
			if err != nil {
				return "", nil, fmt.Errorf("replay: turn %d, seat %d: %w", t.Turn, m.Seat, err)
			}
			moves[m.Seat] = mv
		}
		if !st.Outcome().Over {
			if err := st.Apply(moves); err != nil {
				return "", nil, fmt.Errorf("replay: turn %d: %w", t.Turn, err)
			}
		}
		frames = append(frames, Frame{Turn: t, Board: st.Render()})
	}
	out := st.Outcome()
	if !out.Over {
		return "", nil, fmt.Errorf("replay: the game is not over after %d turns", len(rp.Turns))
	}
	if out.Winner != rp.Outcome.Winner {
		return "", nil, fmt.Errorf("replay: the rules say winner %d, the replay says %d", out.Winner, rp.Outcome.Winner)
	}
	return initial, frames, nil
}
